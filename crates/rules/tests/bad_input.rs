//! Malformed input gives an error, never a panic.

use bashni_rules::notation::{parse_fen, parse_move, parse_position};
use bashni_rules::{Position, Variant};
use proptest::prelude::*;

/// Text made of the characters the notations use, so that the readers get deep inside.
fn notation_text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec![
            'a', 'b', 'c', 'd', 'h', 'i', '0', '1', '2', '3', '8', '9', ':', '-', '–', 'x', 'D',
            'K', '/', ',', ';', ' ', '(', ')', '=', 'W', 'B', '.', 'О', '\n',
        ]),
        0..60,
    )
    .prop_map(|chars| chars.into_iter().collect())
}

fn positions() -> Vec<Position> {
    let mut out = vec![
        Position::start(Variant::Bashni),
        Position::start(Variant::Russian),
    ];
    let towers = "White: b4 0/10, d4 0; Black: b6 0, b8 1, c7 0/0101, d2 0, d6 0/0, e1 1, e7 1, h2 00/1100, h6 0/0; White to move";
    out.push(parse_position(Variant::Bashni, towers).expect("tower position"));
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn position_readers_never_panic(text in notation_text(), prefix in 0usize..3) {
        let text = ["", "White: ", "W:W"][prefix].to_string() + &text;
        for variant in [Variant::Bashni, Variant::Russian] {
            let _ = parse_position(variant, &text);
            let _ = parse_fen(variant, &text);
        }
    }

    #[test]
    fn move_reader_never_panics(text in notation_text()) {
        for position in positions() {
            if let Ok(mv) = parse_move(&position, &text) {
                prop_assert!(position.legal_moves().contains(&mv));
            }
        }
    }

    #[test]
    fn any_unicode_is_refused_cleanly(text in ".{0,40}") {
        let start = Position::start(Variant::Bashni);
        let _ = parse_move(&start, &text);
        let _ = parse_position(Variant::Bashni, &text);
        let _ = parse_fen(Variant::Russian, &text);
    }
}

#[test]
fn errors_say_what_is_wrong() {
    let start = Position::start(Variant::Bashni);
    let error = parse_move(&start, "c3-c4")
        .expect_err("light square")
        .to_string();
    assert!(error.contains("dark square"), "{error}");
    let error =
        parse_position(Variant::Russian, "White: a1 0, b8 0; Black: h8 0").expect_err("man on b8");
    assert!(error.to_string().contains("b8"), "{error}");
}
