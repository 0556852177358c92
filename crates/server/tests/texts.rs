//! The game's refusals and endings in the players' language: over HTTP by `Accept-Language`,
//! over a socket by the `lang` its page names; the codes stay the same.

mod common;

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use bashni_server::{App, router};
use common::*;
use futures_util::StreamExt;
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

/// A request in `language`; the status and the JSON answer.
async fn call_in(
    app: &Arc<App>,
    language: &str,
    uri: &str,
    token: &str,
    body: Value,
) -> Result<(StatusCode, Value), Box<dyn std::error::Error>> {
    let request = Request::builder()
        .method("POST")
        .uri(uri)
        .header("x-seat-token", token)
        .header("content-type", "application/json")
        .header("accept-language", language)
        .body(Body::from(body.to_string()))?;
    let response = router(Arc::clone(app)).oneshot(request).await?;
    let status = response.status();
    let bytes = response.into_body().collect().await?.to_bytes();
    Ok((status, serde_json::from_slice(&bytes)?))
}

#[tokio::test]
async fn a_games_refusals_come_in_the_language_asked_for() -> TestResult {
    let app = memory_app()?;
    let (id, token, _) = create(&app, json!({"variant": "russian", "mode": "local"})).await?;
    let uri = format!("/api/games/{id}/move");
    // An illegal move: the same code in both languages, the words in each.
    let (status, english) =
        call_in(&app, "en", &uri, &token, json!({"move": "a1-h8", "ply": 0})).await?;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{english}");
    let starts = |answer: &Value, words: &str| {
        answer["error"]
            .as_str()
            .is_some_and(|e| e.starts_with(words) && e.contains("c3-d4"))
    };
    assert!(
        starts(
            &english,
            "the move a1-h8 is not legal: no legal move goes that way; legal moves: "
        ),
        "{english}"
    );
    let (status, russian) = call_in(
        &app,
        "ru-RU,ru;q=0.9",
        &uri,
        &token,
        json!({"move": "a1-h8", "ply": 0}),
    )
    .await?;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(russian["code"], english["code"]);
    assert!(
        starts(
            &russian,
            "ход a1-h8 невозможен: туда не идёт ни один ход; возможные ходы: "
        ),
        "{russian}"
    );
    assert_eq!(russian["legal"], english["legal"]);
    // A move made for a position the game has left.
    let (status, stale) =
        call_in(&app, "ru", &uri, &token, json!({"move": "c3-d4", "ply": 4})).await?;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(stale["code"], "stale");
    assert!(
        stale["error"]
            .as_str()
            .is_some_and(|e| e.contains("после 4 полуходов") && e.contains("уже 0")),
        "{stale}"
    );
    // A resigned game: the ending's details let the page say why; a second resignation is
    // refused in Russian.
    let resign = format!("/api/games/{id}/resign");
    let (status, state) = call_in(&app, "ru", &resign, &token, json!({"ply": 0})).await?;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(state["result"]["code"], "resignation");
    assert_eq!(state["result"]["details"]["side"], "white");
    let (status, over) = call_in(&app, "ru", &resign, &token, json!({"ply": 0})).await?;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(over["error"], "партия уже окончена");
    Ok(())
}

#[tokio::test]
async fn a_sockets_refusals_come_in_its_pages_language() -> TestResult {
    let app = memory_app()?;
    let address = serve(&app).await?;
    let (id, token, _) = create(&app, json!({"variant": "bashni", "mode": "local"})).await?;
    for (lang, words) in [
        (
            "ru",
            "ход a1-h8 невозможен: туда не идёт ни один ход; возможные ходы: ",
        ),
        (
            "en",
            "the move a1-h8 is not legal: no legal move goes that way; legal moves: ",
        ),
    ] {
        let url = format!("ws://{address}/api/games/{id}/ws?lang={lang}&bind=1");
        let (mut socket, _) = tokio_tungstenite::connect_async(url).await?;
        send_json(
            &mut socket,
            json!({"type": "seat", "id": 0, "token": token}),
        )
        .await?;
        next_json(&mut socket, "ack").await?;
        send_json(
            &mut socket,
            json!({"type": "move", "id": 1, "move": "a1-h8", "ply": 0}),
        )
        .await?;
        let refused = loop {
            // Bounded: a refusal that never comes fails the test instead of hanging it.
            let message = tokio::time::timeout(std::time::Duration::from_secs(10), socket.next())
                .await?
                .ok_or("socket closed")??;
            let value: Value = serde_json::from_str(message.to_text()?)?;
            if value["type"] == "error" && value["id"] == 1 {
                break value;
            }
        };
        assert_eq!(refused["code"], "illegal_move", "{refused}");
        assert!(
            refused["error"]
                .as_str()
                .is_some_and(|e| e.starts_with(words)),
            "{refused}"
        );
    }
    Ok(())
}

