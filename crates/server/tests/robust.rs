//! The server under conditions an attacker or a bad day brings: a database locked by another
//! process or full, clients that hang up, engines in demand, slow and idle connections,
//! floods, odd input. Each test is one finding of an outside test of `bashni serve`.

mod common;

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use bashni_server::{App, Settings, Store, StoreOptions, router};
use common::*;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tower::ServiceExt;

type Error = Box<dyn std::error::Error>;

fn settings() -> Settings {
    Settings {
        engines: 1,
        hash_mb: 4,
        connections_per_address: 64,
        requests_per_second: 100_000,
        open_requests_per_address: 100_000,
        new_games_per_minute: 100_000,
        ..Settings::default()
    }
}

fn file_app(name: &str, wait: Duration) -> Result<(Arc<App>, std::path::PathBuf), Error> {
    let path = temp_db(name);
    let options = StoreOptions {
        busy_timeout: wait,
        ..StoreOptions::default()
    };
    Ok((App::new(Store::open(&path, options)?, settings()), path))
}

/// A request from `client`, as the server would see it on a connection from there.
async fn call_from(
    app: &Arc<App>,
    client: IpAddr,
    method: &str,
    uri: &str,
    body: Option<Value>,
) -> Result<(StatusCode, Value), Error> {
    let body = body.map(|b| b.to_string());
    call_as(app, Some(client), method, uri, None, body.as_deref()).await
}

/// A socket on game `id`, bound to the seat of `token`, past its first states.
async fn seated_socket(address: SocketAddr, id: &str, token: &str) -> Result<Socket, Error> {
    let (mut socket, _) =
        tokio_tungstenite::connect_async(format!("ws://{address}/api/games/{id}/ws")).await?;
    next_json(&mut socket, "state").await?;
    send_json(
        &mut socket,
        json!({"type": "seat", "id": 0, "token": token}),
    )
    .await?;
    let ack = next_json(&mut socket, "ack").await?;
    assert_eq!(ack["you"], "both", "{ack}");
    let state = next_json(&mut socket, "state").await?;
    assert_eq!(state["state"]["you"], "both");
    Ok(socket)
}

/// Whether a message of type `kind` arrives on `socket` within `wait`.
async fn hears(socket: &mut Socket, kind: &str, wait: Duration) -> bool {
    let deadline = tokio::time::Instant::now() + wait;
    while let Ok(Some(Ok(message))) = tokio::time::timeout_at(deadline, socket.next()).await {
        if let Ok(text) = message.to_text()
            && serde_json::from_str::<Value>(text).is_ok_and(|v| v["type"] == kind)
        {
            return true;
        }
    }
    false
}

fn first_legal(state: &Value) -> Option<String> {
    state["legal_moves"][0]["text"].as_str().map(String::from)
}

/// Finding 1: a move refused because another process holds the database's write lock is
/// not applied anywhere; the next move, legal only after the refused one, is refused too;
/// the game stays readable, also after a restart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_locked_database_refuses_the_move_and_changes_nothing() -> Result<(), Error> {
    let (app, path) = file_app("locked", Duration::from_millis(300))?;
    let (id, token, _) = create(&app, json!({"variant": "bashni", "mode": "local"})).await?;
    let address = serve(&app).await?;
    let mut player = seated_socket(address, &id, &token).await?;
    let (mut watcher, _) =
        tokio_tungstenite::connect_async(format!("ws://{address}/api/games/{id}/ws")).await?;
    next_json(&mut watcher, "state").await?;

    let other = rusqlite::Connection::open(&path)?;
    other.execute_batch("BEGIN IMMEDIATE")?;
    send_json(
        &mut player,
        json!({"type": "move", "id": 1, "move": "c3-d4", "ply": 0}),
    )
    .await?;
    let refused = next_json(&mut player, "error").await?;
    assert_eq!(refused["id"], 1);
    assert_eq!(refused["code"], "unavailable", "{refused}");
    assert!(
        refused["error"]
            .as_str()
            .is_some_and(|e| e.contains("nothing was changed")),
        "{refused}"
    );
    assert!(
        !hears(&mut watcher, "update", Duration::from_millis(300)).await,
        "a watcher was told of a move that was not stored"
    );
    other.execute_batch("ROLLBACK")?;

    // Black's answer to c3-d4 is made for a position the game never reached: c3-d4 was
    // never played, so it is refused as stale, and the state follows.
    send_json(
        &mut player,
        json!({"type": "move", "id": 2, "move": "f6-g5", "ply": 1}),
    )
    .await?;
    let error = next_json(&mut player, "error").await?;
    assert_eq!(error["code"], "stale", "{error}");
    let now = next_json(&mut player, "state").await?;
    assert_eq!(now["state"]["ply"], 0, "{now}");
    let (status, state) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await?;
    assert_eq!(status, StatusCode::OK);
    assert!(move_texts(&state).is_empty());

    for (n, text) in [(3, "c3-d4"), (4, "f6-g5")] {
        send_json(
            &mut player,
            json!({"type": "move", "id": n, "move": text, "ply": n - 3}),
        )
        .await?;
        assert_eq!(next_json(&mut player, "ack").await?["id"], n);
    }
    drop(app);
    let app = app_on(&path)?;
    let (status, state) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await?;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(move_texts(&state), ["c3-d4", "f6-g5"]);
    let (status, _) = call(&app, "GET", &format!("/api/games/{id}/pdn"), None, None).await?;
    assert_eq!(status, StatusCode::OK);
    Ok(())
}

