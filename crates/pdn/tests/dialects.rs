//! Records as real archives write them: each dialect the reader takes leniently, in a
//! small file written for the test.

use bashni_pdn::{
    Annotation, MoveForm, PdnError, RawGame, Reader, ReplayError, StopReason, TextEncoding,
    VariantSource, WarningKind, replay, replay_record, rewrite, write_game,
};
use bashni_rules::{SquareNames, Variant};

fn read_all(bytes: &[u8]) -> Vec<Result<RawGame, PdnError>> {
    Reader::new(bytes).collect()
}

fn read_one(bytes: &[u8]) -> RawGame {
    let mut games = read_all(bytes);
    assert_eq!(games.len(), 1, "{}", String::from_utf8_lossy(bytes));
    games.remove(0).unwrap_or_else(|e| panic!("{e}"))
}

fn kinds(game: &RawGame) -> Vec<(usize, usize, WarningKind)> {
    game.warnings
        .iter()
        .map(|w| (w.line, w.column, w.kind.clone()))
        .collect()
}

fn moves(game: &bashni_rules::Game) -> Vec<String> {
    game.moves().iter().map(ToString::to_string).collect()
}

// A capture leaves a Bashni checker under the capturing tower, so the moves after it tell
// the games apart.
const ONLY_RUSSIAN: &str = "1. c3-d4 f6-e5 2. d4:f6 g7:e5 3. b2-c3 e7-f6 *\n";
const ONLY_BASHNI: &str = "1. c3-d4 f6-e5 2. d4:f6 g7:e5 3. b2-c3 f6-g5 *\n";
const BOTH: &str = "1. c3-d4 f6-e5 2. d4:f6 g7:e5 3. b2-c3 h8-g7 *\n";

#[test]
fn a_record_without_game_type_is_read_as_the_game_it_replays_in() {
    let russian = replay_record(&read_one(ONLY_RUSSIAN.as_bytes()), None).expect("Russian");
    assert_eq!(russian.game.variant(), Variant::Russian);
    assert_eq!(russian.source, VariantSource::OnlyFit);
    assert_eq!(
        russian.variant_reason().as_deref(),
        Some("no GameType; read as Russian draughts: replays only under its rules")
    );
    let bashni = replay_record(&read_one(ONLY_BASHNI.as_bytes()), None).expect("Bashni");
    assert_eq!(bashni.game.variant(), Variant::Bashni);
    assert_eq!(bashni.source, VariantSource::OnlyFit);
    let both = replay_record(&read_one(BOTH.as_bytes()), None).expect("both");
    assert_eq!(both.game.variant(), Variant::Russian);
    assert_eq!(both.source, VariantSource::BothFit);
    assert!(
        both.variant_reason()
            .is_some_and(|r| r.contains("replays under both games' rules")),
        "{:?}",
        both.variant_reason()
    );
    // A default given by the caller is used as it is, and said.
    let asked = replay_record(&read_one(ONLY_BASHNI.as_bytes()), Some(Variant::Bashni))
        .expect("asked for Bashni");
    assert_eq!(asked.source, VariantSource::Default);
    assert_eq!(
        asked.variant_reason().as_deref(),
        Some("no GameType; read as Bashni as asked")
    );
    // With the tag there is nothing to say.
    let tagged = format!("[GameType \"25\"]\n{ONLY_RUSSIAN}");
    let tagged = replay_record(&read_one(tagged.as_bytes()), None).expect("tagged");
    assert_eq!(tagged.source, VariantSource::Tag);
    assert_eq!(tagged.variant_reason(), None);
}

