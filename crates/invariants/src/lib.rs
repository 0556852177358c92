//! Invariant checks that take arbitrary bytes, one per fuzz target (see `fuzz/README.md`).
//!
//! Each check reads its input the way the project's readers do, exercises the code, and
//! panics only when an invariant of the project breaks: a position that does not read back
//! as written, a move that is not legal, a hash out of step, a game whose record does not
//! replay. Input that is merely bad must be refused with an error, never a panic, so any
//! panic here is a bug to fix. The fuzz targets in `fuzz/fuzz_targets` call these
//! functions, and `tests/regressions.rs` runs every kept input through them.
//!
//! ```
//! bashni_invariants::position_text(b"White: c3 0, e3 0; Black: d4 0; White to move");
//! bashni_invariants::random_play(&[0, 1, 2, 3, 4, 5]);
//! ```

mod bytes;
mod move_text;
mod pdn;
mod position_text;
mod protocol;
mod random_play;
mod server_messages;

pub use move_text::move_text;
pub use pdn::pdn;
pub use position_text::position_text;
pub use protocol::protocol;
pub use random_play::random_play;
pub use server_messages::server_messages;

/// A check: takes the fuzzer's bytes, panics when an invariant breaks.
pub type Check = fn(&[u8]);

/// Every check with the name of its fuzz target, in the order `scripts/fuzz.sh` runs them.
pub const CHECKS: [(&str, Check); 6] = [
    ("position_text", position_text),
    ("move_text", move_text),
    ("pdn", pdn),
    ("protocol", protocol),
    ("server_messages", server_messages),
    ("random_play", random_play),
];
