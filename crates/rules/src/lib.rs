//! The rules of Bashni (tower checkers) and of its parent game, Russian draughts.
//!
//! This crate knows the board, the towers, every legal move of both games, the rulebooks'
//! notation and the course of a game. It does no input or output of its own.
//!
//! ```
//! use bashni_rules::{Position, Variant, perft};
//!
//! let start = Position::start(Variant::Bashni);
//! assert_eq!(start.legal_moves().len(), 7);
//! assert_eq!(perft(&start, 3), 302);
//! ```

pub mod clock;
pub mod draw;
pub mod game;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod position;
pub mod square;
pub mod tower;

pub use clock::{BaseUnit, Clock, TimeControl, TimeControlError};
pub use draw::DrawCounts;
pub use game::{Game, GameError, GameResult, Outcome, Reason};
pub use moves::{MAX_CAPTURES, Move, MoveList};
pub use perft::perft;
pub use position::{Position, PositionError, Setup, Variant};
pub use square::{Bitboard, Direction, Square, SquareError, SquareNames, WrittenSquare};
pub use tower::{Checker, Color, Tower};