#[test]
fn every_error_names_the_game_assumed() {
    let wrong =
        replay(&read_one(ONLY_RUSSIAN.as_bytes()), Some(Variant::Bashni)).expect_err("not Bashni");
    let message = wrong.to_string();
    assert!(
        message.starts_with("game 1 (Bashni), move 3... e7-f6 (line 1, column 40): "),
        "{message}"
    );
    // Fitting neither game, the error gives both, the one that got further first.
    let neither = read_one(b"1. c3-d4 f6-e5 2. d4:f6 g7:e5 3. b2-c3 e7-f6 4. c3-b4 h8-a1 *\n");
    let error = replay(&neither, None).expect_err("neither game");
    let ReplayError::NoGameFits { further, other, .. } = &error else {
        panic!("{error}");
    };
    assert!(
        further
            .to_string()
            .contains("(Russian draughts), move 4... h8-a1")
    );
    assert!(other.to_string().contains("(Bashni), move 3... e7-f6"));
    let message = error.to_string();
    assert!(
        message.starts_with("game 1: no GameType, and the record replays under neither"),
        "{message}"
    );
    let bad_fen = read_one(b"[GameType \"25\"]\n[FEN \"W:Wz9:B1\"]\n1. c3-d4 *\n");
    let message = replay(&bad_fen, None).expect_err("bad FEN").to_string();
    assert!(
        message.starts_with("game 1 (Russian draughts): FEN"),
        "{message}"
    );
}

#[test]
fn encodings_by_byte_order_mark_and_single_byte_lines() {
    let text = "[Event \"Чемпионат СССР\"]\n[GameType \"25\"]\n\n1. c3-d4 f6-e5 *\n";
    let check = |game: &RawGame| {
        assert_eq!(game.tag("Event"), Some("Чемпионат СССР"));
        assert_eq!(replay(game, None).expect("replays").ply(), 2);
    };
    // UTF-8 with its byte order mark.
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend_from_slice(text.as_bytes());
    let game = read_one(&bytes);
    check(&game);
    assert!(game.warnings.is_empty());
    // UTF-16 in both byte orders, with CRLF line ends.
    let crlf = text.replace('\n', "\r\n");
    let units: Vec<u16> = crlf.encode_utf16().collect();
    let mut le = vec![0xFF, 0xFE];
    let mut be = vec![0xFE, 0xFF];
    for unit in &units {
        le.extend_from_slice(&unit.to_le_bytes());
        be.extend_from_slice(&unit.to_be_bytes());
    }
    for bytes in [&le, &be] {
        let game = read_one(bytes);
        check(&game);
        assert!(game.warnings.is_empty());
        assert_eq!(game.moves[1].line, 4);
    }
    // Windows-1251: found line by line, with a warning at the first byte that is not UTF-8.
    let (cp1251, _, _) = encoding_rs::WINDOWS_1251.encode(text);
    let game = read_one(&cp1251);
    check(&game);
    assert_eq!(
        kinds(&game),
        [(
            1,
            9,
            WarningKind::Encoding {
                encoding: "windows-1251"
            }
        )]
    );
    // Named, the encoding is used for every line, without warnings.
    let read_as = |bytes: &[u8], label: &str| {
        let encoding = TextEncoding::from_label(label).expect("label");
        Reader::with_encoding(bytes, encoding)
            .next()
            .expect("a game")
            .expect("read")
    };
    let game = read_as(&cp1251, "cp1251");
    check(&game);
    assert!(game.warnings.is_empty());
    let (koi8, _, _) = encoding_rs::KOI8_R.encode(text);
    check(&read_as(&koi8, "koi8-r"));
    // One bad byte costs nothing but a warning: the game around it is read.
    let mut mixed = b"[Event \"Cup \xC1\"]\n[GameType \"25\"]\n\n1. c3-d4 {".to_vec();
    mixed.extend_from_slice("ход ".as_bytes());
    mixed.extend_from_slice(b"\xF5\xEE\xE4} f6-e5 *\n");
    let game = read_one(&mixed);
    assert_eq!(game.tag("Event"), Some("Cup Б"));
    assert_eq!(game.moves[0].comments().collect::<Vec<_>>(), ["ход ход"]);
    assert_eq!(game.warnings.len(), 2);
}

