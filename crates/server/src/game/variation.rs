//! Variations: moves played one after another from a position, as the analysis board plays
//! them (`POST /api/position` with `moves`, and the analysis socket). The rules read and
//! play every move; this module only walks the list and says which move is wrong, and where.

use bashni_rules::notation::parse_move;
use bashni_rules::{Game, Move, Outcome, Position};
use serde_json::{Value, json};

use crate::game::round::{EndReason, Ending, MAX_MOVE_TEXT, RoundError};
use crate::game::view::{MoveView, PositionView, move_record};

/// The most moves one variation may have.
pub const MAX_VARIATION_MOVES: usize = 200;

/// Plays `moves` (each in any accepted notation) in order from `position`, as a game from
/// it; returns that game. A move that cannot be read or is not legal is refused with its
/// index (`moves[3]`), its text, the reason, and the legal moves at that point.
pub fn play_variation(position: Position, moves: &[String]) -> Result<Game, RoundError> {
    if moves.len() > MAX_VARIATION_MOVES {
        return Err(RoundError::Invalid(format!(
            "moves: at most {MAX_VARIATION_MOVES} moves, not {}",
            moves.len()
        )));
    }
    let mut game = Game::new(position);
    for (index, text) in moves.iter().enumerate() {
        let text = text.trim();
        if text.is_empty() {
            return Err(RoundError::Invalid(format!("moves[{index}]: empty")));
        }
        if text.len() > MAX_MOVE_TEXT {
            return Err(RoundError::Invalid(format!(
                "moves[{index}]: longer than {MAX_MOVE_TEXT} bytes"
            )));
        }
        let illegal = |game: &Game, reason: String| RoundError::Illegal {
            // A request the page does not make: told in the API's words.
            message: crate::texts::Text::api_words(format!("moves[{index}]: {reason}")),
            legal: game.legal_moves().iter().map(Move::to_string).collect(),
        };
        if let Some(outcome) = game.outcome() {
            let reason = format!("{text}: the game is over ({})", outcome.reason);
            return Err(illegal(&game, reason));
        }
        // The notation's message already quotes the move.
        let mv = parse_move(game.position(), text).map_err(|e| illegal(&game, e.to_string()))?;
        game.play(&mv)
            .map_err(|e| illegal(&game, format!("{text}: {e}")))?;
    }
    Ok(game)
}

/// How a game ended by the rules, as the API shows a result (see [`crate::game::view::ending_view`]).
pub fn result_view(outcome: Outcome) -> Value {
    crate::game::view::ending_view(&Ending {
        result: Some(outcome.result),
        reason: EndReason::Rules(outcome.reason),
    })
}

/// The answer of `POST /api/position` for `game`, a position and the moves played from it:
/// the position now, its legal moves, every move played (a game's move records, each with
/// the position after it) and the result if the moves ended the game.
pub fn position_answer(game: &Game) -> Value {
    let position = game.position();
    let legal: Vec<MoveView> = game
        .legal_moves()
        .iter()
        .map(|mv| MoveView {
            claims_draw: game.move_allows_claim(mv),
            ..MoveView::of(position, mv)
        })
        .collect();
    let played: Vec<_> = (0..game.ply())
        .filter_map(|ply| move_record(game, ply))
        .collect();
    json!({
        "position": PositionView::of(position),
        "legal_moves": legal,
        "played": played,
        "result": game.outcome().map(result_view),
    })
}

#[cfg(test)]
mod tests {
    use bashni_rules::Variant;

    use super::*;
    use bashni_rules::Color;

    fn texts(moves: &[&str]) -> Vec<String> {
        moves.iter().map(|m| m.to_string()).collect()
    }

    #[test]
    fn moves_are_played_in_order_and_a_wrong_one_is_named_by_its_index() {
        let start = Position::start(Variant::Russian);
        let game = play_variation(start, &texts(&["c3-d4", "f6-g5", "d4-e5"])).expect("legal");
        assert_eq!(game.ply(), 3);
        assert_eq!(game.side_to_move(), Color::Black);
        let Err(RoundError::Illegal { message, legal }) =
            play_variation(start, &texts(&["c3-d4", "f6-g5", "a1-h8"]))
        else {
            panic!("a1-h8 is illegal there");
        };
        assert!(
            message
                .to_string()
                .starts_with("moves[2]: `a1-h8` is illegal"),
            "{message}"
        );
        // The legal moves are those where the wrong move was tried: White's after f6-g5.
        assert!(legal.contains(&"d4-c5".to_string()), "{legal:?}");
        assert!(!legal.contains(&"c3-d4".to_string()), "{legal:?}");
        let error = play_variation(start, &texts(&["c3-d4", " "])).expect_err("empty");
        assert_eq!(error, RoundError::Invalid("moves[1]: empty".into()));
        let many = vec!["c3-d4".to_string(); MAX_VARIATION_MOVES + 1];
        let error = play_variation(start, &many).expect_err("too many");
        assert!(error.to_string().contains("at most 200"), "{error}");
    }

    #[test]
    fn no_move_is_played_after_the_end() {
        let position = bashni_rules::notation::read_position(Variant::Russian, "W:Wc3:Bd4")
            .expect("a position");
        let game = play_variation(position, &texts(&["c3:e5"])).expect("legal");
        let answer = position_answer(&game);
        assert_eq!(answer["result"]["score"], "1-0");
        assert_eq!(answer["result"]["code"], "no_move");
        assert_eq!(answer["legal_moves"], json!([]));
        assert_eq!(answer["played"][0]["text"], "c3:e5");
        assert_eq!(answer["played"][0]["after"]["turn"], "black");
        let error = play_variation(position, &texts(&["c3:e5", "d4-c3"])).expect_err("over");
        assert!(error.to_string().contains("the game is over"), "{error}");
    }
}
