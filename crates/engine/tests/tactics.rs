//! Tactical positions: a quiet move wins material that only a search sees. Each was found
//! in random games by a depth-9 search (`examples/find_tactics.rs`) and kept by
//! `examples/check_tactics.rs`, which applies this test's criteria; the test asks the
//! engine at a lower depth for the move, and checks with a deeper search that the move is
//! still clearly the best.

use bashni_engine::Past;
use bashni_engine::{Engine, Limits, Options};
use bashni_rules::notation::{parse_move, parse_position};
use bashni_rules::{Position, Variant};

/// (variant, position, winning move, theme)
const TACTICS: &[(Variant, &str, &str, &str)] = &[
    (
        Variant::Bashni,
        "White: a1 0, a3 0, b2 0, c1 0, d2 0, e1 0, g1 0, h2 0; Black: a5 0, b6 0, b8 0, c7 0, d8 0, e7 0, f4 0/0, f8 0, g7 0, h4 0/000, h6 0, h8 0; White to move",
        "d2-e3",
        "tower shot that frees prisoners",
    ),
    (
        Variant::Bashni,
        "White: a1 0, a3 0, b2 0, c3 0, h2 0, h4 0/0; Black: a7 0, b6 0, c5 0, c7 0, d6 0/0, d8 0, e5 0/0, e7 0, f6 0, h6 0/0000, h8 0; Black to move",
        "e5-f4",
        "tower shot that frees prisoners",
    ),
    (
        Variant::Bashni,
        "White: a1 0, a3 0, a5 0/0, b2 0, c1 0, d2 0, e1 0, g1 0, g3 0, h2 0; Black: a7 0, d4 0/0, e7 0, f4 0/1, f8 0, g5 0000, g7 0, h8 0; Black to move",
        "f4-e3",
        "tower shot that takes a king",
    ),
    (
        Variant::Bashni,
        "White: c1 1/000, c7 1, g1 0; Black: a1 1/00010000, c3 0100, d2 00/0, h2 0, h6 0; Black to move",
        "d2-e1",
        "king capture",
    ),
    (
        Variant::Bashni,
        "White: c1 0/0, d4 00, e3 0000/0; Black: a3 0/0, a7 0, b4 0/00, b6 0, d6 00, e7 0, f8 0, g5 0, h2 0/00; White to move",
        "d4-e5",
        "promotion during capture",
    ),
    (
        Variant::Russian,
        "White: a1 0, b2 0, b4 0, c3 0, d2 0, d4 0, e1 0, e3 0, f2 0, f4 0, g1 0, h4 0; Black: a5 0, a7 0, b6 0, c7 0, d6 0, e7 0, f6 0, f8 0, g5 0, g7 0, h6 0, h8 0; Black to move",
        "b6-c5",
        "promotion during capture",
    ),
    (
        Variant::Russian,
        "White: a1 0, a7 0, c1 0, d2 0, d4 0, e1 0, e3 0, f2 0, f4 0, h2 0, h4 0; Black: b8 0, c7 0, e7 0, f6 0, f8 0, g5 0, g7 0, h6 0, h8 0; White to move",
        "d4-e5",
        "promotion during capture",
    ),
    (
        Variant::Russian,
        "White: a1 0, b2 0, c1 0, c5 0, d2 0, e1 0, h2 0; Black: a3 0, b6 0, b8 0, c7 0, d4 0, d8 0, f4 0, f8 0, h8 0; Black to move",
        "d4-e3",
        "promotion during capture",
    ),
];

fn engine() -> Engine {
    Engine::new(Options {
        hash_mb: 16,
        threads: 1,
        multipv: 1,
    })
}

fn solve(position: &Position, depth: u32) -> bashni_rules::Move {
    let engine = engine();
    let result = engine.search(position, &Past::default(), &Limits::depth(depth), |_| {});
    result.best.expect("a move")
}

#[test]
fn the_engine_finds_the_winning_moves() {
    let mut failures = Vec::new();
    for &(variant, text, answer, theme) in TACTICS {
        let position = parse_position(variant, text).expect("test position");
        let expected = parse_move(&position, answer).expect("the answer is legal");
        let found = solve(&position, 8);
        if !found.same_result(&expected, variant) {
            failures.push(format!("{theme}: {text}: found {found}, expected {answer}"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn a_deeper_search_confirms_each_answer() {
    for &(variant, text, answer, theme) in TACTICS {
        let position = parse_position(variant, text).expect("test position");
        let expected = parse_move(&position, answer).expect("the answer is legal");
        // The check searches every move in full (no reductions or pruning), so that the
        // second line's value is as exact as the first's.
        let mut checker = engine();
        checker.set_reductions(false);
        let result =
            checker.search_lines(&position, &Past::default(), &Limits::depth(10), 2, |_| {});
        let best = &result.lines[0];
        assert!(
            best.pv[0].same_result(&expected, variant),
            "{theme}: {text}: {}",
            best.pv[0]
        );
        let margin = best.score.value() - result.lines[1].score.value();
        assert!(margin >= 100, "{theme}: {text}: margin {margin}");
    }
}