#[test]
fn captures_written_as_quiet_moves_are_read_with_a_warning() {
    let text = "[GameType \"25\"]\n1. c3-d4 f6-e5 2. d4-f6 ge5 3. 21-17 *\n";
    let raw = read_one(text.as_bytes());
    let replayed = replay_record(&raw, None).expect("lenient");
    assert_eq!(
        moves(&replayed.game),
        ["c3-d4", "f6-e5", "d4:f6", "g7:e5", "a3-b4"]
    );
    let places: Vec<_> = replayed
        .warnings
        .iter()
        .map(|w| (w.line, w.column, w.kind.to_string()))
        .collect();
    assert_eq!(
        places,
        [
            (
                2,
                19,
                "the capture `d4-f6` is written as a quiet move; read as d4:f6".to_string()
            ),
            (
                2,
                25,
                "the capture `ge5` is written as a quiet move; read as g7:e5".to_string()
            ),
        ]
    );
    // The en dash and the multiplication sign are read as the rulebooks' `-` and `:`.
    let dashes = read_one("[GameType \"25\"]\n1. c3–d4 f6—e5 2. d4×f6 *\n".as_bytes());
    let game = replay(&dashes, None).expect("dashes");
    assert_eq!(moves(&game), ["c3-d4", "f6-e5", "d4:f6"]);
}

#[test]
fn unknown_moves_keep_the_game_and_stop_the_replay() {
    let text = "[GameType \"25\"]\n1. c3-d4 f6-e5 2. - - 3. - --\n4. a3-b4 1/2-1/2\n";
    let raw = read_one(text.as_bytes());
    assert_eq!(raw.moves.len(), 7);
    assert!(raw.moves[2..6].iter().all(|mv| mv.is_unknown()));
    assert_eq!(raw.moves[6].text, "a3-b4");
    let replayed = replay_record(&raw, None).expect("kept");
    assert_eq!(replayed.game.ply(), 2);
    let Some(ReplayError::Stopped { place, reason }) = &replayed.stop else {
        panic!("stops: {:?}", replayed.stop);
    };
    assert_eq!(*reason, StopReason::UnknownMove);
    assert_eq!((place.number, place.line, place.column), (2, 2, 19));
    assert_eq!(
        replayed.stop.as_ref().map(ToString::to_string).as_deref(),
        Some(
            "game 1 (Russian draughts), move 2. - (line 2, column 19): the move is not \
             known; replay stops here"
        )
    );
    // `replay` wants the whole game.
    assert!(matches!(
        replay(&raw, None),
        Err(ReplayError::Stopped { .. })
    ));
    // Written back, the moves read back the same.
    let mut written = String::new();
    write_game(&mut written, &raw).expect("write");
    assert!(written.contains("2. - - 3. - - 4. a3-b4"), "{written}");
}

#[test]
fn a_pdn3_setup_before_the_first_move_is_the_start_position() {
    let text = "[GameType \"25\"]\n/FEN \"W:W21,22:B5,6\"/ 1. 22-18 5-9 *\n";
    let raw = read_one(text.as_bytes());
    assert_eq!(raw.tag("FEN"), Some("W:W21,22:B5,6"));
    assert_eq!(kinds(&raw), [(2, 1, WarningKind::SetupAsFen)]);
    let game = replay(&raw, None).expect("from the setup");
    assert_eq!(moves(&game), ["c3-d4", "a7-b6"]);
    let bare = read_one(b"[GameType \"25\"]\n/W:W21,22:B5,6/\n1. 22-18 *\n");
    assert_eq!(bare.tag("FEN"), Some("W:W21,22:B5,6"));
    // Later in the game the setup is kept, and the replay stops at it.
    let later = read_one(b"[GameType \"25\"]\n1. c3-d4 /W:W21:B5/ 1... a7-b6 *\n");
    assert_eq!(
        later.moves[0].after,
        [Annotation::Setup("W:W21:B5".to_string())]
    );
    let replayed = replay_record(&later, None).expect("kept");
    assert!(matches!(
        replayed.stop,
        Some(ReplayError::Stopped {
            reason: StopReason::Setup,
            ..
        })
    ));
    let open = read_all(b"1. c3-d4 /W:W21:B5 *\n");
    assert!(matches!(open[0], Err(PdnError::UnterminatedSetup { .. })));
}

