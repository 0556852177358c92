//! Replaying is a separate step: the tokens of the rulebook games, read from PDN, are legal
//! moves for `bashni_rules::notation::parse_move`, and a bad move is reported at its line and
//! column.

use bashni_pdn::{RawGame, Reader};
use bashni_rules::Position;
use bashni_rules::notation::parse_move;

/// Replays a game; on a bad move gives its text, line and column.
fn replay(game: &RawGame) -> Result<Position, (String, usize, usize)> {
    let variant = game
        .variant(None)
        .map_err(|e| (e.to_string(), game.line, 1))?;
    let mut position = Position::start(variant);
    for mv in &game.moves {
        let legal = parse_move(&position, &mv.text)
            .map_err(|e| (format!("{}: {e}", mv.text), mv.line, mv.column))?;
        position.play(&legal);
    }
    Ok(position)
}

const PDN: &str = "[Event \"Rulebook 000, 1.10\"]\n[White \"Ivanov\"]\n[Black \"Petrov\"]\n\
[Result \"1-0\"]\n[GameType \"60\"]\n\n\
1. cb4 bc5 2. ba5 ab6 3. bc3 cb4 4. a:a7 cb6 5. a:e5 f:b2 6. a:c3 dc7 7. gf4 e:g3\n\
8. h:f4 g:e5 9. e:g5 h:f4 10. de3 f:b4 11. b2:d4:f6:d8D:a5:d2:h6 1-0\n\n\
[Event \"Rulebook 001, 6.1.6\"]\n[White \"Ivanov\"]\n[Black \"Petrov\"]\n\
[Result \"0-1\"]\n[GameType \"25\"]\n\n\
1. ed4 dc5 2. fe3 fg5 3. cb4 gh4 4. b:d6 h:f2 5. e:g3 c:h4 0-1\n\n\
[Event \"Illegal\"]\n[GameType \"25\"]\n\n1. ed4 dc5 2. d4:b6 *\n";

#[test]
fn rulebook_games_replay_and_bad_moves_are_located() {
    let games: Vec<RawGame> = Reader::new(PDN.as_bytes())
        .map(|g| g.expect("valid PDN"))
        .collect();
    assert_eq!(games.len(), 3);
    let bashni = replay(&games[0]).expect("the Bashni game replays");
    let russian = replay(&games[1]).expect("the Russian game replays");
    assert_eq!(games[0].moves.len(), 21);
    assert_eq!(games[1].moves.len(), 10);
    assert_ne!(bashni.variant(), russian.variant());
    let (text, line, column) = replay(&games[2]).expect_err("d4:b6 is not a move");
    assert!(text.starts_with("d4:b6"), "{text}");
    assert_eq!((line, column), (21, 15));
}