/// Finding 1, a full disk: the database may not grow; moves go on until one needs room.
/// That move, sent again over the socket, is refused and applied nowhere; with room again
/// the game goes on intact, also after a restart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_refuses_the_move_and_changes_nothing() -> Result<(), Error> {
    let (app, path) = file_app("full", Duration::from_millis(300))?;
    app.database.sqlite().ok_or("not SQLite")?.limit_size(0)?;
    let mut full = None;
    'games: for _ in 0..50 {
        let (id, token, _) = create(&app, json!({"variant": "bashni", "mode": "local"})).await?;
        let mut played = Vec::new();
        for _ in 0..300 {
            let (_, state) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await?;
            let Some(text) = first_legal(&state) else {
                continue 'games;
            };
            let (status, answer) = play(&app, &id, &token, &text).await?;
            if status == StatusCode::OK {
                played.push(text);
                continue;
            }
            assert_eq!(status, StatusCode::INSUFFICIENT_STORAGE, "{answer}");
            full = Some((id, token, played, text));
            break 'games;
        }
    }
    let (id, token, mut acknowledged, text) = full.ok_or("the database never filled up")?;
    let address = serve(&app).await?;
    let mut player = seated_socket(address, &id, &token).await?;
    let (mut watcher, _) =
        tokio_tungstenite::connect_async(format!("ws://{address}/api/games/{id}/ws")).await?;
    next_json(&mut watcher, "state").await?;
    let ply = acknowledged.len();
    send_json(
        &mut player,
        json!({"type": "move", "id": 1, "move": text, "ply": ply}),
    )
    .await?;
    let error = next_json(&mut player, "error").await?;
    assert_eq!(error["code"], "unavailable", "{error}");
    assert!(
        error["error"].as_str().is_some_and(|e| e.contains("full")),
        "{error}"
    );
    assert!(
        !hears(&mut watcher, "update", Duration::from_millis(300)).await,
        "a watcher was told of a move that was not stored"
    );
    let (status, state) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await?;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(move_texts(&state), acknowledged);
    app.database
        .sqlite()
        .ok_or("not SQLite")?
        .limit_size(1024)?;
    send_json(
        &mut player,
        json!({"type": "move", "id": 2, "move": text, "ply": ply}),
    )
    .await?;
    assert_eq!(next_json(&mut player, "ack").await?["id"], 2);
    acknowledged.push(text);
    drop(app);
    let app = app_on(&path)?;
    let (status, state) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await?;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(move_texts(&state), acknowledged);
    Ok(())
}

/// Sends an analysis request on a raw connection and hangs up after `after`.
async fn hang_up_analysis(app: &Arc<App>, address: SocketAddr) -> Result<(), Error> {
    let mut stream = tokio::net::TcpStream::connect(address).await?;
    let body = json!({"variant": "russian", "movetime_ms": 5000}).to_string();
    let request = format!(
        "POST /api/analyse HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n\
         content-length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await?;
    // Hung up once the engine is busy (with this analysis, or the one before it).
    app.engines.until(|(free, _, _)| free == 0).await;
    drop(stream);
    Ok(())
}

/// Finding 2: clients that hang up on an analysis do not keep the engine: the next analysis
/// is answered and an engine game started then gets its move at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hung_up_analyses_give_their_engine_back() -> Result<(), Error> {
    let app = memory_app()?;
    let address = serve(&app).await?;
    hang_up_analysis(&app, address).await?;
    hang_up_analysis(&app, address).await?;
    // The analyses' searches stop with their clients: the engine comes back (an analysis
    // left running would hold it for its 5 s).
    tokio::time::timeout(
        Duration::from_secs(25),
        app.engines.until(|(free, _, _)| free == 1),
    )
    .await?;
    let (id, _, _) = create(
        &app,
        json!({"variant": "russian", "mode": "engine", "level": 1, "color": "black"}),
    )
    .await?;
    let state = wait_for(&app, &id, |s| move_texts(s).len() == 1).await?;
    assert_eq!(state["turn"], "black");
    let (status, answer) = call(
        &app,
        "POST",
        "/api/analyse",
        None,
        Some(&json!({"variant": "russian", "movetime_ms": 100}).to_string()),
    )
    .await?;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let (_, health) = call(&app, "GET", "/api/health", None, None).await?;
    assert_eq!(health["engines_free"], 1, "{health}");
    Ok(())
}

