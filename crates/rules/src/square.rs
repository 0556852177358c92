//! Squares, directions and bitboards of the 32 dark squares.
//!
//! The board uses a padded numbering: the dark square on file `f` (0 = a) and rank `r`
//! (0 = rank 1) has index `(9 * r + f) / 2`. The indices run from 0 to 35; four of them
//! (4, 13, 22, 31) are not squares. With this numbering a diagonal step is always the same
//! shift (+5, +4, -4, -5), and a step off the board lands on one of the padding indices or
//! outside the range, where the [`Bitboard::ALL`] mask removes it.

use std::fmt;

/// The length of tables indexed by [`Square::index`]: a power of two above the largest
/// padded index, so that indexing is never out of bounds.
pub const SQUARE_SLOTS: usize = 64;

/// One of the 32 dark squares, `a1` to `h8`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Every square in alphabetical order of its name (a1, a3, a5, a7, b2, ..., h8).
    pub const ALL_BY_NAME: [Square; 32] = {
        let mut out = [Square(0); 32];
        let mut i = 0;
        let mut file = 0;
        while file < 8 {
            let mut rank = file % 2;
            while rank < 8 {
                out[i] = Square(((9 * rank + file) / 2) as u8);
                i += 1;
                rank += 2;
            }
            file += 1;
        }
        out
    };

    /// The square on `file` (0 = a) and `rank` (0 = rank 1), if it is a dark square.
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 && (file + rank).is_multiple_of(2) {
            Some(Square((9 * rank + file) / 2))
        } else {
            None
        }
    }

    /// The square with this padded index, if the index names a square.
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 36 && Bitboard::ALL.0 & (1 << index) != 0 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// Reads a square name such as `c3`. Light squares and names off the board give `None`.
    pub fn parse(name: &str) -> Option<Square> {
        let bytes = name.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        let file = bytes[0].to_ascii_lowercase().wrapping_sub(b'a');
        let rank = bytes[1].wrapping_sub(b'1');
        Square::from_coords(file, rank)
    }

    /// The square with this number in the draughts numbering (1 to 32), if it is one.
    ///
    /// The numbers run along the rows from Black's side, each row from the a-file side:
    /// 1 is b8, 4 is h8, 5 is a7, 29 is a1 and 32 is g1. White's men start on 21-32 and
    /// Black's on 1-12. This and [`Square::number`] are the only places that know it.
    pub const fn from_number(number: u8) -> Option<Square> {
        if number == 0 || number > 32 {
            return None;
        }
        let row = (number - 1) / 4;
        // Rows counted from rank 8 start on the b-file when even, on the a-file when odd.
        let file = 2 * ((number - 1) % 4) + (1 - row % 2);
        Square::from_coords(file, 7 - row)
    }

    /// The number of this square in the draughts numbering, 1 (b8) to 32 (g1); see
    /// [`Square::from_number`].
    pub const fn number(self) -> u8 {
        4 * (7 - self.rank()) + self.file() / 2 + 1
    }

    /// Reads a square written either way: a name such as `c3` or a number from 1 to 32
    /// (see [`Square::from_number`]). A text of digits only is a number.
    ///
    /// ```
    /// use bashni_rules::Square;
    ///
    /// assert_eq!(Square::read("22"), Square::read("c3"));
    /// assert_eq!(Square::read("33").unwrap_err().to_string(), "`33` is not a square number (1-32)");
    /// assert_eq!(Square::read("a2").unwrap_err().to_string(), "`a2` is not a dark square");
    /// ```
    pub fn read(text: &str) -> Result<Square, SquareError> {
        if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
            text.parse::<u8>()
                .ok()
                .and_then(Square::from_number)
                .ok_or_else(|| SquareError::NotANumber(text.to_string()))
        } else {
            Square::parse(text).ok_or_else(|| SquareError::NotDark(text.to_string()))
        }
    }

    /// This square written with `names`: `c3` or `22`.
    pub const fn written(self, names: SquareNames) -> WrittenSquare {
        WrittenSquare {
            square: self,
            names,
        }
    }

    /// The padded index (0..36) of this square. Tables indexed by it have
    /// [`SQUARE_SLOTS`] entries, so that the index needs no bounds check.
    #[inline]
    pub const fn index(self) -> usize {
        (self.0 & 63) as usize
    }

    /// The file, 0 for `a` to 7 for `h`.
    #[inline]
    pub const fn file(self) -> u8 {
        let rank = self.rank();
        2 * self.0 - 9 * rank
    }

    /// The rank, 0 for rank 1 to 7 for rank 8.
    #[inline]
    pub const fn rank(self) -> u8 {
        // 9 * rank + file = 2 * index with file < 8, so rank = floor(2 * index / 9).
        (2 * self.0) / 9
    }

    /// The file letter, `a` to `h`.
    pub const fn file_char(self) -> char {
        (b'a' + self.file()) as char
    }

    /// The bitboard holding only this square.
    #[inline]
    pub const fn bit(self) -> Bitboard {
        Bitboard(1 << self.0)
    }

    /// The next square in `direction`, if there is one.
    #[inline]
    pub const fn step(self, direction: Direction) -> Option<Square> {
        let next = self.0 as i8 + direction.delta();
        if next >= 0 && next < 36 && Bitboard::ALL.0 & (1 << next) != 0 {
            Some(Square(next as u8))
        } else {
            None
        }
    }

    /// The next square in `direction`, for a caller that knows it is on the board (found
    /// by shifting a bitboard the other way). A wrong call gives a wrong square, never
    /// undefined behaviour.
    #[inline]
    pub(crate) const fn step_back_trusted(self, direction: Direction) -> Square {
        Square((self.0 as i8 + direction.delta()) as u8 & 63)
    }

    /// Orders squares by their written name, as the notation lists them.
    pub fn cmp_by_name(self, other: Square) -> std::cmp::Ordering {
        (self.file(), self.rank()).cmp(&(other.file(), other.rank()))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.rank() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// How squares are written.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum SquareNames {
    /// The rulebooks' letters and digits, `a1` to `h8`.
    #[default]
    Letters,
    /// The draughts numbers 1 to 32 (see [`Square::from_number`]), as many Russian-draughts
    /// programs and archives write them.
    Numbers,
}

