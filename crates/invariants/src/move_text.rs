//! The move reader.

use bashni_rules::notation::{
    parse_fen, parse_move, parse_position, write_full, write_full_marked, write_short_with,
};
use bashni_rules::{Game, Position, SquareNames};

use crate::bytes::{Bytes, assert_sound, game_after, variant};

/// The first byte chooses the variant (bit 0) and where the position comes from (bit 1):
/// either a few legal moves from the start (as many as the second byte says, modulo 16,
/// chosen by the bytes after it), or a position written on the first line of the rest.
/// The remaining text is read as a move of that position: if it reads, the move must be one
/// of the legal moves. Every legal move must also read back from its full form (in names
/// and in numbers), its marked full form and its shortest abbreviation (in names and in
/// numbers).
pub fn move_text(data: &[u8]) {
    let mut bytes = Bytes::new(data);
    let first = bytes.byte();
    let variant = variant(first);
    let (position, text) = if first & 2 == 0 {
        let plies = usize::from(bytes.byte() % 16);
        let game: Game = game_after(variant, plies, &mut bytes);
        (
            *game.position(),
            String::from_utf8_lossy(bytes.rest()).into_owned(),
        )
    } else {
        let text = String::from_utf8_lossy(bytes.rest()).into_owned();
        let (line, mv) = text.split_once('\n').unwrap_or((&text, ""));
        let position = match parse_position(variant, line)
            .or_else(|_| parse_fen(variant, line).map_err(|_| ()))
        {
            Ok(position) => position,
            Err(_) => return,
        };
        (position, mv.to_string())
    };
    check_moves(&position, &text);
}

fn check_moves(position: &Position, text: &str) {
    assert_sound(position);
    let legal = position.legal_moves();
    if let Ok(mv) = parse_move(position, text) {
        assert!(
            legal.contains(&mv),
            "{text:?} reads as {mv}, which is not a legal move of {position:?}"
        );
    }
    assert_eq!(position.count_moves(), legal.len());
    assert_eq!(
        position.has_capture(),
        legal.iter().any(|mv| mv.is_capture())
    );
    for mv in legal.iter() {
        if position.has_capture() {
            assert!(
                mv.is_capture(),
                "{mv}: a quiet move while a capture is possible"
            );
        }
        let full = mv.to_string();
        assert_eq!(
            parse_move(position, &full).as_ref(),
            Ok(mv),
            "the full form {full} does not read back"
        );
        let marked = write_full_marked(position, mv);
        assert_eq!(
            parse_move(position, &marked).as_ref(),
            Ok(mv),
            "the marked form {marked} does not read back"
        );
        let numbered = write_full(mv, SquareNames::Numbers);
        assert_eq!(
            parse_move(position, &numbered).as_ref(),
            Ok(mv),
            "the numbered form {numbered} does not read back"
        );
        for names in [SquareNames::Letters, SquareNames::Numbers] {
            let short = write_short_with(position, mv, names);
            let read = parse_move(position, &short);
            assert!(
                read.as_ref()
                    .is_ok_and(|found| found.same_result(mv, position.variant())),
                "the short form {short} of {mv} reads as {read:?}"
            );
        }
    }
}
