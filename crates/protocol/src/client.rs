//! The GUI side of the protocol: starts a program that speaks it, does the handshake and
//! asks it for moves. Every wait has a deadline, so that a program that hangs or dies gives
//! an error rather than hanging its caller; a program that failed so is stopped and not
//! asked again.

use std::ffi::OsStr;
use std::fmt;
use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use bashni_engine::Limits;
use bashni_rules::notation::{MoveTextError, parse_move, write_position};
use bashni_rules::{Game, Move};

use crate::info::{SearchInfo, write_seconds};
use crate::line::Line;
use crate::reader::LineReader;

/// How long to wait for the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// From `hub` to `wait`, and from `init` to `ready`.
    pub start: Duration,
    /// For `pong`, and for `done` after `stop`.
    pub reply: Duration,
    /// Added to the time a search with a clock or a time per move may take.
    pub grace: Duration,
    /// How long a search limited only by depth or nodes (or not at all) may take before it is
    /// stopped.
    pub search: Duration,
}

impl Default for Timeouts {
    fn default() -> Timeouts {
        Timeouts {
            start: Duration::from_secs(30),
            reply: Duration::from_secs(5),
            grace: Duration::from_secs(2),
            search: Duration::from_secs(600),
        }
    }
}

/// Why the program could not give what was asked.
#[derive(Debug)]
pub enum ClientError {
    /// The program could not be started.
    Spawn(std::io::Error),
    /// A line could not be sent to the program.
    Io(std::io::Error),
    /// The program ended or closed its output; its exit status, when known.
    Exited(Option<ExitStatus>),
    /// The program did not answer in time; it has been stopped.
    Timeout {
        /// What it was expected to send.
        waiting_for: &'static str,
        /// How long it was waited for.
        after: Duration,
    },
    /// The program answered `error`.
    Refused(String),
    /// The program's move is not a legal move of the position.
    IllegalMove {
        /// The move as the program wrote it.
        text: String,
        /// Why it cannot be read as a legal move.
        error: MoveTextError,
    },
    /// The program failed earlier and has been stopped.
    Gone,
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Spawn(error) => write!(f, "the engine could not be started: {error}"),
            ClientError::Io(error) => write!(f, "cannot write to the engine: {error}"),
            ClientError::Exited(Some(status)) => write!(f, "the engine ended ({status})"),
            ClientError::Exited(None) => f.write_str("the engine closed its output"),
            ClientError::Timeout { waiting_for, after } => write!(
                f,
                "the engine sent no `{waiting_for}` within {:.1} s",
                after.as_secs_f64()
            ),
            ClientError::Refused(message) => write!(f, "the engine answered: {message}"),
            ClientError::IllegalMove { text, error } => {
                write!(f, "the engine played `{text}`: {error}")
            }
            ClientError::Gone => f.write_str("the engine failed earlier and was stopped"),
        }
    }
}

