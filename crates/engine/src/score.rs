//! Scores of positions, in hundredths of a man, and won or lost positions.

use std::fmt;

/// A score from the point of view of the side to move. One man is worth about 100.
pub type Value = i32;

/// The score of a won position: the side to move wins at once (its opponent has no move).
pub const WIN: Value = 30_000;
/// Scores beyond this are wins or losses found by the search.
pub const WIN_BOUND: Value = WIN - 1_000;
/// A score above every possible one, for search windows.
pub const INFINITE: Value = WIN + 1;
/// The score of a drawn position.
pub const DRAW: Value = 0;

/// A score as people read it: an evaluation, or a win or loss in so many moves.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Score {
    /// An evaluation in hundredths of a man, positive when the side to move stands better.
    Value(Value),
    /// The side to move wins in this many plies.
    WinIn(u32),
    /// The side to move loses in this many plies.
    LossIn(u32),
}

impl Score {
    /// Reads a search value.
    pub fn from_value(value: Value) -> Score {
        if value >= WIN_BOUND {
            Score::WinIn((WIN - value) as u32)
        } else if value <= -WIN_BOUND {
            Score::LossIn((WIN + value) as u32)
        } else {
            Score::Value(value)
        }
    }

    /// The value again, for comparisons.
    pub fn value(self) -> Value {
        match self {
            Score::Value(v) => v,
            Score::WinIn(plies) => WIN - plies as Value,
            Score::LossIn(plies) => -WIN + plies as Value,
        }
    }
}

/// `123` for an evaluation, `win 5` / `loss 4` (plies) for a found result.
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Value(v) => write!(f, "{v}"),
            Score::WinIn(plies) => write!(f, "win {plies}"),
            Score::LossIn(plies) => write!(f, "loss {plies}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_and_results_round_trip() {
        for value in [-WIN, -WIN + 7, -5, 0, 250, WIN - 3, WIN] {
            assert_eq!(Score::from_value(value).value(), value);
        }
        assert_eq!(Score::from_value(WIN - 3), Score::WinIn(3));
        assert_eq!(Score::from_value(-WIN + 4).to_string(), "loss 4");
        assert_eq!(Score::from_value(120).to_string(), "120");
    }
}
