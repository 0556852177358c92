//! When a search stops: a depth, a node count, a time per move, a clock, or a word from
//! outside through a [`StopToken`].

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::time::Clock;

/// Stops one search from another thread.
///
/// Each search gets its own token through [`Limits::stop`]; a token once stopped stays
/// stopped, so a stop that comes before the search begins is not lost. Clones share the
/// same flag.
#[derive(Clone, Debug, Default)]
pub struct StopToken(Arc<AtomicBool>);

impl StopToken {
    /// A token that has not been stopped.
    pub fn new() -> StopToken {
        StopToken::default()
    }

    /// Stops every search that holds this token (or a clone of it).
    pub fn stop(&self) {
        self.0.store(true, Ordering::Release);
    }

    /// Whether [`StopToken::stop`] was called.
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Acquire)
    }
}

impl PartialEq for StopToken {
    /// Two tokens are equal when they are clones of each other.
    fn eq(&self, other: &StopToken) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for StopToken {}

/// When to stop searching. With none set, the search goes on until stopped.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Limits {
    /// Search at most this deep (plies, captures beyond it not counted); a depth above
    /// [`Limits::MAX_DEPTH`] searches that deep.
    pub depth: Option<u32>,
    /// Search at most this many nodes.
    pub nodes: Option<u64>,
    /// Use at most this much time for the move.
    pub movetime: Option<Duration>,
    /// Share out the time of a clock.
    pub clock: Option<Clock>,
    /// Stop when this token is stopped.
    pub stop: Option<StopToken>,
    /// Search as if the engine had no endgame tables (see [`crate::Engine::set_tablebase`]):
    /// the weaker levels play endings by their own search, as people do.
    pub without_tables: bool,
}

impl Limits {
    /// The deepest search there is: a larger [`Limits::depth`] searches this deep.
    pub const MAX_DEPTH: u32 = crate::search::MAX_PLY as u32 - 8;

    /// Only a depth.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Only a time per move.
    pub fn movetime(time: Duration) -> Limits {
        Limits {
            movetime: Some(time),
            ..Limits::default()
        }
    }

    /// Only a node count.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// These limits, also stopped by `token`.
    pub fn with_stop(self, token: StopToken) -> Limits {
        Limits {
            stop: Some(token),
            ..self
        }
    }

    /// Whether the search ends by itself (a depth, node or time limit), without a stop.
    pub fn is_bounded(&self) -> bool {
        self.depth.is_some()
            || self.nodes.is_some()
            || self.movetime.is_some()
            || self.clock.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_stops_its_clones_and_stays_stopped() {
        let token = StopToken::new();
        let clone = token.clone();
        let other = StopToken::new();
        assert_eq!(token, clone);
        assert_ne!(token, other);
        clone.stop();
        assert!(token.is_stopped());
        assert!(token.is_stopped(), "still stopped");
        assert!(!other.is_stopped());
    }

    #[test]
    fn bounded_limits() {
        assert!(!Limits::default().is_bounded());
        assert!(!Limits::default().with_stop(StopToken::new()).is_bounded());
        assert!(Limits::depth(3).is_bounded());
        assert!(Limits::nodes(3).is_bounded());
    }
}