/// Finding 3: six long analyses from six clients are waiting; an engine game with a 15 s
/// clock gets the next free engine, and its clock did not run while it waited. (The
/// engine's first move is free of time, so its second move is the one that waits.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_game_comes_before_waiting_analyses() -> Result<(), Error> {
    let app = memory_app()?;
    let (id, token, _) = create(
        &app,
        json!({"variant": "bashni", "mode": "engine", "level": 2, "color": "black",
               "time": {"minutes": 0.25}}),
    )
    .await?;
    let state = wait_for(&app, &id, |s| move_texts(s).len() == 1).await?;
    let reply = first_legal(&state).ok_or("no legal move")?;
    let mut analyses = Vec::new();
    for n in 1..=6u8 {
        let app = Arc::clone(&app);
        analyses.push(tokio::spawn(async move {
            let body = json!({"variant": "bashni", "movetime_ms": 5000});
            call_from(
                &app,
                [10, 0, 0, n].into(),
                "POST",
                "/api/analyse",
                Some(body),
            )
            .await
            .map(|(status, _)| status)
            .map_err(|e| e.to_string())
        }));
    }
    // One analysis runs on the one engine, as many as may wait are waiting.
    let queue = app.engines.analysis_queue;
    app.engines
        .until(|(free, _, waiting)| free == 0 && waiting == queue)
        .await;
    let (status, answer) = play(&app, &id, &token, &reply).await?;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let state = wait_for(&app, &id, |s| {
        move_texts(s).len() == 3 || !s["result"].is_null()
    })
    .await?;
    assert!(state["result"].is_null(), "{}", state["result"]);
    // The game went first: the analyses that were waiting still wait (but the one that
    // took the engine after the game's move).
    let (_, _, waiting) = app.engines.state();
    assert!(
        waiting + 1 >= queue,
        "the engine waited behind the analyses: {waiting} of {queue} still wait"
    );
    let left = state["clock"]["white_ms"].as_i64().ok_or("no clock")?;
    assert!(
        left > 10_000,
        "the engine's clock ran while it waited: {left} ms left"
    );
    for analysis in analyses {
        analysis.abort();
    }
    Ok(())
}

/// Finding 3: moves taken back at once do not leave searches running: after 40 move and
/// take-back cycles the next engine game gets its move promptly.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn take_backs_stop_the_engine_search() -> Result<(), Error> {
    let app = memory_app()?;
    let (id, token, _) = create(
        &app,
        json!({"variant": "russian", "mode": "engine", "level": 8}),
    )
    .await?;
    for _ in 0..40 {
        let (status, state) = play(&app, &id, &token, "c3-d4").await?;
        assert_eq!(status, StatusCode::OK, "{state}");
        let (status, state) = call(
            &app,
            "POST",
            &format!("/api/games/{id}/takeback"),
            Some(&token),
            None,
        )
        .await?;
        assert_eq!(status, StatusCode::OK, "{state}");
    }
    // No search is left running: the engine is free (a search left running at level 8
    // would hold it for its whole time, forty times over).
    tokio::time::timeout(
        Duration::from_secs(25),
        app.engines.until(|(free, _, _)| free == 1),
    )
    .await?;
    let (other, _, _) = create(
        &app,
        json!({"variant": "russian", "mode": "engine", "level": 1, "color": "black"}),
    )
    .await?;
    wait_for(&app, &other, |s| move_texts(s).len() == 1).await?;
    Ok(())
}

/// Finding 4: while a write waits for another process's lock, the server answers other
/// requests (the database is used off the async threads).
#[tokio::test(flavor = "multi_thread", worker_threads = 1)]
async fn health_answers_while_a_write_waits() -> Result<(), Error> {
    let (app, path) = file_app("waits", Duration::from_secs(3))?;
    let (id, token, _) = create(&app, json!({"variant": "bashni", "mode": "local"})).await?;
    let other = rusqlite::Connection::open(&path)?;
    other.execute_batch("BEGIN IMMEDIATE")?;
    let waiting = tokio::spawn({
        let app = Arc::clone(&app);
        async move {
            play(&app, &id, &token, "c3-d4")
                .await
                .map(|(status, _)| status)
                .map_err(|e| e.to_string())
        }
    });
    // The move is in progress (its write waits for the lock until the rollback below).
    app.until_in_flight(|count| count == 1).await;
    let (status, _) = call(&app, "GET", "/api/health", None, None).await?;
    assert_eq!(status, StatusCode::OK);
    assert!(!waiting.is_finished(), "health waited for the write");
    other.execute_batch("ROLLBACK")?;
    assert_eq!(waiting.await?.map_err(|e| e.to_string())?, StatusCode::OK);
    Ok(())
}

/// Reads until the server closes the connection; returns how long that took.
async fn closed_within(stream: &mut tokio::net::TcpStream, limit: Duration) -> Option<Duration> {
    let started = Instant::now();
    let mut buffer = [0u8; 1024];
    loop {
        match tokio::time::timeout_at(
            tokio::time::Instant::from_std(started + limit),
            stream.read(&mut buffer),
        )
        .await
        {
            Ok(Ok(0)) | Ok(Err(_)) => return Some(started.elapsed()),
            Ok(Ok(_)) => continue,
            Err(_) => return None,
        }
    }
}

