//! The WebSocket of a game: a watcher gets the whole state once and then a small update
//! after every change; a player binds the socket to a seat once (its token) and then acts
//! over it. Actions are the same calls as over HTTP ([`crate::app::actions`]).

use std::sync::Arc;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Extension, Path, Query, State};
use axum::response::Response;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::broadcast::{self, error::RecvError};

use crate::app::actions;
use crate::app::{ActionError, Answer, App, Event, GameSlot};
use crate::chat::{self, LineRate};
use crate::game::round::Seat;
use crate::game::shown::Shown;
use crate::http::error::ApiError;
use crate::http::games::Client;
use crate::http::session::Viewer;
use crate::socket::{
    Conversation, Said, WebSocket, WebSocketUpgrade, converse, error_reply, in_language,
};
use crate::texts::Language;

/// The socket's address options.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct SocketQuery {
    /// `bind=1`: the client binds a seat first, so the watcher's state is not sent on
    /// opening; the state for the seat follows the binding (or, if it fails, a `state`
    /// message asks for the watcher's).
    #[serde(default)]
    bind: Option<u8>,
    /// The page's language (`en`, `ru`), for the socket's refusals.
    #[serde(default)]
    #[allow(dead_code)]
    lang: Option<String>,
}

/// Opens the game's socket.
pub async fn handler(
    ws: WebSocketUpgrade,
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    query: Result<Query<SocketQuery>, QueryRejection>,
    Extension(Client(address)): Extension<Client>,
    Viewer(viewer): Viewer,
    Extension(language): Extension<Language>,
) -> Result<Response, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let state_first = query.bind != Some(1);
    let client = chat::Client {
        address,
        account: viewer.map(|account| (account.id, account.name)),
    };
    let slot = app.slot(&id).await?;
    Ok(ws.on_upgrade(move |socket| {
        in_language(language, run(app, slot, socket, state_first, client))
    }))
}

/// The messages of the game socket besides the game actions ([`actions::GameAction`]):
/// each carries `type`, and may carry `id` (echoed in the answer) and `token` (the seat's).
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum SocketMessage {
    /// Binds the socket to the seat of its token.
    Seat,
    /// Asks for the whole state again.
    State,
    /// Asks for the chat again.
    ChatHistory,
    /// Writes a chat line.
    Chat {
        room: String,
        text: String,
        #[serde(default)]
        name: Option<String>,
    },
    /// Mutes or unmutes the other player.
    Mute { action: String },
}

/// The types the socket takes besides the game actions.
const SOCKET_TYPES: [&str; 5] = ["seat", "state", "chat_history", "chat", "mute"];

/// The socket's seat: the token it presented and the seat that token holds; the chat lines
/// it wrote as a watcher lately, the client's address, and what the client was sent.
struct Bound {
    client: chat::Client,
    token: Option<String>,
    seat: Option<Seat>,
    chat_rate: LineRate,
    /// The number of the last update the last state or update sent includes.
    state_at: u64,
    /// What the client was sent of the game.
    shown: Shown,
}

impl Bound {
    /// The whole state for this socket's seat, noting which updates it makes needless.
    async fn state(&mut self, slot: &GameSlot) -> String {
        let live = slot.live.lock().await;
        self.state_at = slot.published();
        live.state_message(self.seat, &mut self.shown)
    }

    /// What changed for this socket's client since it was last sent the game, if anything.
    async fn update(&mut self, slot: &GameSlot) -> Option<String> {
        let live = slot.live.lock().await;
        self.state_at = slot.published();
        live.update_message(self.seat, &mut self.shown)
    }
}

async fn run(
    app: Arc<App>,
    slot: Arc<GameSlot>,
    socket: WebSocket,
    state_first: bool,
    client: chat::Client,
) {
    let mut talk = GameTalk {
        events: slot.events.subscribe(),
        app: Arc::clone(&app),
        slot: Arc::clone(&slot),
        bound: Bound {
            client,
            token: None,
            seat: None,
            chat_rate: LineRate::default(),
            state_at: 0,
            shown: Shown::default(),
        },
    };
    // What is done once is boxed, so that the socket's task keeps no room for it while the
    // conversation lasts.
    let opening = Box::pin(opening(&app, &slot, &mut talk.bound, state_first)).await;
    converse(&app, socket, "a game socket", opening, &mut talk).await;
    // The socket is closed: its seat may have nobody left here.
    Box::pin(app.seat_moved(&slot, talk.bound.seat, None)).await;
}

