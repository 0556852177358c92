//! Time controls and the clocks of a game.
//!
//! A [`TimeControl`] is the time each side has for the whole game and the time added after
//! each of its moves; the Russian draughts rulebook's recommended controls (6.1.9) are named
//! constants. A [`Clock`] keeps both sides' time during a game: which side's clock runs,
//! the time left, the increment after a move and the fall of the flag.
//!
//! Nothing here reads the system clock: every method that needs the time takes an
//! [`Instant`] from the caller.
//!
//! ```
//! use std::time::{Duration, Instant};
//! use bashni_rules::{Clock, Color, TimeControl};
//!
//! assert_eq!(TimeControl::parse_minutes("3+2"), Ok(TimeControl::LIGHTNING));
//! assert_eq!(TimeControl::parse_seconds("10+0.1").map(|tc| tc.to_string()), Ok("10+0.1".into()));
//!
//! let start = Instant::now();
//! let mut clock = Clock::new(Some(TimeControl::LIGHTNING));
//! clock.start(Color::White, start);
//! clock.moved(start + Duration::from_secs(10));
//! assert_eq!(clock.stored(Color::White), Some(Duration::from_secs(172)));
//! assert_eq!(clock.running(), Some(Color::Black));
//! ```

use std::fmt;
use std::time::{Duration, Instant};

use crate::Color;

/// The longest base time a control may give: ten hours.
pub const MAX_BASE: Duration = Duration::from_secs(600 * 60);

/// The longest increment a control may give: ten minutes.
pub const MAX_INCREMENT: Duration = Duration::from_secs(600);

/// A time control: the time each side has for the game, and the time added after each of
/// its moves. Both are whole milliseconds.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct TimeControl {
    /// Time on each side's clock at the start.
    pub base: Duration,
    /// Time added to a side's clock after each of its moves.
    pub increment: Duration,
}

/// The unit of the base time in a written time control `B+I` (the increment `I` is always
/// in seconds).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BaseUnit {
    /// `B` in minutes, as people write controls: `3+2` is 3 minutes plus 2 seconds a move.
    Minutes,
    /// `B` in seconds, as engine matches and PDN's `TimeControl` tag write them: `10+0.1`.
    Seconds,
}

/// Why a written time control or its numbers were refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum TimeControlError {
    /// A part of the text is not a number.
    NotANumber {
        /// The part that is not a number.
        part: String,
        /// The unit the base time was read in.
        unit: BaseUnit,
    },
    /// The base time is not above 0, or longer than [`MAX_BASE`].
    BaseOutOfRange,
    /// The increment is below 0, or longer than [`MAX_INCREMENT`].
    IncrementOutOfRange,
}

impl fmt::Display for TimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControlError::NotANumber {
                part,
                unit: BaseUnit::Minutes,
            } => write!(
                f,
                "`{part}` is not a number: expected minutes+seconds, like 3+2"
            ),
            TimeControlError::NotANumber {
                part,
                unit: BaseUnit::Seconds,
            } => write!(
                f,
                "`{part}` is not a number of seconds: expected seconds+seconds, like 10+0.1"
            ),
            TimeControlError::BaseOutOfRange => write!(
                f,
                "the base time must be above 0 and at most {} minutes",
                MAX_BASE.as_secs() / 60
            ),
            TimeControlError::IncrementOutOfRange => write!(
                f,
                "the increment must be 0 to {} seconds",
                MAX_INCREMENT.as_secs()
            ),
        }
    }
}

impl std::error::Error for TimeControlError {}

/// `seconds` as a duration in whole milliseconds, if it is a finite number from 0 to `most`.
fn duration_of(seconds: f64, most: Duration) -> Option<Duration> {
    if !seconds.is_finite() || seconds < 0.0 || seconds > most.as_secs_f64() {
        return None;
    }
    Some(Duration::from_millis((seconds * 1000.0).round() as u64))
}

