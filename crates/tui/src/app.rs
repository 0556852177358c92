//! The state of the game screen and what each key does. Nothing here touches the terminal:
//! [`App::handle_key`] and [`App::tick`] change the state, [`App::draw`] paints a frame.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use bashni_engine::{Clock, Level, Limits, Score};
use bashni_pdn::{LoadedGame, MoveForm, load_game, record, write_game};
use bashni_rules::notation::parse_move;
use bashni_rules::{Color, Game, Move, Position, Square, Variant};
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use crate::worker::{Answer, Job, Worker};

/// A time control: minutes for the game and seconds added after each move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TimeControl {
    /// Time for the whole game, for each side.
    pub base: Duration,
    /// Time added after each move.
    pub increment: Duration,
}

impl TimeControl {
    /// Reads `MIN+INC` (minutes, seconds): `3+2`, `5`, `0.5+1`.
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
        let minutes: f64 = base
            .trim()
            .parse()
            .map_err(|_| format!("`{text}`: expected minutes+seconds, like 3+2"))?;
        let seconds: f64 = increment
            .trim()
            .parse()
            .map_err(|_| format!("`{text}`: expected minutes+seconds, like 3+2"))?;
        if !(minutes > 0.0 && minutes <= 600.0 && (0.0..=600.0).contains(&seconds)) {
            return Err(format!(
                "`{text}`: minutes must be above 0, seconds 0 or more"
            ));
        }
        Ok(TimeControl {
            base: Duration::from_secs_f64(minutes * 60.0),
            increment: Duration::from_secs_f64(seconds),
        })
    }
}

/// How the game screen starts.
#[derive(Clone, Debug)]
pub struct Config {
    /// The game.
    pub variant: Variant,
    /// The start position; the usual start when `None`.
    pub position: Option<Position>,
    /// The engine's level; `None` for two people at one screen.
    pub level: Option<Level>,
    /// The side the person plays against the engine.
    pub color: Color,
    /// The clocks; none when `None`.
    pub time: Option<TimeControl>,
    /// Whether to paint with colours (otherwise plain text only).
    pub colors: bool,
    /// A PDN file and the game in it (1-based) to open for replay.
    pub pdn: Option<(PathBuf, usize)>,
    /// The engine's time per move without clocks, and for analysis.
    pub think_time: Duration,
}

impl Config {
    /// Two people, the usual start, no clocks, colours on.
    pub fn new(variant: Variant) -> Config {
        Config {
            variant,
            position: None,
            level: None,
            color: Color::White,
            time: None,
            colors: true,
            pdn: None,
            think_time: Duration::from_secs(1),
        }
    }
}

/// Whether the terminal should get colours: not when `NO_COLOR` is set (to anything but
/// the empty text) or `TERM` is `dumb`.
pub fn colors_wanted() -> bool {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let dumb = std::env::var("TERM").is_ok_and(|t| t == "dumb");
    !no_color && !dumb
}

/// What the input line holds.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) enum Input {
    /// Nothing is being typed.
    Idle,
    /// A move text.
    Move(String),
    /// A command after `:`.
    Command(String),
}

/// A recorded game being stepped through.
#[derive(Clone, Debug)]
pub(crate) struct Replay {
    /// The whole game.
    pub(crate) game: Game,
    /// Plies shown (0 = the start position).
    pub(crate) shown: usize,
    /// Where it came from, for the title.
    pub(crate) name: String,
}

/// The engine's view of a position.
#[derive(Clone, Debug)]
pub(crate) struct Analysis {
    /// The position analysed, to drop the result once the board moves on.
    pub(crate) ply: usize,
    /// Who was to move there (scores are for that side).
    pub(crate) side: Color,
    /// Depth reached.
    pub(crate) depth: u32,
    /// Score for the side to move.
    pub(crate) score: Score,
    /// The best line, written in full.
    pub(crate) line: Vec<String>,
    /// Whether the search still runs.
    pub(crate) running: bool,
}

