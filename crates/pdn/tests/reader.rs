//! The reader: tags, movetext, comments, variations, results, errors and recovery.

use bashni_pdn::{Annotation, PdnError, RawGame, RawMove, Reader, ResultToken, TextEncoding};
use bashni_rules::{Color, GameResult};

fn read_all(text: &str) -> Vec<Result<RawGame, PdnError>> {
    Reader::new(text.as_bytes()).collect()
}

fn read_one(text: &str) -> RawGame {
    let mut games = read_all(text);
    assert_eq!(games.len(), 1, "expected exactly one game in {text:?}");
    match games.remove(0) {
        Ok(game) => game,
        Err(e) => panic!("unexpected error: {e}"),
    }
}

fn texts(game: &RawGame) -> Vec<&str> {
    texts_of(&game.moves)
}

fn texts_of(moves: &[RawMove]) -> Vec<&str> {
    moves.iter().map(|m| m.text.as_str()).collect()
}

fn comment(text: &str) -> Annotation {
    Annotation::Comment(text.to_string())
}

const BASHNI_EXAMPLE: &str = "1. cb4 bc5 2. ba5 ab6 3. bc3 cb4 4. a:a7 cb6 5. a:e5 f:b2 6. a:c3 dc7 \
     7. gf4 e:g3 8. h:f4 g:e5 9. e:g5 h:f4 10. de3 f:b4 11. b2:d4:f6:d8D:a5:d2:h6 1-0";
const RUSSIAN_EXAMPLE: &str = "1. ed4 dc5 2. fe3 fg5 3. cb4 gh4 4. b:d6 h:f2 5. e:g3 c:h4 0-1";

#[test]
fn bashni_rulebook_game_tokenizes() {
    let game = read_one(&format!(
        "[Event \"Rulebook 1.10\"]\n[White \"Ivanov\"]\n[Black \"Petrov\"]\n[GameType \"60\"]\n\n{BASHNI_EXAMPLE}\n"
    ));
    assert_eq!(game.number, 1);
    assert_eq!(game.line, 1);
    assert_eq!(game.tag("White"), Some("Ivanov"));
    assert_eq!(game.variant(None), Ok(bashni_rules::Variant::Bashni));
    assert_eq!(game.moves.len(), 21);
    assert_eq!(
        &texts(&game)[..8],
        ["cb4", "bc5", "ba5", "ab6", "bc3", "cb4", "a:a7", "cb6"]
    );
    let last = &game.moves[20];
    assert_eq!(last.text, "b2:d4:f6:d8D:a5:d2:h6");
    assert_eq!((last.number, last.color), (Some(11), Some(Color::White)));
    assert_eq!(last.line, 6);
    // "... 10. de3 f:b4 11. " precedes it on the line.
    let column = BASHNI_EXAMPLE.find("b2:d4").expect("in the example") + 1;
    assert_eq!(last.column, column);
    assert_eq!(
        (game.moves[19].number, game.moves[19].color),
        (Some(10), Some(Color::Black))
    );
    assert_eq!(game.result, Some(ResultToken::Score(GameResult::WhiteWins)));
    assert!(game.intro.is_empty());
    assert!(game.moves.iter().all(|m| m.after.is_empty()));
}

#[test]
fn russian_rulebook_game_tokenizes() {
    let game = read_one(&format!("[GameType \"25\"]\n\n{RUSSIAN_EXAMPLE}\n"));
    assert_eq!(
        texts(&game),
        [
            "ed4", "dc5", "fe3", "fg5", "cb4", "gh4", "b:d6", "h:f2", "e:g3", "c:h4"
        ]
    );
    assert_eq!(game.result, Some(ResultToken::Score(GameResult::BlackWins)));
    assert_eq!(game.variant(None), Ok(bashni_rules::Variant::Russian));
    for (i, mv) in game.moves.iter().enumerate() {
        let number = u32::try_from(i / 2 + 1).expect("small");
        let color = if i % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        assert_eq!((mv.number, mv.color), (Some(number), Some(color)), "{mv:?}");
        assert_eq!(mv.line, 3);
    }
    // Without tags too.
    let bare = read_one(RUSSIAN_EXAMPLE);
    assert!(bare.tags.is_empty());
    assert_eq!(bare.moves.len(), 10);
}

