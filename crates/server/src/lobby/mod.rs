//! The lobby: open seeks (a player's offer of a game: the variant, the clock, rated or casual,
//! the colour wanted), listed live on every lobby socket of every server, taken with one click
//! or by quick pairing.
//!
//! A seek belongs to the lobby socket that posted it (its owner) and leaves with it. The
//! store is the truth: a seek is shown and acknowledged only once stored, and every change is
//! a [`SeekNote`] applied to each server's list in the order the store made them (with
//! PostgreSQL every server hears every note; with an SQLite file the server applies its own
//! right after storing them). Each server renews the lease of its seeks; the seeks of a server
//! that died are removed by the others once the lease has run out.
//!
//! Taking a seek stores the game and marks the seek taken in one transaction, so of two
//! players taking one seek at once, on one server or two, exactly one gets a game. The taker
//! is told at once; the owner is told by its own server when the note reaches it.

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use bashni_rules::{Color, Position, TimeControl, Variant};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::sync::{broadcast, mpsc};

use crate::account::Account;
use crate::app::actions::{ColorChoice, TimeRequest, variant_named};
use crate::app::events::Happening;
use crate::app::{ActionError, App};
use crate::game::round::{Round, RoundError, Seated, millis, now_ms};
use crate::game::secret::{coin, new_game_id, random_hex, typed_name};
use crate::store::{Heard, SEEK_LEASE_MS, SeekNote, SeekRow};
use crate::texts::text;

/// The most open seeks one owner may have: one lobby socket, and one account over all its
/// sockets.
pub const MAX_SEEKS_PER_OWNER: i64 = 3;

/// The name of a player who gave none.
pub const DEFAULT_NAME: &str = "Guest";

/// Changes a socket may fall behind by before it is sent the whole list again.
const EVENTS: usize = 1024;

/// How often a server renews its seeks' lease and removes the seeks whose lease ran out.
const RENEW_EVERY: Duration = Duration::from_millis((SEEK_LEASE_MS / 3) as u64);

/// What game a seek asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeekSettings {
    /// Bashni or Russian draughts.
    pub variant: Variant,
    /// The game's clock.
    pub control: TimeControl,
    /// Rated or casual.
    pub rated: bool,
    /// The colour the seek's owner wants.
    pub color: ColorChoice,
}

/// A seek's settings as stored (the `settings` column, JSON). Other kinds of clock can be
/// added as fields without a new table.
#[derive(Serialize, Deserialize)]
struct StoredSettings {
    variant: String,
    base_ms: i64,
    increment_ms: i64,
    rated: bool,
    color: String,
    /// The owner's account, if logged in (id and name).
    #[serde(default)]
    player: Option<(i64, String)>,
    /// The address the owner posted from (for the rule on rated games from one address).
    #[serde(default)]
    address: Option<String>,
}

/// Who posted a seek: the account (id and name) when logged in, and the address.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeekOwner {
    /// The account's id and name.
    pub player: Option<(i64, String)>,
    /// The address.
    pub address: Option<String>,
}

impl SeekOwner {
    /// The player at `client`, logged in as `account` or not.
    pub fn of(account: Option<&Account>, client: IpAddr) -> SeekOwner {
        SeekOwner {
            player: account.map(|account| (account.id, account.name.clone())),
            address: Some(client.to_string()),
        }
    }

    fn read(text: &str) -> SeekOwner {
        serde_json::from_str::<StoredSettings>(text)
            .map(|stored| SeekOwner {
                player: stored.player,
                address: stored.address,
            })
            .unwrap_or_default()
    }
}

fn color_name(color: ColorChoice) -> &'static str {
    match color {
        ColorChoice::Color(color) => color.code(),
        ColorChoice::Random => "random",
    }
}

impl SeekSettings {
    fn stored(&self, owner: &SeekOwner) -> String {
        let stored = StoredSettings {
            player: owner.player.clone(),
            address: owner.address.clone(),
            variant: self.variant.name().to_string(),
            base_ms: millis(self.control.base),
            increment_ms: millis(self.control.increment),
            rated: self.rated,
            color: color_name(self.color).to_string(),
        };
        serde_json::to_string(&stored).unwrap_or_default()
    }

