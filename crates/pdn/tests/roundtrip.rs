//! Random games written as PDN, in full and abbreviated form, read back as the same games.

use bashni_pdn::{MoveForm, Reader, record, replay, write_game};
use bashni_rules::{Game, Variant};
use proptest::prelude::*;

fn random_game(variant: Variant, choices: &[u16]) -> Game {
    let mut game = Game::start(variant);
    for &choice in choices {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[choice as usize % moves.len()];
        game.play(&mv).expect("a generated move is legal");
    }
    game
}

fn round_trip(game: &Game, form: MoveForm) {
    let tags = vec![
        ("Event".to_string(), "Round trip \"test\"".to_string()),
        ("White".to_string(), "Иванов".to_string()),
    ];
    let mut text = String::new();
    write_game(&mut text, &record(game, &tags, form)).expect("writing to a string");
    let raws: Vec<_> = Reader::new(text.as_bytes())
        .collect::<Result<_, _>>()
        .expect("reads back");
    assert_eq!(raws.len(), 1, "{text}");
    let again = replay(&raws[0], None).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(again.moves(), game.moves(), "{text}");
    assert_eq!(again.position(), game.position());
    assert_eq!(again.outcome(), game.outcome());
    assert_eq!(raws[0].tag("White"), Some("Иванов"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn bashni_games_round_trip(choices in prop::collection::vec(any::<u16>(), 0..120), short in any::<bool>()) {
        let game = random_game(Variant::Bashni, &choices);
        round_trip(&game, if short { MoveForm::Short } else { MoveForm::Full });
    }

    #[test]
    fn russian_games_round_trip(choices in prop::collection::vec(any::<u16>(), 0..120), short in any::<bool>()) {
        let game = random_game(Variant::Russian, &choices);
        round_trip(&game, if short { MoveForm::Short } else { MoveForm::Full });
    }
}

#[test]
fn a_game_from_a_set_position_keeps_its_start() {
    let start = bashni_rules::notation::parse_position(
        Variant::Bashni,
        "White: c1 1/0000, d6 000000, f4 0000; Black: a1 110101/1, b2 00; White to move",
    )
    .expect("diagram 4");
    let mut game = Game::new(start);
    for _ in 0..6 {
        let Some(&mv) = game.legal_moves().first() else {
            break;
        };
        game.play(&mv).expect("legal");
    }
    assert!(game.ply() > 0);
    round_trip(&game, MoveForm::Full);
    round_trip(&game, MoveForm::Short);
}