#[test]
fn tags_keep_order_escapes_and_duplicates() {
    let game = read_one(
        "[Event \"Cup \\\"Kazan\\\" \\\\ 2024\"] [Site \"Казань\"]\n\
         [White \"Иванов, И.\"]\n[Black \"a]b[c\"]\n[GameType 25]\n[Odd \"x\\y\"]\n[Event \"again\"]\n\n*\n",
    );
    assert_eq!(
        game.tags,
        vec![
            ("Event".to_string(), "Cup \"Kazan\" \\ 2024".to_string()),
            ("Site".to_string(), "Казань".to_string()),
            ("White".to_string(), "Иванов, И.".to_string()),
            ("Black".to_string(), "a]b[c".to_string()),
            ("GameType".to_string(), "25".to_string()),
            ("Odd".to_string(), "x\\y".to_string()),
            ("Event".to_string(), "again".to_string()),
        ]
    );
    assert_eq!(game.tag("Event"), Some("Cup \"Kazan\" \\ 2024"));
    assert!(game.moves.is_empty());
    assert_eq!(game.result, Some(ResultToken::Unfinished));
}

#[test]
fn comments_nags_and_variations_attach_to_moves() {
    let game = read_one(
        "{Before the game}\n1. c3-b4! {A good\n   start} $14 b6-c5?! (1... f6-g5 {or (this)} \
         2. b4-a5 (2. g3-h4)) ; line comment }\n2. b4:d6 $1 {x} e7:c5 2-0 {not this game's}",
    );
    assert_eq!(game.intro, vec![comment("Before the game")]);
    assert_eq!(texts(&game), ["c3-b4", "b6-c5", "b4:d6", "e7:c5"]);
    assert_eq!(
        game.moves[0].after,
        vec![
            Annotation::Nag(1),
            comment("A good start"),
            Annotation::Nag(14)
        ]
    );
    let after = &game.moves[1].after;
    assert_eq!(after.len(), 3);
    assert_eq!(after[0], Annotation::Nag(6));
    assert_eq!(after[2], comment("line comment }"));
    let Annotation::Variation(variation) = &after[1] else {
        panic!("a variation: {after:?}");
    };
    assert_eq!((variation.line, variation.column), (3, 23));
    let moves: Vec<_> = variation
        .moves
        .iter()
        .map(|m| (m.text.as_str(), m.number, m.color))
        .collect();
    assert_eq!(
        moves,
        [
            ("f6-g5", Some(1), Some(Color::Black)),
            ("b4-a5", Some(2), Some(Color::White))
        ]
    );
    assert_eq!(variation.moves[0].after, vec![comment("or (this)")]);
    let inner: Vec<_> = variation.moves[1].variations().collect();
    assert_eq!(inner.len(), 1);
    assert_eq!(inner[0].moves[0].text, "g3-h4");
    assert_eq!(inner[0].moves[0].number, Some(2));
    assert_eq!(game.moves[1].variations().count(), 1);
    assert_eq!(game.moves[2].after, vec![Annotation::Nag(1), comment("x")]);
    assert_eq!(game.moves[3].line, 4);
    assert_eq!(
        game.result,
        Some(ResultToken::Points(GameResult::WhiteWins))
    );
    assert_eq!(
        game.moves[0].comments().collect::<Vec<_>>(),
        ["A good start"]
    );
}

#[test]
fn line_comments_in_variations_end_at_the_line_end() {
    let game = read_one("1. c3-b4 (1. c3-d4 ; a } line\n\t d6-c5 ; (\n) *");
    let variations: Vec<_> = game.moves[0].variations().collect();
    assert_eq!(variations.len(), 1);
    let line = variations[0];
    assert_eq!(texts_of(&line.moves), ["c3-d4", "d6-c5"]);
    assert_eq!(line.moves[0].after, vec![comment("a } line")]);
    assert_eq!(line.moves[1].after, vec![comment("(")]);
}

#[test]
fn every_result_form_ends_a_game() {
    let text = "1. c3-b4 1-0 1. c3-b4 0-1 1. c3-b4 1/2-1/2 c3-b4 * c3-b4 2-0 0-2 1-1\n0-0";
    let games: Vec<RawGame> = read_all(text)
        .into_iter()
        .map(|g| g.expect("valid"))
        .collect();
    let results: Vec<_> = games.iter().map(|g| g.result).collect();
    assert_eq!(
        results,
        [
            ResultToken::Score(GameResult::WhiteWins),
            ResultToken::Score(GameResult::BlackWins),
            ResultToken::Score(GameResult::Draw),
            ResultToken::Unfinished,
            ResultToken::Points(GameResult::WhiteWins),
            ResultToken::Points(GameResult::BlackWins),
            ResultToken::Points(GameResult::Draw),
            ResultToken::BothLose,
        ]
        .map(Some)
    );
    let numbers: Vec<usize> = games.iter().map(|g| g.number).collect();
    assert_eq!(numbers, [1, 2, 3, 4, 5, 6, 7, 8]);
    assert_eq!(games[5].moves.len(), 0);
    assert_eq!(games[7].line, 2);
    for result in ResultToken::ALL {
        assert_eq!(result.token().parse::<ResultToken>(), Ok(result));
    }
    assert!("2-1".parse::<ResultToken>().is_err());
    assert_eq!(
        ResultToken::Points(GameResult::BlackWins).winner(),
        Some(Color::Black)
    );
    assert!(ResultToken::Points(GameResult::Draw).is_draw());
}