/// Finding 5: a connection that sends half a request, or nothing, or stays idle after a
/// request, is closed after the idle timeout; a silent WebSocket too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_and_idle_connections_are_closed() -> Result<(), Error> {
    let app = App::new(
        Store::in_memory()?,
        Settings {
            idle_timeout: Duration::from_secs(1),
            ..settings()
        },
    );
    let (id, _, _) = create(&app, json!({"variant": "bashni", "mode": "local"})).await?;
    let address = serve(&app).await?;
    let limit = Duration::from_secs(4);
    let mut half = tokio::net::TcpStream::connect(address).await?;
    half.write_all(b"GET /api/health HTTP/1.1\r\nhost: x\r\n")
        .await?;
    let mut silent = tokio::net::TcpStream::connect(address).await?;
    let mut idle = tokio::net::TcpStream::connect(address).await?;
    idle.write_all(b"GET /api/health HTTP/1.1\r\nhost: x\r\n\r\n")
        .await?;
    for (name, stream) in [
        ("half", &mut half),
        ("silent", &mut silent),
        ("idle", &mut idle),
    ] {
        let closed = closed_within(stream, limit).await;
        assert!(
            closed.is_some(),
            "the {name} connection was still open after {limit:?}"
        );
    }
    // A WebSocket whose client never answers pings.
    let mut raw = tokio::net::TcpStream::connect(address).await?;
    let upgrade = format!(
        "GET /api/games/{id}/ws HTTP/1.1\r\nhost: x\r\nupgrade: websocket\r\n\
         connection: upgrade\r\nsec-websocket-version: 13\r\n\
         sec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    );
    raw.write_all(upgrade.as_bytes()).await?;
    let closed = closed_within(&mut raw, Duration::from_secs(6)).await;
    assert!(closed.is_some(), "a silent WebSocket stayed open");
    Ok(())
}

/// Reads a whole answer from `stream` until the server closes it (at most `limit`).
async fn answer_within(stream: &mut tokio::net::TcpStream, limit: Duration) -> String {
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(limit, stream.read_to_end(&mut answer)).await;
    String::from_utf8_lossy(&answer).into_owned()
}

/// A request whose body begins and then goes silent is answered 408 and its connection
/// closed once the body falls behind its pace; it does not wait for the idle timeout or for
/// ever. (Before, such a body was held as long as the client liked.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_body_is_cut_off_and_the_server_holds_no_more_than_it_may() -> Result<(), Error> {
    let app = App::new(
        Store::in_memory()?,
        Settings {
            idle_timeout: Duration::from_secs(60),
            body_pace: bashni_server::limits::BodyPace {
                patience: Duration::from_millis(300),
                min_rate: 1000,
            },
            connections: 3,
            ..settings()
        },
    );
    let address = serve(&app).await?;
    let mut silent = tokio::net::TcpStream::connect(address).await?;
    silent
        .write_all(
            b"POST /api/games HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n\
              content-length: 100\r\n\r\n{\"variant\":",
        )
        .await?;
    let answer = answer_within(&mut silent, Duration::from_secs(20)).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("\"code\":\"too_slow\""), "{answer}");
    assert!(
        answer.to_ascii_lowercase().contains("connection: close"),
        "{answer}"
    );

    // Three connections at most: the fourth is told the server is full (the unit tests of
    // the limits see places freed).
    let held: Vec<_> =
        futures_util::future::join_all((0..3).map(|_| tokio::net::TcpStream::connect(address)))
            .await
            .into_iter()
            .collect::<Result<_, _>>()?;
    let mut fourth = tokio::net::TcpStream::connect(address).await?;
    let answer = answer_within(&mut fourth, Duration::from_secs(20)).await;
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    drop(held);
    Ok(())
}

/// Behind a balancer all connections come from it, so the limit per address is on the
/// requests each client has in progress: a client's slow upload holds its one place until it
/// is cut off, while other clients go on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_a_balancer_a_client_holds_no_more_requests_open_than_it_may() -> Result<(), Error> {
    let app = App::new(
        Store::in_memory()?,
        Settings {
            behind_proxy: true,
            open_requests_per_address: 1,
            // Long enough that the two health requests below come while the upload is
            // still held, even on a machine busy with other tests.
            body_pace: bashni_server::limits::BodyPace {
                patience: Duration::from_secs(3),
                min_rate: 1000,
            },
            ..settings()
        },
    );
    let address = serve(&app).await?;
    let request = |client: &str, line: &str, rest: &str| {
        format!("{line} HTTP/1.1\r\nhost: x\r\nx-forwarded-for: {client}\r\n{rest}")
    };
    let mut upload = tokio::net::TcpStream::connect(address).await?;
    upload
        .write_all(
            request(
                "203.0.113.9",
                "POST /api/games",
                "content-length: 100\r\n\r\n{",
            )
            .as_bytes(),
        )
        .await?;
    app.until_in_flight(|count| count == 1).await;
    let health = |client: &str| request(client, "GET /api/health", "connection: close\r\n\r\n");
    let mut same = tokio::net::TcpStream::connect(address).await?;
    same.write_all(health("203.0.113.9").as_bytes()).await?;
    let answer = answer_within(&mut same, Duration::from_secs(20)).await;
    assert!(answer.starts_with("HTTP/1.1 429"), "{answer}");
    let mut other = tokio::net::TcpStream::connect(address).await?;
    other.write_all(health("198.51.100.4").as_bytes()).await?;
    let answer = answer_within(&mut other, Duration::from_secs(20)).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // The upload is cut off; its client may ask again.
    let answer = answer_within(&mut upload, Duration::from_secs(20)).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    app.until_in_flight(|count| count == 0).await;
    let mut again = tokio::net::TcpStream::connect(address).await?;
    again.write_all(health("203.0.113.9").as_bytes()).await?;
    let answer = answer_within(&mut again, Duration::from_secs(20)).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    Ok(())
}

