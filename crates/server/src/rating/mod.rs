//! Rated games: which games count for ratings, and what a rated game's end does to both
//! players' ratings (Glicko-2, [`bashni_club::rating`]).
//!
//! A game counts when it was asked for as rated, is between two people online (a friend's
//! invite or the lobby, never against the engine), both seats are held by accounts, the
//! two seats were not taken from the same address, it has a clock or days per move, it
//! was not aborted, and both sides had moved before it ended. A game of two people at one
//! address is played, but not rated: the state says why (`unrated_reason`).
//!
//! Ratings are kept per variant (`bashni`, `russian`) and pace ([`Pace`]: blitz, rapid,
//! classical from the clock, correspondence from days per move). The store applies a rated
//! game's result in the same transaction that stores the game's end (see
//! `store::ratings`), so it counts exactly once, however many servers share the games.
//!
//! Every game is a rating period of its own ([`Glicko2::rate_game`]). A rating not used for a
//! while grows less certain: for every full [`IDLE_PERIOD_MS`] since a rating last changed,
//! its deviation grows as for one period without games ([`Glicko2::idle_for`]), before the
//! game is rated.

use bashni_club::GameScore;
use bashni_club::pace::Pace;
use bashni_club::rating::{Glicko2, Rating};
use bashni_rules::{Color, GameResult};
use serde_json::{Value, json};

use crate::game::round::{Mode, Round};

/// How long a rating must go unused to count as one idle rating period (30 days).
pub const IDLE_PERIOD_MS: i64 = 30 * 24 * 60 * 60 * 1000;

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

/// A stored rating and when it last changed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stored {
    /// The rating.
    pub rating: Rating,
    /// When it last changed (ms since 1970).
    pub updated_ms: i64,
}

/// The rating a player brings to a game at `now`: a new player's, or the stored one grown
/// less certain by the idle periods since it changed.
pub fn rating_at(stored: Option<Stored>, now: i64) -> Rating {
    match stored {
        None => Rating::NEW,
        Some(stored) => {
            let periods = (now - stored.updated_ms).max(0) / IDLE_PERIOD_MS;
            Glicko2::default().idle_for(stored.rating, u32::try_from(periods).unwrap_or(u32::MAX))
        }
    }
}

/// Both players' ratings after a game, from the ratings they bring to it.
pub fn rate(white: Rating, black: Rating, score: GameScore) -> (Rating, Rating) {
    Glicko2::default().rate_game(white, black, score)
}

/// One side's rating change in a game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SideChange {
    /// The account.
    pub player: i64,
    /// The rating before the game.
    pub before: f64,
    /// The deviation before.
    pub before_deviation: f64,
    /// The rating after.
    pub after: f64,
    /// The deviation after.
    pub after_deviation: f64,
}

impl SideChange {
    fn view(&self) -> Value {
        let before = self.before.round() as i64;
        let after = self.after.round() as i64;
        json!({
            "before": before,
            "after": after,
            "diff": after - before,
            "provisional": self.after_deviation >= bashni_club::rating::PROVISIONAL_DEVIATION,
        })
    }
}

/// Both sides' rating changes in a rated game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameRating {
    /// White's.
    pub white: SideChange,
    /// Black's.
    pub black: SideChange,
}

impl GameRating {
    /// As the game's state shows it: each side's rating before and after (rounded) and
    /// the difference.
    pub fn view(&self) -> Value {
        json!({"white": self.white.view(), "black": self.black.view()})
    }
}
