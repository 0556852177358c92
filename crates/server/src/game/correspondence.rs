//! Correspondence games: days per move instead of a clock for the game.
//!
//! Each move has the whole allowance, 1, 2, 3 or 7 days
//! ([`CORRESPONDENCE_DAYS`](bashni_club::pace::CORRESPONDENCE_DAYS)): time
//! left over is not carried to the next move, and nothing is added. The side to move's
//! deadline is a time of day (ms since 1970) stored with the game, so a server restart, or
//! another server on the same PostgreSQL, keeps it exactly.
//!
//! - Only between two people online (friend games): the engine answers at once, and at one
//!   screen nobody waits days for the other.
//! - The first deadline starts when both seats are taken: the side to move then has the
//!   allowance for its first move. Each move starts the other side's allowance afresh.
//! - A deadline that passes once both sides have moved loses the game on time for the side
//!   to move, by the same rule as a clock's fallen flag ([`bashni_rules::Game::flag`]).
//! - A deadline that passes before both sides have made their first move aborts the game,
//!   as either player could have: a game that never started does not count, and nobody wins
//!   it because the other never came. (This takes the place of the short clocks' free first
//!   move, which would let an unstarted game wait for ever.)
//!
//! Nobody needs to be connected for a deadline to count: every server looks for games past
//! their deadline every few seconds ([`crate::App::end_overdue_games`]) and ends them, and
//! any request that reads such a game ends it first. With several servers on one
//! PostgreSQL each ending is stored only against the version it was computed on, so exactly
//! one server ends a game; the others find it changed and read it again.

use std::time::Instant;

use bashni_club::pace::{Control, InvalidDays};
use bashni_rules::Color;

use crate::game::round::{Mode, Round, millis};

/// The time rule of a correspondence game and the side to move's deadline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Correspondence {
    /// Days for each move: one of
    /// [`CORRESPONDENCE_DAYS`](bashni_club::pace::CORRESPONDENCE_DAYS).
    pub days_per_move: u32,
    /// When the side to move's time runs out (ms since 1970); `None` while the deadline does
    /// not run (a seat is free, or the game is over).
    pub deadline_ms: Option<i64>,
}

impl Correspondence {
    /// `days_per_move` days for each move, no deadline yet; refused unless the number is one
    /// of [`CORRESPONDENCE_DAYS`](bashni_club::pace::CORRESPONDENCE_DAYS).
    pub fn new(days_per_move: u32) -> Result<Correspondence, InvalidDays> {
        Control::correspondence(days_per_move)?;
        Ok(Correspondence {
            days_per_move,
            deadline_ms: None,
        })
    }

    /// The control, as paces and PDN tags know it.
    pub fn control(&self) -> Control {
        Control::Correspondence {
            days_per_move: self.days_per_move,
        }
    }

    /// The time for one move, in ms.
    pub fn allowance_ms(&self) -> i64 {
        self.control().time_per_move().map_or(0, millis)
    }
}

impl Round {
    /// Whether a correspondence game's deadline runs now: both seats are taken and the game
    /// goes on.
    pub fn deadline_runs(&self) -> bool {
        self.correspondence.is_some()
            && self.mode != Mode::Record
            && self.seated()
            && !self.is_over()
    }

    /// The side to move's deadline in a correspondence game (ms since 1970), while it runs.
    pub fn deadline_ms(&self) -> Option<i64> {
        self.correspondence.and_then(|c| c.deadline_ms)
    }

    /// The side to move's turn starts at [`Round::updated_ms`], the time of the change just
    /// counted (a move, or the second seat taken): its deadline is a whole allowance from
    /// then. Does nothing outside correspondence games.
    pub fn start_turn(&mut self) {
        let runs = self.deadline_runs();
        let from = self.updated_ms;
        if let Some(rule) = &mut self.correspondence {
            rule.deadline_ms = runs.then(|| from.saturating_add(rule.allowance_ms()));
        }
    }

    /// Drops the deadline of a game whose deadline no longer runs (it ended).
    pub fn settle_deadline(&mut self) {
        if !self.deadline_runs()
            && let Some(rule) = &mut self.correspondence
        {
            rule.deadline_ms = None;
        }
    }

    /// The side to move, if its deadline has passed at `now_ms`: a correspondence deadline,
    /// or the deadline of a first move (see [`Round::first_move_due`]).
    pub fn overdue(&self, now_ms: i64) -> Option<Color> {
        let correspondence = self
            .deadline_ms()
            .filter(|&deadline| self.deadline_runs() && now_ms >= deadline);
        let first_move = self
            .first_move_due()
            .filter(|&(_, deadline)| now_ms >= deadline)
            .map(|(color, _)| color);
        correspondence
            .map(|_| self.game.side_to_move())
            .or(first_move)
    }