/// Finding 6: finished and idle games leave memory and are read back on demand; new games
/// per address are limited; a record longer than the server keeps is refused before it is
/// replayed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn memory_is_bounded() -> Result<(), Error> {
    let app = App::new(
        Store::in_memory()?,
        Settings {
            new_games_per_minute: 1000,
            ..settings()
        },
    );
    let mut ids = Vec::new();
    for _ in 0..40 {
        let (id, token, _) = create(&app, json!({"variant": "bashni", "mode": "local"})).await?;
        play(&app, &id, &token, "c3-d4").await?;
        let (status, _) = call(
            &app,
            "POST",
            &format!("/api/games/{id}/resign"),
            Some(&token),
            None,
        )
        .await?;
        assert_eq!(status, StatusCode::OK);
        ids.push(id);
    }
    let (idle, _, _) = create(&app, json!({"variant": "bashni", "mode": "local"})).await?;
    assert_eq!(app.games_in_memory(), 41);
    // The tasks that look at each game after a change end first.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let now = Instant::now();
    assert_eq!(app.sweep(now), 0, "games just used stay");
    assert_eq!(
        app.sweep(now + Duration::from_secs(6)),
        40,
        "finished games leave"
    );
    assert_eq!(
        app.sweep(now + Duration::from_secs(601)),
        1,
        "idle games leave"
    );
    assert_eq!(app.games_in_memory(), 0);
    let (status, state) = call(&app, "GET", &format!("/api/games/{}", ids[7]), None, None).await?;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(move_texts(&state), ["c3-d4"]);
    assert_eq!(state["result"]["code"], "resignation");
    let (status, _) = call(&app, "GET", &format!("/api/games/{idle}"), None, None).await?;
    assert_eq!(status, StatusCode::OK);

    let limited = App::new(
        Store::in_memory()?,
        Settings {
            new_games_per_minute: 30,
            ..settings()
        },
    );
    let client: IpAddr = [10, 1, 1, 1].into();
    let body = json!({"variant": "bashni", "mode": "local"});
    let mut made = 0;
    let mut refused = None;
    for _ in 0..40 {
        let (status, answer) =
            call_from(&limited, client, "POST", "/api/games", Some(body.clone())).await?;
        if status == StatusCode::CREATED {
            made += 1;
        } else {
            refused = Some((status, answer));
            break;
        }
    }
    assert_eq!(made, 30);
    let (status, answer) = refused.ok_or("no limit on new games")?;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{answer}");
    let (status, _) = call_from(
        &limited,
        [10, 1, 1, 2].into(),
        "POST",
        "/api/games",
        Some(body),
    )
    .await?;
    assert_eq!(
        status,
        StatusCode::CREATED,
        "another address has its own limit"
    );

    let long: String = std::iter::repeat_n("c3-d4 f6-g5 d4-c3 g5-f6 ", 251).collect();
    let pdn = format!("[GameType \"25\"]\n{long}*\n");
    let (status, answer) = call(&app, "POST", "/api/pdn", None, Some(&pdn)).await?;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let error = answer["games"][0]["error"].as_str().unwrap_or_default();
    assert!(error.contains("at most 1000"), "{answer}");
    Ok(())
}

/// Finding 7: the write-ahead log is truncated once it passes its limit, while the writes go
/// on: the writer wakes the checkpoint thread as soon as the log is past its limit, and that
/// thread holds the writer back only to copy the rest and truncate. Without it the log of
/// these writes grows to tens of MB.
#[test]
fn the_log_stays_bounded_while_writing() -> Result<(), Error> {
    const LIMIT: u64 = 256 * 1024;
    let path = temp_db("wal");
    let options = StoreOptions {
        wal_limit_bytes: LIMIT,
        ..StoreOptions::default()
    };
    let runtime = tokio::runtime::Runtime::new()?;
    let app = App::new(
        Store::open(&path, options)?,
        Settings {
            new_games_per_minute: 1_000_000,
            ..settings()
        },
    );
    let (mut peak, mut written) = (0, 0);
    runtime.block_on(async {
        for _ in 0..6000 {
            let before = app.database.sqlite().map_or(0, |s| s.wal_bytes());
            create(
                &app,
                json!({"variant": "russian", "mode": "local", "name": "x".repeat(40)}),
            )
            .await
            .map_err(|e| e.to_string())?;
            let after = app.database.sqlite().map_or(0, |s| s.wal_bytes());
            written += after.saturating_sub(before);
            peak = peak.max(after);
        }
        Ok::<_, String>(())
    })?;
    eprintln!("log: {written} bytes written, at most {peak} bytes at once");
    assert!(
        written > 40 * LIMIT,
        "the writes were too few to test the log: {written} bytes"
    );
    assert!(
        peak > LIMIT,
        "the log never grew past its limit ({peak} bytes)"
    );
    assert!(
        peak < 16 * LIMIT,
        "the log grew to {peak} bytes while writing"
    );
    Ok(())
}

