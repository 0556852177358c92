//! The lobby's WebSocket, `GET /api/lobby/ws`: the list of open seeks on connecting, then a
//! small message for every seek that comes or goes; a player posts, cancels, accepts and
//! quick-pairs over it. The socket is the owner of the seeks it posts: they leave with it.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Instant;

use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade, close_code};
use axum::extract::{Extension, State};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::broadcast::error::RecvError;

use crate::account::{Account, session_hash};
use crate::app::App;
use crate::app::actions::TimeRequest;
use crate::game::secret::random_hex;
use crate::http::error::ApiError;
use crate::http::games::Client;
use crate::http::session::{Viewer, session_id};
use crate::limits::MessageRate;
use crate::lobby::{Lobby, LobbyEvent, Quick, rated_refusal, read_clock, read_name, read_settings};
use crate::socket::game::{MAX_MESSAGE_BYTES, MESSAGE_BURST, MESSAGES_PER_SECOND};
use crate::socket::game::{Screened, close, error_reply, screen, send_text};

/// Opens a lobby socket.
pub async fn handler(
    ws: WebSocketUpgrade,
    State(app): State<Arc<App>>,
    Extension(Client(client)): Extension<Client>,
    Viewer(account): Viewer,
    headers: axum::http::HeaderMap,
) -> Response {
    // The socket acts for the account only while the session it was opened with lasts.
    let session = account
        .as_ref()
        .and_then(|_| session_id(&headers))
        .map(session_hash);
    // Small buffers: a lobby socket mostly waits, and thousands of them are open at once.
    ws.read_buffer_size(8 * 1024)
        .write_buffer_size(0)
        .max_write_buffer_size(1024 * 1024)
        .max_message_size(4 * MAX_MESSAGE_BYTES)
        .max_frame_size(4 * MAX_MESSAGE_BYTES)
        .on_upgrade(move |socket| run(app, client, account, session, socket))
}

/// A client's message.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Request {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    id: Value,
    variant: Option<String>,
    clock: Option<TimeRequest>,
    #[serde(default)]
    rated: bool,
    color: Option<String>,
    name: Option<String>,
    seek: Option<String>,
}

/// Whether the session a socket was opened with still holds for its account (asked of the
/// store, which every server shares): a socket without an account has nothing to lose.
async fn session_holds(app: &App, account: Option<&Account>, session: Option<&str>) -> bool {
    let (Some(account), Some(session)) = (account, session) else {
        return account.is_none();
    };
    match app
        .database
        .session(session, crate::game::round::now_ms())
        .await
    {
        Ok(seen) => seen.is_some_and(|seen| seen.player_id == account.id),
        // The store cannot say: the action is refused by the store's own failure later.
        Err(_) => true,
    }
}

/// Why a socket is closed when its session ends.
const SESSION_ENDED: &str = "your session has ended; log in again";

