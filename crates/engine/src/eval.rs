//! Evaluation: what a position is worth to the side to move, when no capture is pending.
//!
//! The evaluation is a weighted sum of [`Feature`]s, each counted for White minus Black. The
//! features are made for towers: a tower is worth what its owner commands in it (its top and
//! the owner's checkers below, the reserve), plus the enemy checkers it holds prisoner, minus
//! what it would give back if its top were taken now (a tower whose top can be captured and
//! has prisoners right under it changes hands). Then come kings, advancement of men, the back
//! rank, the centre, mobility and the long diagonal.
//!
//! The weights differ between the games and are fitted to game results by `bashni tune`
//! (the `bashni-tuning` crate); [`Weights::untuned`] are the hand-set starting values.

use std::fmt;
use std::sync::{Arc, OnceLock};

use bashni_rules::{Bitboard, Color, Direction, Position, Square, Variant};

use crate::patterns::PatternWeights;
use crate::score::Value;

/// What the evaluation counts. Each is counted for White minus Black.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Feature {
    /// Towers commanded by a man.
    Man,
    /// Towers commanded by a king.
    King,
    /// The owner's own checkers under the top of its towers (men).
    Reserve,
    /// The owner's own kings under the top of its towers.
    ReserveKing,
    /// Enemy men held prisoner.
    Prisoner,
    /// Enemy kings held prisoner.
    PrisonerKing,
    /// Towers whose top the opponent could take right now.
    Exposed,
    /// Prisoners that would be freed at once by such a capture (the top is the owner's
    /// only checker above them).
    ExposedPrisoner,
    /// Ranks men have advanced, summed.
    Advance,
    /// Men still on their own back rank.
    BackRank,
    /// Towers on the eight central squares.
    Centre,
    /// Quiet moves available.
    Mobility,
    /// Kings on the long diagonal a1-h8.
    LongDiagonal,
}

impl Feature {
    /// Every feature, in the order of a weight table.
    pub const ALL: [Feature; FEATURES] = [
        Feature::Man,
        Feature::King,
        Feature::Reserve,
        Feature::ReserveKing,
        Feature::Prisoner,
        Feature::PrisonerKing,
        Feature::Exposed,
        Feature::ExposedPrisoner,
        Feature::Advance,
        Feature::BackRank,
        Feature::Centre,
        Feature::Mobility,
        Feature::LongDiagonal,
    ];

    /// The feature's name in weight files.
    pub const fn name(self) -> &'static str {
        match self {
            Feature::Man => "man",
            Feature::King => "king",
            Feature::Reserve => "reserve",
            Feature::ReserveKing => "reserve_king",
            Feature::Prisoner => "prisoner",
            Feature::PrisonerKing => "prisoner_king",
            Feature::Exposed => "exposed",
            Feature::ExposedPrisoner => "exposed_prisoner",
            Feature::Advance => "advance",
            Feature::BackRank => "back_rank",
            Feature::Centre => "centre",
            Feature::Mobility => "mobility",
            Feature::LongDiagonal => "long_diagonal",
        }
    }
}

/// How many features there are.
pub const FEATURES: usize = 13;

/// The feature counts of a position, White minus Black.
pub type FeatureVector = [i32; FEATURES];

/// The weight of each feature, and a bonus for having the move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Weights {
    /// One weight per feature, in the order of [`Feature::ALL`].
    pub features: [Value; FEATURES],
    /// Added for the side to move.
    pub tempo: Value,
    /// Learned weights of the arrangement of men ([`crate::patterns`]), added to the sum;
    /// `None`: the features alone.
    pub patterns: Option<Arc<PatternWeights>>,
}

/// Why a weight file could not be read.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct WeightsError {
    /// Line (1-based).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "weights, line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for WeightsError {}

const TUNED_BASHNI: &str = include_str!("../weights/bashni.txt");
const TUNED_RUSSIAN: &str = include_str!("../weights/russian.txt");
const PATTERNS_BASHNI: &[u8] = include_bytes!("../weights/bashni.patterns");
const PATTERNS_RUSSIAN: &[u8] = include_bytes!("../weights/russian.patterns");

