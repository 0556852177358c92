//! The HTTP API and the WebSocket, driven as a client would.

mod common;

use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;
use bashni_server::App;
use common::*;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};

/// Every game action says the ply it was made for: a move must, and an action made for
/// another ply is refused with `stale` and the state now, over HTTP and the socket alike.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_action_made_for_another_ply_is_refused_with_the_state_now() -> TestResult {
    let app = memory_app()?;
    let (id, token, answer) = create(&app, json!({"variant": "russian", "mode": "local"})).await?;
    assert_eq!(answer["state"]["ply"], 0);
    let path = format!("/api/games/{id}/move");
    let (status, error) = call(
        &app,
        "POST",
        &path,
        Some(&token),
        Some(r#"{"move":"c3-d4"}"#),
    )
    .await?;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{error}");
    assert!(
        error["error"]
            .as_str()
            .is_some_and(|e| e.starts_with("ply: missing")),
        "{error}"
    );
    let (status, state) = play_at(&app, &id, &token, "c3-d4", 0).await?;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(state["ply"], 1);
    // Shown ply 0 still, White's g3-h4 would be legal after Black's answer as well.
    let (status, _) = play_at(&app, &id, &token, "f6-g5", 1).await?;
    assert_eq!(status, StatusCode::OK);
    let (status, error) = play_at(&app, &id, &token, "g3-h4", 0).await?;
    assert_eq!(status, StatusCode::CONFLICT, "{error}");
    assert_eq!(error["code"], "stale");
    assert_eq!(error["state"]["ply"], 2);
    assert_eq!(error["state"]["you"], "both");
    // The other actions may say their ply, and are refused the same way when it is old.
    let resign = format!("/api/games/{id}/resign");
    let (status, error) = call(&app, "POST", &resign, Some(&token), Some(r#"{"ply":1}"#)).await?;
    assert_eq!(
        (status, error["code"].clone()),
        (StatusCode::CONFLICT, json!("stale"))
    );
    let (status, error) = call(
        &app,
        "POST",
        &resign,
        Some(&token),
        Some(r#"{"type":"abort"}"#),
    )
    .await?;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{error}");
    let (status, error) = call(&app, "POST", &resign, Some(&token), Some(r#"{"plies":2}"#)).await?;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{error}");
    assert!(
        error["error"]
            .as_str()
            .is_some_and(|e| e.starts_with("plies:")),
        "{error}"
    );
    let (_, state) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await?;
    assert_eq!(move_texts(&state), ["c3-d4", "f6-g5"]);
    assert!(state["result"].is_null());
    let (status, state) = call(&app, "POST", &resign, Some(&token), Some(r#"{"ply":2}"#)).await?;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(state["result"]["code"], "resignation");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_against_the_engine_goes_on_move_by_move() -> TestResult {
    let app = memory_app()?;
    let (id, token, answer) = create(
        &app,
        json!({"variant": "bashni", "mode": "engine", "level": 1, "color": "white", "name": "Anna"}),
    )
    .await?;
    assert_eq!(answer["seat"], "white");
    assert_eq!(answer["state"]["you"], "white");
    assert_eq!(answer["state"]["black"]["kind"], "engine");
    assert_eq!(
        answer["state"]["legal_moves"].as_array().map(Vec::len),
        Some(7)
    );
    let (status, state) = play(&app, &id, &token, "c3-d4").await?;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(move_texts(&state), ["c3-d4"]);
    let state = wait_for(&app, &id, |s| {
        s["moves"].as_array().map(Vec::len) == Some(2)
    })
    .await?;
    assert_eq!(state["turn"], "white");
    assert_eq!(state["engine_thinking"], false);
    // The engine's move is legal: it reads back through the rules.
    let second = &state["moves"][1];
    assert_eq!(second["color"], "black");
    // Take back: both the engine's move and ours go.
    let (status, state) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/takeback"),
        Some(&token),
        Some("{}"),
    )
    .await?;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert!(move_texts(&state).is_empty());
    assert_eq!(state["turn"], "white");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_moves_first_when_the_person_takes_black() -> TestResult {
    let app = memory_app()?;
    let (id, _, answer) = create(
        &app,
        json!({"variant": "russian", "mode": "engine", "level": 1, "color": "black"}),
    )
    .await?;
    assert_eq!(answer["seat"], "black");
    let state = wait_for(&app, &id, |s| {
        s["moves"].as_array().map(Vec::len) == Some(1)
    })
    .await?;
    assert_eq!(state["turn"], "black");
    assert_eq!(state["moves"][0]["color"], "white");
    Ok(())
}

#[tokio::test]
async fn an_illegal_move_is_refused_with_its_reason_and_changes_nothing() -> TestResult {
    let app = memory_app()?;
    let (id, token, answer) = create(&app, json!({"variant": "russian", "mode": "local"})).await?;
    let version = answer["state"]["version"].clone();
    let (status, error) = play(&app, &id, &token, "c3-e5").await?;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(error["code"], "illegal_move");
    assert!(
        error["error"].as_str().is_some_and(|e| e.contains("c3-e5")),
        "{error}"
    );
    assert_eq!(error["legal"].as_array().map(Vec::len), Some(7));
    let (status, error) = play(&app, &id, &token, "").await?;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{error}");
    let (_, state) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await?;
    assert_eq!(state["version"], version);
    assert!(move_texts(&state).is_empty());
    Ok(())
}

#[tokio::test]
async fn seats_need_their_own_token() -> TestResult {
    let app = memory_app()?;
    let (id, white, answer) = create(
        &app,
        json!({"variant": "bashni", "mode": "friend", "name": "Anna"}),
    )
    .await?;
    let invite_url = answer["invite_url"]
        .as_str()
        .ok_or("no invite")?
        .to_string();
    let invite = invite_url.rsplit('/').next().ok_or("bad invite")?;
    // Nobody can move before the second player joins.
    let (status, _) = play(&app, &id, &white, "c3-d4").await?;
    assert_eq!(status, StatusCode::CONFLICT);
    // A wrong invite is refused; the right one gives Black's seat once.
    let join = |code: &str| json!({"invite": code, "name": "Boris"}).to_string();
    let (status, _) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/join"),
        None,
        Some(&join("00")),
    )
    .await?;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, joined) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/join"),
        None,
        Some(&join(invite)),
    )
    .await?;
    assert_eq!(status, StatusCode::OK, "{joined}");
    assert_eq!(joined["seat"], "black");
    let black = joined["token"].as_str().ok_or("no token")?.to_string();
    assert_eq!(black.len(), 32);
    assert_ne!(black, white);
    let (status, _) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/join"),
        None,
        Some(&join(invite)),
    )
    .await?;
    assert_eq!(status, StatusCode::CONFLICT);
    // Missing and wrong tokens, and the wrong seat, are refused.
    let (status, _) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/move"),
        None,
        Some(r#"{"move":"c3-d4","ply":0}"#),
    )
    .await?;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = play(&app, &id, "0123456789abcdef0123456789abcdef", "c3-d4").await?;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = play(&app, &id, &black, "c3-d4").await?;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, state) = play(&app, &id, &white, "c3-d4").await?;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(state["you"], "white");
    // No answer shows a token: not to a watcher, not to the other seat.
    let (_, watched) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await?;
    let (_, as_black) = call(&app, "GET", &format!("/api/games/{id}"), Some(&black), None).await?;
    assert_eq!(as_black["you"], "black");
    assert_eq!(watched["you"], Value::Null);
    for text in [watched.to_string(), as_black.to_string(), state.to_string()] {
        assert!(!text.contains(&white) && !text.contains(&black));
    }
    let (_, list) = call(&app, "GET", "/api/games", None, None).await?;
    assert!(!list.to_string().contains(&white));
    assert_eq!(list["games"][0]["white"], "Anna");
    assert_eq!(list["games"][0]["black"], "Boris");
    Ok(())
}

#[tokio::test]
async fn resignation_and_draws_end_the_game_with_their_reason() -> TestResult {
    let app = memory_app()?;
    let (id, token, _) = create(&app, json!({"variant": "bashni", "mode": "local"})).await?;
    let (status, state) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(&token),
        Some("{}"),
    )
    .await?;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(state["result"]["score"], "0-1");
    assert_eq!(state["result"]["code"], "resignation");
    assert_eq!(state["legal_moves"].as_array().map(Vec::len), Some(0));
    let (status, _) = play(&app, &id, &token, "c3-d4").await?;
    assert_eq!(status, StatusCode::CONFLICT);

    // Bashni: a draw by repetition is claimed, not automatic.
    let (id, token, _) = create(
        &app,
        json!({"variant": "bashni", "mode": "local", "position": "White: a1 1, c3 0; Black: h8 1, f6 0; White to move"}),
    )
    .await?;
    let draw = |action: &str| json!({"action": action}).to_string();
    let (status, _) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/draw"),
        Some(&token),
        Some(&draw("claim")),
    )
    .await?;
    assert_eq!(status, StatusCode::CONFLICT);
    let mut state = Value::Null;
    for _ in 0..2 {
        for text in ["a1-b2", "h8-g7", "b2-a1", "g7-h8"] {
            let (status, answer) = play(&app, &id, &token, text).await?;
            assert_eq!(status, StatusCode::OK, "{answer}");
            state = answer;
        }
    }
    assert_eq!(state["result"], Value::Null);
    assert!(state["can_claim_draw"].as_str().is_some(), "{state}");
    let (status, state) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/draw"),
        Some(&token),
        Some(&draw("claim")),
    )
    .await?;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(state["result"]["score"], "1/2-1/2");
    assert_eq!(state["result"]["code"], "repetition");

    // An offer and its acceptance.
    let (id, token, _) = create(&app, json!({"variant": "bashni", "mode": "local"})).await?;
    let (status, state) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/draw"),
        Some(&token),
        Some(&draw("offer")),
    )
    .await?;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(state["draw_offer"], "white");
    let (_, state) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/draw"),
        Some(&token),
        Some(&draw("accept")),
    )
    .await?;
    assert_eq!(state["result"]["code"], "agreement");
    let (status, _) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/draw"),
        Some(&token),
        Some(&draw("dance")),
    )
    .await?;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    // Russian 6.1.8.1: no offer before the 20th move.
    let (id, token, _) = create(&app, json!({"variant": "russian", "mode": "local"})).await?;
    let (status, error) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/draw"),
        Some(&token),
        Some(&draw("offer")),
    )
    .await?;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(
        error["error"]
            .as_str()
            .is_some_and(|e| e.contains("6.1.8.1"))
    );
    Ok(())
}