impl TimeControl {
    /// Rulebook 001, 6.1.9.1: the recommended control of classical Russian draughts,
    /// 20 minutes plus 30 seconds a move.
    pub const CLASSICAL: TimeControl = TimeControl::minutes_plus_seconds(20, 30);
    /// Rulebook 001, 6.1.9.2: rapid play, 8 minutes plus 4 seconds a move.
    pub const RAPID_8_4: TimeControl = TimeControl::minutes_plus_seconds(8, 4);
    /// Rulebook 001, 6.1.9.2: rapid play, 7 minutes plus 5 seconds a move.
    pub const RAPID_7_5: TimeControl = TimeControl::minutes_plus_seconds(7, 5);
    /// Rulebook 001, 6.1.9.3: lightning play, 3 minutes plus 2 seconds a move.
    pub const LIGHTNING: TimeControl = TimeControl::minutes_plus_seconds(3, 2);

    /// The rulebook's recommended controls, longest first, with their names in the
    /// minutes+seconds form people write (`20+30`).
    pub const RULEBOOK: [(&'static str, TimeControl); 4] = [
        ("20+30", TimeControl::CLASSICAL),
        ("8+4", TimeControl::RAPID_8_4),
        ("7+5", TimeControl::RAPID_7_5),
        ("3+2", TimeControl::LIGHTNING),
    ];

    /// A control of `minutes` for the game and `seconds` added a move.
    pub const fn minutes_plus_seconds(minutes: u64, seconds: u64) -> TimeControl {
        TimeControl {
            base: Duration::from_secs(minutes * 60),
            increment: Duration::from_secs(seconds),
        }
    }

    /// A control from numbers: a base time in `unit`s and an increment in seconds, both
    /// rounded to whole milliseconds. The base must be above 0 and at most [`MAX_BASE`], the
    /// increment from 0 to [`MAX_INCREMENT`].
    pub fn from_numbers(
        base: f64,
        unit: BaseUnit,
        increment_seconds: f64,
    ) -> Result<TimeControl, TimeControlError> {
        let base_seconds = match unit {
            BaseUnit::Minutes => base * 60.0,
            BaseUnit::Seconds => base,
        };
        let base = duration_of(base_seconds, MAX_BASE)
            .filter(|d| !d.is_zero())
            .ok_or(TimeControlError::BaseOutOfRange)?;
        let increment = duration_of(increment_seconds, MAX_INCREMENT)
            .ok_or(TimeControlError::IncrementOutOfRange)?;
        Ok(TimeControl { base, increment })
    }

    /// Reads `B+I` or `B` alone (no increment): the base `B` in `unit`s and the increment
    /// `I` in seconds, decimals allowed (`0.5+1`, `10+0.1`).
    pub fn parse(text: &str, unit: BaseUnit) -> Result<TimeControl, TimeControlError> {
        let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
        let number = |part: &str| -> Result<f64, TimeControlError> {
            part.trim()
                .parse::<f64>()
                .ok()
                .filter(|n| n.is_finite())
                .ok_or_else(|| TimeControlError::NotANumber {
                    part: part.trim().to_string(),
                    unit,
                })
        };
        TimeControl::from_numbers(number(base)?, unit, number(increment)?)
    }

    /// Reads `MIN+SEC`, as `bashni play --time` takes it: `3+2` is 3 minutes and 2 seconds a
    /// move, `5` is 5 minutes without increment.
    pub fn parse_minutes(text: &str) -> Result<TimeControl, TimeControlError> {
        TimeControl::parse(text, BaseUnit::Minutes)
    }

    /// Reads `SEC+SEC`, as `bashni match --tc` takes it: `10+0.1` is 10 seconds and 0.1 s a
    /// move, `60` is one minute without increment.
    pub fn parse_seconds(text: &str) -> Result<TimeControl, TimeControlError> {
        TimeControl::parse(text, BaseUnit::Seconds)
    }

    /// The value of PDN's `TimeControl` tag: seconds plus seconds, as [`fmt::Display`]
    /// writes it.
    pub fn pdn_tag(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for TimeControl {
    /// Seconds plus seconds, as PDN's `TimeControl` tag and `--tc` write it: `180+2`,
    /// `10+0.1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}+{}",
            self.base.as_secs_f64(),
            self.increment.as_secs_f64()
        )
    }
}

/// Both sides' clocks in a game.
///
/// Each side has a time control, or none (its clock counts nothing: [`Clock::left`] says
/// `None`). At most one clock runs: the side to move's, started with [`Clock::start`].
/// [`Clock::moved`] charges the mover the time since its start, adds its increment and starts
/// the other side's clock. A side whose time is down to zero while its clock runs has lost on
/// time ([`Clock::flagged`]); the clock does not end the game itself.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Clock {
    /// White's and Black's controls.
    controls: [Option<TimeControl>; 2],
    /// Each side's time left when its clock last stopped (or at the start).
    left: [Duration; 2],
    /// The running clock and when it started.
    running: Option<(Color, Instant)>,
}