/// Finding 9: odd input is refused with what is wrong, and the page may not be framed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn odd_input_is_refused() -> Result<(), Error> {
    let app = memory_app()?;
    let (id, token, _) = create(&app, json!({"variant": "bashni", "mode": "local"})).await?;
    // A JSON array is not a move request.
    let (status, error) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/move"),
        Some(&token),
        Some(r#"["c3-d4"]"#),
    )
    .await?;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{error}");
    // A clock of a billionth of a minute, and one of a thousand hours.
    for minutes in [1e-9, 60_000.0] {
        let (status, error) = call(
            &app,
            "POST",
            "/api/games",
            None,
            Some(
                &json!({"variant": "bashni", "mode": "local", "time": {"minutes": minutes}})
                    .to_string(),
            ),
        )
        .await?;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{error}");
        assert!(
            error["error"]
                .as_str()
                .is_some_and(|e| e.contains("time.minutes")),
            "{error}"
        );
    }
    // Names lose direction overrides and zero-width characters.
    let (_, _, answer) = create(
        &app,
        json!({"variant": "bashni", "mode": "local", "name": "\u{202E}Anna\u{200B}\u{0007}"}),
    )
    .await?;
    assert_eq!(answer["state"]["white"]["name"], "Anna");
    // Names read from PDN too, and at most 40 characters.
    let long = format!("Bo\u{0001}ris{}", "a".repeat(80));
    let pdn = format!("[GameType \"25\"]\n[White \"{long}\"]\n1. c3-d4 *\n");
    let (_, answer) = call(&app, "POST", "/api/pdn", None, Some(&pdn)).await?;
    let record = answer["games"][0]["id"].as_str().ok_or("not stored")?;
    let (_, state) = call(&app, "GET", &format!("/api/games/{record}"), None, None).await?;
    let name = state["white"]["name"].as_str().unwrap_or_default();
    assert!(
        name.starts_with("Boris") && name.chars().count() == 40,
        "{name:?}"
    );
    // The page may not be shown inside another site's frame.
    let response = router(Arc::clone(&app))
        .oneshot(Request::builder().uri("/").body(Body::empty())?)
        .await?;
    let policy = response
        .headers()
        .get("content-security-policy")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    assert!(policy.contains("frame-ancestors 'none'"), "{policy}");
    Ok(())
}

/// Finding 9: binary frames and pings count against the socket's rate, and an oversized
/// message is answered with a close frame that says why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn socket_floods_and_oversized_frames_are_closed_with_a_reason() -> Result<(), Error> {
    use tokio_tungstenite::tungstenite::Message;
    let app = memory_app()?;
    let (id, _, _) = create(&app, json!({"variant": "bashni", "mode": "local"})).await?;
    let address = serve(&app).await?;
    let url = format!("ws://{address}/api/games/{id}/ws");

    let (mut flood, _) = tokio_tungstenite::connect_async(&url).await?;
    for _ in 0..300 {
        if flood.send(Message::Ping(vec![1u8].into())).await.is_err() {
            break;
        }
    }
    let mut close = None;
    while let Ok(Some(message)) = tokio::time::timeout(Duration::from_secs(5), flood.next()).await {
        match message {
            Ok(Message::Close(frame)) => {
                close = frame;
                break;
            }
            Ok(_) => continue,
            Err(_) => break,
        }
    }
    let close = close.ok_or("a flood of pings did not close the socket")?;
    assert_eq!(u16::from(close.code), 1008);

    let (mut big, _) = tokio_tungstenite::connect_async(&url).await?;
    next_json(&mut big, "state").await?;
    big.send(Message::Text("x".repeat(20_000).into())).await?;
    let mut close = None;
    while let Ok(Some(message)) = tokio::time::timeout(Duration::from_secs(5), big.next()).await {
        match message {
            Ok(Message::Close(frame)) => {
                close = frame;
                break;
            }
            Ok(_) => continue,
            Err(_) => break,
        }
    }
    let close = close.ok_or("an oversized message got no close frame")?;
    assert_eq!(u16::from(close.code), 1009);
    assert!(close.reason.contains("16 KiB"), "{}", close.reason);

    // Issue "abuse, round two", finding 4: a message sent in pieces, each small, together
    // beyond the limit (three pieces of 12 KiB), gets a close frame with 1009 too.
    use tokio_tungstenite::tungstenite::protocol::frame::Frame;
    use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};
    let (mut pieces, _) = tokio_tungstenite::connect_async(&url).await?;
    next_json(&mut pieces, "state").await?;
    for n in 0..3 {
        let code = if n == 0 { Data::Text } else { Data::Continue };
        let frame = Frame::message(vec![b'x'; 12 * 1024], OpCode::Data(code), n == 2);
        pieces.send(Message::Frame(frame)).await?;
    }
    let mut close = None;
    while let Ok(Some(message)) = tokio::time::timeout(Duration::from_secs(5), pieces.next()).await
    {
        match message {
            Ok(Message::Close(frame)) => {
                close = frame;
                break;
            }
            Ok(_) => continue,
            Err(_) => break,
        }
    }
    let close = close.ok_or("an oversized message in pieces got no close frame")?;
    assert_eq!(u16::from(close.code), 1009);
    Ok(())
}