/// A square written with chosen [`SquareNames`]; see [`Square::written`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct WrittenSquare {
    square: Square,
    names: SquareNames,
}

impl fmt::Display for WrittenSquare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.names {
            SquareNames::Letters => fmt::Display::fmt(&self.square, f),
            SquareNames::Numbers => write!(f, "{}", self.square.number()),
        }
    }
}

/// Why a text is not a square.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SquareError {
    /// The text is not the name of a dark square (`a2`, `z9`, `c`).
    NotDark(String),
    /// The text is digits, but not a number from 1 to 32.
    NotANumber(String),
}

impl fmt::Display for SquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SquareError::NotDark(text) => write!(f, "`{text}` is not a dark square"),
            SquareError::NotANumber(text) => {
                write!(f, "`{text}` is not a square number (1-32)")
            }
        }
    }
}

impl std::error::Error for SquareError {}

/// A diagonal direction, seen from White's side of the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Direction {
    /// Towards h8.
    UpRight,
    /// Towards a8.
    UpLeft,
    /// Towards h1.
    DownRight,
    /// Towards a1.
    DownLeft,
}

impl Direction {
    /// All four directions.
    pub const ALL: [Direction; 4] = [
        Direction::UpRight,
        Direction::UpLeft,
        Direction::DownRight,
        Direction::DownLeft,
    ];

    /// The change of padded index for one step.
    #[inline]
    pub const fn delta(self) -> i8 {
        match self {
            Direction::UpRight => 5,
            Direction::UpLeft => 4,
            Direction::DownRight => -4,
            Direction::DownLeft => -5,
        }
    }

    /// The opposite direction.
    #[inline]
    pub const fn reverse(self) -> Direction {
        match self {
            Direction::UpRight => Direction::DownLeft,
            Direction::UpLeft => Direction::DownRight,
            Direction::DownRight => Direction::UpLeft,
            Direction::DownLeft => Direction::UpRight,
        }
    }

    /// The direction that leads from `from` to `to`, if they share a diagonal.
    pub fn between(from: Square, to: Square) -> Option<Direction> {
        let df = to.file() as i8 - from.file() as i8;
        let dr = to.rank() as i8 - from.rank() as i8;
        if df == 0 || df.abs() != dr.abs() {
            return None;
        }
        Some(match (df > 0, dr > 0) {
            (true, true) => Direction::UpRight,
            (false, true) => Direction::UpLeft,
            (true, false) => Direction::DownRight,
            (false, false) => Direction::DownLeft,
        })
    }
}

/// A set of squares, one bit per padded index.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 32 squares.
    pub const ALL: Bitboard = Bitboard(0x0000_000F_7FBF_DFEF);
    /// Rank 1, where Black's men are crowned.
    pub const RANK_1: Bitboard = Bitboard(0x0000_0000_0000_000F);
    /// Rank 8, where White's men are crowned.
    pub const RANK_8: Bitboard = Bitboard(0x0000_000F_0000_0000);

    /// Whether `square` is in the set.
    #[inline]
    pub const fn has(self, square: Square) -> bool {
        self.0 & (1 << square.0) != 0
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// How many squares the set holds.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The set moved one step in `direction`, dropping squares that leave the board.
    #[inline]
    pub const fn shift(self, direction: Direction) -> Bitboard {
        let moved = match direction {
            Direction::UpRight => self.0 << 5,
            Direction::UpLeft => self.0 << 4,
            Direction::DownRight => self.0 >> 4,
            Direction::DownLeft => self.0 >> 5,
        };
        Bitboard(moved & Bitboard::ALL.0)
    }

    /// Adds a square.
    #[inline]
    pub fn insert(&mut self, square: Square) {
        self.0 |= 1 << square.0;
    }

    /// Removes a square.
    #[inline]
    pub fn remove(&mut self, square: Square) {
        self.0 &= !(1 << square.0);
    }

    /// The squares of the set, lowest index first.
    #[inline]
    pub fn squares(self) -> Squares {
        Squares(self.0)
    }
}

