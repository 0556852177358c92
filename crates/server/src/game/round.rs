//! One game on the server: the rules' [`Game`], its seats, clocks and result, and the
//! actions people take on it. Nothing here waits, does I/O or knows HTTP: an action changes
//! a [`Round`] or says why it cannot ([`RoundError`]); the caller stores the changed round
//! and only then shows it.

use std::time::{Duration, Instant};

use bashni_engine::Level;
use bashni_rules::notation::{MoveTextError, parse_move};
use bashni_rules::{
    Clock, Color, Game, GameError, GameResult, Move, Outcome, Position, Reason, TimeControl,
    Variant,
};

use crate::game::correspondence::Correspondence;
use crate::texts::{Text, text};

/// The PDN tag that names the tournament a game belongs to (its id).
pub const TOURNAMENT_TAG: &str = "Tournament";

/// The most plies a game may hold, played or uploaded; beyond it a move is refused.
pub const MAX_PLIES: usize = 1000;

/// The longest move text read, in bytes.
pub const MAX_MOVE_TEXT: usize = 200;

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

    /// `white`, `black`, `both` or `engine`.
    pub fn name(self) -> &'static str {
        match self {
            Seat::White => "white",
            Seat::Black => "black",
            Seat::Both => "both",
            Seat::Engine => "engine",
        }
    }

    /// The seat named `name`.
    pub fn parse(name: &str) -> Option<Seat> {
        match name {
            "white" => Some(Seat::White),
            "black" => Some(Seat::Black),
            "both" => Some(Seat::Both),
            "engine" => Some(Seat::Engine),
            _ => None,
        }
    }

    /// The seat of one colour.
    pub fn of(color: Color) -> Seat {
        match color {
            Color::White => Seat::White,
            Color::Black => Seat::Black,
        }
    }

    /// The one colour of a seat that holds one (not both, not the engine's).
    pub fn color(self) -> Option<Color> {
        match self {
            Seat::White => Some(Color::White),
            Seat::Black => Some(Color::Black),
            Seat::Both | Seat::Engine => None,
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

/// Why an action on a round is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RoundError {
    /// The request itself is wrong (an empty move, an unknown draw action).
    Invalid(String),
    /// The seat may not do this (no token, a wrong token, not its turn).
    Forbidden(Text),
    /// Not possible now (the game is over, nobody joined yet, nothing to take back).
    Conflict(Text),
    /// The action was made for another ply than the game's: its player was shown another
    /// position, and nothing is applied to one they never saw.
    Stale {
        /// The ply the action was made for.
        seen: usize,
        /// The game's ply.
        now: usize,
    },
    /// The move cannot be read or is not legal; the legal moves, in full notation.
    Illegal {
        /// What is wrong.
        message: Text,
        /// The legal moves.
        legal: Vec<String>,
    },
}

impl std::fmt::Display for RoundError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RoundError::Invalid(message) => f.write_str(message),
            RoundError::Forbidden(text)
            | RoundError::Conflict(text)
            | RoundError::Illegal { message: text, .. } => text.fmt(f),
            RoundError::Stale { .. } => self.text().unwrap_or_default().fmt(f),
        }
    }
}

impl std::error::Error for RoundError {}

impl RoundError {
    /// What is wrong as a text of the catalogues, when it is one (a malformed request is
    /// told in the API's words only).
    pub fn text(&self) -> Option<Text> {
        match self {
            RoundError::Invalid(_) => None,
            RoundError::Forbidden(text)
            | RoundError::Conflict(text)
            | RoundError::Illegal { message: text, .. } => Some(text.clone()),
            RoundError::Stale { seen, now } => Some(text!("round-stale", seen = *seen, now = *now)),
        }
    }
}

/// Why a typed move cannot be played, as a text of the catalogues: it cannot be read, it
/// fits no legal move (and why, with the legal moves), or it fits more than one.
pub fn move_text_error(text: &str, error: &MoveTextError) -> Text {
    use bashni_rules::notation::IllegalReason;
    match error {
        MoveTextError::Syntax { at, .. } | MoveTextError::Square { at, .. } => {
            text!("round-move-unreadable", mv = text, column = at + 1)
        }
        MoveTextError::Illegal {
            reason,
            legal,
            names,
            ..
        } => {
            let (why, square) = match reason {
                IllegalReason::NoTowerOfSide(square) => {
                    ("no_tower", square.written(*names).to_string())
                }
                IllegalReason::CaptureCompulsory => ("capture", String::new()),
                IllegalReason::NoCapture => ("no_capture", String::new()),
                IllegalReason::NoCrowning(square) => {
                    ("no_crowning", square.written(*names).to_string())
                }
                IllegalReason::NoMoves => ("no_moves", String::new()),
                IllegalReason::NoSuchMove => ("no_way", String::new()),
            };
            let legal = if legal.is_empty() {
                "none".to_string()
            } else {
                legal.join(", ")
            };
            text!(
                "round-move-illegal",
                mv = text,
                why = why,
                square = square,
                legal = legal
            )
        }
        MoveTextError::Ambiguous { candidates, .. } => text!(
            "round-move-ambiguous",
            mv = text,
            moves = candidates.join(" / ")
        ),
    }
}

fn conflict(text: Text) -> RoundError {
    RoundError::Conflict(text)
}

