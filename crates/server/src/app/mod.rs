//! The server's state: the store, the games in memory, the engines, and the one path every
//! change of a game takes: compute it on a copy of the round, store it, and only then make
//! it the round in memory and tell the sockets. A failed store changes nothing anywhere.

pub mod actions;
pub mod engines;
pub mod events;
pub mod parts;
pub mod presence;

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bashni_engine::{Clock as EngineClock, Limits, Past, StopToken};
use bashni_rules::Move;
use serde_json::value::RawValue;
use tokio::sync::broadcast;

use std::net::IpAddr;

use bashni_rules::Color;

use crate::game::room::Room;
use crate::game::round::{Round, RoundError, Seat, now_ms};
use crate::game::view::Seen;
use crate::game::view::{GameStateView, game_state, move_record, update_view};
use crate::limits::AddressRates;
use crate::store::{Change, Database, StoreError, StoreErrorKind};
use engines::{EnginePool, Priority};
use events::{Happening, Subscribers};
use parts::Parts;
use presence::Presence;

/// Engine time per move in a game without a clock.
const UNTIMED_MOVE_TIME: Duration = Duration::from_millis(1000);

/// Why an action was not carried out. Nothing was changed in any case.
#[derive(Debug)]
pub enum ActionError {
    /// The rules or the game's state refuse it.
    Round(RoundError),
    /// The store failed; the game stays as it was.
    Store(StoreError),
    /// There is no such game.
    NotFound(String),
    /// The request is malformed.
    Invalid(String),
    /// A limit was reached (too many games, analyses or requests).
    TooMany(String),
    /// Something the server needs is missing (random numbers, an engine).
    Unavailable(String),
    /// The engine does not help a game between people in progress (see [`crate::game::fair_play`]).
    FairPlay(String),
    /// A refusal with a code of its own (the lobby's `seek_gone`, `own_seek`,
    /// `rated_needs_account`; the tournaments' `tournament_started`, ...).
    Refused {
        /// What is wrong, for programs.
        code: &'static str,
        /// What is wrong, for people.
        message: String,
    },
}

impl std::fmt::Display for ActionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ActionError::Round(error) => error.fmt(f),
            ActionError::Store(error) => write!(f, "the store failed: {error:?}"),
            ActionError::NotFound(message)
            | ActionError::Invalid(message)
            | ActionError::TooMany(message)
            | ActionError::Unavailable(message)
            | ActionError::FairPlay(message)
            | ActionError::Refused { message, .. } => f.write_str(message),
        }
    }
}

impl From<RoundError> for ActionError {
    fn from(error: RoundError) -> ActionError {
        ActionError::Round(error)
    }
}

impl From<StoreError> for ActionError {
    fn from(error: StoreError) -> ActionError {
        ActionError::Store(error)
    }
}

impl From<crate::game::secret::NoRandomness> for ActionError {
    fn from(_: crate::game::secret::NoRandomness) -> ActionError {
        ActionError::Unavailable("no random numbers available".into())
    }
}

/// What a socket is told after a change: the update as each seat sees it.
pub enum Event {
    /// The game changed; one text per seat (see [`seat_index`]).
    Update {
        /// The version after the change.
        version: u64,
        /// The update message for a watcher, White, Black and both seats.
        texts: [String; 4],
        /// Its number among the game's updates (see [`GameSlot::published`]).
        number: u64,
    },
    /// A stored chat line, as the socket message: sent to the sockets that may read its
    /// room, except those of the side that mutes its author.
    Chat {
        /// The line's room.
        room: Room,
        /// The socket message.
        text: String,
        /// The side that mutes the line's author, if any.
        hidden_from: Option<Color>,
    },
    /// A player muted or unmuted the other: that seat's sockets are sent their chat again.
    Muted {
        /// The side that did.
        side: Color,
    },
}

/// Where a seat's text is in [`Event::Update`].
pub fn seat_index(seat: Option<Seat>) -> usize {
    match seat {
        None | Some(Seat::Engine) => 0,
        Some(Seat::White) => 1,
        Some(Seat::Black) => 2,
        Some(Seat::Both) => 3,
    }
}

/// A game held in memory.
pub struct GameSlot {
    /// The game.
    pub live: tokio::sync::Mutex<Live>,
    /// Every change, as the update each seat is sent.
    pub events: broadcast::Sender<Arc<Event>>,
    /// How many sockets listen as each seat (see [`seat_index`]); updates are made only
    /// for seats somebody listens as.
    listening: [AtomicUsize; 4],
    /// What features keep on this game (its chat as this server knows it).
    pub parts: Parts,
    /// Who is there (shared with [`Live`], whose states show it).
    pub presence: Arc<std::sync::Mutex<Presence>>,
    /// How many updates were published (counted while the game's lock is held).
    published: AtomicU64,
    /// The board the engine may not look at now ([`crate::game::fair_play::guarded_board`]).
    board: AtomicU64,
    /// When the side to move's time for a first move runs out (ms since 1970; `i64::MAX`
    /// when it has none): see [`Round::first_move_due`](crate::game::round::Round::first_move_due).
    first_move_by: AtomicI64,
}

impl GameSlot {
    fn new(round: Round, presence: Presence) -> Arc<GameSlot> {
        let (events, _) = broadcast::channel(32);
        let presence = Arc::new(std::sync::Mutex::new(presence));
        let board = AtomicU64::new(crate::game::fair_play::guarded_board(&round));
        let first_move_by = AtomicI64::new(first_move_by(&round));
        Arc::new(GameSlot {
            live: tokio::sync::Mutex::new(Live::new(round, Arc::clone(&presence))),
            events,
            listening: Default::default(),
            parts: Parts::default(),
            presence,
            published: AtomicU64::new(0),
            board,
            first_move_by,
        })
    }