impl std::ops::BitOr for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}

impl std::ops::BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}

impl std::ops::Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::ALL.0)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.squares()).finish()
    }
}

/// Iterator over the squares of a [`Bitboard`].
#[derive(Clone)]
pub struct Squares(u64);

impl Iterator for Squares {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Square(index))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_light_squares_are_refused() {
        let mut seen = 0;
        for file in 0..8u8 {
            for rank in 0..8u8 {
                let name = format!("{}{}", (b'a' + file) as char, rank + 1);
                match Square::parse(&name) {
                    Some(square) => {
                        assert_eq!(square.to_string(), name);
                        assert_eq!((square.file(), square.rank()), (file, rank));
                        assert!(Bitboard::ALL.has(square));
                        seen += 1;
                    }
                    None => assert_eq!((file + rank) % 2, 1, "{name} should be dark"),
                }
            }
        }
        assert_eq!(seen, 32);
        assert_eq!(Bitboard::ALL.count(), 32);
        assert_eq!(Square::parse("i1"), None);
        assert_eq!(Square::parse("a9"), None);
        assert_eq!(Square::parse("a"), None);
    }

    #[test]
    fn numbers_round_trip_and_match_the_published_corners() {
        let mut seen = Bitboard::EMPTY;
        for number in 1..=32u8 {
            let square = Square::from_number(number).expect("a square");
            assert_eq!(square.number(), number, "{square}");
            assert!(!seen.has(square), "{square} numbered twice");
            seen.insert(square);
            assert_eq!(Square::read(&number.to_string()), Ok(square));
            assert_eq!(
                square.written(SquareNames::Numbers).to_string(),
                number.to_string()
            );
            assert_eq!(
                square.written(SquareNames::Letters).to_string(),
                square.to_string()
            );
        }
        assert_eq!(seen, Bitboard::ALL);
        let corners = [
            (1, "b8"),
            (2, "d8"),
            (3, "f8"),
            (4, "h8"),
            (5, "a7"),
            (6, "c7"),
            (7, "e7"),
            (8, "g7"),
            (9, "b6"),
            (22, "c3"),
            (29, "a1"),
            (30, "c1"),
            (31, "e1"),
            (32, "g1"),
        ];
        for (number, name) in corners {
            assert_eq!(Square::from_number(number), Square::parse(name), "{number}");
        }
        // Numbers run row by row, from Black's side, each row towards the h-file.
        for number in 1..32u8 {
            let (this, next) = (
                Square::from_number(number).expect("sq"),
                Square::from_number(number + 1).expect("sq"),
            );
            if number % 4 == 0 {
                assert_eq!(next.rank() + 1, this.rank(), "{number}");
            } else {
                assert_eq!((next.rank(), next.file()), (this.rank(), this.file() + 2));
            }
        }
        for number in [0, 33, 255] {
            assert_eq!(Square::from_number(number), None, "{number}");
        }
    }

    #[test]
    fn reading_either_form_says_what_is_wrong() {
        assert_eq!(Square::read("c3"), Square::read("22"));
        assert_eq!(Square::read("07"), Square::read("7"));
        for text in ["0", "33", "99999999999"] {
            assert_eq!(
                Square::read(text),
                Err(SquareError::NotANumber(text.to_string()))
            );
            assert_eq!(
                Square::read(text).expect_err(text).to_string(),
                format!("`{text}` is not a square number (1-32)")
            );
        }
        for text in ["a2", "z9", "", "+5", "2a"] {
            assert_eq!(
                Square::read(text),
                Err(SquareError::NotDark(text.to_string()))
            );
        }
        assert_eq!(
            Square::read("a2").expect_err("a2").to_string(),
            "`a2` is not a dark square"
        );
    }

    #[test]
    fn steps_match_coordinates() {
        for square in Bitboard::ALL.squares() {
            for direction in Direction::ALL {
                let (df, dr): (i8, i8) = match direction {
                    Direction::UpRight => (1, 1),
                    Direction::UpLeft => (-1, 1),
                    Direction::DownRight => (1, -1),
                    Direction::DownLeft => (-1, -1),
                };
                let file = square.file() as i8 + df;
                let rank = square.rank() as i8 + dr;
                let expected = if (0..8).contains(&file) && (0..8).contains(&rank) {
                    Square::from_coords(file as u8, rank as u8)
                } else {
                    None
                };
                assert_eq!(square.step(direction), expected, "{square} {direction:?}");
                let shifted = square.bit().shift(direction);
                assert_eq!(shifted, expected.map_or(Bitboard::EMPTY, Square::bit));
            }
        }
    }

    #[test]
    fn crowning_ranks() {
        assert_eq!(Bitboard::RANK_1.squares().count(), 4);
        assert!(Bitboard::RANK_1.squares().all(|s| s.rank() == 0));
        assert!(Bitboard::RANK_8.squares().all(|s| s.rank() == 7));
        let names: Vec<String> = Square::ALL_BY_NAME.iter().map(|s| s.to_string()).collect();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(names, sorted);
    }
}