fn game_error(error: GameError) -> RoundError {
    match error {
        GameError::IllegalMove(mv) => RoundError::Illegal {
            message: text!("round-move-not-legal", mv = mv.to_string()),
            legal: Vec::new(),
        },
        GameError::GameOver => conflict(text!("round-game-over")),
        GameError::NothingToClaim => conflict(text!("round-nothing-to-claim")),
        GameError::DrawOfferTooEarly => conflict(text!(
            "round-draw-offer-too-early",
            moves = bashni_rules::game::RUSSIAN_DRAW_OFFER_MOVES
        )),
        GameError::NoDrawOffer => conflict(text!("round-no-draw-offer")),
        GameError::DrawOfferNotOnMove => conflict(text!("round-draw-offer-not-on-move")),
        GameError::DrawOfferRepeated => conflict(text!("round-draw-offer-repeated")),
    }
}

/// One seat of a round.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Player {
    /// The name shown.
    pub name: String,
    /// The seat's secret token (hex), if a person holds it.
    pub token: Option<String>,
    /// Whether somebody (or the engine) sits there.
    pub joined: bool,
}

/// A player who takes a seat when the game is made (a lobby or tournament pairing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seated {
    /// The name shown (an account's name replaces it).
    pub name: String,
    /// The seat's token.
    pub token: String,
    /// The account playing, if any: its id and name.
    pub account: Option<(i64, String)>,
    /// The address the seat was taken from.
    pub address: Option<String>,
}

/// Why a game ended.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum EndReason {
    /// By the rules (a move, a resignation, a flag, an agreement or a claim).
    Rules(Reason),
    /// A record's result that the rules cannot rebuild from its moves, with the text of the
    /// record's `Termination` tag if it has one.
    Recorded(Option<String>),
    /// Aborted by a player before both sides had moved: the game does not count.
    Aborted,
    /// Claimed by a player whose opponent, this side, left the game on its turn.
    Abandoned(Color),
}

/// How a game ended.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Ending {
    /// The score; `None` for an aborted game, whose score is written `*`.
    pub result: Option<GameResult>,
    /// Why.
    pub reason: EndReason,
}

/// The reason an aborted game shows.
pub const ABORTED_TEXT: &str = "Aborted before both sides had moved";

impl Ending {
    /// The score as records write it: `1-0`, `0-1`, `1/2-1/2`, or `*` for an aborted game.
    pub fn score(&self) -> &'static str {
        self.result.map_or("*", GameResult::score)
    }

    /// The winner, if there is one.
    pub fn winner(&self) -> Option<Color> {
        self.result.and_then(GameResult::winner)
    }

    /// Why the game ended, for people.
    pub fn reason_text(&self) -> String {
        match &self.reason {
            EndReason::Rules(reason) => reason.to_string(),
            EndReason::Recorded(Some(text)) => text.clone(),
            EndReason::Recorded(None) => "as recorded".to_string(),
            EndReason::Aborted => ABORTED_TEXT.to_string(),
            EndReason::Abandoned(left) => format!("{left} left the game"),
        }
    }

    /// Why the game ended, as the API's code.
    pub fn code(&self) -> &'static str {
        match &self.reason {
            EndReason::Rules(reason) => reason_code(*reason),
            EndReason::Recorded(_) => "recorded",
            EndReason::Aborted => "aborted",
            EndReason::Abandoned(_) => "abandoned",
        }
    }
}

/// Milliseconds since 1970.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// A duration in whole milliseconds.
pub fn millis(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

/// Milliseconds as a duration (never below zero).
pub fn duration_of_ms(ms: i64) -> Duration {
    Duration::from_millis(u64::try_from(ms).unwrap_or(0))
}

/// A game on the server.
#[derive(Clone, Debug)]
pub struct Round {
    /// The game's id, used in its links.
    pub id: String,
    /// The kind of game.
    pub mode: Mode,
    /// The game by the rules.
    pub game: Game,
    /// White's seat.
    pub white: Player,
    /// Black's seat.
    pub black: Player,
    /// The engine's level in an engine game.
    pub level: Option<Level>,
    /// The engine's colour in an engine game.
    pub engine_color: Option<Color>,
    /// The seat the game's creator took.
    pub creator: Option<Seat>,
    /// The invite code of a friend game's free seat, until it is taken.
    pub invite: Option<String>,
    /// The clocks (their control is the game's time control).
    pub clock: Clock,
    /// A record's result that the rules cannot rebuild from its moves.
    pub recorded: Option<GameResult>,
    /// PDN tags kept from an uploaded record.
    pub tags: Vec<(String, String)>,
    /// The comments and variations of an uploaded record.
    pub notes: Option<crate::game::notes::Notes>,
    /// When the game was made (ms since 1970).
    pub created_ms: i64,
    /// When it last changed.
    pub updated_ms: i64,
    /// Grows with every change, never goes back; stored with the game.
    pub version: u64,
    /// Each side's time after each move, as stored (ms).
    pub move_clocks: Vec<[Option<i64>; 2]>,
    /// Whether a player aborted the game before both sides had moved.
    pub aborted: bool,
    /// A rematch offered after the game, and the new game once it is made.
    pub rematch: Option<Rematch>,
    /// Days per move and the side to move's deadline, in a correspondence game (see
    /// [`crate::game::correspondence`]).
    pub correspondence: Option<Correspondence>,
    /// The result claimed because the side to move's player left the game (see
    /// [`Round::claim_abandoned`]); the side that left is the side to move.
    pub abandoned: Option<GameResult>,
    /// When the side to move's turn began (ms since 1970): its opponent's last move, or the
    /// game's making.
    pub turn_ms: i64,
    /// The player account (its id) holding White's seat; `None` for a guest or the engine.
    pub white_account: Option<i64>,
    /// The player account holding Black's seat.
    pub black_account: Option<i64>,
    /// Whether the game was asked for as rated (whether it counts: [`crate::rating`]).
    pub rated: bool,
    /// The address White's seat was taken from (see [`crate::rating`]).
    pub white_address: Option<String>,
    /// The address Black's seat was taken from.
    pub black_address: Option<String>,
    /// The time each side has for its first move in a tournament or rated game (see
    /// [`Round::first_move_due`]): the server's setting, given to every round it holds;
    /// not stored.
    pub first_move_ms: Option<i64>,
    /// The rating changes of a rated game, once its end is stored.
    pub rating: Option<crate::rating::GameRating>,
}

/// A rematch offered after a game between people (or asked for against the engine or at one
/// screen, where it is made at once).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rematch {
    /// The side that offered it.
    pub offered_by: Color,
    /// The new game's id, once it is made.
    pub game: Option<String>,
}

