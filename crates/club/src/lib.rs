//! Competition logic for Bashni and Russian draughts: ratings, paces and tournaments.
//!
//! Everything here is plain data in and plain data out: no input or output, no database, no
//! reading of the clock, no threads. The server keeps the records and calls these functions.
//!
//! * [`rating`]: Glicko-2 ratings ([`rating::Glicko2::rate_game`] after each rated game).
//! * [`pace`]: whether a time control is blitz, rapid, classical or correspondence.
//! * [`tournament`]: round robins by the Berger tables, Swiss pairings, micro-matches on
//!   openings drawn from a ballot, standings with tie-breaks and the crosstable.
//!
//! Players of a tournament are numbered from 0 in their starting order (seeding); the
//! server keeps the map from these numbers to its accounts.
//!
//! ```
//! use bashni_club::tournament::{History, Points, Tiebreak, round_robin, standings};
//! use bashni_club::GameScore;
//!
//! let rounds = round_robin::rounds(4);
//! let mut history = History::new(4);
//! for (number, round) in rounds.iter().enumerate() {
//!     for pairing in &round.pairings {
//!         // Every game a draw, for the example.
//!         history.add_game(number as u32 + 1, pairing.white, pairing.black, GameScore::Draw);
//!     }
//! }
//! let table = standings::standings(&history, Points::default(), &Tiebreak::ROUND_ROBIN);
//! assert!(table.iter().all(|row| row.points == 3 && row.place == 1));
//! ```

pub mod pace;
pub mod rating;
mod rng;
pub mod tournament;

use serde::{Deserialize, Serialize};

/// How a game ended, as the board saw it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameScore {
    /// White won.
    WhiteWins,
    /// The game was drawn.
    Draw,
    /// Black won.
    BlackWins,
}

impl GameScore {
    /// How the game ended for White.
    pub const fn for_white(self) -> Score {
        match self {
            GameScore::WhiteWins => Score::Win,
            GameScore::Draw => Score::Draw,
            GameScore::BlackWins => Score::Loss,
        }
    }

    /// How the game ended for Black.
    pub const fn for_black(self) -> Score {
        self.for_white().reversed()
    }
}

impl From<bashni_rules::GameResult> for GameScore {
    fn from(result: bashni_rules::GameResult) -> GameScore {
        match result {
            bashni_rules::GameResult::WhiteWins => GameScore::WhiteWins,
            bashni_rules::GameResult::Draw => GameScore::Draw,
            bashni_rules::GameResult::BlackWins => GameScore::BlackWins,
        }
    }
}

/// How a game ended for one of its players.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Score {
    /// The player won.
    Win,
    /// The game was drawn.
    Draw,
    /// The player lost.
    Loss,
}

impl Score {
    /// The score as a number for ratings: 1 for a win, 0.5 for a draw, 0 for a loss.
    pub const fn value(self) -> f64 {
        match self {
            Score::Win => 1.0,
            Score::Draw => 0.5,
            Score::Loss => 0.0,
        }
    }

    /// The same game seen from the other player.
    pub const fn reversed(self) -> Score {
        match self {
            Score::Win => Score::Loss,
            Score::Draw => Score::Draw,
            Score::Loss => Score::Win,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_from_both_sides() {
        assert_eq!(GameScore::WhiteWins.for_white(), Score::Win);
        assert_eq!(GameScore::WhiteWins.for_black(), Score::Loss);
        assert_eq!(GameScore::BlackWins.for_white(), Score::Loss);
        assert_eq!(GameScore::BlackWins.for_black(), Score::Win);
        assert_eq!(GameScore::Draw.for_black(), Score::Draw);
        assert_eq!(Score::Win.value() + Score::Loss.value(), 1.0);
        assert_eq!(
            GameScore::from(bashni_rules::GameResult::BlackWins),
            GameScore::BlackWins
        );
    }

    #[test]
    fn scores_in_json() {
        let text = serde_json::to_string(&[GameScore::WhiteWins, GameScore::Draw]).expect("json");
        assert_eq!(text, r#"["white_wins","draw"]"#);
        assert_eq!(
            serde_json::to_string(&Score::Loss).expect("json"),
            r#""loss""#
        );
    }
}
