//! Reading and writing the rulebooks' notation of positions and moves.

pub mod position_text;

pub use position_text::{PositionTextError, parse_position, parse_setup, write_position, write_setup};