    /// How many updates were published: a whole state made while the game's lock is held
    /// says everything the updates numbered up to this one said (a socket that sent it may
    /// leave those out).
    pub fn published(&self) -> u64 {
        self.published.load(Ordering::SeqCst)
    }

    /// Notes what the round shows after a change: the board the engine may not look at, and
    /// the time for a first move.
    fn guard_board(&self, round: &Round) {
        self.board.store(
            crate::game::fair_play::guarded_board(round),
            Ordering::Relaxed,
        );
        self.first_move_by
            .store(first_move_by(round), Ordering::Relaxed);
    }

    /// Counts a socket listening as `seat` until the returned guard is dropped.
    pub fn listen(self: &Arc<Self>, seat: Option<Seat>) -> Listening {
        let index = seat_index(seat);
        self.listening[index].fetch_add(1, Ordering::Relaxed);
        Listening {
            slot: Arc::clone(self),
            index,
        }
    }
}

/// When `round`'s time for a first move runs out, or `i64::MAX`.
fn first_move_by(round: &Round) -> i64 {
    round.first_move_due().map_or(i64::MAX, |(_, by)| by)
}

/// A socket counted as listening for one seat's updates.
pub struct Listening {
    slot: Arc<GameSlot>,
    index: usize,
}

impl Drop for Listening {
    fn drop(&mut self) {
        self.slot.listening[self.index].fetch_sub(1, Ordering::Relaxed);
    }
}

/// A round in memory and what goes with it there.
pub struct Live {
    /// The round, always as stored.
    pub round: Round,
    /// The JSON record of each move (kept so a state is cheap to make).
    records: Vec<Box<RawValue>>,
    /// Whether an engine task looks after this game's move or draw answer.
    engine_busy: bool,
    /// Whether the engine is searching now (its clock runs).
    pub thinking: bool,
    /// Stops the engine's present search.
    engine_stop: Option<StopToken>,
    /// When the game was last used.
    used: Instant,
    /// Who is there (see [`GameSlot::presence`]).
    presence: Arc<std::sync::Mutex<Presence>>,
}

impl Live {
    fn new(round: Round, presence: Arc<std::sync::Mutex<Presence>>) -> Live {
        let mut live = Live {
            round,
            records: Vec::new(),
            engine_busy: false,
            thinking: false,
            engine_stop: None,
            used: Instant::now(),
            presence,
        };
        live.sync_records();
        live
    }

    fn sync_records(&mut self) {
        let ply = self.round.game.ply();
        self.records.truncate(ply);
        while self.records.len() < ply {
            match move_record(&self.round.game, self.records.len()) {
                Some(record) => self.records.push(record),
                None => break,
            }
        }
    }

    /// Who is there now, as the game's states show it.
    pub fn seen(&self) -> (Seen, i64) {
        let now = now_ms();
        (presence::lock(&self.presence).seen(&self.round, now), now)
    }

    /// The whole state as `seat` sees it.
    pub fn state(&self, seat: Option<Seat>) -> GameStateView<'_> {
        game_state(
            &self.round,
            &self.records,
            seat,
            self.thinking,
            Instant::now(),
            self.seen(),
        )
    }

    /// The whole state as `seat` sees it, as JSON text.
    pub fn state_text(&self, seat: Option<Seat>) -> StateText {
        StateText {
            json: serde_json::to_string(&self.state(seat)).unwrap_or_default(),
            version: self.round.version,
        }
    }

    /// The socket message with the whole state as `seat` sees it.
    pub fn state_message(&self, seat: Option<Seat>) -> String {
        serde_json::json!({"type": "state", "state": self.state(seat)}).to_string()
    }

    fn update_texts(&self, moves_from: usize, listening: &[AtomicUsize; 4]) -> [String; 4] {
        let now = Instant::now();
        let seen = self.seen();
        [None, Some(Seat::White), Some(Seat::Black), Some(Seat::Both)].map(|seat| {
            if listening[seat_index(seat)].load(Ordering::Relaxed) == 0 {
                return String::new();
            }
            let update = update_view(
                &self.round,
                &self.records,
                moves_from,
                seat,
                self.thinking,
                now,
                seen,
            );
            serde_json::json!({"type": "update", "update": update}).to_string()
        })
    }
}

/// What an action answers besides its value.
#[derive(Clone, Copy, Debug)]
pub enum Answer<'a> {
    /// Only the version after the action (the WebSocket's acknowledgement).
    Version,
    /// Also the state right after it, as the holder of this token sees it.
    State(Option<&'a str>),
}

/// The version after an action and, if asked for, the state.
pub struct Acted {
    /// The version after the action.
    pub version: u64,
    /// The state right after the action.
    pub state: Option<StateText>,
}

/// A game's state, serialised once, and its version.
pub struct StateText {
    /// The JSON text.
    pub json: String,
    /// The state's version.
    pub version: u64,
}

