//! One game being played: the rules' [`Game`], its seats, clocks and result, and the
//! actions people take on it. Nothing here waits or does I/O; the caller stores each change
//! and tells the watchers.

use std::time::{Duration, Instant};

use bashni_rules::notation::{MoveTextError, parse_fen, parse_move};
use bashni_rules::{
    Clock, Color, Game, GameError, Move, Outcome, Position, Reason, TimeControl, Variant,
};

use crate::error::ApiError;
use crate::store::{GameRow, MoveRow};

/// Who is acting.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Seat {
    /// The holder of White's seat.
    White,
    /// The holder of Black's seat.
    Black,
    /// One person holding both seats (a game at one screen).
    Both,
    /// The server's engine, for its own colour.
    Engine,
}

impl Seat {
    /// Whether the seat may act for `color`.
    pub fn holds(self, color: Color) -> bool {
        match self {
            Seat::White => color == Color::White,
            Seat::Black => color == Color::Black,
            Seat::Both | Seat::Engine => true,
        }
    }

    /// `white`, `black` or `both`.
    pub fn name(self) -> &'static str {
        match self {
            Seat::White => "white",
            Seat::Black => "black",
            Seat::Both => "both",
            Seat::Engine => "engine",
        }
    }
}

/// The kind of game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    /// A person against the engine.
    Engine,
    /// Two people, the second invited by a link.
    Friend,
    /// Two people at one screen.
    Local,
    /// A record read from PDN: nothing can be played.
    Record,
}

impl Mode {
    /// The mode's name in the API.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Engine => "engine",
            Mode::Friend => "friend",
            Mode::Local => "local",
            Mode::Record => "record",
        }
    }

    /// The mode named `name`.
    pub fn parse(name: &str) -> Option<Mode> {
        match name {
            "engine" => Some(Mode::Engine),
            "friend" => Some(Mode::Friend),
            "local" => Some(Mode::Local),
            "record" => Some(Mode::Record),
            _ => None,
        }
    }
}

/// The API's code for why a game ended.
pub fn reason_code(reason: Reason) -> &'static str {
    match reason {
        Reason::NoMove(_) => "no_move",
        Reason::Resignation(_) => "resignation",
        Reason::Time(_) => "time",
        Reason::Agreement => "agreement",
        Reason::Repetition => "repetition",
        Reason::QuietMoves => "quiet_moves",
        Reason::LoneKing => "lone_king",
        Reason::BigRoad => "big_road",
        Reason::KingEnding { .. } => "king_ending",
        Reason::KingMovesOnly { .. } => "king_moves_only",
    }
}

/// A game in memory.
#[derive(Debug)]
pub struct LiveGame {
    /// The stored settings and state; kept equal to what is on disk after every action.
    pub row: GameRow,
    /// The game by the rules.
    pub game: Game,
    /// The mode.
    pub mode: Mode,
    /// The engine's colour in an engine game.
    pub engine_color: Option<Color>,
    /// The clocks; the row holds their times as they stood at the last change.
    pub clock: Clock,
    /// Grows with every change.
    pub version: u64,
    /// Whether the engine is searching for its move.
    pub engine_thinking: bool,
    /// The clock times after each move, as stored.
    pub move_clocks: Vec<(Option<i64>, Option<i64>)>,
}

