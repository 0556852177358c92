//! Properties that hold in every position of every game: checked along random games.

use bashni_rules::notation::{
    parse_fen, parse_move, parse_position, write_fen, write_position, write_short,
};
use bashni_rules::{Color, Position, Variant};
use proptest::prelude::*;

/// Plays a random game chosen by `choices` and checks every property at every ply.
fn walk(variant: Variant, choices: &[u16]) {
    let mut position = Position::start(variant);
    for &choice in choices {
        check_position(&position);
        let moves = position.legal_moves();
        if moves.is_empty() {
            return;
        }
        for mv in moves.iter() {
            // The full text and the short text both read back as this very move.
            let text = mv.to_string();
            assert_eq!(parse_move(&position, &text), Ok(*mv), "{text}");
            let short = write_short(&position, mv);
            assert_eq!(parse_move(&position, &short), Ok(*mv), "{short} for {text}");
            // Undo gives back exactly the position before.
            let mut after = position;
            after.play(mv);
            assert_eq!(after.hash(), after.recompute_hash(), "hash after {text}");
            after.undo(mv);
            assert_eq!(after, position, "undo of {text}");
        }
        let mv = moves[choice as usize % moves.len()];
        position.play(&mv);
    }
    check_position(&position);
}

fn check_position(position: &Position) {
    let variant = position.variant();
    assert_eq!(position.hash(), position.recompute_hash());
    let text = write_position(position);
    assert_eq!(
        parse_position(variant, &text).as_ref(),
        Ok(position),
        "{text}"
    );
    let fen = write_fen(position);
    assert_eq!(parse_fen(variant, &fen).as_ref(), Ok(position), "{fen}");
    match variant {
        Variant::Bashni => {
            assert_eq!(position.checker_count(Color::White), 12, "{text}");
            assert_eq!(position.checker_count(Color::Black), 12, "{text}");
            for square in position.occupied().squares() {
                let tower = position.tower(square);
                assert!(tower.color_runs() <= 2, "{square} in {text}");
                assert!(tower.height() <= 24);
            }
        }
        Variant::Russian => {
            for square in position.occupied().squares() {
                assert_eq!(position.tower(square).height(), 1);
            }
            assert!(position.checker_count(Color::White) <= 12);
            assert!(position.checker_count(Color::Black) <= 12);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_bashni_games(choices in prop::collection::vec(any::<u16>(), 0..160)) {
        walk(Variant::Bashni, &choices);
    }

    #[test]
    fn random_russian_games(choices in prop::collection::vec(any::<u16>(), 0..160)) {
        walk(Variant::Russian, &choices);
    }
}