/// What a player does about a rematch.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RematchAction {
    /// Offers one (against the engine or at one screen: starts it).
    Offer,
    /// Accepts the opponent's offer.
    Accept,
    /// Declines it (or withdraws one's own).
    Decline,
}

impl RematchAction {
    /// The action named `name`.
    pub fn parse(name: &str) -> Result<RematchAction, RoundError> {
        match name {
            "offer" => Ok(RematchAction::Offer),
            "accept" => Ok(RematchAction::Accept),
            "decline" => Ok(RematchAction::Decline),
            other => Err(RoundError::Invalid(format!(
                "action: expected offer, accept or decline, not {:?}",
                other.chars().take(20).collect::<String>()
            ))),
        }
    }
}

/// What a rematch action came to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RematchStep {
    /// An offer waits for the opponent.
    Offered,
    /// The offer was declined or withdrawn.
    Declined,
    /// Both sides want it: the caller makes the new game ([`Round::rematch_round`]) and
    /// records it with [`Round::rematch_made`].
    Agreed,
}

impl Round {
    /// A game between two people with both seats taken (`[white, black]`), made by
    /// `creator`. No clock runs yet: each side's first move is free of time.
    pub fn between(
        id: String,
        start: Position,
        control: Option<TimeControl>,
        players: [Seated; 2],
        creator: Color,
    ) -> Result<Round, RoundError> {
        let mut round = Round::new(id, Mode::Friend, start, control);
        let [white, black] = players;
        for (color, seated) in [(Color::White, white), (Color::Black, black)] {
            *round.player_mut(color) = Player {
                name: seated.name,
                token: Some(seated.token),
                joined: true,
            };
            if let Some((account, name)) = &seated.account {
                round.seat_account(color, *account, name)?;
            }
            match color {
                Color::White => round.white_address = seated.address,
                Color::Black => round.black_address = seated.address,
            }
        }
        round.creator = Some(Seat::of(creator));
        round.settle_clock(Instant::now());
        Ok(round)
    }

    /// A new round with nobody's result and stopped clocks.
    pub fn new(id: String, mode: Mode, start: Position, control: Option<TimeControl>) -> Round {
        let now = now_ms();
        Round {
            id,
            mode,
            game: Game::new(start),
            white: Player::default(),
            black: Player::default(),
            level: None,
            engine_color: None,
            creator: None,
            invite: None,
            clock: Clock::new(control),
            recorded: None,
            tags: Vec::new(),
            notes: None,
            created_ms: now,
            updated_ms: now,
            version: 1,
            move_clocks: Vec::new(),
            aborted: false,
            rematch: None,
            correspondence: None,
            abandoned: None,
            turn_ms: now,
            white_account: None,
            black_account: None,
            rated: false,
            white_address: None,
            black_address: None,
            first_move_ms: None,
            rating: None,
        }
    }

    /// The seat of `color`.
    pub fn player(&self, color: Color) -> &Player {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// The seat of `color`, to change.
    pub fn player_mut(&mut self, color: Color) -> &mut Player {
        match color {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        }
    }

    /// The time control.
    pub fn control(&self) -> Option<TimeControl> {
        self.clock.control(Color::White)
    }

    /// How the game ended, if it has.
    pub fn ending(&self) -> Option<Ending> {
        if self.aborted {
            return Some(Ending {
                result: None,
                reason: EndReason::Aborted,
            });
        }
        if let Some(result) = self.abandoned {
            return Some(Ending {
                result: Some(result),
                reason: EndReason::Abandoned(self.game.side_to_move()),
            });
        }
        match self.game.outcome() {
            Some(Outcome { result, reason }) => Some(Ending {
                result: Some(result),
                reason: EndReason::Rules(reason),
            }),
            None => self.recorded.map(|result| Ending {
                result: Some(result),
                reason: EndReason::Recorded(self.tag("Termination").map(str::to_string)),
            }),
        }
    }

    /// The value of the PDN tag `name` kept from an uploaded record.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(tag, _)| tag == name)
            .map(|(_, value)| value.as_str())
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.ending().is_some()
    }

    /// Whether both seats are taken.
    pub fn seated(&self) -> bool {
        self.white.joined && self.black.joined
    }

