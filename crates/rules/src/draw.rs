//! The draw rules that count moves: Bashni's fifteen moves without capture or promotion
//! (rulebook 000, 1.13) and the Russian endgame counts (rulebook 001, 6.1.8.3-6.1.8.8).
//!
//! [`DrawCounts`] holds the few numbers these rules need, [`DrawCounts::after`] says how one
//! move changes them, and [`DrawCounts::verdict`] says which rule, if any, a position has
//! reached. [`Game`](crate::Game) keeps one set of counts per position; the engine's search
//! carries them along its path, so both apply exactly the same rules. Repetition is not
//! here: it needs the earlier positions themselves, not counts.
//!
//! "The balance of forces" is the number of men and of kings of each side. Only a capture or
//! a crowning changes it (in Bashni, the number and make-up of the towers), so every count
//! below starts again after such a move.
//!
//! ```
//! use bashni_rules::{DrawCounts, Position, Reason, Variant};
//! use bashni_rules::notation::parse_position;
//!
//! let position = parse_position(Variant::Russian, "White: a1 1, c1 1, e1 1; Black: h8 1; White to move")
//!     .expect("a position");
//! let counts = DrawCounts { quiet_plies: 30, moves: [15, 15], ..DrawCounts::default() };
//! assert_eq!(counts.verdict(&position), Some(Reason::LoneKing));
//! assert_eq!(DrawCounts::default().verdict(&position), None);
//! ```

use crate::game::Reason;
use crate::moves::Move;
use crate::position::{Position, Variant};
use crate::square::{Bitboard, Square};
use crate::tower::Color;

/// Bashni, rulebook 000, 1.13: plies without capture or promotion that allow a draw claim.
pub const BASHNI_QUIET_PLIES: usize = 30;

/// Russian 6.1.8.3-6.1.8.4: moves of the stronger side against a lone king.
const LONE_KING_MOVES: usize = 15;

/// Russian 6.1.8.5: moves of three pieces off the big road against a king on it.
const BIG_ROAD_MOVES: usize = 5;

/// The fewest plies since the last change of balance that any Russian count needs: the
/// fifth move of 6.1.8.5 comes at the ninth ply at the earliest.
const RUSSIAN_FEWEST_PLIES: usize = 2 * BIG_ROAD_MOVES - 1;

/// Russian 6.1.8.6: moves (of each side) the balance must stand still with kings on both
/// sides, by the number of pieces on the board.
pub const fn king_ending_moves(pieces: u32) -> Option<usize> {
    match pieces {
        2..=3 => Some(5),
        4..=5 => Some(30),
        6..=7 => Some(60),
        _ => None,
    }
}

/// Russian 6.1.8.8: moves (of each side) with kings only, by the number of pieces.
pub const fn king_moves_only_moves(pieces: u32) -> Option<usize> {
    match pieces {
        4..=5 => Some(15),
        6..=7 => Some(25),
        _ => None,
    }
}

/// The long diagonal a1-h8, the "big road" of Russian draughts.
pub const BIG_ROAD: Bitboard = big_road();

const fn big_road() -> Bitboard {
    let mut road = 0;
    let mut i = 0;
    while i < 8 {
        if let Some(square) = Square::from_coords(i, i) {
            road |= square.bit().0;
        }
        i += 1;
    }
    Bitboard(road)
}

/// The counts behind the draw rules that count moves, for one position of a game.
///
/// A game starts with all counts at zero ([`DrawCounts::default`]); each move gives the next
/// counts through [`DrawCounts::after`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct DrawCounts {
    /// Plies since the balance of forces last changed (a capture or a crowning), or since the
    /// start of the game.
    pub quiet_plies: usize,
    /// Plies in a row, up to now, in which a king moved and nothing was captured
    /// (Russian 6.1.8.8).
    pub king_plies: usize,
    /// Moves made by each side (indexed by [`Color::index`]) since the balance last changed
    /// (Russian 6.1.8.4).
    pub moves: [usize; 2],
    /// Russian 6.1.8.5: each side's latest moves in a row, since the balance last changed,
    /// made with none of its pieces on the big road and a piece of the opponent on it.
    pub big_road_moves: [usize; 2],
}

