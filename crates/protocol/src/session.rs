//! The engine side of the protocol: turns each line the GUI sends into work for a
//! [`bashni_engine::Engine`] and its results into lines. It owns the engine, the position
//! and the limits of the next search, and the thread of the running search. It writes no
//! stream itself, and reads one only when given it ([`Session::serve`], through a
//! [`LineReader`] that bounds the length of a line), so that a program (or a test) decides
//! where lines come from and go to.

use std::io::{self, BufRead};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::thread::JoinHandle;

use bashni_egtb::Tablebase;
use bashni_engine::rng::Rng;
use bashni_engine::{Clock, Engine, Info, Level, Limits, Options, Past, SearchResult, StopToken};
use bashni_rules::notation::{parse_move, read_position};
use bashni_rules::{Game, Position, Variant};

use crate::info::{SearchInfo, parse_seconds};
use crate::line::Line;
use crate::reader::{LineReader, LineTooLong, MAX_LINE_BYTES};

/// Where the session's lines go: called once per line, without the line break, from the
/// session's thread or from the search thread.
type Output = Arc<dyn Fn(&str) + Send + Sync>;

/// Whether to go on reading after a line.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// The GUI sent `quit`: stop reading.
    Quit,
}

/// The engine's name in `id`.
const NAME: &str = "Bashni";
/// The engine's author in `id`.
const AUTHOR: &str = "the Bashni project";

/// The whole-number parameters: name, smallest and largest value.
const NUMBER_PARAMS: [(&str, u64, u64); 4] = [
    ("hash", 1, 4096),
    ("threads", 1, 256),
    ("multipv", 1, 64),
    ("level", 1, Level::MAX as u64),
];

/// The longest time a `level` line may give (`move-time`, `time`, `inc`), in seconds: about
/// eleven and a half days. Longer times are refused rather than cut down in silence.
const MAX_SECONDS: u32 = 1_000_000;

/// The most moves to the next time control (`moves`) a `level` line may give.
const MAX_MOVES_TO_GO: u64 = 1000;

/// How many characters of a refused value an error message repeats.
const SHOWN_CHARS: usize = 40;

/// The answer to a command that needs the engine while it searches.
const BUSY: &str = "a search is running: send stop and wait for done first";

/// The position the next search starts from.
enum Current {
    /// No `pos` yet: the start position of the `variant` parameter.
    Start,
    /// The game set up by the last `pos`.
    Game(Box<Game>),
    /// The last `pos` was refused; `go` is refused until a good one.
    Refused,
}

/// What `go` asked for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    /// Find a move to play, at the `level` parameter.
    Think,
    /// Analyse at full strength, reporting `multipv` lines.
    Analyze,
}

/// Everything a search thread needs.
struct Job {
    game: Game,
    limits: Limits,
    mode: Mode,
    level: Level,
    multipv: usize,
    seed: u64,
}

/// A search running on its own thread, which hands the engine back when it ends.
struct Search {
    thread: JoinHandle<Engine>,
    /// This search's own stop token.
    stop: StopToken,
    /// Set just before `done` is sent, so that a GUI that has read `done` finds the engine
    /// free.
    finished: Arc<AtomicBool>,
    /// Whether the search ends by itself (a depth, node or time limit).
    bounded: bool,
}

/// The engine side of one conversation.
///
/// [`Session::handle`] takes the lines the GUI sends, one at a time; every answer, at once or
/// later from the search thread, goes to the output callback given to [`Session::new`]. A
/// bad line is answered by `error message="..."` and changes nothing else, except that a
/// refused `pos` or `level` leaves no position or limits to search until a good one comes.
pub struct Session {
    /// The engine while it is idle; the search thread holds it while it searches.
    engine: Option<Engine>,
    /// The engine's options, known even while it searches.
    options: Options,
    variant: Variant,
    level: Level,
    position: Current,
    /// The limits of the next search; `None` after a refused `level`.
    limits: Option<Limits>,
    search: Option<Search>,
    output: Output,
    /// Varies the choices of the weaker levels from search to search.
    seeds: Rng,
    /// The endgame databases set by the `egtb` parameter, with their directory as given.
    egtb: Option<(String, Arc<Tablebase>)>,
}