#[tokio::test]
async fn malformed_requests_are_refused_with_what_is_wrong() -> TestResult {
    let app = memory_app()?;
    let cases = [
        ("/api/games", "{", StatusCode::BAD_REQUEST),
        (
            "/api/games",
            r#"{"variant":"chess","mode":"local"}"#,
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/games",
            r#"{"variant":"bashni","mode":"moon"}"#,
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/games",
            r#"{"variant":"bashni","mode":"engine","level":9}"#,
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/games",
            r#"{"variant":"bashni","mode":"local","extra":1}"#,
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/games",
            r#"{"variant":"bashni","mode":"local","time":{"minutes":-1}}"#,
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/games",
            r#"{"variant":"bashni","mode":"local","position":"White: z9 0"}"#,
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/position",
            r#"{"variant":"bashni","towers":{"c3":"wxq"}}"#,
            StatusCode::BAD_REQUEST,
        ),
        (
            "/api/games/nosuchgame/move",
            r#"{"move":"c3-d4","ply":0}"#,
            StatusCode::NOT_FOUND,
        ),
    ];
    for (uri, body, expected) in cases {
        let (status, answer) = call(&app, "POST", uri, None, Some(body)).await?;
        assert_eq!(status, expected, "{uri} {body}: {answer}");
        assert!(
            answer["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{answer}"
        );
    }
    let name = "x".repeat(41);
    let (status, _) = call(
        &app,
        "POST",
        "/api/games",
        None,
        Some(&json!({"variant":"bashni","mode":"local","name":name}).to_string()),
    )
    .await?;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let huge = format!(
        r#"{{"variant":"bashni","mode":"local","name":"{}"}}"#,
        "x".repeat(300_000)
    );
    let (status, answer) = call(&app, "POST", "/api/games", None, Some(&huge)).await?;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{answer}");
    let (status, _) = call(&app, "GET", "/api/nothing", None, None).await?;
    assert_eq!(status, StatusCode::NOT_FOUND);
    Ok(())
}

#[tokio::test]
async fn names_are_data_and_the_page_is_served() -> TestResult {
    let app = memory_app()?;
    let name = "<script>alert(1)</script>";
    let (_, _, answer) = create(
        &app,
        json!({"variant": "bashni", "mode": "local", "name": name}),
    )
    .await?;
    assert_eq!(answer["state"]["white"]["name"], name);
    let (status, page) = call(&app, "GET", "/", None, None).await?;
    assert_eq!(status, StatusCode::OK);
    assert!(
        page.as_str()
            .is_some_and(|p| p.contains("<script type=\"module\""))
    );
    let (status, _) = call(&app, "GET", "/assets/main.js", None, None).await?;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = call(&app, "GET", "/assets/secret.txt", None, None).await?;
    assert_eq!(status, StatusCode::NOT_FOUND);
    Ok(())
}

#[tokio::test]
async fn a_restart_keeps_every_game_and_move() -> TestResult {
    let path = temp_db("restart");
    let (id, token, version) = {
        let app = app_on(&path)?;
        let (id, token, _) = create(
            &app,
            json!({"variant": "bashni", "mode": "local", "time": {"minutes": 5, "increment_s": 3}}),
        )
        .await?;
        for text in ["c3-d4", "f6-g5", "g3-h4"] {
            let (status, answer) = play(&app, &id, &token, text).await?;
            assert_eq!(status, StatusCode::OK, "{answer}");
        }
        let (_, state) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await?;
        (id, token, state["version"].as_u64().ok_or("no version")?)
    };
    let app = app_on(&path)?;
    let (status, state) =
        call(&app, "GET", &format!("/api/games/{id}"), Some(&token), None).await?;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(move_texts(&state), ["c3-d4", "f6-g5", "g3-h4"]);
    assert_eq!(state["you"], "both");
    assert_eq!(state["turn"], "black");
    assert_eq!(state["version"].as_u64(), Some(version));
    // Three seconds were added per move: White has more than 5 minutes.
    assert!(
        state["clock"]["white_ms"]
            .as_i64()
            .is_some_and(|t| t > 300_000),
        "{state}"
    );
    let (status, state) = play(&app, &id, &token, "g5-f4").await?;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert!(state["version"].as_u64().is_some_and(|v| v > version));
    assert_eq!(move_texts(&state).len(), 4);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clock_that_runs_out_loses_the_game() -> TestResult {
    let app = memory_app()?;
    let (id, token, _) = create(
        &app,
        json!({"variant": "russian", "mode": "local", "time": {"minutes": 0.25}}),
    )
    .await?;
    for text in ["c3-d4", "f6-g5"] {
        let (status, answer) = play(&app, &id, &token, text).await?;
        assert_eq!(status, StatusCode::OK, "{answer}");
    }
    let state = wait_for(&app, &id, |s| !s["result"].is_null()).await?;
    assert_eq!(state["result"]["code"], "time");
    assert_eq!(state["result"]["score"], "0-1");
    assert_eq!(state["clock"]["white_ms"], 0);
    assert_eq!(state["clock"]["black_ms"], 15_000);
    let (status, _) = play(&app, &id, &token, "d4-e5").await?;
    assert_eq!(status, StatusCode::CONFLICT);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_clock_runs_until_each_side_has_made_its_first_move() -> TestResult {
    let app = memory_app()?;
    let (id, white, answer) = create(
        &app,
        json!({"variant": "russian", "mode": "friend", "time": {"minutes": 0.25, "increment_s": 1}}),
    )
    .await?;
    assert_eq!(answer["state"]["clock"]["running"], Value::Null);
    let invite = answer["invite_url"].as_str().ok_or("no invite")?;
    let invite = invite.rsplit('/').next().ok_or("bad invite")?;
    let (_, joined) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/join"),
        None,
        Some(&json!({ "invite": invite }).to_string()),
    )
    .await?;
    let black = joined["token"].as_str().ok_or("no token")?.to_string();
    assert_eq!(joined["state"]["clock"]["running"], Value::Null);
    let (_, state) = play(&app, &id, &white, "c3-d4").await?;
    assert_eq!(state["clock"]["running"], Value::Null, "{state}");
    // The first moves are free: while Black thinks about its first move no clock runs.
    app.settings.time.advance(Duration::from_secs(10));
    let (_, state) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await?;
    assert_eq!(state["result"], Value::Null, "{state}");
    assert_eq!(state["clock"]["white_ms"], 15_000);
    assert_eq!(state["clock"]["black_ms"], 15_000);
    let (status, state) = play(&app, &id, &black, "f6-g5").await?;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(state["clock"]["running"], "white");
    assert_eq!(
        state["clock"]["black_ms"], 15_000,
        "no increment for a free move"
    );
    app.settings.time.advance(Duration::from_secs(5));
    let (_, state) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await?;
    assert!(
        state["clock"]["white_ms"]
            .as_i64()
            .is_some_and(|t| t <= 10_000),
        "{state}"
    );
    Ok(())
}

#[tokio::test]
async fn a_game_may_be_aborted_until_both_sides_have_moved() -> TestResult {
    let app = memory_app()?;
    let (id, white, answer) = create(
        &app,
        json!({"variant": "russian", "mode": "friend", "name": "Anna",
               "time": {"minutes": 3, "increment_s": 2}}),
    )
    .await?;
    assert_eq!(answer["state"]["may_abort"], true);
    let invite = answer["invite_url"].as_str().ok_or("no invite")?;
    let invite = invite.rsplit('/').next().ok_or("bad invite")?.to_string();
    let (_, joined) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/join"),
        None,
        Some(&json!({ "invite": invite, "name": "Boris" }).to_string()),
    )
    .await?;
    let black = joined["token"].as_str().ok_or("no token")?.to_string();
    assert_eq!(joined["state"]["may_abort"], true);
    let (_, state) = play(&app, &id, &white, "c3-d4").await?;
    assert_eq!(state["may_abort"], true);
    let (_, watched) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await?;
    assert_eq!(watched["may_abort"], false);
    let abort = |token: Option<&str>| {
        let app = Arc::clone(&app);
        let uri = format!("/api/games/{id}/abort");
        let token = token.map(String::from);
        async move { call(&app, "POST", &uri, token.as_deref(), Some("{}")).await }
    };
    let (status, _) = abort(None).await?;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, state) = abort(Some(&black)).await?;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(
        state["result"],
        json!({"score": "*", "winner": null, "code": "aborted",
               "reason": "Aborted before both sides had moved", "details": {}})
    );
    assert_eq!(state["legal_moves"], json!([]));
    assert_eq!(state["clock"]["running"], Value::Null);
    assert_eq!(state["may_abort"], false);
    let (status, _) = play(&app, &id, &black, "f6-g5").await?;
    assert_eq!(status, StatusCode::CONFLICT);
    let (status, _) = abort(Some(&white)).await?;
    assert_eq!(status, StatusCode::CONFLICT);
    let (_, list) = call(&app, "GET", "/api/games", None, None).await?;
    assert_eq!(list["games"][0]["result"], "*");
    assert_eq!(
        list["games"][0]["reason"],
        "Aborted before both sides had moved"
    );
    let (_, pdn) = call(&app, "GET", &format!("/api/games/{id}/pdn"), None, None).await?;
    let pdn = pdn.as_str().ok_or("PDN is text")?;
    assert!(pdn.contains("[Result \"*\"]"), "{pdn}");
    assert!(
        pdn.contains("[Termination \"Aborted before both sides had moved\"]"),
        "{pdn}"
    );

    // Once both sides have moved, the game can no longer be aborted.
    let (id, token, _) = create(&app, json!({"variant": "russian", "mode": "local"})).await?;
    for text in ["c3-d4", "f6-g5"] {
        play(&app, &id, &token, text).await?;
    }
    let (status, error) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/abort"),
        Some(&token),
        Some("{}"),
    )
    .await?;
    assert_eq!(status, StatusCode::CONFLICT, "{error}");
    assert!(
        error["error"]
            .as_str()
            .is_some_and(|e| e.contains("both sides have moved")),
        "{error}"
    );
    // A record cannot be aborted, and nobody holds a seat in it.
    let (_, uploaded) = call(&app, "POST", "/api/pdn", None, Some(pdn)).await?;
    let record = uploaded["games"][0]["id"].as_str().ok_or("no id")?;
    let (status, _) = call(
        &app,
        "POST",
        &format!("/api/games/{record}/abort"),
        Some(&white),
        Some("{}"),
    )
    .await?;
    assert_eq!(status, StatusCode::FORBIDDEN);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_game_is_aborted_over_the_websocket() -> TestResult {
    let app = memory_app()?;
    let (id, token, _) = create(
        &app,
        json!({"variant": "bashni", "mode": "engine", "level": 1, "color": "black"}),
    )
    .await?;
    // The engine (White) makes its first move; Black has not moved yet.
    wait_for(&app, &id, |s| move_texts(s).len() == 1).await?;
    let address = serve(&app).await?;
    let (mut socket, _) =
        tokio_tungstenite::connect_async(format!("ws://{address}/api/games/{id}/ws")).await?;
    next_json(&mut socket, "state").await?;
    send_json(
        &mut socket,
        json!({"type": "seat", "id": 0, "token": token}),
    )
    .await?;
    next_json(&mut socket, "ack").await?;
    let seated = next_json(&mut socket, "state").await?;
    assert_eq!(seated["state"]["may_abort"], true);
    send_json(&mut socket, json!({"type": "abort", "id": 1})).await?;
    let ack = next_json(&mut socket, "ack").await?;
    assert_eq!(ack["id"], 1);
    let update = next_json(&mut socket, "update").await?;
    assert_eq!(update["update"]["result"]["code"], "aborted");
    assert_eq!(update["update"]["result"]["score"], "*");
    assert_eq!(update["update"]["may_abort"], false);
    send_json(&mut socket, json!({"type": "abort", "id": 2})).await?;
    let error = next_json(&mut socket, "error").await?;
    assert_eq!(
        (error["id"].clone(), error["code"].clone()),
        (json!(2), json!("conflict"))
    );
    Ok(())
}

