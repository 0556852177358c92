//! Paces of play: blitz, rapid, classical and correspondence.
//!
//! Ratings are kept per pace, so every game's control must fall into one of them.
//!
//! The Russian draughts rulebook (001, 6.1.9) names three kinds of over-the-board play by
//! the base time each side has for the game:
//!
//! | rulebook's kind | base time | recommended controls |
//! | --- | --- | --- |
//! | lightning (blitz) | 3 to 5 minutes | 3+2 |
//! | rapid | 7 to 15 minutes | 8+4, 7+5 |
//! | classical | 20 minutes or more | 20+30, 30+30 |
//!
//! To class any base and increment, this module estimates the length of one side's game as
//! the base time plus [`MOVES_PER_GAME`] (40) increments, and compares that with the two
//! lower bounds of the rulebook: under 7 minutes is [`Pace::Blitz`], from 7 to under 20
//! minutes [`Pace::Rapid`], and 20 minutes or more [`Pace::Classical`]. A control without
//! increment is therefore classed exactly as the rulebook classes its base time, and all of
//! the rulebook's recommended controls land in their own kind: 3+2 is about 4⅓ minutes,
//! 7+5 and 8+4 about 10½, 20+30 about 40. Controls faster than the rulebook's lightning
//! play (bullet) count as blitz; those between its bands (6 minutes, 16 minutes) go to
//! the faster neighbour.
//!
//! Correspondence games give days per move instead of a clock for the game:
//! [`CORRESPONDENCE_DAYS`] lists the choices (1, 2, 3 or 7 days).
//!
//! ```
//! use bashni_club::pace::{Control, Pace};
//! use bashni_rules::TimeControl;
//!
//! assert_eq!(Pace::of(&TimeControl::LIGHTNING), Pace::Blitz);
//! assert_eq!(Control::minutes_plus_seconds(8, 4).pace(), Pace::Rapid);
//! assert_eq!(Control::correspondence(3).map(|c| c.pace()), Ok(Pace::Correspondence));
//! ```

use std::fmt;
use std::time::Duration;

use bashni_rules::TimeControl;
use serde::{Deserialize, Serialize};

/// The number of moves each side is assumed to make when a control's length is estimated.
pub const MOVES_PER_GAME: u32 = 40;

/// The shortest estimated game that counts as rapid: the rulebook's least rapid base time.
pub const RAPID_FROM: Duration = Duration::from_secs(7 * 60);

/// The shortest estimated game that counts as classical: the rulebook's least classical base
/// time.
pub const CLASSICAL_FROM: Duration = Duration::from_secs(20 * 60);

/// The days per move a correspondence game may give.
pub const CORRESPONDENCE_DAYS: [u32; 4] = [1, 2, 3, 7];

/// How fast a game is played; ratings are kept separately for each.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pace {
    /// Lightning play: an estimated game under 7 minutes a side.
    Blitz,
    /// Rapid play: 7 to under 20 minutes a side.
    Rapid,
    /// Classical play: 20 minutes a side or more.
    Classical,
    /// Days per move.
    Correspondence,
}

impl Pace {
    /// All paces, fastest first.
    pub const ALL: [Pace; 4] = [
        Pace::Blitz,
        Pace::Rapid,
        Pace::Classical,
        Pace::Correspondence,
    ];

    /// The pace of a clock control (see the module notes).
    pub fn of(control: &TimeControl) -> Pace {
        Pace::of_clock(control.base, control.increment)
    }

    /// The pace of a game with `base` time per side and `increment` added after each move.
    pub fn of_clock(base: Duration, increment: Duration) -> Pace {
        let estimate = estimated_duration(base, increment);
        if estimate < RAPID_FROM {
            Pace::Blitz
        } else if estimate < CLASSICAL_FROM {
            Pace::Rapid
        } else {
            Pace::Classical
        }
    }

    /// The lower-case name: `blitz`, `rapid`, `classical`, `correspondence`.
    pub const fn name(self) -> &'static str {
        match self {
            Pace::Blitz => "blitz",
            Pace::Rapid => "rapid",
            Pace::Classical => "classical",
            Pace::Correspondence => "correspondence",
        }
    }

    /// The pace named `name` (as [`Pace::name`] writes it, any case).
    pub fn parse(name: &str) -> Option<Pace> {
        Pace::ALL
            .into_iter()
            .find(|pace| pace.name().eq_ignore_ascii_case(name.trim()))
    }
}

impl fmt::Display for Pace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The estimated time one side uses in a game: `base` plus [`MOVES_PER_GAME`] increments.
pub fn estimated_duration(base: Duration, increment: Duration) -> Duration {
    base.saturating_add(increment.saturating_mul(MOVES_PER_GAME))
}

/// The time rule of a game: a clock, or days per move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Control {
    /// A clock: `base_ms` milliseconds for the game and `increment_ms` added after each move.
    Clock {
        /// Each side's time for the game, in milliseconds.
        base_ms: u64,
        /// Time added after each move, in milliseconds.
        increment_ms: u64,
    },
    /// Correspondence: this many days for each move (one of [`CORRESPONDENCE_DAYS`]).
    Correspondence {
        /// Days per move.
        days_per_move: u32,
    },
}

