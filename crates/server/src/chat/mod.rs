//! The chat of a game, in two rooms: the players' room, where the two players of a game
//! between people online write to each other (watchers never read it), and the watchers'
//! room, where watchers write and everyone reads (the players too, but they may not write
//! there). Lines are plain text: checked here, stored first, and only then sent to the
//! sockets that may read them. A player may mute the other player: their lines are then no
//! longer sent to the muting player, and the muted player is not told.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bashni_rules::Color;
use serde_json::{Value, json};

use crate::app::events::Happening;
use crate::app::{ActionError, App, Event, GameSlot};
use crate::game::round::{Mode, Round, RoundError, Seat, now_ms};
use crate::game::secret::{is_hidden_format, normalise_name};
use crate::store::{CHAT_LINES_KEPT, ChatLine, Heard};
use crate::texts::text;

/// The longest line, in characters (after trimming).
pub const MAX_CHAT_CHARS: usize = 300;

/// The longest name a watcher may give, in characters.
pub const MAX_WATCHER_NAME_CHARS: usize = 20;

/// The name of a watcher who gives none.
pub const WATCHER_NAME: &str = "Watcher";

/// Lines one player (or one watcher's socket) may write in [`CHAT_WINDOW`].
pub const CHAT_LINES_PER_WINDOW: usize = 5;

/// See [`CHAT_LINES_PER_WINDOW`].
pub const CHAT_WINDOW: Duration = Duration::from_secs(10);

pub use crate::game::room::{Room, side_index};

/// What this server knows of a game's chat, kept on the game.
fn memory_of(slot: &GameSlot) -> Arc<tokio::sync::Mutex<ChatMemory>> {
    slot.parts.get_or_insert_with(|| {
        tokio::sync::Mutex::new(if slot.made_here {
            ChatMemory::of_new_game()
        } else {
            ChatMemory::default()
        })
    })
}

/// Follows the notes of other servers (a shared database): their chat lines and mutes, and
/// after a gap, everything again.
pub fn follow(app: &App) {
    app.subscribe(
        "chat",
        Arc::new(|app, happening| {
            Box::pin(async move {
                let Happening::Heard(heard) = happening else {
                    return;
                };
                match heard.as_ref() {
                    Heard::Gap => {
                        let slots: Vec<Arc<GameSlot>> = app.games().values().cloned().collect();
                        for slot in &slots {
                            heard_gap(&app, slot).await;
                        }
                    }
                    Heard::Chat { id, room, seq } => {
                        let slot = app.games().get(id).cloned();
                        if let Some(slot) = slot {
                            heard_line(&app, &slot, room, *seq).await;
                        }
                    }
                    Heard::Muted { id, side } => {
                        let slot = app.games().get(id).cloned();
                        if let Some(slot) = slot {
                            heard_mute(&app, &slot, side).await;
                        }
                    }
                    _ => {}
                }
            })
        }),
    );
}

/// Whether a socket bound to `seat` (a watcher's: `None`) reads `room` of a game that is
/// `over` or not: only the two seated players read theirs; watchers read their own room, and
/// the players read it only once the game is over, so that nobody watching can help them.
pub fn may_read(seat: Option<Seat>, room: Room, over: bool) -> bool {
    match room {
        Room::Watchers => seat.is_none() || over,
        Room::Players => matches!(seat, Some(Seat::White | Seat::Black)),
    }
}

/// Who writes a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Author {
    /// The player of this colour.
    Player(Color),
    /// A watcher, with the name they gave.
    Watcher(String),
}

