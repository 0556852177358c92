//! The value of a position as stored: one byte holding the distance to the end of the game.
//!
//! A position lost for the side to move is an even number of plies from the end (0: it has
//! no move now), a won one an odd number; so the distance alone tells the result. Two bytes
//! above the distances stand for a draw and for a slot that is no position.

use std::fmt;

/// A drawn position.
pub(crate) const DRAW: u8 = 255;
/// A slot of the numbering that is no position (two pieces on one square).
pub(crate) const NO_POSITION: u8 = 254;
/// The longest distance of a win that is stored as it is; longer ones are stored as this.
pub const LONGEST_WIN: u32 = 253;
/// The longest distance of a loss that is stored as it is; longer ones are stored as this.
pub const LONGEST_LOSS: u32 = 252;

/// The result of a position for the side to move, with best play by both sides.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Verdict {
    /// The side to move wins.
    Win,
    /// Neither side can force a win.
    Draw,
    /// The side to move loses.
    Loss,
}

impl Verdict {
    /// `win`, `draw` or `loss`.
    pub const fn name(self) -> &'static str {
        match self {
            Verdict::Win => "win",
            Verdict::Draw => "draw",
            Verdict::Loss => "loss",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What the tables say about a position.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Probe {
    /// The result for the side to move.
    pub verdict: Verdict,
    /// Plies to the end of the game when the winner hurries and the loser holds out as long
    /// as it can (0 for a draw, and for a side that has no move now). Distances beyond
    /// [`LONGEST_WIN`] or [`LONGEST_LOSS`] are given as those.
    pub distance: u32,
}

impl Probe {
    /// Reads a stored byte; `None` for a slot that is no position.
    pub(crate) fn from_byte(byte: u8) -> Option<Probe> {
        match byte {
            DRAW => Some(Probe {
                verdict: Verdict::Draw,
                distance: 0,
            }),
            NO_POSITION => None,
            d => Some(Probe {
                verdict: if d & 1 == 1 {
                    Verdict::Win
                } else {
                    Verdict::Loss
                },
                distance: u32::from(d),
            }),
        }
    }
}

/// `win in 7`, `loss in 12`, `draw`.
impl fmt::Display for Probe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.verdict {
            Verdict::Draw => f.write_str("draw"),
            verdict => write!(f, "{verdict} in {}", self.distance),
        }
    }
}

/// The byte of a win in `plies` (odd).
pub(crate) fn win_in(plies: u32) -> u8 {
    plies.min(LONGEST_WIN) as u8
}

/// The byte of a loss in `plies` (even).
pub(crate) fn loss_in(plies: u32) -> u8 {
    plies.min(LONGEST_LOSS) as u8
}

/// Whether a stored byte is a distance (a win or a loss).
pub(crate) fn is_decided(byte: u8) -> bool {
    byte < NO_POSITION
}

/// Whether a stored byte is a loss for the side to move.
pub(crate) fn is_loss(byte: u8) -> bool {
    is_decided(byte) && byte & 1 == 0
}

/// The value a position must have, given the values of the positions its moves lead to
/// (each for the side to move there, the opponent): a win if some move leads to a loss,
/// reached as fast as possible; else a draw if some move leads to a draw; else a loss,
/// delayed as long as possible, or at once when there is no move.
pub(crate) fn from_successors(successors: impl IntoIterator<Item = u8>) -> u8 {
    let mut outcomes = Outcomes::default();
    successors.into_iter().for_each(|byte| outcomes.add(byte));
    outcomes.value()
}

/// What the moves seen so far of a position lead to, as [`from_successors`] weighs them.
#[derive(Default)]
pub(crate) struct Outcomes {
    /// The plies of the fastest win, if some move leads to a loss for the opponent.
    pub fastest_win: Option<u32>,
    /// Whether some move leads to a draw.
    pub drawn: bool,
    /// The plies of the slowest loss among the moves that lead to the opponent's win.
    pub slowest_loss: u32,
}

impl Outcomes {
    /// Counts a move that leads to a position of value `byte` (for the opponent).
    pub(crate) fn add(&mut self, byte: u8) {
        if byte == DRAW {
            self.drawn = true;
        } else if is_loss(byte) {
            let plies = u32::from(byte) + 1;
            self.fastest_win = Some(self.fastest_win.map_or(plies, |w| w.min(plies)));
        } else {
            self.slowest_loss = self.slowest_loss.max(u32::from(byte) + 1);
        }
    }

    /// The value of the position if these are all its moves.
    pub(crate) fn value(&self) -> u8 {
        match self.fastest_win {
            Some(plies) => win_in(plies),
            None if self.drawn => DRAW,
            None => loss_in(self.slowest_loss),
        }
    }
}

/// How much the side to move likes a move that leads to a position of value `byte` (for the
/// opponent): wins sooner, then draws, then losses later.
pub(crate) fn preference(byte: u8) -> i32 {
    if byte == DRAW {
        0
    } else if is_loss(byte) {
        1000 - i32::from(byte)
    } else {
        -1000 + i32::from(byte)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn successors_give_the_value() {
        assert_eq!(from_successors([]), 0, "no move: lost at once");
        assert_eq!(
            from_successors([3, 0, DRAW]),
            1,
            "a move to a lost position wins"
        );
        assert_eq!(from_successors([3, 4, 2]), 3, "the fastest win");
        assert_eq!(from_successors([3, DRAW, 5]), DRAW);
        assert_eq!(from_successors([3, 7, 1]), 8, "the slowest loss");
        assert_eq!(from_successors([LONGEST_WIN as u8]), LONGEST_LOSS as u8);
        assert!(preference(0) > preference(2));
        assert!(preference(2) > preference(DRAW));
        assert!(preference(DRAW) > preference(9));
        assert!(preference(9) > preference(1));
        assert_eq!(
            Probe::from_byte(7).map(|p| p.to_string()),
            Some("win in 7".into())
        );
        assert_eq!(Probe::from_byte(NO_POSITION), None);
    }
}