/// The game screen.
pub struct App {
    pub(crate) game: Game,
    pub(crate) level: Option<Level>,
    pub(crate) human: Color,
    pub(crate) time: Option<TimeControl>,
    pub(crate) clocks: [Duration; 2],
    turn_start: Instant,
    now: Instant,
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
    quit: bool,
    pub(crate) colors: bool,
    worker: Option<Worker>,
    think_time: Duration,
    next_id: u64,
    /// The id of the engine move being searched.
    pending: Option<u64>,
    /// The id of the analysis being searched.
    analysing: Option<u64>,
    pub(crate) analysis: Option<Analysis>,
    /// The engine's last score for its own side, to answer draw offers.
    engine_score: Option<Score>,
    seed: u64,
}

impl App {
    /// A new screen as `config` says. Fails when the PDN file cannot be read or replayed.
    pub fn new(config: Config) -> Result<App, String> {
        let position = config
            .position
            .unwrap_or_else(|| Position::start(config.variant));
        let game = Game::new(position);
        let now = Instant::now();
        let base = config.time.map_or(Duration::ZERO, |t| t.base);
        let seed = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64);
        let mut app = App {
            cursor: start_cursor(game.side_to_move()),
            game,
            level: config.level,
            human: config.color,
            time: config.time,
            clocks: [base; 2],
            turn_start: now,
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
            think_time: config.think_time,
            next_id: 0,
            pending: None,
            analysing: None,
            analysis: None,
            engine_score: None,
            seed,
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
        self.time?;
        let mut left = self.clocks;
        if self.clock_running() {
            let side = self.game.side_to_move().index();
            left[side] =
                left[side].saturating_sub(self.now.saturating_duration_since(self.turn_start));
        }
        Some(left)
    }

    fn clock_running(&self) -> bool {
        self.time.is_some() && !self.game.is_over() && self.replay.is_none()
    }

    fn say(&mut self, text: impl Into<String>) {
        self.message = text.into();
        self.error = false;
    }

    fn complain(&mut self, text: impl Into<String>) {
        self.message = text.into();
        self.error = true;
    }

    fn engine_color(&self) -> Option<Color> {
        self.level.map(|_| self.human.opponent())
    }

    fn id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    fn worker(&mut self) -> &Worker {
        self.worker.get_or_insert_with(Worker::start)
    }

    /// Runs the clocks and collects the engine's answers. Call it often (about ten times a
    /// second) with the current time.
    pub fn tick(&mut self, now: Instant) {
        self.now = self.now.max(now);
        while let Some(answer) = self.worker.as_ref().and_then(Worker::try_answer) {
            self.receive(answer);
        }
        if self.clock_running()
            && let Some(left) = self.clock_left()
        {
            let side = self.game.side_to_move();
            if left[side.index()].is_zero() {
                self.clocks[side.index()] = Duration::ZERO;
                self.cancel_engine();
                if self.game.flag(side).is_ok() {
                    self.announce_end();
                }
            }
        }
        self.start_engine_if_due();
    }

    fn receive(&mut self, answer: Answer) {
        match answer {
            Answer::Move { id, best, score } => {
                if self.pending != Some(id) {
                    return;
                }
                self.pending = None;
                self.engine_score = Some(score);
                match best {
                    Some(mv) => {
                        if self.commit(&mv) {
                            if !self.game.is_over() {
                                self.say(format!("The engine played {mv}."));
                            }
                        } else {
                            self.complain(format!("The engine chose {mv}, which is not legal."));
                        }
                    }
                    None => self.complain("The engine found no move."),
                }
            }
            Answer::Info {
                id,
                depth,
                score,
                pv,
            } => {
                if self.analysing != Some(id) {
                    return;
                }
                if let Some(analysis) = &mut self.analysis {
                    analysis.depth = depth;
                    analysis.score = score;
                    analysis.line = pv.iter().map(Move::to_string).collect();
                }
            }
            Answer::Done { id } => {
                if self.analysing == Some(id) {
                    self.analysing = None;
                    if let Some(analysis) = &mut self.analysis {
                        analysis.running = false;
                    }
                }
            }
        }
    }