/// Who `seat` writes as in `room` of `round`, or why it may not write there: the players
/// write in the players' room of a game between two people online, watchers in the
/// watchers' room. `name` is a watcher's name (see [`watcher_name`]).
pub fn author_for(
    round: &Round,
    seat: Option<Seat>,
    room: Room,
    name: Option<&str>,
) -> Result<Author, RoundError> {
    match (room, seat) {
        (Room::Players, Some(Seat::White | Seat::Black)) if round.mode != Mode::Friend => {
            Err(RoundError::Conflict(text!("chat-players-room-friend-only")))
        }
        (Room::Players, Some(Seat::White)) => Ok(Author::Player(Color::White)),
        (Room::Players, Some(Seat::Black)) => Ok(Author::Player(Color::Black)),
        (Room::Players, Some(Seat::Both | Seat::Engine)) => {
            Err(RoundError::Conflict(text!("chat-players-room-friend-only")))
        }
        (Room::Players, None) => Err(RoundError::Forbidden(text!(
            "chat-watchers-not-in-players-room"
        ))),
        (Room::Watchers, None) => Ok(Author::Watcher(watcher_name(name)?)),
        (Room::Watchers, Some(_)) => Err(RoundError::Forbidden(text!(
            "chat-players-not-in-watchers-room"
        ))),
    }
}

/// A line as typed, checked: trimmed, not empty, at most [`MAX_CHAT_CHARS`] characters, and
/// without control characters (a line break is one) or characters that hide themselves or
/// turn the text around.
pub fn chat_text(text: &str) -> Result<String, RoundError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(RoundError::Invalid("text: empty".into()));
    }
    if let Some(c) = text.chars().find(|c| c.is_control()) {
        return Err(RoundError::Invalid(format!(
            "text: control characters are not allowed (a line break is one); found U+{:04X}",
            u32::from(c)
        )));
    }
    if let Some(c) = text.chars().find(|&c| is_hidden_format(c)) {
        return Err(RoundError::Invalid(format!(
            "text: invisible or direction-changing characters are not allowed; found U+{:04X}",
            u32::from(c)
        )));
    }
    let count = text.chars().count();
    if count > MAX_CHAT_CHARS {
        return Err(RoundError::Invalid(format!(
            "text: at most {MAX_CHAT_CHARS} characters, not {count}"
        )));
    }
    Ok(text.to_string())
}

/// A watcher's name for the watchers' room: cleaned as typed names are, at most
/// [`MAX_WATCHER_NAME_CHARS`] characters; [`WATCHER_NAME`] when none is given.
pub fn watcher_name(name: Option<&str>) -> Result<String, RoundError> {
    match name.and_then(normalise_name) {
        None => Ok(WATCHER_NAME.to_string()),
        Some(name) if name.chars().count() > MAX_WATCHER_NAME_CHARS => Err(RoundError::Invalid(
            format!("name: at most {MAX_WATCHER_NAME_CHARS} characters"),
        )),
        Some(name) => Ok(name),
    }
}

/// The lines one writer wrote lately: at most [`CHAT_LINES_PER_WINDOW`] in any
/// [`CHAT_WINDOW`].
#[derive(Default, Debug)]
pub struct LineRate {
    times: VecDeque<Instant>,
}

impl LineRate {
    /// Refuses a line at `now` when the writer wrote too many lately.
    pub fn check(&mut self, now: Instant) -> Result<(), ActionError> {
        while self
            .times
            .front()
            .is_some_and(|&t| now.saturating_duration_since(t) >= CHAT_WINDOW)
        {
            self.times.pop_front();
        }
        match self.times.front() {
            Some(&first) if self.times.len() >= CHAT_LINES_PER_WINDOW => {
                let wait = CHAT_WINDOW.saturating_sub(now.saturating_duration_since(first));
                Err(ActionError::TooMany(text!(
                    "chat-too-many-lines",
                    most = CHAT_LINES_PER_WINDOW,
                    seconds = CHAT_WINDOW.as_secs(),
                    wait = wait.as_secs().max(1)
                )))
            }
            _ => Ok(()),
        }
    }

    /// Counts a line written at `now`.
    pub fn count(&mut self, now: Instant) {
        self.times.push_back(now);
    }
}

/// Who wrote lines lately, over all sockets and games of this server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Writer {
    /// A watcher's address.
    Address(IpAddr),
    /// An account: a logged-in watcher, or a player's seat that belongs to one.
    Account(i64),
}