impl Session {
    /// A session driving `engine`, whose lines go to `output`.
    pub fn new(engine: Engine, output: impl Fn(&str) + Send + Sync + 'static) -> Session {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |time| time.as_nanos() as u64);
        Session {
            options: engine.options().clone(),
            engine: Some(engine),
            variant: Variant::Bashni,
            level: Level::full(),
            position: Current::Start,
            limits: Some(Limits::default()),
            search: None,
            output: Arc::new(output),
            seeds: Rng::new(seed),
            egtb: None,
        }
    }

    /// A session whose lines arrive on the returned channel.
    pub fn channel(engine: Engine) -> (Session, Receiver<String>) {
        let (sender, receiver) = mpsc::channel();
        let session = Session::new(engine, move |line: &str| {
            // Nobody listening any more is no reason to stop the engine.
            let _ = sender.send(line.to_string());
        });
        (session, receiver)
    }

    /// Handles one line from the GUI (with or without its line break). A line longer than
    /// [`MAX_LINE_BYTES`] is answered by `error` and not read.
    pub fn handle(&mut self, text: &str) -> Flow {
        let content = text.strip_suffix('\n').unwrap_or(text);
        let content = content.strip_suffix('\r').unwrap_or(content);
        if content.len() > MAX_LINE_BYTES {
            self.error(&format!(
                "the line is too long: {} bytes, and the limit is {MAX_LINE_BYTES} bytes; it was skipped",
                content.len()
            ));
            return Flow::Continue;
        }
        let line = match Line::parse(text) {
            Ok(Some(line)) => line,
            Ok(None) => return Flow::Continue,
            Err(error) => {
                self.error(&format!("unreadable line: {error}"));
                return Flow::Continue;
            }
        };
        self.reap();
        let outcome = match line.command() {
            "hub" => {
                self.hub();
                Ok(())
            }
            "init" => {
                self.say(&Line::new("ready"));
                Ok(())
            }
            "set-param" => self.set_param(&line),
            "new-game" => self.idle_engine().map(|engine| engine.new_game()),
            "pos" => self.pos(&line),
            "level" => self.level(&line),
            "go" => self.go(&line),
            "stop" => {
                self.stop();
                Ok(())
            }
            "ping" => {
                self.say(&Line::new("pong"));
                Ok(())
            }
            "quit" => {
                self.stop();
                self.join();
                return Flow::Quit;
            }
            _ => Ok(()),
        };
        if let Err(message) = outcome {
            self.error(&message);
        }
        Flow::Continue
    }

    /// Reads the GUI's lines from `input` and handles each, until `quit` or the end of the
    /// input (then as [`Session::finish`]). A line longer than [`MAX_LINE_BYTES`] is skipped
    /// as it is read, and answered by `error` naming its number; the session goes on with
    /// the next line. An error reading `input` ends the session as its end would, and is
    /// returned.
    pub fn serve(&mut self, input: impl BufRead) -> io::Result<()> {
        for line in LineReader::new(input) {
            let line = match line {
                Ok(line) => line,
                Err(error) => {
                    self.finish();
                    return Err(error);
                }
            };
            match line {
                Ok(text) => {
                    if self.handle(&text) == Flow::Quit {
                        return Ok(());
                    }
                }
                Err(too_long) => self.too_long(&too_long),
            }
        }
        self.finish();
        Ok(())
    }

    /// Answers a line that was too long to read.
    fn too_long(&self, too_long: &LineTooLong) {
        self.error(&format!("{too_long} (it began `{}...`)", too_long.start));
    }

    /// The input has ended: stops a search that would not end by itself, and waits for the
    /// search to send `done`.
    pub fn finish(&mut self) {
        if self.search.as_ref().is_some_and(|search| !search.bounded) {
            self.stop();
        }
        self.join();
    }

    /// Whether a search is running.
    pub fn is_searching(&mut self) -> bool {
        self.reap();
        self.search.is_some()
    }

    fn say(&self, line: &Line) {
        (self.output)(&line.to_string());
    }

