//! The WebSocket of a game: every change of the game is sent to each watcher, and players
//! may act over the same socket.

use std::sync::Arc;
use std::time::Instant;

use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::broadcast::error::RecvError;

use crate::api::{draw_action, play_move, resign_game, take_back};
use crate::app::{App, GameSlot};
use crate::connections::MessageRate;
use crate::error::ApiError;

/// The largest message a client may send.
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024;

/// Messages a client may send at once, then per second on average.
pub const MESSAGE_BURST: u32 = 20;
/// See [`MESSAGE_BURST`].
pub const MESSAGES_PER_SECOND: u32 = 10;

/// Refused messages after which the socket is closed.
pub const MAX_REFUSED_MESSAGES: u32 = 100;

/// Opens the game's socket.
pub async fn handler(
    ws: WebSocketUpgrade,
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let slot = app.slot(&id)?;
    Ok(ws
        .max_message_size(MAX_MESSAGE_BYTES)
        .max_frame_size(MAX_MESSAGE_BYTES)
        .on_upgrade(move |socket| run(app, slot, socket)))
}

#[derive(Deserialize)]
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
}

async fn current_state(slot: &GameSlot) -> Utf8Bytes {
    let state = slot.live.lock().await;
    Utf8Bytes::from(state.state_message())
}

async fn run(app: Arc<App>, slot: Arc<GameSlot>, socket: WebSocket) {
    let (mut sink, mut stream) = socket.split();
    let mut updates = slot.updates.subscribe();
    let mut rate = MessageRate::new(MESSAGE_BURST, MESSAGES_PER_SECOND);
    let mut refused = 0u32;
    if sink
        .send(Message::Text(current_state(&slot).await))
        .await
        .is_err()
    {
        return;
    }
    loop {
        tokio::select! {
            update = updates.recv() => {
                let text = match update {
                    Ok(text) => Utf8Bytes::from(text.as_ref()),
                    // Too far behind: the latest state says everything.
                    Err(RecvError::Lagged(_)) => current_state(&slot).await,
                    Err(RecvError::Closed) => break,
                };
                if sink.send(Message::Text(text)).await.is_err() {
                    break;
                }
            }
            incoming = stream.next() => {
                let reply = match incoming {
                    Some(Ok(Message::Text(_))) if !rate.allow(Instant::now()) => {
                        refused += 1;
                        if refused > MAX_REFUSED_MESSAGES {
                            break;
                        }
                        json!({
                            "type": "error", "id": null, "code": "too_many",
                            "error": "too many messages; slow down",
                        })
                    }
                    Some(Ok(Message::Text(text))) => answer(&app, &slot, text.as_str()).await,
                    Some(Ok(Message::Binary(_))) => json!({
                        "type": "error", "id": null, "code": "bad_request",
                        "error": "messages are JSON text",
                    }),
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => continue,
                };
                if sink.send(Message::Text(Utf8Bytes::from(reply.to_string()))).await.is_err() {
                    break;
                }
            }
        }
    }
}

/// Carries out one client message and says how it went.
async fn answer(app: &Arc<App>, slot: &Arc<GameSlot>, text: &str) -> Value {
    let action: Action = match serde_json::from_str(text) {
        Ok(action) => action,
        Err(error) => {
            return json!({
                "type": "error", "id": null, "code": "bad_request",
                "error": format!("message: {error}"),
            });
        }
    };
    let token = action.token.as_deref();
    let done = match action.kind.as_str() {
        "move" => match &action.text {
            Some(text) => play_move(app, slot, token, text, action.claim_draw).await,
            None => Err(ApiError::bad_request("move: missing")),
        },
        "resign" => resign_game(app, slot, token).await,
        "draw" => match &action.action {
            Some(kind) => draw_action(app, slot, token, kind).await,
            None => Err(ApiError::bad_request("action: missing")),
        },
        "takeback" => take_back(app, slot, token).await,
        other => Err(ApiError::bad_request(format!(
            "type: expected move, resign, draw or takeback, not {other:?}"
        ))),
    };
    match done {
        Ok(state) => json!({"type": "ack", "id": action.id, "version": state.version}),
        Err(error) => {
            let mut reply = json!({
                "type": "error", "id": action.id, "error": error.error, "code": error.code,
            });
            if let Some(legal) = error.legal {
                reply["legal"] = json!(legal);
            }
            reply
        }
    }
}