/// Settings of a server.
#[derive(Clone, Debug)]
pub struct Settings {
    /// How many engine searches may run at once.
    pub engines: usize,
    /// Table size of each engine, in MB.
    pub hash_mb: usize,
    /// Serve the page's files from this folder instead of the copies built in (development).
    pub web_dir: Option<std::path::PathBuf>,
    /// The most connections one address may hold open.
    pub connections_per_address: usize,
    /// New games one address may make per minute (PDN uploads count one per game).
    pub new_games_per_minute: u32,
    /// HTTP requests one address may make per second on average (twice as many at once).
    pub requests_per_second: u32,
    /// How long a connection may take to send a request's headers, and may stay silent.
    pub idle_timeout: Duration,
    /// How long a game nobody uses stays in memory.
    pub keep_idle: Duration,
    /// How long a finished game nobody uses stays in memory.
    pub keep_finished: Duration,
    /// Whether the server runs behind a balancer that adds the client's address to
    /// `X-Forwarded-For` (limits per address then count that address).
    pub behind_proxy: bool,
    /// How often the server looks for correspondence games past their deadline.
    pub deadline_sweep: Duration,
    /// How long the side to move's player in a game between people may be offline on their
    /// turn before the other may claim the game (see [`crate::app::presence`]).
    pub abandon_after: Duration,
    /// The time for each side's first move in a tournament or rated game
    /// (see [`Round::first_move_due`](crate::game::round::Round::first_move_due)).
    pub first_move: Duration,
    /// With several servers: how often each renews its report of the sockets bound to seats
    /// (a report counts for three beats).
    pub presence_beat: Duration,
    /// Whether the session cookie is sent only over HTTPS (`Secure`): needed behind TLS.
    pub secure_cookies: bool,
    /// The site's own origin (`https://example.org`) when the server is behind a proxy that
    /// changes the `Host`; without it a request's `Origin` must name the `Host` it was sent to.
    pub site_origin: Option<String>,
    /// Log-in attempts per minute for one account name, and for one address.
    pub login_attempts_per_minute: u32,
}

impl Settings {
    /// The number of engines when none is given: one per core.
    pub fn default_engines() -> usize {
        std::thread::available_parallelism().map_or(2, |n| n.get())
    }
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            engines: Settings::default_engines(),
            hash_mb: 16,
            web_dir: None,
            connections_per_address: 64,
            new_games_per_minute: 30,
            requests_per_second: 50,
            idle_timeout: Duration::from_secs(30),
            keep_idle: Duration::from_secs(600),
            keep_finished: Duration::from_secs(5),
            behind_proxy: false,
            deadline_sweep: Duration::from_secs(10),
            abandon_after: Duration::from_secs(60),
            first_move: Duration::from_secs(30),
            presence_beat: Duration::from_secs(5),
            secure_cookies: false,
            site_origin: None,
            login_attempts_per_minute: 5,
        }
    }
}

/// Everything the server shares between requests.
pub struct App {
    /// Where the games are.
    pub database: Database,
    games: Mutex<HashMap<String, Arc<GameSlot>>>,
    /// The engines.
    pub engines: Arc<EnginePool>,
    /// The settings.
    pub settings: Settings,
    /// HTTP requests per address.
    requests: AddressRates,
    /// New games per address.
    creations: AddressRates,
    /// Wakes the engine-job taker (a shared database).
    jobs: tokio::sync::Notify,
    /// How this server names itself when it takes an engine job or reports its sockets.
    pub(crate) server_name: String,
    /// Engine jobs this server is carrying out.
    jobs_running: Arc<AtomicUsize>,
    /// Set when the server is stopping: sockets are handed back, nothing new starts.
    stopping: tokio::sync::watch::Sender<bool>,
    /// Requests and socket actions being carried out.
    in_flight: Arc<AtomicUsize>,
    /// Reports of this server's sockets are written one at a time (see [`crate::app::presence`]).
    pub(crate) presence_writes: tokio::sync::Mutex<()>,
    /// The limits of log-ins (see [`crate::account`]).
    pub accounts: crate::account::Accounts,
    /// What features keep on the server (the lobby's seeks and sockets).
    pub parts: Parts,
    /// Who follows what happens in the core.
    subscribers: Subscribers,
}

/// Waits until the server starts stopping (or its state is gone).
pub async fn stopped(stopping: &mut tokio::sync::watch::Receiver<bool>) {
    let _ = stopping.wait_for(|stop| *stop).await.map(|_| ());
}

