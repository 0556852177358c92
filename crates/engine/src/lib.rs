//! The engine of Bashni and Russian draughts.
//!
//! [`Engine`] searches a position within [`Limits`] (depth, nodes, time per move, or a
//! clock with increment) on one or more threads, and reports each completed depth through a
//! callback as [`Info`]. The evaluation ([`eval`]) is made for towers and its weights are
//! fitted to game results. [`Level`]s make it a fair opponent for people. The engine does no
//! input or output; the `bashni` program's protocol and commands translate for it.
//!
//! ```
//! use bashni_engine::{Engine, Limits, Options};
//! use bashni_rules::{Position, Variant};
//! use bashni_engine::search::History;
//!
//! let engine = Engine::new(Options::default());
//! let start = Position::start(Variant::Bashni);
//! let result = engine.search(&start, &History::default(), &Limits::depth(4), |_| {});
//! assert!(start.legal_moves().contains(&result.best.unwrap()));
//! ```

pub mod bench;
mod engine;
pub mod eval;
pub mod level;
pub mod rng;
pub mod score;
pub mod search;
pub mod tt;
pub mod tune;

pub use engine::{
    Clock, Engine, Info, Limits, MOVE_OVERHEAD, Options, SearchResult, history_of, time_budget,
};
pub use eval::{Feature, Weights};
pub use level::Level;
pub use score::{Score, Value};