#[test]
fn free_text_and_tag_names_in_another_case() {
    let text = "Collection of games, 1950\nЧемпионат СССР\n\n[event \"Final\"]\n\
                [GAMETYPE \"25\"]\n[white \"A\"]\n\n1. c3-d4 *\n";
    let raw = read_one(text.as_bytes());
    assert_eq!(raw.tag("Event"), Some("Final"));
    assert_eq!(raw.tag("GameType"), Some("25"));
    assert_eq!(raw.tag("White"), Some("A"));
    assert_eq!(
        kinds(&raw),
        [
            (1, 1, WarningKind::TextSkipped { last_line: 2 }),
            (
                4,
                2,
                WarningKind::TagName {
                    written: "event".into(),
                    read: "Event"
                }
            ),
            (
                5,
                2,
                WarningKind::TagName {
                    written: "GAMETYPE".into(),
                    read: "GameType"
                }
            ),
            (
                6,
                2,
                WarningKind::TagName {
                    written: "white".into(),
                    read: "White"
                }
            ),
        ]
    );
    // Text with no game after it is an error, not a silent nothing.
    let games = read_all("Just a title\n".as_bytes());
    assert!(matches!(games[..], [Err(PdnError::TextWithoutGame { .. })]));
    // A movetext line with a bad word is still an error where the word is.
    let games = read_all(b"1. c3-d4 White resigned 0-1\n");
    assert!(matches!(
        games[0],
        Err(PdnError::UnexpectedCharacter { .. })
    ));
}

#[test]
fn variations_are_checked_from_their_own_position() {
    let text = "[GameType \"25\"]\n1. c3-d4 f6-e5 (1... f6-g5 2. d4-c5 (2. g3-h4 b6-a5)) \
                2. d4:f6 g7:e5 *\n";
    let raw = read_one(text.as_bytes());
    let replayed = replay_record(&raw, None).expect("good variations");
    assert_eq!(replayed.game.ply(), 4);
    // A move that is legal in the game but not where the variation stands is an error.
    let bad = "[GameType \"25\"]\n1. c3-d4 f6-e5 (1... d4:f6) 2. d4:f6 g7:e5 *\n";
    let error = replay(&read_one(bad.as_bytes()), None).expect_err("bad variation");
    let message = error.to_string();
    assert!(
        message.starts_with(
            "game 1 (Russian draughts), in a variation, move 1... d4:f6 (line 2, column 22)"
        ),
        "{message}"
    );
    // So is one deep inside.
    let deep = "[GameType \"25\"]\n1. c3-d4 f6-e5 (1... f6-g5 2. d4-c5 (2. h4-g5)) *\n";
    let error = replay(&read_one(deep.as_bytes()), None).expect_err("deep");
    assert!(
        error.to_string().contains("in a variation, move 2. h4-g5"),
        "{error}"
    );
}

#[test]
fn a_remark_in_parentheses_is_kept_as_a_comment() {
    let text = "[GameType \"25\"]\n1. c3-d4 (see game 5) f6-e5 (+) (1... f6-g5 {(}) *\n";
    let raw = read_one(text.as_bytes());
    assert_eq!(
        raw.moves[0].after,
        [Annotation::Comment("see game 5".to_string())]
    );
    assert_eq!(raw.moves[1].after[0], Annotation::Comment("+".to_string()));
    assert_eq!(raw.moves[1].variations().count(), 1);
    assert_eq!(
        kinds(&raw),
        [
            (2, 10, WarningKind::RemarkInParentheses),
            (2, 29, WarningKind::RemarkInParentheses)
        ]
    );
    assert_eq!(replay(&raw, None).expect("replays").ply(), 2);
    // A setup inside is no remark.
    let setup = read_one(b"1. c3-d4 (/FEN \"W:W21:B5\"/ 1. a3-b4) *\n");
    let variation = setup.moves[0].variations().next().expect("a variation");
    assert_eq!(variation.intro, [Annotation::Setup("W:W21:B5".to_string())]);
}

