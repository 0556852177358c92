//! The server's time. It is the machine's, moved forward by whatever was asked of
//! [`Time::advance`]: tests move it to see a clock run out, a player count as gone or a
//! deadline pass, without waiting for it. A server in use never moves it.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, Instant};

/// The time one server goes by (cloned, the copies share how far it was moved).
#[derive(Clone, Debug, Default)]
pub struct Time {
    /// How far ahead of the machine's time this time is (ms).
    ahead_ms: Arc<AtomicI64>,
}

impl Time {
    /// Now, for clocks and waits.
    pub fn now(&self) -> Instant {
        Instant::now() + self.ahead()
    }

    /// Now in ms since 1970, for stored times and deadlines.
    pub fn now_ms(&self) -> i64 {
        crate::game::round::now_ms().saturating_add(self.ahead_ms.load(Ordering::Relaxed))
    }

    /// Moves this time `by` forward, for every copy of it.
    pub fn advance(&self, by: Duration) {
        let by = i64::try_from(by.as_millis()).unwrap_or(i64::MAX);
        self.ahead_ms.fetch_add(by, Ordering::Relaxed);
    }

    fn ahead(&self) -> Duration {
        Duration::from_millis(u64::try_from(self.ahead_ms.load(Ordering::Relaxed)).unwrap_or(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_move_together_and_never_back() {
        let time = Time::default();
        let copy = time.clone();
        let before = copy.now_ms();
        time.advance(Duration::from_secs(60));
        assert!(copy.now_ms() >= before + 60_000);
        assert!(copy.now() >= Instant::now() + Duration::from_secs(59));
    }
}