impl Clock {
    /// Both sides with the same control (`None`: a game without clocks); stopped.
    pub fn new(control: Option<TimeControl>) -> Clock {
        Clock::per_side(control, control)
    }

    /// Each side with its own control; stopped.
    pub fn per_side(white: Option<TimeControl>, black: Option<TimeControl>) -> Clock {
        let controls = [white, black];
        Clock {
            controls,
            left: controls.map(|c| c.map_or(Duration::ZERO, |c| c.base)),
            running: None,
        }
    }

    /// `color`'s time control.
    pub fn control(&self, color: Color) -> Option<TimeControl> {
        self.controls[color.index()]
    }

    /// Whether either side has a time control.
    pub fn is_timed(&self) -> bool {
        self.controls.iter().any(Option::is_some)
    }

    /// The side whose clock runs.
    pub fn running(&self) -> Option<Color> {
        self.running.map(|(color, _)| color)
    }

    /// The time `color` has at `now`, counting its clock if it runs (never below zero);
    /// `None` when `color` has no control.
    pub fn left(&self, color: Color, now: Instant) -> Option<Duration> {
        let stored = self.stored(color)?;
        Some(match self.running {
            Some((runner, since)) if runner == color => {
                stored.saturating_sub(now.saturating_duration_since(since))
            }
            _ => stored,
        })
    }

    /// The time `color` had when its clock last stopped (or at the start), as a game stores
    /// it between moves; `None` when `color` has no control.
    pub fn stored(&self, color: Color) -> Option<Duration> {
        self.control(color).map(|_| self.left[color.index()])
    }

    /// Sets the time `color` has left, as stored (a game read back, a move taken back).
    pub fn set_left(&mut self, color: Color, left: Duration) {
        self.left[color.index()] = left;
    }

    /// Starts `color`'s clock at `now`. A clock that was running stops without being charged.
    pub fn start(&mut self, color: Color, now: Instant) {
        self.running = Some((color, now));
    }

    /// Stops the running clock at `now`, charging its side the time since its start.
    pub fn stop(&mut self, now: Instant) {
        if let Some((color, since)) = self.running.take() {
            let slot = &mut self.left[color.index()];
            *slot = slot.saturating_sub(now.saturating_duration_since(since));
        }
    }

    /// The side whose clock runs made its move at `now`: its clock is charged the time since
    /// its start and gains its increment, and the other side's clock starts. Returns the time
    /// the mover spent (`None` when no clock ran). Look at [`Clock::flagged`] before: a side
    /// whose time ran out has lost, and its move does not count.
    pub fn moved(&mut self, now: Instant) -> Option<Duration> {
        let (mover, since) = self.running?;
        let spent = now.saturating_duration_since(since);
        self.stop(now);
        if let Some(control) = self.control(mover) {
            self.left[mover.index()] += control.increment;
        }
        self.start(mover.opponent(), now);
        Some(spent)
    }

    /// The side that has lost on time at `now`: the side whose clock runs, when it has a
    /// control and no time left.
    pub fn flagged(&self, now: Instant) -> Option<Color> {
        let color = self.running()?;
        self.left(color, now)
            .is_some_and(|left| left.is_zero())
            .then_some(color)
    }

    /// Records `color`'s fall of the flag: its time is zero and the clocks stop.
    pub fn flag(&mut self, color: Color) {
        self.left[color.index()] = Duration::ZERO;
        self.running = None;
    }

