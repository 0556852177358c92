//! Material signatures and the numbering of the positions of one slice.
//!
//! The 32 dark squares are counted densely here: square `4 * rank + file / 2`, so that rank 1
//! holds 0..4 and rank 8 holds 28..32. A slice numbers its positions as
//!
//! ```text
//! index = side * per_side + ((white_men * B + black_men) * K + white_kings) * L + black_kings
//! ```
//!
//! where each group is the rank of its set of squares among all sets of that size (the
//! combinatorial number system): white men among the 28 squares off rank 8, black men among
//! the 28 squares off rank 1, white kings among the squares the men leave free, and black
//! kings among the squares left after that. The black men's sets are counted without looking
//! at the white men, so an index whose black man would stand on a white man is no position;
//! those few slots are kept empty rather than making the numbering depend on the white men.

use std::fmt;

use bashni_rules::{Bitboard, Color, Position, Square};

/// The most pieces, both sides together, that a signature may hold: far more than this
/// machine's memory allows to build, and small enough for a dense table of slices.
pub const MAX_PIECES: u32 = 8;

/// How many pieces of each kind a position holds: the material of one slice.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Signature {
    /// White's men.
    pub white_men: u8,
    /// White's kings.
    pub white_kings: u8,
    /// Black's men.
    pub black_men: u8,
    /// Black's kings.
    pub black_kings: u8,
}

impl Signature {
    /// The material of `position`.
    pub fn of(position: &Position) -> Signature {
        let kings = position.kings();
        let white = position.owned_by(Color::White);
        let black = position.owned_by(Color::Black);
        Signature {
            white_men: (white.0 & !kings.0).count_ones() as u8,
            white_kings: (white.0 & kings.0).count_ones() as u8,
            black_men: (black.0 & !kings.0).count_ones() as u8,
            black_kings: (black.0 & kings.0).count_ones() as u8,
        }
    }

    /// All pieces of both sides.
    pub fn pieces(self) -> u32 {
        u32::from(self.white_men + self.white_kings + self.black_men + self.black_kings)
    }

    /// The men of both sides.
    pub fn men(self) -> u32 {
        u32::from(self.white_men + self.black_men)
    }

    /// The pieces of `color`.
    pub fn pieces_of(self, color: Color) -> u32 {
        match color {
            Color::White => u32::from(self.white_men + self.white_kings),
            Color::Black => u32::from(self.black_men + self.black_kings),
        }
    }

    /// Every signature with both sides on the board and `2..=pieces` pieces in all, in an
    /// order in which each capture or promotion leads into a slice that comes earlier:
    /// fewer pieces first, and among as many pieces, fewer men first.
    pub fn all_up_to(pieces: u32) -> Vec<Signature> {
        let pieces = pieces.min(MAX_PIECES);
        let mut out = Vec::new();
        for total in 2..=pieces {
            for men in 0..=total {
                for white_men in 0..=men {
                    let black_men = men - white_men;
                    for white_kings in 0..=total - men {
                        let black_kings = total - men - white_kings;
                        let signature = Signature {
                            white_men: white_men as u8,
                            white_kings: white_kings as u8,
                            black_men: black_men as u8,
                            black_kings: black_kings as u8,
                        };
                        if signature.pieces_of(Color::White) > 0
                            && signature.pieces_of(Color::Black) > 0
                        {
                            out.push(signature);
                        }
                    }
                }
            }
        }
        out
    }

    /// The slot of this signature in a dense table of slices.
    pub(crate) fn key(self) -> usize {
        let base = MAX_PIECES as usize + 1;
        ((usize::from(self.white_men) * base + usize::from(self.white_kings)) * base
            + usize::from(self.black_men))
            * base
            + usize::from(self.black_kings)
    }

    /// How many slots [`Signature::key`] may give.
    pub(crate) const KEYS: usize = (MAX_PIECES as usize + 1).pow(4);

    /// Whether every count fits [`MAX_PIECES`] in all.
    pub(crate) fn fits(self) -> bool {
        self.pieces() <= MAX_PIECES
    }

    /// The digits of the file name: white men, white kings, black men, black kings.
    pub fn code(self) -> String {
        format!(
            "{}{}{}{}",
            self.white_men, self.white_kings, self.black_men, self.black_kings
        )
    }

    /// Reads [`Signature::code`].
    pub fn from_code(code: &str) -> Option<Signature> {
        let digits: Vec<u8> = code
            .chars()
            .map(|c| c.to_digit(10).map(|d| d as u8))
            .collect::<Option<_>>()?;
        let [white_men, white_kings, black_men, black_kings] = digits[..] else {
            return None;
        };
        let signature = Signature {
            white_men,
            white_kings,
            black_men,
            black_kings,
        };
        signature.fits().then_some(signature)
    }
}