/// The shipped pattern weights of `variant`, read once.
fn shipped_patterns(variant: Variant) -> Option<Arc<PatternWeights>> {
    static READ: [OnceLock<Option<Arc<PatternWeights>>>; 2] = [OnceLock::new(), OnceLock::new()];
    let (slot, bytes) = match variant {
        Variant::Bashni => (0, PATTERNS_BASHNI),
        Variant::Russian => (1, PATTERNS_RUSSIAN),
    };
    READ[slot]
        .get_or_init(|| PatternWeights::from_bytes(bytes).ok().map(Arc::new))
        .clone()
}

impl Weights {
    /// Hand-set weights, the starting point of tuning.
    pub fn untuned(variant: Variant) -> Weights {
        let features = match variant {
            Variant::Bashni => [100, 300, 30, 90, 40, 120, -25, -30, 3, 4, 5, 2, 10],
            Variant::Russian => [100, 300, 0, 0, 0, 0, -15, 0, 3, 5, 5, 2, 15],
        };
        Weights {
            features,
            tempo: 5,
            patterns: None,
        }
    }

    /// The weights fitted by `bashni tune` and `bashni learn`, shipped with the engine:
    /// the features' weights and, where shipped, the pattern weights.
    pub fn tuned(variant: Variant) -> Weights {
        let text = match variant {
            Variant::Bashni => TUNED_BASHNI,
            Variant::Russian => TUNED_RUSSIAN,
        };
        let mut weights = Weights::parse(text).unwrap_or_else(|_| Weights::untuned(variant));
        weights.patterns = shipped_patterns(variant);
        weights
    }

    /// The same weights without the patterns: the features alone.
    pub fn without_patterns(&self) -> Weights {
        Weights {
            patterns: None,
            ..self.clone()
        }
    }

    /// Reads a weight file: one `name value` per line, `#` starts a comment. Features not
    /// named keep the untuned Bashni value.
    pub fn parse(text: &str) -> Result<Weights, WeightsError> {
        let mut weights = Weights::untuned(Variant::Bashni);
        for (number, line) in text.lines().enumerate() {
            let error = |message: String| WeightsError {
                line: number + 1,
                message,
            };
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let mut words = line.split_whitespace();
            let (Some(name), Some(value), None) = (words.next(), words.next(), words.next()) else {
                return Err(error(format!("expected `name value`, found `{line}`")));
            };
            let value: Value = value
                .parse()
                .map_err(|_| error(format!("`{value}` is not a whole number")))?;
            if name == "tempo" {
                weights.tempo = value;
                continue;
            }
            let index = Feature::ALL
                .iter()
                .position(|f| f.name() == name)
                .ok_or_else(|| error(format!("unknown feature `{name}`")))?;
            weights.features[index] = value;
        }
        Ok(weights)
    }

    /// Writes the weights in the form [`Weights::parse`] reads.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for (feature, value) in Feature::ALL.iter().zip(self.features) {
            out.push_str(&format!("{} {value}\n", feature.name()));
        }
        out.push_str(&format!("tempo {}\n", self.tempo));
        out
    }
}

const CENTRE: Bitboard = {
    let mut bits = 0u64;
    let names: [(u8, u8); 8] = [
        (2, 2),
        (4, 2),
        (3, 3),
        (5, 3),
        (2, 4),
        (4, 4),
        (3, 5),
        (5, 5),
    ];
    let mut i = 0;
    while i < names.len() {
        if let Some(square) = Square::from_coords(names[i].0, names[i].1) {
            bits |= square.bit().0;
        }
        i += 1;
    }
    Bitboard(bits)
};

const LONG_DIAGONAL: Bitboard = {
    let mut bits = 0u64;
    let mut i = 0;
    while i < 8 {
        if let Some(square) = Square::from_coords(i, i) {
            bits |= square.bit().0;
        }
        i += 1;
    }
    Bitboard(bits)
};

/// Counts every feature of `position`, White minus Black.
pub fn features(position: &Position) -> FeatureVector {
    let mut out = [0; FEATURES];
    for color in [Color::White, Color::Black] {
        let sign = if color == Color::White { 1 } else { -1 };
        let counts = side_features(position, color);
        for (total, count) in out.iter_mut().zip(counts) {
            *total += sign * count;
        }
    }
    out
}

