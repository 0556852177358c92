//! The server's state: the store, the games in memory, the engines, and the one path every
//! change of a game takes: compute it on a copy of the round, store it, and only then make
//! it the round in memory and tell the sockets. A failed store changes nothing anywhere.

pub mod actions;
mod cluster;
mod engine_turn;
pub mod engines;
mod error;
pub mod events;
pub mod parts;
pub mod presence;
mod settings;
mod slot;
mod sweep;
pub mod time;

use time::Time;

pub use error::ActionError;
pub use settings::{EndgameTables, Settings};
pub use slot::{Acted, Answer, Event, GameSlot, Live, StateText};

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
use crate::game::round::{Round, RoundError, Seat};
use crate::game::shown::{Records, Shown};
use crate::game::view::Seen;
use crate::game::view::{Form, Looker, game_state, move_records, short_record, update_view};
use crate::limits::AddressRates;
use crate::store::{Change, Database, StoreError, StoreErrorKind};
use engines::{EnginePool, Priority};
use events::{Happening, Subscribers};
use parts::Parts;
use presence::Presence;

/// Engine time per move in a game without a clock.
const UNTIMED_MOVE_TIME: Duration = Duration::from_millis(1000);

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
    /// HTTP requests in progress per address: behind a balancer, where the connections all
    /// come from it, this is what keeps one client from holding many slow requests open.
    requests_open: Arc<crate::limits::ConnectionLimits>,
    /// New games per address.
    creations: AddressRates,
    /// Wakes the engine-job taker (a shared database).
    jobs: tokio::sync::Notify,
    /// How this server names itself when it takes an engine job or reports its sockets.
    pub(crate) server_name: String,
    /// Engine jobs this server is carrying out.
    jobs_running: Arc<AtomicUsize>,
    /// Games read again after another server's change (see [`App::games_read_again`]).
    games_read_again: AtomicU64,
    /// How many games were let go on hearing another server's change (see
    /// [`App::games_let_go`]).
    games_let_go: tokio::sync::watch::Sender<u64>,
    /// Set when the server is stopping: sockets are handed back, nothing new starts.
    stopping: tokio::sync::watch::Sender<bool>,
    /// Requests and socket actions being carried out.
    in_flight: Arc<tokio::sync::watch::Sender<usize>>,
    /// Reports of this server's sockets are written one at a time (see [`crate::app::presence`]).
    pub(crate) presence_writes: tokio::sync::Mutex<()>,
    /// Changes of this server's sockets waiting for the next write of them.
    presence_waiting: std::sync::Mutex<presence::PresenceWaiting>,
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
pub struct InFlight(Arc<tokio::sync::watch::Sender<usize>>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.send_modify(|count| *count -= 1);
    }
}

impl App {
    /// A server on `store`.
    pub fn new(database: impl Into<Database>, settings: Settings) -> Arc<App> {
        Arc::new(App {
            database: database.into(),
            games: Mutex::new(HashMap::new()),
            engines: EnginePool::new(
                settings.engines.max(1),
                settings.hash_mb,
                settings.tables.as_ref().map(|tables| Arc::clone(&tables.0)),
            ),
            requests: AddressRates::new(
                settings.requests_per_second.saturating_mul(2),
                f64::from(settings.requests_per_second),
            ),
            requests_open: crate::limits::ConnectionLimits::new(
                settings.open_requests_per_address,
                usize::MAX,
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
            games_read_again: AtomicU64::new(0),
            games_let_go: tokio::sync::watch::Sender::new(0),
            in_flight: Arc::new(tokio::sync::watch::Sender::new(0)),
            presence_writes: tokio::sync::Mutex::new(()),
            presence_waiting: std::sync::Mutex::new(presence::PresenceWaiting::default()),
            parts: Parts::default(),
            subscribers: Subscribers::default(),
        })
    }

    /// Now, by the server's time (see [`time::Time`]): for clocks, presence and deadlines.
    pub fn now(&self) -> Instant {
        self.settings.time.now()
    }

    /// Now in ms since 1970, by the server's time.
    pub fn now_ms(&self) -> i64 {
        self.settings.time.now_ms()
    }

    /// Counts a request or socket action in progress.
    pub fn in_flight(&self) -> InFlight {
        self.in_flight.send_modify(|count| *count += 1);
        InFlight(Arc::clone(&self.in_flight))
    }

    /// Waits until `check` holds for the number of requests and socket actions in
    /// progress, looking again at each change.
    pub async fn until_in_flight(&self, check: impl Fn(usize) -> bool) {
        let _ = self
            .in_flight
            .subscribe()
            .wait_for(|&count| check(count))
            .await;
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
        let _ = tokio::time::timeout(wait, self.until_in_flight(|count| count == 0)).await;
        let left = *self.in_flight.borrow();
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
            Err(ActionError::TooMany(crate::texts::text!(
                "error-too-many-games",
                most = self.settings.new_games_per_minute
            )))
        }
    }

    /// Counts one HTTP request of `client`; `false` when it sends too many.
    pub fn allow_request(&self, client: IpAddr) -> bool {
        self.requests.allow(client, 1, Instant::now())
    }

    /// Counts one HTTP request of `client` in progress until the guard is dropped; `None`
    /// when that address has [`Settings::open_requests_per_address`] in progress already.
    pub fn open_request(&self, client: IpAddr) -> Option<crate::limits::ConnectionGuard> {
        self.requests_open.enter(client).ok()
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
        let slot = GameSlot::new(
            self.held(round),
            self.new_presence(),
            self.settings.time.clone(),
            false,
        );
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
            self.now_ms()
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
        let slot = GameSlot::new(
            self.held(round),
            self.new_presence(),
            self.settings.time.clone(),
            true,
        );
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
        live.used = self.now();
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
        live.used = self.now();
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
        live.round = next;
        // Changed here: held for whoever changed it, not to be let go at a beat.
        slot.let_go_when_free.store(false, Ordering::Relaxed);
        slot.guard_board(&live.round);
        live.sync_records();
        if let Some(stop) = live.engine_stop.take() {
            // Whatever the engine was computing was for the game before this change.
            stop.stop();
        }
        self.publish(slot, live);
        Ok(())
    }

    /// Tells the sockets about the round as it is now.
    pub(crate) fn publish(&self, slot: &GameSlot, live: &Live) {
        if slot.events.receiver_count() == 0 {
            return;
        }
        let number = slot.published.fetch_add(1, Ordering::SeqCst) + 1;
        let _ = slot.events.send(Arc::new(Event::Update {
            version: live.round.version,
            number,
        }));
    }
}