/// A correspondence control with a number of days that is not offered.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct InvalidDays(pub u32);

impl fmt::Display for InvalidDays {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} days per move is not offered: choose 1, 2, 3 or 7",
            self.0
        )
    }
}

impl std::error::Error for InvalidDays {}

impl Control {
    /// A clock of `minutes` for the game and `seconds` added a move (`3+2`).
    pub const fn minutes_plus_seconds(minutes: u64, seconds: u64) -> Control {
        Control::Clock {
            base_ms: minutes * 60_000,
            increment_ms: seconds * 1000,
        }
    }

    /// A correspondence control of `days` per move; `days` must be one of
    /// [`CORRESPONDENCE_DAYS`].
    pub fn correspondence(days: u32) -> Result<Control, InvalidDays> {
        if CORRESPONDENCE_DAYS.contains(&days) {
            Ok(Control::Correspondence {
                days_per_move: days,
            })
        } else {
            Err(InvalidDays(days))
        }
    }

    /// The pace of games under this control.
    pub fn pace(&self) -> Pace {
        match *self {
            Control::Clock {
                base_ms,
                increment_ms,
            } => Pace::of_clock(
                Duration::from_millis(base_ms),
                Duration::from_millis(increment_ms),
            ),
            Control::Correspondence { .. } => Pace::Correspondence,
        }
    }

    /// The clock control, for a clock; `None` for correspondence.
    pub fn time_control(&self) -> Option<TimeControl> {
        match *self {
            Control::Clock {
                base_ms,
                increment_ms,
            } => Some(TimeControl {
                base: Duration::from_millis(base_ms),
                increment: Duration::from_millis(increment_ms),
            }),
            Control::Correspondence { .. } => None,
        }
    }

    /// The time a player has for one correspondence move; `None` for a clock.
    pub fn time_per_move(&self) -> Option<Duration> {
        match *self {
            Control::Clock { .. } => None,
            Control::Correspondence { days_per_move } => {
                Some(Duration::from_secs(u64::from(days_per_move) * 24 * 60 * 60))
            }
        }
    }
}

impl From<TimeControl> for Control {
    fn from(control: TimeControl) -> Control {
        Control::Clock {
            base_ms: control.base.as_millis() as u64,
            increment_ms: control.increment.as_millis() as u64,
        }
    }
}

impl fmt::Display for Control {
    /// `3+2` (minutes plus seconds, decimals where needed) or `3 days per move`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Control::Clock {
                base_ms,
                increment_ms,
            } => write!(
                f,
                "{}+{}",
                base_ms as f64 / 60_000.0,
                increment_ms as f64 / 1000.0
            ),
            Control::Correspondence { days_per_move: 1 } => f.write_str("1 day per move"),
            Control::Correspondence { days_per_move } => {
                write!(f, "{days_per_move} days per move")
            }
        }
    }
}

/// The seconds in a day, as PDN's `TimeControl` tag counts a correspondence move's period.
const DAY_SECONDS: u64 = 24 * 60 * 60;

impl Control {
    /// The value of PDN's `TimeControl` tag. A clock is written in seconds plus seconds, as
    /// [`TimeControl::pdn_tag`] writes it (`180+2`). A correspondence control is written as
    /// one move per period of seconds, the form the PGN standard gives for moves in a time
    /// (and that correspondence sites write): 3 days per move is `1/259200`.
    pub fn pdn_tag(&self) -> String {
        match *self {
            Control::Clock { .. } => self
                .time_control()
                .map(|control| control.pdn_tag())
                .unwrap_or_default(),
            Control::Correspondence { days_per_move } => {
                format!("1/{}", u64::from(days_per_move) * DAY_SECONDS)
            }
        }
    }

