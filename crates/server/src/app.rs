//! The server's state: the store, the games in memory, the engines, and the one path every
//! change of a game takes (act, store, then tell the watchers).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::http::header;
use axum::response::{IntoResponse, Response};
use bashni_engine::{Clock, Engine, Level, Limits, Options, Past};
use bashni_rules::{Color, Game};
use serde::Serialize;
use serde_json::value::RawValue;
use tokio::sync::{Semaphore, broadcast};

use crate::error::ApiError;
use crate::live::{LiveGame, Seat};
use crate::store::{MoveRow, Store};
use crate::view::{GameStateView, game_state, move_record};

/// Engine time per move in a game without a clock.
const UNTIMED_MOVE_TIME: Duration = Duration::from_millis(1000);

/// A game held in memory, with the channel that tells its watchers about changes.
pub struct GameSlot {
    /// The game.
    pub live: tokio::sync::Mutex<LiveState>,
    /// Every change, as the state message sent to watchers.
    pub updates: broadcast::Sender<Arc<str>>,
}

/// A live game and the records of its moves (kept so a state is cheap to make).
pub struct LiveState {
    /// The game.
    pub game: LiveGame,
    /// The JSON record of each move.
    pub records: Vec<Box<RawValue>>,
}

impl LiveState {
    fn new(game: LiveGame) -> LiveState {
        let records = (0..game.game.ply())
            .filter_map(|ply| move_record(&game.game, ply))
            .collect();
        LiveState { game, records }
    }

    fn sync_records(&mut self) {
        let ply = self.game.game.ply();
        self.records.truncate(ply);
        while self.records.len() < ply {
            match move_record(&self.game.game, self.records.len()) {
                Some(record) => self.records.push(record),
                None => break,
            }
        }
    }

    /// The game's state as `seat` sees it.
    pub fn state(&self, seat: Option<Seat>) -> GameStateView<'_> {
        game_state(&self.game, &self.records, seat, Instant::now())
    }

    /// The message that tells watchers the game's state, as JSON text.
    pub fn state_message(&self) -> String {
        let message = StateMessage {
            kind: "state",
            state: self.state(None),
        };
        serde_json::to_string(&message).unwrap_or_default()
    }

    /// The game's state as `seat` sees it, as JSON text.
    pub fn state_text(&self, seat: Option<Seat>) -> StateText {
        StateText {
            json: serde_json::to_string(&self.state(seat)).unwrap_or_default(),
            version: self.game.version,
        }
    }
}

/// A game's state, serialised once, and its version.
pub struct StateText {
    /// The JSON text.
    pub json: String,
    /// The state's version.
    pub version: u64,
}

impl StateText {
    /// The state as a JSON value (for answers that wrap it).
    pub fn value(&self) -> serde_json::Value {
        serde_json::from_str(&self.json).unwrap_or_default()
    }
}

impl IntoResponse for StateText {
    fn into_response(self) -> Response {
        ([(header::CONTENT_TYPE, "application/json")], self.json).into_response()
    }
}

/// The message that tells watchers about a change.
#[derive(Serialize)]
struct StateMessage<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    state: GameStateView<'a>,
}

/// Engines lent to searches, one search each at a time.
pub struct EnginePool {
    engines: Mutex<Vec<Engine>>,
    permits: Semaphore,
}

impl EnginePool {
    /// `count` engines with `hash_mb` of table each.
    pub fn new(count: usize, hash_mb: usize) -> EnginePool {
        let engines = (0..count)
            .map(|_| {
                Engine::new(Options {
                    hash_mb,
                    threads: 1,
                    multipv: 1,
                })
            })
            .collect();
        EnginePool {
            engines: Mutex::new(engines),
            permits: Semaphore::new(count),
        }
    }

    /// Runs `work` with an engine, on a blocking thread, once one is free.
    pub async fn with_engine<T: Send + 'static>(
        self: &Arc<Self>,
        work: impl FnOnce(&Engine) -> T + Send + 'static,
    ) -> Option<T> {
        let _permit = self.permits.acquire().await.ok()?;
        let pool = Arc::clone(self);
        tokio::task::spawn_blocking(move || {
            let engine = pool
                .engines
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .pop()?;
            let result = work(&engine);
            pool.engines
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(engine);
            Some(result)
        })
        .await
        .ok()
        .flatten()
    }
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
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            engines: 2,
            hash_mb: 16,
            web_dir: None,
            connections_per_address: 64,
        }
    }
}

