//! The `GameType` tag: which game a record is of.

use std::fmt;

use bashni_rules::Variant;

/// PDN's game type number of Russian draughts.
pub const GAME_TYPE_RUSSIAN: u32 = 25;

/// The game type number this project uses for Bashni.
///
/// PDN's table gives 0-19 to chess, 20-31 and 40-41 to draughts games, keeps 42-49 for
/// future draughts games and 50 for Othello, and leaves 51 onwards to future expansion;
/// Bashni has no number there, so the project takes 60, far from the draughts block.
pub const GAME_TYPE_BASHNI: u32 = 60;

/// The `GameType` tag value the writer of a game of this variant should use: `"25"` for
/// Russian draughts, `"60"` for Bashni.
pub const fn game_type_tag(variant: Variant) -> &'static str {
    match variant {
        Variant::Russian => "25",
        Variant::Bashni => "60",
    }
}

/// Why the variant of a game could not be told from its tags.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum GameTypeError {
    /// There is no `GameType` tag and the caller gave no default.
    Missing,
    /// The `GameType` tag names a game this project does not play; holds the tag's value.
    Unsupported(String),
}

impl fmt::Display for GameTypeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameTypeError::Missing => f.write_str(
                "no GameType tag: expected GameType \"25\" (Russian draughts) or \"60\" (Bashni)",
            ),
            GameTypeError::Unsupported(value) => write!(
                f,
                "unsupported GameType \"{value}\": expected 25 (Russian draughts) or 60 (Bashni)"
            ),
        }
    }
}

impl std::error::Error for GameTypeError {}

/// The variant named by a `GameType` value: only its first comma-separated field counts
/// (so `"25,W,8,8,A0,0"` is Russian draughts). The field may be the number (`25`, `60`) or a
/// word: `Bashni`, `Russian` or `Shashki`, in any case.
pub fn parse_game_type(value: &str) -> Result<Variant, GameTypeError> {
    let field = value.split(',').next().unwrap_or("").trim();
    let unsupported = || GameTypeError::Unsupported(value.to_string());
    if !field.is_empty() && field.bytes().all(|b| b.is_ascii_digit()) {
        match field.parse::<u32>() {
            Ok(GAME_TYPE_RUSSIAN) => Ok(Variant::Russian),
            Ok(GAME_TYPE_BASHNI) => Ok(Variant::Bashni),
            _ => Err(unsupported()),
        }
    } else {
        Variant::parse(field).ok_or_else(unsupported)
    }
}

/// The variant of a game from its tags.
///
/// Reads the first `GameType` tag (see [`parse_game_type`]). When there is none, returns
/// `default` if the caller gave one (for files that do not say, such as a player's own
/// records of one variant), and [`GameTypeError::Missing`] otherwise. A `GameType` that is
/// present but names another game is always an error, whatever the default.
pub fn variant_of(
    tags: &[(String, String)],
    default: Option<Variant>,
) -> Result<Variant, GameTypeError> {
    match tags.iter().find(|(name, _)| name == "GameType") {
        Some((_, value)) => parse_game_type(value),
        None => default.ok_or(GameTypeError::Missing),
    }
}