#[tokio::test]
async fn a_records_notes_come_in_the_language_asked_for() -> TestResult {
    let app = memory_app()?;
    let untagged = "[event \"Club\"]\n1. c3-d4 f6-e5 2. d4:f6 g7:e5 3. b2-c3 f6-g5 *\n";
    let request = Request::builder()
        .method("POST")
        .uri("/api/pdn")
        .header("content-type", "text/plain")
        .header("accept-language", "ru")
        .body(Body::from(untagged))?;
    let response = router(Arc::clone(&app)).oneshot(request).await?;
    assert_eq!(response.status(), StatusCode::OK);
    let bytes = response.into_body().collect().await?.to_bytes();
    let answer: Value = serde_json::from_slice(&bytes)?;
    let notes = &answer["games"][0]["warnings"];
    assert_eq!(
        notes[0], "нет тега GameType; прочитано как башни: партия проходит только по их правилам",
        "{answer}"
    );
    assert!(
        notes[1]
            .as_str()
            .is_some_and(|n| n.starts_with("строка 1, позиция")
                && n.contains("event")
                && n.contains("Event")),
        "{answer}"
    );
    Ok(())
}

#[tokio::test]
async fn a_sign_up_refusal_comes_in_the_language_asked_for() -> TestResult {
    use axum::http::header;
    let app = memory_app()?;
    let body = json!({"name": "Annа", "password": "correct horse"});
    for (language, words) in [
        (
            "ru",
            "имя: смешаны буквы разных алфавитов (например, латиница и кириллица)",
        ),
        (
            "en",
            "name: mixes letters of different alphabets (such as Latin and Cyrillic)",
        ),
    ] {
        let headers = [
            (header::HOST, common::visitor::HOST),
            (header::ORIGIN, common::visitor::SITE),
            (header::ACCEPT_LANGUAGE, language),
        ];
        let (status, _, answer) = common::visitor::send(
            &app,
            [10, 0, 0, 9].into(),
            "POST",
            "/api/account/signup",
            &headers,
            Some(&body),
        )
        .await?;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
        assert_eq!(answer["code"], "bad_request");
        assert_eq!(answer["error"], words);
    }
    Ok(())
}

#[tokio::test]
async fn a_records_errors_come_in_the_language_asked_for() -> TestResult {
    let app = memory_app()?;
    let broken = "[GameType \"25\"]\n1. c3-d4 f6-e5 2. a1-h8 *\n";
    for (language, place, why) in [
        (
            "ru",
            "партия 1 (русские шашки), ход 2. a1-h8 (строка 2, позиция",
            "ход a1-h8 невозможен: ",
        ),
        (
            "en",
            "game 1 (Russian draughts), move 2. a1-h8 (line 2, column",
            "the move a1-h8 is not legal: ",
        ),
    ] {
        let request = Request::builder()
            .method("POST")
            .uri("/api/pdn")
            .header("content-type", "text/plain")
            .header("accept-language", language)
            .body(Body::from(broken))?;
        let response = router(Arc::clone(&app)).oneshot(request).await?;
        let bytes = response.into_body().collect().await?.to_bytes();
        let answer: Value = serde_json::from_slice(&bytes)?;
        let error = answer["games"][0]["error"].as_str().ok_or("no error")?;
        assert!(error.starts_with(place) && error.contains(why), "{answer}");
    }
    Ok(())
}

#[tokio::test]
async fn a_tournaments_and_an_uploads_refusals_come_in_the_language_asked_for() -> TestResult {
    use axum::http::header;
    let app = memory_app()?;
    let mut anna = common::visitor::Visitor::new(&app, 21);
    let body = json!({"name": "Anna", "password": "correct horse"});
    let (status, answer) = anna
        .call("POST", "/api/account/signup", None, Some(body))
        .await?;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    let cookie = format!(
        "bashni_session={}",
        anna.cookie.clone().ok_or("no session")?
    );
    let unnamed = json!({"name": " ", "variant": "bashni", "system": "round_robin"});
    let long = json!({"name": "x".repeat(61), "variant": "bashni", "system": "round_robin"});
    for (language, body, words) in [
        ("ru", &unnamed, "дайте турниру название"),
        ("en", &unnamed, "name: give the tournament a name"),
        ("ru", &long, "название турнира — не длиннее 60 знаков"),
        ("en", &long, "name: at most 60 characters"),
    ] {
        let headers = [
            (header::HOST, common::visitor::HOST),
            (header::ORIGIN, common::visitor::SITE),
            (header::COOKIE, cookie.as_str()),
            (header::ACCEPT_LANGUAGE, language),
        ];
        let (status, _, answer) = common::visitor::send(
            &app,
            anna.address,
            "POST",
            "/api/tournaments",
            &headers,
            Some(body),
        )
        .await?;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
        assert_eq!(answer["code"], "bad_request");
        assert_eq!(answer["error"], words);
    }
    // A file without a game.
    for (language, words) in [
        ("ru", "в файле нет ни одной партии"),
        ("en", "the file holds no game"),
    ] {
        let request = Request::builder()
            .method("POST")
            .uri("/api/pdn")
            .header("content-type", "text/plain")
            .header("accept-language", language)
            .body(Body::from(""))?;
        let response = router(Arc::clone(&app)).oneshot(request).await?;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST);
        let bytes = response.into_body().collect().await?.to_bytes();
        let answer: Value = serde_json::from_slice(&bytes)?;
        assert_eq!(answer["error"], words, "{answer}");
    }
    Ok(())
}