#[tokio::test]
async fn a_game_downloads_as_pdn_and_uploads_back() -> TestResult {
    let app = memory_app()?;
    let (id, token, _) = create(
        &app,
        json!({"variant": "bashni", "mode": "local", "name": "Anna", "opponent_name": "Boris"}),
    )
    .await?;
    for text in ["c3-d4", "f6-e5", "d4:f6", "g7:e5"] {
        let (status, answer) = play(&app, &id, &token, text).await?;
        assert_eq!(status, StatusCode::OK, "{answer}");
    }
    call(
        &app,
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(&token),
        Some("{}"),
    )
    .await?;
    let (status, pdn) = call(&app, "GET", &format!("/api/games/{id}/pdn"), None, None).await?;
    assert_eq!(status, StatusCode::OK);
    let pdn = pdn.as_str().ok_or("PDN is text")?.to_string();
    assert!(
        pdn.contains("[White \"Anna\"]") && pdn.contains("[GameType \"60\"]"),
        "{pdn}"
    );
    assert!(pdn.contains("[Result \"0-1\"]"), "{pdn}");
    let (status, uploaded) = call(&app, "POST", "/api/pdn", None, Some(&pdn)).await?;
    assert_eq!(status, StatusCode::OK, "{uploaded}");
    let record = uploaded["games"][0]["id"]
        .as_str()
        .ok_or("no id")?
        .to_string();
    let (_, original) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await?;
    let (_, copy) = call(&app, "GET", &format!("/api/games/{record}"), None, None).await?;
    assert_eq!(move_texts(&copy), move_texts(&original));
    assert_eq!(copy["mode"], "record");
    assert_eq!(copy["result"]["score"], "0-1");
    assert_eq!(copy["white"]["name"], "Anna");
    assert_eq!(copy["position"], original["position"]);
    // Why the game ended survives the round trip: in the record's state, in the games list
    // and in its PDN, once.
    assert_eq!(original["result"]["reason"], "White resigned");
    assert_eq!(copy["result"]["reason"], original["result"]["reason"]);
    assert_eq!(copy["result"]["code"], "recorded");
    let (_, list) = call(&app, "GET", &format!("/api/games?ids={record}"), None, None).await?;
    assert_eq!(list["games"][0]["id"], record.as_str());
    assert_eq!(list["games"][0]["reason"], "White resigned");
    let (_, again) = call(&app, "GET", &format!("/api/games/{record}/pdn"), None, None).await?;
    let again = again.as_str().ok_or("PDN is text")?;
    assert_eq!(
        again.matches("[Termination \"White resigned\"]").count(),
        1,
        "{again}"
    );
    assert_eq!(again, pdn, "the record's PDN is the game's");
    // A record whose result nobody explained gets no made-up Termination.
    let bare = "[GameType \"25\"]\n[Result \"1-0\"]\n\n1. c3-d4 f6-g5 1-0\n";
    let (_, uploaded) = call(&app, "POST", "/api/pdn", None, Some(bare)).await?;
    let bare_id = uploaded["games"][0]["id"].as_str().ok_or("no id")?;
    let (_, state) = call(&app, "GET", &format!("/api/games/{bare_id}"), None, None).await?;
    assert_eq!(state["result"]["reason"], "as recorded");
    let (_, text) = call(
        &app,
        "GET",
        &format!("/api/games/{bare_id}/pdn"),
        None,
        None,
    )
    .await?;
    assert!(!text.to_string().contains("Termination"), "{text}");
    let (status, _) = play(&app, &record, &token, "c3-d4").await?;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // Without GameType a record is of the game it replays under: here only Bashni keeps a
    // checker on f6 after the capture.
    let untagged = "1. c3-d4 f6-e5 2. d4:f6 g7:e5 3. b2-c3 f6-g5 *\n";
    let (_, uploaded) = call(&app, "POST", "/api/pdn", None, Some(untagged)).await?;
    let untagged_id = uploaded["games"][0]["id"].as_str().ok_or("no id")?;
    assert_eq!(
        uploaded["games"][0]["warnings"],
        json!(["no GameType; read as Bashni: replays only under its rules"])
    );
    let (_, state) = call(
        &app,
        "GET",
        &format!("/api/games/{untagged_id}"),
        None,
        None,
    )
    .await?;
    assert_eq!(state["variant"], "bashni", "{state}");
    // Games without notes have none in their state.
    assert!(state.get("notes").is_none(), "{state}");
    // Comments and variations are kept: shown with the game, and downloaded again.
    let annotated = "[GameType \"25\"]\n\n{A club game} 1. c3-d4 {the centre} f6-e5 \
                     (1... fg5 2. dc5 {or} (2. gh4)) 2. d4:f6 g7:e5 *\n";
    let (_, uploaded) = call(&app, "POST", "/api/pdn", None, Some(annotated)).await?;
    let annotated_id = uploaded["games"][0]["id"].as_str().ok_or("no id")?;
    assert!(uploaded["games"][0].get("warnings").is_none(), "{uploaded}");
    let (_, state) = call(
        &app,
        "GET",
        &format!("/api/games/{annotated_id}"),
        None,
        None,
    )
    .await?;
    let notes = &state["notes"];
    assert_eq!(notes["intro"], json!(["A club game"]), "{state}");
    assert_eq!(
        notes["after"][0],
        json!({"ply": 1, "comments": ["the centre"]})
    );
    let line = &notes["after"][1]["variations"][0]["moves"];
    assert_eq!(line[0]["text"], "f6-g5", "{notes}");
    assert_eq!(line[1]["comments"], json!(["or"]), "{notes}");
    assert_eq!(line[1]["variations"][0]["moves"][0]["text"], "g3-h4");
    let (_, text) = call(
        &app,
        "GET",
        &format!("/api/games/{annotated_id}/pdn"),
        None,
        None,
    )
    .await?;
    let text = text.as_str().ok_or("PDN text")?.replace('\n', " ");
    assert!(
        text.contains(
            "{A club game} 1. c3-d4 {the centre} 1... f6-e5 (1... f6-g5 2. d4-c5 {or} (2. g3-h4))"
        ),
        "{text}"
    );
    // A broken record is reported with its place; the good game before it is kept.
    let broken = format!("{pdn}\n[GameType \"60\"]\n1. c3-d4 c3-d4 *\n");
    let (_, uploaded) = call(&app, "POST", "/api/pdn", None, Some(&broken)).await?;
    assert!(uploaded["games"][0]["id"].is_string());
    assert!(
        uploaded["games"][1]["error"]
            .as_str()
            .is_some_and(|e| e.contains("game 2")),
        "{uploaded}"
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn positions_are_checked_and_analysed() -> TestResult {
    let app = memory_app()?;
    let body = json!({"variant": "bashni", "towers": {"c3": "wbb", "d4": "b", "g7": "b"}, "turn": "white"});
    let (status, answer) =
        call(&app, "POST", "/api/position", None, Some(&body.to_string())).await?;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["position"]["towers"]["c3"], "wbb");
    assert_eq!(answer["legal_moves"][0]["text"], "c3:e5");
    assert_eq!(answer["legal_moves"][0]["captured"], json!(["d4"]));
    // Squares may be given by number (c3 is 22, d4 is 18, g7 is 8); a wrong one is named.
    let numbered =
        json!({"variant": "bashni", "towers": {"22": "wbb", "18": "b", "8": "b"}, "turn": "white"});
    let (status, same) = call(
        &app,
        "POST",
        "/api/position",
        None,
        Some(&numbered.to_string()),
    )
    .await?;
    assert_eq!(status, StatusCode::OK, "{same}");
    assert_eq!(same["position"], answer["position"]);
    let wrong = json!({"variant": "bashni", "towers": {"33": "w"}, "turn": "white"});
    let (status, refused) = call(
        &app,
        "POST",
        "/api/position",
        None,
        Some(&wrong.to_string()),
    )
    .await?;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        refused["error"],
        "towers: `33` is not a square number (1-32)"
    );
    // A depth, not a time: two lines are there however busy the machine is.
    let body = json!({"variant": "russian", "position": "start", "depth": 3, "movetime_ms": 5000, "lines": 2});
    let (status, answer) =
        call(&app, "POST", "/api/analyse", None, Some(&body.to_string())).await?;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["lines"].as_array().map(Vec::len), Some(2));
    assert!(answer["depth"].as_u64().is_some_and(|d| d >= 1));
    let first = answer["lines"][0]["moves"][0].as_str().ok_or("no move")?;
    let (_, legal) = call(
        &app,
        "POST",
        "/api/position",
        None,
        Some(&json!({"variant": "russian"}).to_string()),
    )
    .await?;
    let legal: Vec<&str> = legal["legal_moves"]
        .as_array()
        .ok_or("no moves")?
        .iter()
        .filter_map(|m| m["text"].as_str())
        .collect();
    assert!(legal.contains(&first), "{first} in {legal:?}");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_websocket_tells_watchers_and_takes_moves() -> TestResult {
    let app = memory_app()?;
    let (id, token, _) = create(&app, json!({"variant": "bashni", "mode": "local"})).await?;
    let address = serve(&app).await?;
    let url = format!("ws://{address}/api/games/{id}/ws");
    let (mut player, _) = tokio_tungstenite::connect_async(&url).await?;
    let (mut watcher, _) = tokio_tungstenite::connect_async(&url).await?;
    let first = next_json(&mut watcher, "state").await?;
    assert!(move_texts(&first["state"]).is_empty());
    next_json(&mut player, "state").await?;
    let send =
        |value: Value| tokio_tungstenite::tungstenite::Message::Text(value.to_string().into());
    player
        .send(send(
            json!({"type": "move", "id": 1, "token": token, "move": "c3-d4", "ply": 0}),
        ))
        .await?;
    let ack = next_json(&mut player, "ack").await?;
    assert_eq!(ack["id"], 1);
    let seen = next_json(&mut watcher, "update").await?;
    assert_eq!(move_texts(&seen["update"]), ["c3-d4"]);
    assert_eq!(seen["update"]["moves_from"], 0);
    assert!(seen["update"].get("start").is_none());
    // The move was stored before the acknowledgement.
    let (_, state) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await?;
    assert_eq!(move_texts(&state), ["c3-d4"]);
    player
        .send(send(
            json!({"type": "move", "id": 2, "token": token, "move": "a1-h8", "ply": 1}),
        ))
        .await?;
    let error = next_json(&mut player, "error").await?;
    assert_eq!(error["id"], 2);
    assert_eq!(error["code"], "illegal_move");
    player
        .send(send(
            json!({"type": "move", "id": 3, "token": "nope", "move": "f6-g5", "ply": 1}),
        ))
        .await?;
    assert_eq!(next_json(&mut player, "error").await?["code"], "forbidden");
    player
        .send(tokio_tungstenite::tungstenite::Message::Text(
            "not json".into(),
        ))
        .await?;
    assert_eq!(
        next_json(&mut player, "error").await?["code"],
        "bad_request"
    );
    player.send(send(json!({"type": "dance", "id": 4}))).await?;
    assert_eq!(
        next_json(&mut player, "error").await?["code"],
        "bad_request"
    );
    Ok(())
}

