//! The writer, the round trip through the reader, and the GameType tag.

use bashni_pdn::{
    Annotation, GameTypeError, LINE_WIDTH, RawGame, RawMove, Reader, ResultToken, Variation,
    clean_annotations, game_type_tag, ordered_tags, parse_game_type, tag_spelling, variant_of,
    write_game, write_game_io,
};
use bashni_rules::{Color, GameResult, Variant};
use proptest::prelude::*;

fn tag(name: &str, value: &str) -> (String, String) {
    (name.to_string(), value.to_string())
}

fn write(game: &RawGame) -> String {
    let mut text = String::new();
    write_game(&mut text, game).expect("writing to a String");
    text
}

fn read_back(text: &str) -> RawGame {
    let mut games: Vec<_> = Reader::new(text.as_bytes()).collect();
    assert_eq!(games.len(), 1, "{text}");
    match games.remove(0) {
        Ok(game) => game,
        Err(e) => panic!("{e}\n{text}"),
    }
}

/// Checks that `text` is what the writer made of `game` and reads back as `game`.
/// The tags of `game` as reading its written text gives them: in the writer's order, a name
/// PDN spells in a fixed case (`fEn`) in that case (`FEN`).
fn tags_read_back(game: &RawGame) -> Vec<(String, String)> {
    ordered_tags(&game.tags)
        .into_iter()
        .map(|(name, value)| (tag_spelling(name).to_string(), value.clone()))
        .collect()
}

fn assert_reads_back(game: &RawGame, text: &str) {
    let back = read_back(text);
    assert_eq!(back.tags, tags_read_back(game), "{text}");
    assert_eq!(
        back.result,
        Some(game.result.unwrap_or(ResultToken::Unfinished))
    );
    assert_eq!(
        clean_annotations(&back.intro),
        clean_annotations(&game.intro),
        "{text}"
    );
    assert_eq!(back.moves.len(), game.moves.len(), "{text}");
    let (mut number, mut color) = game.moves.first().map_or((1, Color::White), |m| {
        (m.number.unwrap_or(1), m.color.unwrap_or(Color::White))
    });
    for (got, want) in back.moves.iter().zip(&game.moves) {
        assert_eq!(got.text, want.text, "{text}");
        assert_eq!(
            clean_annotations(&got.after),
            clean_annotations(&want.after),
            "{text}"
        );
        assert_eq!(
            (got.number, got.color),
            (Some(number), Some(color)),
            "{text}"
        );
        (number, color) = match color {
            Color::White => (number, Color::Black),
            Color::Black => (number + 1, Color::White),
        };
    }
    for line in text.lines().filter(|l| !l.starts_with('[')) {
        let long_word = line.split(' ').count() == 1;
        assert!(
            line.chars().count() <= LINE_WIDTH || long_word,
            "line too long: {line:?}"
        );
    }
}

#[test]
fn writes_header_in_order_and_numbers_moves() {
    let mut game = RawGame::from_moves(
        vec![
            tag("Annotator", "me"),
            tag("GameType", "60"),
            tag("Black", "Petrov"),
            tag("TimeControl", "40/7200"),
            tag("Result", "1-0"),
            tag("FEN", "W:..."),
            tag("White", "Ivanov"),
            tag("Round", "1"),
            tag("Date", "2024.01.02"),
            tag("Site", "Kazan"),
            tag("Event", "Cup"),
        ],
        ["c3-b4", "b6-c5", "b4-a5", "a7-b6"],
        Some(ResultToken::Score(GameResult::WhiteWins)),
    );
    game.moves[0].after.push(Annotation::Nag(3));
    game.moves[2]
        .after
        .push(Annotation::Comment("a } brace".to_string()));
    game.moves[2].after.push(Annotation::Nag(20));
    let mut inner = Variation::of_moves(["f6-g5"]);
    inner.moves[0]
        .after
        .push(Annotation::Variation(Variation::of_moves(["a7-b6"])));
    game.moves[3].after.push(Annotation::Variation(inner));
    game.intro.push(Annotation::Comment("Rulebook".to_string()));
    let text = write(&game);
    assert_eq!(
        text,
        "[Event \"Cup\"]\n[Site \"Kazan\"]\n[Date \"2024.01.02\"]\n[Round \"1\"]\n\
         [White \"Ivanov\"]\n[Black \"Petrov\"]\n[Result \"1-0\"]\n[GameType \"60\"]\n\
         [FEN \"W:...\"]\n[TimeControl \"40/7200\"]\n[Annotator \"me\"]\n\n\
         {Rulebook} 1. c3-b4!! b6-c5 2. b4-a5 {a brace} $20 2... a7-b6 (2... f6-g5\n\
         (2... a7-b6)) 1-0\n\n"
    );
    assert_reads_back(&game, &text);
    assert_eq!(game.to_string(), text);
    let mut bytes = Vec::new();
    write_game_io(&mut bytes, &game).expect("writing to a Vec");
    assert_eq!(bytes, text.as_bytes());
}

