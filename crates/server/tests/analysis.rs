//! The analysis board's requests: variations played from a position over HTTP, and the
//! streamed analysis over its WebSocket, driven as the page drives them.

mod common;

use std::time::{Duration, Instant};

use axum::http::StatusCode;
use bashni_rules::notation::{parse_move, read_position};
use bashni_rules::{Game, Variant};
use common::*;
use serde_json::{Value, json};

/// Opens an analysis socket on a served app.
async fn analysis_socket(
    address: std::net::SocketAddr,
) -> Result<Socket, Box<dyn std::error::Error>> {
    let url = format!("ws://{address}/api/analysis/ws");
    Ok(tokio_tungstenite::connect_async(&url).await?.0)
}

/// The next analysis message or error, within `wait`.
async fn next_message(
    socket: &mut Socket,
    wait: Duration,
) -> Result<Value, Box<dyn std::error::Error>> {
    use futures_util::StreamExt;
    loop {
        let message = tokio::time::timeout(wait, socket.next())
            .await?
            .ok_or("socket closed")??;
        if let Ok(text) = message.to_text() {
            let value: Value = serde_json::from_str(text)?;
            if value["type"] == "analysis" || value["type"] == "error" {
                return Ok(value);
            }
        }
    }
}

/// Every message of analysis `id` up to its final one.
async fn until_done(
    socket: &mut Socket,
    id: u64,
) -> Result<Vec<Value>, Box<dyn std::error::Error>> {
    let mut seen = Vec::new();
    loop {
        let message = next_message(socket, Duration::from_secs(40)).await?;
        assert_eq!(message["type"], "analysis", "{message}");
        if message["id"] != id {
            continue;
        }
        let done = message["done"] == true;
        seen.push(message);
        if done {
            return Ok(seen);
        }
    }
}