impl DrawCounts {
    /// The counts after `mv` is played in `before`, whose counts these are.
    #[inline]
    pub fn after(&self, before: &Position, mv: &Move) -> DrawCounts {
        if mv.is_capture() || mv.promotes() {
            return DrawCounts::default();
        }
        let mover = before.side_to_move();
        let mut next = *self;
        next.quiet_plies += 1;
        next.king_plies = if before.kings().has(mv.from()) {
            self.king_plies + 1
        } else {
            0
        };
        next.moves[mover.index()] += 1;
        if before.variant() == Variant::Russian {
            let own_off_road = (before.owned_by(mover) & BIG_ROAD).is_empty();
            let other_on_road = !(before.owned_by(mover.opponent()) & BIG_ROAD).is_empty();
            next.big_road_moves[mover.index()] = if own_off_road && other_on_road {
                self.big_road_moves[mover.index()] + 1
            } else {
                0
            };
        }
        next
    }

    /// The count rule that `position`, reached with these counts, fulfils: for Bashni the
    /// fifteen moves of 1.13 (a claim, or automatic where the game says so), for Russian
    /// draughts the first of 6.1.8.5, 6.1.8.4, 6.1.8.6 and 6.1.8.8 that applies. Whether the
    /// side to move has a move at all is not looked at here.
    #[inline]
    pub fn verdict(&self, position: &Position) -> Option<Reason> {
        match position.variant() {
            Variant::Bashni => {
                (self.quiet_plies >= BASHNI_QUIET_PLIES).then_some(Reason::QuietMoves)
            }
            Variant::Russian if self.quiet_plies < RUSSIAN_FEWEST_PLIES => None,
            Variant::Russian => self.russian_verdict(position),
        }
    }

