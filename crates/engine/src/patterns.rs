//! Pattern weights: what the arrangement of men in each region of the board is worth.
//!
//! The board is covered by [`REGIONS`] overlapping 4×4 blocks (files a-d, c-f and e-h, five
//! blocks of ranks each), and every block holds eight dark squares. A square of a block is
//! empty, holds a man of the side to move, or a man of the opponent (for Bashni: the top of
//! its tower is that man); kings count as empty there. So a block is in one of 3⁸ = 6561
//! states, and each state of each block has a learned weight, one for the opening and one
//! for the ending, blended by how many towers are left. Square tables add a weight for each
//! of the 32 squares and each [`Kind`] of piece standing there, again for the opening and for
//! the ending: a king of the side to move or of the opponent, and in Bashni a tower of two or
//! more by who commands it and whose checker lies right under its top.
//!
//! Everything is seen from the side to move: with Black to move the board is turned half
//! round, so the same weight serves both sides and a position's value to the side to move is
//! read directly. The weights are fitted by `bashni learn fit` (the `bashni-tuning` crate) to
//! self-play results and shipped in `weights/*.patterns`, a small binary file:
//!
//! | bytes | what |
//! | --- | --- |
//! | 8 | `BPATTERN` |
//! | 4 | format version, 3, little-endian |
//! | 4 | number of weights that follow, [`PATTERN_WEIGHTS`] |
//! | 2 each | the weights, `i16` little-endian: the blocks' opening then ending weights, by region then state; then the square tables' opening then ending weights, by kind then square |
//! | 8 | FNV-1a hash of everything before it |
//!
//! Files of version 1 hold the blocks' weights alone (`2 * REGIONS * STATES`), files of
//! version 2 the blocks' and the two kinds of kings' (opening then ending, each the side to
//! move's 32 squares then the opponent's); read, their missing weights are zero.

use std::fmt;

use bashni_rules::{Bitboard, Color, Position, Square, Variant};

use crate::score::Value;

/// How many blocks cover the board.
pub const REGIONS: usize = 15;
/// Squares in a block.
pub const REGION_SQUARES: usize = 8;
/// States of one block: 3 to the power of its squares.
pub const STATES: usize = 6561;
/// How many weights the blocks have: opening and ending for each state of each block.
pub const REGION_WEIGHTS: usize = 2 * REGIONS * STATES;
/// Dark squares, the places of the square tables.
pub const SQUARES: usize = 32;

/// What stands on a square, for the square tables; "own" is the side to move's. A tower of
/// Bashni is of a king's kind when a king commands it, and also of a tower's kind when it
/// holds two checkers or more.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// A king of the side to move (in Bashni: a tower it commands with a king).
    OwnKing = 0,
    /// A king of the opponent.
    EnemyKing = 1,
    /// A tower of the side to move with one of its own checkers right under the top.
    OwnOverOwn = 2,
    /// A tower of the side to move with an opponent's checker (a prisoner) under the top.
    OwnOverEnemy = 3,
    /// A tower of the opponent with one of the opponent's own checkers under the top.
    EnemyOverEnemy = 4,
    /// A tower of the opponent holding a checker of the side to move under the top.
    EnemyOverOwn = 5,
}

/// How many kinds the square tables weigh.
pub const KINDS: usize = 6;
/// How many weights the square tables have: opening and ending, for each kind on each
/// square seen from the side to move.
pub const SQUARE_WEIGHTS: usize = 2 * KINDS * SQUARES;
/// How many weights a pattern table holds: the blocks', then the square tables'.
pub const PATTERN_WEIGHTS: usize = REGION_WEIGHTS + SQUARE_WEIGHTS;
/// Towers on the board at the start, where the opening weights count fully.
pub const FULL_BOARD: i32 = 24;

const MAGIC: &[u8; 8] = b"BPATTERN";
const VERSION: u32 = 3;

/// Where a square counts: in which blocks, and the power of three of its place there.
#[derive(Clone, Copy)]
struct Places {
    count: u8,
    region: [u8; 8],
    power: [u16; 8],
}

/// For each side to move (White, Black) and each padded square index: its places, the
/// board turned half round for Black.
static PLACES: [[Places; 64]; 2] = places();

