//! Why an action was not carried out.

use super::*;
use crate::texts::Text;

/// Why an action was not carried out. Nothing was changed in any case.
#[derive(Debug)]
pub enum ActionError {
    /// The rules or the game's state refuse it.
    Round(RoundError),
    /// The store failed; the game stays as it was.
    Store(StoreError),
    /// There is no such game.
    NotFound(String),
    /// The request is malformed.
    Invalid(String),
    /// A limit was reached (too many games, analyses or requests).
    TooMany(Text),
    /// Something the server needs is missing (random numbers, an engine).
    Unavailable(String),
    /// The engine does not help a game between people in progress (see [`crate::game::fair_play`]).
    FairPlay(Text),
    /// A refusal with a code of its own (the lobby's `seek_gone`, `own_seek`,
    /// `rated_needs_account`; the tournaments' `tournament_started`, ...).
    Refused {
        /// What is wrong, for programs.
        code: &'static str,
        /// What is wrong, for people.
        message: Text,
    },
}

impl std::fmt::Display for ActionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ActionError::Round(error) => error.fmt(f),
            ActionError::Store(error) => write!(f, "the store failed: {error:?}"),
            ActionError::NotFound(message)
            | ActionError::Invalid(message)
            | ActionError::Unavailable(message) => f.write_str(message),
            ActionError::TooMany(text)
            | ActionError::FairPlay(text)
            | ActionError::Refused { message: text, .. } => text.fmt(f),
        }
    }
}

impl From<RoundError> for ActionError {
    fn from(error: RoundError) -> ActionError {
        ActionError::Round(error)
    }
}

impl From<StoreError> for ActionError {
    fn from(error: StoreError) -> ActionError {
        ActionError::Store(error)
    }
}

impl From<crate::game::secret::NoRandomness> for ActionError {
    fn from(_: crate::game::secret::NoRandomness) -> ActionError {
        ActionError::Unavailable("no random numbers available".into())
    }
}