/// What a game socket is sent as it opens: the state and the chat, unless the client binds a
/// seat first (`state_first` false).
async fn opening(
    app: &Arc<App>,
    slot: &Arc<GameSlot>,
    bound: &mut Bound,
    state_first: bool,
) -> Vec<String> {
    // With several servers, who is there is read before the first state.
    app.refresh_presence(std::slice::from_ref(slot)).await;
    let mut opening = Vec::new();
    if state_first {
        app.catch_up(slot).await;
        opening.push(bound.state(slot).await);
        if let Some(history) = chat_history(app, slot, None).await {
            opening.push(history);
        }
    }
    opening
}

/// The chat a socket bound to `seat` is sent when it opens or binds its seat; `None` (and a
/// line in the log) when the store cannot be read: the client may ask again.
async fn chat_history(app: &Arc<App>, slot: &Arc<GameSlot>, seat: Option<Seat>) -> Option<String> {
    match chat::history(app, slot, seat).await {
        Ok(text) => Some(text),
        Err(error) => {
            tracing::warn!("socket: no chat history: {:?}", ApiError::from(error).error);
            None
        }
    }
}

/// A game socket: the game's events, and the seat the socket is bound to.
struct GameTalk {
    app: Arc<App>,
    slot: Arc<GameSlot>,
    bound: Bound,
    events: broadcast::Receiver<Arc<Event>>,
}

impl Conversation for GameTalk {
    type News = Result<Arc<Event>, RecvError>;

    async fn next_news(&mut self) -> Self::News {
        self.events.recv().await
    }

    async fn tell(&mut self, news: Self::News) -> Said {
        let (slot, bound) = (&self.slot, &mut self.bound);
        let event = match news {
            Ok(event) => event,
            // Too far behind: the whole state says everything.
            Err(RecvError::Lagged(_)) => return Said::text(bound.state(slot).await),
            Err(RecvError::Closed) => return Said::End,
        };
        match event.as_ref() {
            Event::Update { number, .. } => {
                if *number <= bound.state_at {
                    // A state or update sent since says it already.
                    Said::Nothing
                } else {
                    match bound.update(slot).await {
                        Some(text) => Said::text(text),
                        None => Said::Nothing,
                    }
                }
            }
            Event::Chat {
                room,
                text,
                hidden_from,
            } => {
                if hidden_from.is_some_and(|c| bound.seat == Some(Seat::of(c))) {
                    return Said::Nothing;
                }
                // The players read the watchers' lines only once the game is over.
                let readable = chat::may_read(bound.seat, *room, false)
                    || (chat::may_read(bound.seat, *room, true)
                        && slot.live.lock().await.round.is_over());
                if readable {
                    Said::text(text.clone())
                } else {
                    Said::Nothing
                }
            }
            Event::Muted { side } => {
                if bound.seat != Some(Seat::of(*side)) {
                    return Said::Nothing;
                }
                match chat_history(&self.app, slot, bound.seat).await {
                    Some(history) => Said::text(history),
                    None => Said::Nothing,
                }
            }
        }
    }

    async fn answer(&mut self, text: &str) -> Said {
        Said::texts(answer(&self.app, &self.slot, &mut self.bound, text).await)
    }
}

