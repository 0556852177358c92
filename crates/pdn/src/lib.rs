//! Game records in PDN (Portable Draughts Notation) for Bashni and Russian draughts.
//!
//! PDN is the draughts form of chess's PGN: a game is a section of tag pairs
//! (`[Event "..."]`) followed by movetext (`1. c3-b4 b6-c5 2. ... 1-0`). This crate reads
//! and writes that text; it does not apply the rules.
//!
//! * [`Reader`] streams games one at a time out of any [`std::io::BufRead`], in constant
//!   memory, and gives each as a [`RawGame`]: the tags in order, the move tokens with their
//!   line and column, comments, NAGs, variations and the result. A bad game yields a
//!   [`PdnError`] with its game number, line and column, and the reader goes on with the
//!   next game.
//! * Replaying is a separate step: each [`RawMove::text`] is turned into a legal move with
//!   `bashni_rules::notation::parse_move(&position, text)`, and a failure is reported at the
//!   move's [`RawMove::line`] and [`RawMove::column`].
//! * [`write_game`] writes a [`RawGame`] back as PDN, and reading the output gives the same
//!   game.
//! * [`variant_of`] tells the variant from the `GameType` tag.
//! * [`replay`] plays a record by the rules into a `bashni_rules::Game`, stopping at the
//!   first bad move with its place; [`replay_record`] also checks the variations, finds the
//!   game of a record without `GameType` and gives what it read leniently; [`record`] and
//!   [`rewrite`] write games back with their moves in full or abbreviated form.
//! * Records as archives write them are read where their meaning is unique, each with a
//!   [`Warning`] that gives its place: other encodings ([`TextEncoding`]), captures written
//!   with a dash, tag names in another case, free text before a game, PDN 3.0 setups; `-`
//!   is a move not known ([`UNKNOWN_MOVE`]). Variations are move trees ([`Variation`]).
//! * [`load_game`] and [`game_number`] pick one game of a file by its number and replay it.
//!
//! # GameType
//!
//! PDN names the game in the `GameType` tag, whose first comma-separated field is a number
//! from PDN's table. Russian draughts is **25** (`[GameType "25"]`, or in full
//! `"25,W,8,8,A0,0"`). Bashni has no number in the table (20-31 and 40-41 are draughts games,
//! 42-49 are kept for more draughts games, 50 is Othello), so this project uses **60**
//! ([`GAME_TYPE_BASHNI`]; in full `"60,W,8,8,A0,0"`). The reader also takes the words
//! `Bashni`, `Russian` and `Shashki` (any case) in that field. [`variant_of`] takes a default
//! for records without the tag, or `None` to require it.
//!
//! ```
//! use bashni_pdn::{Reader, ResultToken, variant_of};
//! use bashni_rules::{GameResult, Variant};
//!
//! let pdn = "[GameType \"60\"]\n\n1. cb4 bc5 2. ba5 ab6 1-0\n\n\
//!            [GameType \"25\"]\n\n1. ed4 dc5 0-1\n";
//! let games: Vec<_> = Reader::new(pdn.as_bytes()).collect::<Result<_, _>>().unwrap();
//! assert_eq!(games.len(), 2);
//! assert_eq!(variant_of(&games[0].tags, None), Ok(Variant::Bashni));
//! assert_eq!(variant_of(&games[1].tags, None), Ok(Variant::Russian));
//! assert_eq!(games[1].moves[1].text, "dc5");
//! assert_eq!(games[1].result, Some(ResultToken::Score(GameResult::BlackWins)));
//! ```

mod date;
mod encoding;
mod error;
mod game;
mod game_type;
mod load;
mod reader;
mod replay;
mod warning;
mod writer;

pub use date::{date_tag, date_tag_of_ms};
pub use encoding::TextEncoding;
pub use error::{Location, PdnError};
pub use game::{Annotation, RawGame, RawMove, ResultToken, UNKNOWN_MOVE, UnknownResult, Variation};
pub use game_type::{
    GAME_TYPE_BASHNI, GAME_TYPE_RUSSIAN, GameTypeError, game_type_tag, parse_game_type, variant_of,
};
pub use load::{GameNumberError, LoadError, LoadedGame, game_number, load_game};
pub use reader::{MAX_LINE_BYTES, Reader, tag_spelling};
pub use replay::{
    MoveForm, MovePlace, ReplayError, Replayed, StopReason, VariantSource, game_name, record,
    replay, replay_record, rewrite, start_position,
};
pub use warning::{Warning, WarningKind};
pub use writer::{
    HEADER_ORDER, LINE_WIDTH, clean_annotations, clean_comment, ordered_tags, write_game,
    write_game_io,
};