/// The lines of each writer on this server, over all its sockets and games: a watcher's
/// address, and an account, as a watcher or a player, may each write as many as one socket
/// may ([`CHAT_LINES_PER_WINDOW`] in [`CHAT_WINDOW`]), so that opening many sockets, or
/// writing in many games, does not let one client fill the chats.
#[derive(Default)]
pub struct WriterLines(std::sync::Mutex<HashMap<Writer, LineRate>>);

impl WriterLines {
    /// This server's.
    pub fn of(app: &App) -> Arc<WriterLines> {
        app.parts.get_or_insert_with(WriterLines::default)
    }

    fn check(&self, writers: &[Writer], now: Instant) -> Result<(), ActionError> {
        let mut rates = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if rates.len() > 10_000 {
            // Forget the writers with no line in the window (checking drops old lines).
            rates.retain(|_, rate| {
                let _ = rate.check(now);
                !rate.times.is_empty()
            });
        }
        writers
            .iter()
            .try_for_each(|writer| rates.entry(*writer).or_default().check(now))
    }

    fn count(&self, writers: &[Writer], now: Instant) {
        let mut rates = self.0.lock().unwrap_or_else(|p| p.into_inner());
        for writer in writers {
            rates.entry(*writer).or_default().count(now);
        }
    }
}

/// Who is writing on a socket: the client's address, and the account it is logged in to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Client {
    /// The client's address.
    pub address: IpAddr,
    /// The account of the socket's session, if any: its id and name.
    pub account: Option<(i64, String)>,
}

/// A line as the API shows it: `{"seq", "from", "name", "account", "text", "at"}`.
pub fn line_view(line: &ChatLine) -> Value {
    json!({
        "seq": line.seq,
        "from": line.author,
        "name": line.name,
        "account": line.account,
        "text": line.text,
        "at": line.at_ms,
    })
}

/// What this server knows of a game's chat, kept with the game in memory.
#[derive(Default, Debug)]
pub struct ChatMemory {
    /// The last line of each room sent to this server's sockets (`None`: none yet).
    sent: [Option<u64>; 2],
    /// Which sides mute their opponent, once read from the store.
    mutes: Option<[bool; 2]>,
    /// Each room known to have no line: read empty from the store, and no line stored or heard
    /// of since (the next socket to open need not read it again).
    empty: [bool; 2],
    /// Each player's lines lately (the limit per seat).
    rates: [LineRate; 2],
}

impl ChatMemory {
    /// The chat of a game this server has just made: no line in either room and nobody
    /// muted, known without reading the store.
    fn of_new_game() -> ChatMemory {
        ChatMemory {
            sent: [Some(0); 2],
            mutes: Some([false; 2]),
            empty: [true; 2],
            ..ChatMemory::default()
        }
    }
}

/// The store's mutes of game `id` read into `memory` (once).
async fn mutes(app: &App, id: &str, memory: &mut ChatMemory) -> Result<[bool; 2], ActionError> {
    if let Some(mutes) = memory.mutes {
        return Ok(mutes);
    }
    let sides = app.database.mutes(id).await.map_err(|error| {
        tracing::warn!(game = id, "cannot read the chat's mutes: {error}");
        ActionError::Store(error)
    })?;
    let mutes = [Color::White, Color::Black].map(|c| sides.iter().any(|s| s == c.code()));
    memory.mutes = Some(mutes);
    Ok(mutes)
}

/// Whether the side `muting` mutes the author of `line` (its opponent, in the players' room).
fn hidden_from(line: &ChatLine, mutes: [bool; 2]) -> Option<Color> {
    let author = Color::from_code(&line.author)?;
    let muting = author.opponent();
    (line.room == Room::Players.name() && mutes[side_index(muting)]).then_some(muting)
}

/// Sends stored lines to this server's sockets, in order, and remembers the last.
fn publish(
    slot: &GameSlot,
    memory: &mut ChatMemory,
    room: Room,
    mutes: [bool; 2],
    lines: &[ChatLine],
) {
    for line in lines {
        let text =
            json!({"type": "chat", "room": room.name(), "line": line_view(line)}).to_string();
        let _ = slot.events.send(Arc::new(Event::Chat {
            room,
            text,
            hidden_from: hidden_from(line, mutes),
        }));
        let sent = &mut memory.sent[room.index()];
        *sent = Some(sent.map_or(line.seq, |s| s.max(line.seq)));
        memory.empty[room.index()] = false;
    }
}

