//! Reading the command line's positions and variants.

use bashni_rules::notation::{parse_fen, parse_position};
use bashni_rules::{Position, Variant};

/// The game, as given by `--variant`.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum VariantArg {
    /// Tower checkers.
    Bashni,
    /// Russian draughts (shashki).
    Russian,
}

impl From<VariantArg> for Variant {
    fn from(arg: VariantArg) -> Variant {
        match arg {
            VariantArg::Bashni => Variant::Bashni,
            VariantArg::Russian => Variant::Russian,
        }
    }
}

/// Reads a position given either in the rulebook notation or in the compact FEN form.
pub fn read_position(variant: Variant, text: &str) -> Result<Position, String> {
    let trimmed = text.trim();
    if trimmed.eq_ignore_ascii_case("start") {
        return Ok(Position::start(variant));
    }
    let looks_like_fen = matches!(trimmed.get(..2), Some("W:" | "B:" | "w:" | "b:"));
    if looks_like_fen {
        parse_fen(variant, trimmed).map_err(|e| e.to_string())
    } else {
        parse_position(variant, trimmed).map_err(|e| e.to_string())
    }
}