/// Counts one request or socket action in progress until dropped.
pub struct InFlight(Arc<AtomicUsize>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl App {
    /// A server on `store`.
    pub fn new(database: impl Into<Database>, settings: Settings) -> Arc<App> {
        Arc::new(App {
            database: database.into(),
            games: Mutex::new(HashMap::new()),
            engines: EnginePool::new(settings.engines.max(1), settings.hash_mb),
            requests: AddressRates::new(
                settings.requests_per_second.saturating_mul(2),
                f64::from(settings.requests_per_second),
            ),
            creations: AddressRates::new(
                settings.new_games_per_minute,
                f64::from(settings.new_games_per_minute) / 60.0,
            ),
            accounts: crate::account::Accounts::new(settings.login_attempts_per_minute),
            settings,
            stopping: tokio::sync::watch::channel(false).0,
            jobs: tokio::sync::Notify::new(),
            server_name: crate::game::secret::random_hex(8).unwrap_or_else(|_| {
                format!("{}-{}", std::process::id(), crate::game::round::now_ms())
            }),
            jobs_running: Arc::new(AtomicUsize::new(0)),
            in_flight: Arc::new(AtomicUsize::new(0)),
            presence_writes: tokio::sync::Mutex::new(()),
            parts: Parts::default(),
            subscribers: Subscribers::default(),
        })
    }

    /// Counts a request or socket action in progress.
    pub fn in_flight(&self) -> InFlight {
        self.in_flight.fetch_add(1, Ordering::SeqCst);
        InFlight(Arc::clone(&self.in_flight))
    }

    /// A receiver that changes to `true` when the server starts stopping.
    pub fn stopping(&self) -> tokio::sync::watch::Receiver<bool> {
        self.stopping.subscribe()
    }

    /// Stops the server gently: sockets are told to connect again (to another server behind
    /// the balancer, or to this one once it is back), and the requests and socket actions in
    /// progress are finished (for at most `wait`). Everything acknowledged is stored already.
    pub async fn stop(&self, wait: Duration) {
        self.stopping.send_replace(true);
        let deadline = Instant::now() + wait;
        while self.in_flight.load(Ordering::SeqCst) > 0 && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let left = self.in_flight.load(Ordering::SeqCst);
        if left > 0 {
            tracing::warn!(left, "stopping with actions still in progress");
        } else {
            tracing::info!("stopped: every action in progress was finished");
        }
    }

    /// Counts `count` new games made by `client`, or refuses them when it made too many.
    pub fn allow_new_games(&self, client: IpAddr, count: u32) -> Result<(), ActionError> {
        if self.creations.allow(client, count, Instant::now()) {
            Ok(())
        } else {
            tracing::warn!(%client, "limit: too many new games from one address");
            Err(ActionError::TooMany(format!(
                "too many new games from your address (at most {} a minute); wait a little",
                self.settings.new_games_per_minute
            )))
        }
    }

    /// Counts one HTTP request of `client`; `false` when it sends too many.
    pub fn allow_request(&self, client: IpAddr) -> bool {
        self.requests.allow(client, 1, Instant::now())
    }

    pub(crate) fn games(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<GameSlot>>> {
        self.games.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// How many games are in memory.
    pub fn games_in_memory(&self) -> usize {
        self.games().len()
    }

    /// The boards of the games in memory that the engine may not look at now (0 for the
    /// others; see [`crate::game::fair_play`]).
    pub fn guarded_boards(&self) -> Vec<u64> {
        self.games()
            .values()
            .map(|slot| slot.board.load(Ordering::Relaxed))
            .collect()
    }

    /// The game `id`, from memory or else from the database.
    pub async fn slot(self: &Arc<Self>, id: &str) -> Result<Arc<GameSlot>, ActionError> {
        if let Some(slot) = self.games().get(id) {
            return Ok(Arc::clone(slot));
        }
        let missing = || {
            let shown: String = id.chars().take(24).collect();
            ActionError::NotFound(format!("there is no game {shown:?}"))
        };
        if !crate::game::secret::is_game_id(id) {
            return Err(missing());
        }
        let round = self.database.load(id).await.map_err(|e| {
            tracing::error!(game = id, "cannot read the game: {e}");
            ActionError::Store(e)
        })?;
        let round = round.ok_or_else(missing)?;
        let slot = GameSlot::new(self.held(round), self.new_presence());
        let slot = Arc::clone(self.games().entry(id.to_string()).or_insert(slot));
        self.after_change(&slot);
        Ok(slot)
    }

    /// A round as this server holds it: with the server's time for a first move.
    fn held(&self, mut round: Round) -> Round {
        round.first_move_ms = Some(crate::game::round::millis(self.settings.first_move));
        round
    }

    /// Nobody there yet in a game coming into memory. With one server nobody counts as away
    /// from before now (a restart gives players their time again); with several, the others'
    /// reports say since when.
    fn new_presence(&self) -> Presence {
        let floor = if self.database.is_shared() {
            i64::MIN
        } else {
            now_ms()
        };
        Presence::new(floor, self.settings.abandon_after)
    }

    /// Stores a new game, then puts it in memory and starts whatever it needs.
    pub async fn insert(self: &Arc<Self>, round: Round) -> Result<Arc<GameSlot>, ActionError> {
        let (round, stored) = self.database.insert(round).await;
        if let Err(error) = stored {
            tracing::error!(kind = ?error.kind, "a new game could not be stored: {error}");
            return Err(ActionError::Store(error));
        }
        let round = round.ok_or_else(|| ActionError::Unavailable("the store failed".into()))?;
        let id = round.id.clone();
        let slot = GameSlot::new(self.held(round), self.new_presence());
        self.games().insert(id, Arc::clone(&slot));
        self.after_change(&slot);
        Ok(slot)
    }

    /// Computes `action` on a copy of the round, stores the change, and only then makes the
    /// copy the round and tells the sockets. Returns the action's value and the version after,
    /// with the state right after the action as the holder of `token` sees it when
    /// `answer` is [`Answer::State`].
    pub async fn act<T>(
        self: &Arc<Self>,
        slot: &Arc<GameSlot>,
        answer: Answer<'_>,
        mut action: impl FnMut(&mut Round) -> Result<(T, Option<Change>), RoundError>,
    ) -> Result<(T, Acted), ActionError> {
        self.act_making(slot, answer, |round| {
            action(round).map(|(value, change)| (value, change, None))
        })
        .await
    }

    /// Like [`App::act`], for an action that may also make a new game (a rematch): the new
    /// game is stored first, then the change of this game. So a failure leaves nothing
    /// anyone can see: if the new game cannot be stored, nothing changed; if this game's
    /// change cannot be stored, the new game is in the store, but nobody was told its id
    /// (it is only in this game's change, which was not stored) and nobody can act in it
    /// but with the tokens of this game's players, who never learn of it.
    pub async fn act_making<T>(
        self: &Arc<Self>,
        slot: &Arc<GameSlot>,
        answer: Answer<'_>,
        mut action: impl FnMut(&mut Round) -> Result<(T, Option<Change>, Option<Round>), RoundError>,
    ) -> Result<(T, Acted), ActionError> {
        let mut live = slot.live.lock().await;
        live.used = Instant::now();
        // A flag that fell while nobody was looking counts first.
        self.settle_flag(slot, &mut live).await?;
        let mut next = live.round.clone();
        let mut was = next.version;
        let decided = match action(&mut next) {
            // With several servers this copy may be behind the store: a refusal is decided
            // again on the stored game before it is given.
            Err(_) if self.database.is_shared() && self.refresh_locked(slot, &mut live).await => {
                next = live.round.clone();
                was = next.version;
                action(&mut next)
            }
            decided => decided,
        };
        let (value, change, made) = decided?;
        let made_id = made.as_ref().map(|round| round.id.clone());
        if let Some(made) = made {
            self.insert(made).await?;
        }
        if let Some(change) = change
            && let Err(error) = self.commit(slot, &mut live, next, change, was).await
        {
            if let Some(made) = made_id {
                tracing::warn!(game = %made, "a new game was stored, but the change telling of it was not; it stays unused");
            }
            return Err(error);
        }
        let acted = Acted {
            version: live.round.version,
            state: match answer {
                Answer::Version => None,
                Answer::State(token) => Some(live.state_text(live.round.seat_of(token))),
            },
        };
        drop(live);
        self.after_change(slot);
        Ok((value, acted))
    }

    /// The state of the game as `seat` sees it, after a flag that fell is stored.
    pub async fn state_text(
        self: &Arc<Self>,
        slot: &Arc<GameSlot>,
        token: Option<&str>,
    ) -> Result<(StateText, Option<Seat>), ActionError> {
        let mut live = slot.live.lock().await;
        live.used = Instant::now();
        if self.database.is_shared() {
            // Never a state from a copy older than the store.
            self.refresh_locked(slot, &mut live).await;
        }
        if self.settle_flag(slot, &mut live).await? {
            let slot = Arc::clone(slot);
            let app = Arc::clone(self);
            tokio::spawn(async move { app.after_change(&slot) });
        }
        let seat = live.round.seat_of(token);
        Ok((live.state_text(seat), seat))
    }

    /// Stores a flag fall if the side to move has run out of time (on the clock, or past a
    /// correspondence deadline); says whether it did.
    async fn settle_flag(
        &self,
        slot: &Arc<GameSlot>,
        live: &mut Live,
    ) -> Result<bool, ActionError> {
        let now = Instant::now();
        let now_ms = crate::game::round::now_ms();
        if live.round.clock.flagged(now).is_none() && live.round.overdue(now_ms).is_none() {
            return Ok(false);
        }
        let mut next = live.round.clone();
        let was = next.version;
        if !next.check_flag(now) && !next.end_overdue(now, now_ms) {
            return Ok(false);
        }
        self.commit(slot, live, next, Change::Game, was).await?;
        Ok(true)
    }

    /// Ends the correspondence games whose deadline has passed at `now_ms`, and the games in
    /// memory whose time for a first move has (see
    /// [`Round::first_move_due`](crate::game::round::Round::first_move_due)), whether anyone
    /// watches them or not; returns how many this server ended. With a database shared by
    /// several servers each ending is stored only against the version it was computed on:
    /// a game another server ended first is found changed (and read again), not ended twice.
    pub async fn end_overdue_games(self: &Arc<Self>, now_ms: i64) -> Result<usize, StoreError> {
        let mut ids = self
            .database
            .overdue(now_ms, crate::store::OVERDUE_PER_SWEEP)
            .await?;
        // First moves that are due are known to the servers holding their games (each slot
        // keeps its game's time for a first move, so only those past it are locked).
        let held: Vec<Arc<GameSlot>> = self
            .games()
            .values()
            .filter(|slot| slot.first_move_by.load(Ordering::Relaxed) <= now_ms)
            .cloned()
            .collect();
        for slot in held {
            let live = slot.live.lock().await;
            if live.round.first_move_due().is_some()
                && live.round.overdue(now_ms).is_some()
                && !ids.contains(&live.round.id)
            {
                ids.push(live.round.id.clone());
            }
        }
        let mut ended = 0;
        for id in ids {
            let slot = match self.slot(&id).await {
                Ok(slot) => slot,
                Err(error) => {
                    tracing::warn!(game = %id, "an overdue game cannot be read: {error:?}");
                    continue;
                }
            };
            let mut live = slot.live.lock().await;
            let mut next = live.round.clone();
            let was = next.version;
            if !next.end_overdue(Instant::now(), now_ms) {
                continue;
            }
            match self.commit(&slot, &mut live, next, Change::Game, was).await {
                Ok(()) => {
                    ended += 1;
                    tracing::debug!(game = %id, "the time for a correspondence move ran out");
                }
                Err(ActionError::Store(error)) if error.kind == StoreErrorKind::Stale => {
                    tracing::debug!(game = %id, "another server changed the overdue game first");
                }
                // Logged where it failed; the next sweep tries again.
                Err(_) => {}
            }
            drop(live);
            self.after_change(&slot);
        }
        Ok(ended)
    }

    /// Stores `next` (the round after `change`, computed on version `was`); on success it
    /// becomes the round and the sockets are told, on failure nothing changes.
    async fn commit(
        &self,
        slot: &Arc<GameSlot>,
        live: &mut Live,
        next: Round,
        change: Change,
        was: u64,
    ) -> Result<(), ActionError> {
        let id = next.id.clone();
        let (next, saved) = self.database.save(next, change, was).await;
        if let Err(error) = saved {
            tracing::error!(
                game = %id, kind = ?error.kind, ?change,
                "a change could not be stored; the game stays as it was: {error}"
            );
            if error.kind == StoreErrorKind::Stale {
                // Another server changed the game: take its version, then refuse.
                self.refresh_locked(slot, live).await;
            }
            return Err(ActionError::Store(error));
        }
        let next = next.ok_or_else(|| ActionError::Unavailable("the store failed".into()))?;
        let moves_from = live.round.game.ply().min(next.game.ply());
        live.round = next;
        slot.guard_board(&live.round);
        live.sync_records();
        if let Some(stop) = live.engine_stop.take() {
            // Whatever the engine was computing was for the game before this change.
            stop.stop();
        }
        self.publish(slot, live, moves_from);
        Ok(())
    }

    /// With several servers: brings the game up to the stored version before its state is
    /// shown (a seat bound or a state asked for), so that no state comes from an old copy.
    pub async fn catch_up(&self, slot: &Arc<GameSlot>) {
        if !self.database.is_shared() {
            return;
        }
        let mut live = slot.live.lock().await;
        self.refresh_locked(slot, &mut live).await;
    }

    /// Reads the game again from the store and, if the store holds a newer version (stored
    /// by another server), makes it the round and tells the sockets; says whether it did.
    async fn refresh_locked(&self, slot: &Arc<GameSlot>, live: &mut Live) -> bool {
        let id = live.round.id.clone();
        let stored = match self.database.load(&id).await {
            Ok(Some(stored)) => stored,
            Ok(None) => return false,
            Err(error) => {
                tracing::warn!(game = %id, "cannot read the game again: {error}");
                return false;
            }
        };
        if stored.version <= live.round.version {
            return false;
        }
        let same = live
            .round
            .game
            .moves()
            .iter()
            .zip(stored.game.moves())
            .take_while(|(a, b)| a == b)
            .count();
        live.round = self.held(stored);
        slot.guard_board(&live.round);
        live.records.truncate(same);
        live.sync_records();
        if let Some(stop) = live.engine_stop.take() {
            stop.stop();
        }
        self.publish(slot, live, same);
        true
    }

    /// Reads the game `id` again if it is in memory and older than `version`.
    async fn heard(self: &Arc<Self>, id: &str, version: Option<u64>) {
        let Some(slot) = self.games().get(id).cloned() else {
            return;
        };
        let mut live = slot.live.lock().await;
        if version.is_some_and(|v| v <= live.round.version) {
            return;
        }
        self.refresh_locked(&slot, &mut live).await;
        drop(live);
        self.after_change(&slot);
    }

    /// Brings game `id` up to `version` if it is in memory and older: for changes stored
    /// outside the path of actions (a deleted account's seats renamed).
    pub async fn changed_in_store(self: &Arc<Self>, id: &str, version: u64) {
        self.heard(id, Some(version)).await;
    }

    /// With a database shared by several servers: listens for the changes the others
    /// store, and brings the games in memory up to date (all of them after a lost
    /// connection, when a change may have been missed).
    pub fn start_listening(self: &Arc<Self>) {
        if !self.database.is_shared() {
            return;
        }
        let (tx, mut heard) = tokio::sync::mpsc::channel(1024);
        self.database.listen(tx);
        let app = Arc::downgrade(self);
        tokio::spawn(async move {
            while let Some(message) = heard.recv().await {
                let Some(app) = app.upgrade() else { break };
                match message {
                    crate::store::Heard::Changed { id, version } => {
                        app.jobs.notify_one();
                        // Each game catches up on its own: one slow read holds up no other.
                        tokio::spawn(async move { app.heard(&id, Some(version)).await });
                    }
                    crate::store::Heard::Gap => {
                        let ids: Vec<String> = app.games().keys().cloned().collect();
                        for id in &ids {
                            app.heard(id, None).await;
                        }
                        let slots: Vec<Arc<GameSlot>> = app.games().values().cloned().collect();
                        app.refresh_presence(&slots).await;
                        app.tell(Happening::Heard(Arc::new(crate::store::Heard::Gap)))
                            .await;
                    }
                    crate::store::Heard::Presence { id } => {
                        let slot = app.games().get(&id).cloned();
                        if let Some(slot) = slot {
                            app.refresh_presence(&[slot]).await;
                        }
                    }
                    // The chat's lines and mutes, the lobby's seeks: for their features.
                    heard => app.tell(Happening::Heard(Arc::new(heard))).await,
                }
            }
        });
    }

    /// With a shared database: takes the engine jobs (moves and draw answers) of any game
    /// while this server has a free engine, and carries them out. A job is held by a lease
    /// renewed while the engine searches; a server that dies lets another take it.
    pub fn start_engine_jobs(self: &Arc<Self>) {
        if !self.database.is_shared() {
            return;
        }
        let app = Arc::downgrade(self);
        tokio::spawn(async move {
            loop {
                let Some(strong) = app.upgrade() else { break };
                let _ =
                    tokio::time::timeout(Duration::from_millis(500), strong.jobs.notified()).await;
                if *strong.stopping.borrow() {
                    break;
                }
                while strong.jobs_running.load(Ordering::SeqCst) < strong.engines.size() {
                    match strong.database.take_job(&strong.server_name).await {
                        Ok(Some((id, version))) => {
                            strong.jobs_running.fetch_add(1, Ordering::SeqCst);
                            let app = Arc::clone(&strong);
                            tokio::spawn(async move {
                                app.engine_job(&id, version).await;
                                app.jobs_running.fetch_sub(1, Ordering::SeqCst);
                            });
                        }
                        Ok(None) => break,
                        Err(error) => {
                            tracing::warn!("cannot take an engine job: {error}");
                            break;
                        }
                    }
                }
            }
        });
    }

    /// One engine job: the game brought up to date, the engine's turn, the lease renewed
    /// meanwhile; a job not done is given back.
    async fn engine_job(self: &Arc<Self>, id: &str, version: u64) {
        let slot = match self.slot(id).await {
            Ok(slot) => slot,
            Err(error) => {
                tracing::warn!(game = id, "an engine job's game cannot be read: {error:?}");
                let _ = self.database.release_job(&self.server_name, id).await;
                return;
            }
        };
        self.heard(id, Some(version)).await;
        {
            let mut live = slot.live.lock().await;
            if live.engine_busy {
                return;
            }
            live.engine_busy = true;
        }
        let renewing = {
            let app = Arc::clone(self);
            let id = id.to_string();
            tokio::spawn(async move {
                loop {
                    tokio::time::sleep(Duration::from_millis(
                        (crate::store::JOB_LEASE_MS / 3) as u64,
                    ))
                    .await;
                    if let Err(error) = app.database.renew_job(&app.server_name, &id).await {
                        tracing::warn!(game = %id, "cannot renew an engine job: {error}");
                    }
                }
            })
        };
        self.engine_turn(&slot).await;
        renewing.abort();
        // Done jobs are gone (the stored answer removed them); anything else is given back.
        if let Err(error) = self.database.release_job(&self.server_name, id).await {
            tracing::warn!(game = id, "cannot give an engine job back: {error}");
        }
    }

    /// Tells the sockets about the round as it is now.
    pub(crate) fn publish(&self, slot: &GameSlot, live: &Live, moves_from: usize) {
        if slot.events.receiver_count() == 0 {
            return;
        }
        let number = slot.published.fetch_add(1, Ordering::SeqCst) + 1;
        let _ = slot.events.send(Arc::new(Event::Update {
            version: live.round.version,
            texts: live.update_texts(moves_from, &slot.listening),
            number,
        }));
    }

    /// Drops from memory the games nobody uses: finished ones after
    /// [`Settings::keep_finished`], others after [`Settings::keep_idle`]. A game with a
    /// socket, a running clock, an engine at work or a request in progress stays.
    /// Returns how many were dropped.
    pub fn sweep(&self, now: Instant) -> usize {
        let mut games = self.games();
        let before = games.len();
        games.retain(|_, slot| {
            // The map holds one reference; any other is a socket, a task or a request.
            if Arc::strong_count(slot) > 1 {
                return true;
            }
            let Ok(live) = slot.live.try_lock() else {
                return true;
            };
            let idle = now.saturating_duration_since(live.used);
            let keep = if live.round.is_over() {
                self.settings.keep_finished
            } else {
                self.settings.keep_idle
            };
            live.engine_busy || idle < keep
        });
        before - games.len()
    }

    /// Sweeps the games in memory every few seconds, and ends correspondence games past
    /// their deadline every [`Settings::deadline_sweep`], for as long as the server runs.
    pub fn start_sweeping(self: &Arc<Self>) {
        let app = Arc::downgrade(self);
        let every = self.settings.deadline_sweep;
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                let Some(app) = app.upgrade() else { break };
                if let Err(error) = app.end_overdue_games(crate::game::round::now_ms()).await {
                    tracing::warn!("cannot look for games past their deadline: {error}");
                }
            }
        });
        let app = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_secs(2));
            loop {
                tick.tick().await;
                let Some(app) = app.upgrade() else { break };
                let dropped = app.sweep(Instant::now());
                if dropped > 0 {
                    tracing::debug!(
                        dropped,
                        in_memory = app.games_in_memory(),
                        "idle games left memory"
                    );
                }
            }
        });
    }

    /// After any change: watch the clock, and start the engine if it is to move or to
    /// answer a draw offer.
    pub fn after_change(self: &Arc<Self>, slot: &Arc<GameSlot>) {
        let app = Arc::clone(self);
        let slot = Arc::clone(slot);
        tokio::spawn(async move {
            let (engine_needed, flag_in, version) = {
                let mut live = slot.live.lock().await;
                let round = &live.round;
                let engine_needed =
                    (round.engine_to_move() || round.engine_has_offer()) && !live.engine_busy;
                if engine_needed && live.round.engine_to_move() {
                    // The engine's clock does not run while its move waits for an engine.
                    live.round.clock.stop(Instant::now());
                }
                // With a shared database the engine's work is a job any server may take.
                let shared = app.database.is_shared();
                if shared && engine_needed {
                    app.jobs.notify_one();
                }
                let engine_needed = engine_needed && !shared;
                if engine_needed {
                    live.engine_busy = true;
                }
                let round = &live.round;
                if round.is_over() {
                    let ended = Happening::GameOver(Arc::new(round.clone()));
                    let app = Arc::clone(&app);
                    tokio::spawn(async move { app.tell(ended).await });
                }
                // The clock's flag, or the end of the time for a first move.
                let first_move_in = round
                    .first_move_due()
                    .map(|(_, deadline)| deadline - crate::game::round::now_ms());
                let flag_in = round
                    .running_clock()
                    .and_then(|color| round.time_left(color, Instant::now()))
                    .or(first_move_in);
                (engine_needed, flag_in, round.version)
            };
            if let Some(left) = flag_in {
                let app = Arc::clone(&app);
                let slot = Arc::clone(&slot);
                tokio::spawn(async move {
                    let wait = Duration::from_millis(left.max(0) as u64 + 5);
                    tokio::time::sleep(wait).await;
                    app.watch_flag(&slot, version).await;
                });
            }
            if engine_needed {
                app.engine_turn(&slot).await;
            }
        });
    }

    async fn watch_flag(self: &Arc<Self>, slot: &Arc<GameSlot>, version: u64) {
        let mut live = slot.live.lock().await;
        if live.round.version != version {
            return;
        }
        match self.settle_flag(slot, &mut live).await {
            Ok(true) => {}
            Ok(false) => {
                drop(live);
                // The clock was not yet out (the timer fired early): look again.
                self.after_change(slot);
            }
            Err(_) => {
                drop(live);
                // Logged where it failed; try again shortly.
                tokio::time::sleep(Duration::from_secs(1)).await;
                self.after_change(slot);
            }
        }
    }

    /// The engine's move or draw answer in a game: waits for an engine (games come before
    /// analyses), searches, and stores the answer, trying again until it is stored or the
    /// game has changed.
    async fn engine_turn(self: &Arc<Self>, slot: &Arc<GameSlot>) {
        let Some(lent) = self.engines.lend(Priority::Game).await else {
            self.engine_done(slot).await;
            return;
        };
        let stop = StopToken::new();
        let job = {
            let mut live = slot.live.lock().await;
            let round = &mut live.round;
            let now = Instant::now();
            let job = if round.engine_to_move() {
                round.engine_starts_thinking(now);
                let engine = round.engine_color.unwrap_or(bashni_rules::Color::White);
                let mut limits = Limits::default().with_stop(stop.clone());
                match EngineClock::of_game(&round.clock, engine, now) {
                    Some(clock) => limits.clock = Some(clock),
                    None => limits.movetime = Some(UNTIMED_MOVE_TIME),
                }
                let seed = round.version ^ (round.created_ms as u64).rotate_left(17);
                Some((true, round.game.clone(), limits, seed, round.engine_level()))
            } else if round.engine_has_offer() {
                Some((
                    false,
                    round.game.clone(),
                    Limits::default(),
                    0,
                    round.engine_level(),
                ))
            } else {
                None
            };
            if let Some((searching, ..)) = &job {
                live.thinking = *searching;
                live.engine_stop = Some(stop.clone());
                let ply = live.round.game.ply();
                self.publish(slot, &live, ply);
            }
            job.map(|job| (job, live.round.version))
        };
        let Some(((searching, game, limits, seed, level), version)) = job else {
            drop(lent);
            self.engine_done(slot).await;
            return;
        };
        let answer = tokio::task::spawn_blocking(move || {
            let answer = if searching {
                let past = Past::of(&game);
                let result = level.choose(lent.engine(), game.position(), &past, &limits, seed);
                EngineAnswer::Move(result.best)
            } else {
                EngineAnswer::Draw(level.accepts_draw(lent.engine(), &game))
            };
            drop(lent);
            answer
        })
        .await
        .unwrap_or(EngineAnswer::Move(None));
        let mut wait = Duration::from_millis(200);
        loop {
            match self.engine_commit(slot, version, &answer).await {
                Ok(()) => break,
                Err(EngineCommit::GameChanged) => break,
                Err(EngineCommit::Failed) => {
                    // Logged where it failed; the engine's answer is kept and stored later.
                    tokio::time::sleep(wait).await;
                    wait = (wait * 2).min(Duration::from_secs(5));
                }
            }
        }
        self.engine_done(slot).await;
    }

    async fn engine_commit(
        &self,
        slot: &Arc<GameSlot>,
        version: u64,
        answer: &EngineAnswer,
    ) -> Result<(), EngineCommit> {
        let mut live = slot.live.lock().await;
        if live.round.version != version {
            return Err(EngineCommit::GameChanged);
        }
        let mut next = live.round.clone();
        let now = Instant::now();
        let change = match answer {
            EngineAnswer::Move(Some(mv)) => next.play_engine_move(mv, now).map(|()| Change::Move),
            EngineAnswer::Move(None) => {
                // Only a stopped search finds nothing; the next turn searches again.
                tracing::warn!(game = %next.id, "the engine's search ended without a move");
                return Err(EngineCommit::GameChanged);
            }
            EngineAnswer::Draw(accept) => next
                .engine_answers_draw(*accept, now)
                .map(|()| Change::Game),
        };
        let change = change.map_err(|error| {
            tracing::error!(game = %next.id, "the engine's answer was refused: {error}");
            EngineCommit::GameChanged
        })?;
        live.thinking = false;
        match self.commit(slot, &mut live, next, change, version).await {
            Ok(()) => Ok(()),
            Err(ActionError::Store(error)) if error.kind == StoreErrorKind::Stale => {
                Err(EngineCommit::GameChanged)
            }
            Err(_) => Err(EngineCommit::Failed),
        }
    }

    async fn engine_done(self: &Arc<Self>, slot: &Arc<GameSlot>) {
        {
            let mut live = slot.live.lock().await;
            live.engine_busy = false;
            live.thinking = false;
            live.engine_stop = None;
        }
        self.after_change(slot);
    }
}

enum EngineAnswer {
    Move(Option<Move>),
    Draw(bool),
}

enum EngineCommit {
    GameChanged,
    Failed,
}