    fn start_engine_if_due(&mut self) {
        let Some(level) = self.level else { return };
        if self.pending.is_some()
            || self.replay.is_some()
            || self.game.is_over()
            || Some(self.game.side_to_move()) != self.engine_color()
        {
            return;
        }
        let limits = match self.clock_left() {
            Some(left) => Limits {
                clock: Some(Clock {
                    remaining: left[self.game.side_to_move().index()],
                    increment: self.time.map_or(Duration::ZERO, |t| t.increment),
                    moves_to_go: None,
                }),
                ..Limits::default()
            },
            None => Limits::movetime(self.think_time),
        };
        let id = self.id();
        self.seed = self
            .seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let job = Job::Move {
            id,
            game: Box::new(self.game.clone()),
            level,
            limits,
            seed: self.seed ^ self.game.ply() as u64,
        };
        if self.worker().send(job) {
            self.pending = Some(id);
        } else {
            self.complain("The engine stopped working.");
        }
    }

    fn cancel_engine(&mut self) {
        if self.pending.take().is_some()
            && let Some(worker) = &self.worker
        {
            worker.stop();
        }
    }

    fn stop_analysis(&mut self) {
        if self.analysing.take().is_some()
            && let Some(worker) = &self.worker
        {
            worker.stop();
        }
        if let Some(analysis) = &mut self.analysis {
            analysis.running = false;
        }
    }

    /// Plays a legal move in the game, runs the clocks and says how the game ended.
    fn commit(&mut self, mv: &Move) -> bool {
        let mover = self.game.side_to_move();
        if self.game.play(mv).is_err() {
            return false;
        }
        if let Some(time) = self.time {
            let spent = self.now.saturating_duration_since(self.turn_start);
            let slot = &mut self.clocks[mover.index()];
            *slot = slot.saturating_sub(spent) + time.increment;
        }
        self.turn_start = self.now;
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

    fn announce_end(&mut self) {
        if let Some(outcome) = self.game.outcome() {
            self.say(format!("Game over. {outcome}. :new for a new game."));
        }
    }

    /// Paints the whole screen.
    pub fn draw(&self, frame: &mut Frame) {
        crate::view::draw(self, frame);
    }

    /// Reacts to one key.
    pub fn handle_key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        if key.modifiers.contains(KeyModifiers::CONTROL)
            && matches!(key.code, KeyCode::Char('c') | KeyCode::Char('d'))
        {
            self.quit = true;
            return;
        }
        if self.help {
            self.help = false;
            return;
        }
        if self.confirm_quit {
            self.confirm_quit = false;
            if matches!(key.code, KeyCode::Char('y') | KeyCode::Char('Y')) {
                self.quit = true;
            } else {
                self.say("Not quitting.");
            }
            return;
        }
        match self.input.clone() {
            Input::Move(text) => self.edit_move(key, text),
            Input::Command(text) => self.edit_command(key, text),
            Input::Idle => self.normal_key(key),
        }
    }

    fn normal_key(&mut self, key: KeyEvent) {
        match key.code {
            KeyCode::Left if self.replay.is_some() => self.step_replay(-1),
            KeyCode::Right if self.replay.is_some() => self.step_replay(1),
            KeyCode::Home if self.replay.is_some() => self.step_replay(-1000),
            KeyCode::End if self.replay.is_some() => self.step_replay(1000),
            KeyCode::Up => self.move_cursor(0, 1),
            KeyCode::Down => self.move_cursor(0, -1),
            KeyCode::Left => self.move_cursor(-1, 0),
            KeyCode::Right => self.move_cursor(1, 0),
            KeyCode::Enter | KeyCode::Char(' ') => self.pick(),
            KeyCode::Esc => {
                if self.path.is_empty() {
                    self.say("Press ? for help.");
                } else {
                    self.path.clear();
                    self.say("Move cancelled.");
                }
            }
            KeyCode::Char(c @ 'a'..='h') => {
                self.path.clear();
                self.input = Input::Move(c.to_string());
            }
            KeyCode::Char(':') => self.input = Input::Command(String::new()),
            KeyCode::Char('l') => {
                self.show_legal = !self.show_legal;
                self.say(if self.show_legal {
                    "Legal moves shown."
                } else {
                    "Legal moves hidden."
                });
            }
            KeyCode::Char('p') => self.flipped = !self.flipped,
            KeyCode::Char('u') => self.undo(),
            KeyCode::Char('i') => self.analyse(),
            KeyCode::Char('?') => self.help = true,
            KeyCode::Char('q') => {
                if self.replay.is_none() && !self.game.is_over() && self.game.ply() > 0 {
                    self.confirm_quit = true;
                    self.say("Quit this game? Press y to quit, any other key to stay.");
                } else {
                    self.quit = true;
                }
            }
            _ => {}
        }
    }