/// The record replayed, rewritten in `form` with squares as `names` says, and written.
fn rewritten(raw: &RawGame, form: MoveForm, names: SquareNames) -> String {
    let game = replay(raw, None).expect("replays");
    let mut text = String::new();
    write_game(&mut text, &rewrite(raw, &game, form, names)).expect("write");
    text
}

#[test]
fn variations_are_converted_and_written_back() {
    let text = "[GameType \"25\"]\n1. c3-d4 f6-e5 (1... f6-g5 2. d4-c5 (2. g3-h4 b6-a5)) \
                2. d4:f6 g7:e5 *\n";
    let raw = read_one(text.as_bytes());
    let written = rewritten(&raw, MoveForm::Full, SquareNames::Numbers);
    assert!(
        written.contains("1. 22-18 11-15 (1... 11-16 2. 18-14 (2. 24-20 9-13)) 2. 18x11 8x15 *"),
        "{written}"
    );
    // Read back and turned into letters again, it is the same record.
    let round = rewritten(
        &read_one(written.as_bytes()),
        MoveForm::Full,
        SquareNames::Letters,
    );
    assert!(
        round.contains("1. c3-d4 f6-e5 (1... f6-g5 2. d4-c5 (2. g3-h4 b6-a5)) 2. d4:f6 g7:e5 *"),
        "{round}"
    );
    // Short forms reach into variations too.
    let game = replay(&raw, None).expect("replays");
    let short = rewrite(&raw, &game, MoveForm::Short, SquareNames::Letters);
    let first = short.moves[1].variations().next().expect("a variation");
    assert_eq!(first.moves[0].text, "fg5");
}

#[test]
fn convert_adds_game_type_and_keeps_the_text_of_a_bad_game() {
    let text = "[Event \"one\"]\n\n1. c3-d4 f6-e5 2. d4:f6 g7:e5 3. b2-c3 e7-f6 *\n\n\
                [Event \"two\"]\n\n1. c3-d4 {broken (} *\n\n\
                [Event \"three\"]\n\n1. c3-d4 *\n";
    let mut reader = Reader::new(text.as_bytes()).keep_text();
    let first = reader.next_game().expect("one").expect("good");
    assert_eq!(
        reader.game_text(),
        "[Event \"one\"]\n\n1. c3-d4 f6-e5 2. d4:f6 g7:e5 3. b2-c3 e7-f6 *\n"
    );
    let replayed = replay_record(&first, None).expect("Russian");
    let converted = rewrite(&first, &replayed.game, MoveForm::Full, SquareNames::Letters);
    assert_eq!(converted.tag("GameType"), Some("25"));
    let second = reader.next_game().expect("two");
    assert!(second.is_ok(), "{second:?}");
    assert_eq!(
        reader.game_text(),
        "\n[Event \"two\"]\n\n1. c3-d4 {broken (} *\n"
    );
    let bad = "[Event \"a\"]\n1. c3-d4 & *\n\n[Event \"b\"]\n1. c3-d4 *\n";
    let mut reader = Reader::new(bad.as_bytes()).keep_text();
    assert!(reader.next_game().expect("a").is_err());
    assert_eq!(reader.game_text(), "[Event \"a\"]\n1. c3-d4 & *\n\n");
    assert!(reader.next_game().expect("b").is_ok());
    assert_eq!(reader.game_text(), "[Event \"b\"]\n1. c3-d4 *\n");
}