#[test]
fn a_result_glued_to_a_move_number_ends_the_game() {
    // Written back, `1.1-0` becomes `1. 1-0`, which must mean the same.
    for text in ["1. c3-b4 2.1-0", "1.1/2-1/2", "1...0-1"] {
        let mut games = read_all(text);
        assert_eq!(games.len(), 1, "{text}");
        let game = games.remove(0).expect("valid");
        assert!(game.result.is_some(), "{text}");
        assert!(
            game.moves
                .iter()
                .all(|mv| ResultToken::from_token(&mv.text).is_none()),
            "{text}: {:?}",
            game.moves
        );
    }
}

#[test]
fn move_numbers_and_sides() {
    let game =
        read_one("[FEN \"B:...\"]\n1... b6-c5 2. c3-b4 c5:a3 3.d2-c3 3. ... a7-b6 4...h6-g5 *");
    let numbered: Vec<_> = game
        .moves
        .iter()
        .map(|m| (m.text.as_str(), m.number, m.color))
        .collect();
    assert_eq!(
        numbered,
        [
            ("b6-c5", Some(1), Some(Color::Black)),
            ("c3-b4", Some(2), Some(Color::White)),
            ("c5:a3", Some(2), Some(Color::Black)),
            ("d2-c3", Some(3), Some(Color::White)),
            ("a7-b6", Some(3), Some(Color::Black)),
            ("h6-g5", Some(4), Some(Color::Black)),
        ]
    );
    // `3.d2-c3`: the move starts after the number.
    assert_eq!(game.moves[3].column, 29);
    assert_eq!(game.moves[5].column, 52);

    // Without move numbers the number and side are unknown.
    let game = read_one("c3-b4 b6-c5 *");
    assert_eq!((game.moves[1].number, game.moves[1].color), (None, None));
}

#[test]
fn numeric_and_x_moves_tokenize() {
    let game = read_one("1. 22-18 11-15 2. 18x11 8x15 3. c3xe5 d8D 4. 9x18x27 a:a7 *");
    assert_eq!(
        texts(&game),
        [
            "22-18", "11-15", "18x11", "8x15", "c3xe5", "d8D", "9x18x27", "a:a7"
        ]
    );
}

#[test]
fn escape_lines_bom_and_crlf() {
    let text = "\u{feff}% a comment line for programs\r\n[Event \"E\"]\r\n\r\n1. c3-b4\r\n% 1. skipped\r\nb6-c5 *\r\n";
    let game = read_one(text);
    assert_eq!(game.tag("Event"), Some("E"));
    assert_eq!(texts(&game), ["c3-b4", "b6-c5"]);
    assert_eq!(game.line, 2);
    assert_eq!((game.moves[1].line, game.moves[1].column), (6, 1));
}

#[test]
fn games_without_results_end_at_the_next_tags() {
    let games: Vec<RawGame> = read_all(
        "[Event \"1\"]\n\n1. c3-b4 b6-c5\n[Event \"2\"]\n\n[Event \"3\"]\n1. c3-d4\n\n[Event \"4\"]\n",
    )
    .into_iter()
    .map(|g| g.expect("valid"))
    .collect();
    assert_eq!(games.len(), 4);
    assert_eq!(games[0].moves.len(), 2);
    assert!(games.iter().all(|g| g.result.is_none()));
    assert!(games[1].moves.is_empty());
    assert_eq!(games[2].tag("Event"), Some("3"));
    assert_eq!(games[2].moves.len(), 1);
    assert_eq!(games[3].line, 9);
    assert_eq!(
        games.iter().map(|g| g.number).collect::<Vec<_>>(),
        [1, 2, 3, 4]
    );
}

#[test]
fn trailing_comments_alone_are_not_a_game() {
    let games = read_all("1. c3-b4 *\n{the end}\n\n");
    assert_eq!(games.len(), 1);
    assert!(read_all("").is_empty());
    assert!(read_all("\n\n   \n").is_empty());
}

fn error_of(text: &str) -> PdnError {
    match read_all(text).into_iter().next() {
        Some(Err(e)) => e,
        other => panic!("expected an error for {text:?}, got {other:?}"),
    }
}