    /// The seat `token` holds, if any (compared in constant time).
    pub fn seat_of(&self, token: Option<&str>) -> Option<Seat> {
        let token = token?;
        let holds = |player: &Player| {
            player
                .token
                .as_deref()
                .is_some_and(|t| crate::game::secret::same_token(token, t))
        };
        match (holds(&self.white), holds(&self.black)) {
            (true, true) => Some(Seat::Both),
            (true, false) => Some(Seat::White),
            (false, true) => Some(Seat::Black),
            (false, false) => None,
        }
    }

    /// The seat `token` holds, or why it holds none.
    pub fn require_seat(&self, token: Option<&str>) -> Result<Seat, RoundError> {
        match token {
            None => Err(RoundError::Forbidden(text!("round-needs-token"))),
            Some(token) => self
                .seat_of(Some(token))
                .ok_or_else(|| RoundError::Forbidden(text!("round-wrong-token"))),
        }
    }

    /// Refuses an action made for another ply than the game's (`None`: the client did not
    /// say, for the actions where saying is optional).
    pub fn require_ply(&self, seen: Option<usize>) -> Result<(), RoundError> {
        match seen {
            Some(seen) if seen != self.game.ply() => Err(RoundError::Stale {
                seen,
                now: self.game.ply(),
            }),
            _ => Ok(()),
        }
    }

    /// Whether this game is part of a tournament.
    pub fn in_tournament(&self) -> bool {
        self.tag(TOURNAMENT_TAG).is_some()
    }

    /// In a tournament or rated game between two people, while the side to move has not
    /// made its first move: that side and the time (ms since 1970) by which it must. Missing
    /// it loses a tournament game (the round goes on) and aborts a rated one. A correspondence
    /// game has its own deadlines.
    pub fn first_move_due(&self) -> Option<(Color, i64)> {
        let allowance = self.first_move_ms?;
        let applies = (self.rated || self.in_tournament())
            && self.mode == Mode::Friend
            && self.correspondence.is_none()
            && self.seated()
            && !self.is_over()
            && !self.both_have_moved();
        applies.then(|| {
            (
                self.game.side_to_move(),
                self.turn_ms.saturating_add(allowance),
            )
        })
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
        self.settle_clock(now);
        self.touch();
        true
    }

    /// Whether both sides have made their first move in this game. Until then each side's
    /// first move is free of time, and a player may abort the game.
    pub fn both_have_moved(&self) -> bool {
        self.game.ply() >= 2
    }

    /// Whether the side to move's clock runs now: the game is timed and played (both seats
    /// taken, not over, not a record), and the side to move has made its first move (the
    /// first move of each side is free of time).
    pub fn clock_runs(&self) -> bool {
        self.clock.is_timed()
            && !self.is_over()
            && self.mode != Mode::Record
            && self.seated()
            && self.both_have_moved()
    }

    /// Runs the side to move's clock when [`Round::clock_runs`] says so and stops it
    /// otherwise: the one place the game's clock is started and stopped.
    pub fn settle_clock(&mut self, now: Instant) {
        let runs = self.clock_runs();
        let to_move = self.game.side_to_move();
        match self.clock.running() {
            Some(color) if runs && color == to_move => {}
            _ if runs => self.clock.start(to_move, now),
            Some(_) => self.clock.stop(now),
            None => {}
        }
        self.settle_deadline();
    }

    /// Starts the engine's clock at `now`, when its search starts and its clock runs (see
    /// [`Round::clock_runs`]): the time its move waited for a free engine is not charged.
    pub fn engine_starts_thinking(&mut self, now: Instant) {
        if let Some(engine) = self.engine_color
            && self.engine_to_move()
            && self.clock_runs()
        {
            self.clock.start(engine, now);
        }
    }

    /// Counts a change: a new version and time.
    pub fn touch(&mut self) {
        self.version += 1;
        self.updated_ms = now_ms().max(self.updated_ms);
    }