    fn read(text: &str) -> Result<SeekSettings, String> {
        let stored: StoredSettings = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let ms = |ms: i64| Duration::from_millis(u64::try_from(ms).unwrap_or(0));
        Ok(SeekSettings {
            variant: Variant::parse(&stored.variant)
                .ok_or_else(|| format!("unknown variant {}", stored.variant))?,
            control: TimeControl {
                base: ms(stored.base_ms),
                increment: ms(stored.increment_ms),
            },
            rated: stored.rated,
            color: read_color(Some(&stored.color)).map_err(|e| e.to_string())?,
        })
    }
}

fn read_color(name: Option<&str>) -> Result<ColorChoice, ActionError> {
    match name.unwrap_or("random") {
        "random" => Ok(ColorChoice::Random),
        name => Color::from_code(name)
            .map(ColorChoice::Color)
            .ok_or_else(|| ActionError::Invalid("color: expected white, black or random".into())),
    }
}

/// A refusal of the lobby with its own code.
fn refusal(code: &'static str, message: crate::texts::Text) -> ActionError {
    ActionError::Refused { code, message }
}

fn seek_gone() -> ActionError {
    refusal("seek_gone", text!("seek-gone"))
}

/// Reads the time control of a seek (the `clock` of a lobby message), within the server's
/// limits.
pub fn read_clock(clock: Option<&TimeRequest>) -> Result<TimeControl, ActionError> {
    let clock = clock.ok_or_else(|| {
        ActionError::Invalid(
            "clock: missing (for example {\"minutes\": 5, \"increment_s\": 3})".into(),
        )
    })?;
    if clock.days_per_move.is_some() {
        return Err(ActionError::Invalid(
            "clock.days_per_move: correspondence games are made with a friend's invite, not \
             in the lobby"
                .into(),
        ));
    }
    clock.clock("clock")
}

/// Reads a seek's settings from a message's fields (who may post a rated seek is checked by
/// [`Lobby::post`]).
pub fn read_settings(
    variant: Option<&str>,
    clock: Option<&TimeRequest>,
    rated: bool,
    color: Option<&str>,
) -> Result<SeekSettings, ActionError> {
    let variant = variant
        .ok_or_else(|| ActionError::Invalid("variant: missing (bashni or russian)".into()))?;
    let settings = SeekSettings {
        variant: variant_named(variant)?,
        control: read_clock(clock)?,
        rated,
        color: read_color(color)?,
    };
    Ok(settings)
}

/// The refusal of a rated seek: rating needs to know who plays, which only an account tells.
pub fn rated_refusal() -> ActionError {
    refusal("rated_needs_account", text!("seek-rated-needs-account"))
}

/// Reads a name a player typed for the lobby (cleaned like seat names).
pub fn read_name(name: Option<&str>) -> Result<String, ActionError> {
    Ok(typed_name(name)
        .map_err(|text| refusal("bad_request", text))?
        .unwrap_or_else(|| DEFAULT_NAME.to_string()))
}

/// A seek in a server's list.
#[derive(Debug)]
pub struct Seek {
    /// As stored.
    pub row: SeekRow,
    /// Its settings, read.
    pub settings: SeekSettings,
    /// Who posted it.
    pub owner: SeekOwner,
}

/// A number of a clock as the API writes it: whole numbers without a fraction.
fn number(value: f64) -> Value {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        json!(value as i64)
    } else {
        json!(value)
    }
}

impl Seek {
    /// The seek as a lobby socket shows it; `own` for its owner's socket.
    pub fn view(&self, own: bool) -> Value {
        let control = self.settings.control;
        json!({
            "id": self.row.id,
            "name": self.row.name,
            "variant": self.settings.variant.name(),
            "clock": {
                "minutes": number(control.base.as_millis() as f64 / 60_000.0),
                "increment_s": number(control.increment.as_millis() as f64 / 1000.0),
            },
            "rated": self.settings.rated,
            "color": color_name(self.settings.color),
            "created_ms": self.row.created_ms,
            "own": own,
            // Whether the name is an account's (a guest's name is only what was typed).
            "account": self.owner.player.is_some(),
        })
    }
}

/// What every lobby socket of a server is told: each text is made once and shared by the
/// sockets.
pub enum LobbyEvent {
    /// A seek came: the message for others and for its owner.
    Added {
        /// The seek's owner.
        owner: String,
        /// `seek_added` as others see it, and as its owner does.
        texts: [Arc<str>; 2],
    },
    /// A seek went: the `seek_removed` message.
    Removed {
        /// The message.
        text: Arc<str>,
    },
}