    fn edit_move(&mut self, key: KeyEvent, mut text: String) {
        match key.code {
            KeyCode::Esc => self.input = Input::Idle,
            KeyCode::Backspace => {
                text.pop();
                self.input = if text.is_empty() {
                    Input::Idle
                } else {
                    Input::Move(text)
                };
            }
            KeyCode::Enter => {
                self.input = Input::Idle;
                self.play_text(text.trim());
            }
            KeyCode::Char(c) if !c.is_control() && text.len() < 80 => {
                text.push(c);
                self.input = Input::Move(text);
            }
            _ => {}
        }
    }

    fn edit_command(&mut self, key: KeyEvent, mut text: String) {
        match key.code {
            KeyCode::Esc => self.input = Input::Idle,
            KeyCode::Backspace => {
                if text.pop().is_none() {
                    self.input = Input::Idle;
                } else {
                    self.input = Input::Command(text);
                }
            }
            KeyCode::Enter => {
                self.input = Input::Idle;
                self.command(text.trim());
            }
            KeyCode::Char(c) if !c.is_control() && text.len() < 200 => {
                text.push(c);
                self.input = Input::Command(text);
            }
            _ => {}
        }
    }

    /// Whether the person may move now; says why not otherwise.
    fn may_move(&mut self) -> bool {
        if self.replay.is_some() {
            self.complain("This is a replay: ←/→ to step, :play to play on from here.");
            false
        } else if let Some(outcome) = self.game.outcome() {
            self.complain(format!(
                "The game is over ({outcome}). :new for a new game."
            ));
            false
        } else if Some(self.game.side_to_move()) == self.engine_color() {
            self.complain("Wait: the engine is thinking.");
            false
        } else {
            true
        }
    }

    fn play_text(&mut self, text: &str) {
        if !self.may_move() {
            return;
        }
        match parse_move(self.game.position(), text) {
            Ok(mv) => {
                self.commit(&mv);
            }
            Err(error) => self.complain(error.to_string()),
        }
    }

    fn move_cursor(&mut self, right: i8, up: i8) {
        let (right, up) = if self.flipped {
            (-right, -up)
        } else {
            (right, up)
        };
        let file = (self.cursor.0 as i8 + right).clamp(0, 7);
        let rank = (self.cursor.1 as i8 + up).clamp(0, 7);
        self.cursor = (file as u8, rank as u8);
    }

    /// Every way to play each legal move (all capture paths), for picking squares.
    pub(crate) fn paths(&self) -> Vec<Move> {
        if self.game.is_over() {
            return Vec::new();
        }
        let position = self.game.position();
        if position.has_capture() {
            position.capture_paths().iter().copied().collect()
        } else {
            position.legal_moves().iter().copied().collect()
        }
    }

    /// The paths that still fit the squares picked so far.
    pub(crate) fn fitting(&self) -> Vec<Move> {
        let Some((&from, landed)) = self.path.split_first() else {
            return Vec::new();
        };
        self.paths()
            .into_iter()
            .filter(|mv| mv.from() == from && mv.landings().starts_with(landed))
            .collect()
    }

    /// Squares where the picked tower may land next.
    pub(crate) fn next_landings(&self) -> Vec<Square> {
        let step = self.path.len().saturating_sub(1);
        let mut squares: Vec<Square> = self
            .fitting()
            .iter()
            .filter_map(|mv| mv.landings().get(step).copied())
            .collect();
        squares.sort_by_key(|s| s.index());
        squares.dedup();
        squares
    }