/// Reads what the server sends on a raw connection until it closes or goes quiet.
async fn read_some(stream: &mut tokio::net::TcpStream) -> String {
    use tokio::io::AsyncReadExt;
    let mut buffer = vec![0u8; 4096];
    match tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buffer)).await {
        Ok(Ok(n)) => String::from_utf8_lossy(&buffer[..n]).into_owned(),
        _ => String::new(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn too_many_connections_from_one_address_are_refused() -> TestResult {
    use tokio::io::AsyncWriteExt;
    let app = memory_app()?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let address = listener.local_addr()?;
    tokio::spawn(bashni_server::serve(listener, Arc::clone(&app)));
    let mut open = Vec::new();
    for _ in 0..8 {
        open.push(tokio::net::TcpStream::connect(address).await?);
    }
    let mut ninth = tokio::net::TcpStream::connect(address).await?;
    let refusal = read_some(&mut ninth).await;
    assert!(refusal.starts_with("HTTP/1.1 429"), "{refusal}");
    assert!(refusal.contains("too many open connections"), "{refusal}");
    // Closing one frees a place, once the server has seen it closed: until then a new
    // connection is still refused (each refusal is the server's answer, not a wait).
    drop(open.pop());
    let mut answers = Vec::new();
    for _ in 0..1000 {
        let mut again = tokio::net::TcpStream::connect(address).await?;
        again
            .write_all(b"GET /api/health HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n")
            .await?;
        let answer = read_some(&mut again).await;
        let taken = answer.starts_with("HTTP/1.1 200");
        answers.push(answer);
        if taken {
            break;
        }
    }
    let last = answers.last().ok_or("no answer")?;
    assert!(last.starts_with("HTTP/1.1 200"), "{last}");
    assert!(
        answers
            .iter()
            .all(|a| a.starts_with("HTTP/1.1 200") || a.starts_with("HTTP/1.1 429")),
        "{answers:?}"
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_socket_messages_is_slowed_down() -> TestResult {
    let app = memory_app()?;
    let (id, _, _) = create(&app, json!({"variant": "bashni", "mode": "local"})).await?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let address = listener.local_addr()?;
    tokio::spawn(bashni_server::serve(listener, Arc::clone(&app)));
    let (mut socket, _) =
        tokio_tungstenite::connect_async(format!("ws://{address}/api/games/{id}/ws")).await?;
    let flood = 60;
    for n in 0..flood {
        let message = json!({"type": "draw", "id": n, "token": "nope", "action": "offer"});
        socket
            .send(tokio_tungstenite::tungstenite::Message::Text(
                message.to_string().into(),
            ))
            .await?;
    }
    let mut too_many = 0;
    let mut answered = Vec::new();
    while answered.len() < flood as usize {
        let message = tokio::time::timeout(Duration::from_secs(5), socket.next())
            .await?
            .ok_or("socket closed")??;
        let value: Value = serde_json::from_str(message.to_text()?)?;
        if value["type"] == "error" {
            // Issue "abuse, round two", finding 4: every refusal names its message.
            answered.push(value["id"].as_u64().ok_or(format!("no id: {value}"))?);
            if value["code"] == "too_many" {
                too_many += 1;
            }
        }
    }
    assert!(too_many >= flood - 30, "{too_many} of {flood} refused");
    answered.sort_unstable();
    assert_eq!(answered, (0..flood).collect::<Vec<u64>>());
    Ok(())
}

#[tokio::test]
async fn an_open_draw_offer_survives_a_restart() -> TestResult {
    let path = temp_db("offer");
    let draw = |action: &str| json!({ "action": action }).to_string();
    let (id, token) = {
        let app = app_on(&path)?;
        let (id, token, _) = create(&app, json!({"variant": "bashni", "mode": "local"})).await?;
        let (status, state) = call(
            &app,
            "POST",
            &format!("/api/games/{id}/draw"),
            Some(&token),
            Some(&draw("offer")),
        )
        .await?;
        assert_eq!(status, StatusCode::OK, "{state}");
        let (status, state) = play(&app, &id, &token, "c3-d4").await?;
        assert_eq!(status, StatusCode::OK, "{state}");
        assert_eq!(state["draw_offer"], "white");
        (id, token)
    };
    let app = app_on(&path)?;
    let (_, state) = call(&app, "GET", &format!("/api/games/{id}"), Some(&token), None).await?;
    assert_eq!(state["draw_offer"], "white");
    // Black declines by moving; White offered last, so (1.13.3) may not offer again yet.
    let (status, state) = play(&app, &id, &token, "f6-g5").await?;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(state["draw_offer"], Value::Null);
    drop(app);
    let app = app_on(&path)?;
    let (_, state) = call(&app, "GET", &format!("/api/games/{id}"), Some(&token), None).await?;
    assert_eq!(state["may_offer_draw"], false, "{state}");
    let (status, error) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/draw"),
        Some(&token),
        Some(&draw("offer")),
    )
    .await?;
    assert_eq!(status, StatusCode::CONFLICT, "{error}");
    assert!(
        error["error"]
            .as_str()
            .is_some_and(|e| e.contains("1.13.3")),
        "{error}"
    );
    Ok(())
}

#[tokio::test]
async fn text_goes_out_compressed_when_the_browser_accepts_it() -> TestResult {
    use axum::body::Body;
    use axum::http::Request;
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let app = memory_app()?;
    let (id, _, _) = create(&app, json!({"variant": "bashni", "mode": "local"})).await?;
    for (uri, encoding) in [
        ("/assets/game.js", "gzip"),
        ("/assets/game.js", "br"),
        ("/", "gzip"),
        (&format!("/api/games/{id}") as &str, "gzip"),
    ] {
        let plain = bashni_server::router(Arc::clone(&app))
            .oneshot(Request::builder().uri(uri).body(Body::empty())?)
            .await?;
        assert!(plain.headers().get("content-encoding").is_none());
        let plain = plain.into_body().collect().await?.to_bytes().len();
        let packed = bashni_server::router(Arc::clone(&app))
            .oneshot(
                Request::builder()
                    .uri(uri)
                    .header("accept-encoding", encoding)
                    .body(Body::empty())?,
            )
            .await?;
        assert_eq!(
            packed
                .headers()
                .get("content-encoding")
                .and_then(|v| v.to_str().ok()),
            Some(encoding),
            "{uri}"
        );
        let packed = packed.into_body().collect().await?.to_bytes().len();
        // Large texts shrink to less than half; small ones still shrink.
        let limit = if plain > 4096 { plain / 2 } else { plain };
        assert!(
            packed < limit,
            "{uri} {encoding}: {packed} of {plain} bytes"
        );
    }
    Ok(())
}

/// Sends a GET with `headers`; answers the status, the headers and the body as text.
async fn get_with(
    app: &Arc<bashni_server::App>,
    uri: &str,
    headers: &[(&str, &str)],
) -> Result<(StatusCode, axum::http::HeaderMap, String), Box<dyn std::error::Error>> {
    use axum::body::Body;
    use axum::http::Request;
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let mut request = Request::builder().uri(uri);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let answer = bashni_server::router(Arc::clone(app))
        .oneshot(request.body(Body::empty())?)
        .await?;
    let status = answer.status();
    let headers = answer.headers().clone();
    let body = answer.into_body().collect().await?.to_bytes();
    Ok((status, headers, String::from_utf8_lossy(&body).into_owned()))
}

#[tokio::test]
async fn the_page_files_are_kept_for_good_under_hashed_names_and_the_shell_is_checked() -> TestResult
{
    let app = memory_app()?;
    let (status, headers, shell) = get_with(&app, "/", &[]).await?;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["cache-control"], "no-cache");
    let etag = headers["etag"].to_str()?.to_string();
    // The shell names its script and style by hashed names.
    let hashed: Vec<String> = shell
        .split("/assets/")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .filter(|name| name.matches('.').count() == 2)
        .map(str::to_string)
        .collect();
    assert!(hashed.iter().any(|n| n.starts_with("main.")), "{shell}");
    assert!(hashed.iter().any(|n| n.starts_with("style.")), "{shell}");
    for name in &hashed {
        let (status, headers, _) = get_with(&app, &format!("/assets/{name}"), &[]).await?;
        assert_eq!(status, StatusCode::OK, "{name}");
        assert!(
            headers["cache-control"].to_str()?.contains("immutable"),
            "{name}"
        );
    }
    // The plain names are checked on each use.
    let (_, headers, _) = get_with(&app, "/assets/main.js", &[]).await?;
    assert_eq!(headers["cache-control"], "no-cache");
    // A browser that has the shell gets 304 and no body.
    let (status, _, body) = get_with(&app, "/", &[("if-none-match", &etag)]).await?;
    assert_eq!(status, StatusCode::NOT_MODIFIED);
    assert!(body.is_empty());
    let (status, _, _) = get_with(&app, "/", &[("if-none-match", "\"other\"")]).await?;
    assert_eq!(status, StatusCode::OK);
    Ok(())
}

#[tokio::test]
async fn an_unknown_page_says_so_in_html_and_an_unknown_api_address_in_json() -> TestResult {
    let app = memory_app()?;
    let (status, page) = call(&app, "GET", "/no/such/page", None, None).await?;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let page = page.as_str().unwrap_or_default().to_string();
    // The shell, whose script says so in the visitor's language.
    assert!(page.contains("importmap"), "{page}");
    let (status, answer) = call(&app, "GET", "/api/no/such/thing", None, None).await?;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(answer["code"], "not_found");
    Ok(())
}

#[tokio::test]
async fn the_games_list_counts_moves_as_the_rulebooks_do() -> TestResult {
    let app = memory_app()?;
    let (id, token, _) = create(&app, json!({"variant": "bashni", "mode": "local"})).await?;
    for text in ["c3-d4", "f6-g5", "g3-h4"] {
        let (status, answer) = play(&app, &id, &token, text).await?;
        assert_eq!(status, StatusCode::OK, "{answer}");
    }
    let (_, list) = call(&app, "GET", "/api/games", None, None).await?;
    assert_eq!(list["games"][0]["plies"], 3);
    assert_eq!(list["games"][0]["moves"], 2);
    Ok(())
}

/// Makes a friend game with both seats taken; returns its id and White's and Black's tokens.
async fn friend_game(app: &Arc<App>, body: Value) -> Result<(String, String, String), Error> {
    let (id, white, answer) = create(app, body).await?;
    let invite = answer["invite_url"].as_str().ok_or("no invite")?;
    let invite = invite.rsplit('/').next().ok_or("bad invite")?;
    let (status, joined) = call(
        app,
        "POST",
        &format!("/api/games/{id}/join"),
        None,
        Some(&json!({ "invite": invite, "name": "Boris" }).to_string()),
    )
    .await?;
    assert_eq!(status, StatusCode::OK, "{joined}");
    let black = joined["token"].as_str().ok_or("no token")?.to_string();
    Ok((id, white, black))
}

type Error = Box<dyn std::error::Error>;

async fn rematch(
    app: &Arc<App>,
    id: &str,
    token: Option<&str>,
    action: &str,
) -> Result<(StatusCode, Value), Error> {
    call(
        app,
        "POST",
        &format!("/api/games/{id}/rematch"),
        token,
        Some(&json!({ "action": action }).to_string()),
    )
    .await
}

fn says(error: &Value, words: &str) -> bool {
    error["error"].as_str().is_some_and(|e| e.contains(words))
}

#[tokio::test]
async fn a_rematch_between_friends_swaps_the_colours_and_keeps_the_tokens() -> TestResult {
    let app = memory_app()?;
    let start = "W:Wc3,e3,g3:Bd6,f6,h6";
    let (id, white, black) = friend_game(
        &app,
        json!({"variant": "russian", "mode": "friend", "name": "Anna", "position": start,
               "time": {"minutes": 3, "increment_s": 2}}),
    )
    .await?;
    let (status, error) = rematch(&app, &id, Some(&white), "offer").await?;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(says(&error, "once the game is over"), "{error}");
    let (_, state) = play(&app, &id, &white, "c3-d4").await?;
    assert_eq!(state["rematch"], Value::Null);
    call(
        &app,
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(&black),
        Some("{}"),
    )
    .await?;

    let (status, _) = rematch(&app, &id, None, "offer").await?;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, error) = rematch(&app, &id, Some(&white), "accept").await?;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(says(&error, "no rematch offer to accept"), "{error}");
    let (status, error) = rematch(&app, &id, Some(&white), "dance").await?;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{error}");
    let (status, state) = rematch(&app, &id, Some(&white), "offer").await?;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(
        state["rematch"],
        json!({"offered_by": "white", "game": null})
    );
    let (_, watched) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await?;
    assert_eq!(watched["rematch"], state["rematch"]);
    let (status, error) = rematch(&app, &id, Some(&white), "offer").await?;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(says(&error, "already offered"), "{error}");
    let (status, error) = rematch(&app, &id, Some(&white), "accept").await?;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(says(&error, "your own rematch offer"), "{error}");
    // Declined, the offer is gone; then Black offers and White accepts.
    let (_, state) = rematch(&app, &id, Some(&black), "decline").await?;
    assert_eq!(state["rematch"], Value::Null);
    let (status, _) = rematch(&app, &id, Some(&black), "decline").await?;
    assert_eq!(status, StatusCode::CONFLICT);
    rematch(&app, &id, Some(&black), "offer").await?;
    let (status, state) = rematch(&app, &id, Some(&white), "accept").await?;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(state["rematch"]["offered_by"], "black");
    let new = state["rematch"]["game"]
        .as_str()
        .ok_or("no new game")?
        .to_string();
    let (_, watched) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await?;
    assert_eq!(watched["rematch"]["game"], new.as_str());
    let (status, error) = rematch(&app, &id, Some(&black), "offer").await?;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(says(&error, "already started"), "{error}");

    // The new game: the same settings, the colours swapped, each token the other seat.
    let (_, as_anna) = call(
        &app,
        "GET",
        &format!("/api/games/{new}"),
        Some(&white),
        None,
    )
    .await?;
    let (_, as_boris) = call(
        &app,
        "GET",
        &format!("/api/games/{new}"),
        Some(&black),
        None,
    )
    .await?;
    assert_eq!(as_anna["you"], "black");
    assert_eq!(as_boris["you"], "white");
    assert_eq!(as_anna["white"]["name"], "Boris");
    assert_eq!(as_anna["black"]["name"], "Anna");
    assert_eq!(as_anna["black"]["joined"], true);
    assert_eq!(
        (as_anna["mode"].clone(), as_anna["variant"].clone()),
        (json!("friend"), json!("russian"))
    );
    assert_eq!(as_anna["start"], watched["start"]);
    assert_eq!(as_anna["clock"]["base_ms"], 180_000);
    assert_eq!(as_anna["clock"]["increment_ms"], 2_000);
    assert_eq!(as_anna["clock"]["running"], Value::Null);
    assert_eq!(as_anna["invite_url"], Value::Null);
    assert_eq!(as_anna["rematch"], Value::Null);
    assert!(move_texts(&as_anna).is_empty());
    let (status, _) = play(&app, &new, &white, "c3-d4").await?;
    assert_eq!(status, StatusCode::FORBIDDEN, "Anna plays Black now");
    let (status, state) = play(&app, &new, &black, "c3-d4").await?;
    assert_eq!(status, StatusCode::OK, "{state}");

    // A friend game aborted before anybody joined has nobody for a rematch.
    let (lonely, token, _) = create(&app, json!({"variant": "bashni", "mode": "friend"})).await?;
    call(
        &app,
        "POST",
        &format!("/api/games/{lonely}/abort"),
        Some(&token),
        Some("{}"),
    )
    .await?;
    let (status, error) = rematch(&app, &lonely, Some(&token), "offer").await?;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(says(&error, "nobody joined"), "{error}");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_players_pages_learn_of_the_rematch_over_their_sockets() -> TestResult {
    let app = memory_app()?;
    let (id, white, black) = friend_game(
        &app,
        json!({"variant": "bashni", "mode": "friend", "name": "Anna"}),
    )
    .await?;
    call(
        &app,
        "POST",
        &format!("/api/games/{id}/abort"),
        Some(&black),
        Some("{}"),
    )
    .await?;
    let address = serve(&app).await?;
    let mut sockets = Vec::new();
    for token in [&white, &black] {
        let (mut socket, _) =
            tokio_tungstenite::connect_async(format!("ws://{address}/api/games/{id}/ws")).await?;
        next_json(&mut socket, "state").await?;
        send_json(
            &mut socket,
            json!({"type": "seat", "id": 0, "token": token}),
        )
        .await?;
        next_json(&mut socket, "ack").await?;
        next_json(&mut socket, "state").await?;
        sockets.push(socket);
    }
    let [mut at_white, mut at_black] = <[Socket; 2]>::try_from(sockets).map_err(|_| "two")?;
    send_json(
        &mut at_white,
        json!({"type": "rematch", "id": 1, "action": "offer"}),
    )
    .await?;
    let ack = next_json(&mut at_white, "ack").await?;
    assert_eq!(ack["game"], Value::Null);
    let update = next_json(&mut at_black, "update").await?;
    assert_eq!(
        update["update"]["rematch"],
        json!({"offered_by": "white", "game": null})
    );
    send_json(&mut at_black, json!({"type": "rematch", "id": 2})).await?;
    assert_eq!(
        next_json(&mut at_black, "error").await?["code"],
        "bad_request"
    );
    send_json(
        &mut at_black,
        json!({"type": "rematch", "id": 3, "action": "accept"}),
    )
    .await?;
    let ack = next_json(&mut at_black, "ack").await?;
    assert_eq!(ack["id"], 3);
    let new = ack["game"]
        .as_str()
        .ok_or("no new game in the ack")?
        .to_string();
    loop {
        let update = next_json(&mut at_white, "update").await?;
        if !update["update"]["rematch"]["game"].is_null() {
            assert_eq!(update["update"]["rematch"]["game"], new.as_str());
            break;
        }
    }
    let (_, state) = call(
        &app,
        "GET",
        &format!("/api/games/{new}"),
        Some(&white),
        None,
    )
    .await?;
    assert_eq!(state["you"], "black");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_against_the_engine_or_at_one_screen_starts_at_once() -> TestResult {
    let app = memory_app()?;
    let (id, token, _) = create(
        &app,
        json!({"variant": "bashni", "mode": "engine", "level": 2, "color": "white", "name": "Anna",
               "time": {"minutes": 5}}),
    )
    .await?;
    call(
        &app,
        "POST",
        &format!("/api/games/{id}/abort"),
        Some(&token),
        Some("{}"),
    )
    .await?;
    let (status, state) = rematch(&app, &id, Some(&token), "offer").await?;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(state["rematch"]["offered_by"], "white");
    let new = state["rematch"]["game"]
        .as_str()
        .ok_or("no new game")?
        .to_string();
    // The engine now has White and moves first; the person keeps their token for Black.
    let state = wait_for(&app, &new, |s| move_texts(s).len() == 1).await?;
    assert_eq!(state["white"]["kind"], "engine");
    assert_eq!(state["white"]["level"], 2);
    assert_eq!(state["black"]["name"], "Anna");
    assert_eq!(state["clock"]["base_ms"], 300_000);
    let (_, mine) = call(
        &app,
        "GET",
        &format!("/api/games/{new}"),
        Some(&token),
        None,
    )
    .await?;
    assert_eq!(mine["you"], "black");
    assert_eq!(mine["may_abort"], true);

    let (id, token, _) = create(
        &app,
        json!({"variant": "russian", "mode": "local", "name": "Anna", "opponent_name": "Boris"}),
    )
    .await?;
    call(
        &app,
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(&token),
        Some("{}"),
    )
    .await?;
    let (status, state) = rematch(&app, &id, Some(&token), "offer").await?;
    assert_eq!(status, StatusCode::OK, "{state}");
    let new = state["rematch"]["game"].as_str().ok_or("no new game")?;
    let (_, state) = call(
        &app,
        "GET",
        &format!("/api/games/{new}"),
        Some(&token),
        None,
    )
    .await?;
    assert_eq!(state["you"], "both");
    assert_eq!(state["white"]["name"], "Boris");
    assert_eq!(state["black"]["name"], "Anna");
    let (status, error) = rematch(&app, &id, Some(&token), "offer").await?;
    assert_eq!(status, StatusCode::CONFLICT, "{error}");
    Ok(())
}

#[tokio::test]
async fn the_games_list_filters_by_status_and_ids_and_pages() -> TestResult {
    let app = memory_app()?;
    let local = json!({"variant": "russian", "mode": "local"});
    let (live, token, _) = create(&app, local.clone()).await?;
    play(&app, &live, &token, "c3-d4").await?;
    let (unstarted, _, _) = create(&app, local.clone()).await?;
    let (waiting, _, _) = create(&app, json!({"variant": "russian", "mode": "friend"})).await?;
    let (resigned, token, _) = create(&app, local.clone()).await?;
    play(&app, &resigned, &token, "c3-d4").await?;
    call(
        &app,
        "POST",
        &format!("/api/games/{resigned}/resign"),
        Some(&token),
        Some("{}"),
    )
    .await?;
    let (aborted, token, _) = create(&app, local.clone()).await?;
    call(
        &app,
        "POST",
        &format!("/api/games/{aborted}/abort"),
        Some(&token),
        Some("{}"),
    )
    .await?;
    let pdn = "[GameType \"25\"]\n[Result \"1-0\"]\n\n1. c3-d4 f6-g5 1-0\n";
    let (_, uploaded) = call(&app, "POST", "/api/pdn", None, Some(pdn)).await?;
    let record = uploaded["games"][0]["id"]
        .as_str()
        .ok_or("no id")?
        .to_string();

    let ids = |list: &Value| -> Vec<String> {
        list["games"]
            .as_array()
            .map(|games| {
                games
                    .iter()
                    .filter_map(|g| g["id"].as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    };
    let (status, list) = call(&app, "GET", "/api/games?status=live", None, None).await?;
    assert_eq!(status, StatusCode::OK, "{list}");
    assert_eq!(ids(&list), [live.as_str()]);
    assert_eq!(list["next"], Value::Null);
    let (_, list) = call(&app, "GET", "/api/games?status=records", None, None).await?;
    assert_eq!(ids(&list), [record.as_str()]);
    let (_, list) = call(&app, "GET", "/api/games?status=finished", None, None).await?;
    assert_eq!(ids(&list), [resigned.as_str()]);
    let (_, state) = call(&app, "GET", &format!("/api/games/{resigned}"), None, None).await?;
    assert_eq!(list["games"][0]["version"], state["version"]);
    assert_eq!(
        list["games"][0]["result"], "1-0",
        "Black, to move, resigned"
    );

    // The visitor's own games, by id: unknown and malformed ids are left out.
    let uri = format!("/api/games?ids={aborted},{live},nosuchgame,%2E%2E,{record}");
    let (status, list) = call(&app, "GET", &uri, None, None).await?;
    assert_eq!(status, StatusCode::OK, "{list}");
    let mut mine = ids(&list);
    mine.sort();
    let mut expected = vec![aborted.clone(), live.clone(), record.clone()];
    expected.sort();
    assert_eq!(mine, expected);
    let uri = format!("/api/games?status=live&ids={aborted},{live}");
    let (_, list) = call(&app, "GET", &uri, None, None).await?;
    assert_eq!(ids(&list), [live.as_str()]);
    let many = vec!["abc"; 51].join(",");
    let (status, error) = call(&app, "GET", &format!("/api/games?ids={many}"), None, None).await?;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(says(&error, "ids: at most 50"), "{error}");
    for bad in ["status=over", "before=yesterday", "limit=-1"] {
        let (status, error) = call(&app, "GET", &format!("/api/games?{bad}"), None, None).await?;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {error}");
    }

    // Pages of two, newest first, cover every game once, even games changed in the same ms.
    let (_, all) = call(&app, "GET", "/api/games", None, None).await?;
    let all = ids(&all);
    assert_eq!(all.len(), 6);
    for game in [&live, &unstarted, &waiting, &resigned, &aborted, &record] {
        assert!(all.contains(game));
    }
    let mut paged = Vec::new();
    let mut uri = "/api/games?limit=2".to_string();
    for page in 0.. {
        let (status, list) = call(&app, "GET", &uri, None, None).await?;
        assert_eq!(status, StatusCode::OK, "{list}");
        paged.extend(ids(&list));
        match list["next"].as_str() {
            Some(next) => uri = format!("/api/games?limit=2&before={next}"),
            None => {
                assert_eq!(page, 2, "three pages");
                break;
            }
        }
    }
    assert_eq!(paged, all);
    // A time alone works as `before` too: nothing changed before the first game.
    let (_, list) = call(&app, "GET", "/api/games?before=1000", None, None).await?;
    assert!(ids(&list).is_empty());
    Ok(())
}

/// Seam 3: while a game between people goes on, the engine helps nobody with it: its state
/// says so to players and watchers alike, an analysis naming the game is refused, and so
/// is the position on its board however it was copied (HTTP and the analysis socket). Once
/// the game has ended, all of it works.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_helps_nobody_with_a_game_between_people_in_progress() -> TestResult {
    let app = memory_app()?;
    let (id, white, black) =
        friend_game(&app, json!({"variant": "russian", "mode": "friend"})).await?;
    let opening = ["c3-d4", "f6-g5", "g3-h4", "g7-f6", "b2-c3", "b6-c5"];
    for (ply, text) in opening.iter().enumerate() {
        let token = if ply % 2 == 0 { &white } else { &black };
        let (status, state) = play(&app, &id, token, text).await?;
        assert_eq!(status, StatusCode::OK, "{state}");
    }
    for token in [Some(white.as_str()), Some(black.as_str()), None] {
        let (_, state) = call(&app, "GET", &format!("/api/games/{id}"), token, None).await?;
        assert_eq!(state["engine_help"], false, "{state}");
    }
    let (_, state) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await?;
    let board = state["position"]["fen"]
        .as_str()
        .ok_or("no fen")?
        .to_string();
    let before = state["start"]["fen"].as_str().ok_or("no fen")?.to_string();
    let asks = [
        json!({"variant": "russian", "position": board, "movetime_ms": 50, "depth": 2}),
        json!({"variant": "russian", "position": before, "moves": opening, "movetime_ms": 50, "depth": 2}),
        json!({"variant": "russian", "position": "start", "movetime_ms": 50, "depth": 2, "game": id}),
    ];
    for ask in &asks {
        let (status, refused) =
            call(&app, "POST", "/api/analyse", None, Some(&ask.to_string())).await?;
        assert_eq!(status, StatusCode::FORBIDDEN, "{ask}: {refused}");
        assert_eq!(refused["code"], "fair_play");
    }
    // Another position is the engine's to look at.
    let other = json!({"variant": "russian", "position": "start", "movetime_ms": 50, "depth": 2});
    let (status, _) = call(&app, "POST", "/api/analyse", None, Some(&other.to_string())).await?;
    assert_eq!(status, StatusCode::OK);
    // The analysis socket refuses the same.
    let address = serve(&app).await?;
    let (mut socket, _) =
        tokio_tungstenite::connect_async(format!("ws://{address}/api/analysis/ws")).await?;
    let mut message = asks[0].clone();
    message["type"] = json!("analyse");
    message["id"] = json!(7);
    send_json(&mut socket, message).await?;
    let refused = next_json(&mut socket, "error").await?;
    assert_eq!(
        (refused["id"].clone(), refused["code"].clone()),
        (json!(7), json!("fair_play"))
    );

    // Over: the engine is everybody's again.
    let resign = format!("/api/games/{id}/resign");
    let (status, state) = call(&app, "POST", &resign, Some(&black), Some("{}")).await?;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(state["engine_help"], true);
    for ask in &asks {
        let (status, answer) =
            call(&app, "POST", "/api/analyse", None, Some(&ask.to_string())).await?;
        assert_eq!(status, StatusCode::OK, "{ask}: {answer}");
    }
    Ok(())
}