#[test]
fn black_first_and_no_result() {
    let mut game = RawGame::from_moves(vec![], ["b6-c5", "c3-b4", "c5:a3"], None);
    game.moves[0].number = Some(17);
    game.moves[0].color = Some(Color::Black);
    let text = write(&game);
    assert_eq!(text, "17... b6-c5 18. c3-b4 c5:a3 *\n\n");
    assert_reads_back(&game, &text);
}

#[test]
fn escapes_tag_values_and_names() {
    let game = RawGame::from_moves(
        vec![
            tag("White", "Иванов \"Ваня\" \\ {x} [y]"),
            tag("Bad Name!", "line\nbreak"),
        ],
        ["cb4"],
        Some(ResultToken::Points(GameResult::Draw)),
    );
    let text = write(&game);
    assert_eq!(
        text,
        "[White \"Иванов \\\"Ваня\\\" \\\\ {x} [y]\"]\n[Bad_Name_ \"line break\"]\n\n1. cb4 1-1\n\n"
    );
    let back = read_back(&text);
    assert_eq!(back.tag("White"), Some("Иванов \"Ваня\" \\ {x} [y]"));
}

#[test]
fn long_games_wrap_at_80_columns() {
    let bashni = "cb4 bc5 ba5 ab6 bc3 cb4 a:a7 cb6 a:e5 f:b2 a:c3 dc7 gf4 e:g3 h:f4 g:e5 \
                  e:g5 h:f4 de3 f:b4 b2:d4:f6:d8D:a5:d2:h6";
    let mut game = RawGame::from_moves(
        vec![tag("GameType", "60")],
        bashni.split(' ').cycle().take(300),
        Some(ResultToken::Score(GameResult::WhiteWins)),
    );
    game.moves[7].after.push(Annotation::Comment(
        "A long comment that has to be broken over more than one line of the output, because \
         it goes on and on, in Russian too: белые сдались"
            .to_string(),
    ));
    let text = write(&game);
    assert!(text.lines().count() > 20);
    assert!(text.lines().all(|l| l.chars().count() <= LINE_WIDTH));
    assert!(text.lines().any(|l| l.chars().count() > 70));
    assert_reads_back(&game, &text);
}

#[test]
fn writing_the_rulebook_game_and_reading_it_back() {
    let game = RawGame::from_moves(
        vec![tag("GameType", "25"), tag("Result", "0-1")],
        [
            "e3-d4", "d6-c5", "f2-e3", "f6-g5", "c3-b4", "g5-h4", "b4:d6", "h4:f2", "e1:g3",
            "c7:h4",
        ],
        Some(ResultToken::Score(GameResult::BlackWins)),
    );
    let text = write(&game);
    assert_eq!(
        text,
        "[Result \"0-1\"]\n[GameType \"25\"]\n\n\
         1. e3-d4 d6-c5 2. f2-e3 f6-g5 3. c3-b4 g5-h4 4. b4:d6 h4:f2 5. e1:g3 c7:h4 0-1\n\n"
    );
    assert_reads_back(&game, &text);
}

#[test]
fn game_type_maps_to_variants() {
    let tags = |value: &str| vec![tag("Event", "x"), tag("GameType", value)];
    assert_eq!(variant_of(&tags("25"), None), Ok(Variant::Russian));
    assert_eq!(
        variant_of(&tags("25,W,8,8,A0,0"), None),
        Ok(Variant::Russian)
    );
    assert_eq!(variant_of(&tags("60"), None), Ok(Variant::Bashni));
    assert_eq!(
        variant_of(&tags(" 60 ,W,8,8,A0,0"), None),
        Ok(Variant::Bashni)
    );
    assert_eq!(variant_of(&tags("Bashni"), None), Ok(Variant::Bashni));
    assert_eq!(variant_of(&tags("BASHNI,W"), None), Ok(Variant::Bashni));
    assert_eq!(variant_of(&tags("russian"), None), Ok(Variant::Russian));
    assert_eq!(
        variant_of(&tags("20,W,10,10,N2,0"), Some(Variant::Bashni)),
        Err(GameTypeError::Unsupported("20,W,10,10,N2,0".to_string()))
    );
    assert!(matches!(
        parse_game_type(""),
        Err(GameTypeError::Unsupported(_))
    ));
    assert!(matches!(
        parse_game_type("99999999999999"),
        Err(GameTypeError::Unsupported(_))
    ));
    let no_type = vec![tag("Event", "x")];
    assert_eq!(variant_of(&no_type, None), Err(GameTypeError::Missing));
    assert_eq!(
        variant_of(&no_type, Some(Variant::Russian)),
        Ok(Variant::Russian)
    );
    assert!(GameTypeError::Missing.to_string().contains("GameType"));
    for variant in [Variant::Bashni, Variant::Russian] {
        assert_eq!(parse_game_type(game_type_tag(variant)), Ok(variant));
    }
}

#[test]
fn from_moves_and_tag_helpers() {
    let mut game = RawGame::from_moves(vec![], ["c3-b4"], None);
    game.set_tag("Event", "a");
    game.set_tag("Event", "b");
    assert_eq!(game.tags, vec![tag("Event", "b")]);
    let mv = RawMove::new("b6-c5").with_comment("hm");
    assert_eq!(mv.comments().collect::<Vec<_>>(), ["hm"]);
}