    /// Ends the game if the side to move's deadline has passed at `now_ms`: a loss on time
    /// once both sides have moved, and in a tournament; before that an abort (see the module
    /// notes). Says whether it ended the game.
    pub fn end_overdue(&mut self, now: Instant, now_ms: i64) -> bool {
        let Some(color) = self.overdue(now_ms) else {
            return false;
        };
        // A tournament game is lost, so that the round goes on without the absent player.
        if self.both_have_moved() || self.in_tournament() {
            // The rules' one loss on time, as for a fallen flag.
            let _ = self.game.flag(color);
        } else {
            self.mark_aborted();
        }
        self.settle_clock(now);
        self.touch();
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::round::{RoundError, Seat, now_ms};
    use bashni_club::pace::CORRESPONDENCE_DAYS;
    use bashni_rules::{Position, Variant};

    const DAY_MS: i64 = 86_400_000;

    /// A friend game of `days` per move with White seated, waiting for Black.
    fn waiting(days: u32) -> Result<Round, RoundError> {
        let mut round = Round::new(
            "c".into(),
            Mode::Friend,
            Position::start(Variant::Russian),
            None,
        );
        round.correspondence =
            Some(Correspondence::new(days).map_err(|e| RoundError::Invalid(e.to_string()))?);
        round.white.token = Some("w".into());
        round.white.joined = true;
        round.invite = Some("i".into());
        Ok(round)
    }

    fn started(days: u32) -> Result<Round, RoundError> {
        let mut round = waiting(days)?;
        round.join("i", "Boris".into(), "b".into(), Instant::now())?;
        Ok(round)
    }

    #[test]
    fn only_the_offered_days_make_a_control() {
        for days in CORRESPONDENCE_DAYS {
            let rule = Correspondence::new(days).map(|c| c.allowance_ms());
            assert_eq!(rule, Ok(i64::from(days) * DAY_MS));
        }
        for days in [0, 4, 5, 6, 8, 30] {
            assert_eq!(Correspondence::new(days), Err(InvalidDays(days)));
        }
    }

    #[test]
    fn the_first_deadline_starts_when_both_seats_are_taken() -> Result<(), RoundError> {
        let round = waiting(2)?;
        assert_eq!(round.deadline_ms(), None);
        assert_eq!(
            round.overdue(i64::MAX),
            None,
            "nobody waits for a free seat"
        );
        let round = started(2)?;
        assert_eq!(round.deadline_ms(), Some(round.updated_ms + 2 * DAY_MS));
        assert_eq!(
            round.running_clock(),
            None,
            "no clock runs in correspondence"
        );
        Ok(())
    }

    #[test]
    fn each_move_has_the_whole_allowance_again() -> Result<(), RoundError> {
        let mut round = started(1)?;
        let first = round
            .deadline_ms()
            .ok_or(RoundError::Invalid("none".into()))?;
        round.play(Seat::White, "c3-d4", false, Instant::now())?;
        assert_eq!(round.deadline_ms(), Some(round.updated_ms + DAY_MS));
        assert!(round.deadline_ms() >= Some(first));
        round.play(Seat::Black, "f6-g5", false, Instant::now())?;
        assert_eq!(round.deadline_ms(), Some(round.updated_ms + DAY_MS));
        assert_eq!(round.move_clocks.last(), Some(&[None, None]));
        Ok(())
    }

    #[test]
    fn a_passed_deadline_loses_on_time_once_both_have_moved() -> Result<(), RoundError> {
        let mut round = started(3)?;
        round.play(Seat::White, "c3-d4", false, Instant::now())?;
        round.play(Seat::Black, "f6-g5", false, Instant::now())?;
        let deadline = round
            .deadline_ms()
            .ok_or(RoundError::Invalid("none".into()))?;
        assert_eq!(round.overdue(deadline - 1), None);
        assert_eq!(round.overdue(deadline), Some(Color::White));
        let version = round.version;
        assert!(!round.end_overdue(Instant::now(), deadline - 1));
        assert_eq!(round.version, version);
        assert!(round.end_overdue(Instant::now(), deadline));
        assert_eq!(round.version, version + 1);
        let ending = round.ending().ok_or(RoundError::Invalid("no end".into()))?;
        assert_eq!((ending.score(), ending.code()), ("0-1", "time"));
        assert_eq!(round.deadline_ms(), None, "an ended game has no deadline");
        assert!(!round.end_overdue(Instant::now(), i64::MAX), "it ends once");
        Ok(())
    }

    #[test]
    fn a_passed_deadline_before_both_have_moved_aborts() -> Result<(), RoundError> {
        let mut round = started(1)?;
        round.play(Seat::White, "c3-d4", false, Instant::now())?;
        assert!(round.end_overdue(Instant::now(), now_ms() + 2 * DAY_MS));
        let ending = round.ending().ok_or(RoundError::Invalid("no end".into()))?;
        assert_eq!((ending.score(), ending.code()), ("*", "aborted"));
        assert_eq!(round.deadline_ms(), None);
        Ok(())
    }

    #[test]
    fn a_move_after_the_deadline_is_refused() -> Result<(), RoundError> {
        let mut round = started(1)?;
        if let Some(rule) = &mut round.correspondence {
            rule.deadline_ms = Some(now_ms() - 1);
        }
        let refused = round.play(Seat::White, "c3-d4", false, Instant::now());
        assert!(
            matches!(&refused, Err(RoundError::Conflict(m)) if m.to_string().contains("ran out")),
            "{refused:?}"
        );
        assert_eq!(round.game.ply(), 0);
        Ok(())
    }

    #[test]
    fn a_resigned_game_has_no_deadline() -> Result<(), RoundError> {
        let mut round = started(7)?;
        assert!(round.deadline_ms().is_some());
        round.resign(Seat::Black, Instant::now())?;
        assert_eq!(round.deadline_ms(), None);
        assert_eq!(round.overdue(i64::MAX), None);
        Ok(())
    }

    #[test]
    fn a_rematch_keeps_the_days_and_starts_its_own_deadline() -> Result<(), RoundError> {
        let mut round = started(2)?;
        round.resign(Seat::White, Instant::now())?;
        let rematch = round.rematch_round("r".into(), Instant::now());
        let rule = rematch
            .correspondence
            .ok_or(RoundError::Invalid("no rule".into()))?;
        assert_eq!(rule.days_per_move, 2);
        assert_eq!(rule.deadline_ms, Some(rematch.updated_ms + 2 * DAY_MS));
        Ok(())
    }
}
