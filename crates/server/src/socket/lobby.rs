//! The lobby's WebSocket, `GET /api/lobby/ws`: the list of open seeks on connecting, then a
//! small message for every seek that comes or goes; a player posts, cancels, accepts and
//! quick-pairs over it. The socket is the owner of the seeks it posts: they leave with it.

use std::net::IpAddr;
use std::sync::Arc;

use axum::extract::{Extension, State};
use axum::response::Response;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::broadcast::{self, error::RecvError};
use tokio::sync::mpsc;

use crate::account::{Account, SessionEnded, session_hash};
use crate::app::App;
use crate::app::actions::TimeRequest;
use crate::game::secret::random_hex;
use crate::http::error::ApiError;
use crate::http::games::Client;
use crate::http::session::{Viewer, session_id};
use crate::lobby::{Lobby, LobbyEvent, Quick, rated_refusal, read_clock, read_name, read_settings};
use crate::socket::{
    Conversation, Said, WebSocket, WebSocketUpgrade, close, close_code, converse, error_reply,
    in_language, read_message,
};
use crate::texts::Language;

/// Opens a lobby socket.
pub async fn handler(
    ws: WebSocketUpgrade,
    State(app): State<Arc<App>>,
    Extension(Client(client)): Extension<Client>,
    Viewer(account): Viewer,
    Extension(language): Extension<Language>,
    headers: axum::http::HeaderMap,
) -> Response {
    // The socket acts for the account only while the session it was opened with lasts.
    let session = account
        .as_ref()
        .and_then(|_| session_id(&headers))
        .map(session_hash);
    ws.on_upgrade(move |socket| in_language(language, run(app, client, account, session, socket)))
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
    let Ok(owner) = random_hex(8) else {
        let (mut sink, _) = futures_util::StreamExt::split(socket);
        close(&mut sink, close_code::ERROR, "no random numbers available").await;
        return;
    };
    let joined = Lobby::of(&app).join(&owner);
    let mut talk = LobbyTalk {
        app: Arc::clone(&app),
        client,
        account,
        session,
        sessions: app.accounts.watch_sessions(),
        owner,
        events: joined.events,
        personal: joined.personal,
    };
    let opening = vec![joined.list];
    converse(&app, socket, "a lobby socket", opening, &mut talk).await;
    let _in_flight = app.in_flight();
    Lobby::of(&app).leave(&app, &talk.owner).await;
}

/// A lobby socket: the lobby's changes, the messages for this socket alone, and the
/// sessions that end (one of them may be this socket's).
struct LobbyTalk {
    app: Arc<App>,
    client: IpAddr,
    account: Option<Account>,
    session: Option<String>,
    sessions: broadcast::Receiver<SessionEnded>,
    /// The socket's name as the owner of its seeks.
    owner: String,
    events: broadcast::Receiver<Arc<LobbyEvent>>,
    personal: mpsc::UnboundedReceiver<String>,
}

/// News of a lobby socket.
enum LobbyNews {
    Lobby(Result<Arc<LobbyEvent>, RecvError>),
    Personal(String),
    Session(Result<SessionEnded, RecvError>),
}

impl Conversation for LobbyTalk {
    type News = LobbyNews;

    async fn next_news(&mut self) -> LobbyNews {
        let logged_in = self.account.is_some();
        tokio::select! {
            event = self.events.recv() => LobbyNews::Lobby(event),
            Some(text) = self.personal.recv() => LobbyNews::Personal(text),
            ended = self.sessions.recv(), if logged_in => LobbyNews::Session(ended),
        }
    }

    async fn tell(&mut self, news: LobbyNews) -> Said {
        match news {
            LobbyNews::Lobby(Ok(event)) => match event.as_ref() {
                LobbyEvent::Added { owner, texts } => {
                    Said::text(&*texts[usize::from(*owner == self.owner)])
                }
                LobbyEvent::Removed { text } => Said::text(&**text),
            },
            // Too far behind: the whole list again, and the changes after it.
            LobbyNews::Lobby(Err(RecvError::Lagged(_))) => {
                let (list, fresh) = Lobby::of(&self.app).subscribe(&self.owner);
                self.events = fresh;
                Said::text(list)
            }
            LobbyNews::Lobby(Err(RecvError::Closed)) => Said::End,
            LobbyNews::Personal(text) => Said::text(text),
            LobbyNews::Session(ended) => {
                let ends = match (&ended, &self.account) {
                    (Ok(ended), Some(account)) => ended.ends(account.id, self.session.as_deref()),
                    // Missed some: the store says whether this one still holds.
                    (Err(RecvError::Lagged(_)), _) => !self.session_holds().await,
                    _ => false,
                };
                if ends {
                    Said::Close(close_code::POLICY, SESSION_ENDED)
                } else {
                    Said::Nothing
                }
            }
        }
    }

    async fn answer(&mut self, text: &str) -> Said {
        if !self.session_holds().await {
            // Logged out (perhaps on another server): nothing more for the account.
            return Said::Close(close_code::POLICY, SESSION_ENDED);
        }
        let account = self.account.as_ref();
        Said::texts(answer(&self.app, self.client, account, &self.owner, text).await)
    }
}

impl LobbyTalk {
    async fn session_holds(&self) -> bool {
        session_holds(&self.app, self.account.as_ref(), self.session.as_deref()).await
    }
}

/// Carries out one client message; returns the messages that answer it.
async fn answer(
    app: &Arc<App>,
    client: IpAddr,
    account: Option<&Account>,
    owner: &str,
    text: &str,
) -> Vec<String> {
    let request: Request = match read_message(text) {
        Ok(request) => request,
        Err(reply) => return vec![reply],
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