/// A game made from a seek, for one of its two players.
#[derive(Clone, Debug)]
pub struct Paired {
    /// The game's id.
    pub game: String,
    /// This player's seat token.
    pub token: String,
    /// This player's colour.
    pub you: Color,
}

impl Paired {
    /// The `paired` message.
    pub fn message(&self) -> String {
        json!({"type": "paired", "game": self.game, "token": self.token, "you": self.you.code()})
            .to_string()
    }
}

/// What quick pairing came to.
pub enum Quick {
    /// Another player's seek was taken: a game.
    Paired(Paired),
    /// No seek matched: this seek was posted.
    Posted(String),
}

/// A lobby socket's start: the list as it sees it, the changes after it, and its own
/// messages (a `paired` for its seek taken).
pub struct Joined {
    /// The `seeks` message.
    pub list: String,
    /// The changes.
    pub events: broadcast::Receiver<Arc<LobbyEvent>>,
    /// Messages for this socket alone.
    pub personal: mpsc::UnboundedReceiver<String>,
}

/// A server's lobby: its list of open seeks (on every server), its sockets, and the lease of
/// its own seeks.
pub struct Lobby {
    /// This server's name in the seeks it stores.
    server: String,
    /// The open seeks, oldest first.
    seeks: Mutex<Vec<Arc<Seek>>>,
    /// Every change of the list, sent while the list is locked.
    events: broadcast::Sender<Arc<LobbyEvent>>,
    /// The sockets by owner, for messages to one of them.
    owners: Mutex<HashMap<String, mpsc::UnboundedSender<String>>>,
    /// With an SQLite file: held across a store call and the application of its notes, so
    /// the list changes in the order the store made the changes.
    order: tokio::sync::Mutex<()>,
    /// Owners gone whose seeks could not be removed yet (the store failed).
    left: Mutex<Vec<String>>,
    /// Whether the lease's renewal runs.
    started: AtomicBool,
    /// Set once the seeks an earlier run of this server left in the store are removed (or
    /// could not be).
    cleared: tokio::sync::watch::Sender<bool>,
}

fn locked<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Default for Lobby {
    fn default() -> Lobby {
        Lobby::new()
    }
}

impl Lobby {
    /// The server's lobby.
    pub fn of(app: &App) -> Arc<Lobby> {
        app.parts.get_or_insert_with(Lobby::new)
    }

    /// Follows the notes of other servers (a shared database): their seeks, and after a
    /// gap the whole list again.
    pub fn follow(app: &App) {
        app.subscribe(
            "lobby",
            Arc::new(|app, happening| {
                Box::pin(async move {
                    let heard = match happening {
                        Happening::Heard(heard) => heard,
                        Happening::AccountDeleted(account) => {
                            Lobby::of(&app).account_deleted(&app, account).await;
                            return;
                        }
                        _ => return,
                    };
                    match heard.as_ref() {
                        Heard::Gap => Lobby::of(&app).resync(&app).await,
                        Heard::Lobby(note) => Lobby::of(&app).apply(&app, note.clone()),
                        _ => {}
                    }
                })
            }),
        );
    }

    /// An empty lobby.
    pub fn new() -> Lobby {
        Lobby {
            server: random_hex(8)
                .unwrap_or_else(|_| format!("{}-{}", std::process::id(), now_ms())),
            seeks: Mutex::new(Vec::new()),
            events: broadcast::channel(EVENTS).0,
            owners: Mutex::new(HashMap::new()),
            order: tokio::sync::Mutex::new(()),
            left: Mutex::new(Vec::new()),
            started: AtomicBool::new(false),
            cleared: tokio::sync::watch::Sender::new(false),
        }
    }

    /// Waits until the seeks an earlier run left in the store have been looked after (see
    /// [`start`]).
    pub async fn cleared(&self) {
        let _ = self.cleared.subscribe().wait_for(|cleared| *cleared).await;
    }

    fn list_text(seeks: &[Arc<Seek>], owner: &str) -> String {
        let list: Vec<Value> = seeks
            .iter()
            .map(|seek| seek.view(seek.row.owner == owner))
            .collect();
        json!({"type": "seeks", "seeks": list}).to_string()
    }