/// The dark squares of each rank, rank 1 first.
const RANKS: [Bitboard; 8] = {
    let mut ranks = [0u64; 8];
    let mut rank = 0;
    while rank < 8 {
        let mut file = 0;
        while file < 8 {
            if let Some(square) = Square::from_coords(file, rank) {
                ranks[rank as usize] |= square.bit().0;
            }
            file += 1;
        }
        rank += 1;
    }
    let mut out = [Bitboard::EMPTY; 8];
    let mut i = 0;
    while i < 8 {
        out[i] = Bitboard(ranks[i]);
        i += 1;
    }
    out
};

fn side_features(position: &Position, color: Color) -> FeatureVector {
    let mut f = [0; FEATURES];
    let own = position.owned_by(color);
    let kings = Bitboard(own.0 & position.kings().0);
    let men = Bitboard(own.0 & !position.kings().0);
    let exposed = Bitboard(exposed_towers(position, color).0 & own.0);
    let back_rank = match color {
        Color::White => Bitboard::RANK_1,
        Color::Black => Bitboard::RANK_8,
    };
    f[0] = men.count() as i32;
    f[1] = kings.count() as i32;
    f[6] = exposed.count() as i32;
    for (rank, squares) in RANKS.iter().enumerate() {
        let advanced = match color {
            Color::White => rank as i32,
            Color::Black => 7 - rank as i32,
        };
        f[8] += advanced * Bitboard(men.0 & squares.0).count() as i32;
    }
    f[9] = Bitboard(men.0 & back_rank.0).count() as i32;
    f[10] = Bitboard(own.0 & CENTRE.0).count() as i32;
    f[12] = Bitboard(kings.0 & LONG_DIAGONAL.0).count() as i32;
    // What lies under the tops: only Bashni has towers.
    if position.variant() == Variant::Bashni {
        for square in own.squares() {
            let tower = position.tower(square);
            let run = tower.owner_run() as usize;
            for (depth, checker) in tower.checkers().enumerate().skip(1) {
                let index = match (depth < run, checker.king) {
                    (true, false) => 2,
                    (true, true) => 3,
                    (false, false) => 4,
                    (false, true) => 5,
                };
                f[index] += 1;
            }
            if run == 1 && exposed.has(square) {
                f[7] += tower.height() as i32 - 1;
            }
        }
    }
    f[11] = mobility(position, color);
    f
}

/// Towers of `color` whose top the opponent could capture if it were to move.
fn exposed_towers(position: &Position, color: Color) -> Bitboard {
    let own = position.owned_by(color);
    let enemy = position.owned_by(color.opponent());
    let empty = !position.occupied();
    let enemy_men = Bitboard(enemy.0 & !position.kings().0);
    let mut out = Bitboard::EMPTY;
    for direction in Direction::ALL {
        // An enemy man one step before, an empty square one step after.
        let jumped = enemy_men.shift(direction) & own;
        out = out | (jumped & empty.shift(direction.reverse()));
    }
    for king in (enemy & position.kings()).squares() {
        for direction in Direction::ALL {
            let mut next = king.step(direction);
            while let Some(square) = next {
                if empty.has(square) {
                    next = square.step(direction);
                    continue;
                }
                if own.has(square) && square.step(direction).is_some_and(|s| empty.has(s)) {
                    out.insert(square);
                }
                break;
            }
        }
    }
    out
}

/// Quiet moves of `color`, counted without generating them.
fn mobility(position: &Position, color: Color) -> i32 {
    let own = position.owned_by(color);
    let empty = !position.occupied();
    let men = Bitboard(own.0 & !position.kings().0);
    let forward = match color {
        Color::White => [Direction::UpRight, Direction::UpLeft],
        Color::Black => [Direction::DownRight, Direction::DownLeft],
    };
    let mut count = 0;
    for direction in forward {
        count += (men.shift(direction) & empty).count() as i32;
    }
    for king in (own & position.kings()).squares() {
        for direction in Direction::ALL {
            let mut next = king.step(direction);
            while let Some(square) = next {
                if !empty.has(square) {
                    break;
                }
                count += 1;
                next = square.step(direction);
            }
        }
    }
    count
}

