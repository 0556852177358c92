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
    MoveTextError, parse_move_lenient, read_position, write_fen, write_fen_with, write_full,
    write_short_with,
};
use bashni_rules::{Color, Game, GameError, Move, Position, SquareNames, Variant};

use crate::game::{Annotation, RawGame, RawMove, ResultToken};
use crate::game_type::{GameTypeError, game_type_tag, variant_of};
use crate::warning::{Warning, WarningKind};

/// How moves are written.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveForm {
    /// Every landing square: `c3-b4`, `a3:c5:e7`.
    Full,
    /// The abbreviated score where it is unambiguous: `cb4`, `a:a7`.
    Short,
}

/// The name of a game as errors and reports give it: "Russian draughts" or "Bashni".
pub const fn game_name(variant: Variant) -> &'static str {
    match variant {
        Variant::Russian => "Russian draughts",
        Variant::Bashni => "Bashni",
    }
}

/// Where in a record a move stands.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MovePlace {
    /// The game's number in its file (1-based).
    pub game: usize,
    /// The game whose rules the record was replayed under.
    pub variant: Variant,
    /// Whether the move is in a variation rather than in the game itself.
    pub in_variation: bool,
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
        let within = if self.in_variation {
            ", in a variation"
        } else {
            ""
        };
        write!(
            f,
            "game {} ({}){within}, move {}{dots} {} (line {}, column {})",
            self.game,
            game_name(self.variant),
            self.number,
            self.text,
            self.line,
            self.column
        )
    }
}

/// Why replaying stopped before the end of a record that is not wrong.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum StopReason {
    /// The move is not known (written `-`).
    UnknownMove,
    /// A position is set up after this move (PDN 3.0 `/.../`), so the moves after it do not
    /// follow from the moves before.
    Setup,
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StopReason::UnknownMove => "the move is not known; replay stops here",
            StopReason::Setup => "a position is set up after this move; replay stops here",
        })
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
        /// The game whose rules the position was read under.
        variant: Variant,
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
    /// Replaying stopped at a move that is not wrong but cannot be played on: the game
    /// before it is good.
    Stopped {
        /// Where the move stands.
        place: MovePlace,
        /// Why it stopped.
        reason: StopReason,
    },
    /// The record has no `GameType` and replays under neither game's rules; both errors,
    /// the one that got further first.
    NoGameFits {
        /// The game's number in its file.
        game: usize,
        /// The error of the game whose rules took the record further.
        further: Box<ReplayError>,
        /// The error of the other game.
        other: Box<ReplayError>,
    },
}

impl ReplayError {
    /// The number of the game in its file.
    pub fn game(&self) -> usize {
        match self {
            ReplayError::GameType { game, .. }
            | ReplayError::Fen { game, .. }
            | ReplayError::NoGameFits { game, .. } => *game,
            ReplayError::Move { place, .. }
            | ReplayError::AfterEnd { place, .. }
            | ReplayError::Stopped { place, .. } => place.game,
        }
    }

    /// Where in the file the error is, as (line, column); (0, 0) when it is not at a move.
    fn reached(&self) -> (usize, usize) {
        match self {
            ReplayError::Move { place, .. }
            | ReplayError::AfterEnd { place, .. }
            | ReplayError::Stopped { place, .. } => (place.line, place.column),
            _ => (0, 0),
        }
    }
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::GameType { game, error } => write!(f, "game {game}: {error}"),
            ReplayError::Fen {
                game,
                variant,
                value,
                error,
            } => write!(
                f,
                "game {game} ({}): FEN \"{value}\": {error}",
                game_name(*variant)
            ),
            ReplayError::Move { place, error } => write!(f, "{place}: {error}"),
            ReplayError::AfterEnd { place, error } => write!(f, "{place}: {error}"),
            ReplayError::Stopped { place, reason } => write!(f, "{place}: {reason}"),
            ReplayError::NoGameFits {
                game,
                further,
                other,
            } => write!(
                f,
                "game {game}: no GameType, and the record replays under neither game's rules: \
                 {further}; and {other}"
            ),
        }
    }
}

impl std::error::Error for ReplayError {}

/// How the game of a record was chosen.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum VariantSource {
    /// From its `GameType` tag.
    Tag,
    /// The record has no `GameType`; the caller's default was used.
    Default,
    /// The record has no `GameType` and replays only under this game's rules.
    OnlyFit,
    /// The record has no `GameType` and replays under both games' rules; Russian draughts
    /// was taken, as records without the tag are nearly always of that game.
    BothFit,
}