    /// Reads a `TimeControl` tag as [`Control::pdn_tag`] writes it: `180+2` (or `60`,
    /// seconds without increment) is a clock, `1/86400` one of the offered correspondence
    /// controls. `None` for any other value (`-`, `?`, several moves in a period like
    /// `40/7200`, a number of days that is not offered).
    pub fn from_pdn_tag(tag: &str) -> Option<Control> {
        let tag = tag.trim();
        match tag.split_once('/') {
            Some((moves, seconds)) => {
                let seconds: u64 = seconds.trim().parse().ok()?;
                if moves.trim() != "1" || !seconds.is_multiple_of(DAY_SECONDS) {
                    return None;
                }
                let days = u32::try_from(seconds / DAY_SECONDS).ok()?;
                Control::correspondence(days).ok()
            }
            None => TimeControl::parse_seconds(tag).ok().map(Control::from),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pace(minutes: u64, seconds: u64) -> Pace {
        Control::minutes_plus_seconds(minutes, seconds).pace()
    }

    #[test]
    fn the_rulebooks_recommended_controls() {
        for (name, control) in TimeControl::RULEBOOK {
            let expected = match name {
                "3+2" => Pace::Blitz,
                "8+4" | "7+5" => Pace::Rapid,
                "20+30" => Pace::Classical,
                other => panic!("unknown rulebook control {other}"),
            };
            assert_eq!(Pace::of(&control), expected, "{name}");
            assert_eq!(Control::from(control).to_string(), name);
        }
        assert_eq!(pace(30, 30), Pace::Classical);
    }

    #[test]
    fn without_increment_the_base_decides_as_in_the_rulebook() {
        for minutes in 1..=5 {
            assert_eq!(pace(minutes, 0), Pace::Blitz, "{minutes}+0");
        }
        for minutes in 7..=15 {
            assert_eq!(pace(minutes, 0), Pace::Rapid, "{minutes}+0");
        }
        for minutes in [20, 25, 30, 60, 90, 600] {
            assert_eq!(pace(minutes, 0), Pace::Classical, "{minutes}+0");
        }
    }

    #[test]
    fn increments_count_forty_times() {
        assert_eq!(
            estimated_duration(Duration::from_secs(180), Duration::from_secs(2)),
            Duration::from_secs(260)
        );
        // 1+15: 1 minute and 40 x 15 s = 11 minutes.
        assert_eq!(pace(1, 15), Pace::Rapid);
        // 5+3 = 7 minutes exactly: the first rapid.
        assert_eq!(pace(5, 3), Pace::Rapid);
        assert_eq!(pace(5, 2), Pace::Blitz);
        // 15+5 = 18 1/3 minutes, 15+8 = 20 minutes.
        assert_eq!(pace(15, 5), Pace::Rapid);
        assert_eq!(pace(15, 8), Pace::Classical);
        // Bullet counts as blitz.
        assert_eq!(
            Pace::of_clock(Duration::from_secs(30), Duration::ZERO),
            Pace::Blitz
        );
        assert_eq!(
            Pace::of_clock(Duration::from_secs(10), Duration::from_millis(100)),
            Pace::Blitz
        );
    }

    #[test]
    fn correspondence() {
        for days in CORRESPONDENCE_DAYS {
            let control = Control::correspondence(days).expect("offered");
            assert_eq!(control.pace(), Pace::Correspondence);
            assert_eq!(control.time_control(), None);
            assert_eq!(
                control.time_per_move(),
                Some(Duration::from_secs(u64::from(days) * 86_400))
            );
        }
        assert_eq!(Control::correspondence(5), Err(InvalidDays(5)));
        assert_eq!(Control::correspondence(0), Err(InvalidDays(0)));
        assert_eq!(
            Control::correspondence(1).map(|c| c.to_string()),
            Ok("1 day per move".into())
        );
        assert_eq!(
            Control::correspondence(7).map(|c| c.to_string()),
            Ok("7 days per move".into())
        );
    }

    #[test]
    fn names_and_json() {
        for pace in Pace::ALL {
            assert_eq!(Pace::parse(pace.name()), Some(pace));
            assert_eq!(
                serde_json::to_string(&pace).expect("json"),
                format!("\"{pace}\"")
            );
        }
        assert_eq!(Pace::parse(" Rapid "), Some(Pace::Rapid));
        assert_eq!(Pace::parse("bullet"), None);
        let control = Control::minutes_plus_seconds(3, 2);
        let text = serde_json::to_string(&control).expect("json");
        assert_eq!(text, r#"{"clock":{"base_ms":180000,"increment_ms":2000}}"#);
        assert_eq!(
            serde_json::from_str::<Control>(&text).expect("back"),
            control
        );
        assert_eq!(control.time_control(), Some(TimeControl::LIGHTNING));
        assert_eq!(control.time_per_move(), None);
        assert_eq!(
            Control::Clock {
                base_ms: 90_000,
                increment_ms: 500
            }
            .to_string(),
            "1.5+0.5"
        );
    }

    #[test]
    fn pdn_time_control_tags_read_back() {
        for days in CORRESPONDENCE_DAYS {
            let control = Control::correspondence(days).expect("offered");
            let tag = control.pdn_tag();
            assert_eq!(tag, format!("1/{}", u64::from(days) * 86_400));
            assert_eq!(Control::from_pdn_tag(&tag), Some(control));
        }
        assert_eq!(
            Control::correspondence(3).map(|c| c.pdn_tag()),
            Ok("1/259200".into())
        );
        for (_, clock) in TimeControl::RULEBOOK {
            let control = Control::from(clock);
            assert_eq!(control.pdn_tag(), clock.pdn_tag());
            assert_eq!(Control::from_pdn_tag(&control.pdn_tag()), Some(control));
        }
        assert_eq!(
            Control::from_pdn_tag(" 60 "),
            Some(Control::minutes_plus_seconds(1, 0))
        );
        for other in [
            "-", "?", "", "40/7200", "1/432000", "1/90000", "2/172800", "1/x", "1/",
        ] {
            assert_eq!(Control::from_pdn_tag(other), None, "{other:?}");
        }
    }
}
