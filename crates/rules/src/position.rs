//! Positions: the towers on the board, the side to move, and the hash of both.
//!
//! A [`Setup`] is any placement, unchecked; [`Position::from_setup`] checks it against the
//! rules of a [`Variant`] and says what is wrong. A [`Position`] keeps bitboards of who
//! commands each square and where kings are on top, beside the full towers, and an
//! incremental hash that covers every checker of every tower.

use std::fmt;

use crate::moves::Move;
use crate::square::{Bitboard, SQUARE_SLOTS, Square};
use crate::tower::{Checker, Color, MAX_TOWER_HEIGHT, Tower};

/// Which game is played.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Variant {
    /// Tower checkers: captured checkers go under the capturing tower.
    Bashni,
    /// Russian draughts: captured pieces leave the board when the capture ends.
    Russian,
}

impl Variant {
    /// The lowercase name used on the command line: `bashni` or `russian`.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Bashni => "bashni",
            Variant::Russian => "russian",
        }
    }

    /// Reads `bashni` or `russian` (any case).
    pub fn parse(text: &str) -> Option<Variant> {
        match text.to_ascii_lowercase().as_str() {
            "bashni" => Some(Variant::Bashni),
            "russian" | "shashki" => Some(Variant::Russian),
            _ => None,
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How many checkers each side owns at the start.
pub const CHECKERS_PER_SIDE: u32 = 12;

/// An unchecked placement: any towers on any squares, and a side to move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Setup {
    /// The tower on each square, by padded index (see [`Square::index`]).
    pub towers: [Tower; SQUARE_SLOTS],
    /// Who moves next.
    pub side_to_move: Color,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup {
            towers: [Tower::EMPTY; SQUARE_SLOTS],
            side_to_move: Color::White,
        }
    }
}

impl Setup {
    /// The starting placement, the same in both games.
    pub fn start() -> Setup {
        let mut setup = Setup::default();
        for square in Bitboard::ALL.squares() {
            let color = match square.rank() {
                0..=2 => Color::White,
                5..=7 => Color::Black,
                _ => continue,
            };
            setup.towers[square.index()] = Tower::single(Checker::man(color));
        }
        setup
    }

    /// The tower on `square`.
    pub fn tower(&self, square: Square) -> Tower {
        self.towers[square.index()]
    }

    /// Puts `tower` on `square`, replacing what was there.
    pub fn put(&mut self, square: Square, tower: Tower) {
        self.towers[square.index()] = tower;
    }
}

/// Why a setup is not a position of the game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PositionError {
    /// Russian draughts has no towers: a square holds more than one piece.
    TowerInRussian(Square),
    /// A tower has its owner's checkers, then prisoners, then owner's checkers again.
    TooManyColorRuns(Square),
    /// A tower is taller than all the checkers of the game.
    TowerTooTall(Square),
    /// A side has more checkers than the game gives it.
    TooManyCheckers {
        /// The side.
        color: Color,
        /// How many it has.
        count: u32,
    },
    /// Russian draughts: more pieces than the set of 24.
    TooManyPieces(u32),
    /// A man commands a tower on the rank where it would have been crowned.
    UncrownedMan(Square),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::TowerInRussian(square) => {
                write!(
                    f,
                    "{square}: Russian draughts has one piece per square, not a tower"
                )
            }
            PositionError::TooManyColorRuns(square) => write!(
                f,
                "{square}: a tower holds its owner's checkers on top and prisoners below, never a third colour run"
            ),
            PositionError::TowerTooTall(square) => {
                write!(
                    f,
                    "{square}: a tower holds at most {MAX_TOWER_HEIGHT} checkers"
                )
            }
            PositionError::TooManyCheckers { color, count } => write!(
                f,
                "{color} has {count} checkers, but each side has only {CHECKERS_PER_SIDE}"
            ),
            PositionError::TooManyPieces(count) => write!(
                f,
                "{count} pieces on the board, but the game has only {}",
                2 * CHECKERS_PER_SIDE
            ),
            PositionError::UncrownedMan(square) => write!(
                f,
                "{square}: a man on top here stands on its crowning rank and would be a king"
            ),
        }
    }
}

impl std::error::Error for PositionError {}

/// A legal position of one of the games.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Position {
    variant: Variant,
    side: Color,
    /// Squares commanded by each side.
    owners: [Bitboard; 2],
    /// Squares whose top checker is a king.
    kings: Bitboard,
    towers: [Tower; SQUARE_SLOTS],
    hash: u64,
}

