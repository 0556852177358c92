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

/// The moves a clock is shared out over when its control does not say how many remain.
pub const MOVES_LEFT: u32 = 30;

/// The largest share of what is left one move may ever use, as a divisor: a tenth (with few
/// moves to go before the next control, more: half of it for the last one).
pub const HARD_SHARE: u32 = 10;

/// The time to aim for and the time never to pass, for one move.
///
/// On a clock a move aims for an even share of what is left ([`MOVES_LEFT`] moves, or the
/// moves to go) plus three quarters of the increment. The search deepens while less than half
/// of that has passed (the next depth takes about as long as all before it, so the move ends
/// near the aim), and never passes one and a half times the aim, nor a tenth of what is left
/// ([`HARD_SHARE`]). At 3 + 2 the first move thus has about 3.7 s to start new depths and at
/// most 11 s in all.
///
/// Any durations are taken, however large: the arithmetic saturates rather than
/// overflowing, so absurd limits give a long budget, never a panic.
pub fn time_budget(limits: &Limits) -> (Option<Duration>, Option<Duration>) {
    time_budget_over(limits, MOVES_LEFT)
}

/// [`time_budget`] with the clock shared out over `moves_left` moves (instead of
/// [`MOVES_LEFT`]) when its control does not say how many remain.
pub fn time_budget_over(limits: &Limits, moves_left: u32) -> (Option<Duration>, Option<Duration>) {
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
        let moves = clock.moves_to_go.unwrap_or(moves_left).clamp(1, 60);
        let aim = (left / moves).saturating_add(clock.increment.saturating_mul(3) / 4);
        // Never more than a tenth of what is left (half of it for the last move before a
        // control), so that one slow move cannot cost the game.
        let cap = (left / (moves.min(HARD_SHARE - 1) + 1)).max(Duration::from_millis(1));
        let clock_hard = (aim.saturating_mul(3) / 2).min(cap);
        let clock_soft = (aim / 2).min(clock_hard);
        soft = Some(soft.map_or(clock_soft, |s| s.min(clock_soft)));
        hard = Some(hard.map_or(clock_hard, |h| h.min(clock_hard)));
    }
    (soft, hard)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn on_clock(remaining: Duration, increment: Duration, moves_to_go: Option<u32>) -> Limits {
        Limits {
            clock: Some(Clock {
                remaining,
                increment,
                moves_to_go,
            }),
            ..Limits::default()
        }
    }

    fn budget(limits: &Limits) -> (Duration, Duration) {
        let (soft, hard) = time_budget(limits);
        (soft.expect("a soft limit"), hard.expect("a hard limit"))
    }

    const fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn the_first_move_at_three_minutes_and_two_seconds_takes_a_few_seconds() {
        let (soft, hard) = budget(&on_clock(secs(180), secs(2), None));
        // About 180 s / 30 + 1.5 s = 7.5 s to aim for: deepen for half of it, stop by 11.25 s.
        assert!(
            soft >= Duration::from_millis(3_500) && soft <= secs(4),
            "{soft:?}"
        );
        assert!(
            hard >= soft * 2 && hard <= Duration::from_millis(11_250),
            "{hard:?}"
        );
        assert!(hard < secs(18), "level 8 once took 18 s here");
    }

    #[test]
    fn the_budget_follows_what_is_left_and_the_increment() {
        let (less, _) = budget(&on_clock(secs(60), Duration::ZERO, None));
        let (more, _) = budget(&on_clock(secs(120), Duration::ZERO, None));
        assert!(more > less);
        let (with_increment, _) = budget(&on_clock(secs(60), secs(4), None));
        // Three quarters of the increment are added to the aim, half of the aim to `soft`.
        assert_eq!(with_increment - less, Duration::from_millis(1_500));
        // With few moves to go the share grows.
        let (soft_30, _) = budget(&on_clock(secs(60), Duration::ZERO, Some(30)));
        let (soft_5, _) = budget(&on_clock(secs(60), Duration::ZERO, Some(5)));
        assert!(soft_5 > soft_30 * 5);
    }

    #[test]
    fn fewer_moves_left_give_each_move_more() {
        let limits = on_clock(secs(60), Duration::ZERO, None);
        assert_eq!(time_budget(&limits), time_budget_over(&limits, MOVES_LEFT));
        let (soft_30, hard_30) = budget(&limits);
        let (soft_20, hard_20) = {
            let (soft, hard) = time_budget_over(&limits, 20);
            (soft.expect("a soft limit"), hard.expect("a hard limit"))
        };
        assert!(soft_20 > soft_30 && hard_20 > hard_30);
        // A control that says how many moves remain wins over the estimate.
        let counted = on_clock(secs(60), Duration::ZERO, Some(30));
        assert_eq!(time_budget_over(&counted, 20), time_budget(&counted));
    }

    #[test]
    fn a_clock_never_gives_more_than_a_tenth_of_what_is_left() {
        for remaining in [30, 900, 5_000, 60_000, 180_000, 3_600_000] {
            for increment in [0, 100, 2_000, 30_000, 180_000] {
                let remaining = Duration::from_millis(remaining);
                let limits = on_clock(remaining, Duration::from_millis(increment), None);
                let (soft, hard) = budget(&limits);
                let left = remaining.saturating_sub(MOVE_OVERHEAD);
                assert!(
                    hard <= (left / HARD_SHARE).max(Duration::from_millis(1)),
                    "{remaining:?} + {increment} ms: {hard:?}"
                );
                assert!(soft <= hard && !hard.is_zero());
            }
        }
        // The last move before a control may use half of what is left, no more.
        let (_, hard) = budget(&on_clock(secs(10), secs(1), Some(1)));
        assert_eq!(hard, (secs(10) - MOVE_OVERHEAD) / 2);
    }

    #[test]
    fn movetime_and_clock_take_the_smaller() {
        let limits = Limits {
            movetime: Some(secs(10)),
            ..on_clock(secs(60), Duration::ZERO, Some(30))
        };
        let (soft, hard) = budget(&limits);
        assert_eq!(soft, secs(60).saturating_sub(MOVE_OVERHEAD) / 30 / 2);
        assert!(hard < secs(10));
        let (soft, hard) = budget(&Limits {
            movetime: Some(Duration::from_millis(500)),
            ..on_clock(secs(600), Duration::ZERO, None)
        });
        assert_eq!(
            (soft, hard),
            (Duration::from_millis(480), Duration::from_millis(480))
        );
        assert_eq!(time_budget(&Limits::depth(3)), (None, None));
    }

    #[test]
    fn the_largest_durations_saturate_instead_of_overflowing() {
        let limits = Limits {
            movetime: Some(Duration::MAX),
            ..on_clock(Duration::MAX, Duration::MAX, Some(1))
        };
        let (soft, hard) = budget(&limits);
        let left = Duration::MAX - MOVE_OVERHEAD;
        // The clock's half of what is left (the last move before a control) is the smaller.
        assert_eq!(hard, left / 2);
        assert_eq!(soft, left / 2);
    }
}