/// The pieces with the project's letters: white's kings `W` and men `w`, then black's kings
/// `B` and men `b`; `WWW-B` is three white kings against one black king.
impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let run = |letter: &str, count: u8| letter.repeat(usize::from(count));
        write!(
            f,
            "{}{}-{}{}",
            run("W", self.white_kings),
            run("w", self.white_men),
            run("B", self.black_kings),
            run("b", self.black_men)
        )
    }
}

/// `BINOMIAL[n][k]`: the number of ways to choose `k` of `n` squares.
const BINOMIAL: [[u64; 33]; 33] = {
    let mut table = [[0u64; 33]; 33];
    let mut n = 0;
    while n < 33 {
        table[n][0] = 1;
        let mut k = 1;
        while k <= n {
            table[n][k] = table[n - 1][k - 1] + if k < n { table[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    table
};

/// The dense number (see the module notes) of each padded square index; 255 off the board.
const DENSE_OF: [u8; 64] = {
    let mut table = [255u8; 64];
    let mut i = 0;
    while i < 64 {
        if let Some(square) = Square::from_index(i as u8) {
            table[i] = square.rank() * 4 + square.file() / 2;
        }
        i += 1;
    }
    table
};

/// The square of each dense number.
const SQUARE_OF: [Square; 32] = {
    let mut table = [Square::ALL_BY_NAME[0]; 32];
    let mut d = 0;
    while d < 32 {
        let rank = (d / 4) as u8;
        let file = 2 * (d % 4) as u8 + (rank & 1);
        table[d] = match Square::from_coords(file, rank) {
            Some(square) => square,
            None => panic!("every dense number is a dark square"),
        };
        d += 1;
    }
    table
};

/// A padded bitboard as a dense mask.
fn dense(board: Bitboard) -> u32 {
    board
        .squares()
        .fold(0, |mask, square| mask | 1 << DENSE_OF[square.index()])
}

/// The pieces of a position as dense masks, and the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Placement {
    pub white_men: u32,
    pub white_kings: u32,
    pub black_men: u32,
    pub black_kings: u32,
    pub side: Color,
}

impl Placement {
    /// The placement of `position`.
    pub fn of(position: &Position) -> Placement {
        let kings = position.kings();
        let white = position.owned_by(Color::White);
        let black = position.owned_by(Color::Black);
        Placement {
            white_men: dense(Bitboard(white.0 & !kings.0)),
            white_kings: dense(Bitboard(white.0 & kings.0)),
            black_men: dense(Bitboard(black.0 & !kings.0)),
            black_kings: dense(Bitboard(black.0 & kings.0)),
            side: position.side_to_move(),
        }
    }

    /// The position of Russian draughts with these pieces; `None` if two pieces share a
    /// square or a man stands on its crowning rank.
    pub fn position(&self) -> Option<Position> {
        let white = padded(self.white_men | self.white_kings);
        let black = padded(self.black_men | self.black_kings);
        let kings = padded(self.white_kings | self.black_kings);
        if (self.white_men | self.white_kings) & (self.black_men | self.black_kings) != 0 {
            return None;
        }
        Position::russian(white, black, kings, self.side).ok()
    }
}

/// A dense mask as a padded bitboard.
fn padded(mut mask: u32) -> Bitboard {
    let mut board = Bitboard::EMPTY;
    while mask != 0 {
        let d = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        board.insert(SQUARE_OF[d]);
    }
    board
}

/// The rank of a set of squares among all sets of its size (combinatorial number system).
fn rank_of_set(mut mask: u32) -> u64 {
    let mut rank = 0;
    let mut i = 1;
    while mask != 0 {
        let square = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        rank += BINOMIAL[square][i];
        i += 1;
    }
    rank
}

/// The set of `size` squares below `limit` whose rank is `rank`.
fn set_of_rank(mut rank: u64, size: usize, limit: usize) -> u32 {
    let mut mask = 0;
    let mut square = limit;
    for i in (1..=size).rev() {
        square -= 1;
        while BINOMIAL[square][i] > rank {
            square -= 1;
        }
        rank -= BINOMIAL[square][i];
        mask |= 1 << square;
    }
    mask
}

/// `mask` with the squares of `taken` squeezed out: each square moves down by the number of
/// taken squares below it.
fn squeeze(mut mask: u32, taken: u32) -> u32 {
    let mut out = 0;
    while mask != 0 {
        let square = mask.trailing_zeros();
        mask &= mask - 1;
        out |= 1 << (square - (taken & ((1 << square) - 1)).count_ones());
    }
    out
}

/// The opposite of [`squeeze`]: spreads `mask` over the squares not in `taken`.
fn spread(mut mask: u32, taken: u32) -> u32 {
    let mut out = 0;
    let mut free = !taken;
    let mut position = 0;
    while mask != 0 {
        let square = mask.trailing_zeros();
        mask &= mask - 1;
        // Skip free squares up to the `square`-th one.
        while position < square {
            free &= free - 1;
            position += 1;
        }
        out |= 1 << free.trailing_zeros();
    }
    out
}

/// How the positions of one signature are numbered.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Layout {
    pub signature: Signature,
    black_men_sets: u64,
    white_king_sets: u64,
    black_king_sets: u64,
    per_side: u64,
}

impl Layout {
    pub fn new(signature: Signature) -> Layout {
        let wm = usize::from(signature.white_men);
        let bm = usize::from(signature.black_men);
        let wk = usize::from(signature.white_kings);
        let bk = usize::from(signature.black_kings);
        let free = 32 - wm - bm;
        let white_men_sets = BINOMIAL[28][wm];
        let black_men_sets = BINOMIAL[28][bm];
        let white_king_sets = BINOMIAL[free][wk];
        let black_king_sets = BINOMIAL[free - wk][bk];
        Layout {
            signature,
            black_men_sets,
            white_king_sets,
            black_king_sets,
            per_side: white_men_sets * black_men_sets * white_king_sets * black_king_sets,
        }
    }

    /// How many slots the slice has, both sides to move.
    pub fn len(&self) -> u64 {
        2 * self.per_side
    }

    /// The slot of `placement`, which must have this layout's signature.
    pub fn index(&self, placement: &Placement) -> u64 {
        let men = placement.white_men | placement.black_men;
        let white_men = rank_of_set(placement.white_men);
        let black_men = rank_of_set(placement.black_men >> 4);
        let white_kings = rank_of_set(squeeze(placement.white_kings, men));
        let black_kings = rank_of_set(squeeze(placement.black_kings, men | placement.white_kings));
        let side = match placement.side {
            Color::White => 0,
            Color::Black => self.per_side,
        };
        side + ((white_men * self.black_men_sets + black_men) * self.white_king_sets + white_kings)
            * self.black_king_sets
            + black_kings
    }

    /// The placement of slot `index`; `None` for a slot that is no position.
    pub fn placement(&self, index: u64) -> Option<Placement> {
        let (side, mut rest) = if index < self.per_side {
            (Color::White, index)
        } else {
            (Color::Black, index - self.per_side)
        };
        let black_kings = rest % self.black_king_sets;
        rest /= self.black_king_sets;
        let white_kings = rest % self.white_king_sets;
        rest /= self.white_king_sets;
        let black_men = rest % self.black_men_sets;
        let white_men = rest / self.black_men_sets;
        let s = self.signature;
        let wm = usize::from(s.white_men);
        let bm = usize::from(s.black_men);
        let white_men = set_of_rank(white_men, wm, 28);
        let black_men = set_of_rank(black_men, bm, 28) << 4;
        if white_men & black_men != 0 {
            return None;
        }
        let men = white_men | black_men;
        let free = 32 - wm - bm;
        let wk = usize::from(s.white_kings);
        let white_kings = spread(set_of_rank(white_kings, wk, free), men);
        let black_kings = spread(
            set_of_rank(black_kings, usize::from(s.black_kings), free - wk),
            men | white_kings,
        );
        Some(Placement {
            white_men,
            white_kings,
            black_men,
            black_kings,
            side,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_slot_of_a_small_slice_round_trips() {
        let signature = Signature {
            white_men: 1,
            white_kings: 1,
            black_men: 1,
            black_kings: 1,
        };
        let layout = Layout::new(signature);
        let mut positions = 0;
        let mut seen = std::collections::HashSet::new();
        for index in 0..layout.len() {
            let Some(placement) = layout.placement(index) else {
                continue;
            };
            let position = placement.position().expect("a slot's placement is legal");
            assert_eq!(Signature::of(&position), signature);
            assert_eq!(Placement::of(&position), placement);
            assert_eq!(layout.index(&placement), index);
            assert!(seen.insert(position.hash()));
            positions += 1;
        }
        // White man on 28 squares, black man on 28, less the 24 squares both may use taken
        // by both; then two kings on the 30 squares left; two sides to move.
        assert_eq!(positions, (28 * 28 - 24) * 30 * 29 * 2);
    }

    #[test]
    fn the_order_puts_every_successor_slice_first() {
        let order = Signature::all_up_to(5);
        for (at, signature) in order.iter().enumerate() {
            assert!(signature.pieces_of(Color::White) > 0);
            assert!(signature.pieces_of(Color::Black) > 0);
            for later in &order[at + 1..] {
                let smaller = later.pieces() < signature.pieces()
                    || (later.pieces() == signature.pieces() && later.men() < signature.men());
                assert!(!smaller, "{later} comes after {signature}");
            }
        }
        assert_eq!(
            Signature::from_code("1202"),
            order.iter().copied().find(|s| s.code() == "1202")
        );
        assert_eq!(Signature::from_code("12x3"), None);
        let three_kings = Signature::from_code("0301").expect("a code");
        assert_eq!(three_kings.to_string(), "WWW-B");
    }
}