impl Position {
    /// The starting position of `variant`.
    pub fn start(variant: Variant) -> Position {
        Position::from_setup(variant, &Setup::start()).expect("the starting placement is legal")
    }

    /// Checks `setup` against the rules of `variant`.
    pub fn from_setup(variant: Variant, setup: &Setup) -> Result<Position, PositionError> {
        let mut counts = [0u32; 2];
        for square in Square::ALL_BY_NAME {
            let tower = setup.tower(square);
            let Some(top) = tower.top() else { continue };
            if variant == Variant::Russian && tower.height() > 1 {
                return Err(PositionError::TowerInRussian(square));
            }
            if tower.height() > MAX_TOWER_HEIGHT {
                return Err(PositionError::TowerTooTall(square));
            }
            if tower.color_runs() > 2 {
                return Err(PositionError::TooManyColorRuns(square));
            }
            if !top.king && Position::crowning_rank(top.color).has(square) {
                return Err(PositionError::UncrownedMan(square));
            }
            counts[0] += tower.count(Color::White);
            counts[1] += tower.count(Color::Black);
        }
        match variant {
            // Colours matter in a tower, so each side keeps exactly its own twelve.
            Variant::Bashni => {
                for color in [Color::White, Color::Black] {
                    let count = counts[color.index()];
                    if count > CHECKERS_PER_SIDE {
                        return Err(PositionError::TooManyCheckers { color, count });
                    }
                }
            }
            // Composed positions may split the set of 24 pieces in any way.
            Variant::Russian => {
                let count = counts[0] + counts[1];
                if count > 2 * CHECKERS_PER_SIDE {
                    return Err(PositionError::TooManyPieces(count));
                }
            }
        }
        let mut position = Position {
            variant,
            side: setup.side_to_move,
            owners: [Bitboard::EMPTY; 2],
            kings: Bitboard::EMPTY,
            towers: [Tower::EMPTY; SQUARE_SLOTS],
            hash: 0,
        };
        for square in Bitboard::ALL.squares() {
            position.put(square, setup.tower(square));
        }
        position.hash ^= side_key(position.side);
        Ok(position)
    }

    /// A position of Russian draughts given by the squares of White's pieces, of Black's
    /// pieces and of the kings among them: the same checks and the same position as
    /// [`Position::from_setup`] with single pieces, without going through all the squares
    /// (for programs that make many positions, such as endgame tables).
    pub fn russian(
        white: Bitboard,
        black: Bitboard,
        kings: Bitboard,
        side_to_move: Color,
    ) -> Result<Position, PositionError> {
        let white = Bitboard(white.0 & Bitboard::ALL.0);
        let black = Bitboard(black.0 & Bitboard::ALL.0);
        let kings = Bitboard(kings.0 & (white.0 | black.0));
        if let Some(square) = Bitboard(white.0 & black.0).squares().next() {
            return Err(PositionError::TowerInRussian(square));
        }
        let count = white.count() + black.count();
        if count > 2 * CHECKERS_PER_SIDE {
            return Err(PositionError::TooManyPieces(count));
        }
        let white_men = white.0 & !kings.0 & Position::crowning_rank(Color::White).0;
        let black_men = black.0 & !kings.0 & Position::crowning_rank(Color::Black).0;
        if let Some(square) = Bitboard(white_men | black_men).squares().next() {
            return Err(PositionError::UncrownedMan(square));
        }
        let mut position = Position {
            variant: Variant::Russian,
            side: side_to_move,
            owners: [white, black],
            kings,
            towers: [Tower::EMPTY; SQUARE_SLOTS],
            hash: side_key(side_to_move),
        };
        for (color, pieces) in [(Color::White, white), (Color::Black, black)] {
            for square in pieces.squares() {
                let tower = Tower::single(Checker {
                    color,
                    king: kings.has(square),
                });
                position.towers[square.index()] = tower;
                position.hash ^= tower_key(square, tower);
            }
        }
        Ok(position)
    }

    /// The unchecked placement of this position.
    pub fn to_setup(&self) -> Setup {
        Setup {
            towers: self.towers,
            side_to_move: self.side,
        }
    }

    /// The rank where men of `color` are crowned.
    #[inline]
    pub const fn crowning_rank(color: Color) -> Bitboard {
        match color {
            Color::White => Bitboard::RANK_8,
            Color::Black => Bitboard::RANK_1,
        }
    }