    fn pick(&mut self) {
        if !self.may_move() {
            return;
        }
        let Some(square) = self.cursor() else {
            self.complain("Pieces stand only on the dark squares.");
            return;
        };
        if self.path.is_empty() {
            if self.paths().iter().any(|mv| mv.from() == square) {
                self.path.push(square);
                self.say(format!(
                    "{square} picked: now choose where it goes (Esc cancels)."
                ));
            } else if self
                .game
                .position()
                .owned_by(self.game.side_to_move())
                .has(square)
            {
                let forced = if self.game.position().has_capture() {
                    " (a capture is forced)"
                } else {
                    ""
                };
                self.complain(format!("The tower on {square} has no legal move{forced}."));
            } else {
                self.complain(format!(
                    "No tower of {} on {square}.",
                    self.game.side_to_move()
                ));
            }
            return;
        }
        if self.path.len() == 1 && self.path[0] == square {
            self.path.clear();
            self.say("Move cancelled.");
            return;
        }
        if !self.next_landings().contains(&square) {
            if self.path.len() == 1 && self.paths().iter().any(|mv| mv.from() == square) {
                self.path = vec![square];
                self.say(format!("{square} picked instead."));
            } else {
                self.complain(format!("The tower cannot land on {square} now."));
            }
            return;
        }
        self.path.push(square);
        let fitting = self.fitting();
        let variant = self.game.variant();
        let done = fitting
            .iter()
            .find(|mv| mv.landings() == &self.path[1..])
            .copied();
        let one_result = fitting
            .iter()
            .all(|mv| fitting.first().is_some_and(|f| f.same_result(mv, variant)));
        if let Some(first) = fitting.first().copied()
            && (one_result
                || done.is_some_and(|d| {
                    fitting
                        .iter()
                        .all(|m| m.landings().len() == d.landings().len())
                }))
        {
            let mv = done.unwrap_or(first);
            self.commit(&mv);
        } else {
            self.say(format!(
                "{}: choose the next landing square.",
                self.path
                    .iter()
                    .map(Square::to_string)
                    .collect::<Vec<_>>()
                    .join(":")
            ));
        }
    }

    fn undo(&mut self) {
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
        self.turn_start = self.now;
        self.analysis = None;
        self.stop_analysis();
        self.say("Move taken back.");
        self.start_engine_if_due();
    }

    fn analyse(&mut self) {
        if self.analysing.is_some() {
            self.stop_analysis();
            self.say("Analysis stopped.");
            return;
        }
        let game = match &self.replay {
            Some(replay) => {
                let mut game = Game::new(*replay.game.start_position());
                for mv in &replay.game.moves()[..replay.shown] {
                    let _ = game.play(mv);
                }
                game
            }
            None => self.game.clone(),
        };
        if game.position().legal_moves().is_empty() {
            self.complain("No move to analyse here.");
            return;
        }
        let id = self.id();
        let job = Job::Analyse {
            id,
            game: Box::new(game.clone()),
            time: self.think_time,
        };
        if self.worker().send(job) {
            self.analysing = Some(id);
            self.analysis = Some(Analysis {
                ply: game.ply(),
                side: game.side_to_move(),
                depth: 0,
                score: Score::Value(0),
                line: Vec::new(),
                running: true,
            });
            self.say("Analysing (i again stops).");
        }
    }

    fn step_replay(&mut self, by: i64) {
        if let Some(replay) = &mut self.replay {
            let last = replay.game.moves().len() as i64;
            replay.shown = (replay.shown as i64 + by).clamp(0, last) as usize;
            let shown = replay.shown;
            self.analysis = None;
            self.stop_analysis();
            if shown == 0 {
                self.say("Start position.");
            } else if let Some(replay) = &self.replay {
                let mv = replay.game.moves()[shown - 1];
                let text = format!("Ply {shown} of {last}: {mv}");
                self.say(text);
            }
        }
    }