/// Carries out one client message; returns the messages that answer it.
async fn answer(
    app: &Arc<App>,
    slot: &Arc<GameSlot>,
    bound: &mut Bound,
    text: &str,
) -> Vec<String> {
    let mut fields: serde_json::Map<String, Value> =
        match crate::http::error::parse_json(text.as_bytes()) {
            Ok(fields) => fields,
            Err(error) => return vec![error_reply(&Value::Null, error)],
        };
    let id = fields.remove("id").unwrap_or(Value::Null);
    let given = match fields.remove("token") {
        None | Some(Value::Null) => None,
        Some(Value::String(token)) => Some(token),
        Some(_) => {
            let error = ApiError::bad_request("token: expected a string");
            return vec![error_reply(&id, error)];
        }
    };
    let kind = match fields.get("type") {
        Some(Value::String(kind)) => kind.clone(),
        _ => {
            let error = ApiError::bad_request(format!(
                "type: expected one of {}, {}",
                SOCKET_TYPES.join(", "),
                actions::GameAction::TYPES.join(", ")
            ));
            return vec![error_reply(&id, error)];
        }
    };
    if SOCKET_TYPES.contains(&kind.as_str()) {
        return match serde_json::from_value(Value::Object(fields)) {
            Ok(message) => socket_message(app, slot, bound, &id, given, message).await,
            Err(error) => {
                let text = actions::action_error_text(&error.to_string());
                vec![error_reply(&id, ApiError::bad_request(text))]
            }
        };
    }
    if !actions::GameAction::TYPES.contains(&kind.as_str()) {
        let error = ApiError::bad_request(format!(
            "type: expected one of {}, {}",
            SOCKET_TYPES.join(", "),
            actions::GameAction::TYPES.join(", ")
        ));
        return vec![error_reply(&id, error)];
    }
    let action = match actions::GameAction::read(None, fields) {
        Ok(action) => action,
        Err(error) => return vec![refusal(&id, error)],
    };
    let token = given.or_else(|| bound.token.clone());
    match actions::perform(app, slot, token.as_deref(), action, Answer::Version).await {
        Ok(performed) => {
            let mut ack = json!({"type": "ack", "id": id, "version": performed.acted.version});
            if let Some(game) = performed.game {
                ack["game"] = json!(game);
            }
            vec![ack.to_string()]
        }
        Err(error) => {
            let reply = refusal(&id, error);
            if reply.contains("\"code\":\"stale\"") {
                // The position the action was made for is gone: the state now follows.
                vec![reply, bound.state(slot).await]
            } else {
                vec![reply]
            }
        }
    }
}

/// Answers one of the socket's own messages (binding a seat, the state, the chat).
async fn socket_message(
    app: &Arc<App>,
    slot: &Arc<GameSlot>,
    bound: &mut Bound,
    id: &Value,
    given: Option<String>,
    message: SocketMessage,
) -> Vec<String> {
    match message {
        SocketMessage::Seat => {
            // A seat is bound to the game as the store holds it, not to an older copy.
            app.catch_up(slot).await;
            let seat = match slot.live.lock().await.round.require_seat(given.as_deref()) {
                Ok(seat) => seat,
                Err(error) => return vec![error_reply(id, error.into())],
            };
            let was = bound.seat;
            bound.token = given;
            bound.seat = Some(seat);
            // Who is there changes before the seat's state is made, so it shows itself online.
            app.seat_moved(slot, was, bound.seat).await;
            let mut replies = {
                let live = slot.live.lock().await;
                bound.state_at = slot.published();
                let ack = json!({
                    "type": "ack", "id": id, "version": live.round.version, "you": seat.name(),
                });
                vec![
                    ack.to_string(),
                    live.state_message(Some(seat), &mut bound.shown),
                ]
            };
            replies.extend(chat_history(app, slot, bound.seat).await);
            replies
        }
        SocketMessage::State => {
            app.catch_up(slot).await;
            vec![bound.state(slot).await]
        }
        SocketMessage::ChatHistory => match chat::history(app, slot, bound.seat).await {
            Ok(history) => vec![history],
            Err(error) => vec![error_reply(id, error.into())],
        },
        SocketMessage::Chat { room, text, name } => {
            let posted = match chat::Room::parse(&room) {
                Ok(room) => {
                    chat::post(
                        app,
                        slot,
                        bound.seat,
                        room,
                        &text,
                        name.as_deref(),
                        (&mut bound.chat_rate, bound.client.clone()),
                    )
                    .await
                }
                Err(error) => Err(error.into()),
            };
            match posted {
                Ok(seq) => vec![json!({"type": "ack", "id": id, "seq": seq}).to_string()],
                Err(error) => vec![refusal(id, error)],
            }
        }
        SocketMessage::Mute { action } => {
            let muted = match chat::MuteAction::parse(&action) {
                Ok(kind) => chat::mute(app, slot, bound.seat, kind).await,
                Err(error) => Err(error.into()),
            };
            match muted {
                Ok(()) => vec![json!({"type": "ack", "id": id}).to_string()],
                Err(error) => vec![refusal(id, error)],
            }
        }
    }
}

/// The answer to a refused message, logged.
fn refusal(id: &Value, error: ActionError) -> String {
    let error = ApiError::from(error);
    tracing::info!(code = error.code, "socket: refused: {}", error.error);
    error_reply(id, error)
}
