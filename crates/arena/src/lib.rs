//! Matches between players of Bashni and Russian draughts: `bashni match`.
//!
//! * [`Player`] is anything that chooses moves: [`BuiltinPlayer`] (the engine at a level,
//!   with limits and weights of its own), [`MaterialPlayer`] (a plain 2-ply material search,
//!   the baseline) and, outside this crate, external programs (a `Box<dyn Player + Send>`).
//! * [`play_game`] plays one game from an opening with real clocks, automatic draws and a
//!   maximum length ([`DEFAULT_MAX_PLIES`] plies, then a draw).
//! * [`run_match`] plays every opening twice, once with each player as White, several
//!   games at once, and reports each game in order with the running [`Tally`]; an [`Sprt`]
//!   can stop it early. [`GameReport::to_pdn`] makes the record of a game.
//! * [`stats`] has the formulas: score, Elo difference and its 95% interval, SPRT.
//! * [`openings`] has the shipped balanced openings and the generator that made them.
//! * [`spec`] reads players as the command line gives them.
//!
//! ```
//! use std::sync::Arc;
//! use bashni_arena::{MatchConfig, MaterialPlayer, Player, PlayerFactory, openings, run_match};
//! use bashni_rules::Variant;
//!
//! let openings = openings::shipped(Variant::Russian).unwrap();
//! let mut config = MatchConfig::new(Variant::Russian, openings, 1);
//! config.max_plies = 20;
//! let player = |seed| -> PlayerFactory {
//!     Arc::new(move || Ok(Box::new(MaterialPlayer::new(seed)) as Box<dyn Player + Send>))
//! };
//! let summary = run_match(&config, player(1), player(2), |_, _| Ok(())).unwrap();
//! assert_eq!(summary.tally.games(), 2);
//! ```

pub mod openings;
mod play;
mod player;
mod runner;
pub mod spec;
pub mod stats;

pub use bashni_engine::rng::{Rng, mix, splitmix};
pub use play::{DEFAULT_MAX_PLIES, GameSettings, PlayedGame, Termination, play_game};
pub use player::{BuiltinPlayer, MATCH_HASH_MB, MaterialPlayer, Player, PlayerError, material};
pub use runner::{GameReport, MatchConfig, MatchError, MatchSummary, PlayerFactory, run_match};
pub use spec::{PlayerKind, PlayerSpec, WeightsChoice};
pub use stats::{EloEstimate, GameScore, Sprt, SprtDecision, Tally};
