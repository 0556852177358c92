//! The PDN reader, writer and replay.

use bashni_pdn::{
    MoveForm, RawGame, Reader, ResultToken, clean_annotations, ordered_tags, record, replay,
    replay_record, rewrite, write_game,
};
use bashni_rules::{SquareNames, Variant};

/// At most this many games of one input are checked.
const MAX_GAMES: usize = 32;

/// Reads the bytes as PDN. Every game read must be written and read back the same (tags in
/// the writer's order, moves, annotations as the writer cleans them, result); every game
/// that replays by the rules must be recorded, in full and abbreviated form, as text that
/// replays to the same moves, position and outcome, and rewritten (variations included)
/// with numbers or in short form as text that replays to the same moves.
pub fn pdn(data: &[u8]) {
    for read in Reader::new(data).take(MAX_GAMES) {
        let Ok(raw) = read else { continue };
        let text = written(&raw);
        assert_reads_back(&raw, &text);
        let Ok(game) = replay(&raw, Some(Variant::Bashni)) else {
            continue;
        };
        // Rewritten with numbers, the record (variations too) replays to the same game.
        for (form, names) in [
            (MoveForm::Full, SquareNames::Numbers),
            (MoveForm::Short, SquareNames::Letters),
        ] {
            let text = written(&rewrite(&raw, &game, form, names));
            let again = match replay_record(&read_one(&text), None) {
                Ok(again) => again.game,
                Err(error) => panic!("a rewritten game does not replay: {error}\n{text}"),
            };
            assert_eq!(again.moves(), game.moves(), "{text}");
        }
        for form in [MoveForm::Full, MoveForm::Short] {
            let text = written(&record(&game, &raw.tags, form));
            let back = read_one(&text);
            let again = match replay(&back, None) {
                Ok(again) => again,
                Err(error) => panic!("a recorded game does not replay: {error}\n{text}"),
            };
            assert_eq!(again.moves(), game.moves(), "{text}");
            assert_eq!(again.position(), game.position(), "{text}");
            assert_eq!(again.outcome(), game.outcome(), "{text}");
        }
    }
}

fn written(raw: &RawGame) -> String {
    let mut text = String::new();
    assert!(
        write_game(&mut text, raw).is_ok(),
        "writing to a String fails"
    );
    text
}

fn read_one(text: &str) -> RawGame {
    let mut games: Vec<_> = Reader::new(text.as_bytes()).collect();
    assert_eq!(
        games.len(),
        1,
        "a written game reads as {} games:\n{text}",
        games.len()
    );
    match games.remove(0) {
        Ok(game) => game,
        Err(error) => panic!("a written game does not read: {error}\n{text}"),
    }
}

fn assert_reads_back(raw: &RawGame, text: &str) {
    let back = read_one(text);
    // The writer puts a space for each control character of a value other than tab.
    let tags: Vec<(String, String)> = ordered_tags(&raw.tags)
        .into_iter()
        .map(|(name, value)| {
            let value = value
                .chars()
                .map(|c| if c.is_control() && c != '\t' { ' ' } else { c })
                .collect();
            (name.clone(), value)
        })
        .collect();
    assert_eq!(back.tags, tags, "{text}");
    assert_eq!(
        back.result,
        Some(raw.result.unwrap_or(ResultToken::Unfinished)),
        "{text}"
    );
    assert_eq!(
        clean_annotations(&back.intro),
        clean_annotations(&raw.intro),
        "{text}"
    );
    let texts =
        |game: &RawGame| -> Vec<String> { game.moves.iter().map(|mv| mv.text.clone()).collect() };
    assert_eq!(texts(&back), texts(raw), "{text}");
    for (got, want) in back.moves.iter().zip(&raw.moves) {
        assert_eq!(
            clean_annotations(&got.after),
            clean_annotations(&want.after),
            "{text}"
        );
    }
}