/// Writes `text` in `room` for the socket bound to `seat` (a watcher's: `None`, named
/// `name`); `socket_rate` is the socket's count of a watcher's lines, and `client` who is
/// writing. A player's lines count per seat and, when the seat is an account's, for that
/// account over all games; a watcher's per socket, per address and per account (see
/// [`WriterLines`]). The line is stored first, and only then sent to the sockets; returns
/// its number.
pub async fn post(
    app: &Arc<App>,
    slot: &Arc<GameSlot>,
    seat: Option<Seat>,
    room: Room,
    text: &str,
    name: Option<&str>,
    (socket_rate, client): (&mut LineRate, Client),
) -> Result<u64, ActionError> {
    let text = chat_text(text)?;
    // A logged-in watcher writes under the account's name.
    let name = match &client.account {
        Some((_, account)) => Some(account.as_str()),
        None => name,
    };
    let (id, author, shown, writers, account) = {
        let live = slot.live.lock().await;
        let author = author_for(&live.round, seat, room, name)?;
        let (shown, writers, account) = match &author {
            Author::Player(color) => {
                let account = live.round.account(*color);
                (
                    live.round.player(*color).name.clone(),
                    account.map(Writer::Account).into_iter().collect(),
                    account.is_some(),
                )
            }
            Author::Watcher(name) => (
                name.clone(),
                std::iter::once(Writer::Address(client.address))
                    .chain(client.account.as_ref().map(|(id, _)| Writer::Account(*id)))
                    .collect::<Vec<_>>(),
                client.account.is_some(),
            ),
        };
        (live.round.id.clone(), author, shown, writers, account)
    };
    if let Author::Watcher(name) = &author
        && !account
        && name != WATCHER_NAME
        && let Some(player) = app.database.player_by_name(name).await?
    {
        return Err(ActionError::Round(RoundError::Conflict(text!(
            "chat-name-of-account",
            name = name.as_str(),
            account = player.name
        ))));
    }
    let chat = memory_of(slot);
    let mut memory = chat.lock().await;
    let now = Instant::now();
    let by_writer = WriterLines::of(app);
    match &author {
        Author::Player(color) => memory.rates[side_index(*color)].check(now)?,
        Author::Watcher(_) => socket_rate.check(now)?,
    }
    by_writer.check(&writers, now)?;
    let mutes = mutes(app, &id, &mut memory).await?;
    let mut line = ChatLine {
        room: room.name().to_string(),
        seq: 0,
        author: match &author {
            Author::Player(color) => color.code().to_string(),
            Author::Watcher(_) => "watcher".to_string(),
        },
        name: shown,
        text,
        at_ms: now_ms(),
        account,
    };
    line.seq = app
        .database
        .add_chat(&id, line.clone())
        .await
        .map_err(|error| {
            tracing::error!(game = %id, kind = ?error.kind, "a chat line could not be stored: {error}");
            ActionError::Store(error)
        })?;
    match &author {
        Author::Player(color) => memory.rates[side_index(*color)].count(now),
        Author::Watcher(_) => socket_rate.count(now),
    }
    by_writer.count(&writers, now);
    // With several servers, lines stored meanwhile by others and not heard of yet go first.
    let missed = memory.sent[room.index()].filter(|&sent| line.seq > sent + 1);
    let lines = match missed {
        Some(sent) => match app
            .database
            .chat_lines(&id, room.name(), sent, CHAT_LINES_KEPT)
            .await
        {
            Ok(lines) => lines.into_iter().filter(|l| l.seq <= line.seq).collect(),
            Err(error) => {
                tracing::warn!(game = %id, "cannot read the chat's missed lines: {error}");
                vec![line.clone()]
            }
        },
        None => vec![line.clone()],
    };
    publish(slot, &mut memory, room, mutes, &lines);
    Ok(line.seq)
}