    fn command(&mut self, text: &str) {
        let mut words = text.split_whitespace();
        let name = words.next().unwrap_or("");
        let rest: Vec<&str> = words.collect();
        match name {
            "" => {}
            "q" | "quit" => self.quit = true,
            "new" => self.new_game(rest.first().copied()),
            "save" | "w" => match rest.first() {
                Some(file) => self.save(Path::new(file)),
                None => self.complain("Usage: :save FILE"),
            },
            "open" | "o" => match rest.first() {
                Some(file) => {
                    let number = match rest.get(1).map(|n| n.parse::<usize>()) {
                        None => 1,
                        Some(Ok(n)) if n >= 1 => n,
                        Some(_) => {
                            self.complain("Usage: :open FILE [GAME NUMBER]");
                            return;
                        }
                    };
                    if let Err(error) = self.open(Path::new(file), number) {
                        self.complain(error);
                    }
                }
                None => self.complain("Usage: :open FILE [GAME NUMBER]"),
            },
            "play" => self.play_from_replay(),
            "resign" => self.resign(),
            "draw" => self.draw_command(),
            "level" => self.set_level(rest.first().copied()),
            "flip" => self.flipped = !self.flipped,
            "help" => self.help = true,
            other => self.complain(format!("Unknown command :{other}. Press ? for help.")),
        }
    }

    fn new_game(&mut self, variant: Option<&str>) {
        let variant = match variant {
            None => self.game.variant(),
            Some(name) => match Variant::parse(name) {
                Some(v) => v,
                None => {
                    self.complain(format!("Unknown game `{name}`: bashni or russian."));
                    return;
                }
            },
        };
        self.cancel_engine();
        self.stop_analysis();
        self.analysis = None;
        self.replay = None;
        self.path.clear();
        self.game = Game::start(variant);
        self.clocks = [self.time.map_or(Duration::ZERO, |t| t.base); 2];
        self.turn_start = self.now;
        self.cursor = start_cursor(self.game.side_to_move());
        self.say(format!("New game of {variant}."));
        self.start_engine_if_due();
    }

    fn set_level(&mut self, arg: Option<&str>) {
        match arg.map(str::parse::<u8>) {
            Some(Ok(0)) => {
                self.cancel_engine();
                self.level = None;
                self.say("Two players at this screen.");
            }
            Some(Ok(n)) => match Level::new(n) {
                Some(level) => {
                    self.cancel_engine();
                    self.level = Some(level);
                    if self.replay.is_none() && !self.game.is_over() {
                        self.human = self.game.side_to_move();
                    }
                    self.say(format!(
                        "Engine level {n} ({}) plays {}.",
                        level.name(),
                        self.human.opponent()
                    ));
                    self.start_engine_if_due();
                }
                None => self.complain("Levels go from 1 to 8 (0: two players)."),
            },
            _ => self.complain("Usage: :level N (1-8; 0 for two players)"),
        }
    }

    fn resign(&mut self) {
        if self.replay.is_some() || self.game.is_over() {
            self.complain("No game is going on.");
            return;
        }
        let side = if self.level.is_some() {
            self.human
        } else {
            self.game.side_to_move()
        };
        self.cancel_engine();
        if self.game.resign(side).is_ok() {
            self.announce_end();
        }
    }

    fn draw_command(&mut self) {
        if self.replay.is_some() || self.game.is_over() {
            self.complain("No game is going on.");
            return;
        }
        if self.game.can_claim_draw().is_some()
            && self.engine_color() != Some(self.game.side_to_move())
        {
            if self.game.claim_draw().is_ok() {
                self.announce_end();
            }
            return;
        }
        let side = self.game.side_to_move();
        match self.engine_color() {
            Some(engine) => {
                let human = engine.opponent();
                if self.game.draw_offer() == Some(engine) {
                    match self.game.accept_draw(human) {
                        Ok(()) => self.announce_end(),
                        Err(error) => self.complain(format!("{error}.")),
                    }
                    return;
                }
                if let Err(error) = self.game.offer_draw(human) {
                    self.complain(format!("{error}."));
                    return;
                }
                // The engine takes a draw when its last search saw itself worse.
                let worse = self.engine_score.is_some_and(|score| score.value() < -50);
                if worse && self.game.accept_draw(engine).is_ok() {
                    self.cancel_engine();
                    self.announce_end();
                } else {
                    let _ = self.game.decline_draw(engine);
                    self.say("The engine declines the draw.");
                }
            }
            None => {
                let result = match self.game.draw_offer() {
                    Some(offerer) => self.game.accept_draw(offerer.opponent()),
                    None => self.game.offer_draw(side),
                };
                match result {
                    Err(error) => self.complain(format!("{error}.")),
                    Ok(()) if self.game.is_over() => self.announce_end(),
                    Ok(()) => self.say(format!(
                        "{side} offers a draw. {}: :draw accepts; a move by {} refuses it.",
                        side.opponent(),
                        side.opponent()
                    )),
                }
            }
        }
    }

