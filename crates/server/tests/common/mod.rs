//! Helpers shared by the server's integration tests: apps on a database, requests as a
//! client sends them, and waiting for a state.
#![allow(dead_code)]

pub mod haproxy;
pub mod pg;
pub mod visitor;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use bashni_server::{App, Settings, Store, StoreOptions, router};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

pub type TestResult = Result<(), Box<dyn std::error::Error>>;

pub fn temp_db(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bashni-api-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::create_dir_all(&dir);
    dir.join("games.sqlite3")
}

pub fn test_settings() -> Settings {
    Settings {
        engines: 1,
        hash_mb: 4,
        connections_per_address: 8,
        requests_per_second: 100_000,
        open_requests_per_address: 100_000,
        new_games_per_minute: 100_000,
        ..Settings::default()
    }
}

pub fn app_on(path: &std::path::Path) -> Result<Arc<App>, Box<dyn std::error::Error>> {
    Ok(App::new(
        Store::open(path, StoreOptions::default())?,
        test_settings(),
    ))
}

pub fn memory_app() -> Result<Arc<App>, Box<dyn std::error::Error>> {
    Ok(App::new(Store::in_memory()?, test_settings()))
}

/// Sends a request; returns the status and the body (JSON if it is JSON, else a string).
pub async fn call(
    app: &Arc<App>,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<&str>,
) -> Result<(StatusCode, Value), Box<dyn std::error::Error>> {
    call_as(app, None, method, uri, token, body).await
}

/// Sends a request as if on a connection from `client` (when given); returns the status and
/// the body (JSON if it is JSON, else a string).
pub async fn call_as(
    app: &Arc<App>,
    client: Option<std::net::IpAddr>,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<&str>,
) -> Result<(StatusCode, Value), Box<dyn std::error::Error>> {
    let mut request = Request::builder().method(method).uri(uri);
    if let Some(token) = token {
        request = request.header("x-seat-token", token);
    }
    if body.is_some() {
        request = request.header("content-type", "application/json");
    }
    let mut request = request.body(Body::from(body.unwrap_or("").to_string()))?;
    if let Some(client) = client {
        request
            .extensions_mut()
            .insert(axum::extract::ConnectInfo(std::net::SocketAddr::new(
                client, 40000,
            )));
    }
    let response = router(Arc::clone(app)).oneshot(request).await?;
    let status = response.status();
    let bytes = response.into_body().collect().await?.to_bytes();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
    Ok((status, value))
}

pub async fn create(
    app: &Arc<App>,
    body: Value,
) -> Result<(String, String, Value), Box<dyn std::error::Error>> {
    let (status, answer) = call(app, "POST", "/api/games", None, Some(&body.to_string())).await?;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    let id = answer["id"].as_str().ok_or("no id")?.to_string();
    let token = answer["token"].as_str().ok_or("no token")?.to_string();
    Ok((id, token, answer))
}

/// Plays `text` on the position the game holds now (its ply read from the server's copy, as
/// a client that was shown the game sends it).
pub async fn play(
    app: &Arc<App>,
    id: &str,
    token: &str,
    text: &str,
) -> Result<(StatusCode, Value), Box<dyn std::error::Error>> {
    let ply = match app.slot(id).await {
        Ok(slot) => slot.live.lock().await.round.game.ply() as u64,
        Err(_) => 0,
    };
    play_at(app, id, token, text, ply).await
}

/// Plays `text` as a move made for the position after `ply` plies.
pub async fn play_at(
    app: &Arc<App>,
    id: &str,
    token: &str,
    text: &str,
    ply: u64,
) -> Result<(StatusCode, Value), Box<dyn std::error::Error>> {
    call(
        app,
        "POST",
        &format!("/api/games/{id}/move"),
        Some(token),
        Some(&json!({ "move": text, "ply": ply }).to_string()),
    )
    .await
}

/// `state` with a socket's `update` merged in, as a client does: the fields it carries
/// replace the old, and the moves are cut to `moves_from` before its moves are added.
pub fn merged(state: &Value, update: &Value) -> Value {
    let mut next = state.as_object().cloned().unwrap_or_default();
    let from = update["moves_from"].as_u64().unwrap_or(0) as usize;
    let mut moves = state["moves"].as_array().cloned().unwrap_or_default();
    moves.truncate(from);
    moves.extend(update["moves"].as_array().cloned().unwrap_or_default());
    for (name, value) in update.as_object().cloned().unwrap_or_default() {
        next.insert(name, value);
    }
    next.insert("moves".into(), Value::Array(moves));
    next.remove("moves_from");
    Value::Object(next)
}

/// The texts of a state's moves.
pub fn move_texts(state: &Value) -> Vec<String> {
    texts_of(&state["moves"])
}

/// The texts of a state's legal moves.
pub fn legal_texts(state: &Value) -> Vec<String> {
    texts_of(&state["legal_moves"])
}