    fn error(&self, message: &str) {
        self.say(&error_line(message));
    }

    fn hub(&self) {
        self.say(
            &Line::new("id")
                .arg("name", NAME)
                .arg("version", env!("CARGO_PKG_VERSION"))
                .arg("author", AUTHOR),
        );
        self.say(
            &Line::new("param")
                .arg("name", "variant")
                .arg("value", self.variant)
                .arg("type", "enum")
                .arg("values", "bashni russian"),
        );
        for (name, min, max) in NUMBER_PARAMS {
            let value = match name {
                "hash" => self.options.hash_mb,
                "threads" => self.options.threads,
                "multipv" => self.options.multipv,
                _ => usize::from(self.level.number()),
            };
            self.say(
                &Line::new("param")
                    .arg("name", name)
                    .arg("value", value)
                    .arg("type", "int")
                    .arg("min", min)
                    .arg("max", max),
            );
        }
        self.say(
            &Line::new("param")
                .arg("name", "egtb")
                .arg(
                    "value",
                    self.egtb.as_ref().map_or("", |(dir, _)| dir.as_str()),
                )
                .arg("type", "string"),
        );
        self.say(&Line::new("wait"));
    }

    /// A new engine with the session's options and endgame databases.
    fn new_engine(&self) -> Engine {
        let mut engine = Engine::new(self.options.clone());
        engine.set_tablebase(self.egtb.as_ref().map(|(_, tables)| Arc::clone(tables)));
        engine
    }

    /// `set-param name=egtb value=DIR`: loads the endgame databases of `DIR`, or drops them
    /// for an empty value.
    fn set_egtb(&mut self, dir: &str) -> Result<(), String> {
        let egtb = if dir.is_empty() {
            None
        } else {
            let tables = Tablebase::load(std::path::Path::new(dir))
                .map_err(|error| format!("egtb: {error}"))?;
            Some((dir.to_string(), Arc::new(tables)))
        };
        let tables = egtb.as_ref().map(|(_, tables)| Arc::clone(tables));
        self.idle_engine()?.set_tablebase(tables);
        self.egtb = egtb;
        Ok(())
    }

    /// The engine, if no search holds it.
    fn idle_engine(&mut self) -> Result<&mut Engine, String> {
        if self.search.is_some() {
            return Err(BUSY.to_string());
        }
        if self.engine.is_none() {
            self.engine = Some(self.new_engine());
        }
        self.engine.as_mut().ok_or_else(|| BUSY.to_string())
    }

    fn set_param(&mut self, line: &Line) -> Result<(), String> {
        let name = line.get("name").ok_or("set-param needs name=")?;
        let value = line.get("value").ok_or("set-param needs value=")?;
        self.idle_engine()?;
        if name == "variant" {
            self.variant = Variant::parse(value).ok_or_else(|| unknown_variant(value))?;
            return Ok(());
        }
        if name == "egtb" {
            return self.set_egtb(value);
        }
        let (_, min, max) = NUMBER_PARAMS
            .into_iter()
            .find(|param| param.0 == name)
            .ok_or_else(|| format!("unknown parameter `{}`", shown(name)))?;
        let number = value
            .parse::<u64>()
            .ok()
            .filter(|n| (min..=max).contains(n))
            .ok_or_else(|| {
                format!(
                    "{name} must be a whole number from {min} to {max}, not `{}`",
                    shown(value)
                )
            })?;
        let mut options = self.options.clone();
        match name {
            "hash" => options.hash_mb = number as usize,
            "threads" => options.threads = number as usize,
            "multipv" => options.multipv = number as usize,
            _ => {
                self.level = u8::try_from(number)
                    .ok()
                    .and_then(Level::new)
                    .ok_or_else(|| format!("no level {number}"))?;
                return Ok(());
            }
        }
        self.idle_engine()?.set_options(options.clone());
        self.options = options;
        Ok(())
    }

    fn pos(&mut self, line: &Line) -> Result<(), String> {
        // If the line is refused, no position is left: `go` must not search the old one.
        self.position = Current::Refused;
        self.position = Current::Game(Box::new(read_game(self.variant, line)?));
        Ok(())
    }

