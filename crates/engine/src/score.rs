//! Scores of positions, in hundredths of a man, and won or lost positions.

use std::fmt;

use bashni_egtb::{Probe, Verdict};
use bashni_rules::Color;

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
/// The score of a position the endgame tables call won at once; a win in `d` plies by the
/// tables is `TABLE_WIN - d`. Below every win the search finds itself, and far above every
/// evaluation, so that the search goes for a won ending and, among them, the shortest.
pub const TABLE_WIN: Value = WIN_BOUND - 1;

/// The score of a position the endgame tables cover, for the side to move. It does not
/// depend on how deep in the search the position is, so the transposition table keeps it
/// as it is.
pub fn table_value(probe: Probe) -> Value {
    let distance = probe.distance as Value;
    match probe.verdict {
        Verdict::Win => TABLE_WIN - distance,
        Verdict::Loss => -TABLE_WIN + distance,
        Verdict::Draw => DRAW,
    }
}

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

    /// The score as people read it, for the side to move: `+1.35`, `-0.20` (in men), or
    /// `win in 4` / `loss in 4`, counting the winner's moves.
    pub fn text(self) -> String {
        match self {
            Score::Value(v) => men(v),
            Score::WinIn(plies) => format!("win in {}", winner_moves(plies)),
            Score::LossIn(plies) => format!("loss in {}", winner_moves(plies)),
        }
    }

    /// The score as people read it, for White, when `side_to_move` was to move in the
    /// position scored: `+1.35` (White stands better by 1.35 men), `-0.20`, or
    /// `White wins in 4` / `Black wins in 2`, counting the winner's moves.
    pub fn white_text(self, side_to_move: Color) -> String {
        match self {
            Score::Value(v) if side_to_move == Color::White => men(v),
            Score::Value(v) => men(-v),
            Score::WinIn(plies) => format!("{side_to_move} wins in {}", winner_moves(plies)),
            Score::LossIn(plies) => format!(
                "{} wins in {}",
                side_to_move.opponent(),
                winner_moves(plies)
            ),
        }
    }
}

/// Hundredths of a man as men with two decimals and a sign: `+1.35`, `-0.20`, `+0.00`.
fn men(value: Value) -> String {
    format!("{:+.2}", f64::from(value) / 100.0)
}

/// How many of the `plies` plies up to a win (the last one the winner's) are the winner's
/// moves: 7 plies are 4 of them, 4 plies are 2.
fn winner_moves(plies: u32) -> u32 {
    plies.div_ceil(2)
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

    #[test]
    fn texts_for_the_side_to_move_and_for_white() {
        assert_eq!(Score::Value(135).text(), "+1.35");
        assert_eq!(Score::Value(-20).text(), "-0.20");
        assert_eq!(Score::Value(0).text(), "+0.00");
        assert_eq!(Score::WinIn(7).text(), "win in 4");
        assert_eq!(Score::LossIn(4).text(), "loss in 2");

        assert_eq!(Score::Value(135).white_text(Color::White), "+1.35");
        assert_eq!(Score::Value(135).white_text(Color::Black), "-1.35");
        assert_eq!(Score::Value(-20).white_text(Color::Black), "+0.20");
        assert_eq!(Score::WinIn(7).white_text(Color::White), "White wins in 4");
        assert_eq!(Score::WinIn(7).white_text(Color::Black), "Black wins in 4");
        assert_eq!(Score::LossIn(4).white_text(Color::White), "Black wins in 2");
        assert_eq!(Score::LossIn(4).white_text(Color::Black), "White wins in 2");
    }
}