/// Checks that each line of `message` is a sequence of legal moves of `game`, that its path
/// is its first move's, and that its scores are written as `/api/analyse` writes them.
fn check_lines(game: &Game, message: &Value, most: usize) {
    let lines = message["lines"].as_array().expect("lines");
    assert!(!lines.is_empty() && lines.len() <= most, "{message}");
    let white = game.side_to_move() == bashni_rules::Color::White;
    for line in lines {
        let mut after = game.clone();
        let moves = line["moves"].as_array().expect("moves");
        assert!(!moves.is_empty(), "{line}");
        for (i, text) in moves.iter().enumerate() {
            let text = text.as_str().expect("a move text");
            let mv = parse_move(after.position(), text).expect("a legal move");
            if i == 0 {
                let mut path = vec![mv.from().to_string()];
                path.extend(mv.landings().iter().map(|s| s.to_string()));
                assert_eq!(line["path"], json!(path), "{line}");
            }
            after.play(&mv).expect("legal");
        }
        let score = line["score"].as_str().expect("a score");
        let numeric = score.len() >= 5
            && (score.starts_with('+') || score.starts_with('-'))
            && score[1..].parse::<f64>().is_ok()
            && score.find('.') == Some(score.len() - 3);
        assert!(
            numeric || score.starts_with("win in") || score.starts_with("loss in"),
            "{score}"
        );
        if white && numeric {
            assert_eq!(line["score_white"], line["score"], "{line}");
        }
        assert!(line["score_cp"].is_i64(), "{line}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_position_plays_the_moves_given_and_names_a_wrong_one() -> TestResult {
    let app = memory_app()?;
    let ask = |moves: Value| {
        json!({"variant": "russian", "position": "start", "moves": moves}).to_string()
    };
    let body = ask(json!(["c3-d4", "f6-e5", "d4:f6"]));
    let (status, answer) = call(&app, "POST", "/api/position", None, Some(&body)).await?;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let played = answer["played"].as_array().ok_or("played")?;
    assert_eq!(played.len(), 3);
    assert_eq!(played[0]["ply"], 0);
    assert_eq!(played[0]["number"], 1);
    assert_eq!(played[0]["color"], "white");
    assert_eq!(played[1]["color"], "black");
    assert_eq!(played[2]["text"], "d4:f6");
    assert_eq!(played[2]["captured"], json!(["e5"]));
    assert_eq!(played[2]["after"]["turn"], "black");
    assert_eq!(played[2]["after"], answer["position"]);
    assert_eq!(answer["position"]["towers"]["f6"], "w");
    assert_eq!(answer["result"], Value::Null);
    // Black must take back on f6.
    let legal = answer["legal_moves"].as_array().ok_or("legal moves")?;
    assert!(!legal.is_empty());
    assert!(
        legal.iter().all(|m| m["captured"] == json!(["f6"])),
        "{legal:?}"
    );

    // Without moves the answer is as before, with nothing played.
    let (_, plain) = call(&app, "POST", "/api/position", None, Some(&ask(json!([])))).await?;
    assert_eq!(plain["played"], json!([]));
    assert_eq!(plain["legal_moves"].as_array().map(Vec::len), Some(7));

    let body = ask(json!(["c3-d4", "f6-e5", "a1-b2"]));
    let (status, error) = call(&app, "POST", "/api/position", None, Some(&body)).await?;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{error}");
    assert_eq!(error["code"], "illegal_move");
    let message = error["error"].as_str().ok_or("a message")?;
    assert!(
        message.starts_with("moves[2]: `a1-b2` is illegal"),
        "{message}"
    );
    // The legal moves where the wrong one was tried: the capture is forced.
    assert_eq!(error["legal"], json!(["d4:f6"]));
    let (status, error) = call(
        &app,
        "POST",
        "/api/position",
        None,
        Some(&ask(json!(["c3-d4", "??"]))),
    )
    .await?;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{error}");
    assert!(
        error["error"]
            .as_str()
            .is_some_and(|e| e.starts_with("moves[1]: `??` is not a move")),
        "{error}"
    );
    let many: Vec<&str> = vec!["c3-d4"; 201];
    let (status, error) =
        call(&app, "POST", "/api/position", None, Some(&ask(json!(many)))).await?;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{error}");
    assert!(
        error["error"]
            .as_str()
            .is_some_and(|e| e.contains("at most 200")),
        "{error}"
    );

    // The analysis of a variation looks at the position after it.
    let body = json!({"variant": "russian", "moves": ["c3-d4", "f6-e5"], "movetime_ms": 100});
    let (status, answer) =
        call(&app, "POST", "/api/analyse", None, Some(&body.to_string())).await?;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["lines"][0]["moves"][0], "d4:f6");
    assert_eq!(answer["lines"][0]["path"], json!(["d4", "f6"]));
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_socket_streams_depths_then_a_final_message() -> TestResult {
    let app = memory_app()?;
    let address = serve(&app).await?;
    let mut socket = analysis_socket(address).await?;
    let asked = Instant::now();
    send_json(
        &mut socket,
        json!({"type": "analyse", "id": 1, "variant": "bashni", "position": "start",
               "lines": 3, "movetime_ms": 1500}),
    )
    .await?;
    let messages = until_done(&mut socket, 1).await?;
    let elapsed = asked.elapsed();
    let start = Game::start(Variant::Bashni);
    let (last, progress) = messages.split_last().ok_or("no message")?;
    assert!(!progress.is_empty(), "no message before the final one");
    assert!(progress.iter().all(|m| m["done"] == false));
    assert_eq!(last["done"], true);
    assert_eq!(last["reason"], "end");
    for message in &messages {
        check_lines(&start, message, 3);
        assert!(
            message["depth"].as_u64().is_some_and(|d| d >= 1),
            "{message}"
        );
        assert!(message["nodes"].as_u64().is_some(), "{message}");
        assert!(message["nps"].as_u64().is_some(), "{message}");
    }
    assert_eq!(last["lines"].as_array().map(Vec::len), Some(3), "{last}");
    // Depths come deeper and deeper, at most ten messages a second.
    let depths: Vec<u64> = progress
        .iter()
        .filter_map(|m| m["depth"].as_u64())
        .collect();
    assert!(depths.windows(2).all(|w| w[0] < w[1]), "{depths:?}");
    let most = elapsed.as_millis() as usize / 100 + 1;
    assert!(
        progress.len() <= most,
        "{} messages in {elapsed:?}",
        progress.len()
    );
    assert!(elapsed >= Duration::from_millis(1000), "{elapsed:?}");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stop_ends_the_analysis_and_a_new_one_replaces_the_old() -> TestResult {
    let app = memory_app()?;
    let address = serve(&app).await?;
    let mut socket = analysis_socket(address).await?;
    // No time given: it runs until stopped.
    send_json(
        &mut socket,
        json!({"type": "analyse", "id": 1, "variant": "bashni", "lines": 2}),
    )
    .await?;
    let first = next_message(&mut socket, Duration::from_secs(10)).await?;
    assert_eq!(
        (first["id"].clone(), first["done"].clone()),
        (json!(1), json!(false)),
        "{first}"
    );
    // Without a time the search would run on: its final message says it was stopped.
    send_json(&mut socket, json!({"type": "stop"})).await?;
    let messages = until_done(&mut socket, 1).await?;
    let last = messages.last().ok_or("no final message")?;
    assert_eq!(last["reason"], "stop", "{last}");
    check_lines(&Game::start(Variant::Bashni), last, 2);
    // Nothing runs now: a stop does nothing, and says nothing.
    send_json(&mut socket, json!({"type": "stop"})).await?;

    send_json(
        &mut socket,
        json!({"type": "analyse", "id": 2, "variant": "bashni"}),
    )
    .await?;
    let second = next_message(&mut socket, Duration::from_secs(10)).await?;
    assert_eq!(second["id"], 2, "{second}");
    let russian = "W:Wc3,e3:Bd6,f6";
    send_json(
        &mut socket,
        json!({"type": "analyse", "id": 3, "variant": "russian", "position": russian,
               "movetime_ms": 300}),
    )
    .await?;
    // The old one ends first, said so, and is heard of no more.
    let mut ended_second = false;
    let mut third = Vec::new();
    loop {
        let message = next_message(&mut socket, Duration::from_secs(10)).await?;
        assert_eq!(message["type"], "analysis", "{message}");
        if message["id"] == 2 {
            assert!(
                third.is_empty(),
                "analysis 2 spoke after 3 began: {message}"
            );
            if message["done"] == true {
                assert_eq!(message["reason"], "replaced");
                ended_second = true;
            }
            continue;
        }
        assert_eq!(message["id"], 3);
        assert!(ended_second, "analysis 3 began before 2 ended");
        let done = message["done"] == true;
        third.push(message);
        if done {
            break;
        }
    }
    let game = Game::new(read_position(Variant::Russian, russian)?);
    for message in &third {
        check_lines(&game, message, 1);
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_messages_get_an_error_and_the_socket_stays_open() -> TestResult {
    let app = memory_app()?;
    let address = serve(&app).await?;
    let mut socket = analysis_socket(address).await?;
    let cases = [
        (json!("not json"), "expected a JSON object"),
        (
            json!({"type": "dance", "id": 1}),
            "type: expected analyse or stop",
        ),
        (json!({"type": "analyse", "id": 2}), "variant: missing"),
        (
            json!({"type": "analyse", "id": 3, "variant": "chess"}),
            "variant: expected bashni or russian",
        ),
        (
            json!({"type": "analyse", "id": 4, "variant": "bashni", "position": "W:Wz9"}),
            "position: ",
        ),
        (
            json!({"type": "analyse", "id": 5, "variant": "bashni", "lines": 9}),
            "lines: from 1 to 5, not 9",
        ),
        (
            json!({"type": "analyse", "id": 6, "variant": "bashni", "movetime_ms": 100000}),
            "movetime_ms: from 1 to 30000",
        ),
        (
            json!({"type": "analyse", "id": 7, "variant": "bashni", "depth": 0}),
            "depth: from 1 to 64",
        ),
        (
            json!({"type": "analyse", "id": 8, "variant": "bashni", "colour": "red"}),
            "unknown field `colour`",
        ),
        (
            json!({"type": "analyse", "id": 9, "variant": "bashni", "moves": ["c3-d4", "c3-d4"]}),
            "moves[1]: `c3-d4` is illegal",
        ),
    ];
    for (sent, expected) in cases {
        match &sent {
            Value::String(text) => {
                use futures_util::SinkExt;
                socket
                    .send(tokio_tungstenite::tungstenite::Message::Text(
                        text.clone().into(),
                    ))
                    .await?;
            }
            _ => send_json(&mut socket, sent.clone()).await?,
        }
        let error = next_message(&mut socket, Duration::from_secs(5)).await?;
        assert_eq!(error["type"], "error", "{sent} -> {error}");
        assert_eq!(
            error["id"],
            sent.get("id").cloned().unwrap_or(Value::Null),
            "{error}"
        );
        let text = error["error"].as_str().unwrap_or_default();
        assert!(
            text.contains(expected),
            "{sent}: {text:?} says nothing of {expected:?}"
        );
        let code = if expected.starts_with("moves[") {
            "illegal_move"
        } else {
            "bad_request"
        };
        assert_eq!(error["code"], code, "{error}");
    }
    // Still open, and a good request is answered; a position without moves at once.
    send_json(
        &mut socket,
        json!({"type": "analyse", "id": 10, "variant": "russian", "position": "B:Wc3:B"}),
    )
    .await?;
    let answer = next_message(&mut socket, Duration::from_secs(5)).await?;
    assert_eq!(answer["id"], 10, "{answer}");
    assert_eq!(answer["done"], true);
    assert_eq!(answer["reason"], "no_moves");
    assert_eq!(answer["lines"], json!([]));
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_per_client_analysis_limit_applies_to_sockets() -> TestResult {
    let app = memory_app()?;
    let address = serve(&app).await?;
    let mut sockets = Vec::new();
    for _ in 0..3 {
        sockets.push(analysis_socket(address).await?);
    }
    let allowed = app.engines.analyses_per_client;
    assert_eq!(allowed, 2);
    for (n, socket) in sockets.iter_mut().enumerate() {
        send_json(
            socket,
            json!({"type": "analyse", "id": n, "variant": "bashni"}),
        )
        .await?;
        // Each starts (the first takes the one engine, the second waits for it) before the
        // next asks.
        match n {
            0 => app.engines.until(|(free, _, _)| free == 0).await,
            1 => app.engines.until(|(_, _, analyses)| analyses == 1).await,
            _ => {}
        }
    }
    let first = next_message(&mut sockets[0], Duration::from_secs(5)).await?;
    assert_eq!(
        (first["type"].clone(), first["id"].clone()),
        (json!("analysis"), json!(0))
    );
    let refused = next_message(&mut sockets[2], Duration::from_secs(5)).await?;
    assert_eq!(refused["type"], "error", "{refused}");
    assert_eq!(refused["id"], 2);
    assert_eq!(refused["code"], "too_many");
    // Closing a socket stops its analysis and frees its place.
    drop(sockets.remove(0));
    let waited = next_message(&mut sockets[0], Duration::from_secs(5)).await?;
    assert_eq!(
        (waited["type"].clone(), waited["id"].clone()),
        (json!("analysis"), json!(1))
    );
    // Once it is stopped, the engine is free for the third.
    send_json(&mut sockets[0], json!({"type": "stop"})).await?;
    until_done(&mut sockets[0], 1).await?;
    send_json(
        &mut sockets[1],
        json!({"type": "analyse", "id": 3, "variant": "bashni", "movetime_ms": 50}),
    )
    .await?;
    let again = next_message(&mut sockets[1], Duration::from_secs(5)).await?;
    assert_eq!(
        (again["type"].clone(), again["id"].clone()),
        (json!("analysis"), json!(3)),
        "{again}"
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_analysis_gives_its_engine_to_a_game() -> TestResult {
    let app = memory_app()?;
    let address = serve(&app).await?;
    let mut socket = analysis_socket(address).await?;
    send_json(
        &mut socket,
        json!({"type": "analyse", "id": 1, "variant": "bashni"}),
    )
    .await?;
    next_message(&mut socket, Duration::from_secs(5)).await?;
    // The one engine is busy: the engine's first move in this game must wait for it.
    app.settings
        .time
        .advance(bashni_server::analysis::YIELD_TO_GAMES_AFTER);
    let (id, _, _) = create(
        &app,
        json!({"variant": "bashni", "mode": "engine", "level": 1, "color": "black"}),
    )
    .await?;
    let messages = until_done(&mut socket, 1).await?;
    let last = messages.last().ok_or("no final message")?;
    assert_eq!(last["reason"], "engine_needed", "{last}");
    let state = wait_for(&app, &id, |s| {
        s["moves"].as_array().map(Vec::len) == Some(1)
    })
    .await?;
    assert_eq!(state["turn"], "black");
    Ok(())
}