/// What a player does about the other player's lines.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MuteAction {
    /// Stops them.
    Mute,
    /// Lets them through again.
    Unmute,
}

impl MuteAction {
    /// The action named `name`.
    pub fn parse(name: &str) -> Result<MuteAction, RoundError> {
        match name {
            "mute" => Ok(MuteAction::Mute),
            "unmute" => Ok(MuteAction::Unmute),
            other => Err(RoundError::Invalid(format!(
                "action: expected mute or unmute, not {:?}",
                other.chars().take(20).collect::<String>()
            ))),
        }
    }
}

/// The seat `seat` mutes or unmutes the other player; stored first. The seat's sockets are
/// then sent their chat again (see [`history`]); the other player is not told.
pub async fn mute(
    app: &Arc<App>,
    slot: &Arc<GameSlot>,
    seat: Option<Seat>,
    action: MuteAction,
) -> Result<(), ActionError> {
    let (id, color) = {
        let live = slot.live.lock().await;
        let color = match seat {
            Some(Seat::White) => Color::White,
            Some(Seat::Black) => Color::Black,
            None => {
                return Err(RoundError::Forbidden(text!("chat-mute-not-player")).into());
            }
            Some(_) => {
                return Err(RoundError::Conflict(text!("chat-mute-friend-only")).into());
            }
        };
        if live.round.mode != Mode::Friend {
            return Err(RoundError::Conflict(text!("chat-mute-friend-only")).into());
        }
        (live.round.id.clone(), color)
    };
    let chat = memory_of(slot);
    let mut memory = chat.lock().await;
    let mut mutes = mutes(app, &id, &mut memory).await?;
    let muted = action == MuteAction::Mute;
    app.database
        .set_mute(&id, color.code(), muted)
        .await
        .map_err(|error| {
            tracing::error!(game = %id, kind = ?error.kind, "a mute could not be stored: {error}");
            ActionError::Store(error)
        })?;
    mutes[side_index(color)] = muted;
    memory.mutes = Some(mutes);
    let _ = slot.events.send(Arc::new(Event::Muted { side: color }));
    Ok(())
}

/// The socket message with the last lines of the rooms `seat` reads (without the lines of
/// a player the seat mutes), and for a player whether they mute the other:
/// `{"type": "chat_history", "rooms": {"players": [...], "watchers": [...]}, "muted": false}`.
pub async fn history(
    app: &Arc<App>,
    slot: &Arc<GameSlot>,
    seat: Option<Seat>,
) -> Result<String, ActionError> {
    let (id, over) = {
        let live = slot.live.lock().await;
        (live.round.id.clone(), live.round.is_over())
    };
    let chat = memory_of(slot);
    let mut memory = chat.lock().await;
    let mutes = mutes(app, &id, &mut memory).await?;
    let mut rooms = serde_json::Map::new();
    for room in Room::ALL {
        if !may_read(seat, room, over) {
            continue;
        }
        let lines = if memory.empty[room.index()] {
            Vec::new()
        } else {
            app.database
                .chat_lines(&id, room.name(), 0, CHAT_LINES_KEPT)
                .await
                .map_err(|error| {
                    tracing::warn!(game = %id, "cannot read the chat: {error}");
                    ActionError::Store(error)
                })?
        };
        memory.empty[room.index()] = lines.is_empty();
        // The first socket here to read the room knows it up to its last line: later lines
        // are sent from there on (see `heard_line`).
        let sent = &mut memory.sent[room.index()];
        if sent.is_none() {
            *sent = Some(lines.last().map_or(0, |line| line.seq));
        }
        let shown: Vec<Value> = lines
            .iter()
            .filter(|line| match (hidden_from(line, mutes), seat) {
                (Some(muting), Some(seat)) => seat != Seat::of(muting),
                _ => true,
            })
            .map(line_view)
            .collect();
        rooms.insert(room.name().to_string(), Value::Array(shown));
    }
    let mut message = json!({"type": "chat_history", "rooms": rooms});
    match seat {
        Some(Seat::White) => message["muted"] = Value::Bool(mutes[0]),
        Some(Seat::Black) => message["muted"] = Value::Bool(mutes[1]),
        _ => {}
    }
    Ok(message.to_string())
}