    fn level(&mut self, line: &Line) -> Result<(), String> {
        // If the line is refused, no limits are left, as with `pos`.
        self.limits = None;
        self.limits = Some(read_limits(line)?);
        Ok(())
    }

    fn go(&mut self, line: &Line) -> Result<(), String> {
        let mode = if line.has("think") {
            Mode::Think
        } else if line.has("analyze") {
            Mode::Analyze
        } else {
            return Err("go needs think or analyze".to_string());
        };
        self.idle_engine()?;
        let game = match &self.position {
            Current::Start => Game::start(self.variant),
            Current::Game(game) => (**game).clone(),
            Current::Refused => {
                return Err("no position to search: the last pos was refused".to_string());
            }
        };
        let stop = StopToken::new();
        let limits = self
            .limits
            .clone()
            .ok_or("no limits to search with: the last level was refused")?
            .with_stop(stop.clone());
        let engine = match self.engine.take() {
            Some(engine) => engine,
            None => self.new_engine(),
        };
        let job = Job {
            game,
            limits,
            mode,
            level: self.level,
            multipv: self.options.multipv,
            seed: self.seeds.next_u64(),
        };
        let bounded = job.limits.is_bounded();
        let finished = Arc::new(AtomicBool::new(false));
        let thread = {
            let finished = Arc::clone(&finished);
            let output = Arc::clone(&self.output);
            std::thread::Builder::new()
                .name("search".to_string())
                .spawn(move || {
                    let done =
                        catch_unwind(AssertUnwindSafe(|| run(&engine, &job, output.as_ref())));
                    finished.store(true, Ordering::Release);
                    match done {
                        Ok(line) => output(&line.to_string()),
                        Err(_) => {
                            output(&error_line("the search failed").to_string());
                            output("done");
                        }
                    }
                    engine
                })
        };
        match thread {
            Ok(thread) => {
                self.search = Some(Search {
                    thread,
                    stop,
                    finished,
                    bounded,
                });
                Ok(())
            }
            Err(error) => Err(format!("cannot start the search: {error}")),
        }
    }

    fn stop(&self) {
        if let Some(search) = &self.search {
            search.stop.stop();
        }
    }

    /// Takes the engine back from a search that has ended.
    fn reap(&mut self) {
        let ended = self.search.as_ref().is_some_and(|search| {
            search.finished.load(Ordering::Acquire) || search.thread.is_finished()
        });
        if ended {
            self.join();
        }
    }

    /// Waits for the search to end and takes the engine back.
    fn join(&mut self) {
        if let Some(search) = self.search.take() {
            // The thread catches the search's panics, so it always hands the engine back;
            // should it not, a new engine takes its place.
            self.engine = Some(search.thread.join().unwrap_or_else(|_| self.new_engine()));
        }
    }
}

/// A running search is stopped, and its thread waited for, when the session goes.
impl Drop for Session {
    fn drop(&mut self) {
        self.stop();
        self.join();
    }
}

fn error_line(message: &str) -> Line {
    Line::new("error").arg("message", message)
}

fn unknown_variant(text: &str) -> String {
    format!("unknown variant `{}`: bashni or russian", shown(text))
}

/// `text` as an error message repeats it: its first characters only, when it is long.
fn shown(text: &str) -> String {
    match text.char_indices().nth(SHOWN_CHARS) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_string(),
    }
}

/// The game a `pos` line sets up: the start position (`pos=`, the variant's start position
/// when absent or `start`) and the moves played from it.
fn read_game(default: Variant, line: &Line) -> Result<Game, String> {
    let variant = match line.get("variant") {
        Some(text) => Variant::parse(text).ok_or_else(|| unknown_variant(text))?,
        None => default,
    };
    let start = match line.get("pos") {
        None => Position::start(variant),
        Some(text) => read_position(variant, text).map_err(|e| format!("bad position: {e}"))?,
    };
    let mut game = Game::new(start);
    let moves = line.get("moves").unwrap_or("");
    for (index, text) in moves.split_whitespace().enumerate() {
        let mv = parse_move(game.position(), text)
            .map_err(|e| format!("illegal move {} in moves: {e}", index + 1))?;
        game.play(&mv)
            .map_err(|e| format!("illegal move {} in moves: `{text}`: {e}", index + 1))?;
    }
    Ok(game)
}