fn texts_of(list: &Value) -> Vec<String> {
    list.as_array()
        .map(|moves| {
            moves
                .iter()
                // A socket sends a legal move as its notation alone.
                .filter_map(|m| m.as_str().or(m["text"].as_str()).map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// Waits until `check` holds for the game's state: looks again at each change of the game
/// (the game's own events), and at the latest each second in case the game left memory
/// meanwhile; gives up after 25 s.
pub async fn wait_for(
    app: &Arc<App>,
    id: &str,
    check: impl Fn(&Value) -> bool,
) -> Result<Value, Box<dyn std::error::Error>> {
    let slot = app.slot(id).await.map_err(|e| format!("{e:?}"))?;
    let mut events = slot.events.subscribe();
    for _ in 0..25 {
        let (_, state) = call(app, "GET", &format!("/api/games/{id}"), None, None).await?;
        if check(&state) {
            return Ok(state);
        }
        // The next change (a receiver that fell behind has missed some: look again too).
        let _ = tokio::time::timeout(Duration::from_secs(1), events.recv()).await;
    }
    Err("the state never came".into())
}

/// A test's WebSocket client.
pub type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The next message of type `kind` on `socket` (others are skipped), within 5 s.
pub async fn next_json(
    socket: &mut Socket,
    kind: &str,
) -> Result<Value, Box<dyn std::error::Error>> {
    use futures_util::StreamExt;
    loop {
        let message = tokio::time::timeout(Duration::from_secs(5), socket.next())
            .await?
            .ok_or("socket closed")??;
        if let Ok(text) = message.to_text() {
            let value: Value = serde_json::from_str(text)?;
            if value["type"] == kind {
                return Ok(value);
            }
        }
    }
}

/// Sends `value` as a text message.
pub async fn send_json(
    socket: &mut Socket,
    value: Value,
) -> Result<(), Box<dyn std::error::Error>> {
    use futures_util::SinkExt;
    socket
        .send(tokio_tungstenite::tungstenite::Message::Text(
            value.to_string().into(),
        ))
        .await?;
    Ok(())
}

/// Starts serving `app` on a free loopback port; returns the address.
pub async fn serve(app: &Arc<App>) -> Result<std::net::SocketAddr, Box<dyn std::error::Error>> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let address = listener.local_addr()?;
    tokio::spawn(bashni_server::serve(listener, Arc::clone(app)));
    Ok(address)
}

/// The store keeps the last lines of each room, numbered, on any database.
pub async fn chat_store_suite(
    db: &bashni_server::Database,
    game: &str,
) -> Result<(), Box<dyn std::error::Error>> {
    let line = |room: &str, text: String| bashni_server::store::ChatLine {
        room: room.into(),
        seq: 0,
        author: "watcher".into(),
        name: "W".into(),
        text,
        at_ms: 1,
        account: false,
    };
    let extra = 5;
    for n in 1..=bashni_server::store::CHAT_LINES_KEPT + extra {
        let seq = db.add_chat(game, line("watchers", format!("w{n}"))).await?;
        assert_eq!(seq, n);
    }
    assert_eq!(db.add_chat(game, line("players", "p1".into())).await?, 1);
    let kept = db.chat_lines(game, "watchers", 0, 1000).await?;
    assert_eq!(kept.len() as u64, bashni_server::store::CHAT_LINES_KEPT);
    assert_eq!(kept[0].seq, extra + 1);
    assert_eq!(kept.last().map(|l| l.text.as_str()), Some("w205"));
    let after = db.chat_lines(game, "watchers", 200, 1000).await?;
    assert_eq!(
        after.iter().map(|l| l.seq).collect::<Vec<_>>(),
        [201, 202, 203, 204, 205]
    );
    let last_two = db.chat_lines(game, "watchers", 0, 2).await?;
    assert_eq!(
        last_two.iter().map(|l| l.seq).collect::<Vec<_>>(),
        [204, 205]
    );
    assert_eq!(db.chat_lines(game, "players", 0, 10).await?.len(), 1);
    let member = bashni_server::store::ChatLine {
        account: true,
        ..line("players", "p2".into())
    };
    assert_eq!(db.add_chat(game, member).await?, 2);
    let accounts: Vec<bool> = db
        .chat_lines(game, "players", 0, 10)
        .await?
        .iter()
        .map(|l| l.account)
        .collect();
    assert_eq!(
        accounts,
        [false, true],
        "a line says whether an account wrote it"
    );
    assert!(db.mutes(game).await?.is_empty());
    db.set_mute(game, "black", true).await?;
    db.set_mute(game, "black", true).await?;
    assert_eq!(db.mutes(game).await?, ["black"]);
    db.set_mute(game, "black", false).await?;
    assert!(db.mutes(game).await?.is_empty());
    assert!(
        db.add_chat("nosuchgame", line("players", "x".into()))
            .await
            .is_err()
    );
    Ok(())
}

/// The texts of a chat room's lines, as a `chat_history` message gives them.
pub fn texts(lines: &Value) -> Vec<String> {
    lines
        .as_array()
        .map(|lines| {
            lines
                .iter()
                .filter_map(|l| l["text"].as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}