    /// Which game this position belongs to.
    #[inline]
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Who moves next.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The tower on `square` (empty if none).
    #[inline]
    pub fn tower(&self, square: Square) -> Tower {
        self.towers[square.index()]
    }

    /// The squares commanded by `color`.
    #[inline]
    pub fn owned_by(&self, color: Color) -> Bitboard {
        self.owners[color.index()]
    }

    /// The squares with a tower.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.owners[0] | self.owners[1]
    }

    /// The squares whose top checker is a king.
    #[inline]
    pub fn kings(&self) -> Bitboard {
        self.kings
    }

    /// The hash of the position: every checker of every tower and the side to move.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash computed from scratch; always equal to [`Position::hash`].
    pub fn recompute_hash(&self) -> u64 {
        Bitboard::ALL
            .squares()
            .fold(side_key(self.side), |hash, square| {
                hash ^ tower_key(square, self.tower(square))
            })
    }

    /// How many checkers of `color` are on the board, commanding or captive.
    pub fn checker_count(&self, color: Color) -> u32 {
        self.occupied()
            .squares()
            .map(|square| self.tower(square).count(color))
            .sum()
    }

    /// Replaces the tower on `square`, keeping bitboards and hash in step.
    #[inline]
    fn put(&mut self, square: Square, tower: Tower) {
        self.put_with::<true>(square, tower);
    }

    /// [`Position::put`], leaving the hash alone when `HASH` is false.
    #[inline]
    fn put_with<const HASH: bool>(&mut self, square: Square, tower: Tower) {
        let old = self.towers[square.index()];
        if HASH {
            self.hash ^= tower_key(square, old) ^ tower_key(square, tower);
        }
        self.towers[square.index()] = tower;
        self.owners[0].remove(square);
        self.owners[1].remove(square);
        self.kings.remove(square);
        if let Some(top) = tower.top() {
            self.owners[top.color.index()].insert(square);
            if top.king {
                self.kings.insert(square);
            }
        }
    }

    /// Moves the tower on `from` to the empty square `to`, crowning or uncrowning its top
    /// when `toggle_crown` is set: the whole of a quiet move, and of its undoing.
    #[inline]
    fn shift_tower<const HASH: bool>(&mut self, from: Square, to: Square, toggle_crown: bool) {
        let tower = self.towers[from.index()];
        let moved = Tower::from_bits(tower.bits() ^ (toggle_crown as u64) << 32);
        if HASH {
            self.hash ^= tower_key(from, tower) ^ tower_key(to, moved);
        }
        self.towers[from.index()] = Tower::EMPTY;
        self.towers[to.index()] = moved;
        // Written to stay right when `from` and `to` are the same square (a capture that
        // ends where it began).
        let owner = (tower.bits() & 1) as usize;
        self.owners[owner].0 = (self.owners[owner].0 & !from.bit().0) | to.bit().0;
        let is_king = (moved.bits() >> 32) & 1;
        self.kings.0 = (self.kings.0 & !from.bit().0) | (is_king * to.bit().0);
    }

    /// Takes the single piece off `square` (a Russian capture ending).
    #[inline]
    fn remove_piece<const HASH: bool>(&mut self, square: Square) {
        let tower = self.towers[square.index()];
        if HASH {
            self.hash ^= tower_key(square, tower);
        }
        self.towers[square.index()] = Tower::EMPTY;
        self.owners[0].remove(square);
        self.owners[1].remove(square);
        self.kings.remove(square);
    }

    /// Plays `mv`, which must be one of this position's legal moves.
    #[inline]
    pub fn play(&mut self, mv: &Move) {
        self.play_with::<true>(mv);
    }

    /// Takes back `mv`, which must be the move just played from the position it came from.
    #[inline]
    pub fn undo(&mut self, mv: &Move) {
        self.undo_with::<true>(mv);
    }

    /// Plays `mv` without updating the hash, for walks that never read it (perft). Only
    /// [`Position::undo_unhashed`] of the same move may follow; then the hash is right again.
    #[inline]
    pub(crate) fn play_unhashed(&mut self, mv: &Move) {
        self.play_with::<false>(mv);
    }

    /// Takes back a move played by [`Position::play_unhashed`].
    #[inline]
    pub(crate) fn undo_unhashed(&mut self, mv: &Move) {
        self.undo_with::<false>(mv);
    }

    #[inline]
    fn play_with<const HASH: bool>(&mut self, mv: &Move) {
        if !mv.is_capture() || self.variant == Variant::Russian {
            for &jumped in mv.captured() {
                self.remove_piece::<HASH>(jumped);
            }
            self.shift_tower::<HASH>(mv.from(), mv.to(), mv.promotes());
            if HASH {
                self.hash ^= side_key(self.side) ^ side_key(self.side.opponent());
            }
            self.side = self.side.opponent();
            return;
        }
        let from = mv.from();
        let mut moving = self.tower(from);
        self.put_with::<HASH>(from, Tower::EMPTY);
        for &jumped in mv.captured() {
            let (rest, prisoner) = self.tower(jumped).without_top();
            self.put_with::<HASH>(jumped, rest);
            if self.variant == Variant::Bashni {
                moving = moving.with_prisoner(prisoner);
            }
        }
        if mv.promotes() {
            moving = moving.with_top_crowned();
        }
        self.put_with::<HASH>(mv.to(), moving);
        if HASH {
            self.hash ^= side_key(self.side) ^ side_key(self.side.opponent());
        }
        self.side = self.side.opponent();
    }

    #[inline]
    fn undo_with<const HASH: bool>(&mut self, mv: &Move) {
        if HASH {
            self.hash ^= side_key(self.side) ^ side_key(self.side.opponent());
        }
        self.side = self.side.opponent();
        if !mv.is_capture() || self.variant == Variant::Russian {
            self.shift_tower::<HASH>(mv.to(), mv.from(), mv.promotes());
            let color = self.side.opponent();
            for (i, &jumped) in mv.captured().iter().enumerate() {
                let piece = Checker {
                    color,
                    king: mv.captured_king(i),
                };
                self.put_with::<HASH>(jumped, Tower::single(piece));
            }
            return;
        }
        let mut moving = self.tower(mv.to());
        self.put_with::<HASH>(mv.to(), Tower::EMPTY);
        if mv.promotes() {
            moving = moving.with_top_uncrowned();
        }
        let jumps = mv.captured().len();
        let height = moving.height();
        for (i, &jumped) in mv.captured().iter().enumerate().rev() {
            let prisoner = moving.checker(height - jumps as u32 + i as u32);
            self.put_with::<HASH>(jumped, self.tower(jumped).with_top(prisoner));
        }
        moving = moving.without_bottom(jumps as u32);
        self.put_with::<HASH>(mv.from(), moving);
    }

    /// The position after `mv`, leaving this one as it is.
    #[inline]
    pub fn after(&self, mv: &Move) -> Position {
        let mut next = *self;
        next.play(mv);
        next
    }
}

