//! Reading and writing the rulebooks' notation of positions and moves, and the compact
//! position form used in PDN's `FEN` tag.

pub mod fen;
pub mod move_text;
pub mod position_text;

use std::fmt;

use crate::position::{Position, Variant};

pub use fen::{FenError, parse_fen, write_fen, write_fen_with};
pub use move_text::{
    IllegalReason, LenientMove, MoveText, MoveTextError, parse_move, parse_move_lenient,
    write_full, write_full_marked, write_short, write_short_with,
};
pub use position_text::{
    PositionTextError, parse_position, parse_setup, write_position, write_setup,
};

/// Why [`read_position`] could not read a text.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ReadPositionError {
    /// The text starts like FEN (`W:` or `B:`) and is not a good FEN position.
    Fen(FenError),
    /// The text is not a good position in the rulebook's notation.
    Text(PositionTextError),
}

impl fmt::Display for ReadPositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadPositionError::Fen(error) => error.fmt(f),
            ReadPositionError::Text(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for ReadPositionError {}

/// Reads a position written in any form the project accepts: `start` (any case) for the
/// usual start of `variant`, the compact FEN form when the text starts with `W:` or `B:`
/// (either case), and otherwise the rulebook's notation in one line or in its printed form.
/// Blanks around the text are ignored.
///
/// ```
/// use bashni_rules::notation::{read_position, write_position};
/// use bashni_rules::{Position, Variant};
///
/// let start = Position::start(Variant::Russian);
/// assert_eq!(read_position(Variant::Russian, " Start "), Ok(start));
/// let text = "White: c3 0; Black: f6 0; White to move";
/// let fen = "W:Wc3:Bf6";
/// assert_eq!(read_position(Variant::Russian, fen), read_position(Variant::Russian, text));
/// assert_eq!(write_position(&read_position(Variant::Russian, fen).unwrap()), text);
/// ```
pub fn read_position(variant: Variant, text: &str) -> Result<Position, ReadPositionError> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("start") {
        return Ok(Position::start(variant));
    }
    if matches!(text.get(..2), Some("W:" | "B:" | "w:" | "b:")) {
        parse_fen(variant, text).map_err(ReadPositionError::Fen)
    } else {
        parse_position(variant, text).map_err(ReadPositionError::Text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_reads_the_same_position() {
        let variant = Variant::Bashni;
        let rulebook = "White: a1 0, c1 1/0000; Black: b8 110101/1; White to move";
        let fen = "W:Wa1,c1=1/0000:Bb8=110101/1";
        let from_text = read_position(variant, rulebook).expect("rulebook text");
        assert_eq!(read_position(variant, fen), Ok(from_text));
        assert_eq!(read_position(variant, &format!("  {fen}\n")), Ok(from_text));
        assert_eq!(
            read_position(variant, "START"),
            Ok(Position::start(variant))
        );
    }

    #[test]
    fn errors_name_the_form_that_was_tried() {
        let variant = Variant::Russian;
        assert!(matches!(
            read_position(variant, "W:Wz9"),
            Err(ReadPositionError::Fen(_))
        ));
        assert!(matches!(
            read_position(variant, "White: z9 0; White to move"),
            Err(ReadPositionError::Text(_))
        ));
        assert!(matches!(
            read_position(variant, ""),
            Err(ReadPositionError::Text(_))
        ));
    }
}
