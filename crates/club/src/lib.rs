//! Competition logic for Bashni and Russian draughts.
//!
//! Everything here is plain data in and plain data out: no input or output, no database, no
//! reading of the clock, no threads. The server keeps the records and calls these functions.
//!
//! * [`rating`]: Glicko-2 ratings ([`rating::Glicko2::rate_game`] after each rated game).
//! * [`pace`]: whether a time control is blitz, rapid, classical or correspondence.

pub mod pace;
pub mod rating;

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