const fn places() -> [[Places; 64]; 2] {
    let empty = Places {
        count: 0,
        region: [0; 8],
        power: [0; 8],
    };
    let mut out = [[empty; 64]; 2];
    let mut side = 0;
    while side < 2 {
        let mut rank = 0u8;
        while rank < 8 {
            let mut file = 0u8;
            while file < 8 {
                if let Some(square) = Square::from_coords(file, rank) {
                    // Seen from the side to move.
                    let (f, r) = if side == 0 {
                        (file, rank)
                    } else {
                        (7 - file, 7 - rank)
                    };
                    let mut places = empty;
                    let mut region = 0;
                    while region < REGIONS {
                        let x0 = 2 * (region / 5) as u8;
                        let y0 = (region % 5) as u8;
                        if f >= x0 && f < x0 + 4 && r >= y0 && r < y0 + 4 {
                            // The place of (f, r) among the block's dark squares, in
                            // reading order.
                            let mut place = 0;
                            let mut yy = y0;
                            while yy < y0 + 4 {
                                let mut xx = x0;
                                while xx < x0 + 4 {
                                    if (xx + yy).is_multiple_of(2)
                                        && (yy < r || (yy == r && xx < f))
                                    {
                                        place += 1;
                                    }
                                    xx += 1;
                                }
                                yy += 1;
                            }
                            let mut power = 1u16;
                            let mut p = 0;
                            while p < place {
                                power *= 3;
                                p += 1;
                            }
                            let n = places.count as usize;
                            places.region[n] = region as u8;
                            places.power[n] = power;
                            places.count += 1;
                        }
                        region += 1;
                    }
                    out[side][square.index()] = places;
                }
                file += 1;
            }
            rank += 1;
        }
        side += 1;
    }
    out
}

/// For each side to move and each padded square index: the square's place (0-31) in the
/// square tables, the board turned half round for Black.
static SQUARE_PLACES: [[u8; 64]; 2] = square_places();

const fn square_places() -> [[u8; 64]; 2] {
    let mut out = [[0u8; 64]; 2];
    // Place `r * 4 + f / 2` for the dark square on file f, rank r; turning the board half
    // round takes place p to 31 - p.
    let mut place = 0u8;
    while place < SQUARES as u8 {
        let rank = place / 4;
        let file = 2 * (place % 4) + rank % 2;
        if let Some(square) = Square::from_coords(file, rank) {
            out[0][square.index()] = place;
            out[1][square.index()] = SQUARES as u8 - 1 - place;
        }
        place += 1;
    }
    out
}

/// The pieces the square tables weigh, as a set of places (bit `i` for place `i`) for each
/// [`Kind`], seen from the side to move.
pub fn pieces(position: &Position) -> [u32; KINDS] {
    let mut out = [0u32; KINDS];
    add_kings(position, &mut out);
    if position.variant() == Variant::Bashni {
        add_towers(position, &mut out);
    }
    out
}

fn add_kings(position: &Position, out: &mut [u32; KINDS]) {
    let mover = position.side_to_move();
    let side = mover.index();
    let kings = position.kings().0;
    for (kind, color) in [(Kind::OwnKing, mover), (Kind::EnemyKing, mover.opponent())] {
        for square in Bitboard(position.owned_by(color).0 & kings).squares() {
            out[kind as usize] |= 1 << SQUARE_PLACES[side][square.index()];
        }
    }
}

fn add_towers(position: &Position, out: &mut [u32; KINDS]) {
    let mover = position.side_to_move();
    let side = mover.index();
    for square in position.occupied().squares() {
        let tower = position.tower(square);
        if tower.height() < 2 {
            continue;
        }
        let own_top = tower.checker(0).color == mover;
        let own_under = tower.checker(1).color == mover;
        let kind = match (own_top, own_under) {
            (true, true) => Kind::OwnOverOwn,
            (true, false) => Kind::OwnOverEnemy,
            (false, false) => Kind::EnemyOverEnemy,
            (false, true) => Kind::EnemyOverOwn,
        };
        out[kind as usize] |= 1 << SQUARE_PLACES[side][square.index()];
    }
}

/// The state of every block, seen from the side to move.
pub fn states(position: &Position) -> [u16; REGIONS] {
    let mover = position.side_to_move();
    let side = mover.index();
    let men = !position.kings().0;
    let own = Bitboard(position.owned_by(mover).0 & men);
    let enemy = Bitboard(position.owned_by(mover.opponent()).0 & men);
    let mut out = [0u16; REGIONS];
    for (men, digit) in [(own, 1u16), (enemy, 2u16)] {
        for square in men.squares() {
            let places = &PLACES[side][square.index()];
            for i in 0..places.count as usize {
                out[places.region[i] as usize] += digit * places.power[i];
            }
        }
    }
    out
}