/// Another server stored line `seq` of `room`: this server's sockets are sent it, with any
/// line before it they have not had.
pub async fn heard_line(app: &Arc<App>, slot: &Arc<GameSlot>, room: &str, seq: u64) {
    let Ok(room) = Room::parse(room) else {
        return;
    };
    let id = slot.live.lock().await.round.id.clone();
    let chat = memory_of(slot);
    let mut memory = chat.lock().await;
    let after = match memory.sent[room.index()] {
        Some(sent) if seq <= sent => return,
        Some(sent) => sent,
        None => seq.saturating_sub(1),
    };
    memory.empty[room.index()] = false;
    if slot.events.receiver_count() == 0 {
        memory.sent[room.index()] = Some(seq);
        return;
    }
    catch_up(app, slot, &id, &mut memory, room, after).await;
}

/// Sends the lines of `room` of game `id` after line `after` to this server's sockets.
async fn catch_up(
    app: &Arc<App>,
    slot: &GameSlot,
    id: &str,
    memory: &mut ChatMemory,
    room: Room,
    after: u64,
) {
    let Ok(mutes) = mutes(app, id, memory).await else {
        return;
    };
    match app
        .database
        .chat_lines(id, room.name(), after, CHAT_LINES_KEPT)
        .await
    {
        Ok(lines) => publish(slot, memory, room, mutes, &lines),
        Err(error) => tracing::warn!(game = id, "cannot read the chat: {error}"),
    }
}

/// Another server stored a mute or unmute by `side`: it is read again, and that seat's
/// sockets here are sent their chat again.
pub async fn heard_mute(app: &Arc<App>, slot: &Arc<GameSlot>, side: &str) {
    let Some(color) = Color::from_code(side) else {
        return;
    };
    let id = slot.live.lock().await.round.id.clone();
    let chat = memory_of(slot);
    let mut memory = chat.lock().await;
    memory.mutes = None;
    if mutes(app, &id, &mut memory).await.is_ok() {
        let _ = slot.events.send(Arc::new(Event::Muted { side: color }));
    }
}

