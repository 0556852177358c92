//! Streaming a large file, and reading arbitrary input without panicking.

use std::fs::File;
use std::io::{BufReader, BufWriter, Write};

use bashni_pdn::{RawGame, Reader, ResultToken, write_game_io};
use proptest::prelude::*;

/// Deletes the file when the test ends, passed or failed.
struct TempFile(std::path::PathBuf);

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn streams_100000_games() {
    const GAMES: usize = 100_000;
    let path = std::env::temp_dir().join(format!("bashni-pdn-stream-{}.pdn", std::process::id()));
    let _guard = TempFile(path.clone());

    {
        let mut out = BufWriter::new(File::create(&path).expect("create the temp file"));
        let moves = ["cb4", "bc5", "ba5", "ab6", "bc3", "cb4", "a:a7", "cb6"];
        for i in 0..GAMES {
            let mut game = RawGame::from_moves(
                vec![
                    ("Event".to_string(), format!("Game {}", i + 1)),
                    ("White".to_string(), "Иванов".to_string()),
                    ("Black".to_string(), "Петров".to_string()),
                    ("GameType".to_string(), "60".to_string()),
                ],
                moves.iter().copied().take(1 + i % moves.len()),
                Some(ResultToken::ALL[i % ResultToken::ALL.len()]),
            );
            if i % 10 == 0 {
                game.moves[0]
                    .after
                    .push(bashni_pdn::Annotation::Comment(format!("comment {i}")));
            }
            write_game_io(&mut out, &game).expect("write");
        }
        out.flush().expect("flush");
    }
    let size = std::fs::metadata(&path).expect("metadata").len();
    assert!(size > 10_000_000, "the file is {size} bytes");

    // A small buffer: the reader must not need the whole file.
    let reader = Reader::new(BufReader::with_capacity(
        4096,
        File::open(&path).expect("open"),
    ));
    let mut count = 0;
    let mut moves = 0;
    for (i, game) in reader.enumerate() {
        let game = game.unwrap_or_else(|e| panic!("game {}: {e}", i + 1));
        assert_eq!(game.number, i + 1);
        assert_eq!(game.moves.len(), 1 + i % 8);
        assert_eq!(game.result, Some(ResultToken::ALL[i % 8]));
        if i % 9_999 == 0 {
            assert_eq!(game.tag("Event"), Some(format!("Game {}", i + 1).as_str()));
        }
        count += 1;
        moves += game.moves.len();
    }
    assert_eq!(count, GAMES);
    assert_eq!(moves, (0..GAMES).map(|i| 1 + i % 8).sum::<usize>());
}

/// Reads everything, checking that the reader ends and every item is sane.
fn read_everything(bytes: &[u8]) {
    let mut reader = Reader::new(bytes);
    let mut items = 0;
    while let Some(item) = reader.next_game() {
        items += 1;
        assert!(items <= bytes.len() + 1, "the reader does not end");
        match item {
            Ok(game) => assert_eq!(game.number, items),
            Err(error) => {
                assert_eq!(error.game(), items);
                assert!(error.line() >= 1 && error.column() >= 1);
                assert!(!error.to_string().is_empty());
            }
        }
    }
    assert!(reader.next_game().is_none());
}

const PDN_CHARS: &[char] = &[
    '[', ']', '"', '\\', '{', '}', '(', ')', ';', '%', '$', '!', '?', '*', '.', ' ', '\n', '\n',
    '\r', '\t', 'a', 'c', 'h', 'x', 'D', '1', '2', '0', '9', '-', ':', '/', 'E', 'Ж',
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        read_everything(&bytes);
    }

    #[test]
    fn pdn_like_text_never_panics(
        chars in prop::collection::vec(prop::sample::select(PDN_CHARS), 0..400)
    ) {
        let text: String = chars.into_iter().collect();
        read_everything(text.as_bytes());
    }
}