/// A record replayed by the rules, with what was read leniently.
#[derive(Clone, Debug)]
pub struct Replayed {
    /// The game, played as far as the record goes (or up to [`Replayed::stop`]).
    pub game: Game,
    /// How its game was chosen.
    pub source: VariantSource,
    /// Everything read leniently, in the order of the file: the reader's warnings of the
    /// record ([`RawGame::warnings`]) and the moves read leniently
    /// ([`WarningKind::CaptureWrittenQuiet`]).
    pub warnings: Vec<Warning>,
    /// Replaying stopped early at a move that is not wrong ([`ReplayError::Stopped`]).
    pub stop: Option<ReplayError>,
}

impl Replayed {
    /// Why the game was chosen, when the record did not say: "no GameType; read as Russian
    /// draughts: replays only under its rules". `None` when the `GameType` tag said.
    pub fn variant_reason(&self) -> Option<String> {
        let name = game_name(self.game.variant());
        let why = match self.source {
            VariantSource::Tag => return None,
            VariantSource::Default => "as asked",
            VariantSource::OnlyFit => "replays only under its rules",
            VariantSource::BothFit => {
                "replays under both games' rules, and records without GameType are \
                 nearly always Russian draughts"
            }
        };
        let sep = if self.source == VariantSource::Default {
            " "
        } else {
            ": "
        };
        Some(format!("no GameType; read as {name}{sep}{why}"))
    }
}

/// The starting position a record names in its `FEN` tag, or the usual start.
pub fn start_position(raw: &RawGame, variant: Variant) -> Result<Position, ReplayError> {
    let Some(value) = raw.tag("FEN") else {
        return Ok(Position::start(variant));
    };
    // The rulebook notation is taken too: some records give their start position in it.
    read_position(variant, value).map_err(|error| ReplayError::Fen {
        game: raw.number,
        variant,
        value: value.to_string(),
        error: error.to_string(),
    })
}

/// Replays `raw` by the rules. `default` is the variant for a record without `GameType`;
/// without a default such a record is tried as each game (see [`replay_record`]). A record
/// that stops early ([`ReplayError::Stopped`]) is an error here.
pub fn replay(raw: &RawGame, default: Option<Variant>) -> Result<Game, ReplayError> {
    let replayed = replay_record(raw, default)?;
    match replayed.stop {
        Some(stop) => Err(stop),
        None => Ok(replayed.game),
    }
}

/// Replays `raw` by the rules, variations included, and says how.
///
/// * The game is the one its `GameType` names. Without the tag it is `default` when one is
///   given; otherwise the record is replayed as each game and the one it replays under is
///   taken (Russian draughts when both fit), and [`Replayed::variant_reason`] says so. When
///   neither fits, the error is [`ReplayError::NoGameFits`] with both games' errors.
/// * Every move is read as a legal move; a capture written as a quiet move (`d6-b4`, `bd6`)
///   is read when only one capture fits it, with a warning.
/// * Each variation is replayed from the position before the move it follows, to any
///   depth; a bad move in a variation is an error like one in the game.
/// * `-` (a move not known) or a position set up in the movetext ends the replay there:
///   the game before it is kept and [`Replayed::stop`] says where and why.
pub fn replay_record(raw: &RawGame, default: Option<Variant>) -> Result<Replayed, ReplayError> {
    match variant_of(&raw.tags, default) {
        Ok(variant) => {
            let source = if raw.tag("GameType").is_some() {
                VariantSource::Tag
            } else {
                VariantSource::Default
            };
            replay_as(raw, variant, source)
        }
        Err(GameTypeError::Missing) => {
            let russian = replay_as(raw, Variant::Russian, VariantSource::OnlyFit);
            let bashni = replay_as(raw, Variant::Bashni, VariantSource::OnlyFit);
            match (russian, bashni) {
                (Ok(mut russian), Ok(_)) => {
                    russian.source = VariantSource::BothFit;
                    Ok(russian)
                }
                (Ok(one), Err(_)) | (Err(_), Ok(one)) => Ok(one),
                (Err(russian), Err(bashni)) => {
                    let (further, other) = if bashni.reached() > russian.reached() {
                        (bashni, russian)
                    } else {
                        (russian, bashni)
                    };
                    Err(ReplayError::NoGameFits {
                        game: raw.number,
                        further: Box::new(further),
                        other: Box::new(other),
                    })
                }
            }
        }
        Err(error) => Err(ReplayError::GameType {
            game: raw.number,
            error,
        }),
    }
}

