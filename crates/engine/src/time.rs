//! Time management: how much of a clock one move may use.

use std::time::Duration;

use crate::limits::Limits;

/// A clock as the search sees it: time left, and what each move adds.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Clock {
    /// Time left on the side to move's clock.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves until the next time control, if the control has one.
    pub moves_to_go: Option<u32>,
}

/// Time kept back from every budget for the program around the engine to answer.
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(20);

/// The time to aim for and the time never to pass, for one move.
///
/// Any durations are taken, however large: the arithmetic saturates rather than
/// overflowing, so absurd limits give a long budget, never a panic.
pub fn time_budget(limits: &Limits) -> (Option<Duration>, Option<Duration>) {
    let mut soft: Option<Duration> = None;
    let mut hard: Option<Duration> = None;
    if let Some(time) = limits.movetime {
        let time = time
            .saturating_sub(MOVE_OVERHEAD)
            .max(Duration::from_millis(1));
        soft = Some(time);
        hard = Some(time);
    }
    if let Some(clock) = limits.clock {
        let left = clock.remaining.saturating_sub(MOVE_OVERHEAD);
        let moves = clock.moves_to_go.unwrap_or(30).clamp(1, 60);
        let base = (left / moves).saturating_add(clock.increment.saturating_mul(3) / 4);
        // Never more than a third of what is left, so that a slow move cannot lose on time.
        let cap = (left / 3).max(Duration::from_millis(1));
        let clock_hard = base.saturating_mul(3).min(cap);
        let clock_soft = base.min(clock_hard);
        soft = Some(soft.map_or(clock_soft, |s| s.min(clock_soft)));
        hard = Some(hard.map_or(clock_hard, |h| h.min(clock_hard)));
    }
    (soft, hard)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_never_gives_more_than_a_third_of_what_is_left() {
        let limits = Limits {
            clock: Some(Clock {
                remaining: Duration::from_millis(900),
                increment: Duration::from_secs(5),
                moves_to_go: None,
            }),
            ..Limits::default()
        };
        let (soft, hard) = time_budget(&limits);
        let (soft, hard) = (soft.expect("a soft limit"), hard.expect("a hard limit"));
        assert!(hard <= (Duration::from_millis(900) - MOVE_OVERHEAD) / 3);
        assert!(soft <= hard);
    }

    #[test]
    fn movetime_and_clock_take_the_smaller() {
        let limits = Limits {
            movetime: Some(Duration::from_secs(10)),
            clock: Some(Clock {
                remaining: Duration::from_secs(60),
                increment: Duration::ZERO,
                moves_to_go: Some(30),
            }),
            ..Limits::default()
        };
        let (soft, hard) = time_budget(&limits);
        assert_eq!(
            soft,
            Some(Duration::from_secs(60).saturating_sub(MOVE_OVERHEAD) / 30)
        );
        assert!(hard.expect("a hard limit") < Duration::from_secs(10));
        assert_eq!(time_budget(&Limits::depth(3)), (None, None));
    }

    #[test]
    fn the_largest_durations_saturate_instead_of_overflowing() {
        let limits = Limits {
            movetime: Some(Duration::MAX),
            clock: Some(Clock {
                remaining: Duration::MAX,
                increment: Duration::MAX,
                moves_to_go: Some(1),
            }),
            ..Limits::default()
        };
        let (soft, hard) = time_budget(&limits);
        let left = Duration::MAX - MOVE_OVERHEAD;
        // The clock's third of what is left is the smaller limit.
        assert_eq!(hard, Some(left / 3));
        assert_eq!(soft, Some(left / 3));
    }
}
