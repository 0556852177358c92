//! The WebSocket of a game: a watcher gets the whole state once and then a small update
//! after every change; a player binds the socket to a seat once (its token) and then acts
//! over it. Actions are the same calls as over HTTP ([`crate::actions`]).

use std::sync::Arc;
use std::time::Instant;

use axum::extract::rejection::QueryRejection;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade, close_code};
use axum::extract::{Path, Query, State};
use axum::response::Response;
use futures_util::stream::SplitSink;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::broadcast::error::RecvError;

use crate::actions;
use crate::app::{Acted, ActionError, Answer, App, Event, GameSlot, Listening, seat_index};
use crate::chat::{self, LineRate};
use crate::connections::MessageRate;
use crate::error::ApiError;
use crate::presence::{self, AbandonClaim};
use crate::round::{DrawAction, RematchAction, RoundError, Seat};

/// The largest message a client may send; a larger one closes the socket (code 1009).
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024;

/// Frames a client may send at once (text, binary or ping), then per second on average.
pub const MESSAGE_BURST: u32 = 20;
/// See [`MESSAGE_BURST`].
pub const MESSAGES_PER_SECOND: u32 = 10;

/// Refused frames after which the socket is closed.
pub const MAX_REFUSED_MESSAGES: u32 = 100;

/// The socket's address options.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct SocketQuery {
    /// `bind=1`: the client binds a seat first, so the watcher's state is not sent on
    /// opening; the state for the seat follows the binding (or, if it fails, a `state`
    /// message asks for the watcher's).
    #[serde(default)]
    bind: Option<u8>,
}