/// The hash key of `tower` standing on `square`; 0 for an empty square.
///
/// Each (square, tower) pair is fed through a bijective mixer, so different towers on the
/// same square never share a key; this works as a Zobrist table with one entry for every
/// possible tower composition, without storing the table. Single checkers, by far the most
/// common towers, are looked up in a precomputed table of the same keys.
#[inline]
fn tower_key(square: Square, tower: Tower) -> u64 {
    let bits = tower.bits();
    if bits & !SINGLE_FLAGS == 0b10 {
        let piece = (bits & 1) | ((bits >> 31) & 2);
        return SINGLE_KEYS[square.index()][piece as usize];
    }
    if bits == 0 {
        return 0;
    }
    mix_key(square.index(), bits)
}

/// The bits that tell the four single checkers apart: colour and king.
const SINGLE_FLAGS: u64 = 1 | 1 << 32;

const SINGLE_KEYS: [[u64; 4]; SQUARE_SLOTS] = {
    let mut table = [[0; 4]; SQUARE_SLOTS];
    let mut square = 0;
    while square < SQUARE_SLOTS {
        let mut piece = 0;
        while piece < 4 {
            let bits = 0b10 | (piece & 1) | (piece >> 1) << 32;
            table[square][piece as usize] = mix_key(square, bits);
            piece += 1;
        }
        square += 1;
    }
    table
};

#[inline]
const fn mix_key(square: usize, bits: u64) -> u64 {
    // Tower bits use at most bits 0..=24 and 32..=55, so the square fits above them.
    let mut x = bits ^ ((square as u64) << 57) ^ 0x9E37_79B9_7F4A_7C15;
    x ^= x >> 33;
    x = x.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    x ^= x >> 33;
    x = x.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    x ^ (x >> 33)
}