    fn tags(&self) -> Vec<(String, String)> {
        let name = |color: Color| match (self.level, self.engine_color()) {
            (Some(level), Some(engine)) if engine == color => {
                format!("bashni engine level {}", level.number())
            }
            _ => "Player".to_string(),
        };
        let days = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() / 86_400) as i64;
        let mut tags = vec![
            ("Event".to_string(), "Casual game".to_string()),
            ("Date".to_string(), bashni_pdn::date_tag(days)),
            ("White".to_string(), name(Color::White)),
            ("Black".to_string(), name(Color::Black)),
        ];
        if let Some(time) = self.time {
            tags.push((
                "TimeControl".to_string(),
                format!("{}+{}", time.base.as_secs(), time.increment.as_secs()),
            ));
        }
        tags
    }

    fn save(&mut self, file: &Path) {
        let game = match &self.replay {
            Some(replay) => &replay.game,
            None => &self.game,
        };
        let raw = record(game, &self.tags(), MoveForm::Full);
        let mut text = String::new();
        let _ = write_game(&mut text, &raw);
        match fs::write(file, text) {
            Ok(()) => self.say(format!("Saved to {}.", file.display())),
            Err(error) => self.complain(format!("Cannot write {}: {error}", file.display())),
        }
    }

    /// Opens game `number` (1-based) of a PDN file for replay.
    fn open(&mut self, file: &Path, number: usize) -> Result<(), String> {
        let LoadedGame { raw, game } =
            load_game(file, number, Some(self.game.variant())).map_err(|e| format!("{e}."))?;
        self.cancel_engine();
        self.stop_analysis();
        self.analysis = None;
        self.path.clear();
        let mut name = String::new();
        let white = raw.tag("White").unwrap_or("?");
        let black = raw.tag("Black").unwrap_or("?");
        let _ = write!(name, "{white} - {black}");
        let plies = game.moves().len();
        self.replay = Some(Replay {
            game,
            shown: 0,
            name,
        });
        self.say(format!(
            "Opened game {number} of {} ({plies} plies). →/← step, Home/End, :play plays on.",
            file.display()
        ));
        Ok(())
    }

    fn play_from_replay(&mut self) {
        let Some(replay) = self.replay.take() else {
            self.complain("Not in a replay: :open FILE first.");
            return;
        };
        let mut game = Game::new(*replay.game.start_position());
        for mv in &replay.game.moves()[..replay.shown] {
            let _ = game.play(mv);
        }
        self.game = game;
        self.clocks = [self.time.map_or(Duration::ZERO, |t| t.base); 2];
        self.turn_start = self.now;
        if self.level.is_some() {
            self.human = self.game.side_to_move();
        }
        self.say(format!(
            "Playing on from ply {}. {} to move.",
            self.game.ply(),
            self.game.side_to_move()
        ));
        if self.game.is_over() {
            self.announce_end();
        }
        self.start_engine_if_due();
    }
}

/// A cursor start on the mover's side: c3 for White, f6 for Black.
fn start_cursor(side: Color) -> (u8, u8) {
    match side {
        Color::White => (2, 2),
        Color::Black => (5, 5),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_read() {
        let tc = TimeControl::parse("3+2").expect("valid");
        assert_eq!(tc.base, Duration::from_secs(180));
        assert_eq!(tc.increment, Duration::from_secs(2));
        assert_eq!(
            TimeControl::parse("5").expect("valid").increment,
            Duration::ZERO
        );
        assert!(TimeControl::parse("x+1").is_err());
        assert!(TimeControl::parse("0+1").is_err());
    }
}