/// Replays `raw` as a game of `variant`.
fn replay_as(
    raw: &RawGame,
    variant: Variant,
    source: VariantSource,
) -> Result<Replayed, ReplayError> {
    let mut game = Game::new(start_position(raw, variant)?);
    let mut warnings = raw.warnings.clone();
    // Russian counts are applied automatically by the game; Bashni claims stay claims, as
    // the record goes on until the players stopped.
    let stop = play_line(raw.number, &mut game, &raw.moves, false, &mut warnings)?;
    warnings.sort_by_key(|warning| (warning.line, warning.column));
    Ok(Replayed {
        game,
        source,
        warnings,
        stop,
    })
}

/// Plays `moves` on `game`, checking the variations after each move from the position
/// before it. Returns where replaying stopped early, if it did.
fn play_line(
    number: usize,
    game: &mut Game,
    moves: &[RawMove],
    in_variation: bool,
    warnings: &mut Vec<Warning>,
) -> Result<Option<ReplayError>, ReplayError> {
    for token in moves {
        let place = place_of(number, game, token, in_variation);
        if token.is_unknown() {
            return Ok(Some(ReplayError::Stopped {
                place,
                reason: StopReason::UnknownMove,
            }));
        }
        for variation in token.variations() {
            let mut other = game.clone();
            // A variation may itself stop early; that ends only the variation.
            play_line(number, &mut other, &variation.moves, true, warnings)?;
        }
        let read = parse_move_lenient(game.position(), &token.text).map_err(|error| {
            ReplayError::Move {
                place: place.clone(),
                error,
            }
        })?;
        if read.capture_written_quiet {
            warnings.push(Warning {
                line: token.line,
                column: token.column,
                kind: WarningKind::CaptureWrittenQuiet {
                    written: token.text.clone(),
                    read: read.mv.to_string(),
                },
            });
        }
        game.play(&read.mv).map_err(|error| ReplayError::AfterEnd {
            place: place.clone(),
            error,
        })?;
        if token
            .after
            .iter()
            .any(|a| matches!(a, Annotation::Setup(_)))
        {
            return Ok(Some(ReplayError::Stopped {
                place,
                reason: StopReason::Setup,
            }));
        }
    }
    Ok(None)
}

/// Where a move of a line stands; `game` is at the position before it.
fn place_of(number: usize, game: &Game, token: &RawMove, in_variation: bool) -> MovePlace {
    let color = token.color.unwrap_or(game.side_to_move());
    // Counted from the game's start when the record gave no number.
    let fallback = || u32::try_from(game.move_number(game.ply())).unwrap_or(u32::MAX);
    MovePlace {
        game: number,
        variant: game.variant(),
        in_variation,
        number: token.number.unwrap_or_else(fallback),
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

/// `raw` with every move rewritten in `form` and with squares written as `names` says,
/// variations too; a `FEN` tag is written again in the compact form with the same squares,
/// a `GameType` tag is added when the record had none, and the other tags, comments and
/// result are kept. `game` must be the replay of `raw` (see [`replay_record`]): moves after
/// a stop, and any that cannot be read, are kept as written.
pub fn rewrite(raw: &RawGame, game: &Game, form: MoveForm, names: SquareNames) -> RawGame {
    let mut out = raw.clone();
    let mut replay = Game::new(*game.start_position());
    rewrite_line(&mut replay, &mut out.moves, form, names);
    if out.tag("FEN").is_some() {
        out.set_tag("FEN", write_fen_with(game.start_position(), names));
    }
    if out.tag("GameType").is_none() {
        out.set_tag("GameType", game_type_tag(game.variant()));
    }
    out
}

/// Rewrites the moves of a line played on `game`, and of its variations.
fn rewrite_line(game: &mut Game, moves: &mut [RawMove], form: MoveForm, names: SquareNames) {
    for token in moves {
        if token.is_unknown() {
            return;
        }
        for annotation in &mut token.after {
            if let Annotation::Variation(variation) = annotation {
                rewrite_line(&mut game.clone(), &mut variation.moves, form, names);
            }
        }
        let Ok(read) = parse_move_lenient(game.position(), &token.text) else {
            return;
        };
        let text = move_text(game.position(), &read.mv, form, names);
        if game.play(&read.mv).is_err() {
            return;
        }
        token.text = text;
        if token
            .after
            .iter()
            .any(|a| matches!(a, Annotation::Setup(_)))
        {
            return;
        }
    }
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