fn position(e: &PdnError) -> (usize, usize, usize) {
    (e.game(), e.line(), e.column())
}

#[test]
fn unterminated_string_is_located_and_the_next_game_is_read() {
    let games = read_all(
        "[Event \"a\"]\n[Site \"b]\n[Date \"?\"]\n\n1. c3-b4 *\n\n[Event \"2\"]\n\n1. c3-d4 1-0\n",
    );
    assert_eq!(games.len(), 2);
    let error = games[0].as_ref().expect_err("bad");
    assert!(
        matches!(error, PdnError::UnterminatedString { .. }),
        "{error}"
    );
    assert_eq!(position(error), (1, 2, 7));
    assert_eq!(
        error.to_string(),
        "game 1, line 2, column 7: unterminated string: expected `\"` to close this tag value on the same line"
    );
    let game = games[1].as_ref().expect("good");
    assert_eq!(game.number, 2);
    assert_eq!(game.tag("Event"), Some("2"));
    assert_eq!(texts(game), ["c3-d4"]);
}

#[test]
fn unexpected_character_in_movetext() {
    let games = read_all("[Event \"1\"]\n\n1. c3-b4 b6-c5, 2. ba5 *\n[Event \"2\"]\n1. cb4 0-1\n");
    let error = games[0].as_ref().expect_err("bad");
    assert!(
        matches!(error, PdnError::UnexpectedCharacter { found: ',', .. }),
        "{error}"
    );
    assert_eq!(position(error), (1, 3, 15));
    assert!(error.to_string().contains("unexpected character `,`"));
    let game = games[1].as_ref().expect("good");
    assert_eq!(
        (game.number, game.result),
        (2, Some(ResultToken::Score(GameResult::BlackWins)))
    );

    let error = error_of("1. c3-b4 White resigned. 0-1");
    assert_eq!(position(&error), (1, 1, 10));
    let error = error_of("1. c3-b4 b6-c5. 0-1");
    assert!(matches!(
        error,
        PdnError::UnexpectedCharacter { found: '.', .. }
    ));
    assert_eq!(position(&error), (1, 1, 15));
    let error = error_of("1. c3-b4 b6-c5)");
    assert!(matches!(
        error,
        PdnError::UnexpectedCharacter { found: ')', .. }
    ));
    assert_eq!(position(&error), (1, 1, 15));
}

#[test]
fn unterminated_comment_before_the_next_game_costs_one_game() {
    let games =
        read_all("[Event \"A\"]\n\n1. c3-b4 {oops\nstill comment\n\n[Event \"B\"]\n\n1. c3-b4 *\n");
    assert_eq!(games.len(), 2);
    let error = games[0].as_ref().expect_err("bad");
    assert!(matches!(error, PdnError::UnterminatedComment { .. }));
    assert_eq!(position(error), (1, 3, 10));
    let game = games[1].as_ref().expect("good");
    assert_eq!((game.number, game.line), (2, 6));
    assert_eq!(game.tag("Event"), Some("B"));

    // At the end of the input.
    let error = error_of("1. c3-b4 {never closed\n\n");
    assert_eq!(position(&error), (1, 1, 10));
    // A variation likewise.
    let games = read_all("1. c3-b4 (1. c3-d4 {x}\n\n[Event \"B\"]\n*");
    let error = games[0].as_ref().expect_err("bad");
    assert!(matches!(error, PdnError::UnterminatedVariation { .. }));
    assert_eq!(position(error), (1, 1, 10));
    assert_eq!(games[1].as_ref().expect("good").number, 2);
}

#[test]
fn bad_tags_are_located() {
    let cases: [(&str, &str, (usize, usize, usize)); 5] = [
        ("[ \"x\"]\n*", "tag name", (1, 1, 3)),
        ("[Event \"x\" junk]\n*", "`]`", (1, 1, 12)),
        ("[Event]\n*", "tag value", (1, 1, 7)),
        ("[Event \"x\"\n*", "unterminated tag", (1, 1, 1)),
        (
            "[Event \"x\"]\n[Event-x \"y\"]\n*",
            "a space and a tag value",
            (1, 2, 7),
        ),
    ];
    for (text, message, at) in cases {
        let error = error_of(text);
        assert_eq!(position(&error), at, "{text:?}: {error}");
        assert!(error.to_string().contains(message), "{text:?}: {error}");
    }
    let games = read_all("[Event \"x\"]\n\n1. c3-b4\n[Site \"y\" \n*");
    assert_eq!(games.len(), 2);
    assert!(games[0].is_ok());
    let error = games[1].as_ref().expect_err("bad");
    assert!(matches!(error, PdnError::UnterminatedTag { .. }));
    assert_eq!(position(error), (2, 4, 1));
}

