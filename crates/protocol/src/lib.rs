//! The Bashni engine protocol: line-based text in the style of the Hub protocol of
//! international-draughts engines, extended to 8x8 boards, towers and two variants.
//! `docs/protocol.md` is its full description.
//!
//! Both sides live here, and neither touches the standard input or output of its program:
//!
//! - [`Session`] is the engine side: it takes one line at a time (or reads them from a
//!   stream it is given, [`Session::serve`]), drives a [`bashni_engine::Engine`] (searching
//!   on a thread of its own, so that `stop` and `ping` are answered while it thinks) and
//!   hands every line it says to a callback.
//! - [`ExternalEngine`] is the other side: it starts a program that speaks the protocol,
//!   does the handshake and asks it for moves, with timeouts so that a hung or crashed
//!   program gives an error.
//! - [`Line`] is the syntax both share, and [`SearchInfo`] the contents of an `info` line.
//! - [`LineReader`] reads the lines of a stream, skipping those longer than
//!   [`MAX_LINE_BYTES`] without holding them in memory; both sides read through it.
//!
//! ```
//! use bashni_engine::{Engine, Options};
//! use bashni_protocol::Session;
//! use std::time::Duration;
//!
//! let options = Options { hash_mb: 1, ..Options::default() };
//! let (mut session, output) = Session::channel(Engine::new(options));
//! session.handle("pos pos=start");
//! session.handle("level depth=3");
//! session.handle("go think");
//! let done = loop {
//!     let line = output.recv_timeout(Duration::from_secs(30)).expect("an answer");
//!     if line.starts_with("done") {
//!         break line;
//!     }
//! };
//! assert!(done.starts_with("done move="));
//! ```

mod client;
mod info;
mod line;
mod reader;
mod session;

pub use client::{ClientError, ExternalEngine, Timeouts};
pub use info::{SearchInfo, parse_score, write_score};
pub use line::{Line, SyntaxError};
pub use reader::{LineReader, LineTooLong, MAX_LINE_BYTES};
pub use session::{Flow, Session};