async fn run(
    app: Arc<App>,
    client: IpAddr,
    account: Option<Account>,
    session: Option<String>,
    socket: WebSocket,
) {
    let (mut sink, mut stream) = socket.split();
    let mut sessions = app.accounts.watch_sessions();
    let Ok(owner) = random_hex(8) else {
        close(&mut sink, close_code::ERROR, "no random numbers available").await;
        return;
    };
    let joined = Lobby::of(&app).join(&owner);
    let mut events = joined.events;
    let mut personal = joined.personal;
    let mut rate = MessageRate::new(MESSAGE_BURST, MESSAGES_PER_SECOND);
    let mut refused = 0u32;
    let idle = app.settings.idle_timeout;
    let mut ping = tokio::time::interval(idle / 2);
    ping.reset();
    let mut heard = Instant::now();
    let mut stopping = app.stopping();
    if send_text(&mut sink, joined.list).await {
        loop {
            tokio::select! {
                event = events.recv() => {
                    let text = match event {
                        Ok(event) => match event.as_ref() {
                            LobbyEvent::Added { owner: of, texts } => {
                                Utf8Bytes::from(&*texts[usize::from(*of == owner)])
                            }
                            LobbyEvent::Removed { text } => Utf8Bytes::from(&**text),
                        },
                        // Too far behind: the whole list again, and the changes after it.
                        Err(RecvError::Lagged(_)) => {
                            let (list, fresh) = Lobby::of(&app).subscribe(&owner);
                            events = fresh;
                            list.into()
                        }
                        Err(RecvError::Closed) => break,
                    };
                    if !send_text(&mut sink, text).await {
                        break;
                    }
                }
                Some(text) = personal.recv() => {
                    if !send_text(&mut sink, text).await {
                        break;
                    }
                }
                ended = sessions.recv(), if account.is_some() => {
                    let ends = match (&ended, &account) {
                        (Ok(ended), Some(account)) => ended.ends(account.id, session.as_deref()),
                        // Missed some: the store says whether this one still holds.
                        (Err(RecvError::Lagged(_)), _) => {
                            !session_holds(&app, account.as_ref(), session.as_deref()).await
                        }
                        _ => false,
                    };
                    if ends {
                        close(&mut sink, close_code::POLICY, SESSION_ENDED).await;
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
                    let text = match screen(incoming, &mut sink, &mut rate, &mut refused, "a lobby socket").await {
                        Screened::Text(text) => text,
                        Screened::Skip => continue,
                        Screened::Close => break,
                    };
                    if !session_holds(&app, account.as_ref(), session.as_deref()).await {
                        // Logged out (perhaps on another server): nothing more for the account.
                        close(&mut sink, close_code::POLICY, SESSION_ENDED).await;
                        break;
                    }
                    let replies = {
                        let _in_flight = app.in_flight();
                        answer(&app, client, account.as_ref(), &owner, text.as_str()).await
                    };
                    let mut sent = true;
                    for reply in replies {
                        sent = sent && send_text(&mut sink, reply).await;
                    }
                    if !sent {
                        break;
                    }
                }
            }
        }
    }
    let _in_flight = app.in_flight();
    Lobby::of(&app).leave(&app, &owner).await;
}

/// Carries out one client message; returns the messages that answer it.
async fn answer(
    app: &Arc<App>,
    client: IpAddr,
    account: Option<&Account>,
    owner: &str,
    text: &str,
) -> Vec<String> {
    let request: Request = match crate::http::error::parse_json(text.as_bytes()) {
        Ok(request) => request,
        Err(error) => {
            // The error answers the message's id, if it can be read at all.
            let id = serde_json::from_str::<Value>(text)
                .ok()
                .and_then(|message| message.get("id").cloned())
                .unwrap_or(Value::Null);
            return vec![error_reply(&id, error)];
        }
    };
    let id = request.id.clone();
    match act(app, client, account, owner, request).await {
        Ok(replies) => replies,
        Err(error) => {
            tracing::info!(code = error.code, "lobby socket: refused: {}", error.error);
            vec![error_reply(&id, error)]
        }
    }
}

fn seek_field(request: &Request) -> Result<&str, ApiError> {
    request
        .seek
        .as_deref()
        .ok_or_else(|| ApiError::bad_request("seek: missing (the id of a seek)"))
}

async fn act(
    app: &Arc<App>,
    client: IpAddr,
    account: Option<&Account>,
    owner: &str,
    request: Request,
) -> Result<Vec<String>, ApiError> {
    let id = &request.id;
    let lobby = Lobby::of(app);
    match request.kind.as_str() {
        "seek" => {
            let settings = read_settings(
                request.variant.as_deref(),
                request.clock.as_ref(),
                request.rated,
                request.color.as_deref(),
            )?;
            let name = read_name(request.name.as_deref())?;
            let seek = lobby
                .post(app, owner, client, settings, name, account)
                .await?;
            Ok(vec![
                json!({"type": "ack", "id": id, "seek": seek}).to_string(),
            ])
        }
        "cancel" => {
            let seek = seek_field(&request)?;
            lobby.cancel(app, owner, seek).await?;
            Ok(vec![
                json!({"type": "ack", "id": id, "seek": seek}).to_string(),
            ])
        }
        "accept" => {
            let seek = seek_field(&request)?;
            let name = read_name(request.name.as_deref())?;
            let paired = lobby
                .accept(app, owner, client, seek, name, account)
                .await?;
            let ack = json!({"type": "ack", "id": id, "game": paired.game});
            Ok(vec![ack.to_string(), paired.message()])
        }
        "quick" => {
            if request.rated {
                return Err(match account {
                    None => rated_refusal().into(),
                    Some(_) => ApiError::bad_request(
                        "rated: quick pairing makes casual games; post a rated seek instead",
                    ),
                });
            }
            if request.color.is_some() || request.seek.is_some() {
                return Err(ApiError::bad_request(
                    "quick pairing takes a variant, a clock and a name; the colour is random",
                ));
            }
            let variant = request
                .variant
                .as_deref()
                .ok_or_else(|| ApiError::bad_request("variant: missing (bashni or russian)"))?;
            let variant = crate::app::actions::variant_named(variant)?;
            let control = read_clock(request.clock.as_ref())?;
            let name = read_name(request.name.as_deref())?;
            match lobby
                .quick(app, owner, client, (variant, control), name, account)
                .await?
            {
                Quick::Paired(paired) => {
                    let ack = json!({"type": "ack", "id": id, "game": paired.game});
                    Ok(vec![ack.to_string(), paired.message()])
                }
                Quick::Posted(seek) => Ok(vec![
                    json!({"type": "ack", "id": id, "seek": seek}).to_string(),
                ]),
            }
        }
        _ => Err(ApiError::bad_request(
            "type: expected seek, cancel, accept or quick",
        )),
    }
}
