//! Changes of games waiting for a group commit: both databases store the changes waiting
//! together in one transaction, each under its own savepoint, and answer each.

use tokio::sync::oneshot;

use super::rows::{MoveRow, move_row};
use super::{Change, StoreError};
use crate::game::round::Round;
use crate::rating::GameRating;

/// The most changes stored in one transaction.
pub(super) const MOST_CHANGES_AT_ONCE: usize = 64;

/// What storing a change gave: the round back, and the rating changes it made.
pub(super) type Saved = (Round, Result<Option<GameRating>, StoreError>);

/// A change of a game waiting to be stored, and who waits for the answer.
pub(super) struct PendingChange {
    round: Round,
    change: Change,
    was: u64,
    answer: oneshot::Sender<Saved>,
}

impl PendingChange {
    /// `change` of `round`, computed on version `was`, and where its answer comes.
    pub(super) fn new(round: Round, change: Change, was: u64) -> (PendingChange, Waiting) {
        let (answer, answered) = oneshot::channel();
        let pending = PendingChange {
            round,
            change,
            was,
            answer,
        };
        (pending, Waiting(answered))
    }

    /// The round after the change, the change, and the version it was computed on.
    pub(super) fn change(&self) -> (&Round, Change, u64) {
        (&self.round, self.change, self.was)
    }

    /// Answers with what storing it gave.
    pub(super) fn answer(self, result: Result<Option<GameRating>, StoreError>) {
        let _ = self.answer.send((self.round, result));
    }
}

/// Where a pending change's answer comes.
pub(super) struct Waiting(oneshot::Receiver<Saved>);

impl Waiting {
    /// The answer; an error when the writer stopped without giving one.
    pub(super) async fn answered(self) -> Result<Saved, StoreError> {
        self.0
            .await
            .map_err(|_| StoreError::other("the database's writer dropped a change"))
    }
}

/// Each of `changes` refused for `error` (a batch none of which is stored).
pub(super) fn all_refused<T>(changes: usize, error: &StoreError) -> Vec<Result<T, StoreError>> {
    (0..changes).map(|_| Err(error.clone())).collect()
}

/// The row of the move a [`Change::Move`] of `round` stores: its last.
pub(super) fn last_move_row(round: &Round) -> Result<MoveRow, StoreError> {
    round
        .game
        .ply()
        .checked_sub(1)
        .and_then(|ply| move_row(round, ply))
        .ok_or_else(|| StoreError::other("a move was to be stored, but none is"))
}
