//! One game of a PDN file, picked by its number and replayed by the rules.

use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::{Path, PathBuf};

use bashni_rules::{Game, Variant};

use crate::error::PdnError;
use crate::game::RawGame;
use crate::reader::Reader;
use crate::replay::{ReplayError, replay};

/// A game of a file: the record as written, and the game it replays to.
#[derive(Clone, Debug)]
pub struct LoadedGame {
    /// The record: tags, moves as written, comments and result.
    pub raw: RawGame,
    /// The record played by the rules.
    pub game: Game,
}

/// Why game `number` of a PDN text could not be had.
#[derive(Debug)]
pub enum GameNumberError {
    /// Games are counted from 1; 0 was asked for.
    ZeroNumber,
    /// The file could not be opened.
    Open(io::Error),
    /// The text holds fewer games.
    NoSuchGame {
        /// The number asked for.
        number: usize,
        /// How many games the text holds.
        games: usize,
    },
    /// The game, or the text before it, could not be read.
    Read(Box<PdnError>),
    /// The game was read but cannot be replayed by the rules.
    Replay(Box<ReplayError>),
}

impl fmt::Display for GameNumberError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameNumberError::ZeroNumber => {
                f.write_str("games are counted from 1; there is no game 0")
            }
            GameNumberError::Open(error) => error.fmt(f),
            GameNumberError::NoSuchGame { number, games } => {
                let held = match games {
                    0 => "no game".to_string(),
                    1 => "1 game".to_string(),
                    n => format!("{n} games"),
                };
                write!(f, "there is no game {number}: the file holds {held}")
            }
            GameNumberError::Read(error) => error.fmt(f),
            GameNumberError::Replay(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for GameNumberError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            GameNumberError::Open(error) => Some(error),
            GameNumberError::Read(error) => Some(error.as_ref()),
            GameNumberError::Replay(error) => Some(error.as_ref()),
            GameNumberError::ZeroNumber | GameNumberError::NoSuchGame { .. } => None,
        }
    }
}

/// Game `number` (counted from 1, every game of the text counting, good or bad) of a PDN
/// text, replayed; `default` is the variant of a record without a `GameType` tag (see
/// [`crate::variant_of`]).
///
/// ```
/// use bashni_pdn::{GameNumberError, game_number};
///
/// let pdn = "[GameType \"25\"]\n1. c3-d4 f6-e5 *\n\n[GameType \"25\"]\n1. e3-f4 *\n";
/// let second = game_number(pdn.as_bytes(), 2, None).unwrap();
/// assert_eq!(second.game.moves()[0].to_string(), "e3-f4");
/// let third = game_number(pdn.as_bytes(), 3, None).unwrap_err();
/// assert_eq!(third.to_string(), "there is no game 3: the file holds 2 games");
/// ```
pub fn game_number(
    input: impl BufRead,
    number: usize,
    default: Option<Variant>,
) -> Result<LoadedGame, GameNumberError> {
    if number == 0 {
        return Err(GameNumberError::ZeroNumber);
    }
    let mut games = 0;
    for read in Reader::new(input) {
        games += 1;
        if games == number {
            let raw = read.map_err(|e| GameNumberError::Read(Box::new(e)))?;
            let game = replay(&raw, default).map_err(|e| GameNumberError::Replay(Box::new(e)))?;
            return Ok(LoadedGame { raw, game });
        }
        if let Err(error @ PdnError::Io { .. }) = read {
            return Err(GameNumberError::Read(Box::new(error)));
        }
    }
    Err(GameNumberError::NoSuchGame { number, games })
}

/// Why game `number` of a PDN file could not be had: the file and what went wrong.
#[derive(Debug)]
pub struct LoadError {
    /// The file.
    pub path: PathBuf,
    /// What went wrong.
    pub error: GameNumberError,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.error {
            GameNumberError::Open(error) => {
                write!(f, "cannot open {}: {error}", self.path.display())
            }
            error => write!(f, "{}: {error}", self.path.display()),
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// Game `number` (counted from 1) of the PDN file at `path`, replayed; see [`game_number`].
/// The error names the file.
pub fn load_game(
    path: &Path,
    number: usize,
    default: Option<Variant>,
) -> Result<LoadedGame, LoadError> {
    let fail = |error| LoadError {
        path: path.to_path_buf(),
        error,
    };
    if number == 0 {
        return Err(fail(GameNumberError::ZeroNumber));
    }
    let file = File::open(path).map_err(|e| fail(GameNumberError::Open(e)))?;
    game_number(BufReader::new(file), number, default).map_err(fail)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO_GAMES: &str = "[GameType \"25\"]\n1. c3-d4 f6-e5 2. d4:f6 g7:e5 *\n\n\
                             [GameType \"60\"]\n1. c3-b4 *\n";

    #[test]
    fn picks_and_replays_the_numbered_game() {
        let first = game_number(TWO_GAMES.as_bytes(), 1, None).expect("game 1");
        assert_eq!(first.game.variant(), Variant::Russian);
        assert_eq!(first.game.ply(), 4);
        assert_eq!(first.raw.number, 1);
        let second = game_number(TWO_GAMES.as_bytes(), 2, None).expect("game 2");
        assert_eq!(second.game.variant(), Variant::Bashni);
        assert_eq!(second.raw.moves[0].text, "c3-b4");
    }

    #[test]
    fn says_clearly_what_is_missing() {
        let zero = game_number(TWO_GAMES.as_bytes(), 0, None).expect_err("no game 0");
        assert!(matches!(zero, GameNumberError::ZeroNumber));
        let third = game_number(TWO_GAMES.as_bytes(), 3, None).expect_err("two games");
        assert_eq!(
            third.to_string(),
            "there is no game 3: the file holds 2 games"
        );
        let empty = game_number(&b""[..], 1, None).expect_err("no game");
        assert_eq!(
            empty.to_string(),
            "there is no game 1: the file holds no game"
        );
        let bad = game_number("1. c3-c5 *\n".as_bytes(), 1, Some(Variant::Russian))
            .expect_err("c3-c5 is no move");
        assert!(matches!(bad, GameNumberError::Replay(_)), "{bad}");
        let missing =
            load_game(Path::new("/nonexistent/games.pdn"), 1, None).expect_err("no such file");
        assert!(matches!(missing.error, GameNumberError::Open(_)));
        assert!(
            missing
                .to_string()
                .starts_with("cannot open /nonexistent/games.pdn: "),
            "{missing}"
        );
        let third = load_game(Path::new("/nonexistent/games.pdn"), 0, None).expect_err("0");
        assert_eq!(
            third.to_string(),
            "/nonexistent/games.pdn: games are counted from 1; there is no game 0"
        );
    }
}
