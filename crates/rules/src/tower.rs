//! Colours, checkers and towers.
//!
//! A [`Tower`] is a stack of checkers on one square, packed in one `u64`: bit `i` (for
//! `i < height`) is the colour of the `i`-th checker from the top (1 = Black), bit `height`
//! is a marker that gives the height, and bit `32 + i` says that the `i`-th checker is a king.
//! Taking the top checker is a shift; putting a prisoner at the bottom sets two bits.
//! In Russian draughts every tower is a single checker.

use std::fmt;

/// The most checkers a tower can hold: all 24 of the game.
pub const MAX_TOWER_HEIGHT: u32 = 24;

/// A side of the game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    /// Moves first, starts on ranks 1-3.
    White,
    /// Starts on ranks 6-8.
    Black,
}

impl Color {
    /// The other side.
    #[inline]
    pub const fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The name as the notation writes it: `White` or `Black`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }

    /// The colour's name in data meant for programs (JSON, stored games, drawing classes):
    /// `white` or `black`.
    pub const fn code(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    /// The colour whose [`Color::code`] is `code`.
    pub fn from_code(code: &str) -> Option<Color> {
        match code {
            "white" => Some(Color::White),
            "black" => Some(Color::Black),
            _ => None,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One checker: a colour, and whether it is a king.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Checker {
    /// Whose checker it is.
    pub color: Color,
    /// Whether it has been crowned.
    pub king: bool,
}

impl Checker {
    /// A man of `color`.
    pub const fn man(color: Color) -> Checker {
        Checker { color, king: false }
    }

    /// A king of `color`.
    pub const fn king(color: Color) -> Checker {
        Checker { color, king: true }
    }

    /// The checker's letter, as the web app and the diagrams write towers: `w` and `b` for
    /// men, `W` and `B` for kings.
    pub const fn letter(self) -> char {
        match (self.color, self.king) {
            (Color::White, false) => 'w',
            (Color::White, true) => 'W',
            (Color::Black, false) => 'b',
            (Color::Black, true) => 'B',
        }
    }

    /// The checker a letter stands for (see [`Checker::letter`]); `None` for any other
    /// character.
    pub const fn from_letter(letter: char) -> Option<Checker> {
        match letter {
            'w' => Some(Checker::man(Color::White)),
            'W' => Some(Checker::king(Color::White)),
            'b' => Some(Checker::man(Color::Black)),
            'B' => Some(Checker::king(Color::Black)),
            _ => None,
        }
    }
}

/// A stack of checkers on one square (possibly none: an empty square).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Tower(u64);

const KING_SHIFT: u32 = 32;
const COLOR_MASK: u64 = 0xFFFF_FFFF;

impl Tower {
    /// No checker: an empty square.
    pub const EMPTY: Tower = Tower(0);

    /// A tower of one checker.
    #[inline]
    pub const fn single(checker: Checker) -> Tower {
        Tower(0b10 | checker.color as u64 | (checker.king as u64) << KING_SHIFT)
    }

    /// Builds a tower from its checkers, top first. `None` if there are more than
    /// [`MAX_TOWER_HEIGHT`] of them.
    pub fn from_checkers(checkers: impl IntoIterator<Item = Checker>) -> Option<Tower> {
        let mut tower = Tower::EMPTY;
        for checker in checkers {
            if tower.height() >= MAX_TOWER_HEIGHT {
                return None;
            }
            tower = tower.with_prisoner(checker);
        }
        Some(tower)
    }

    /// The tower with this packed value (see the module notes); only for values that
    /// [`Tower::bits`] gave.
    #[inline]
    pub(crate) const fn from_bits(bits: u64) -> Tower {
        Tower(bits)
    }

    /// The packed value, for hashing.
    #[inline]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// How many checkers the tower holds.
    #[inline]
    pub const fn height(self) -> u32 {
        let colors = self.0 & COLOR_MASK;
        if colors == 0 {
            0
        } else {
            63 - colors.leading_zeros()
        }
    }

    /// Whether the square is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The checker on top, which commands the tower.
    #[inline]
    pub const fn top(self) -> Option<Checker> {
        if self.0 == 0 {
            None
        } else {
            Some(self.checker_at(0))
        }
    }

    /// The `depth`-th checker from the top (0 = top). `depth` must be below the height.
    #[inline]
    pub const fn checker(self, depth: u32) -> Checker {
        self.checker_at(depth)
    }

    #[inline]
    const fn checker_at(self, depth: u32) -> Checker {
        let color = if (self.0 >> depth) & 1 == 1 {
            Color::Black
        } else {
            Color::White
        };
        Checker {
            color,
            king: (self.0 >> (KING_SHIFT + depth)) & 1 == 1,
        }
    }

    /// The checkers from the top down.
    pub fn checkers(self) -> impl Iterator<Item = Checker> {
        (0..self.height()).map(move |depth| self.checker_at(depth))
    }

    /// The tower without its top checker, and that checker.
    #[inline]
    pub const fn without_top(self) -> (Tower, Checker) {
        let top = self.checker_at(0);
        let colors = (self.0 & COLOR_MASK) >> 1;
        let kings = (self.0 >> (KING_SHIFT + 1)) << KING_SHIFT;
        let rest = if colors == 1 { 0 } else { colors | kings };
        (Tower(rest), top)
    }

    /// The tower with `checker` put underneath its bottom.
    #[inline]
    pub const fn with_prisoner(self, checker: Checker) -> Tower {
        let height = self.height();
        let colors = (self.0 & COLOR_MASK) & !(1 << height);
        let colors = colors | (1 << (height + 1)) | ((checker.color as u64) << height);
        let kings =
            (self.0 >> KING_SHIFT << KING_SHIFT) | (checker.king as u64) << (KING_SHIFT + height);
        Tower(colors | kings)
    }

    /// The tower with its top checker crowned.
    #[inline]
    pub const fn with_top_crowned(self) -> Tower {
        Tower(self.0 | 1 << KING_SHIFT)
    }

    /// The tower with its top checker turned back into a man.
    #[inline]
    pub const fn with_top_uncrowned(self) -> Tower {
        Tower(self.0 & !(1 << KING_SHIFT))
    }

    /// The tower with `checker` put on top (undoes [`Tower::without_top`]).
    #[inline]
    pub const fn with_top(self, checker: Checker) -> Tower {
        let colors = self.0 & COLOR_MASK;
        let colors = if colors == 0 { 0b10 } else { colors << 1 } | checker.color as u64;
        let kings =
            (self.0 >> KING_SHIFT) << (KING_SHIFT + 1) | (checker.king as u64) << KING_SHIFT;
        Tower(colors | kings)
    }

    /// The tower with its bottom `count` checkers removed (undoes [`Tower::with_prisoner`]).
    pub fn without_bottom(self, count: u32) -> Tower {
        let height = self.height();
        let keep = height.saturating_sub(count);
        if keep == 0 {
            return Tower::EMPTY;
        }
        let low = (1u64 << keep) - 1;
        let colors = (self.0 & low) | 1 << keep;
        let kings = ((self.0 >> KING_SHIFT) & low) << KING_SHIFT;
        Tower(colors | kings)
    }

    /// How many checkers of the commanding colour sit on top, before the first prisoner.
    pub fn owner_run(self) -> u32 {
        match self.top() {
            None => 0,
            Some(top) => self.checkers().take_while(|c| c.color == top.color).count() as u32,
        }
    }

    /// How many times the colour changes going down the tower, plus one; 0 for an empty
    /// square. A tower built by the rules has at most two runs.
    pub fn color_runs(self) -> u32 {
        let mut runs = 0;
        let mut last = None;
        for checker in self.checkers() {
            if last != Some(checker.color) {
                runs += 1;
                last = Some(checker.color);
            }
        }
        runs
    }

    /// The tower as letters, top first (see [`Checker::letter`]): `Wbb` is a white king
    /// holding two black men; an empty square is the empty text.
    pub fn letters(self) -> String {
        self.checkers().map(Checker::letter).collect()
    }

    /// How many checkers of `color` the tower holds.
    pub fn count(self, color: Color) -> u32 {
        let height = self.height();
        let black = (self.0 & ((1u64 << height) - 1)).count_ones();
        match color {
            Color::Black => black,
            Color::White => height - black,
        }
    }
}

impl fmt::Debug for Tower {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tower({})", self.letters())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_codes_read_back() {
        for color in [Color::White, Color::Black] {
            assert_eq!(Color::from_code(color.code()), Some(color));
            assert_eq!(color.code(), color.name().to_lowercase());
        }
        assert_eq!(Color::from_code("White"), None);
        assert_eq!(Color::from_code(""), None);
    }

    const WM: Checker = Checker::man(Color::White);
    const WK: Checker = Checker::king(Color::White);
    const BM: Checker = Checker::man(Color::Black);
    const BK: Checker = Checker::king(Color::Black);

    #[test]
    fn build_take_and_bury() {
        let tower = Tower::from_checkers([WK, WM, BM, BK]).expect("fits");
        assert_eq!(tower.height(), 4);
        assert_eq!(tower.top(), Some(WK));
        assert_eq!(tower.checkers().collect::<Vec<_>>(), vec![WK, WM, BM, BK]);
        assert_eq!(tower.owner_run(), 2);
        assert_eq!(tower.color_runs(), 2);
        assert_eq!(tower.count(Color::White), 2);
        assert_eq!(tower.count(Color::Black), 2);
        let (rest, top) = tower.without_top();
        assert_eq!(top, WK);
        assert_eq!(rest.checkers().collect::<Vec<_>>(), vec![WM, BM, BK]);
        let (rest, _) = rest.without_top();
        let (rest, _) = rest.without_top();
        assert_eq!(rest, Tower::single(BK));
        let (rest, top) = rest.without_top();
        assert_eq!((rest, top), (Tower::EMPTY, BK));
        assert_eq!(
            tower.without_bottom(2),
            Tower::from_checkers([WK, WM]).expect("fits")
        );
        assert_eq!(tower.without_bottom(4), Tower::EMPTY);
        assert_eq!(Tower::single(BM).with_top_crowned(), Tower::single(BK));
    }

    #[test]
    fn letters_name_every_checker() {
        for checker in [WM, WK, BM, BK] {
            assert_eq!(Checker::from_letter(checker.letter()), Some(checker));
        }
        assert_eq!([WM, WK, BM, BK].map(Checker::letter), ['w', 'W', 'b', 'B']);
        assert_eq!(Checker::from_letter('x'), None);
        assert_eq!(Checker::from_letter('0'), None);
        let tower = Tower::from_checkers([WK, BM, BM]).expect("fits");
        assert_eq!(tower.letters(), "Wbb");
        assert_eq!(format!("{tower:?}"), "Tower(Wbb)");
        assert_eq!(Tower::EMPTY.letters(), "");
    }

    #[test]
    fn full_height_and_beyond() {
        let full = Tower::from_checkers(std::iter::repeat_n(BM, 24)).expect("24 fit");
        assert_eq!(full.height(), 24);
        assert!(Tower::from_checkers(std::iter::repeat_n(BM, 25)).is_none());
        let tall =
            Tower::from_checkers(std::iter::repeat_n(WK, 12).chain(std::iter::repeat_n(BK, 12)))
                .expect("24 fit");
        assert_eq!(tall.count(Color::White), 12);
        assert_eq!(tall.checkers().last(), Some(BK));
        assert_eq!(tall.without_top().0.height(), 23);
    }
}
