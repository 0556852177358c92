//! The engine's view of a game's clocks.

use std::time::Instant;

use bashni_rules::Color;

use crate::Clock;

impl Clock {
    /// The limits `color`'s clock in a game sets at `now`: its time left and its increment
    /// (`None` when `color` has no time control).
    pub fn of_game(clock: &bashni_rules::Clock, color: Color, now: Instant) -> Option<Clock> {
        let control = clock.control(color)?;
        Some(Clock {
            remaining: clock.left(color, now)?,
            increment: control.increment,
            moves_to_go: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use bashni_rules::TimeControl;

    #[test]
    fn the_engine_sees_the_time_left_and_the_increment() {
        let t0 = Instant::now();
        let mut clock = bashni_rules::Clock::per_side(Some(TimeControl::LIGHTNING), None);
        clock.start(Color::White, t0);
        let seen = Clock::of_game(&clock, Color::White, t0 + Duration::from_secs(20));
        assert_eq!(
            seen,
            Some(Clock {
                remaining: Duration::from_secs(160),
                increment: Duration::from_secs(2),
                moves_to_go: None,
            })
        );
        assert_eq!(Clock::of_game(&clock, Color::Black, t0), None);
    }
}