/// The value of `position` for the side to move.
pub fn evaluate(position: &Position, weights: &Weights) -> Value {
    let f = features(position);
    let white: Value = f.iter().zip(weights.features).map(|(c, w)| c * w).sum();
    let linear = match position.side_to_move() {
        Color::White => white + weights.tempo,
        Color::Black => -white + weights.tempo,
    };
    linear + weights.patterns.as_ref().map_or(0, |p| p.score(position))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bashni_rules::notation::parse_position;

    #[test]
    fn the_shipped_weights_parse_and_are_sane() {
        for (variant, text) in [
            (Variant::Bashni, include_str!("../weights/bashni.txt")),
            (Variant::Russian, include_str!("../weights/russian.txt")),
        ] {
            assert!(text.contains("# Fitted by `bashni "), "{variant}");
            let weights = Weights::parse(text).expect("shipped weights");
            assert_eq!(weights, Weights::tuned(variant).without_patterns());
            let w = |f: Feature| weights.features[f as usize];
            assert_eq!(w(Feature::Man), 100, "{variant}");
            assert!(w(Feature::King) > w(Feature::Man), "{variant}");
            // Taking a lone man or a lone king gains: its tower goes, a prisoner comes.
            assert!(w(Feature::Man) + w(Feature::Prisoner) > 0, "{variant}");
            assert!(w(Feature::King) + w(Feature::PrisonerKing) > 0, "{variant}");
            assert!(
                w(Feature::Reserve) >= 0 && w(Feature::ReserveKing) >= 0,
                "{variant}"
            );
            // Next to the patterns, mobility adds little either way.
            assert!(w(Feature::Mobility) > -10, "{variant}");
            // The patterns are seen from the side to move and share the tempo's part.
            assert!(weights.tempo.abs() < 200, "{variant}");
            let patterns = Weights::tuned(variant).patterns.expect("shipped patterns");
            let start = Position::start(variant);
            assert!(patterns.score(&start).abs() < 200, "{variant}");
        }
    }

    #[test]
    fn the_start_is_balanced_and_material_counts() {
        for variant in [Variant::Bashni, Variant::Russian] {
            let start = Position::start(variant);
            assert_eq!(features(&start), [0; FEATURES], "{variant}");
            let weights = Weights::untuned(variant);
            assert_eq!(evaluate(&start, &weights), weights.tempo);
        }
        let p = parse_position(
            Variant::Bashni,
            "White: c3 0/00, e3 0; Black: f6 0; White to move",
        )
        .expect("position");
        let f = features(&p);
        assert_eq!(f[Feature::Man as usize], 1);
        assert_eq!(f[Feature::Prisoner as usize], 2);
        assert!(evaluate(&p, &Weights::untuned(Variant::Bashni)) > 100);
    }

    #[test]
    fn an_exposed_tower_with_prisoners_is_counted() {
        // The black man on d4 can take c3's top and free its two white... black prisoners.
        let p = parse_position(
            Variant::Bashni,
            "White: c3 0/00; Black: d4 0; Black to move",
        )
        .expect("position");
        let f = features(&p);
        assert_eq!(f[Feature::Exposed as usize], 1 - 1, "{f:?}");
        let p = parse_position(
            Variant::Bashni,
            "White: c3 0/00; Black: d4 0, h8 0; White to move",
        )
        .expect("position");
        let exposed = exposed_towers(&p, Color::White);
        assert!(exposed.has(Square::parse("c3").expect("square")));
        let f = features(&p);
        assert_eq!(f[Feature::ExposedPrisoner as usize], 2);
    }

    #[test]
    fn weight_files_read_back_and_errors_name_the_line() {
        let weights = Weights::untuned(Variant::Russian);
        assert_eq!(Weights::parse(&weights.to_text()), Ok(weights));
        let error = Weights::parse("man 100\nqueen 900\n").expect_err("unknown");
        assert_eq!(error.line, 2);
        assert!(Weights::parse("man ten").is_err());
        let tuned = Weights::tuned(Variant::Bashni);
        assert!(tuned.features[Feature::King as usize] > tuned.features[Feature::Man as usize]);
    }
}