#[test]
fn bad_numbers_and_annotations() {
    let error = error_of("0. c3-b4 *");
    assert!(matches!(&error, PdnError::BadMoveNumber { text, .. } if text == "0."));
    assert_eq!(position(&error), (1, 1, 1));
    let error = error_of("1. c3-b4 99999999999... b6-c5 *");
    assert!(matches!(&error, PdnError::BadMoveNumber { .. }));
    assert_eq!(position(&error), (1, 1, 10));
    let error = error_of("1. c3-b4 $300 *");
    assert!(matches!(&error, PdnError::BadAnnotation { text, .. } if text == "$300"));
    assert_eq!(position(&error), (1, 1, 10));
    let error = error_of("1. c3-b4 $x *");
    assert_eq!(position(&error), (1, 1, 10));
    let error = error_of("1. c3-b4!!! *");
    assert!(matches!(&error, PdnError::BadAnnotation { text, .. } if text == "!!!"));
    assert_eq!(position(&error), (1, 1, 9));
}

#[test]
fn invalid_utf8_is_an_error_with_position_when_utf8_is_asked_for() {
    let mut bytes = b"[Event \"a".to_vec();
    bytes.push(0xFF);
    bytes.extend_from_slice("b\"]\n\n1. c3-b4 *\n\n[Event \"Ж\"]\n1. cb4 *\n".as_bytes());
    let games: Vec<_> = Reader::with_encoding(&bytes[..], TextEncoding::UTF8).collect();
    assert_eq!(games.len(), 2);
    let error = games[0].as_ref().expect_err("bad");
    assert!(matches!(error, PdnError::InvalidUtf8 { .. }));
    assert_eq!(position(error), (1, 1, 10));
    let game = games[1].as_ref().expect("good");
    assert_eq!((game.number, game.tag("Event")), (2, Some("Ж")));

    // The column counts characters, not bytes.
    let mut bytes = "1. c3-b4 {Жж ".as_bytes().to_vec();
    bytes.extend_from_slice(&[0xD0, 0x20]);
    bytes.extend_from_slice(b"} *\n");
    let error = Reader::with_encoding(&bytes[..], TextEncoding::UTF8)
        .next()
        .expect("an item")
        .expect_err("bad");
    assert_eq!(position(&error), (1, 1, 14));
}

#[test]
fn errors_in_the_middle_keep_the_other_games() {
    let text = "[Event \"1\"]\n\n1. c3-b4 b6-c5 *\n\n\
                [Event \"2\"]\n[Site \"s\"]\n\n1. c3-b4 {x} b6-c5 2. ba5 & ab6 1-0\n\n\
                [Event \"3\"]\n\n1. cb4 bc5 2-0\n";
    let games = read_all(text);
    assert_eq!(games.len(), 3);
    assert_eq!(games[0].as_ref().expect("good").number, 1);
    let error = games[1].as_ref().expect_err("bad");
    assert!(matches!(
        error,
        PdnError::UnexpectedCharacter { found: '&', .. }
    ));
    assert_eq!(position(error), (2, 8, 27));
    let third = games[2].as_ref().expect("good");
    assert_eq!((third.number, third.tag("Event")), (3, Some("3")));
}

#[test]
fn line_too_long_is_an_error_and_skipped() {
    let mut text = String::from("[Event \"1\"]\n\n1.");
    while text.len() <= bashni_pdn::MAX_LINE_BYTES + 100 {
        text.push_str(" c3-b4");
    }
    text.push_str(" *\n\n[Event \"2\"]\n\n1. c3-b4 *\n");
    let games = read_all(&text);
    assert_eq!(games.len(), 2);
    let Err(error) = &games[0] else {
        panic!("expected the long line to be an error");
    };
    assert!(matches!(error, PdnError::LineTooLong { .. }), "{error}");
    assert_eq!(error.line(), 3);
    assert_eq!(error.column(), bashni_pdn::MAX_LINE_BYTES + 1);
    assert_eq!(games[1].as_ref().expect("good").tag("Event"), Some("2"));
}

#[test]
fn io_errors_stop_the_reader() {
    struct Failing;
    impl std::io::Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk on fire"))
        }
    }
    let mut reader = Reader::new(std::io::BufReader::new(Failing));
    let error = reader.next_game().expect("an item").expect_err("fails");
    assert!(matches!(error, PdnError::Io { .. }));
    assert_eq!(position(&error), (1, 1, 1));
    assert!(std::error::Error::source(&error).is_some());
    assert!(reader.next_game().is_none());
}