/// Everything the server shares between requests.
pub struct App {
    /// The database.
    pub store: Store,
    games: Mutex<HashMap<String, Arc<GameSlot>>>,
    /// The engines.
    pub engines: Arc<EnginePool>,
    /// The settings.
    pub settings: Settings,
}

impl App {
    /// A server on `store`.
    pub fn new(store: Store, settings: Settings) -> Arc<App> {
        Arc::new(App {
            store,
            games: Mutex::new(HashMap::new()),
            engines: Arc::new(EnginePool::new(settings.engines.max(1), settings.hash_mb)),
            settings,
        })
    }

    /// How many games are in memory.
    pub fn games_in_memory(&self) -> usize {
        self.games.lock().unwrap_or_else(|p| p.into_inner()).len()
    }

    /// The game `id`, from memory or else from the database.
    pub fn slot(self: &Arc<Self>, id: &str) -> Result<Arc<GameSlot>, ApiError> {
        if let Some(slot) = self.games.lock().unwrap_or_else(|p| p.into_inner()).get(id) {
            return Ok(Arc::clone(slot));
        }
        if id.len() > 64 || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(ApiError::not_found(format!("there is no game {id:?}")));
        }
        let Some((row, moves)) = self.store.load_game(id)? else {
            return Err(ApiError::not_found(format!("there is no game {id:?}")));
        };
        let live = LiveGame::restore(row, &moves).map_err(|e| {
            tracing::error!("{e}");
            ApiError::internal(format!("the stored game cannot be read: {e}"))
        })?;
        let (updates, _) = broadcast::channel(16);
        let slot = Arc::new(GameSlot {
            live: tokio::sync::Mutex::new(LiveState::new(live)),
            updates,
        });
        let slot = {
            let mut games = self.games.lock().unwrap_or_else(|p| p.into_inner());
            Arc::clone(games.entry(id.to_string()).or_insert(slot))
        };
        self.after_change(&slot);
        Ok(slot)
    }

    /// Puts a newly made game in memory and starts whatever it needs (the engine's move).
    pub fn add(self: &Arc<Self>, live: LiveGame) -> Arc<GameSlot> {
        let id = live.row.id.clone();
        let (updates, _) = broadcast::channel(16);
        let slot = Arc::new(GameSlot {
            live: tokio::sync::Mutex::new(LiveState::new(live)),
            updates,
        });
        self.games
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(id, Arc::clone(&slot));
        self.after_change(&slot);
        slot
    }

    /// Forgets the game `id` in memory (after a failed write, so it is read again from disk).
    fn evict(&self, id: &str) {
        self.games
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(id);
    }

    /// Runs `action` on the game, stores what it changed and tells the watchers. If storing
    /// fails, the game in memory is dropped (it is read again from disk) and the action is
    /// refused, so nothing unstored is ever shown as done.
    pub async fn act<T>(
        self: &Arc<Self>,
        slot: &Arc<GameSlot>,
        token: Option<&str>,
        action: impl FnOnce(&mut LiveGame) -> Result<(T, Change), ApiError>,
    ) -> Result<(T, StateText), ApiError> {
        let mut state = slot.live.lock().await;
        // A flag that fell while nobody was looking counts first.
        if state.game.check_flag(Instant::now()) {
            self.store_change(&mut state, Change::Game)?;
            self.broadcast(slot, &state);
        }
        let (value, change) = action(&mut state.game)?;
        self.store_change(&mut state, change)?;
        self.broadcast(slot, &state);
        let seat = crate::api::seat_of(&state.game, token);
        let seat_state = state.state_text(seat);
        drop(state);
        self.after_change(slot);
        Ok((value, seat_state))
    }

    fn store_change(&self, state: &mut LiveState, change: Change) -> Result<(), ApiError> {
        let id = state.game.row.id.clone();
        let stored = match &change {
            Change::Move(row) => self.store.append_move(&state.game.row, row),
            Change::Game => self.store.update_game(&state.game.row),
            Change::TakeBack(ply) => self.store.take_back(&state.game.row, *ply),
            Change::Nothing => Ok(()),
        };
        if let Err(error) = stored {
            self.evict(&id);
            return Err(error.into());
        }
        state.sync_records();
        Ok(())
    }

    /// Sends the game's state to its watchers.
    pub fn broadcast(&self, slot: &GameSlot, state: &LiveState) {
        if slot.updates.receiver_count() == 0 {
            return;
        }
        let _ = slot.updates.send(Arc::from(state.state_message()));
    }

    /// After any change: start the engine's search if it is to move, and watch the clock.
    pub fn after_change(self: &Arc<Self>, slot: &Arc<GameSlot>) {
        let app = Arc::clone(self);
        let slot = Arc::clone(slot);
        tokio::spawn(async move {
            let (engine_turn, flag_in, version) = {
                let mut state = slot.live.lock().await;
                let game = &mut state.game;
                let engine_turn = game.engine_to_move() && !game.engine_thinking;
                if engine_turn {
                    game.engine_thinking = true;
                }
                let flag_in = game
                    .running_clock()
                    .and_then(|color| game.time_left(color, Instant::now()));
                let version = game.version;
                if engine_turn {
                    app.broadcast(&slot, &state);
                }
                (engine_turn, flag_in, version)
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
            if engine_turn {
                app.engine_move(&slot, version).await;
            }
        });
    }

    async fn watch_flag(self: &Arc<Self>, slot: &Arc<GameSlot>, version: u64) {
        let mut state = slot.live.lock().await;
        if state.game.version != version {
            return;
        }
        if state.game.check_flag(Instant::now()) {
            if self.store_change(&mut state, Change::Game).is_ok() {
                self.broadcast(slot, &state);
            }
        } else {
            drop(state);
            // The clock was not yet out (the timer fired early): look again.
            self.after_change(slot);
        }
    }

    async fn engine_move(self: &Arc<Self>, slot: &Arc<GameSlot>, version: u64) {
        let (game, limits, level, seed) = {
            let state = slot.live.lock().await;
            let live = &state.game;
            let level = live
                .row
                .level
                .and_then(Level::new)
                .unwrap_or_else(Level::full);
            let engine = live.engine_color.unwrap_or(Color::White);
            let mut limits = Limits::default();
            match Clock::of_game(&live.clock, engine, Instant::now()) {
                Some(clock) => limits.clock = Some(clock),
                None => limits.movetime = Some(UNTIMED_MOVE_TIME),
            }
            let seed = live.version ^ (live.row.created_ms as u64).rotate_left(17);
            (live.game.clone(), limits, level, seed)
        };
        let chosen = self
            .engines
            .with_engine(move |engine| {
                level
                    .choose(engine, game.position(), &Past::of(&game), &limits, seed)
                    .best
            })
            .await
            .flatten();
        let mut state = slot.live.lock().await;
        state.game.engine_thinking = false;
        if state.game.version != version {
            // Something happened while the engine thought (a take-back, a resignation):
            // forget the answer and look again.
            drop(state);
            self.after_change(slot);
            return;
        }
        let Some(mv) = chosen else {
            self.broadcast(slot, &state);
            return;
        };
        let played = state.game.play_engine_move(&mv, Instant::now());
        match played {
            Ok(row) => {
                if self.store_change(&mut state, Change::Move(row)).is_ok() {
                    self.broadcast(slot, &state);
                }
            }
            Err(error) => tracing::error!("engine move {mv}: {error}"),
        }
        drop(state);
        self.after_change(slot);
    }

    /// The engine's answer, at `level`, to the open draw offer in `game`
    /// ([`Level::accepts_draw`]).
    pub async fn engine_accepts_draw(&self, game: Game, level: Level) -> bool {
        self.engines
            .with_engine(move |engine| level.accepts_draw(engine, &game))
            .await
            .unwrap_or(false)
    }
}

/// What an action changed, so it can be stored.
pub enum Change {
    /// A move was played (and maybe the game ended).
    Move(MoveRow),
    /// Seats, clocks, result or draw offer changed.
    Game,
    /// Moves from this ply on were taken back.
    TakeBack(u32),
    /// Nothing to store.
    Nothing,
}