impl std::error::Error for ClientError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ClientError::Spawn(error) | ClientError::Io(error) => Some(error),
            ClientError::IllegalMove { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// A program speaking the protocol, started and initialised, ready to search.
///
/// It is sent `quit` when dropped, and stopped if it does not end soon after.
pub struct ExternalEngine {
    child: Child,
    stdin: ChildStdin,
    /// Lines from the program's output, read on a thread of their own.
    lines: Receiver<String>,
    timeouts: Timeouts,
    id: Option<Line>,
    params: Vec<Line>,
    last_info: Option<SearchInfo>,
    /// Set once the program has failed; it is then stopped and never asked again.
    gone: bool,
    program: String,
}

impl ExternalEngine {
    /// Starts `program` with `args` and default [`Timeouts`], setting no parameter.
    pub fn start(program: impl AsRef<OsStr>, args: &[&str]) -> Result<ExternalEngine, ClientError> {
        let mut command = Command::new(program);
        command.args(args);
        ExternalEngine::start_with(command, &[], Timeouts::default())
    }

    /// Starts `command` (its standard input and output are taken over; its error output is
    /// left as it is), sends `hub` and waits for `wait`, sets each of `params` (name and
    /// value) with `set-param`, then sends `init` and waits for `ready`.
    pub fn start_with(
        mut command: Command,
        params: &[(&str, &str)],
        timeouts: Timeouts,
    ) -> Result<ExternalEngine, ClientError> {
        let program = command.get_program().to_string_lossy().into_owned();
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(ClientError::Spawn)?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(ClientError::Spawn(std::io::Error::other(
                "no pipe to the engine",
            )));
        };
        let (sender, lines) = mpsc::channel();
        std::thread::Builder::new()
            .name("engine output".to_string())
            .spawn(move || {
                for line in LineReader::new(BufReader::new(stdout)) {
                    match line {
                        Err(_) => break,
                        // A line too long to be read is passed over, like one that does not
                        // follow the syntax.
                        Ok(Err(_)) => {}
                        Ok(Ok(line)) => {
                            if sender.send(line).is_err() {
                                break;
                            }
                        }
                    }
                }
            })
            .map_err(ClientError::Spawn)?;
        // From here on, dropping `engine` on an error stops the program.
        let mut engine = ExternalEngine {
            child,
            stdin,
            lines,
            timeouts,
            id: None,
            params: Vec::new(),
            last_info: None,
            gone: false,
            program,
        };
        engine.handshake(params)?;
        Ok(engine)
    }

    fn handshake(&mut self, params: &[(&str, &str)]) -> Result<(), ClientError> {
        self.send(&Line::new("hub"))?;
        let deadline = deadline_in(self.timeouts.start);
        loop {
            let line = self.receive(deadline, "wait")?;
            match line.command() {
                "id" => self.id = Some(line),
                "param" => self.params.push(line),
                "wait" => break,
                _ => {}
            }
        }
        for (name, value) in params {
            self.send(&Line::new("set-param").arg("name", name).arg("value", value))?;
        }
        self.send(&Line::new("init"))?;
        let deadline = deadline_in(self.timeouts.start);
        loop {
            let line = self.receive(deadline, "ready")?;
            match line.command() {
                "error" => return Err(refused(&line)),
                "ready" => return Ok(()),
                _ => {}
            }
        }
    }

    /// The engine's name from its `id` line, or else the program's name.
    pub fn name(&self) -> &str {
        self.id
            .as_ref()
            .and_then(|id| id.get("name"))
            .unwrap_or(&self.program)
    }

    /// The `id` line the engine sent, if any.
    pub fn id(&self) -> Option<&Line> {
        self.id.as_ref()
    }

    /// The `param` lines the engine declared.
    pub fn params(&self) -> &[Line] {
        &self.params
    }

    /// The last `info` line of the last search.
    pub fn last_info(&self) -> Option<&SearchInfo> {
        self.last_info.as_ref()
    }

    /// Whether the program failed (died, broke the protocol, or missed a deadline) and was
    /// stopped: every later request fails with [`ClientError::Gone`].
    pub fn is_gone(&self) -> bool {
        self.gone
    }

    /// Tells the engine that the next search has nothing to do with the earlier ones.
    pub fn new_game(&mut self) -> Result<(), ClientError> {
        self.send(&Line::new("new-game"))
    }

    /// Sends `ping` and waits for `pong`, passing over whatever came before it; an `error`
    /// among that is returned.
    pub fn ping(&mut self) -> Result<(), ClientError> {
        self.send(&Line::new("ping"))?;
        let deadline = deadline_in(self.timeouts.reply);
        let mut refusal = None;
        loop {
            let line = self.receive(deadline, "pong")?;
            match line.command() {
                "error" => refusal = refusal.or(Some(refused(&line))),
                "pong" => return refusal.map_or(Ok(()), Err),
                _ => {}
            }
        }
    }

    /// Asks the engine for its move in the current position of `game`, within `limits`:
    /// sends the game (`pos` with its start position and moves), `level` and `go think`, and
    /// reads `info` lines (keeping the last, see [`ExternalEngine::last_info`]) until `done`.
    ///
    /// `Ok(None)` means the engine says it has no move. A search that runs past its time
    /// (the clock's time left or the time per move, plus [`Timeouts::grace`]; else
    /// [`Timeouts::search`]) is sent `stop`, and its move taken if `done` follows within
    /// [`Timeouts::reply`].
    pub fn go(&mut self, game: &Game, limits: &Limits) -> Result<Option<Move>, ClientError> {
        self.last_info = None;
        let mut pos = Line::new("pos")
            .arg("variant", game.variant())
            .arg("pos", write_position(game.start_position()));
        if !game.moves().is_empty() {
            let moves: Vec<String> = game.moves().iter().map(Move::to_string).collect();
            pos = pos.arg("moves", moves.join(" "));
        }
        self.send(&pos)?;
        self.send(&level_line(limits))?;
        // The `pong` also clears away anything left from earlier searches.
        self.ping()?;
        self.send(&Line::new("go").flag("think"))?;
        let timed = [
            limits.movetime,
            limits
                .clock
                .map(|clock| clock.remaining.saturating_add(clock.increment)),
        ]
        .into_iter()
        .flatten()
        .min();
        let allowed = timed.map_or(self.timeouts.search, |time| {
            time.saturating_add(self.timeouts.grace)
        });
        let mut deadline = deadline_in(allowed);
        let mut stopped = false;
        let mut refusal = None;
        loop {
            let line = match self.receive_or_timeout(deadline)? {
                Some(line) => line,
                // The engine refused the search and sent no `done` after all.
                None if refusal.is_some() => return Err(refusal.unwrap_or(ClientError::Gone)),
                None if !stopped => {
                    self.send(&Line::new("stop"))?;
                    stopped = true;
                    deadline = deadline_in(self.timeouts.reply);
                    continue;
                }
                None => {
                    self.give_up();
                    return Err(ClientError::Timeout {
                        waiting_for: "done",
                        after: allowed.saturating_add(self.timeouts.reply),
                    });
                }
            };
            match line.command() {
                "info" => self.last_info = Some(SearchInfo::from_line(&line)),
                "error" => {
                    // A refused `go` may have no `done` to follow.
                    refusal = refusal.or(Some(refused(&line)));
                    deadline = deadline.min(deadline_in(self.timeouts.reply));
                }
                "done" => {
                    if let Some(refusal) = refusal {
                        return Err(refusal);
                    }
                    return match line.get("move").filter(|text| !text.is_empty()) {
                        None => Ok(None),
                        Some(text) => {
                            parse_move(game.position(), text)
                                .map(Some)
                                .map_err(|error| ClientError::IllegalMove {
                                    text: text.to_string(),
                                    error,
                                })
                        }
                    };
                }
                _ => {}
            }
        }
    }

    fn send(&mut self, line: &Line) -> Result<(), ClientError> {
        if self.gone {
            return Err(ClientError::Gone);
        }
        let written = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
        match written {
            Ok(()) => Ok(()),
            Err(error) => {
                let exited = self.exit_status();
                self.give_up();
                Err(match exited {
                    Some(status) => ClientError::Exited(Some(status)),
                    None => ClientError::Io(error),
                })
            }
        }
    }

    /// The next readable line before `deadline`; a timeout is an error.
    fn receive(
        &mut self,
        deadline: Instant,
        waiting_for: &'static str,
    ) -> Result<Line, ClientError> {
        let started = Instant::now();
        match self.receive_or_timeout(deadline)? {
            Some(line) => Ok(line),
            None => {
                self.give_up();
                Err(ClientError::Timeout {
                    waiting_for,
                    after: deadline.saturating_duration_since(started),
                })
            }
        }
    }

    /// The next readable line before `deadline`, or `None` when the deadline passes.
    fn receive_or_timeout(&mut self, deadline: Instant) -> Result<Option<Line>, ClientError> {
        if self.gone {
            return Err(ClientError::Gone);
        }
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(text) => {
                    // Lines that do not follow the syntax are passed over, like unknown ones.
                    if let Ok(Some(line)) = Line::parse(&text) {
                        return Ok(Some(line));
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Ok(None),
                Err(RecvTimeoutError::Disconnected) => {
                    let status = self.exit_status();
                    self.give_up();
                    return Err(ClientError::Exited(status));
                }
            }
        }
    }

    /// The program's exit status, waiting a little for a program that is closing.
    fn exit_status(&mut self) -> Option<ExitStatus> {
        let deadline = Instant::now() + Duration::from_millis(500);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(10));
                }
                _ => return None,
            }
        }
    }

    /// Stops the program for good.
    fn give_up(&mut self) {
        if !self.gone {
            self.gone = true;
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Sends `quit`, and stops the program if it has not ended within a second.
impl Drop for ExternalEngine {
    fn drop(&mut self) {
        if self.gone {
            return;
        }
        let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
        let deadline = Instant::now() + Duration::from_secs(1);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.give_up();
    }
}

/// The moment `wait` from now; a moment too far to be represented is taken as a year from
/// now, which no wait of a game lasts.
fn deadline_in(wait: Duration) -> Instant {
    const YEAR: Duration = Duration::from_secs(365 * 24 * 60 * 60);
    let now = Instant::now();
    now.checked_add(wait)
        .or_else(|| now.checked_add(YEAR))
        .unwrap_or(now)
}

fn refused(line: &Line) -> ClientError {
    ClientError::Refused(line.get("message").unwrap_or("error").to_string())
}

/// The `level` line for `limits`: every limit set, or `infinite` when none is.
fn level_line(limits: &Limits) -> Line {
    let mut line = Line::new("level");
    if let Some(depth) = limits.depth {
        line = line.arg("depth", depth);
    }
    if let Some(nodes) = limits.nodes {
        line = line.arg("nodes", nodes);
    }
    if let Some(time) = limits.movetime {
        line = line.arg("move-time", write_seconds(time));
    }
    if let Some(clock) = limits.clock {
        line = line
            .arg("time", write_seconds(clock.remaining))
            .arg("inc", write_seconds(clock.increment));
        if let Some(moves) = clock.moves_to_go {
            line = line.arg("moves", moves);
        }
    }
    if line.args().next().is_none() {
        line = line.flag("infinite");
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use bashni_engine::Clock;

    #[test]
    fn level_lines_carry_every_limit() {
        assert_eq!(level_line(&Limits::default()).to_string(), "level infinite");
        assert_eq!(level_line(&Limits::depth(6)).to_string(), "level depth=6");
        let limits = Limits {
            depth: None,
            nodes: Some(5000),
            movetime: Some(Duration::from_millis(1500)),
            clock: Some(Clock {
                remaining: Duration::from_secs(60),
                increment: Duration::from_millis(500),
                moves_to_go: Some(20),
            }),
            ..Limits::default()
        };
        assert_eq!(
            level_line(&limits).to_string(),
            "level nodes=5000 move-time=1.500 time=60.000 inc=0.500 moves=20"
        );
    }
}