/// Finding 10: a socket bound to a seat gets states and updates made for that seat (the
/// take-back and draw rights of the seat, not a watcher's), and small updates.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seated_socket_gets_its_own_small_updates() -> Result<(), Error> {
    let app = memory_app()?;
    let (id, token, _) = create(&app, json!({"variant": "bashni", "mode": "local"})).await?;
    let address = serve(&app).await?;
    let mut player = seated_socket(address, &id, &token).await?;
    let (mut watcher, _) =
        tokio_tungstenite::connect_async(format!("ws://{address}/api/games/{id}/ws")).await?;
    let mut watcher_state = next_json(&mut watcher, "state").await?["state"].clone();
    let mut player_state = json!({"you": "both", "can_take_back": false, "moves": []});
    let mut sizes = Vec::new();
    for (n, text) in ["c3-d4", "f6-g5", "g3-h4", "b6-a5"].iter().enumerate() {
        send_json(
            &mut player,
            json!({"type": "move", "id": n, "move": text, "ply": n}),
        )
        .await?;
        // An update carries only what changed for its socket: merged, it is the seat's.
        let update = next_json(&mut player, "update").await?;
        player_state = merged(&player_state, &update["update"]);
        assert_eq!(player_state["you"], "both");
        assert_eq!(update["update"]["moves_from"], n);
        assert_eq!(move_texts(&update["update"]), [*text]);
        assert_eq!(player_state["can_take_back"], true);
        sizes.push(update.to_string().len());
        let seen = next_json(&mut watcher, "update").await?;
        watcher_state = merged(&watcher_state, &seen["update"]);
        assert_eq!(watcher_state["you"], Value::Null);
        assert_eq!(watcher_state["can_take_back"], false);
    }
    let (_, whole) = call(&app, "GET", &format!("/api/games/{id}"), Some(&token), None).await?;
    let whole = whole.to_string().len();
    assert!(
        sizes.iter().all(|&size| size < whole),
        "updates {sizes:?} are not smaller than the whole state ({whole} bytes)"
    );
    send_json(
        &mut player,
        json!({"type": "seat", "id": 9, "token": "wrong"}),
    )
    .await?;
    assert_eq!(next_json(&mut player, "error").await?["code"], "forbidden");
    Ok(())
}

/// Stopping (SIGTERM): the action in progress is finished and answered, sockets are told to
/// connect again (1012), and no new connection is taken.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stopping_finishes_what_is_in_progress_and_hands_sockets_back() -> Result<(), Error> {
    use tokio_tungstenite::tungstenite::Message;
    let (app, path) = file_app("stop", Duration::from_secs(3))?;
    let (id, token, _) = create(&app, json!({"variant": "bashni", "mode": "local"})).await?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let address = listener.local_addr()?;
    let server = tokio::spawn(bashni_server::serve(listener, Arc::clone(&app)));
    let mut socket = seated_socket(address, &id, &token).await?;
    let other = rusqlite::Connection::open(&path)?;
    other.execute_batch("BEGIN IMMEDIATE")?;
    let moving = tokio::spawn({
        let (app, id, token) = (Arc::clone(&app), id.clone(), token.clone());
        async move {
            play(&app, &id, &token, "c3-d4")
                .await
                .map(|(status, _)| status)
                .map_err(|e| e.to_string())
        }
    });
    app.until_in_flight(|count| count == 1).await;
    let stopping = tokio::spawn({
        let app = Arc::clone(&app);
        async move { app.stop(Duration::from_secs(5)).await }
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!stopping.is_finished(), "stopped with a move in progress");
    other.execute_batch("ROLLBACK")?;
    assert_eq!(moving.await?.map_err(|e| e.to_string())?, StatusCode::OK);
    stopping.await?;
    let mut close = None;
    while let Ok(Some(message)) = tokio::time::timeout(Duration::from_secs(5), socket.next()).await
    {
        if let Ok(Message::Close(frame)) = message {
            close = frame;
            break;
        }
    }
    let close = close.ok_or("the socket was not handed back")?;
    assert_eq!(u16::from(close.code), 1012);
    // The server has let its listener go.
    server.await??;
    let refused = match tokio::net::TcpStream::connect(address).await {
        Err(_) => true,
        Ok(mut stream) => closed_within(&mut stream, Duration::from_secs(2))
            .await
            .is_some(),
    };
    assert!(refused, "a stopped server took a new connection");
    let (_, state) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await?;
    assert_eq!(move_texts(&state), ["c3-d4"]);
    Ok(())
}

