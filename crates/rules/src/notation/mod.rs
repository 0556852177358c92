//! Reading and writing the rulebooks' notation of positions and moves, and the compact
//! position form used in PDN's `FEN` tag.

pub mod fen;
pub mod move_text;
pub mod position_text;

pub use fen::{FenError, parse_fen, write_fen};
pub use move_text::{
    IllegalReason, MoveText, MoveTextError, parse_move, write_full_marked, write_short,
};
pub use position_text::{
    PositionTextError, parse_position, parse_setup, write_position, write_setup,
};
