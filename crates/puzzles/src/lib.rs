//! Tactics puzzles of Bashni and Russian draughts.
//!
//! A [`Puzzle`] is a position where the side to move has exactly one move that wins or gains
//! decisively, with the whole forced line that follows: the solver's moves, each the only
//! good one, and the opponent's best replies. [`mine`] finds puzzles in the positions of a
//! played game with the engine (and the endgame tables, where they cover a position) and
//! says why it rejects each other position; [`theme`] names what a line does (a sacrifice,
//! freeing prisoners, a king taken off a tower's top, ...); [`check`] verifies a puzzle
//! again, deeper and independently of the miner's decisions.
//!
//! This crate does no input or output: the `bashni puzzles` command reads games and writes
//! puzzles, and the server stores and serves them.

pub mod check;
pub mod material;
pub mod mine;
mod puzzle;
pub mod theme;

pub use check::{CheckOptions, Finding, check_puzzle};
pub use mine::{Examined, MineOptions, Miner, Rejection, Seen};
pub use puzzle::{Puzzle, PuzzleError, puzzle_id, read_puzzles};
pub use theme::Theme;
