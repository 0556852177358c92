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
//!   (format in [`mod@file`]), fewer pieces first and, with as many pieces, fewer men first, so
//!   that every capture and promotion leads into a slice already solved. Slices already there
//!   and sound are kept, so an interrupted build goes on where it stopped.
//! - [`Tablebase::open`] loads a directory whole; [`Tablebase::open_on_demand`] keeps it on
//!   disk and reads each slice when a probe first needs it (on a thread of its own: the
//!   probe does not wait), within a bound on memory, dropping the slices used least
//!   recently to make room; [`Tablebase::probe`] gives a position's
//!   [`Probe`] (result and distance); [`Tablebase::ranked_moves`] orders the moves.
//! - [`Tablebase::verify`] checks every stored value against the values of the positions its
//!   moves lead to.
//!
//! Nothing here prints; building and checking report through callbacks.
//!
//! # Size and time on a small machine
//!
//! `bashni egtb build --pieces N` from an empty directory, release build, one thread (before
//! building used every core), on a
//! machine of two cores shared with running engine matches (load about 6), 23 GB of memory;
//! time and peak memory as `/usr/bin/time -v` gives them:
//!
//! | pieces | slices | positions | build time | peak memory | on disk | verify |
//! | --- | --- | --- | --- | --- | --- | --- |
//! | 2 | 4 | 6,976 | 0.05 s | 17 MB | 5.8 KB | - |
//! | 3 | 16 | 399,040 | 0.26 s | 21 MB | 72 KB | - |
//! | 4 | 41 | 12,817,672 | 11.5 s | 46 MB | 2.8 MB | - |
//! | 5 | 85 | 291,719,288 | 5 min 9 s | 363 MB | 75 MB | 6 min 57 s, 355 MB |
//!
//! About a million positions a second (0.94 million for five pieces). The longest win of five
//! pieces takes 109 plies. Memory is one byte per position of every slice held (all of them,
//! while building) plus two bytes per position of the slice being solved.
//!
//! Six pieces, `bashni egtb build --pieces 6` from an empty directory on both cores
//! (`--threads 2`, the default there), three runs on the same machine: 155 slices of up to six
//! pieces, 5,143,890,640 positions, the longest win 170 plies, 1,543,417,146 bytes on disk
//! (1.54 GB), the same counts each time. Time: median 56 min 43 s (53 min 37 s .. 1 h 1 min 11
//! s; the first two had a compile at the lowest priority beside them, the third none); peak
//! memory 5.45 GiB (5,707,036 .. 5,712,316 KB), about 1.5 million positions a second. Each slice is solved
//! by all the threads together: the first look at every position is split between them, and
//! so is each pass after it, a pass deciding only wins or only losses so that the threads
//! never write the same thing differently; the files are byte for byte those of one thread.
//! Loaded whole ([`Tablebase::open`]) every slice is in memory, so
//! six-piece tables need that much memory; [`Tablebase::open_on_demand`] holds only the slices
//! the searches use, within the bound it is given (`bashni serve --egtb-memory`). Tables are
//! shared by all the engines of a program. Seven pieces (79 billion positions) are out of reach of
//! this machine's memory.
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
mod on_demand;
mod parallel;
mod solve;
mod table;
mod value;

pub use build::{
    BuildEvent, SliceReport, build, build_slices, build_with_threads, default_threads,
};
pub use file::{EgtbError, file_name};
pub use index::{MAX_PIECES, Signature};
pub use table::{Counts, Mismatch, Tablebase, VerifyReport};
pub use value::{LONGEST_LOSS, LONGEST_WIN, Probe, Verdict};
