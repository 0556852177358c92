//! The benchmark: fixed positions searched to a fixed depth, one thread, a fresh table each.
//! The total node count is a signature of the search: any change in its behaviour changes
//! it, while speed changes only the time.

use std::time::{Duration, Instant};

use bashni_rules::notation::parse_position;
use bashni_rules::{Position, Variant};

use crate::engine::{Engine, Options};
use crate::limits::Limits;
use crate::past::Past;

/// The bench positions: both starts and positions with towers and kings.
pub const POSITIONS: &[(Variant, &str)] = &[
    (Variant::Bashni, "start"),
    (Variant::Russian, "start"),
    (
        Variant::Bashni,
        "White: b4 0/10, d4 0; Black: b6 0, b8 1, c7 0/0101, d2 0, d6 0/0, e1 1, e7 1, h2 00/1100, h6 0/0; White to move",
    ),
    (
        Variant::Bashni,
        "White: a1 0, d6 0, e5 0/0, f2 000, f6 00, h6 1; Black: b4 0, c1 1, f8 01/0, h4 0011/01, h8 011; Black to move",
    ),
    (
        Variant::Bashni,
        "White: a3 0, b2 00, c1 0, e3 0/0, f2 0, g1 0, h2 0; Black: a7 0, b8 0, c7 0, d6 00/0, e7 0, f8 0, g7 0, h8 0; White to move",
    ),
    (
        Variant::Russian,
        "White: a1 0, c3 0, e3 0, f2 0, g1 0, h2 1; Black: b6 0, c7 0, e7 0, f8 0, h6 1; White to move",
    ),
    (
        Variant::Russian,
        "White: a3 0, b2 0, c1 0, d2 0, e3 0, f4 0, g3 0, h2 0; Black: a7 0, b6 0, c5 0, d6 0, e7 0, f6 0, g7 0, h6 0; Black to move",
    ),
];

/// Middlegame positions for the timed benchmark: ten of each game, from self-play games
/// (15-19 pieces in Russian, 13-18 towers in Bashni).
pub const MIDDLEGAMES: &[(Variant, &str)] = &[
    (
        Variant::Russian,
        "White: a1 0, a5 0, d2 0, d4 0, e1 0, e3 0, g1 0, h2 0, h4 0; Black: a7 0, b6 0, b8 0, c5 0, c7 0, d8 0, f6 0, f8 0, h6 0; Black to move",
    ),
    (
        Variant::Russian,
        "White: a1 0, a5 0, b2 0, c1 0, c3 0, e1 0, f2 0, g1 0; Black: a7 0, b8 0, d6 0, d8 0, e5 0, e7 0, f4 0, f8 0, h6 0, h8 0; White to move",
    ),
    (
        Variant::Russian,
        "White: a1 0, b2 0, c1 0, e1 0, f2 0, f4 0, g1 0, h2 0; Black: a7 0, b8 0, c7 0, d4 0, d8 0, e7 0, f8 0, g7 0, h8 0; Black to move",
    ),
    (
        Variant::Russian,
        "White: a1 0, a3 0, c1 0, c3 0, d2 0, e1 0, g1 0, h2 0, h4 0; Black: b8 0, d8 0, e5 0, e7 0, f6 0, f8 0, g5 0, h6 0, h8 0; White to move",
    ),
    (
        Variant::Russian,
        "White: a1 0, a3 0, b2 0, b4 0, c1 0, e1 0, e3 0, g3 0, h2 0, h4 0; Black: b6 0, d8 0, e7 0, f6 0, g5 0, g7 0, h6 0, h8 0; White to move",
    ),
    (
        Variant::Russian,
        "White: a1 0, a3 0, c1 0, d2 0, e1 0, f2 0, f4 0, g1 0, g3 0, h2 0; Black: a7 0, b6 0, b8 0, c7 0, d6 0, d8 0, f6 0, f8 0, h6 0; White to move",
    ),
    (
        Variant::Russian,
        "White: a1 0, a3 0, d2 0, e1 0, e3 0, f2 0, g1 0, h6 0; Black: a7 0, b8 0, c7 0, d8 0, e7 0, f6 0, f8 0, g7 0, h8 0; Black to move",
    ),
    (
        Variant::Russian,
        "White: a1 0, a3 0, c3 0, e3 0, f2 0, f4 0, g1 0, h2 0; Black: a5 0, b8 0, c5 0, c7 0, d6 0, d8 0, e7 0, f6 0, h6 0, h8 0; White to move",
    ),
    (
        Variant::Russian,
        "White: a1 0, a3 0, b2 0, c1 0, d2 0, e1 0, g1 0, g3 0, h2 0; Black: a5 0, b8 0, d8 0, e7 0, f6 0, f8 0, g7 0, h6 0, h8 0; White to move",
    ),
    (
        Variant::Russian,
        "White: a1 0, a3 0, c1 0, c3 0, d2 0, e1 0, f2 0, f4 0, g1 0; Black: a5 0, a7 0, b8 0, c7 0, d6 0, d8 0, e7 0, h6 0, h8 0; Black to move",
    ),
    (
        Variant::Bashni,
        "White: d2 0, e1 0, f4 0/0, g1 0, h2 0; Black: a7 0, b8 0, c7 0, d6 0, d8 0, e5 0/0, e7 0, f6 0, f8 0, g7 0, h4 1/000000; White to move",
    ),
    (
        Variant::Bashni,
        "White: a1 0, a3 0, b2 0, c1 0, e1 0, e3 0, f2 0, f4 0/000, g1 0; Black: a7 0, b8 0, c7 0, d8 0, f8 0, g7 0, h2 0/00, h4 0/0, h8 0; White to move",
    ),
    (
        Variant::Bashni,
        "White: a1 0, a3 0/0, b2 0000, b4 0, d2 0/00, f2 0, g1 0, g3 0, h2 0; Black: a7 0, b8 0, d8 0, e5 0, f6 0, f8 0, g5 0, g7 0, h8 0; Black to move",
    ),
    (
        Variant::Bashni,
        "White: a1 0, a3 0, a5 0/0, b4 0, c1 0, e1 0, e3 00, f4 0/000, g1 0, h2 0; Black: b6 0, b8 0, c7 0, d8 0, f8 0, g7 0/0, h6 0, h8 0; Black to move",
    ),
    (
        Variant::Bashni,
        "White: a1 0, a3 0, b2 0, e1 0, f2 000/0, f4 00/0, h2 0; Black: b6 0/0, b8 0, c5 0/0, c7 00, d6 00, f6 0, f8 0, h8 0; Black to move",
    ),
    (
        Variant::Bashni,
        "White: a1 0, a3 0, c1 0, c3 0, d2 0, f2 0, f6 0/0, g1 0, h2 0; Black: a7 0, b4 0/000, b6 0, b8 0, c5 000, d8 0, f8 0, h6 0, h8 0; Black to move",
    ),
    (
        Variant::Bashni,
        "White: a1 0, a3 0, b4 0, c3 0, e1 0, h2 0, h4 0/000; Black: a5 0, a7 0, b8 0, c7 0, d6 1/0000, d8 0, f4 0/0, f8 0, h8 0; White to move",
    ),
    (
        Variant::Bashni,
        "White: a1 0, a3 0, c1 0, e1 0, f2 0, g1 0, h2 0; Black: a7 0, b6 0, b8 0, c3 0/000, c7 0, d4 0/00, e7 00, f8 0, g7 0, h6 0, h8 0; White to move",
    ),
    (
        Variant::Bashni,
        "White: a1 0, a3 0, b2 0, c1 0, c3 0, d2 00/000, e1 0, g1 0, h2 0; Black: b8 0, c7 0, d8 0, e7 0, f2 0/00, f8 0, g7 0, h6 0, h8 0; Black to move",
    ),
    (
        Variant::Bashni,
        "White: a1 0, b2 0, c1 0, d2 0/0, e1 0, e3 0, f2 00/0, g1 0, h2 0; Black: a7 0, b8 0, c5 0, c7 0, d4 0/0, d8 0, f8 0/0, g7 00, h8 0; White to move",
    ),
];

