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
use bashni_club::rating::{Glicko2, Rating};

use serde_json::{Value, json};

/// How long a rating must go unused to count as one idle rating period (30 days).
pub const IDLE_PERIOD_MS: i64 = 30 * 24 * 60 * 60 * 1000;

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
