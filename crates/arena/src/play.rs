//! One game between two players, with real clocks.
//!
//! The game starts from an opening position, with the automatic draws of
//! [`Game::set_automatic_draws`] on (Bashni's repetition and 15-move rule end the game by
//! themselves; Russian draughts' counts always do). It ends
//!
//! * by the rules: a side without a move loses, or an automatic draw;
//! * on time: a player whose [`Player::choose`] takes all the time left on its clock
//!   loses (the move is not played). After each move the clock gains the increment;
//! * by forfeit: a player that returns an error, no move while it has one, or an illegal move
//!   loses;
//! * by adjudication: after [`GameSettings::max_plies`] plies (default
//!   [`DEFAULT_MAX_PLIES`], 300) the game is scored a draw.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bashni_rules::{Clock, Color, Game, GameResult, Position, Reason, TimeControl};

use crate::player::Player;

/// A game still going after this many plies is scored a draw.
pub const DEFAULT_MAX_PLIES: usize = 300;

/// How a game of a match is played.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct GameSettings {
    /// White's time control; `None`: no clock.
    pub white_clock: Option<TimeControl>,
    /// Black's time control; `None`: no clock.
    pub black_clock: Option<TimeControl>,
    /// Adjudicate a draw after this many plies.
    pub max_plies: usize,
}

impl Default for GameSettings {
    fn default() -> GameSettings {
        GameSettings {
            white_clock: None,
            black_clock: None,
            max_plies: DEFAULT_MAX_PLIES,
        }
    }
}

/// Why a game of a match ended.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Termination {
    /// By the rules: a side without a move, or an automatic draw.
    Rules(Reason),
    /// This side's clock ran out.
    Time(Color),
    /// This side lost by forfeit: an error, no move, or an illegal move; the text says which.
    Forfeit(Color, String),
    /// The game reached the maximum length and was scored a draw.
    MaxPlies(usize),
}

impl fmt::Display for Termination {
    /// The text of the `Termination` tag.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Termination::Rules(reason) => write!(f, "{reason}"),
            Termination::Time(color) => write!(f, "{color} ran out of time"),
            Termination::Forfeit(color, why) => write!(f, "{color} forfeits: {why}"),
            Termination::MaxPlies(plies) => write!(f, "adjudicated draw after {plies} plies"),
        }
    }
}

impl Termination {
    /// A short kind for counting: `rules`, `time`, `forfeit`, `max plies`.
    pub fn kind(&self) -> &'static str {
        match self {
            Termination::Rules(reason) if reason.is_draw() => "draw by the rules",
            Termination::Rules(_) => "no move",
            Termination::Time(_) => "time",
            Termination::Forfeit(..) => "forfeit",
            Termination::MaxPlies(_) => "max plies",
        }
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// The moves, from the opening. After an adjudication the game itself is not over.
    pub game: Game,
    /// The score.
    pub result: GameResult,
    /// Why it ended.
    pub termination: Termination,
    /// Time used by White and by Black, thinking.
    pub time_used: [Duration; 2],
}

/// Plays one game from `opening` (see the module notes). `abort`, when set from another
/// thread, stops the game between moves: the answer is then `None`.
pub fn play_game(
    opening: &Position,
    white: &mut dyn Player,
    black: &mut dyn Player,
    settings: &GameSettings,
    abort: &AtomicBool,
) -> Option<PlayedGame> {
    let mut game = Game::new(*opening);
    game.set_automatic_draws(true);
    white.new_game();
    black.new_game();
    let mut clock = Clock::per_side(settings.white_clock, settings.black_clock);
    let mut time_used = [Duration::ZERO; 2];
    let termination = loop {
        if let Some(outcome) = game.outcome() {
            break Termination::Rules(outcome.reason);
        }
        if game.ply() >= settings.max_plies {
            break Termination::MaxPlies(game.ply());
        }
        if abort.load(Ordering::Relaxed) {
            return None;
        }
        let color = game.side_to_move();
        let player: &mut dyn Player = match color {
            Color::White => &mut *white,
            Color::Black => &mut *black,
        };
        // Only the player's own thinking is timed.
        let started = Instant::now();
        clock.start(color, started);
        let answer = player.choose(&game, bashni_engine::Clock::of_game(&clock, color, started));
        let done = Instant::now();
        if clock.flagged(done) == Some(color) {
            time_used[color.index()] += done.saturating_duration_since(started);
            break Termination::Time(color);
        }
        time_used[color.index()] += clock.moved(done).unwrap_or_default();
        let mv = match answer {
            Ok(Some(mv)) => mv,
            Ok(None) => break Termination::Forfeit(color, "no move returned".into()),
            Err(error) => break Termination::Forfeit(color, format!("error: {error}")),
        };
        let Some(legal) = game.legal_move(&mv) else {
            break Termination::Forfeit(color, format!("illegal move {mv}"));
        };
        if let Err(error) = game.play(&legal) {
            break Termination::Forfeit(color, format!("move {mv} refused: {error}"));
        }
    };
    let result = match &termination {
        Termination::Rules(_) => game.outcome().map_or(GameResult::Draw, |o| o.result),
        Termination::Time(color) => {
            // Records the loss in the game too; the game is not over yet, so this succeeds.
            let _ = game.flag(*color);
            GameResult::win_for(color.opponent())
        }
        Termination::Forfeit(color, _) => {
            let _ = game.resign(*color);
            GameResult::win_for(color.opponent())
        }
        Termination::MaxPlies(_) => GameResult::Draw,
    };
    Some(PlayedGame {
        game,
        result,
        termination,
        time_used,
    })
}
