//! Small messages on the game socket: a move's update carries the move's notation and what
//! changed, not positions the client can derive, so it stays under 500 bytes, and a move
//! pair reaches both seats in under 2 KB even without compression. Merged in order, the
//! updates give the state the HTTP API states.

mod common;

use common::*;
use serde_json::{Value, json};

/// Opens the game's socket and binds it to the seat of `token`; returns the socket and the
/// seat's whole state.
async fn seat_socket(
    address: std::net::SocketAddr,
    id: &str,
    token: &str,
) -> Result<(Socket, Value), Box<dyn std::error::Error>> {
    let url = format!("ws://{address}/api/games/{id}/ws?bind=1");
    let (mut socket, _) = tokio_tungstenite::connect_async(&url).await?;
    send_json(
        &mut socket,
        json!({"type": "seat", "id": 0, "token": token}),
    )
    .await?;
    next_json(&mut socket, "ack").await?;
    let state = next_json(&mut socket, "state").await?["state"].clone();
    Ok((socket, state))
}

/// Plays the first of the game's legal moves with the seat of `token`.
async fn play_first_legal(
    app: &std::sync::Arc<bashni_server::App>,
    id: &str,
    token: &str,
) -> Result<(), Box<dyn std::error::Error>> {
    let (_, state) = call(app, "GET", &format!("/api/games/{id}"), None, None).await?;
    let legal = legal_texts(&state);
    play(app, id, token, legal.first().ok_or("no legal move")?).await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_update_is_small_and_merges_into_the_whole_state() -> TestResult {
    let app = memory_app()?;
    let (id, white_token, created) = create(
        &app,
        json!({"variant": "bashni", "mode": "friend", "color": "white", "name": "Anna",
               "time": {"minutes": 5, "increment_s": 3}}),
    )
    .await?;
    let invite = created["invite_url"].as_str().ok_or("no invite")?;
    let invite = invite.rsplit('/').next().ok_or("no invite code")?;
    let body = json!({"invite": invite, "name": "Boris"}).to_string();
    let (_, joined) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/join"),
        None,
        Some(&body),
    )
    .await?;
    let black_token = joined["token"].as_str().ok_or("no token")?.to_string();
    let token_of = |ply: usize| {
        if ply.is_multiple_of(2) {
            &white_token
        } else {
            &black_token
        }
    };
    for ply in 0..30 {
        play_first_legal(&app, &id, token_of(ply)).await?;
    }
    let address = serve(&app).await?;
    let (mut white, mut white_state) = seat_socket(address, &id, &white_token).await?;
    let (mut black, mut black_state) = seat_socket(address, &id, &black_token).await?;
    // The whole state leaves out what the client derives.
    assert!(white_state.get("position").is_none(), "{white_state}");
    assert!(white_state["moves"][0].get("after").is_none());
    assert!(
        white_state["legal_moves"][0].is_string(),
        "{}",
        white_state["legal_moves"]
    );
    let mut pair = 0;
    for ply in 30..32 {
        play_first_legal(&app, &id, token_of(ply)).await?;
        for (socket, seen) in [
            (&mut white, &mut white_state),
            (&mut black, &mut black_state),
        ] {
            // Who is online may change first (the other seat's socket opened): merged too.
            let mut update = next_json(socket, "update").await?;
            while update["update"]["moves"]
                .as_array()
                .is_some_and(Vec::is_empty)
            {
                *seen = merged(seen, &update["update"]);
                update = next_json(socket, "update").await?;
            }
            let size = update.to_string().len();
            eprintln!(
                "the update of move {} on one seat's socket: {size} bytes",
                ply + 1
            );
            assert!(size < 500, "{size} bytes: {update}");
            pair += size;
            assert_eq!(update["update"]["moves"].as_array().map(Vec::len), Some(1));
            assert!(
                update["update"].get("white").is_none(),
                "unchanged fields stay out: {update}"
            );
            *seen = merged(seen, &update["update"]);
        }
    }
    eprintln!("a move pair at ply 30, both seats: {pair} bytes");
    assert!(pair < 2000, "{pair} bytes");
    // What the sockets said, merged in order, is the state the API states.
    for (seen, token) in [(&white_state, &white_token), (&black_state, &black_token)] {
        let (_, state) = call(&app, "GET", &format!("/api/games/{id}"), Some(token), None).await?;
        assert_eq!(move_texts(seen), move_texts(&state));
        assert_eq!(legal_texts(seen), legal_texts(&state));
        for field in [
            "version",
            "turn",
            "ply",
            "you",
            "must_capture",
            "may_offer_draw",
            "draw_offer",
        ] {
            assert_eq!(seen[field], state[field], "{field}");
        }
        let clock = |s: &Value, side: &str| s["clock"][side].as_i64().unwrap_or(-1);
        assert_eq!(seen["clock"]["running"], state["clock"]["running"]);
        // The stopped clock is exact; the running one has run on since the update.
        let stopped = if state["clock"]["running"] == "white" {
            "black_ms"
        } else {
            "white_ms"
        };
        assert_eq!(clock(seen, stopped), clock(&state, stopped));
    }
    Ok(())
}