    /// The list as `owner` sees it, and the changes from then on (after a socket fell behind).
    pub fn subscribe(&self, owner: &str) -> (String, broadcast::Receiver<Arc<LobbyEvent>>) {
        let seeks = locked(&self.seeks);
        (Lobby::list_text(&seeks, owner), self.events.subscribe())
    }

    /// Lets socket `owner` in.
    pub fn join(&self, owner: &str) -> Joined {
        let (tx, personal) = mpsc::unbounded_channel();
        locked(&self.owners).insert(owner.to_string(), tx);
        let (list, events) = self.subscribe(owner);
        Joined {
            list,
            events,
            personal,
        }
    }

    /// A deleted account's seeks go, whichever server they were posted on (the lobby of
    /// every server holds them all): nobody may start a game with a player who is gone.
    async fn account_deleted(&self, app: &Arc<App>, account: i64) {
        let gone: Vec<(String, String)> = locked(&self.seeks)
            .iter()
            .filter(|seek| {
                seek.owner
                    .player
                    .as_ref()
                    .is_some_and(|(id, _)| *id == account)
            })
            .map(|seek| (seek.row.id.clone(), seek.row.owner.clone()))
            .collect();
        for (id, owner) in gone {
            let order = self.ordered(app).await;
            match app.database.seek_cancel(&id, &owner).await {
                Ok(note) => self.after_store(app, note.into_iter().collect()),
                Err(error) => {
                    tracing::warn!(seek = %id, "a deleted account's seek stays: {error}");
                }
            }
            drop(order);
        }
    }

    /// Socket `owner` closed: its seeks go.
    pub async fn leave(&self, app: &Arc<App>, owner: &str) {
        locked(&self.owners).remove(owner);
        self.remove_owner(app, owner).await;
    }

    async fn remove_owner(&self, app: &Arc<App>, owner: &str) {
        let order = self.ordered(app).await;
        match app.database.seek_owner_left(owner).await {
            Ok(notes) => self.after_store(app, notes),
            Err(error) => {
                tracing::warn!("a lobby socket's seeks could not be removed yet: {error}");
                locked(&self.left).push(owner.to_string());
            }
        }
        drop(order);
    }

