//! The game screen's state: the game, the clocks, the cursor, the engine's work and the
//! messages. Nothing here touches the terminal: [`App::handle_key`] and [`App::tick`] change
//! the state, [`App::draw`] paints a frame. What each key and command does lives beside
//! this file: `keys.rs` (keys and the input line), `picking.rs` (moves by cursor or typed),
//! `commands.rs` (`:` commands), `thinking.rs` (the engine's moves, analysis and draw
//! answers) and `records.rs` (PDN files and replays).

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use bashni_engine::Level;
use bashni_engine::rng::Rng;
use bashni_rules::{Clock, Color, Game, Move, Position, Square};
use ratatui::Frame;

use crate::config::Config;
use crate::keys::Input;
use crate::records::Replay;
use crate::thinking::Analysis;
use crate::worker::Worker;

/// The game screen.
pub struct App {
    pub(crate) game: Game,
    pub(crate) level: Option<Level>,
    pub(crate) human: Color,
    /// The clocks; they run only while a game is played (not over, not a replay).
    pub(crate) clock: Clock,
    pub(crate) now: Instant,
    pub(crate) replay: Option<Replay>,
    pub(crate) cursor: (u8, u8),
    pub(crate) flipped: bool,
    pub(crate) path: Vec<Square>,
    pub(crate) show_legal: bool,
    pub(crate) input: Input,
    pub(crate) message: String,
    pub(crate) error: bool,
    pub(crate) help: bool,
    pub(crate) confirm_quit: bool,
    pub(crate) quit: bool,
    pub(crate) colors: bool,
    pub(crate) worker: Option<Worker>,
    /// The endgame tables the engine is given when it starts.
    tables: Option<std::sync::Arc<bashni_egtb::Tablebase>>,
    pub(crate) think_time: Duration,
    pub(crate) next_id: u64,
    /// The id of the engine move being searched.
    pub(crate) pending: Option<u64>,
    /// The id of the analysis being searched.
    pub(crate) analysing: Option<u64>,
    pub(crate) analysis: Option<Analysis>,
    /// The id of the engine's answer to a draw offer being searched, and the ply it was
    /// asked at.
    pub(crate) draw_answer: Option<(u64, usize)>,
    /// Seeds of the engine's choices at the weaker levels, one per move.
    pub(crate) seeds: Rng,
}