/// The limits a `level` line sets; every limit given applies. Every number is checked
/// against its range here, so that the search never sees a limit it cannot work with.
fn read_limits(line: &Line) -> Result<Limits, String> {
    if line.has("infinite") {
        return Ok(Limits::default());
    }
    let time = seconds(line, "time")?;
    let increment = seconds(line, "inc")?;
    let moves_to_go = whole(line, "moves", MAX_MOVES_TO_GO)?
        .map(|moves| u32::try_from(moves).unwrap_or(u32::MAX));
    let clock = match time {
        Some(remaining) => Some(Clock {
            remaining,
            increment: increment.unwrap_or_default(),
            moves_to_go,
        }),
        None if increment.is_some() || moves_to_go.is_some() => {
            return Err("level: inc= and moves= need time=".to_string());
        }
        None => None,
    };
    Ok(Limits {
        depth: whole(line, "depth", u64::from(Limits::MAX_DEPTH))?
            .map(|depth| u32::try_from(depth).unwrap_or(Limits::MAX_DEPTH)),
        nodes: whole(line, "nodes", u64::MAX)?,
        movetime: seconds(line, "move-time")?,
        clock,
        stop: None,
        without_tables: false,
    })
}

/// The argument `name` as a whole number from 1 to `max`, if given.
fn whole(line: &Line, name: &str, max: u64) -> Result<Option<u64>, String> {
    line.get(name)
        .map(|text| {
            text.parse::<u64>()
                .ok()
                .filter(|n| (1..=max).contains(n))
                .ok_or_else(|| {
                    format!(
                        "level: {name} must be a whole number from 1 to {max}, not `{}`",
                        shown(text)
                    )
                })
        })
        .transpose()
}

/// The argument `name` as a time in seconds from 0 to [`MAX_SECONDS`], if given.
fn seconds(line: &Line, name: &str) -> Result<Option<std::time::Duration>, String> {
    let most = std::time::Duration::from_secs(u64::from(MAX_SECONDS));
    line.get(name)
        .map(|text| {
            parse_seconds(text)
                .filter(|time| *time <= most)
                .ok_or_else(|| {
                    format!(
                        "level: {name} must be a number of seconds from 0 to {MAX_SECONDS}, not `{}`",
                        shown(text)
                    )
                })
        })
        .transpose()
}

/// Runs one search on the search thread, sending its `info` lines; returns the `done` line.
fn run(engine: &Engine, job: &Job, output: &(dyn Fn(&str) + Send + Sync)) -> Line {
    let game = &job.game;
    if game.legal_moves().is_empty() {
        return Line::new("done");
    }
    let report = |info: &Info| {
        output(&SearchInfo::from_engine(info).to_line().to_string());
    };
    let position = game.position();
    let past = Past::of(game);
    let result = match job.mode {
        Mode::Analyze => engine.search_lines(position, &past, &job.limits, job.multipv, report),
        Mode::Think if job.level < Level::full() => {
            let result = job
                .level
                .choose(engine, position, &past, &job.limits, job.seed);
            if let Some(chosen) = result.lines.first() {
                report(&Info {
                    multipv: 1,
                    ..chosen.clone()
                });
            }
            result
        }
        Mode::Think => engine.search_lines(position, &past, &job.limits, 1, report),
    };
    done_line(&result)
}

/// `done move=... ponder=...`, or `done` alone when there is no move.
fn done_line(result: &SearchResult) -> Line {
    let Some(best) = result.best else {
        return Line::new("done");
    };
    let line = Line::new("done").arg("move", best);
    let reply = result
        .lines
        .first()
        .filter(|line| line.pv.first() == Some(&best))
        .and_then(|line| line.pv.get(1));
    match reply {
        Some(reply) => line.arg("ponder", reply),
        None => line,
    }
}
