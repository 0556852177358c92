//! The position readers: the rulebook line and the compact FEN form.

use bashni_rules::notation::fen::parse_fen_setup;
use bashni_rules::notation::{
    parse_fen, parse_position, parse_setup, write_fen_with, write_position, write_setup,
};
use bashni_rules::{SquareNames, Variant};

use crate::bytes::assert_sound;

/// Reads the bytes (as UTF-8, bad sequences replaced) with both position readers, in both
/// variants. A position read must be sound, and writing it in either form (FEN in names and
/// in numbers) and reading that again must give the same position; a setup read must read
/// back the same from its text.
pub fn position_text(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    for variant in [Variant::Bashni, Variant::Russian] {
        let read = [
            parse_position(variant, &text).ok(),
            parse_fen(variant, &text).ok(),
        ];
        for position in read.into_iter().flatten() {
            assert_sound(&position);
            assert_eq!(position.variant(), variant);
            let line = write_position(&position);
            assert_eq!(
                parse_position(variant, &line).as_ref(),
                Ok(&position),
                "the position line {line:?} (from {text:?}) does not read back"
            );
            for names in [SquareNames::Letters, SquareNames::Numbers] {
                let fen = write_fen_with(&position, names);
                assert_eq!(
                    parse_fen(variant, &fen).as_ref(),
                    Ok(&position),
                    "the FEN {fen:?} (from {text:?}) does not read back"
                );
            }
        }
    }
    if let Ok(setup) = parse_setup(&text) {
        let line = write_setup(&setup);
        assert_eq!(
            parse_setup(&line).as_ref(),
            Ok(&setup),
            "the setup line {line:?} (from {text:?}) does not read back"
        );
    }
    if let Ok(setup) = parse_fen_setup(&text) {
        let line = write_setup(&setup);
        assert_eq!(
            parse_setup(&line).as_ref(),
            Ok(&setup),
            "the setup of the FEN {text:?} does not read back from {line:?}"
        );
    }
}
