//! Endgame databases of Russian draughts, built by the project itself.
//!
//! For every material with few pieces (a *slice*: so many white men and kings against so
//! many black men and kings) the tables hold, for each position and either side to move,
//! whether the side to move wins, draws or loses with best play, and in how many plies the
//! game ends when the winner hurries and the loser holds out. With the distance an engine
//! makes progress: winning, it moves to the position lost soonest for the opponent
//! ([`Tablebase::best_move`]).
//!
//! The moves are the project's own ([`bashni_rules`]); a side with no pieces or no move has
//! lost. The values ignore the drawing counts of the rulebook (6.1.8: fifteen moves with three
//! kings against one, the big road, the king-only counts...): they say what the board alone
//! allows. An engine applies the counts in its search on top of them.
//!
//! - [`build`] solves the slices of up to N pieces into a directory, one file per slice
//!   (format in [`file`]), fewer pieces first and, with as many pieces, fewer men first, so
//!   that every capture and promotion leads into a slice already solved. Slices already there
//!   and sound are kept, so an interrupted build goes on where it stopped.
//! - [`Tablebase::open`] loads a directory; [`Tablebase::probe`] gives a position's
//!   [`Probe`] (result and distance); [`Tablebase::ranked_moves`] orders the moves.
//! - [`Tablebase::verify`] checks every stored value against the values of the positions its
//!   moves lead to.
//!
//! Nothing here prints; building and checking report through callbacks.
//!
//! # Size and time on a small machine
//!
//! Measured with one thread on a shared machine of two cores (release build):
//!
//! | pieces | slices | positions | build time | peak memory | on disk |
//! | --- | --- | --- | --- | --- | --- |
//! | 2 | - | - | - | - | - |
//!
//! ```
//! use bashni_egtb::{Tablebase, Verdict, build};
//! use bashni_rules::{Variant, notation::parse_position};
//!
//! let dir = std::env::temp_dir().join(format!("egtb-doc-{}", std::process::id()));
//! build(&dir, 2, |_| {}).unwrap();
//! let tables = Tablebase::open(&dir).unwrap();
//! let kings = parse_position(Variant::Russian, "White: c1 1; Black: h8 1; White to move").unwrap();
//! assert_eq!(tables.probe(&kings).unwrap().verdict, Verdict::Draw);
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```

mod build;
pub mod file;
mod index;
mod solve;
mod table;
mod value;

pub use build::{BuildEvent, SliceReport, build, build_slices};
pub use file::{EgtbError, file_name};
pub use index::{MAX_PIECES, Signature};
pub use table::{Counts, Mismatch, Tablebase, VerifyReport};
pub use value::{LONGEST_LOSS, LONGEST_WIN, Probe, Verdict};