/// How much the opening weights count, out of [`FULL_BOARD`]: the towers on the board.
pub fn phase(position: &Position) -> i32 {
    (position.occupied().count() as i32).min(FULL_BOARD)
}

/// The learned pattern weights of one game.
#[derive(Clone, PartialEq, Eq)]
pub struct PatternWeights {
    /// Opening weights then ending weights, each by region then state.
    weights: Box<[i16]>,
    /// The same weights as pairs (opening, ending) by region then state, so that the score
    /// reads both with one memory access.
    paired: Box<[[i16; 2]]>,
    /// The square tables' weights as pairs (opening, ending), by kind then place.
    squares: [[i16; 2]; KINDS * SQUARES],
    /// Whether any tower kind has a weight: if not, the score need not look at towers.
    towers: bool,
}

impl fmt::Debug for PatternWeights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let nonzero = self.weights.iter().filter(|w| **w != 0).count();
        write!(f, "PatternWeights({nonzero} non-zero)")
    }
}

/// Why a pattern file could not be read.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PatternError(pub String);

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pattern weights: {}", self.0)
    }
}

impl std::error::Error for PatternError {}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for byte in bytes {
        hash ^= *byte as u64;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

impl PatternWeights {
    /// All weights zero: patterns add nothing.
    pub fn zero() -> PatternWeights {
        PatternWeights::new(vec![0; PATTERN_WEIGHTS].into_boxed_slice())
    }

    /// Weights in file order, [`PATTERN_WEIGHTS`] of them.
    fn new(weights: Box<[i16]>) -> PatternWeights {
        let (regions, square_values) = weights.split_at(REGION_WEIGHTS);
        let (opening, ending) = regions.split_at(REGIONS * STATES);
        let paired = opening.iter().zip(ending).map(|(&o, &e)| [o, e]).collect();
        let (opening, ending) = square_values.split_at(KINDS * SQUARES);
        let mut squares = [[0i16; 2]; KINDS * SQUARES];
        for (pair, (&o, &e)) in squares.iter_mut().zip(opening.iter().zip(ending)) {
            *pair = [o, e];
        }
        let towers = squares[Kind::OwnOverOwn as usize * SQUARES..]
            .iter()
            .any(|pair| *pair != [0, 0]);
        PatternWeights {
            weights,
            paired,
            squares,
            towers,
        }
    }

    /// Weights from a slice of [`PATTERN_WEIGHTS`] values (opening, then ending).
    pub fn from_values(values: &[i16]) -> Result<PatternWeights, PatternError> {
        if values.len() != PATTERN_WEIGHTS {
            return Err(PatternError(format!(
                "{} weights, expected {PATTERN_WEIGHTS}",
                values.len()
            )));
        }
        Ok(PatternWeights::new(values.into()))
    }

    /// The weights in file order: the blocks' (opening then ending, by region then state),
    /// then the square tables' (opening then ending, by kind then place).
    pub fn values(&self) -> &[i16] {
        &self.weights
    }

    /// The weight of `state` of `region`: opening (`ending` false) or ending.
    pub fn weight(&self, ending: bool, region: usize, state: usize) -> i16 {
        self.weights[(ending as usize * REGIONS + region) * STATES + state]
    }

    /// The weight of a piece of `kind` on `place` of the square tables: opening (`ending`
    /// false) or ending.
    pub fn square_weight(&self, ending: bool, kind: Kind, place: usize) -> i16 {
        self.squares[kind as usize * SQUARES + place][ending as usize]
    }

    /// The value of the patterns of `position` to the side to move.
    pub fn score(&self, position: &Position) -> Value {
        let states = states(position);
        let mut early = 0i32;
        let mut late = 0i32;
        for (region, state) in states.iter().enumerate() {
            let [opening, ending] = self.paired[region * STATES + *state as usize];
            early += opening as i32;
            late += ending as i32;
        }
        let mut pieces = [0u32; KINDS];
        if position.kings().0 != 0 {
            add_kings(position, &mut pieces);
        }
        if self.towers && position.variant() == Variant::Bashni {
            add_towers(position, &mut pieces);
        }
        for (kind, mut set) in pieces.into_iter().enumerate() {
            while set != 0 {
                let place = set.trailing_zeros() as usize;
                set &= set - 1;
                let [opening, ending] = self.squares[kind * SQUARES + place];
                early += opening as i32;
                late += ending as i32;
            }
        }
        let phase = phase(position);
        (early * phase + late * (FULL_BOARD - phase)) / FULL_BOARD
    }