    async fn ordered(&self, app: &App) -> Option<tokio::sync::MutexGuard<'_, ()>> {
        if app.database.is_shared() {
            None
        } else {
            Some(self.order.lock().await)
        }
    }

    /// Applies the notes of this server's own store call, when nobody announces them (an
    /// SQLite file); with PostgreSQL they are heard like everybody else's.
    fn after_store(&self, app: &Arc<App>, notes: Vec<SeekNote>) {
        if !app.database.is_shared() {
            for note in notes {
                self.apply(app, note);
            }
        }
    }

    fn add_locked(&self, seeks: &mut Vec<Arc<Seek>>, row: SeekRow) {
        if seeks.iter().any(|seek| seek.row.id == row.id) {
            return;
        }
        let settings = match SeekSettings::read(&row.settings) {
            Ok(settings) => settings,
            Err(error) => {
                tracing::warn!(seek = %row.id, "a seek that cannot be read is left out: {error}");
                return;
            }
        };
        let owner = SeekOwner::read(&row.settings);
        let seek = Arc::new(Seek {
            row,
            settings,
            owner,
        });
        let text = |own: bool| {
            Arc::<str>::from(json!({"type": "seek_added", "seek": seek.view(own)}).to_string())
        };
        let event = LobbyEvent::Added {
            owner: seek.row.owner.clone(),
            texts: [text(false), text(true)],
        };
        let at = seeks
            .iter()
            .position(|s| (s.row.created_ms, &s.row.id) > (seek.row.created_ms, &seek.row.id))
            .unwrap_or(seeks.len());
        seeks.insert(at, seek);
        let _ = self.events.send(Arc::new(event));
    }

    fn remove_locked(&self, seeks: &mut Vec<Arc<Seek>>, id: &str) {
        if let Some(at) = seeks.iter().position(|seek| seek.row.id == id) {
            seeks.remove(at);
            let text = Arc::<str>::from(json!({"type": "seek_removed", "seek": id}).to_string());
            let _ = self.events.send(Arc::new(LobbyEvent::Removed { text }));
        }
    }

    /// Applies one change of the seeks to this server's list and tells its sockets; a seek
    /// of this server's taken is told to its owner.
    pub fn apply(&self, app: &Arc<App>, note: SeekNote) {
        let mut seeks = locked(&self.seeks);
        match note {
            SeekNote::Added { seek } => self.add_locked(&mut seeks, seek),
            SeekNote::Removed { id } => self.remove_locked(&mut seeks, &id),
            SeekNote::Taken {
                id,
                game,
                owner,
                server,
                owner_color,
            } => {
                self.remove_locked(&mut seeks, &id);
                if server == self.server {
                    let app = Arc::clone(app);
                    tokio::spawn(async move {
                        Lobby::of(&app)
                            .tell_owner(&app, &id, &game, &owner, &owner_color)
                            .await;
                    });
                }
            }
        }
    }

    /// Tells `owner` (if its socket is still here) that its seek `id` made game `game`, with
    /// its seat's token, then forgets the seek.
    async fn tell_owner(&self, app: &Arc<App>, id: &str, game: &str, owner: &str, color: &str) {
        let socket = locked(&self.owners).get(owner).cloned();
        if let (Some(socket), Some(color)) = (socket, Color::from_code(color)) {
            match app.slot(game).await {
                Ok(slot) => {
                    let token = slot.live.lock().await.round.player(color).token.clone();
                    if let Some(token) = token {
                        let paired = Paired {
                            game: game.to_string(),
                            token,
                            you: color,
                        };
                        let _ = socket.send(paired.message());
                    }
                }
                Err(error) => {
                    tracing::error!(
                        game,
                        "a seek's game cannot be read for its owner: {error:?}"
                    );
                }
            }
        }
        if let Err(error) = app.database.seek_forget(id).await {
            tracing::warn!(seek = id, "a taken seek could not be removed: {error}");
        }
    }

    /// Reads the seeks again from the store, after changes may have been missed (a lost
    /// connection to PostgreSQL), tells the sockets what differs, and tells the owners here
    /// of their seeks taken meanwhile.
    pub async fn resync(&self, app: &Arc<App>) {
        let rows = match app.database.seek_list(now_ms()).await {
            Ok(rows) => rows,
            Err(error) => {
                tracing::warn!("the lobby's seeks cannot be read again: {error}");
                return;
            }
        };
        let taken = app
            .database
            .seeks_taken(&self.server)
            .await
            .unwrap_or_else(|error| {
                tracing::warn!("the lobby's taken seeks cannot be read: {error}");
                Vec::new()
            });
        {
            let mut seeks = locked(&self.seeks);
            let stored: HashSet<&str> = rows.iter().map(|row| row.id.as_str()).collect();
            let gone: Vec<String> = seeks
                .iter()
                .filter(|seek| !stored.contains(seek.row.id.as_str()))
                .map(|seek| seek.row.id.clone())
                .collect();
            for id in gone {
                self.remove_locked(&mut seeks, &id);
            }
            for row in rows {
                self.add_locked(&mut seeks, row);
            }
        }
        for note in taken {
            self.apply(app, note);
        }
    }

    /// Posts a seek for socket `owner` at address `client`; returns its id once stored.
    pub async fn post(
        &self,
        app: &Arc<App>,
        owner: &str,
        client: IpAddr,
        settings: SeekSettings,
        name: String,
        account: Option<&Account>,
    ) -> Result<String, ActionError> {
        if settings.rated && account.is_none() {
            return Err(rated_refusal());
        }
        // A logged-in player's seek shows the account's name; a guest may not show one.
        let name = match account {
            Some(account) => account.name.clone(),
            None => {
                if let Some(player) = app.database.player_by_name(&name).await? {
                    return Err(refusal(
                        "name_taken",
                        text!(
                            "seek-name-of-account",
                            name = name.as_str(),
                            account = player.name
                        ),
                    ));
                }
                name
            }
        };
        app.allow_new_games(client, 1)?;
        let who = SeekOwner::of(account, client);
        self.insert_seek(app, owner, settings, name, &who).await
    }

    fn find(&self, id: &str) -> Option<Arc<Seek>> {
        locked(&self.seeks)
            .iter()
            .find(|seek| seek.row.id == id)
            .cloned()
    }

    /// Cancels socket `owner`'s seek `id`.
    /// On a shared database a seek just posted may not be heard of here yet: the store, which
    /// checks the owner too, decides then.
    pub async fn cancel(&self, app: &Arc<App>, owner: &str, id: &str) -> Result<(), ActionError> {
        if self.find(id).is_some_and(|seek| seek.row.owner != owner) {
            return Err(RoundError::Forbidden(text!("seek-cancel-not-owner")).into());
        }
        let order = self.ordered(app).await;
        let note = app.database.seek_cancel(id, owner).await?;
        let note = note.ok_or_else(seek_gone)?;
        self.after_store(app, vec![note]);
        drop(order);
        Ok(())
    }

    /// Takes seek `id` for socket `owner` at address `client`, who plays as `name`: the game
    /// is stored, the seek leaves the lobby, and its owner is told.
    pub async fn accept(
        &self,
        app: &Arc<App>,
        owner: &str,
        client: IpAddr,
        id: &str,
        name: String,
        account: Option<&Account>,
    ) -> Result<Paired, ActionError> {
        let seek = self.find(id).ok_or_else(seek_gone)?;
        if seek.row.owner == owner {
            return Err(refusal("own_seek", text!("seek-own")));
        }
        if seek.settings.rated && account.is_none() {
            return Err(rated_refusal());
        }
        if let (Some(account), Some((player, _))) = (account, &seek.owner.player)
            && account.id == *player
        {
            return Err(refusal("own_seek", text!("seek-own-account")));
        }
        app.allow_new_games(client, 1)?;
        let who = SeekOwner::of(account, client);
        self.take(app, &seek, owner, name, &who).await
    }

    /// Quick pairing: takes the oldest casual seek of another player with this variant and
    /// clock (`wanted`), or posts one (colour random) when there is none and this socket has
    /// none such.
    pub async fn quick(
        &self,
        app: &Arc<App>,
        owner: &str,
        client: IpAddr,
        (variant, control): (Variant, TimeControl),
        name: String,
        account: Option<&Account>,
    ) -> Result<Quick, ActionError> {
        app.allow_new_games(client, 1)?;
        let who = SeekOwner::of(account, client);
        let name = account.map_or(name, |account| account.name.clone());
        let matching: Vec<Arc<Seek>> = locked(&self.seeks)
            .iter()
            .filter(|seek| {
                seek.row.owner != owner
                    && !seek.settings.rated
                    && (who.player.is_none() || seek.owner.player != who.player)
                    && seek.settings.variant == variant
                    && seek.settings.control == control
            })
            .cloned()
            .collect();
        for seek in matching {
            match self.take(app, &seek, owner, name.clone(), &who).await {
                Ok(paired) => return Ok(Quick::Paired(paired)),
                // Taken by someone else meanwhile: the next one.
                Err(ActionError::Refused {
                    code: "seek_gone", ..
                }) => continue,
                Err(error) => return Err(error),
            }
        }
        let settings = SeekSettings {
            variant,
            control,
            rated: false,
            color: ColorChoice::Random,
        };
        // Asked twice: the player already waits with such a seek.
        let waiting = locked(&self.seeks)
            .iter()
            .find(|seek| seek.row.owner == owner && seek.settings == settings)
            .map(|seek| seek.row.id.clone());
        if let Some(id) = waiting {
            return Ok(Quick::Posted(id));
        }
        // The address was counted once above, for either way.
        self.insert_seek(app, owner, settings, name, &who)
            .await
            .map(Quick::Posted)
    }

    /// Stores a new seek of `owner`, unless it has the most already.
    async fn insert_seek(
        &self,
        app: &Arc<App>,
        owner: &str,
        settings: SeekSettings,
        name: String,
        who: &SeekOwner,
    ) -> Result<String, ActionError> {
        let row = SeekRow {
            id: new_game_id().map_err(ActionError::from)?,
            owner: owner.to_string(),
            server: self.server.clone(),
            name,
            settings: settings.stored(who),
            created_ms: now_ms(),
        };
        let id = row.id.clone();
        let order = self.ordered(app).await;
        // An account counts as one owner over all its sockets (as this server knows them).
        if let Some((player, _)) = &who.player {
            let open = locked(&self.seeks)
                .iter()
                .filter(|seek| seek.owner.player.as_ref().is_some_and(|(p, _)| p == player))
                .count();
            if open as i64 >= MAX_SEEKS_PER_OWNER {
                return Err(ActionError::TooMany(text!(
                    "seek-too-many-account",
                    most = MAX_SEEKS_PER_OWNER
                )));
            }
        }
        let lease = now_ms() + SEEK_LEASE_MS;
        let note = app
            .database
            .seek_insert(row, lease, MAX_SEEKS_PER_OWNER)
            .await
            .inspect_err(|error| tracing::error!("a seek could not be stored: {error}"))?;
        let Some(note) = note else {
            return Err(ActionError::TooMany(text!(
                "seek-too-many",
                most = MAX_SEEKS_PER_OWNER
            )));
        };
        self.after_store(app, vec![note]);
        drop(order);
        Ok(id)
    }

    /// Makes the game of `seek` for `taker` and stores it with the seek taken.
    async fn take(
        &self,
        app: &Arc<App>,
        seek: &Seek,
        taker: &str,
        name: String,
        who: &SeekOwner,
    ) -> Result<Paired, ActionError> {
        let owner_color = match seek.settings.color {
            ColorChoice::Color(color) => color,
            ColorChoice::Random if coin().map_err(ActionError::from)? => Color::White,
            ColorChoice::Random => Color::Black,
        };
        let token = random_hex(16).map_err(ActionError::from)?;
        let owner = Seated {
            name: seek.row.name.clone(),
            token: random_hex(16).map_err(ActionError::from)?,
            account: seek.owner.player.clone(),
            address: seek.owner.address.clone(),
        };
        let taking = Seated {
            name,
            token: token.clone(),
            account: who.player.clone(),
            address: who.address.clone(),
        };
        let players = match owner_color {
            Color::White => [owner, taking],
            Color::Black => [taking, owner],
        };
        let mut round = Round::between(
            new_game_id().map_err(ActionError::from)?,
            Position::start(seek.settings.variant),
            Some(seek.settings.control),
            players,
            owner_color,
        )?;
        round.rated = seek.settings.rated;
        let game = round.id.clone();
        let order = self.ordered(app).await;
        let note = app
            .database
            .seek_take(&seek.row.id, taker, owner_color.code(), round, now_ms())
            .await
            .inspect_err(|error| tracing::error!("a seek's game could not be stored: {error}"))?;
        let note = note.ok_or_else(seek_gone)?;
        self.after_store(app, vec![note]);
        drop(order);
        tracing::debug!(game = %game, seek = %seek.row.id, "a seek was taken");
        Ok(Paired {
            game,
            token,
            you: owner_color.opponent(),
        })
    }

    /// Renews the lease of this server's seeks, removes the seeks whose lease ran out (their
    /// server died), and removes again the seeks of sockets gone while the store failed.
    async fn tend(&self, app: &Arc<App>) {
        let now = now_ms();
        if let Err(error) = app
            .database
            .seek_renew(&self.server, now + SEEK_LEASE_MS)
            .await
        {
            tracing::warn!("the lease of this server's seeks could not be renewed: {error}");
        }
        let order = self.ordered(app).await;
        match app.database.seek_sweep(now).await {
            Ok(notes) => self.after_store(app, notes),
            Err(error) => tracing::warn!("seeks out of lease could not be removed: {error}"),
        }
        drop(order);
        let left = std::mem::take(&mut *locked(&self.left));
        for owner in left {
            self.remove_owner(app, &owner).await;
        }
    }
}

/// Starts the lobby's upkeep for as long as the server runs: with an SQLite file the seeks of
/// an earlier run are removed first; then the lease of this server's seeks is renewed and the
/// seeks out of lease removed every few seconds.
pub fn start(app: &Arc<App>) {
    if Lobby::of(app).started.swap(true, Ordering::SeqCst) {
        return;
    }
    let weak = Arc::downgrade(app);
    tokio::spawn(async move {
        if let Some(app) = weak.upgrade() {
            let lobby = Lobby::of(&app);
            let order = lobby.ordered(&app).await;
            match app.database.seek_clear_others(&lobby.server).await {
                Ok(notes) => lobby.after_store(&app, notes),
                Err(error) => tracing::warn!("old seeks could not be removed: {error}"),
            }
            drop(order);
            lobby.cleared.send_replace(true);
        }
        let mut tick = tokio::time::interval(RENEW_EVERY);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let Some(app) = weak.upgrade() else { break };
            if *app.stopping().borrow() {
                break;
            }
            Lobby::of(&app).tend(&app).await;
        }
    });
}