/// What one bench position gave.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchLine {
    /// The game.
    pub variant: Variant,
    /// The position searched.
    pub position: String,
    /// Nodes searched.
    pub nodes: u64,
    /// The deepest iteration completed.
    pub depth: u32,
    /// Time taken.
    pub time: Duration,
}

/// The position of a bench line.
pub fn position(variant: Variant, text: &str) -> Position {
    if text == "start" {
        Position::start(variant)
    } else {
        parse_position(variant, text).unwrap_or_else(|_| Position::start(variant))
    }
}

/// Searches every bench position to `depth`, reporting each as it finishes.
pub fn run(depth: u32, on_line: impl FnMut(&BenchLine)) -> Vec<BenchLine> {
    search_each(POSITIONS, &Limits::depth(depth), on_line)
}

/// Searches each of `positions` (the starts and [`MIDDLEGAMES`] by default) for `time`, one
/// thread and a fresh table each: how deep the search gets and how fast it goes.
pub fn run_timed(
    time: Duration,
    positions: &[(Variant, &str)],
    on_line: impl FnMut(&BenchLine),
) -> Vec<BenchLine> {
    search_each(positions, &Limits::movetime(time), on_line)
}

/// Searches each position within `limits`, one thread and a fresh table each.
fn search_each(
    positions: &[(Variant, &str)],
    limits: &Limits,
    mut on_line: impl FnMut(&BenchLine),
) -> Vec<BenchLine> {
    let engine = Engine::new(Options {
        hash_mb: 16,
        threads: 1,
        multipv: 1,
    });
    let mut lines = Vec::new();
    for &(variant, text) in positions {
        engine.new_game();
        let started = Instant::now();
        let result = engine.search(&position(variant, text), &Past::default(), limits, |_| {});
        let line = BenchLine {
            variant,
            position: text.to_string(),
            nodes: result.nodes,
            depth: result.depth,
            time: started.elapsed(),
        };
        on_line(&line);
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_signature_is_repeatable_and_positions_are_legal() {
        for &(variant, text) in POSITIONS {
            if text != "start" {
                assert!(parse_position(variant, text).is_ok(), "{text}");
            }
        }
        let first: u64 = run(4, |_| {}).iter().map(|l| l.nodes).sum();
        let second: u64 = run(4, |_| {}).iter().map(|l| l.nodes).sum();
        assert_eq!(first, second);
        assert!(first > 1000);
    }

    #[test]
    fn the_middlegames_are_legal_and_a_timed_run_reports_depths() {
        for &(variant, text) in MIDDLEGAMES {
            let position = parse_position(variant, text).expect("middlegame");
            assert!(!position.legal_moves().is_empty(), "{text}");
        }
        let lines = run_timed(Duration::from_millis(20), &MIDDLEGAMES[..2], |_| {});
        assert_eq!(lines.len(), 2);
        assert!(
            lines.iter().all(|l| l.depth >= 1 && l.nodes > 0),
            "{lines:?}"
        );
    }
}