// --- Round trip with random games ----------------------------------------------------------

fn text_from(chars: &'static [char], max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(chars), 0..max)
        .prop_map(|cs| cs.into_iter().collect())
}

const VALUE_CHARS: &[char] = &[
    'a', 'Z', '0', ' ', ' ', '"', '\\', '{', '}', '[', ']', '(', ')', ';', '%', '$', '!', '.', ',',
    'И', 'в', 'а', 'н', 'о', 'ё', 'Ж', '—', '\t', '€', '😀',
];

const COMMENT_CHARS: &[char] = &[
    'a', 'b', ' ', ' ', '\n', '\t', '"', '\\', '{', '}', '[', ']', '(', ')', ';', '%', '$', 'П',
    'е', 'т', 'р', 'о', 'в', '.', '1', '-', '*',
];

const MOVES: &[&str] = &[
    "c3-b4",
    "b6-c5",
    "b2:d4:f6:d8D:a5:d2:h6",
    "a:a7",
    "cb4",
    "22-18",
    "9x18",
    "c3xe5",
    "d8D",
    "b2:d4:f6:d8:a5:d2:h6:e3:c1:a3:c5:e7:g5:e3",
];

/// A variation: a few moves with comments or NAGs, perhaps a comment before them and a
/// result after them.
fn variation() -> impl Strategy<Value = Variation> {
    let plain = prop_oneof![
        text_from(COMMENT_CHARS, 20).prop_map(Annotation::Comment),
        any::<u8>().prop_map(Annotation::Nag),
    ];
    let moves = (
        prop::sample::select(MOVES),
        prop::collection::vec(plain.clone(), 0..2),
    )
        .prop_map(|(text, after)| RawMove {
            after,
            ..RawMove::new(text)
        });
    (
        prop::collection::vec(
            text_from(COMMENT_CHARS, 20).prop_map(Annotation::Comment),
            0..2,
        ),
        prop::collection::vec(moves, 0..4),
        prop::option::of(prop::sample::select(&ResultToken::ALL[..])),
    )
        .prop_map(|(intro, moves, result)| Variation {
            intro,
            moves,
            result,
            ..Variation::default()
        })
}

fn annotation() -> impl Strategy<Value = Annotation> {
    prop_oneof![
        3 => text_from(COMMENT_CHARS, 40).prop_map(Annotation::Comment),
        1 => any::<u8>().prop_map(Annotation::Nag),
        1 => variation().prop_map(Annotation::Variation),
    ]
}

fn raw_move() -> impl Strategy<Value = RawMove> {
    (
        prop::sample::select(MOVES),
        prop::collection::vec(annotation(), 0..3),
    )
        .prop_map(|(text, after)| RawMove {
            after,
            ..RawMove::new(text)
        })
}

fn tag_name() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(
            &[
                "Event",
                "Site",
                "Date",
                "Round",
                "White",
                "Black",
                "Result",
                "GameType",
                "FEN",
                "TimeControl",
                "Annotator",
                "PlyCount",
            ][..]
        )
        .prop_map(str::to_string),
        "[A-Za-z][A-Za-z0-9_]{0,10}",
    ]
}

fn game() -> impl Strategy<Value = RawGame> {
    (
        prop::collection::vec((tag_name(), text_from(VALUE_CHARS, 30)), 0..12),
        prop::collection::vec(annotation(), 0..2),
        prop::collection::vec(raw_move(), 0..40),
        1u32..200,
        any::<bool>(),
        prop::option::of(prop::sample::select(&ResultToken::ALL[..])),
    )
        .prop_map(|(tags, intro, mut moves, number, black, result)| {
            if let Some(first) = moves.first_mut() {
                first.number = Some(number);
                first.color = Some(if black { Color::Black } else { Color::White });
            }
            RawGame {
                tags,
                intro,
                moves,
                result,
                ..RawGame::default()
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn written_games_read_back_equal(game in game()) {
        let text = write(&game);
        assert_reads_back(&game, &text);
    }

    #[test]
    fn several_written_games_read_back_in_order(games in prop::collection::vec(game(), 1..6)) {
        let mut text = String::new();
        for game in &games {
            write_game(&mut text, game).expect("writing to a String");
        }
        let back: Vec<_> = Reader::new(text.as_bytes()).collect();
        prop_assert_eq!(back.len(), games.len());
        for (i, (got, want)) in back.iter().zip(&games).enumerate() {
            let got = got.as_ref().map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(got.number, i + 1);
            prop_assert_eq!(got.moves.len(), want.moves.len());
            prop_assert_eq!(&got.tags, &tags_read_back(want));
        }
    }
}

#[test]
fn a_tag_name_in_another_case_reads_back_in_the_fixed_case() {
    let game = RawGame {
        tags: vec![tag("fEn", "W:W21:B1"), tag("myTag", "x")],
        ..RawGame::default()
    };
    let back = read_back(&write(&game));
    assert_eq!(back.tags, vec![tag("FEN", "W:W21:B1"), tag("myTag", "x")]);
    assert_eq!(tags_read_back(&game), back.tags);
}