    fn playable(&self) -> Result<(), RoundError> {
        if self.mode == Mode::Record {
            return Err(conflict(text!("round-record-no-play")));
        }
        if self.is_over() {
            return Err(conflict(text!("round-game-over")));
        }
        if !self.seated() {
            return Err(conflict(text!("round-not-joined")));
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
    pub fn play(
        &mut self,
        seat: Seat,
        text: &str,
        claim_draw: bool,
        now: Instant,
    ) -> Result<(), RoundError> {
        self.playable()?;
        let mover = self.game.side_to_move();
        if !seat.holds(mover) || (seat != Seat::Engine && self.engine_color == Some(mover)) {
            return Err(RoundError::Forbidden(text!(
                "round-not-your-turn",
                mover = mover.code()
            )));
        }
        let text = text.trim();
        if text.is_empty() {
            return Err(RoundError::Invalid("move: empty".into()));
        }
        if text.len() > MAX_MOVE_TEXT {
            return Err(RoundError::Invalid(format!(
                "move: longer than {MAX_MOVE_TEXT} bytes"
            )));
        }
        let position = *self.game.position();
        let mv = parse_move(&position, text).map_err(|e| self.move_error(text, &e))?;
        self.apply(mv, claim_draw, now)
    }

    fn move_error(&self, text: &str, error: &MoveTextError) -> RoundError {
        RoundError::Illegal {
            message: move_text_error(text, error),
            legal: self
                .game
                .legal_moves()
                .iter()
                .map(Move::to_string)
                .collect(),
        }
    }

    fn apply(&mut self, mv: Move, claim_draw: bool, now: Instant) -> Result<(), RoundError> {
        let mover = self.game.side_to_move();
        if self.clock.flagged(now) == Some(mover) {
            self.check_flag(now);
            return Err(conflict(text!("round-flagged", mover = mover.code())));
        }
        if self.end_overdue(now, now_ms()) {
            return Err(conflict(text!("round-move-time-out", mover = mover.code())));
        }
        if self.game.ply() >= MAX_PLIES {
            return Err(conflict(text!("round-ply-limit", plies = MAX_PLIES)));
        }
        if claim_draw && self.game.move_allows_claim(&mv) {
            self.game.claim_draw_with_move(&mv).map_err(game_error)?;
        } else {
            // 1.13.2, note b: a claim that finds no repetition leaves the move made.
            self.game.play(&mv).map_err(game_error)?;
        }
        self.clock.moved(now);
        self.settle_clock(now);
        self.touch();
        self.start_turn();
        self.turn_ms = self.updated_ms;
        let times = [Color::White, Color::Black].map(|c| self.clock.stored(c).map(millis));
        self.move_clocks.push(times);
        Ok(())
    }

    /// `seat` resigns (at one screen: the side to move resigns).
    pub fn resign(&mut self, seat: Seat, now: Instant) -> Result<(), RoundError> {
        self.playable()?;
        let color = self.acting_color(seat);
        self.game.resign(color).map_err(game_error)?;
        self.settle_clock(now);
        self.touch();
        Ok(())
    }

    /// Whether `seat` may abort the game now: a player's seat (not the engine's) in a game
    /// that is not a record and not over, before both sides have made their first move.
    pub fn may_abort(&self, seat: Option<Seat>) -> bool {
        self.abort_refusal(seat).is_none()
    }

    fn abort_refusal(&self, seat: Option<Seat>) -> Option<RoundError> {
        if !matches!(seat, Some(Seat::White | Seat::Black | Seat::Both)) {
            return Some(RoundError::Forbidden(text!("round-abort-not-player")));
        }
        if self.mode == Mode::Record {
            return Some(conflict(text!("round-record-no-abort")));
        }
        if self.is_over() {
            return Some(conflict(text!("round-game-over")));
        }
        if self.in_tournament() {
            return Some(conflict(text!("round-tournament-no-abort")));
        }
        if self.both_have_moved() {
            return Some(conflict(text!("round-abort-too-late")));
        }
        None
    }

    /// `seat` aborts the game before both sides have moved: it ends without a result and
    /// does not count.
    pub fn abort(&mut self, seat: Seat, now: Instant) -> Result<(), RoundError> {
        if let Some(refusal) = self.abort_refusal(Some(seat)) {
            return Err(refusal);
        }
        self.mark_aborted();
        self.settle_clock(now);
        self.touch();
        Ok(())
    }

    /// Marks the game aborted: it ends without a result and does not count.
    pub fn mark_aborted(&mut self) {
        self.aborted = true;
        // Nobody can join an aborted game, nor answer a draw offer in it.
        self.invite = None;
        if let Some(by) = self.game.draw_offer() {
            let _ = self.game.decline_draw(by.opponent());
        }
    }

    /// A rematch action by `seat` after the game. Between people online an offer waits for
    /// the opponent's answer; against the engine and at one screen it is agreed at once (and
    /// an offer answering the opponent's open offer agrees too).
    pub fn rematch(
        &mut self,
        seat: Seat,
        action: RematchAction,
    ) -> Result<RematchStep, RoundError> {
        if self.mode == Mode::Record {
            return Err(conflict(text!("round-record-no-rematch")));
        }
        if !self.is_over() {
            return Err(conflict(text!("round-rematch-not-over")));
        }
        if self.in_tournament() {
            return Err(conflict(text!("round-tournament-no-rematch")));
        }
        if !self.seated() {
            return Err(conflict(text!("round-rematch-nobody")));
        }
        if let Some(Rematch {
            game: Some(game), ..
        }) = &self.rematch
        {
            return Err(conflict(text!(
                "round-rematch-started",
                game = game.to_string()
            )));
        }
        let color = match seat {
            Seat::White => Color::White,
            Seat::Black => Color::Black,
            // The person against the engine; at one screen, White's side of the board.
            Seat::Both => self.engine_color.map_or(Color::White, Color::opponent),
            Seat::Engine => {
                return Err(RoundError::Forbidden(text!("round-rematch-engine")));
            }
        };
        let at_once = self.mode != Mode::Friend;
        let offered = self.rematch.as_ref().map(|r| r.offered_by);
        let step = match (action, offered) {
            (RematchAction::Offer, Some(by)) if by == color => {
                return Err(conflict(text!("round-rematch-offered")));
            }
            (RematchAction::Offer, Some(_)) => RematchStep::Agreed,
            (RematchAction::Offer, None) if at_once => RematchStep::Agreed,
            (RematchAction::Offer, None) => RematchStep::Offered,
            (RematchAction::Accept, None) => {
                return Err(conflict(text!("round-rematch-none-to-accept")));
            }
            (RematchAction::Accept, Some(by)) if by == color => {
                return Err(conflict(text!("round-rematch-own")));
            }
            (RematchAction::Accept, Some(_)) => RematchStep::Agreed,
            (RematchAction::Decline, None) => {
                return Err(conflict(text!("round-rematch-none-to-decline")));
            }
            (RematchAction::Decline, Some(_)) => RematchStep::Declined,
        };
        self.rematch = match step {
            RematchStep::Offered => Some(Rematch {
                offered_by: color,
                game: None,
            }),
            RematchStep::Declined => None,
            RematchStep::Agreed => Some(Rematch {
                offered_by: offered.unwrap_or(color),
                game: None,
            }),
        };
        self.touch();
        Ok(step)
    }

    /// The rematch of this game, with id `id`: the same variant, mode, clock, start position,
    /// players and engine level, the colours swapped, both seats taken. Each player keeps
    /// their seat token (so the token of White here holds Black there); the engine's seat
    /// has none, as always. A correspondence game's rematch has the same days per move, and
    /// its first deadline starts at once.
    pub fn rematch_round(&self, id: String, now: Instant) -> Round {
        let mut round = Round::new(id, self.mode, *self.game.start_position(), self.control());
        round.white = self.black.clone();
        round.black = self.white.clone();
        round.white_account = self.black_account;
        round.black_account = self.white_account;
        round.level = self.level;
        round.engine_color = self.engine_color.map(Color::opponent);
        round.creator = self.creator.map(|seat| match seat {
            Seat::White => Seat::Black,
            Seat::Black => Seat::White,
            other => other,
        });
        round.correspondence = self.correspondence.map(|rule| Correspondence {
            deadline_ms: None,
            ..rule
        });
        round.settle_clock(now);
        round.start_turn();
        round
    }

    /// Records the rematch agreed on as game `id`.
    pub fn rematch_made(&mut self, id: String) {
        if let Some(rematch) = &mut self.rematch {
            rematch.game = Some(id);
        }
    }

    /// A draw offer, acceptance, refusal or claim by `seat`.
    pub fn draw(&mut self, seat: Seat, action: DrawAction, now: Instant) -> Result<(), RoundError> {
        self.playable()?;
        let color = match (seat, action) {
            // At one screen the answer comes from the side that did not offer.
            (Seat::Both, DrawAction::Accept | DrawAction::Decline) => self
                .game
                .draw_offer()
                .map(Color::opponent)
                .ok_or_else(|| conflict(text!("round-draw-none-to-answer")))?,
            _ => self.acting_color(seat),
        };
        match action {
            DrawAction::Offer => {
                if self.game.draw_offer() == Some(color) {
                    return Err(conflict(text!("round-draw-already-offered")));
                }
                self.game.offer_draw(color)
            }
            DrawAction::Accept => self.game.accept_draw(color),
            DrawAction::Decline => self.game.decline_draw(color),
            DrawAction::Claim => {
                if self.game.side_to_move() != color {
                    return Err(conflict(text!("round-claim-not-turn")));
                }
                self.game.claim_draw()
            }
        }
        .map_err(game_error)?;
        self.settle_clock(now);
        self.touch();
        Ok(())
    }

    /// Takes back moves for `seat`: against the engine, back to the person's last turn; at
    /// one screen, one move. Returns the first ply taken back.
    pub fn take_back(&mut self, seat: Seat, now: Instant) -> Result<usize, RoundError> {
        if self.mode == Mode::Record {
            return Err(conflict(text!("round-record-nothing")));
        }
        if self.is_over() {
            return Err(conflict(text!("round-game-over")));
        }
        let plies = self.takeback_plies(seat)?;
        for _ in 0..plies {
            self.game.undo();
            self.move_clocks.pop();
        }
        // The clocks go back to what they showed before the moves taken back.
        let base = self.control().map(|c| millis(c.base));
        let times = self.move_clocks.last().copied().unwrap_or([base, base]);
        for (color, stored) in [Color::White, Color::Black].into_iter().zip(times) {
            if let Some(ms) = stored {
                self.clock.set_left(color, duration_of_ms(ms));
            }
        }
        // The side to move's clock starts afresh (if it runs at all: see `clock_runs`).
        if self.clock.is_timed() {
            self.clock.start(self.game.side_to_move(), now);
        }
        self.settle_clock(now);
        self.touch();
        self.turn_ms = self.updated_ms;
        Ok(self.game.ply())
    }

    /// How many plies a take-back by `seat` removes, or why there is none.
    pub fn takeback_plies(&self, seat: Seat) -> Result<usize, RoundError> {
        match self.mode {
            Mode::Local => {
                if self.game.ply() == 0 {
                    Err(conflict(text!("round-takeback-none")))
                } else {
                    Ok(1)
                }
            }
            Mode::Engine => {
                let Some(engine) = self.engine_color else {
                    return Err(conflict(text!("round-takeback-no-engine")));
                };
                if !seat.holds(engine.opponent()) {
                    return Err(RoundError::Forbidden(text!("round-takeback-not-player")));
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
                    .ok_or_else(|| conflict(text!("round-takeback-no-own-move")))
            }
            Mode::Friend => Err(conflict(text!("round-takeback-friend"))),
            Mode::Record => Err(conflict(text!("round-record-nothing"))),
        }
    }

    /// Whether `invite` would let a player join now: the refusal [`Round::join`] would give,
    /// if any (an invite link's page says it before anyone fills in a name).
    pub fn check_invite(&self, invite: &str) -> Result<(), RoundError> {
        if self.mode != Mode::Friend {
            return Err(conflict(text!("round-invite-not-friend")));
        }
        if self.is_over() {
            return Err(conflict(text!("round-invite-over")));
        }
        let code = self
            .invite
            .as_deref()
            .ok_or_else(|| conflict(text!("round-invite-full")))?;
        if !crate::game::secret::same_token(invite.trim(), code) {
            return Err(RoundError::Forbidden(text!("round-invite-wrong")));
        }
        Ok(())
    }

    /// Takes the free seat of a friend game with `invite`, for a player called `name` who
    /// will hold `token`. Returns the seat taken.
    pub fn join(
        &mut self,
        invite: &str,
        name: String,
        token: String,
        now: Instant,
    ) -> Result<Seat, RoundError> {
        self.check_invite(invite)?;
        let color = if self.white.joined {
            Color::Black
        } else {
            Color::White
        };
        let player = self.player_mut(color);
        player.token = Some(token);
        player.joined = true;
        player.name = if name.is_empty() {
            color.code().to_string()
        } else {
            name
        };
        self.invite = None;
        self.settle_clock(now);
        self.touch();
        // With both seats taken a correspondence game's first deadline starts, and so does
        // the time for the first move.
        self.start_turn();
        self.turn_ms = self.updated_ms;
        Ok(Seat::of(color))
    }

    /// Whether the engine should search now.
    pub fn engine_to_move(&self) -> bool {
        self.mode == Mode::Engine
            && !self.is_over()
            && self.engine_color == Some(self.game.side_to_move())
    }

    /// Whether the engine has a draw offer to answer.
    pub fn engine_has_offer(&self) -> bool {
        self.mode == Mode::Engine
            && !self.is_over()
            && self
                .engine_color
                .is_some_and(|e| self.game.draw_offer() == Some(e.opponent()))
    }

    /// The engine answers the person's draw offer: `accept` says whether it agrees.
    pub fn engine_answers_draw(&mut self, accept: bool, now: Instant) -> Result<(), RoundError> {
        if !self.engine_has_offer() {
            return Err(conflict(text!("round-engine-no-offer")));
        }
        let engine = self.engine_color.unwrap_or(Color::White);
        if accept {
            self.game.accept_draw(engine)
        } else {
            self.game.decline_draw(engine)
        }
        .map_err(game_error)?;
        self.settle_clock(now);
        self.touch();
        Ok(())
    }

    /// Plays the engine's move.
    pub fn play_engine_move(&mut self, mv: &Move, now: Instant) -> Result<(), RoundError> {
        self.playable()?;
        if !self.engine_to_move() {
            return Err(conflict(text!("round-engine-not-turn")));
        }
        let legal = self
            .game
            .legal_move(mv)
            .ok_or_else(|| RoundError::Illegal {
                message: text!("round-move-not-legal", mv = mv.to_string()),
                legal: Vec::new(),
            })?;
        self.apply(legal, false, now)
    }

    /// The engine's level (the strongest when none was stored).
    pub fn engine_level(&self) -> Level {
        self.level.unwrap_or_else(Level::full)
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.game.variant()
    }

    /// The player account holding the seat of `color`, if any.
    pub fn account(&self, color: Color) -> Option<i64> {
        match color {
            Color::White => self.white_account,
            Color::Black => self.black_account,
        }
    }

    /// Gives the seat of `color` to the player account `id`, shown by its name: the name
    /// typed for the seat gives way, so nobody sits under an account's name but its owner.
    /// Refused when the account already holds the other seat (nobody plays themselves).
    pub fn seat_account(&mut self, color: Color, id: i64, name: &str) -> Result<(), RoundError> {
        if self.account(color.opponent()) == Some(id) {
            return Err(conflict(text!("round-play-yourself")));
        }
        match color {
            Color::White => self.white_account = Some(id),
            Color::Black => self.black_account = Some(id),
        }
        self.player_mut(color).name = name.to_string();
        Ok(())
    }

    /// The account name shown for the seat of `color`: `None` for a guest or the engine.
    pub fn account_name(&self, color: Color) -> Option<&str> {
        self.account(color)
            .map(|_| self.player(color).name.as_str())
    }
}

/// What a player does about a draw.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DrawAction {
    /// Offers a draw.
    Offer,
    /// Accepts the opponent's offer.
    Accept,
    /// Declines it.
    Decline,
    /// Claims a draw the rules allow (repetition, 15 quiet moves).
    Claim,
}

impl DrawAction {
    /// The action named `name`.
    pub fn parse(name: &str) -> Result<DrawAction, RoundError> {
        match name {
            "offer" => Ok(DrawAction::Offer),
            "accept" => Ok(DrawAction::Accept),
            "decline" => Ok(DrawAction::Decline),
            "claim" => Ok(DrawAction::Claim),
            other => Err(RoundError::Invalid(format!(
                "action: expected offer, accept, decline or claim, not {:?}",
                other.chars().take(20).collect::<String>()
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn local_round() -> Round {
        let mut round = Round::new(
            "r".into(),
            Mode::Local,
            Position::start(Variant::Russian),
            None,
        );
        for color in [Color::White, Color::Black] {
            let player = round.player_mut(color);
            player.joined = true;
            player.token = Some("t".into());
        }
        round
    }

    #[test]
    fn a_refused_action_leaves_the_round_as_it_was() {
        let mut round = local_round();
        let before = round.version;
        let error = round.play(Seat::Both, "a1-a2", false, Instant::now());
        assert!(matches!(error, Err(RoundError::Illegal { .. })));
        assert_eq!(round.version, before);
        assert_eq!(round.game.ply(), 0);
        assert!(
            round
                .play(Seat::Both, "c3-d4", false, Instant::now())
                .is_ok()
        );
        assert_eq!(round.version, before + 1);
        assert_eq!(round.move_clocks.len(), 1);
    }

    fn timed(start: Position) -> Round {
        let mut round = local_round();
        round.game = Game::new(start);
        round.clock = Clock::new(Some(TimeControl {
            base: Duration::from_secs(60),
            increment: Duration::from_secs(2),
        }));
        round
    }

    #[test]
    fn each_sides_first_move_is_free_of_time() -> Result<(), RoundError> {
        let t0 = Instant::now();
        let later = |s: u64| t0 + Duration::from_secs(s);
        let mut round = timed(Position::start(Variant::Russian));
        round.settle_clock(t0);
        assert_eq!(round.running_clock(), None);
        // Left alone, nobody loses on time.
        assert!(!round.check_flag(later(3600)));
        round.play(Seat::Both, "c3-d4", false, later(100))?;
        assert_eq!(round.running_clock(), None, "Black's first move is free");
        round.play(Seat::Both, "f6-g5", false, later(200))?;
        assert_eq!(round.running_clock(), Some(Color::White));
        // No time and no increment was counted for the free moves.
        assert_eq!(round.move_clocks, vec![[Some(60_000), Some(60_000)]; 2]);
        assert_eq!(round.time_left(Color::White, later(210)), Some(50_000));
        round.play(Seat::Both, "d4-e5", false, later(210))?;
        assert_eq!(round.running_clock(), Some(Color::Black));
        assert_eq!(round.move_clocks[2], [Some(52_000), Some(60_000)]);
        // Taking back to Black's first turn stops the clocks again, at the times stored.
        round.take_back(Seat::Both, later(220))?;
        round.take_back(Seat::Both, later(221))?;
        assert_eq!(round.running_clock(), None);
        assert_eq!(round.time_left(Color::White, later(900)), Some(60_000));
        assert_eq!(
            round.clock.stored(Color::White),
            Some(Duration::from_secs(60))
        );
        Ok(())
    }

    #[test]
    fn when_black_moves_first_the_clock_runs_from_blacks_second_move() -> Result<(), RoundError> {
        let t0 = Instant::now();
        let start = bashni_rules::notation::read_position(
            Variant::Russian,
            "White: c3 0, e3 0; Black: f6 0, h6 0; Black to move",
        )
        .map_err(|e| RoundError::Invalid(e.to_string()))?;
        let mut round = timed(start);
        round.settle_clock(t0);
        round.play(Seat::Both, "f6-g5", false, t0)?;
        assert_eq!(round.running_clock(), None);
        round.play(Seat::Both, "c3-d4", false, t0)?;
        assert_eq!(round.running_clock(), Some(Color::Black));
        Ok(())
    }

    #[test]
    fn a_game_may_be_aborted_until_both_sides_have_moved() -> Result<(), RoundError> {
        let now = Instant::now();
        let mut round = timed(Position::start(Variant::Russian));
        assert!(round.may_abort(Some(Seat::Both)));
        assert!(!round.may_abort(None));
        assert!(!round.may_abort(Some(Seat::Engine)));
        round.play(Seat::Both, "c3-d4", false, now)?;
        assert!(round.may_abort(Some(Seat::Both)));
        let mut moved = round.clone();
        moved.play(Seat::Both, "f6-g5", false, now)?;
        assert!(!moved.may_abort(Some(Seat::Both)));
        assert!(matches!(
            moved.abort(Seat::Both, now),
            Err(RoundError::Conflict(m)) if m.to_string().contains("no longer be aborted")
        ));
        let version = round.version;
        round.abort(Seat::Both, now)?;
        assert_eq!(round.version, version + 1);
        assert!(round.is_over());
        assert_eq!(round.running_clock(), None);
        let ending = round
            .ending()
            .ok_or(RoundError::Invalid("no ending".into()))?;
        assert_eq!((ending.score(), ending.winner()), ("*", None));
        assert_eq!(
            (ending.code(), ending.reason_text().as_str()),
            ("aborted", ABORTED_TEXT)
        );
        assert!(matches!(
            round.play(Seat::Both, "f6-g5", false, now),
            Err(RoundError::Conflict(_))
        ));
        assert!(matches!(
            round.abort(Seat::Both, now),
            Err(RoundError::Conflict(_))
        ));
        Ok(())
    }

    #[test]
    fn an_open_draw_offer_goes_with_an_abort() -> Result<(), RoundError> {
        let now = Instant::now();
        let mut round = local_round();
        round.game = Game::new(Position::start(Variant::Bashni));
        // Bashni 1.13.3: offer on your own turn, then move.
        round.draw(Seat::Both, DrawAction::Offer, now)?;
        round.play(Seat::Both, "c3-d4", false, now)?;
        assert_eq!(round.game.draw_offer(), Some(Color::White));
        round.abort(Seat::Both, now)?;
        assert_eq!(round.game.draw_offer(), None);
        Ok(())
    }

    #[test]
    fn the_token_decides_the_seat() {
        let round = local_round();
        assert_eq!(round.seat_of(Some("t")), Some(Seat::Both));
        assert_eq!(round.seat_of(Some("u")), None);
        assert!(matches!(
            round.require_seat(None),
            Err(RoundError::Forbidden(_))
        ));
    }
}
