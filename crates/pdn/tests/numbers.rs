//! Records with squares written as numbers (1 = b8 ... 32 = g1), as Russian-draughts
//! archives keep them: read, replayed, and written by `rewrite` with numbers.

use bashni_pdn::{MoveForm, RawGame, Reader, record, replay, rewrite, write_game};
use bashni_rules::notation::parse_fen;
use bashni_rules::{Game, Position, SquareNames, Variant};

/// A short Russian game with captures, in letters.
const LETTERS: &str = "[Event \"Letters\"]\n[GameType \"25\"]\n\n\
1. c3-d4 f6-e5 2. d4:f6 g7:e5 3. g3-f4 e5:g3 4. h2:f4 *\n";

/// The same game with numbered squares, written by hand.
const NUMBERS: &str = "[Event \"Numbers\"]\n[GameType \"25\"]\n\n\
1. 22-18 11-15 2. 18x11 8x15 3. 24-19 15x24 4. 28x19 *\n";

fn read_one(text: &str) -> RawGame {
    let games: Vec<RawGame> = Reader::new(text.as_bytes())
        .collect::<Result<_, _>>()
        .expect("valid PDN");
    assert_eq!(games.len(), 1, "{text}");
    games.into_iter().next().expect("one game")
}

fn written(raw: &RawGame) -> String {
    let mut text = String::new();
    write_game(&mut text, raw).expect("writing to a string");
    text
}

#[test]
fn a_numbered_game_replays_as_its_letter_form() {
    let letters = read_one(LETTERS);
    let numbers = read_one(NUMBERS);
    let by_letters = replay(&letters, None).expect("the letter game is legal");
    let by_numbers = replay(&numbers, None).expect("the numbered game is legal");
    assert_eq!(by_numbers.moves().len(), 7);
    assert_eq!(by_numbers.moves(), by_letters.moves());
    assert_eq!(by_numbers.position(), by_letters.position());
    // Written with numbers, the letter game is the hand-written text.
    let rewritten = rewrite(&letters, &by_letters, MoveForm::Full, SquareNames::Numbers);
    let tokens: Vec<&str> = rewritten.moves.iter().map(|m| m.text.as_str()).collect();
    let expected: Vec<&str> = numbers.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(tokens, expected);
    // And back to letters.
    let back = rewrite(&numbers, &by_numbers, MoveForm::Full, SquareNames::Letters);
    let tokens: Vec<&str> = back.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(
        tokens,
        [
            "c3-d4", "f6-e5", "d4:f6", "g7:e5", "g3-f4", "e5:g3", "h2:f4"
        ]
    );
}

#[test]
fn a_numbered_fen_tag_sets_the_start() {
    let text = "[GameType \"25\"]\n[FEN \"W:W21-32:B1-12.\"]\n\n1. 22-18 11-15 *\n";
    let game = replay(&read_one(text), None).expect("replays");
    assert_eq!(*game.start_position(), Position::start(Variant::Russian));
    let text = "[GameType \"25\"]\n[FEN \"B:W18,K30:B6,K5.\"]\n\n1... 5x23 30x19x1 *\n";
    let game = replay(&read_one(text), None).expect("replays");
    let letters = parse_fen(Variant::Russian, "B:Wd4,Kc1:Bc7,Ka7").expect("letters");
    assert_eq!(*game.start_position(), letters);
    let moves: Vec<String> = game.moves().iter().map(ToString::to_string).collect();
    assert_eq!(moves, ["a7:e3", "c1:f4:b8"]);
}

#[test]
fn a_bad_number_is_named_at_its_move() {
    let text = "[GameType \"25\"]\n\n1. 22-18 11-33 *\n";
    let error = replay(&read_one(text), None).expect_err("33 is no square");
    let message = error.to_string();
    assert!(
        message.contains("game 1 (Russian draughts), move 1... 11-33 (line 3, column 10)"),
        "{message}"
    );
    assert!(
        message.contains("`33` is not a square number (1-32)"),
        "{message}"
    );
    let text = "[GameType \"25\"]\n[FEN \"W:W21-32:B0-12\"]\n\n1. 22-18 *\n";
    let message = replay(&read_one(text), None)
        .expect_err("0 is no square")
        .to_string();
    assert!(
        message.contains("`0` is not a square number (1-32)"),
        "{message}"
    );
}

/// A game of `plies` moves chosen by a small linear congruential sequence from `seed`.
fn some_game(start: Position, plies: usize, seed: u64) -> Game {
    let mut game = Game::new(start);
    let mut state = seed;
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let mv = moves[(state >> 33) as usize % moves.len()];
        if game.play(&mv).is_err() {
            break;
        }
    }
    game
}

#[test]
fn games_rewritten_with_numbers_read_back_the_same() {
    let towers = parse_fen(
        Variant::Bashni,
        "B:Wc1=1/0000,d6=000000,f4=0000:Ba1=110101/1,b2=00",
    )
    .expect("towers");
    let starts = [
        Position::start(Variant::Russian),
        Position::start(Variant::Bashni),
        towers,
    ];
    for (index, start) in starts.into_iter().enumerate() {
        for seed in 0..8u64 {
            let game = some_game(start, 60, seed * 31 + index as u64);
            for form in [MoveForm::Full, MoveForm::Short] {
                let raw = record(&game, &[], form);
                let numbered = rewrite(&raw, &game, form, SquareNames::Numbers);
                let text = written(&numbered);
                let squares_as_letters = numbered
                    .moves
                    .iter()
                    .map(|m| m.text.as_str())
                    .chain(numbered.tag("FEN"))
                    .any(|t| t.contains(|c: char| ('a'..='h').contains(&c)));
                assert!(!squares_as_letters, "{text}");
                let again =
                    replay(&read_one(&text), None).unwrap_or_else(|e| panic!("{e}\n{text}"));
                assert_eq!(again.moves(), game.moves(), "{text}");
                assert_eq!(again.start_position(), game.start_position(), "{text}");
                assert_eq!(again.position(), game.position(), "{text}");
            }
        }
    }
}
