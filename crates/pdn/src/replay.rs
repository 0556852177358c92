//! Between PDN records and games played by the rules.
//!
//! [`replay`] turns a [`RawGame`] into a [`Game`]: it takes the variant from `GameType`, the
//! start from `FEN` (the compact form of `bashni_rules::notation::fen`, or the rulebook's
//! one-line notation), and reads every move token as a legal move. The first move that
//! cannot be read or is not legal stops it, with the game number, the move number and the
//! line and column of the token. [`record`] does the opposite: it writes a [`Game`] as a
//! [`RawGame`] with its moves in full or abbreviated form, and [`rewrite`] writes a record's
//! moves again, also with numbered squares (`22-18`) for programs that want them.

use std::fmt;

use bashni_rules::notation::{
    MoveTextError, parse_move, read_position, write_fen, write_fen_with, write_full,
    write_short_with,
};
use bashni_rules::{Color, Game, GameError, Move, Position, SquareNames, Variant};

use crate::game::{RawGame, RawMove, ResultToken};
use crate::game_type::{GameTypeError, game_type_tag};

/// How moves are written.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveForm {
    /// Every landing square: `c3-b4`, `a3:c5:e7`.
    Full,
    /// The abbreviated score where it is unambiguous: `cb4`, `a:a7`.
    Short,
}

/// Where in a record a move stands.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MovePlace {
    /// The game's number in its file (1-based).
    pub game: usize,
    /// The move number (a move of White and Black's reply share one).
    pub number: u32,
    /// Whose move it is.
    pub color: Color,
    /// The move as written.
    pub text: String,
    /// Line of the token (1-based).
    pub line: usize,
    /// Column of the token (1-based, in characters).
    pub column: usize,
}

impl fmt::Display for MovePlace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dots = if self.color == Color::White {
            "."
        } else {
            "..."
        };
        write!(
            f,
            "game {}, move {}{dots} {} (line {}, column {})",
            self.game, self.number, self.text, self.line, self.column
        )
    }
}

/// Why a record could not be replayed.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ReplayError {
    /// The `GameType` tag is missing (and no default was given) or names another game.
    GameType {
        /// The game's number in its file.
        game: usize,
        /// What is wrong with the tag.
        error: GameTypeError,
    },
    /// The `FEN` tag cannot be read as a position.
    Fen {
        /// The game's number in its file.
        game: usize,
        /// The tag's value.
        value: String,
        /// What is wrong with it.
        error: String,
    },
    /// A move cannot be read, is ambiguous, or is not legal.
    Move {
        /// Where the move stands.
        place: MovePlace,
        /// What is wrong with it.
        error: MoveTextError,
    },
    /// A move comes after the game was already over by the rules.
    AfterEnd {
        /// Where the move stands.
        place: MovePlace,
        /// How the game had ended.
        error: GameError,
    },
}

impl ReplayError {
    /// The number of the game in its file.
    pub fn game(&self) -> usize {
        match self {
            ReplayError::GameType { game, .. } | ReplayError::Fen { game, .. } => *game,
            ReplayError::Move { place, .. } | ReplayError::AfterEnd { place, .. } => place.game,
        }
    }
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::GameType { game, error } => write!(f, "game {game}: {error}"),
            ReplayError::Fen { game, value, error } => {
                write!(f, "game {game}: FEN \"{value}\": {error}")
            }
            ReplayError::Move { place, error } => write!(f, "{place}: {error}"),
            ReplayError::AfterEnd { place, error } => write!(f, "{place}: {error}"),
        }
    }
}

impl std::error::Error for ReplayError {}

/// The starting position a record names in its `FEN` tag, or the usual start.
pub fn start_position(raw: &RawGame, variant: Variant) -> Result<Position, ReplayError> {
    let Some(value) = raw.tag("FEN") else {
        return Ok(Position::start(variant));
    };
    // The rulebook notation is taken too: some records give their start position in it.
    read_position(variant, value).map_err(|error| ReplayError::Fen {
        game: raw.number,
        value: value.to_string(),
        error: error.to_string(),
    })
}

/// Replays `raw` by the rules. `default` is the variant for a record without `GameType`.
pub fn replay(raw: &RawGame, default: Option<Variant>) -> Result<Game, ReplayError> {
    let variant = raw
        .variant(default)
        .map_err(|error| ReplayError::GameType {
            game: raw.number,
            error,
        })?;
    let mut game = Game::new(start_position(raw, variant)?);
    // Russian counts are applied automatically by the game; Bashni claims stay claims, as
    // the record goes on until the players stopped.
    for (ply, token) in raw.moves.iter().enumerate() {
        let place = place_of(raw, &game, ply, token);
        let mv = parse_move(game.position(), &token.text).map_err(|error| ReplayError::Move {
            place: place.clone(),
            error,
        })?;
        game.play(&mv)
            .map_err(|error| ReplayError::AfterEnd { place, error })?;
    }
    Ok(game)
}

fn place_of(raw: &RawGame, game: &Game, ply: usize, token: &RawMove) -> MovePlace {
    let color = token.color.unwrap_or(game.side_to_move());
    MovePlace {
        game: raw.number,
        number: token
            .number
            .unwrap_or_else(|| u32::try_from(game.move_number(ply)).unwrap_or(u32::MAX)),
        color,
        text: token.text.clone(),
        line: token.line,
        column: token.column,
    }
}

/// A move of `position` written in `form`, with squares written as `names` says.
fn move_text(position: &Position, mv: &Move, form: MoveForm, names: SquareNames) -> String {
    match form {
        MoveForm::Full => write_full(mv, names),
        MoveForm::Short => write_short_with(position, mv, names),
    }
}

/// `raw` with every move rewritten in `form` and with squares written as `names` says;
/// a `FEN` tag is written again in the compact form with the same squares, the other tags,
/// comments and result are kept. `game` must be the replay of `raw`.
pub fn rewrite(raw: &RawGame, game: &Game, form: MoveForm, names: SquareNames) -> RawGame {
    let mut out = raw.clone();
    for ((token, mv), position) in out.moves.iter_mut().zip(game.moves()).zip(game.positions()) {
        token.text = move_text(position, mv, form, names);
    }
    if out.tag("FEN").is_some() {
        out.set_tag("FEN", write_fen_with(game.start_position(), names));
    }
    out
}

/// Writes `game` as a record: the given tags, then `GameType`, `FEN` (when the game did not
/// start from the usual start) and `Result`, and the moves in `form`.
pub fn record(game: &Game, tags: &[(String, String)], form: MoveForm) -> RawGame {
    let result = ResultToken::of(game.outcome().map(|outcome| outcome.result));
    let mut tags: Vec<(String, String)> = tags
        .iter()
        .filter(|(name, _)| !matches!(name.as_str(), "GameType" | "FEN" | "Result"))
        .cloned()
        .collect();
    tags.push(("Result".into(), result.token().into()));
    tags.push(("GameType".into(), game_type_tag(game.variant()).into()));
    let start = game.start_position();
    if *start != Position::start(game.variant()) {
        tags.push(("FEN".into(), write_fen(start)));
    }
    let texts: Vec<String> = game
        .moves()
        .iter()
        .zip(game.positions())
        .map(|(mv, position)| move_text(position, mv, form, SquareNames::Letters))
        .collect();
    let mut raw = RawGame::from_moves(tags, texts, Some(result));
    let mut color = start.side_to_move();
    for (ply, token) in raw.moves.iter_mut().enumerate() {
        token.number = Some(u32::try_from(game.move_number(ply)).unwrap_or(u32::MAX));
        token.color = Some(color);
        color = color.opponent();
    }
    raw
}