/// After a lost connection to the database (several servers): lines and mutes that may
/// have been missed are read again and sent.
pub async fn heard_gap(app: &Arc<App>, slot: &Arc<GameSlot>) {
    let id = slot.live.lock().await.round.id.clone();
    let chat = memory_of(slot);
    let mut memory = chat.lock().await;
    // Lines may have been stored meanwhile: every room is read again.
    memory.empty = [false; 2];
    let before = memory.mutes.take();
    if let (Some(before), Ok(now)) = (before, mutes(app, &id, &mut memory).await) {
        for color in [Color::White, Color::Black] {
            if before[side_index(color)] != now[side_index(color)] {
                let _ = slot.events.send(Arc::new(Event::Muted { side: color }));
            }
        }
    }
    if slot.events.receiver_count() == 0 {
        return;
    }
    for room in Room::ALL {
        if let Some(after) = memory.sent[room.index()] {
            catch_up(app, slot, &id, &mut memory, room, after).await;
        }
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn lines_count_per_address_and_per_account_over_all_sockets() {
        let lines = WriterLines::default();
        let (one, other): (IpAddr, IpAddr) = ([10, 0, 0, 1].into(), [10, 0, 0, 2].into());
        let t0 = Instant::now();
        let anna = [Writer::Address(one), Writer::Account(7)];
        for n in 0..CHAT_LINES_PER_WINDOW {
            assert!(lines.check(&anna, t0).is_ok(), "line {n}");
            lines.count(&anna, t0);
        }
        assert!(
            lines.check(&[Writer::Address(one)], t0).is_err(),
            "the address has written its lines"
        );
        assert!(
            lines
                .check(&[Writer::Address(other), Writer::Account(7)], t0)
                .is_err(),
            "the account has written its lines, from any address"
        );
        assert!(
            lines
                .check(&[Writer::Address(other), Writer::Account(8)], t0)
                .is_ok(),
            "another address and account are not held back"
        );
        assert!(
            lines.check(&anna, t0 + CHAT_WINDOW).is_ok(),
            "the window passes"
        );
    }

    use super::*;
    use bashni_rules::{Position, Variant};

    fn friend_round() -> Round {
        let mut round = Round::new(
            "c".into(),
            Mode::Friend,
            Position::start(Variant::Russian),
            None,
        );
        round.white.joined = true;
        round.black.joined = true;
        round
    }

    #[test]
    fn each_room_has_its_writers_and_readers() {
        let round = friend_round();
        let post = |seat, room| author_for(&round, seat, room, None);
        assert_eq!(
            post(Some(Seat::White), Room::Players),
            Ok(Author::Player(Color::White))
        );
        assert_eq!(
            post(Some(Seat::Black), Room::Players),
            Ok(Author::Player(Color::Black))
        );
        assert!(matches!(
            post(None, Room::Players),
            Err(RoundError::Forbidden(_))
        ));
        assert!(matches!(
            post(Some(Seat::White), Room::Watchers),
            Err(RoundError::Forbidden(_))
        ));
        assert_eq!(
            post(None, Room::Watchers),
            Ok(Author::Watcher(WATCHER_NAME.into()))
        );
        for over in [false, true] {
            assert!(may_read(None, Room::Watchers, over));
            assert!(!may_read(None, Room::Players, over));
            assert!(may_read(Some(Seat::Black), Room::Players, over));
        }
        assert!(!may_read(Some(Seat::Black), Room::Watchers, false));
        assert!(may_read(Some(Seat::Black), Room::Watchers, true));
        // Against the engine or at one screen nobody is there to read the players' room.
        let mut engine = friend_round();
        engine.mode = Mode::Engine;
        assert!(matches!(
            author_for(&engine, Some(Seat::White), Room::Players, None),
            Err(RoundError::Conflict(_))
        ));
    }

    #[test]
    fn text_and_names_are_checked() {
        assert_eq!(chat_text("  good luck  "), Ok("good luck".into()));
        assert!(matches!(chat_text("   "), Err(RoundError::Invalid(m)) if m.contains("empty")));
        assert!(matches!(chat_text("a\nb"), Err(RoundError::Invalid(m)) if m.contains("U+000A")));
        assert!(
            matches!(chat_text("abc\u{202E}def"), Err(RoundError::Invalid(m)) if m.contains("U+202E"))
        );
        let long = "я".repeat(MAX_CHAT_CHARS);
        assert_eq!(chat_text(&format!(" {long} ")), Ok(long.clone()));
        assert!(
            matches!(chat_text(&format!("{long}!")), Err(RoundError::Invalid(m)) if m.contains("301"))
        );
        assert_eq!(chat_text("<b>hi</b>"), Ok("<b>hi</b>".into()));
        assert_eq!(watcher_name(None), Ok(WATCHER_NAME.into()));
        assert_eq!(watcher_name(Some(" \u{200B} ")), Ok(WATCHER_NAME.into()));
        assert_eq!(watcher_name(Some(" Oleg\t K ")), Ok("Oleg K".into()));
        assert!(watcher_name(Some(&"n".repeat(21))).is_err());
    }

    #[test]
    fn a_writer_has_five_lines_in_ten_seconds() {
        let mut rate = LineRate::default();
        let t0 = Instant::now();
        for i in 0..CHAT_LINES_PER_WINDOW as u64 {
            let at = t0 + Duration::from_secs(i);
            assert!(rate.check(at).is_ok());
            rate.count(at);
        }
        let refused = rate.check(t0 + Duration::from_secs(5));
        assert!(
            matches!(&refused, Err(ActionError::TooMany(m)) if m.to_string().contains("wait 5 s")),
            "{refused:?}"
        );
        // A refused line is not counted: the first line's slot frees at 10 s.
        assert!(rate.check(t0 + Duration::from_millis(9_999)).is_err());
        assert!(rate.check(t0 + CHAT_WINDOW).is_ok());
    }
}