    /// The file form described in the module documentation.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(24 + 2 * PATTERN_WEIGHTS);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.weights.len() as u32).to_le_bytes());
        for weight in self.weights.iter() {
            out.extend_from_slice(&weight.to_le_bytes());
        }
        let hash = fnv1a(&out);
        out.extend_from_slice(&hash.to_le_bytes());
        out
    }

    /// Reads the file form; says what is wrong with a bad file.
    pub fn from_bytes(bytes: &[u8]) -> Result<PatternWeights, PatternError> {
        if bytes.len() < 16 || &bytes[..8] != MAGIC {
            return Err(PatternError(
                "not a pattern file (no BPATTERN header)".into(),
            ));
        }
        let word = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        // Version 1 had the blocks' weights alone, version 2 the kings' two kinds besides.
        let version = word(8);
        let count = match version {
            1 => REGION_WEIGHTS,
            2 => REGION_WEIGHTS + 2 * 2 * SQUARES,
            VERSION => PATTERN_WEIGHTS,
            other => {
                return Err(PatternError(format!(
                    "format version {other}, expected 1, 2 or {VERSION}"
                )));
            }
        };
        if word(12) as usize != count {
            return Err(PatternError(format!(
                "{} weights, expected {count}",
                word(12)
            )));
        }
        let expected = 16 + 2 * count + 8;
        if bytes.len() != expected {
            return Err(PatternError(format!(
                "{} bytes, expected {expected} (cut short or padded)",
                bytes.len()
            )));
        }
        let (body, tail) = bytes.split_at(expected - 8);
        let mut stored = [0u8; 8];
        stored.copy_from_slice(tail);
        if u64::from_le_bytes(stored) != fnv1a(body) {
            return Err(PatternError(
                "checksum does not match: the file is damaged".into(),
            ));
        }
        let read: Vec<i16> = body[16..]
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]))
            .collect();
        let mut weights = vec![0i16; PATTERN_WEIGHTS];
        let blocks = REGION_WEIGHTS.min(read.len());
        weights[..blocks].copy_from_slice(&read[..blocks]);
        // The kings' opening then ending weights of version 2 go to their kinds' places.
        let kings = &read[blocks..];
        let half = kings.len() / 2;
        for (phase, values) in [&kings[..half], &kings[half..]].into_iter().enumerate() {
            let at = REGION_WEIGHTS + phase * KINDS * SQUARES;
            weights[at..at + values.len()].copy_from_slice(values);
        }
        Ok(PatternWeights::new(weights.into_boxed_slice()))
    }
}