/// Opens the game's socket.
pub async fn handler(
    ws: WebSocketUpgrade,
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    query: Result<Query<SocketQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let state_first = query.bind != Some(1);
    let slot = app.slot(&id).await?;
    // Frames up to four times the limit are read, so that the client hears why it is closed.
    // Small buffers: a socket mostly waits, and thousands of them are open at once.
    Ok(ws
        .read_buffer_size(8 * 1024)
        .write_buffer_size(0)
        .max_write_buffer_size(1024 * 1024)
        .max_message_size(4 * MAX_MESSAGE_BYTES)
        .max_frame_size(4 * MAX_MESSAGE_BYTES)
        .on_upgrade(move |socket| run(app, slot, socket, state_first)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Action {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    id: Value,
    token: Option<String>,
    #[serde(rename = "move")]
    text: Option<String>,
    action: Option<String>,
    #[serde(default)]
    claim_draw: bool,
    room: Option<String>,
    #[serde(rename = "text")]
    chat_text: Option<String>,
    name: Option<String>,
    claim: Option<String>,
}

type Sink = SplitSink<WebSocket, Message>;

pub(crate) async fn send_text(sink: &mut Sink, text: impl Into<Utf8Bytes>) -> bool {
    sink.send(Message::Text(text.into())).await.is_ok()
}

pub(crate) async fn close(sink: &mut Sink, code: u16, reason: &'static str) {
    let frame = CloseFrame {
        code,
        reason: Utf8Bytes::from_static(reason),
    };
    let _ = sink.send(Message::Close(Some(frame))).await;
}

/// The socket's seat: the token it presented, the seat that token holds and the count of
/// sockets listening as it; and the chat lines it wrote as a watcher lately.
#[derive(Default)]
struct Bound {
    token: Option<String>,
    seat: Option<Seat>,
    listening: Option<Listening>,
    chat_rate: LineRate,
    /// The number of the last update the last whole state sent includes.
    state_at: u64,
}

impl Bound {
    /// The whole state for this socket's seat, noting which updates it makes needless.
    async fn state(&mut self, slot: &GameSlot) -> String {
        let live = slot.live.lock().await;
        self.state_at = slot.published();
        live.state_message(self.seat)
    }
}

async fn run(app: Arc<App>, slot: Arc<GameSlot>, socket: WebSocket, state_first: bool) {
    let mut bound = Bound::default();
    talk(&app, &slot, socket, state_first, &mut bound).await;
    // The socket is closed: its seat may have nobody left here.
    app.seat_moved(&slot, bound.seat, None).await;
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

async fn talk(
    app: &Arc<App>,
    slot: &Arc<GameSlot>,
    socket: WebSocket,
    state_first: bool,
    bound: &mut Bound,
) {
    let (mut sink, mut stream) = socket.split();
    let mut events = slot.events.subscribe();
    let mut rate = MessageRate::new(MESSAGE_BURST, MESSAGES_PER_SECOND);
    let mut refused = 0u32;
    bound.listening = Some(slot.listen(None));
    // With several servers, who is there is read before the first state.
    app.refresh_presence(std::slice::from_ref(slot)).await;
    let idle = app.settings.idle_timeout;
    let mut ping = tokio::time::interval(idle / 2);
    ping.reset();
    let mut heard = Instant::now();
    let mut stopping = app.stopping();
    if state_first {
        let first = bound.state(slot).await;
        if !send_text(&mut sink, first).await {
            return;
        }
        if let Some(history) = chat_history(app, slot, None).await
            && !send_text(&mut sink, history).await
        {
            return;
        }
    }
    loop {
        tokio::select! {
            event = events.recv() => {
                let text = match event {
                    Ok(event) => match event.as_ref() {
                        Event::Update { texts, number, .. } => {
                            let text = &texts[seat_index(bound.seat)];
                            if *number <= bound.state_at {
                                // A whole state sent since says it already.
                                continue;
                            }
                            if text.is_empty() {
                                // Made before this socket was counted: the whole state instead.
                                bound.state(slot).await
                            } else {
                                text.clone()
                            }
                        }
                        Event::Chat { room, text, hidden_from } => {
                            let muted = hidden_from.is_some_and(|c| bound.seat == Some(Seat::of(c)));
                            if muted {
                                continue;
                            }
                            // The players read the watchers' lines only once the game is over.
                            let readable = chat::may_read(bound.seat, *room, false)
                                || (chat::may_read(bound.seat, *room, true)
                                    && slot.live.lock().await.round.is_over());
                            if !readable {
                                continue;
                            }
                            text.clone()
                        }
                        Event::Muted { side } => {
                            if bound.seat != Some(Seat::of(*side)) {
                                continue;
                            }
                            match chat_history(app, slot, bound.seat).await {
                                Some(history) => history,
                                None => continue,
                            }
                        }
                    },
                    // Too far behind: the whole state says everything.
                    Err(RecvError::Lagged(_)) => bound.state(slot).await,
                    Err(RecvError::Closed) => break,
                };
                if !send_text(&mut sink, text).await {
                    break;
                }
            }
            _ = crate::app::stopped(&mut stopping) => {
                close(&mut sink, close_code::RESTART, "the server is restarting; connect again").await;
                break;
            }
            _ = ping.tick() => {
                if heard.elapsed() > 2 * idle {
                    close(&mut sink, close_code::AWAY, "nothing heard from the client for too long").await;
                    break;
                }
                if sink.send(Message::Ping(Default::default())).await.is_err() {
                    break;
                }
            }
            incoming = stream.next() => {
                heard = Instant::now();
                let text = match screen(incoming, &mut sink, &mut rate, &mut refused, "a game socket").await {
                    Screened::Text(text) => text,
                    Screened::Skip => continue,
                    Screened::Close => break,
                };
                let replies = {
                    let _in_flight = app.in_flight();
                    answer(app, slot, bound, text.as_str()).await
                };
                for reply in replies {
                    if !send_text(&mut sink, reply).await {
                        return;
                    }
                }
            }
        }
    }
}

/// A frame from a client after the socket's limits (see [`screen`]).
pub(crate) enum Screened {
    /// A text message to answer.
    Text(Utf8Bytes),
    /// Nothing to answer (a pong, a refused or binary frame, already answered).
    Skip,
    /// The socket is closed, or has just been closed for a reason sent to the client.
    Close,
}

/// Screens one frame a client sent, the same way on every socket: a broken or oversized
/// frame closes the socket with a reason; beyond the message rate a text is refused with
/// `too_many`, and after [`MAX_REFUSED_MESSAGES`] refusals the socket is closed; a binary
/// frame is answered that messages are JSON text. `what` names the socket in the log.
pub(crate) async fn screen(
    incoming: Option<Result<Message, axum::Error>>,
    sink: &mut Sink,
    rate: &mut MessageRate,
    refused: &mut u32,
    what: &str,
) -> Screened {
    let frame = match incoming {
        Some(Ok(Message::Pong(_))) => return Screened::Skip,
        Some(Ok(Message::Close(_))) | None => return Screened::Close,
        Some(Err(error)) => {
            tracing::debug!("{what}: {error}");
            close(sink, close_code::SIZE, "message too big or malformed").await;
            return Screened::Close;
        }
        Some(Ok(frame)) => frame,
    };
    if !rate.allow(Instant::now()) {
        *refused += 1;
        if *refused > MAX_REFUSED_MESSAGES {
            tracing::warn!("limit: {what} sent too many messages and was closed");
            close(sink, close_code::POLICY, "too many messages").await;
            return Screened::Close;
        }
        if matches!(frame, Message::Text(_)) {
            let error = ApiError::too_many("too many messages; slow down");
            if !send_text(sink, error_reply(&Value::Null, error)).await {
                return Screened::Close;
            }
        }
        return Screened::Skip;
    }
    match frame {
        Message::Text(text) if text.len() > MAX_MESSAGE_BYTES => {
            close(sink, close_code::SIZE, "message too big (at most 16 KiB)").await;
            Screened::Close
        }
        Message::Text(text) => Screened::Text(text),
        Message::Binary(_) => {
            let error = ApiError::bad_request("messages are JSON text");
            if send_text(sink, error_reply(&Value::Null, error)).await {
                Screened::Skip
            } else {
                Screened::Close
            }
        }
        _ => Screened::Skip,
    }
}

pub(crate) fn error_reply(id: &Value, error: ApiError) -> String {
    let mut reply = json!({
        "type": "error", "id": id, "error": error.error, "code": error.code,
    });
    if let Some(legal) = error.legal {
        reply["legal"] = json!(legal);
    }
    reply.to_string()
}

/// Carries out one client message; returns the messages that answer it.
async fn answer(
    app: &Arc<App>,
    slot: &Arc<GameSlot>,
    bound: &mut Bound,
    text: &str,
) -> Vec<String> {
    let action: Action = match crate::error::parse_json(text.as_bytes()) {
        Ok(action) => action,
        Err(error) => return vec![error_reply(&Value::Null, error)],
    };
    let id = action.id.clone();
    let token = action.token.clone().or_else(|| bound.token.clone());
    let token = token.as_deref();
    let done: Result<Acted, ActionError> = match action.kind.as_str() {
        "seat" => {
            let seat = match slot
                .live
                .lock()
                .await
                .round
                .require_seat(action.token.as_deref())
            {
                Ok(seat) => seat,
                Err(error) => return vec![error_reply(&id, error.into())],
            };
            let was = bound.seat;
            bound.token = action.token.clone();
            bound.seat = Some(seat);
            bound.listening = Some(slot.listen(bound.seat));
            // Who is there changes before the seat's state is made, so it shows itself online.
            app.seat_moved(slot, was, bound.seat).await;
            let mut replies = {
                let live = slot.live.lock().await;
                bound.state_at = slot.published();
                let ack = json!({
                    "type": "ack", "id": id, "version": live.round.version, "you": seat.name(),
                });
                vec![ack.to_string(), live.state_message(Some(seat))]
            };
            replies.extend(chat_history(app, slot, bound.seat).await);
            return replies;
        }
        "state" => return vec![bound.state(slot).await],
        "chat_history" => {
            return match chat::history(app, slot, bound.seat).await {
                Ok(history) => vec![history],
                Err(error) => vec![error_reply(&id, error.into())],
            };
        }
        "chat" => {
            let posted = match (action.room.as_deref(), action.chat_text.as_deref()) {
                (Some(room), Some(text)) => match chat::Room::parse(room) {
                    Ok(room) => {
                        chat::post(
                            app,
                            slot,
                            bound.seat,
                            room,
                            text,
                            action.name.as_deref(),
                            &mut bound.chat_rate,
                        )
                        .await
                    }
                    Err(error) => Err(error.into()),
                },
                (None, _) => Err(RoundError::Invalid("room: missing".into()).into()),
                (_, None) => Err(RoundError::Invalid("text: missing".into()).into()),
            };
            return match posted {
                Ok(seq) => vec![json!({"type": "ack", "id": id, "seq": seq}).to_string()],
                Err(error) => vec![refusal(&id, error)],
            };
        }
        "mute" => {
            let muted = match action.action.as_deref().map(chat::MuteAction::parse) {
                Some(Ok(kind)) => chat::mute(app, slot, bound.seat, kind).await,
                Some(Err(error)) => Err(error.into()),
                None => Err(RoundError::Invalid("action: missing".into()).into()),
            };
            return match muted {
                Ok(()) => vec![json!({"type": "ack", "id": id}).to_string()],
                Err(error) => vec![refusal(&id, error)],
            };
        }
        "claim" => match action.claim.as_deref().map(AbandonClaim::parse) {
            Some(Ok(claim)) => presence::claim(app, slot, token, claim, Answer::Version).await,
            Some(Err(error)) => Err(error.into()),
            None => Err(RoundError::Invalid("claim: missing (win or draw)".into()).into()),
        },
        "move" => match &action.text {
            Some(text) => {
                actions::play(app, slot, token, text, action.claim_draw, Answer::Version).await
            }
            None => Err(RoundError::Invalid("move: missing".into()).into()),
        },
        "resign" => actions::resign(app, slot, token, Answer::Version).await,
        "abort" => actions::abort(app, slot, token, Answer::Version).await,
        "draw" => match action.action.as_deref().map(DrawAction::parse) {
            Some(Ok(kind)) => actions::draw(app, slot, token, kind, Answer::Version).await,
            Some(Err(error)) => Err(error.into()),
            None => Err(RoundError::Invalid("action: missing".into()).into()),
        },
        "takeback" => actions::take_back(app, slot, token, Answer::Version).await,
        "rematch" => match action.action.as_deref().map(RematchAction::parse) {
            Some(Ok(kind)) => {
                match actions::rematch(app, slot, token, kind, Answer::Version).await {
                    Ok((acted, Some(game))) => {
                        let ack = json!({
                            "type": "ack", "id": id, "version": acted.version, "game": game,
                        });
                        return vec![ack.to_string()];
                    }
                    Ok((acted, None)) => Ok(acted),
                    Err(error) => Err(error),
                }
            }
            Some(Err(error)) => Err(error.into()),
            None => Err(RoundError::Invalid("action: missing".into()).into()),
        },
        _ => Err(RoundError::Invalid(
            "type: expected seat, state, move, resign, abort, draw, takeback, rematch, claim, \
             chat, chat_history or mute"
                .into(),
        )
        .into()),
    };
    match done {
        Ok(acted) => {
            vec![json!({"type": "ack", "id": id, "version": acted.version}).to_string()]
        }
        Err(error) => vec![refusal(&id, error)],
    }
}

/// The answer to a refused message, logged.
fn refusal(id: &Value, error: ActionError) -> String {
    let error = ApiError::from(error);
    tracing::info!(code = error.code, "socket: refused: {}", error.error);
    error_reply(id, error)
}