/// Milliseconds since 1970.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// A duration in whole milliseconds, as stored.
fn millis(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

/// Stored milliseconds as a duration (never below zero).
fn duration_of_ms(ms: i64) -> Duration {
    Duration::from_millis(u64::try_from(ms).unwrap_or(0))
}

/// The time control stored in `row`, if the game has one.
pub fn row_control(row: &GameRow) -> Option<TimeControl> {
    row.base_ms.map(|base| TimeControl {
        base: duration_of_ms(base),
        increment: duration_of_ms(row.increment_ms.unwrap_or(0)),
    })
}

fn game_error(error: GameError) -> ApiError {
    match error {
        GameError::IllegalMove(mv) => ApiError::illegal(format!("{mv} is not a legal move")),
        other => ApiError::conflict(other.to_string()),
    }
}

impl LiveGame {
    /// Rebuilds a stored game: replays its moves and restores a declared result.
    pub fn restore(row: GameRow, moves: &[crate::store::MoveRow]) -> Result<LiveGame, String> {
        let variant = Variant::parse(&row.variant)
            .ok_or_else(|| format!("game {}: unknown variant {}", row.id, row.variant))?;
        let mode = Mode::parse(&row.mode)
            .ok_or_else(|| format!("game {}: unknown mode {}", row.id, row.mode))?;
        let start = parse_fen(variant, &row.start_fen)
            .map_err(|e| format!("game {}: start position: {e}", row.id))?;
        let mut game = Game::new(start);
        let mut move_clocks = Vec::with_capacity(moves.len());
        for stored in moves {
            let mv = parse_move(game.position(), &stored.text)
                .map_err(|e| format!("game {}: move {}: {e}", row.id, stored.ply + 1))?;
            game.play(&mv)
                .map_err(|e| format!("game {}: move {}: {e}", row.id, stored.ply + 1))?;
            move_clocks.push((stored.white_ms, stored.black_ms));
        }
        if let (Some(code), None) = (row.reason_code.as_deref(), game.outcome()) {
            // Declared results are not found by replaying moves; declare them again.
            let loser = match row.result.as_deref() {
                Some("1-0") => Some(Color::Black),
                Some("0-1") => Some(Color::White),
                _ => None,
            };
            let _ = match (code, loser) {
                ("resignation", Some(loser)) => game.resign(loser),
                ("time", Some(loser)) => game.flag(loser),
                ("agreement", _) => game.agree_draw(),
                ("repetition" | "quiet_moves", _) => game.claim_draw(),
                _ => Ok(()),
            };
        }
        game.restore_draw_offers(
            row.draw_offer.as_deref().and_then(Color::from_code),
            row.last_offer.as_deref().and_then(Color::from_code),
        );
        let engine_color = row.engine_color.as_deref().and_then(Color::from_code);
        let version = row.version.max(moves.len() as i64).max(1) as u64;
        let mut clock = Clock::new(row_control(&row));
        for (color, stored) in [(Color::White, row.white_ms), (Color::Black, row.black_ms)] {
            if let Some(ms) = stored {
                clock.set_left(color, duration_of_ms(ms));
            }
        }
        let mut live = LiveGame {
            row,
            game,
            mode,
            engine_color,
            clock,
            version,
            engine_thinking: false,
            move_clocks,
        };
        live.settle_clock(Instant::now());
        Ok(live)
    }

    /// Whether the game has ended (by the rules, or as a record says).
    pub fn is_over(&self) -> bool {
        self.row.result.is_some()
    }

    /// Whether a clock is running now, and whose.
    pub fn running_clock(&self) -> Option<Color> {
        self.clock.running()
    }

    /// The time `color` has left at `now`, in ms (`None` without a clock).
    pub fn time_left(&self, color: Color, now: Instant) -> Option<i64> {
        self.clock.left(color, now).map(millis)
    }

    /// Ends the game if the side to move has run out of time; says whether it did.
    pub fn check_flag(&mut self, now: Instant) -> bool {
        let Some(color) = self.clock.flagged(now) else {
            return false;
        };
        self.clock.flag(color);
        let _ = self.game.flag(color);
        self.sync_result(now);
        self.touch();
        true
    }

    /// Runs the side to move's clock while the game is played (timed, both seats taken, not
    /// over, not a record), stops it otherwise, and copies the times into the row.
    fn settle_clock(&mut self, now: Instant) {
        let plays = self.clock.is_timed()
            && !self.is_over()
            && self.mode != Mode::Record
            && self.row.white.joined
            && self.row.black.joined;
        let to_move = self.game.side_to_move();
        match self.clock.running() {
            Some(color) if plays && color == to_move => {}
            _ if plays => self.clock.start(to_move, now),
            Some(_) => self.clock.stop(now),
            None => {}
        }
        self.row.white_ms = self.clock.stored(Color::White).map(millis);
        self.row.black_ms = self.clock.stored(Color::Black).map(millis);
    }

    /// Copies the rules' result and draw offer into the row, and starts or stops the clocks
    /// at `now` to match.
    pub fn sync_result(&mut self, now: Instant) {
        if let Some(outcome) = self.game.outcome() {
            self.set_outcome(outcome);
        }
        self.settle_clock(now);
        self.row.draw_offer = self.game.draw_offer().map(|c| c.code().to_string());
        self.row.last_offer = self.game.last_draw_offer().map(|c| c.code().to_string());
    }

    fn set_outcome(&mut self, outcome: Outcome) {
        self.row.result = Some(outcome.result.score().to_string());
        self.row.reason = Some(outcome.reason.to_string());
        self.row.reason_code = Some(reason_code(outcome.reason).to_string());
    }

    /// Counts a change: a new version, stored with the row.
    pub fn touch(&mut self) {
        self.version += 1;
        self.row.version = self.version as i64;
        self.row.updated_ms = now_ms();
    }

    fn playable(&self) -> Result<(), ApiError> {
        if self.mode == Mode::Record {
            return Err(ApiError::conflict(
                "this game is a record read from PDN; nothing can be played in it",
            ));
        }
        if self.is_over() {
            return Err(ApiError::conflict("the game is already over"));
        }
        if !(self.row.white.joined && self.row.black.joined) {
            return Err(ApiError::conflict(
                "the second player has not joined yet; send them the invite link",
            ));
        }
        Ok(())
    }

    /// The colour `seat` acts for now: its own, or the side to move when it holds both.
    fn acting_color(&self, seat: Seat) -> Color {
        match seat {
            Seat::White => Color::White,
            Seat::Black => Color::Black,
            Seat::Both => self.game.side_to_move(),
            Seat::Engine => self.engine_color.unwrap_or(self.game.side_to_move()),
        }
    }

    /// Plays the move written `text` for `seat`, with a draw claim if `claim_draw`.
    /// Returns the stored form of the move.
    pub fn play(
        &mut self,
        seat: Seat,
        text: &str,
        claim_draw: bool,
        now: Instant,
    ) -> Result<MoveRow, ApiError> {
        self.playable()?;
        let mover = self.game.side_to_move();
        if !seat.holds(mover) || (seat != Seat::Engine && self.engine_color == Some(mover)) {
            return Err(ApiError::forbidden(format!(
                "it is {}'s turn, and your seat is not {}",
                mover,
                mover.code()
            )));
        }
        let text = text.trim();
        if text.is_empty() {
            return Err(ApiError::bad_request("the move is empty"));
        }
        if text.len() > 200 {
            return Err(ApiError::bad_request("the move text is too long"));
        }
        let position = *self.game.position();
        let mv = parse_move(&position, text).map_err(|e| self.move_error(text, e))?;
        self.apply(mv, claim_draw, now)
    }

    fn move_error(&self, text: &str, error: MoveTextError) -> ApiError {
        let legal = self.game.legal_moves();
        let mut error = ApiError::illegal(format!("{text}: {error}"));
        error.legal = Some(legal.iter().map(Move::to_string).collect());
        error
    }

    fn apply(&mut self, mv: Move, claim_draw: bool, now: Instant) -> Result<MoveRow, ApiError> {
        let mover = self.game.side_to_move();
        if self.clock.flagged(now) == Some(mover) {
            self.check_flag(now);
            return Err(ApiError::conflict(format!("{mover} ran out of time")));
        }
        if claim_draw && self.game.move_allows_claim(&mv) {
            self.game.claim_draw_with_move(&mv).map_err(game_error)?;
        } else {
            // 1.13.2, note b: a claim that finds no repetition leaves the move made.
            self.game.play(&mv).map_err(game_error)?;
        }
        self.clock.moved(now);
        self.sync_result(now);
        self.touch();
        let ply = (self.game.ply() - 1) as u32;
        let row = MoveRow {
            ply,
            text: mv.to_string(),
            white_ms: self.row.white_ms,
            black_ms: self.row.black_ms,
            at_ms: self.row.updated_ms,
        };
        self.move_clocks.push((row.white_ms, row.black_ms));
        Ok(row)
    }

    /// `seat` resigns (at one screen: the side to move resigns).
    pub fn resign(&mut self, seat: Seat) -> Result<(), ApiError> {
        self.playable()?;
        let color = self.acting_color(seat);
        self.game.resign(color).map_err(game_error)?;
        self.sync_result(Instant::now());
        self.touch();
        Ok(())
    }

    /// A draw offer, acceptance, refusal or claim by `seat`.
    pub fn draw(&mut self, seat: Seat, action: &str) -> Result<(), ApiError> {
        self.playable()?;
        let color = match (seat, action) {
            // At one screen the answer comes from the side that did not offer.
            (Seat::Both, "accept" | "decline") => self
                .game
                .draw_offer()
                .map(Color::opponent)
                .ok_or_else(|| ApiError::conflict("there is no draw offer to answer"))?,
            _ => self.acting_color(seat),
        };
        match action {
            "offer" => {
                if self.game.draw_offer() == Some(color) {
                    return Err(ApiError::conflict("your draw offer is already open"));
                }
                self.game.offer_draw(color)
            }
            "accept" => self.game.accept_draw(color),
            "decline" => self.game.decline_draw(color),
            "claim" => {
                if self.game.side_to_move() != color {
                    return Err(ApiError::conflict(
                        "a draw is claimed by the side to move, on its turn",
                    ));
                }
                self.game.claim_draw()
            }
            other => {
                return Err(ApiError::bad_request(format!(
                    "action: expected offer, accept, decline or claim, not {other:?}"
                )));
            }
        }
        .map_err(game_error)?;
        self.sync_result(Instant::now());
        self.touch();
        Ok(())
    }

    /// Takes back moves for `seat`: against the engine, back to the person's last turn; at
    /// one screen, one move. Returns the first ply taken back.
    pub fn take_back(&mut self, seat: Seat) -> Result<u32, ApiError> {
        if self.mode == Mode::Record {
            return Err(ApiError::conflict("nothing can be played in a record"));
        }
        if self.is_over() {
            return Err(ApiError::conflict("the game is already over"));
        }
        let plies = self.takeback_plies(seat)?;
        for _ in 0..plies {
            self.game.undo();
            self.move_clocks.pop();
        }
        // The clocks go back to what they showed before the moves taken back.
        let (white, black) = self
            .move_clocks
            .last()
            .copied()
            .unwrap_or((self.row.base_ms, self.row.base_ms));
        for (color, stored) in [(Color::White, white), (Color::Black, black)] {
            if let Some(ms) = stored {
                self.clock.set_left(color, duration_of_ms(ms));
            }
        }
        let now = Instant::now();
        // The side to move's clock starts afresh.
        self.clock.start(self.game.side_to_move(), now);
        self.engine_thinking = false;
        self.sync_result(now);
        self.touch();
        Ok(self.game.ply() as u32)
    }

    /// How many plies a take-back by `seat` removes, or why there is none.
    pub fn takeback_plies(&self, seat: Seat) -> Result<usize, ApiError> {
        match self.mode {
            Mode::Local => {
                if self.game.ply() == 0 {
                    Err(ApiError::conflict("no move to take back"))
                } else {
                    Ok(1)
                }
            }
            Mode::Engine => {
                let Some(engine) = self.engine_color else {
                    return Err(ApiError::conflict("no engine in this game"));
                };
                if !seat.holds(engine.opponent()) {
                    return Err(ApiError::forbidden("only the player can take back"));
                }
                let start_mover = self.game.start_position().side_to_move();
                let ply = self.game.ply();
                // The person's last move is the latest ply made by their colour.
                let person_moves_at = |p: usize| {
                    let mover = if p.is_multiple_of(2) {
                        start_mover
                    } else {
                        start_mover.opponent()
                    };
                    mover != engine
                };
                (0..ply)
                    .rev()
                    .find(|&p| person_moves_at(p))
                    .map(|p| ply - p)
                    .ok_or_else(|| ApiError::conflict("you have made no move to take back"))
            }
            Mode::Friend => Err(ApiError::conflict(
                "moves cannot be taken back in a game between two people online",
            )),
            Mode::Record => Err(ApiError::conflict("nothing can be played in a record")),
        }
    }

    /// Whether the engine should search now.
    pub fn engine_to_move(&self) -> bool {
        self.mode == Mode::Engine
            && !self.is_over()
            && self.engine_color == Some(self.game.side_to_move())
    }

    /// The engine answers `color`'s draw offer: `accept` says whether it agrees.
    pub fn engine_answers_draw(&mut self, accept: bool) {
        let Some(engine) = self.engine_color else {
            return;
        };
        if self.game.draw_offer() != Some(engine.opponent()) {
            return;
        }
        let _ = if accept {
            self.game.accept_draw(engine)
        } else {
            self.game.decline_draw(engine)
        };
        self.sync_result(Instant::now());
        self.touch();
    }

    /// Plays the engine's move.
    pub fn play_engine_move(&mut self, mv: &Move, now: Instant) -> Result<MoveRow, ApiError> {
        self.playable()?;
        if !self.engine_to_move() {
            return Err(ApiError::conflict("it is not the engine's turn"));
        }
        let legal = self
            .game
            .legal_move(mv)
            .ok_or_else(|| ApiError::illegal(format!("{mv} is not legal")))?;
        self.apply(legal, false, now)
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.game.variant()
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        self.game.start_position()
    }
}
