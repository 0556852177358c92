//! Which games count for ratings, and how a rated game ended: the rules of rating read from
//! a round (the arithmetic is in [`crate::rating`]).

use bashni_club::GameScore;
use bashni_club::pace::Pace;
use bashni_rules::{Color, GameResult};

use crate::game::round::{Mode, Round};

/// Why a game asked for as rated does not count, if it does not; `None` when it counts (or
/// may still count: a seat not yet taken).
pub fn unrated_reason(round: &Round) -> Option<&'static str> {
    if !round.rated {
        return None;
    }
    if round.mode != Mode::Friend {
        return Some("not between two people online");
    }
    if pace(round).is_none() {
        return Some("no clock");
    }
    if round.aborted {
        return Some("aborted");
    }
    if round.is_over() && !round.both_have_moved() {
        // A resignation or a flag before both sides have played says nothing of strength.
        return Some("ended before both sides moved");
    }
    let missing = |color: Color| round.player(color).joined && round.account(color).is_none();
    if missing(Color::White) || missing(Color::Black) {
        return Some("a guest seat");
    }
    match (&round.white_address, &round.black_address) {
        (Some(white), Some(black)) if white == black => Some("same address"),
        _ => None,
    }
}

/// Whether the game counts for ratings (so far: a seat may still be free).
pub fn is_rated(round: &Round) -> bool {
    round.rated && unrated_reason(round).is_none()
}

/// The pace a game is rated in: correspondence for days per move, else from its clock.
pub fn pace(round: &Round) -> Option<Pace> {
    if round.correspondence.is_some() {
        return Some(Pace::Correspondence);
    }
    round.control().map(|control| Pace::of(&control))
}

/// A rated game that has ended: whose ratings change, and how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatedEnd {
    /// `bashni` or `russian`.
    pub variant: &'static str,
    /// The pace's name.
    pub pace: &'static str,
    /// White's account.
    pub white: i64,
    /// Black's account.
    pub black: i64,
    /// How the game ended.
    pub score: GameScore,
}

/// The rated end of `round`: `Some` once a game that counts has a result.
pub fn rated_end(round: &Round) -> Option<RatedEnd> {
    if !is_rated(round) {
        return None;
    }
    let result = round.ending()?.result?;
    Some(RatedEnd {
        variant: round.variant().name(),
        pace: pace(round)?.name(),
        white: round.white_account?,
        black: round.black_account?,
        score: match result {
            GameResult::WhiteWins => GameScore::WhiteWins,
            GameResult::BlackWins => GameScore::BlackWins,
            GameResult::Draw => GameScore::Draw,
        },
    })
}