/// The squares of `region` (for tests and tools), seen from White.
pub fn region_squares(region: usize) -> Vec<Square> {
    Bitboard::ALL
        .squares()
        .filter(|square| {
            let places = &PLACES[Color::White.index()][square.index()];
            places.region[..places.count as usize].contains(&(region as u8))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use bashni_rules::Variant;
    use bashni_rules::notation::parse_position;

    #[test]
    fn every_block_holds_eight_squares_and_every_square_is_covered() {
        for region in 0..REGIONS {
            assert_eq!(
                region_squares(region).len(),
                REGION_SQUARES,
                "region {region}"
            );
        }
        for square in Bitboard::ALL.squares() {
            for side in &PLACES {
                let places = &side[square.index()];
                assert!(places.count >= 1, "{square} is in no block");
                let mut powers: Vec<u16> = places.power[..places.count as usize].to_vec();
                powers.sort();
                assert!(powers.iter().all(|p| *p <= 2187), "{square}: {powers:?}");
            }
        }
    }

    #[test]
    fn a_state_is_the_same_for_both_sides_after_turning_the_board() {
        let white = parse_position(
            Variant::Russian,
            "White: c3 0, e3 0, a1 1; Black: f6 0, h6 0; White to move",
        )
        .expect("position");
        // The same position turned half round with the colours swapped.
        let black = parse_position(
            Variant::Russian,
            "White: a3 0, c3 0; Black: f6 0, d6 0, h8 1; Black to move",
        )
        .expect("position");
        assert_eq!(states(&white), states(&black));
        let start = Position::start(Variant::Russian);
        let s = states(&start);
        assert!(s.iter().all(|state| (*state as usize) < STATES));
        assert_ne!(s, [0; REGIONS]);
    }

    #[test]
    fn the_file_form_reads_back_and_damage_is_named() {
        let mut values = vec![0i16; PATTERN_WEIGHTS];
        for (i, v) in values.iter_mut().enumerate() {
            *v = (i % 97) as i16 - 48;
        }
        let weights = PatternWeights::from_values(&values).expect("size");
        let bytes = weights.to_bytes();
        assert_eq!(PatternWeights::from_bytes(&bytes), Ok(weights.clone()));
        let mut damaged = bytes.clone();
        damaged[100] ^= 1;
        let error = PatternWeights::from_bytes(&damaged).expect_err("damaged");
        assert!(error.0.contains("checksum"), "{error}");
        let error = PatternWeights::from_bytes(&bytes[..bytes.len() - 3]).expect_err("short");
        assert!(error.0.contains("cut short"), "{error}");
        assert!(PatternWeights::from_bytes(b"hello").is_err());
        // A file of the first version (the blocks alone) reads with the kings' weights zero.
        let mut old = Vec::new();
        old.extend_from_slice(MAGIC);
        old.extend_from_slice(&1u32.to_le_bytes());
        old.extend_from_slice(&(REGION_WEIGHTS as u32).to_le_bytes());
        for weight in &values[..REGION_WEIGHTS] {
            old.extend_from_slice(&weight.to_le_bytes());
        }
        let hash = fnv1a(&old);
        old.extend_from_slice(&hash.to_le_bytes());
        let read = PatternWeights::from_bytes(&old).expect("version 1");
        assert_eq!(&read.values()[..REGION_WEIGHTS], &values[..REGION_WEIGHTS]);
        assert!(read.values()[REGION_WEIGHTS..].iter().all(|w| *w == 0));
        // Version 2: the blocks, then the kings' opening and ending weights (two kinds each).
        let kings: Vec<i16> = (1..=4 * SQUARES as i16).collect();
        let mut second = Vec::new();
        second.extend_from_slice(MAGIC);
        second.extend_from_slice(&2u32.to_le_bytes());
        second.extend_from_slice(&((REGION_WEIGHTS + kings.len()) as u32).to_le_bytes());
        for weight in values[..REGION_WEIGHTS].iter().chain(&kings) {
            second.extend_from_slice(&weight.to_le_bytes());
        }
        let hash = fnv1a(&second);
        second.extend_from_slice(&hash.to_le_bytes());
        let read = PatternWeights::from_bytes(&second).expect("version 2");
        assert_eq!(&read.values()[..REGION_WEIGHTS], &values[..REGION_WEIGHTS]);
        assert_eq!(read.square_weight(false, Kind::OwnKing, 0), 1);
        assert_eq!(read.square_weight(false, Kind::EnemyKing, 31), 64);
        assert_eq!(read.square_weight(true, Kind::OwnKing, 0), 65);
        assert_eq!(read.square_weight(true, Kind::EnemyKing, 31), 128);
        for kind in [
            Kind::OwnOverOwn,
            Kind::OwnOverEnemy,
            Kind::EnemyOverEnemy,
            Kind::EnemyOverOwn,
        ] {
            for place in 0..SQUARES {
                assert_eq!(read.square_weight(false, kind, place), 0);
                assert_eq!(read.square_weight(true, kind, place), 0);
            }
        }
        assert!(!read.towers);
    }

    #[test]
    fn towers_are_weighed_by_their_top_and_the_checker_under_it() {
        // White to move: c3 a white man over a black one (holding a prisoner), e3 two white
        // men, f6 a black king over a white man, h6 a lone black man.
        let white = parse_position(
            Variant::Bashni,
            "White: c3 0/0, e3 00; Black: f6 1/0, h6 0; White to move",
        )
        .expect("position");
        let place = |name: &str, side: usize| {
            SQUARE_PLACES[side][Square::parse(name).expect("square").index()] as u32
        };
        let seen = pieces(&white);
        assert_eq!(seen[Kind::OwnOverEnemy as usize], 1 << place("c3", 0));
        assert_eq!(seen[Kind::OwnOverOwn as usize], 1 << place("e3", 0));
        assert_eq!(seen[Kind::EnemyOverOwn as usize], 1 << place("f6", 0));
        assert_eq!(seen[Kind::EnemyKing as usize], 1 << place("f6", 0));
        assert_eq!(seen[Kind::EnemyOverEnemy as usize], 0);
        assert_eq!(seen[Kind::OwnKing as usize], 0);
        // The same with Black to move: what was own is now the enemy's, the board turned.
        let black = parse_position(
            Variant::Bashni,
            "White: c3 0/0, e3 00; Black: f6 1/0, h6 0; Black to move",
        )
        .expect("position");
        let seen = pieces(&black);
        assert_eq!(seen[Kind::EnemyOverOwn as usize], 1 << place("c3", 1));
        assert_eq!(seen[Kind::EnemyOverEnemy as usize], 1 << place("e3", 1));
        assert_eq!(seen[Kind::OwnOverEnemy as usize], 1 << place("f6", 1));
        assert_eq!(seen[Kind::OwnKing as usize], 1 << place("f6", 1));
        // A weight on the prisoner-holding kind counts in the score, fully on a full board
        // only: here 4 towers of 24.
        let mut values = vec![0i16; PATTERN_WEIGHTS];
        values[REGION_WEIGHTS + Kind::OwnOverEnemy as usize * SQUARES + place("c3", 0) as usize] =
            48;
        let weights = PatternWeights::from_values(&values).expect("size");
        assert!(weights.towers);
        assert_eq!(weights.score(&white), 48 * 4 / FULL_BOARD);
        // For Black, its king on f6 holding a white man stands where c3 stands for White.
        assert_eq!(place("f6", 1), place("c3", 0));
        assert_eq!(weights.score(&black), weights.score(&white));
        let moved = parse_position(
            Variant::Bashni,
            "White: c3 0/0, e3 00; Black: f6 0, h6 0; Black to move",
        )
        .expect("position");
        assert_eq!(weights.score(&moved), 0, "Black holds no prisoner there");
    }

    #[test]
    fn kings_are_weighed_by_their_square_seen_from_the_side_to_move() {
        let white = parse_position(
            Variant::Russian,
            "White: c3 0, a1 1; Black: f6 0, h8 1; White to move",
        )
        .expect("position");
        // The same turned half round with the colours swapped.
        let black = parse_position(
            Variant::Russian,
            "White: c3 0, a1 1; Black: f6 0, h8 1; Black to move",
        )
        .expect("position");
        let seen = pieces(&white);
        let (own, enemy) = (seen[Kind::OwnKing as usize], seen[Kind::EnemyKing as usize]);
        assert_eq!(
            (own, enemy),
            (1 << 0, 1 << 31),
            "a1 is place 0, h8 place 31"
        );
        assert_eq!(pieces(&black), seen);
        assert!(
            seen[2..].iter().all(|set| *set == 0),
            "no towers in Russian"
        );
        let mut values = vec![0i16; PATTERN_WEIGHTS];
        values[REGION_WEIGHTS] = 30; // opening, own king on place 0
        values[REGION_WEIGHTS + SQUARES + 31] = -10; // opening, the opponent's on 31
        let weights = PatternWeights::from_values(&values).expect("size");
        assert_eq!(weights.square_weight(false, Kind::OwnKing, 0), 30);
        assert_eq!(weights.square_weight(false, Kind::EnemyKing, 31), -10);
        assert_eq!(weights.square_weight(true, Kind::OwnKing, 0), 0);
        let with = weights.score(&white);
        assert_eq!(with, weights.score(&black));
        // Four towers: 4/24 of the opening weights.
        assert_eq!(with, 20 * 4 / FULL_BOARD);
        let without = parse_position(Variant::Russian, "White: c3 0; Black: f6 0; White to move")
            .expect("position");
        assert_eq!(weights.score(&without), 0);
    }

    #[test]
    fn the_score_blends_opening_and_ending() {
        let start = Position::start(Variant::Russian);
        let s = states(&start);
        let mut values = vec![0i16; PATTERN_WEIGHTS];
        values[s[0] as usize] = 40; // opening, region 0
        values[REGIONS * STATES + s[0] as usize] = -40; // ending, region 0
        let weights = PatternWeights::from_values(&values).expect("size");
        assert_eq!(weights.score(&start), 40, "a full board is all opening");
        let few = parse_position(Variant::Russian, "White: a1 0; Black: h8 0; White to move")
            .expect("position");
        let zero = PatternWeights::zero();
        assert_eq!(zero.score(&few), 0);
    }
}