    /// Sets both clocks back to their base time, stopped, for a new game.
    pub fn reset(&mut self) {
        *self = Clock::per_side(self.controls[0], self.controls[1]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn minutes_and_seconds_forms_read() {
        let tc = TimeControl::parse_minutes("3+2").expect("valid");
        assert_eq!(tc.base, secs(180));
        assert_eq!(tc.increment, secs(2));
        assert_eq!(tc, TimeControl::LIGHTNING);
        let tc = TimeControl::parse_minutes(" 0.5 + 1.5 ").expect("valid");
        assert_eq!(tc.base, secs(30));
        assert_eq!(tc.increment, Duration::from_millis(1500));
        assert_eq!(
            TimeControl::parse_minutes("5").expect("valid"),
            TimeControl::minutes_plus_seconds(5, 0)
        );
        let tc = TimeControl::parse_seconds("10+0.1").expect("valid");
        assert_eq!(tc.base, secs(10));
        assert_eq!(tc.increment, Duration::from_millis(100));
        let tc = TimeControl::parse_seconds("60").expect("valid");
        assert_eq!((tc.base, tc.increment), (secs(60), Duration::ZERO));
        assert_eq!(
            TimeControl::parse("4+0.04", BaseUnit::Seconds).map(|t| t.increment),
            Ok(Duration::from_millis(40))
        );
    }

    #[test]
    fn bad_controls_say_what_is_wrong() {
        assert_eq!(
            TimeControl::parse_minutes("x+1"),
            Err(TimeControlError::NotANumber {
                part: "x".into(),
                unit: BaseUnit::Minutes
            })
        );
        assert_eq!(
            TimeControl::parse_seconds("10+"),
            Err(TimeControlError::NotANumber {
                part: String::new(),
                unit: BaseUnit::Seconds
            })
        );
        for bad in ["", "x", "+1", "inf", "NaN+1", "1+y", "1+2+3"] {
            for unit in [BaseUnit::Minutes, BaseUnit::Seconds] {
                assert!(
                    matches!(
                        TimeControl::parse(bad, unit),
                        Err(TimeControlError::NotANumber { .. })
                    ),
                    "{bad:?} {unit:?}"
                );
            }
        }
        for bad in ["0+1", "-5", "601", "0"] {
            assert_eq!(
                TimeControl::parse_minutes(bad),
                Err(TimeControlError::BaseOutOfRange),
                "{bad}"
            );
        }
        assert_eq!(
            TimeControl::parse_seconds("1e30"),
            Err(TimeControlError::BaseOutOfRange)
        );
        for bad in ["5+-1", "5+601"] {
            assert_eq!(
                TimeControl::parse_minutes(bad),
                Err(TimeControlError::IncrementOutOfRange),
                "{bad}"
            );
        }
        let message = TimeControl::parse_minutes("x+1")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            message.contains("`x`") && message.contains("3+2"),
            "{message}"
        );
        let message = TimeControl::parse_seconds("ten")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(message.contains("is not a number of seconds"), "{message}");
    }

    #[test]
    fn the_rulebook_controls_are_minutes_plus_seconds() {
        assert_eq!(TimeControl::CLASSICAL.base, secs(20 * 60));
        assert_eq!(TimeControl::CLASSICAL.increment, secs(30));
        assert_eq!(TimeControl::RAPID_8_4.base, secs(8 * 60));
        assert_eq!(TimeControl::RAPID_8_4.increment, secs(4));
        assert_eq!(TimeControl::RAPID_7_5.base, secs(7 * 60));
        assert_eq!(TimeControl::RAPID_7_5.increment, secs(5));
        assert_eq!(TimeControl::LIGHTNING.base, secs(3 * 60));
        assert_eq!(TimeControl::LIGHTNING.increment, secs(2));
        for (name, control) in TimeControl::RULEBOOK {
            assert_eq!(TimeControl::parse_minutes(name), Ok(control), "{name}");
        }
    }

    #[test]
    fn controls_write_seconds_for_pdn() {
        assert_eq!(TimeControl::LIGHTNING.pdn_tag(), "180+2");
        assert_eq!(TimeControl::CLASSICAL.to_string(), "1200+30");
        for text in ["10+0.1", "4+0.04", "60+0", "0.5+1"] {
            let tc = TimeControl::parse_seconds(text).expect("valid");
            assert_eq!(tc.to_string(), text);
            assert_eq!(TimeControl::parse_seconds(&tc.pdn_tag()), Ok(tc));
        }
    }

    #[test]
    fn a_move_charges_the_mover_and_adds_the_increment() {
        let t0 = Instant::now();
        let mut clock = Clock::new(Some(TimeControl::RAPID_8_4));
        assert_eq!(clock.running(), None);
        assert_eq!(clock.left(Color::White, t0 + secs(100)), Some(secs(480)));
        clock.start(Color::White, t0);
        assert_eq!(clock.left(Color::White, t0 + secs(30)), Some(secs(450)));
        assert_eq!(clock.left(Color::Black, t0 + secs(30)), Some(secs(480)));
        assert_eq!(clock.moved(t0 + secs(30)), Some(secs(30)));
        assert_eq!(clock.stored(Color::White), Some(secs(454)));
        assert_eq!(clock.running(), Some(Color::Black));
        assert_eq!(clock.left(Color::Black, t0 + secs(40)), Some(secs(470)));
        assert_eq!(clock.left(Color::White, t0 + secs(40)), Some(secs(454)));
        clock.stop(t0 + secs(50));
        assert_eq!(clock.running(), None);
        assert_eq!(clock.stored(Color::Black), Some(secs(460)));
        // Stopped, the clock is charged no more.
        assert_eq!(clock.left(Color::Black, t0 + secs(500)), Some(secs(460)));
        clock.reset();
        assert_eq!(clock.stored(Color::White), Some(secs(480)));
        assert_eq!(clock.stored(Color::Black), Some(secs(480)));
    }

    #[test]
    fn a_restart_is_not_charged() {
        let t0 = Instant::now();
        let mut clock = Clock::new(Some(TimeControl::LIGHTNING));
        clock.start(Color::White, t0);
        clock.start(Color::White, t0 + secs(20));
        assert_eq!(clock.left(Color::White, t0 + secs(25)), Some(secs(175)));
        clock.set_left(Color::Black, secs(7));
        clock.start(Color::Black, t0 + secs(30));
        assert_eq!(clock.stored(Color::White), Some(secs(180)));
        assert_eq!(clock.left(Color::Black, t0 + secs(31)), Some(secs(6)));
    }

    #[test]
    fn the_flag_falls_when_the_running_side_has_no_time() {
        let t0 = Instant::now();
        let mut clock = Clock::new(Some(TimeControl::parse_seconds("10+1").expect("valid")));
        clock.start(Color::White, t0);
        assert_eq!(clock.flagged(t0 + Duration::from_millis(9_999)), None);
        assert_eq!(clock.flagged(t0 + secs(10)), Some(Color::White));
        assert_eq!(
            clock.left(Color::White, t0 + secs(99)),
            Some(Duration::ZERO)
        );
        // Black's clock does not run: Black cannot lose on time now.
        clock.set_left(Color::Black, Duration::ZERO);
        assert_eq!(clock.flagged(t0 + secs(5)), None);
        clock.flag(Color::White);
        assert_eq!(clock.running(), None);
        assert_eq!(clock.stored(Color::White), Some(Duration::ZERO));
        assert_eq!(clock.flagged(t0 + secs(99)), None);
    }

    #[test]
    fn a_side_without_control_counts_nothing() {
        let t0 = Instant::now();
        let mut clock = Clock::per_side(None, Some(TimeControl::LIGHTNING));
        assert!(clock.is_timed());
        assert!(!Clock::new(None).is_timed());
        clock.start(Color::White, t0);
        assert_eq!(clock.left(Color::White, t0 + secs(1_000)), None);
        assert_eq!(clock.flagged(t0 + secs(1_000)), None);
        assert_eq!(clock.moved(t0 + secs(1_000)), Some(secs(1_000)));
        assert_eq!(clock.stored(Color::White), None);
        assert_eq!(clock.moved(t0 + secs(1_010)), Some(secs(10)));
        assert_eq!(clock.stored(Color::Black), Some(secs(172)));
    }
}