    fn russian_verdict(&self, position: &Position) -> Option<Reason> {
        let kings = position.kings();
        let side = |color: Color| {
            let own = position.owned_by(color);
            (own.count(), (own & kings).count())
        };
        let forces = [side(Color::White), side(Color::Black)];
        for strong in [Color::White, Color::Black] {
            let (pieces, _) = forces[strong.index()];
            let (weak_pieces, weak_kings) = forces[strong.opponent().index()];
            if weak_pieces != 1 || weak_kings != 1 || pieces < 3 {
                continue;
            }
            if pieces == 3 && self.big_road_moves[strong.index()] >= BIG_ROAD_MOVES {
                return Some(Reason::BigRoad);
            }
            if self.moves[strong.index()] >= LONE_KING_MOVES {
                return Some(Reason::LoneKing);
            }
        }
        let pieces = forces[0].0 + forces[1].0;
        if forces[0].1 > 0
            && forces[1].1 > 0
            && king_ending_moves(pieces).is_some_and(|moves| self.quiet_plies >= 2 * moves)
        {
            return Some(Reason::KingEnding { pieces });
        }
        if king_moves_only_moves(pieces).is_some_and(|moves| self.king_plies >= 2 * moves) {
            return Some(Reason::KingMovesOnly { pieces });
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_position;

    fn russian(text: &str) -> Position {
        parse_position(Variant::Russian, text).expect("test position")
    }

    fn find(position: &Position, text: &str) -> Move {
        position
            .legal_moves()
            .iter()
            .copied()
            .find(|mv| mv.to_string() == text)
            .unwrap_or_else(|| panic!("{text} is not legal"))
    }

    #[test]
    fn the_big_road_is_the_long_diagonal() {
        let names: Vec<String> = BIG_ROAD.squares().map(|s| s.to_string()).collect();
        assert_eq!(
            names,
            ["a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"].map(String::from)
        );
    }

    #[test]
    fn a_capture_or_crowning_starts_every_count_again() {
        let position = russian("White: c3 0, g7 0; Black: d4 0, a7 1; White to move");
        let running = DrawCounts {
            quiet_plies: 12,
            king_plies: 3,
            moves: [6, 6],
            big_road_moves: [2, 0],
        };
        let capture = find(&position, "c3:e5");
        assert_eq!(running.after(&position, &capture), DrawCounts::default());
        let position = russian("White: g7 0, a1 1; Black: a7 1; White to move");
        let crowning = find(&position, "g7-h8");
        assert_eq!(running.after(&position, &crowning), DrawCounts::default());
    }

    #[test]
    fn king_and_man_moves_count_differently() {
        let position = russian("White: a1 1, c3 0; Black: h8 1, a7 0; White to move");
        let counts = DrawCounts {
            quiet_plies: 4,
            king_plies: 4,
            moves: [2, 2],
            big_road_moves: [0, 0],
        };
        let man = counts.after(&position, &find(&position, "c3-d4"));
        assert_eq!(man.quiet_plies, 5);
        assert_eq!(man.king_plies, 0, "a man's move ends the run of king moves");
        assert_eq!(man.moves, [3, 2]);
        let king = counts.after(&position, &find(&position, "a1-b2"));
        assert_eq!(king.king_plies, 5);
    }

    #[test]
    fn big_road_moves_count_only_off_the_road_against_a_king_on_it() {
        let on = russian("White: a3 1, c1 1, e1 1; Black: d4 1; White to move");
        let counts = DrawCounts {
            quiet_plies: 1,
            big_road_moves: [1, 0],
            ..DrawCounts::default()
        };
        let next = counts.after(&on, &find(&on, "c1-d2"));
        assert_eq!(next.big_road_moves, [2, 0]);
        let white_on_road = russian("White: b2 1, c1 1, e1 1; Black: h8 1; White to move");
        let next = counts.after(&white_on_road, &find(&white_on_road, "c1-d2"));
        assert_eq!(
            next.big_road_moves,
            [0, 0],
            "a white piece stands on the road"
        );
    }

    #[test]
    fn verdicts_of_the_russian_counts() {
        let three_v_one = russian("White: a1 1, c1 1, e1 1; Black: h8 1; White to move");
        let at = |quiet_plies: usize, white_moves: usize| DrawCounts {
            quiet_plies,
            moves: [white_moves, quiet_plies - white_moves],
            ..DrawCounts::default()
        };
        assert_eq!(at(29, 14).verdict(&three_v_one), None);
        assert_eq!(at(29, 15).verdict(&three_v_one), Some(Reason::LoneKing));
        let big_road = russian("White: a3 1, c1 1, e1 1; Black: d4 1; White to move");
        let counts = DrawCounts {
            quiet_plies: 9,
            moves: [5, 4],
            big_road_moves: [5, 0],
            ..DrawCounts::default()
        };
        assert_eq!(counts.verdict(&big_road), Some(Reason::BigRoad));
        let four = DrawCounts {
            big_road_moves: [4, 0],
            ..counts
        };
        assert_eq!(four.verdict(&big_road), None);

        let kings_both = russian("White: a1 1, c3 0; Black: h8 1; White to move");
        let quiet = |quiet_plies| DrawCounts {
            quiet_plies,
            ..DrawCounts::default()
        };
        assert_eq!(quiet(9).verdict(&kings_both), None);
        assert_eq!(
            quiet(10).verdict(&kings_both),
            Some(Reason::KingEnding { pieces: 3 })
        );
        let five = russian("White: a1 1, c3 0, e3 0; Black: h8 1, h6 0; White to move");
        let kings_only = DrawCounts {
            quiet_plies: 30,
            king_plies: 30,
            ..DrawCounts::default()
        };
        assert_eq!(
            kings_only.verdict(&five),
            Some(Reason::KingMovesOnly { pieces: 5 })
        );
        assert_eq!(
            quiet(60).verdict(&five),
            Some(Reason::KingEnding { pieces: 5 })
        );
        let start = Position::start(Variant::Russian);
        let long = DrawCounts {
            quiet_plies: 500,
            king_plies: 500,
            moves: [250, 250],
            big_road_moves: [250, 250],
        };
        assert_eq!(long.verdict(&start), None);
    }

    #[test]
    fn bashni_fifteen_moves() {
        let start = Position::start(Variant::Bashni);
        let quiet = |quiet_plies| DrawCounts {
            quiet_plies,
            ..DrawCounts::default()
        };
        assert_eq!(quiet(29).verdict(&start), None);
        assert_eq!(quiet(30).verdict(&start), Some(Reason::QuietMoves));
    }
}
