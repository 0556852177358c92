//! The engine of Bashni and Russian draughts.
//!
//! [`Engine`] searches a position within [`Limits`] (depth, nodes, time per move, or a
//! clock with increment) on one or more threads, and reports each completed depth through a
//! callback as [`Info`]. The evaluation ([`eval`]) is made for towers and its weights are
//! fitted to game results. [`Level`]s make it a fair opponent for people. The engine does no
//! input or output; the `bashni` program's protocol and commands translate for it.
//!
//! ```
//! use bashni_engine::{Engine, Limits, Options, Past};
//! use bashni_rules::{Position, Variant};
//!
//! let engine = Engine::new(Options::default());
//! let start = Position::start(Variant::Bashni);
//! let result = engine.search(&start, &Past::default(), &Limits::depth(4), |_| {});
//! assert!(start.legal_moves().contains(&result.best.unwrap()));
//! ```

pub mod bench;
mod engine;
pub mod eval;
mod game_clock;
pub mod level;
pub mod limits;
pub mod past;
pub mod patterns;
pub mod rng;
pub mod score;
pub mod search;
pub mod time;
pub mod tt;

pub use engine::{Engine, Info, Options, SearchResult};
pub use eval::{Feature, Weights};
pub use level::Level;
pub use limits::{Limits, StopToken};
pub use past::Past;
pub use score::{Score, Value};
pub use search::SearchParams;
pub use time::{Clock, MOVE_OVERHEAD, time_budget, time_budget_over};