#[inline]
const fn side_key(side: Color) -> u64 {
    match side {
        Color::White => 0,
        Color::Black => 0xA5B3_5705_2B4C_F0E1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(name: &str) -> Square {
        Square::parse(name).expect("square")
    }

    #[test]
    fn setups_that_break_a_rule_are_refused_with_the_reason() {
        let man = |color| Checker::man(color);
        let mut setup = Setup::default();
        let three_runs =
            Tower::from_checkers([man(Color::White), man(Color::Black), man(Color::White)]);
        setup.put(square("d4"), three_runs.expect("fits"));
        assert_eq!(
            Position::from_setup(Variant::Bashni, &setup),
            Err(PositionError::TooManyColorRuns(square("d4")))
        );
        let mut setup = Setup::default();
        let pair = Tower::from_checkers([man(Color::White), man(Color::Black)]).expect("fits");
        setup.put(square("d4"), pair);
        assert_eq!(
            Position::from_setup(Variant::Russian, &setup),
            Err(PositionError::TowerInRussian(square("d4")))
        );
        assert!(Position::from_setup(Variant::Bashni, &setup).is_ok());
        let mut setup = Setup::default();
        setup.put(square("h2"), Tower::single(man(Color::Black)));
        setup.put(square("g1"), Tower::single(man(Color::Black)));
        assert_eq!(
            Position::from_setup(Variant::Bashni, &setup),
            Err(PositionError::UncrownedMan(square("g1")))
        );
        let mut setup = Setup::start();
        setup.put(square("d4"), Tower::single(man(Color::White)));
        assert_eq!(
            Position::from_setup(Variant::Bashni, &setup),
            Err(PositionError::TooManyCheckers {
                color: Color::White,
                count: 13
            })
        );
        // Russian draughts may split the 24 pieces in any way, but not have more.
        setup.put(square("b6"), Tower::EMPTY);
        assert!(Position::from_setup(Variant::Russian, &setup).is_ok());
        setup.put(square("e5"), Tower::single(man(Color::Black)));
        assert_eq!(
            Position::from_setup(Variant::Russian, &setup),
            Err(PositionError::TooManyPieces(25))
        );
        for error in [
            PositionError::TooManyPieces(25),
            PositionError::UncrownedMan(square("g1")),
        ] {
            assert!(!error.to_string().is_empty());
        }
    }

    #[test]
    fn the_hash_tells_tower_compositions_apart() {
        let white_over_black =
            Tower::from_checkers([Checker::man(Color::White), Checker::man(Color::Black)]);
        let white_over_king =
            Tower::from_checkers([Checker::man(Color::White), Checker::king(Color::Black)]);
        let mut a = Setup::start();
        a.put(square("d4"), white_over_black.expect("fits"));
        a.put(square("a1"), Tower::EMPTY);
        a.put(square("b6"), Tower::EMPTY);
        let mut b = a.clone();
        b.put(square("d4"), white_over_king.expect("fits"));
        let a = Position::from_setup(Variant::Bashni, &a).expect("legal");
        let b = Position::from_setup(Variant::Bashni, &b).expect("legal");
        assert_ne!(a.hash(), b.hash());
        assert_eq!(a.hash(), a.recompute_hash());
        let mut black = a.to_setup();
        black.side_to_move = Color::Black;
        let black = Position::from_setup(Variant::Bashni, &black).expect("legal");
        assert_ne!(a.hash(), black.hash());
    }
    #[test]
    fn russian_positions_from_bitboards_match_the_setup() {
        let bits = |names: &[&str]| {
            names
                .iter()
                .fold(Bitboard::EMPTY, |b, n| Bitboard(b.0 | square(n).bit().0))
        };
        let white = bits(&["a1", "c3", "h8"]);
        let black = bits(&["b6", "d8", "g1"]);
        let kings = bits(&["h8", "g1", "a1"]);
        let mut setup = Setup::default();
        for (color, pieces) in [(Color::White, white), (Color::Black, black)] {
            for at in pieces.squares() {
                let piece = Checker {
                    color,
                    king: kings.has(at),
                };
                setup.put(at, Tower::single(piece));
            }
        }
        for side in [Color::White, Color::Black] {
            setup.side_to_move = side;
            let made = Position::russian(white, black, kings, side);
            assert_eq!(made, Position::from_setup(Variant::Russian, &setup));
            let made = made.expect("legal");
            assert_eq!(made.recompute_hash(), made.hash());
        }
        assert_eq!(
            Position::russian(white, bits(&["c3"]), kings, Color::White),
            Err(PositionError::TowerInRussian(square("c3")))
        );
        assert_eq!(
            Position::russian(bits(&["b8"]), black, kings, Color::White),
            Err(PositionError::UncrownedMan(square("b8")))
        );
    }
}
