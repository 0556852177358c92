//! Opening positions for matches: balanced positions a few plies from the start, one per
//! line in the rulebook's one-line notation.
//!
//! The files shipped in `crates/arena/openings/` ([`shipped`]) were made by [`generate`],
//! through the command written in their first lines:
//!
//! ```text
//! bashni openings --variant bashni --count 50 --plies 6 --seed 1 --depth 6 --margin 20
//! bashni openings --variant russian --count 50 --plies 6 --seed 1 --depth 6 --margin 20
//! ```
//!
//! [`generate`] plays `plies` uniformly random legal moves from the start (the random numbers
//! come from `seed`), and keeps the position reached if the game is not over, no capture is
//! pending, the built-in engine's score at `depth` (one thread, a cleared table, tuned
//! weights) is within `margin` hundredths of a man of 0, and no earlier kept position is the
//! same. It stops when it has `count` positions. The same settings, rules and engine give
//! the same file.

use std::fmt::Write as _;

use bashni_engine::Past;
use bashni_engine::{Engine, Limits, Options, Score};
use bashni_rules::notation::{parse_position, write_position};
use bashni_rules::{Game, Position, Variant};

use bashni_engine::rng::Rng;

const BASHNI: &str = include_str!("../openings/bashni.txt");
const RUSSIAN: &str = include_str!("../openings/russian.txt");

/// The text of the openings file shipped for `variant`.
pub fn shipped_text(variant: Variant) -> &'static str {
    match variant {
        Variant::Bashni => BASHNI,
        Variant::Russian => RUSSIAN,
    }
}

/// The openings shipped for `variant`.
pub fn shipped(variant: Variant) -> Result<Vec<Position>, String> {
    parse_openings(variant, shipped_text(variant))
}

/// Reads an openings file: one position per line (the rulebook's one-line notation); blank
/// lines and lines starting with `#` are skipped. An error names the line.
pub fn parse_openings(variant: Variant, text: &str) -> Result<Vec<Position>, String> {
    let mut positions = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let position = parse_position(variant, line)
            .map_err(|error| format!("openings, line {}: {error}", number + 1))?;
        positions.push(position);
    }
    if positions.is_empty() {
        return Err("the openings file holds no position".into());
    }
    Ok(positions)
}

/// How [`generate`] makes openings.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct OpeningSettings {
    /// The game.
    pub variant: Variant,
    /// How many positions to make.
    pub count: usize,
    /// Random plies from the start.
    pub plies: usize,
    /// Seed of the random moves.
    pub seed: u64,
    /// Depth of the engine's search that judges balance.
    pub depth: u32,
    /// Largest score (hundredths of a man, either side) still balanced.
    pub margin: i32,
}

impl OpeningSettings {
    /// The settings of the shipped files: 50 positions, 6 plies, seed 1, depth 6, margin 20.
    pub fn shipped(variant: Variant) -> OpeningSettings {
        OpeningSettings {
            variant,
            count: 50,
            plies: 6,
            seed: 1,
            depth: 6,
            margin: 20,
        }
    }

    /// The command that makes these openings.
    pub fn command(&self) -> String {
        format!(
            "bashni openings --variant {} --count {} --plies {} --seed {} --depth {} --margin {}",
            self.variant, self.count, self.plies, self.seed, self.depth, self.margin
        )
    }
}

/// Random lines tried per position asked for before [`generate`] gives up.
pub const ATTEMPTS_PER_OPENING: usize = 1000;

/// Makes balanced openings (see the module notes). `progress` is called with the number of
/// positions kept so far, after each one. Fails if too few are found within
/// [`ATTEMPTS_PER_OPENING`] lines per position asked for.
pub fn generate(
    settings: &OpeningSettings,
    mut progress: impl FnMut(usize),
) -> Result<Vec<Position>, String> {
    let engine = Engine::new(Options {
        hash_mb: 4,
        threads: 1,
        ..Options::default()
    });
    let mut rng = Rng::new(settings.seed);
    let mut kept: Vec<Position> = Vec::with_capacity(settings.count);
    let attempts = settings.count.saturating_mul(ATTEMPTS_PER_OPENING);
    for _ in 0..attempts {
        if kept.len() >= settings.count {
            break;
        }
        let mut game = Game::start(settings.variant);
        game.set_automatic_draws(true);
        for _ in 0..settings.plies {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves.as_slice()[rng.below(moves.len())];
            if game.play(&mv).is_err() {
                break;
            }
        }
        let position = game.position();
        if game.ply() < settings.plies
            || game.is_over()
            || position.has_capture()
            || kept.iter().any(|p| p == position)
        {
            continue;
        }
        engine.new_game();
        let result = engine.search(
            position,
            &Past::default(),
            &Limits::depth(settings.depth.max(1)),
            |_| {},
        );
        let balanced = matches!(result.score, Score::Value(v) if v.abs() <= settings.margin);
        if balanced {
            kept.push(*position);
            progress(kept.len());
        }
    }
    if kept.len() < settings.count {
        return Err(format!(
            "found only {} balanced positions of {} asked for; try a larger margin or fewer plies",
            kept.len(),
            settings.count
        ));
    }
    Ok(kept)
}

/// The openings file for `positions`: a header naming the command, then one position per
/// line.
pub fn format_openings(settings: &OpeningSettings, positions: &[Position]) -> String {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# Balanced {} openings: {} random plies from the start, no capture pending,",
        settings.variant, settings.plies
    );
    let _ = writeln!(
        text,
        "# scored within {} (hundredths of a man) of 0 by the built-in engine at depth {}.",
        settings.margin, settings.depth
    );
    let _ = writeln!(text, "# Made by: {}", settings.command());
    for position in positions {
        let _ = writeln!(text, "{}", write_position(position));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_generation_is_repeatable_and_reads_back() {
        let settings = OpeningSettings {
            variant: Variant::Russian,
            count: 3,
            plies: 4,
            seed: 9,
            depth: 2,
            margin: 30,
        };
        let mut calls = 0;
        let first = generate(&settings, |_| calls += 1).expect("enough positions");
        assert_eq!(calls, 3);
        let again = generate(&settings, |_| {}).expect("enough positions");
        assert_eq!(first, again);
        let text = format_openings(&settings, &first);
        assert!(text.contains(&settings.command()));
        assert_eq!(parse_openings(Variant::Russian, &text), Ok(first.clone()));
        for position in &first {
            assert!(!position.has_capture());
            assert!(!position.legal_moves().is_empty());
        }
        // Another seed, other positions.
        let other = generate(
            &OpeningSettings {
                seed: 10,
                ..settings
            },
            |_| {},
        )
        .expect("enough");
        assert_ne!(first, other);
    }

    #[test]
    fn bad_files_name_the_line() {
        let error = parse_openings(Variant::Bashni, "# comment\n\nWhite: z9 0; Black: ;")
            .expect_err("bad square");
        assert!(error.contains("line 3"), "{error}");
        assert!(parse_openings(Variant::Bashni, "# nothing\n").is_err());
    }
}