/// Behind a balancer the limits count the client's address from `X-Forwarded-For`, not the
/// balancer's; without `behind_proxy` the header is ignored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_a_balancer_limits_count_the_forwarded_address() -> Result<(), Error> {
    for behind_proxy in [true, false] {
        let app = App::new(
            Store::in_memory()?,
            Settings {
                new_games_per_minute: 2,
                behind_proxy,
                ..settings()
            },
        );
        let mut made = 0;
        for client in ["203.0.113.1", "203.0.113.2"] {
            for _ in 0..2 {
                let mut request = Request::builder()
                    .method("POST")
                    .uri("/api/games")
                    .header("content-type", "application/json")
                    .header("x-forwarded-for", format!("198.51.100.9, {client}"))
                    .body(Body::from(
                        json!({"variant": "bashni", "mode": "local"}).to_string(),
                    ))?;
                request
                    .extensions_mut()
                    .insert(ConnectInfo(SocketAddr::from(([127, 0, 0, 1], 40000))));
                let response = router(Arc::clone(&app)).oneshot(request).await?;
                if response.status() == StatusCode::CREATED {
                    made += 1;
                }
            }
        }
        assert_eq!(
            made,
            if behind_proxy { 4 } else { 2 },
            "behind_proxy {behind_proxy}"
        );
    }
    Ok(())
}

/// Issue "abuse, round two", finding 1: behind HAProxy (`option forwardfor`, which adds the
/// client's address as a header line of its own) a client cannot choose its address by
/// sending an `X-Forwarded-For` of its own: the address counted is the one the proxy added.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_haproxy_a_client_cannot_choose_its_address() -> Result<(), Error> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let app = App::new(
        Store::in_memory()?,
        Settings {
            new_games_per_minute: 2,
            behind_proxy: true,
            ..settings()
        },
    );
    let server = serve(&app).await?;
    let proxy = common::haproxy::Haproxy::start("spoof", server)?;
    let body = json!({"variant": "bashni", "mode": "local"}).to_string();
    let mut statuses = Vec::new();
    for n in 1..=4 {
        let mut stream = tokio::net::TcpStream::connect(proxy.address).await?;
        let request = format!(
            "POST /api/games HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n\
             x-forwarded-for: 203.0.113.{n}\r\ncontent-length: {}\r\n\
             connection: close\r\n\r\n{body}",
            body.len()
        );
        stream.write_all(request.as_bytes()).await?;
        let mut answer = String::new();
        stream.read_to_string(&mut answer).await?;
        statuses.push(answer.split(' ').nth(1).unwrap_or_default().to_string());
    }
    // Two new games a minute for the one client there is, whatever it wrote.
    assert_eq!(statuses, ["201", "201", "429", "429"]);
    Ok(())
}

/// A socket opened with `bind=1` gets no watcher's state: its first message answers the seat
/// binding, and the state that follows is the seat's; after a failed binding it asks for the
/// watcher's state itself.
#[tokio::test]
async fn a_socket_that_binds_first_gets_one_state_only() -> Result<(), Error> {
    let app = memory_app()?;
    let (id, token, _) = create(&app, json!({"variant": "bashni", "mode": "local"})).await?;
    let address = serve(&app).await?;
    let url = format!("ws://{address}/api/games/{id}/ws?bind=1");
    let (mut socket, _) = tokio_tungstenite::connect_async(&url).await?;
    send_json(
        &mut socket,
        json!({"type": "seat", "id": 1, "token": token}),
    )
    .await?;
    let mut kinds = Vec::new();
    let mut state = Value::Null;
    while kinds.len() < 2 {
        let message = tokio::time::timeout(Duration::from_secs(5), socket.next())
            .await?
            .ok_or("socket closed")??;
        let value: Value = serde_json::from_str(message.to_text()?)?;
        kinds.push(value["type"].as_str().unwrap_or_default().to_string());
        if value["type"] == "state" {
            state = value["state"].clone();
        }
    }
    assert_eq!(kinds, ["ack", "state"], "the binding's answer comes first");
    assert_eq!(state["you"], "both");

    let (mut stranger, _) = tokio_tungstenite::connect_async(&url).await?;
    send_json(
        &mut stranger,
        json!({"type": "seat", "id": 1, "token": "0".repeat(32)}),
    )
    .await?;
    assert_eq!(
        next_json(&mut stranger, "error").await?["code"],
        "forbidden"
    );
    send_json(&mut stranger, json!({"type": "state"})).await?;
    assert_eq!(
        next_json(&mut stranger, "state").await?["state"]["you"],
        Value::Null
    );

    let wrong = format!("ws://{address}/api/games/{id}/ws?bind=yes");
    assert!(
        tokio_tungstenite::connect_async(&wrong).await.is_err(),
        "a bad option is refused"
    );
    Ok(())
}