impl App {
    /// A new screen as `config` says. Fails when the PDN file cannot be read or replayed.
    pub fn new(config: Config) -> Result<App, String> {
        let position = config
            .position
            .unwrap_or_else(|| Position::start(config.variant));
        let game = Game::new(position);
        let now = Instant::now();
        let mut clock = Clock::new(config.time);
        clock.start(game.side_to_move(), now);
        let seed = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64);
        let mut app = App {
            cursor: start_cursor(game.side_to_move()),
            game,
            level: config.level,
            human: config.color,
            clock,
            now,
            replay: None,
            flipped: config.level.is_some() && config.color == Color::Black,
            path: Vec::new(),
            show_legal: false,
            input: Input::Idle,
            message: String::from("Press ? for help."),
            error: false,
            help: false,
            confirm_quit: false,
            quit: false,
            colors: config.colors,
            worker: None,
            tables: config.tables.clone(),
            think_time: config.think_time,
            next_id: 0,
            pending: None,
            analysing: None,
            analysis: None,
            draw_answer: None,
            seeds: Rng::new(seed),
        };
        if let Some((file, number)) = &config.pdn {
            app.open(file, *number)?;
        }
        app.start_engine_if_due();
        Ok(app)
    }

    /// Whether the player asked to leave.
    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// The game being played (in replay mode, the game played before the replay).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The position on the board (in replay mode, the shown one).
    pub fn shown_position(&self) -> &Position {
        match &self.replay {
            Some(replay) => &replay.game.positions()[replay.shown],
            None => self.game.position(),
        }
    }

    /// Whether a recorded game is being replayed.
    pub fn in_replay(&self) -> bool {
        self.replay.is_some()
    }

    /// The square under the cursor, if it is a dark square.
    pub fn cursor(&self) -> Option<Square> {
        Square::from_coords(self.cursor.0, self.cursor.1)
    }

    /// The cursor's file and rank (0-7 each, from a1), on any square, light or dark.
    pub fn cursor_at(&self) -> (u8, u8) {
        self.cursor
    }

    /// The squares picked so far for a move by cursor (the start first).
    pub fn picked(&self) -> &[Square] {
        &self.path
    }

    /// The last message shown to the player.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Whether the engine is thinking about its move.
    pub fn engine_thinking(&self) -> bool {
        self.pending.is_some()
    }

    /// Time left on each clock (White, Black) now, when the game has clocks.
    pub fn clock_left(&self) -> Option<[Duration; 2]> {
        Some([
            self.clock.left(Color::White, self.now)?,
            self.clock.left(Color::Black, self.now)?,
        ])
    }

    /// Sets both clocks back to the start and runs the side to move's.
    pub(crate) fn restart_clocks(&mut self) {
        self.clock.reset();
        self.clock.start(self.game.side_to_move(), self.now);
    }

    pub(crate) fn say(&mut self, text: impl Into<String>) {
        self.message = text.into();
        self.error = false;
    }

    pub(crate) fn complain(&mut self, text: impl Into<String>) {
        self.message = text.into();
        self.error = true;
    }

    pub(crate) fn engine_color(&self) -> Option<Color> {
        self.level.map(|_| self.human.opponent())
    }

    pub(crate) fn id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    pub(crate) fn worker(&mut self) -> &Worker {
        let tables = &self.tables;
        self.worker
            .get_or_insert_with(|| Worker::start(tables.clone()))
    }

    /// Runs the clocks and collects the engine's answers. Call it often (about ten times a
    /// second) with the current time.
    pub fn tick(&mut self, now: Instant) {
        self.now = self.now.max(now);
        while let Some(answer) = self.worker.as_ref().and_then(Worker::try_answer) {
            self.receive(answer);
        }
        if let Some(side) = self.clock.flagged(self.now) {
            self.clock.flag(side);
            self.cancel_engine();
            if self.game.flag(side).is_ok() {
                self.announce_end();
            }
        }
        self.start_engine_if_due();
    }

    /// Plays a legal move in the game, runs the clocks and says how the game ended.
    pub(crate) fn commit(&mut self, mv: &Move) -> bool {
        if self.game.play(mv).is_err() {
            return false;
        }
        self.clock.moved(self.now);
        self.path.clear();
        self.analysis = None;
        self.stop_analysis();
        if self.game.is_over() {
            self.announce_end();
        } else if self.game.can_claim_draw().is_some() {
            self.say(format!(
                "{mv}. {} may claim a draw with :draw.",
                self.game.side_to_move()
            ));
        } else {
            self.say(format!("{mv}"));
        }
        true
    }

    pub(crate) fn announce_end(&mut self) {
        self.clock.stop(self.now);
        if let Some(outcome) = self.game.outcome() {
            self.say(format!("Game over. {outcome}. :new for a new game."));
        }
    }

    /// Paints the whole screen.
    pub fn draw(&self, frame: &mut Frame) {
        crate::view::draw(self, frame);
    }

    pub(crate) fn undo(&mut self) {
        if self.replay.is_some() {
            self.complain("Nothing to take back in a replay.");
            return;
        }
        self.cancel_engine();
        self.path.clear();
        if self.game.undo().is_none() {
            self.complain("No move to take back.");
            return;
        }
        if let Some(human) = self.level.map(|_| self.human) {
            while self.game.side_to_move() != human && self.game.ply() > 0 {
                self.game.undo();
            }
        }
        self.clock.start(self.game.side_to_move(), self.now);
        self.analysis = None;
        self.stop_analysis();
        self.say("Move taken back.");
        self.start_engine_if_due();
    }
}

/// A cursor start on the mover's side: c3 for White, f6 for Black.
pub(crate) fn start_cursor(side: Color) -> (u8, u8) {
    match side {
        Color::White => (2, 2),
        Color::Black => (5, 5),
    }
}
