//! The people in a game over its socket, on an SQLite file: the chat's two rooms, its
//! limits and mutes, lines stored before they are sent; who is online; and the claim when
//! the player to move leaves a game with a clock.

mod common;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;
use bashni_server::{App, Settings, Store, StoreOptions};
use common::visitor::Visitor;
use common::*;
use futures_util::StreamExt;
use serde_json::{Value, json};

type Error = Box<dyn std::error::Error>;

fn settings(abandon_after: Duration) -> Settings {
    Settings {
        abandon_after,
        ..test_settings()
    }
}

fn file_app(name: &str, abandon_after: Duration) -> Result<(Arc<App>, std::path::PathBuf), Error> {
    let path = temp_db(name);
    let options = StoreOptions {
        busy_timeout: Duration::from_millis(300),
        ..StoreOptions::default()
    };
    let app = App::new(Store::open(&path, options)?, settings(abandon_after));
    Ok((app, path))
}

/// A game between two people with a 5-minute clock: its id and both tokens (White, Black).
async fn friend_game(app: &Arc<App>) -> Result<(String, String, String), Error> {
    let (id, white, created) = create(
        app,
        json!({"variant": "russian", "mode": "friend", "color": "white", "name": "Anna",
               "time": {"minutes": 5}}),
    )
    .await?;
    let invite = created["invite_url"]
        .as_str()
        .and_then(|url| url.rsplit('/').next())
        .ok_or("no invite")?;
    let (status, joined) = call(
        app,
        "POST",
        &format!("/api/games/{id}/join"),
        None,
        Some(&json!({"invite": invite, "name": "Boris"}).to_string()),
    )
    .await?;
    assert_eq!(status, StatusCode::OK, "{joined}");
    let black = joined["token"].as_str().ok_or("no token")?.to_string();
    Ok((id, white, black))
}

/// A socket on game `id`: a player's, bound with `token`, or a watcher's; past its first
/// state and its chat history, which is returned too.
async fn open(
    address: SocketAddr,
    id: &str,
    token: Option<&str>,
) -> Result<(Socket, Value, Value), Error> {
    let url = format!("ws://{address}/api/games/{id}/ws");
    match token {
        Some(token) => {
            let (mut socket, _) = tokio_tungstenite::connect_async(format!("{url}?bind=1")).await?;
            send_json(
                &mut socket,
                json!({"type": "seat", "id": 0, "token": token}),
            )
            .await?;
            next_json(&mut socket, "ack").await?;
            let state = next_json(&mut socket, "state").await?;
            let history = next_json(&mut socket, "chat_history").await?;
            Ok((socket, state["state"].clone(), history))
        }
        None => {
            let (mut socket, _) = tokio_tungstenite::connect_async(url).await?;
            let state = next_json(&mut socket, "state").await?;
            let history = next_json(&mut socket, "chat_history").await?;
            Ok((socket, state["state"].clone(), history))
        }
    }
}

/// Sends a chat line; returns the answer (an ack or an error).
async fn say(socket: &mut Socket, n: u64, room: &str, text: &str) -> Result<Value, Error> {
    send_json(
        socket,
        json!({"type": "chat", "id": n, "room": room, "text": text}),
    )
    .await?;
    answer(socket, n).await
}

/// The ack or error answering message `n` (other messages are skipped).
async fn answer(socket: &mut Socket, n: u64) -> Result<Value, Error> {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(5), socket.next())
            .await?
            .ok_or("socket closed")??;
        let value: Value = serde_json::from_str(message.to_text()?)?;
        if (value["type"] == "ack" || value["type"] == "error") && value["id"] == n {
            return Ok(value);
        }
    }
}

/// The messages of type `kind` that arrive on `socket` within `wait`.
async fn heard(socket: &mut Socket, kind: &str, wait: Duration) -> Vec<Value> {
    let mut found = Vec::new();
    let deadline = tokio::time::Instant::now() + wait;
    while let Ok(Some(Ok(message))) = tokio::time::timeout_at(deadline, socket.next()).await {
        if let Ok(value) = message
            .to_text()
            .map_err(|_| ())
            .and_then(|t| serde_json::from_str::<Value>(t).map_err(|_| ()))
            && value["type"] == kind
        {
            found.push(value);
        }
    }
    found
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_and_watchers_each_have_their_room() -> Result<(), Error> {
    let app = memory_app()?;
    let (id, white, black) = friend_game(&app).await?;
    let address = serve(&app).await?;
    let (mut anna, _, history) = open(address, &id, Some(&white)).await?;
    assert_eq!(history["rooms"]["players"], json!([]));
    assert!(
        history["rooms"].get("watchers").is_none(),
        "a player was given the watchers' room during play: {history}"
    );
    assert_eq!(history["muted"], false);
    let (mut boris, _, _) = open(address, &id, Some(&black)).await?;
    let (mut watcher, _, history) = open(address, &id, None).await?;
    assert!(
        history["rooms"].get("players").is_none(),
        "a watcher was given the players' room: {history}"
    );

    // A player's line reaches the other player, never a watcher.
    let ack = say(&mut anna, 1, "players", "  Good luck! <b>hi</b> ").await?;
    assert_eq!(ack["type"], "ack", "{ack}");
    assert_eq!(ack["seq"], 1);
    let line = next_json(&mut boris, "chat").await?;
    assert_eq!(line["room"], "players");
    assert_eq!(line["line"]["text"], "Good luck! <b>hi</b>");
    assert_eq!(line["line"]["from"], "white");
    assert_eq!(line["line"]["name"], "Anna");
    assert_eq!(line["line"]["seq"], 1);
    assert!(line["line"]["at"].as_i64().is_some_and(|at| at > 0));
    // The writer gets the line too, as sent to everyone.
    assert_eq!(next_json(&mut anna, "chat").await?["line"], line["line"]);
    assert!(
        heard(&mut watcher, "chat", Duration::from_millis(300))
            .await
            .is_empty()
    );

    // A watcher cannot write in the players' room; a player cannot write in the watchers'.
    let refused = say(&mut watcher, 2, "players", "e5 wins").await?;
    assert_eq!(refused["code"], "forbidden", "{refused}");
    assert!(
        refused["error"]
            .as_str()
            .is_some_and(|e| e.contains("players' chat"))
    );
    let refused = say(&mut boris, 3, "watchers", "hello").await?;
    assert_eq!(refused["code"], "forbidden", "{refused}");

    // A watcher's line, named, reaches the watchers only while the game goes on.
    send_json(
        &mut watcher,
        json!({"type": "chat", "id": 4, "room": "watchers", "text": "nice", "name": " Oleg "}),
    )
    .await?;
    assert_eq!(answer(&mut watcher, 4).await?["type"], "ack");
    let line = next_json(&mut watcher, "chat").await?;
    assert_eq!(line["room"], "watchers");
    assert_eq!(line["line"]["name"], "Oleg");
    assert_eq!(line["line"]["from"], "watcher");
    for socket in [&mut anna, &mut boris] {
        assert!(
            heard(socket, "chat", Duration::from_millis(300))
                .await
                .is_empty(),
            "a player read a watcher's line during play"
        );
    }
    assert_eq!(
        say(&mut watcher, 5, "watchers", "again").await?["type"],
        "ack"
    );
    send_json(
        &mut watcher,
        json!({"type": "chat", "id": 6, "room": "watchers", "text": "x", "name": "N".repeat(21)}),
    )
    .await?;
    assert_eq!(answer(&mut watcher, 6).await?["code"], "bad_request");

    // What a socket reads again later: the rooms it may read, oldest first.
    let (_, _, history) = open(address, &id, Some(&black)).await?;
    assert_eq!(
        texts(&history["rooms"]["players"]),
        ["Good luck! <b>hi</b>"]
    );
    assert!(history["rooms"].get("watchers").is_none());
    let (_, _, history) = open(address, &id, None).await?;
    assert!(history["rooms"].get("players").is_none());
    assert_eq!(texts(&history["rooms"]["watchers"]), ["nice", "again"]);
    assert_eq!(history["rooms"]["watchers"][1]["name"], "Watcher");

    // Once the game is over, the players read the watchers' room too (and new lines in it).
    send_json(&mut boris, json!({"type": "resign", "id": 20})).await?;
    assert_eq!(answer(&mut boris, 20).await?["type"], "ack");
    assert_eq!(
        say(&mut watcher, 21, "watchers", "well played").await?["type"],
        "ack"
    );
    let line = next_json(&mut anna, "chat").await?;
    assert_eq!(line["line"]["text"], "well played");
    let (_, _, history) = open(address, &id, Some(&black)).await?;
    assert_eq!(
        texts(&history["rooms"]["watchers"]),
        ["nice", "again", "well played"]
    );

    // Against the engine there is nobody in the players' room.
    let (engine_game, token, _) = create(
        &app,
        json!({"variant": "russian", "mode": "engine", "level": 1}),
    )
    .await?;
    let (mut alone, _, _) = open(address, &engine_game, Some(&token)).await?;
    let refused = say(&mut alone, 7, "players", "hi").await?;
    assert_eq!(refused["code"], "conflict", "{refused}");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lines_are_checked_and_limited() -> Result<(), Error> {
    let app = memory_app()?;
    let (id, white, _) = friend_game(&app).await?;
    let address = serve(&app).await?;
    let (mut anna, _, _) = open(address, &id, Some(&white)).await?;
    let (mut watcher, _, _) = open(address, &id, None).await?;
    for (n, text, code, words) in [
        (
            1,
            "x".repeat(301),
            "bad_request",
            "at most 300 characters, not 301",
        ),
        (
            2,
            "one\ntwo".to_string(),
            "bad_request",
            "control characters",
        ),
        (3, "   ".to_string(), "bad_request", "empty"),
        (4, "a\u{202E}b".to_string(), "bad_request", "U+202E"),
    ] {
        let refused = say(&mut anna, n, "players", &text).await?;
        assert_eq!(refused["code"], code, "{refused}");
        assert!(
            refused["error"].as_str().is_some_and(|e| e.contains(words)),
            "{refused}"
        );
    }
    let refused = say(&mut anna, 5, "lobby", "hi").await?;
    assert!(
        refused["error"]
            .as_str()
            .is_some_and(|e| e.contains("room")),
        "{refused}"
    );
    send_json(
        &mut anna,
        json!({"type": "chat", "id": 6, "room": "players"}),
    )
    .await?;
    assert!(
        answer(&mut anna, 6).await?["error"]
            .as_str()
            .is_some_and(|e| e.contains("text: missing"))
    );
    let exactly = "y".repeat(300);
    assert_eq!(say(&mut anna, 7, "players", &exactly).await?["type"], "ack");

    // Five lines in ten seconds per player, and per watcher's socket; the sixth is refused
    // and not stored.
    for n in 8..12 {
        assert_eq!(
            say(&mut anna, n, "players", &format!("line {n}")).await?["type"],
            "ack"
        );
    }
    let refused = say(&mut anna, 12, "players", "one too many").await?;
    assert_eq!(refused["code"], "too_many", "{refused}");
    assert!(
        refused["error"]
            .as_str()
            .is_some_and(|e| e.contains("at most 5 chat lines"))
    );
    for n in 13..18 {
        assert_eq!(say(&mut watcher, n, "watchers", "w").await?["type"], "ack");
    }
    assert_eq!(
        say(&mut watcher, 18, "watchers", "w").await?["code"],
        "too_many"
    );
    // Issue "abuse, round two", finding 4: another socket of the same address is held
    // back with the first (many sockets do not let one client fill the chat).
    let (mut other, _, _) = open(address, &id, None).await?;
    assert_eq!(
        say(&mut other, 19, "watchers", "me too").await?["code"],
        "too_many"
    );
    let (_, _, history) = open(address, &id, Some(&white)).await?;
    let players = texts(&history["rooms"]["players"]);
    assert_eq!(players.len(), 5);
    assert!(!players.iter().any(|t| t == "one too many"));
    let (_, _, history) = open(address, &id, None).await?;
    assert_eq!(
        history["rooms"]["watchers"].as_array().map(Vec::len),
        Some(5)
    );
    Ok(())
}

/// A socket on game `id` sent through a balancer for the client at `client` (its
/// `X-Forwarded-For`), logged in with `cookie` when given; bound to the seat of `token` when
/// given. Past its first state; with its chat history.
async fn open_as(
    address: SocketAddr,
    id: &str,
    client: &str,
    cookie: Option<&str>,
    token: Option<&str>,
) -> Result<(Socket, Value), Error> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let bind = if token.is_some() { "?bind=1" } else { "" };
    let mut request = format!("ws://{address}/api/games/{id}/ws{bind}").into_client_request()?;
    let headers = request.headers_mut();
    headers.insert("x-forwarded-for", client.parse()?);
    if let Some(cookie) = cookie {
        headers.insert("cookie", format!("bashni_session={cookie}").parse()?);
        headers.insert("origin", format!("http://{address}").parse()?);
    }
    let (mut socket, _) = tokio_tungstenite::connect_async(request).await?;
    if let Some(token) = token {
        send_json(
            &mut socket,
            json!({"type": "seat", "id": 0, "token": token}),
        )
        .await?;
        next_json(&mut socket, "ack").await?;
    }
    next_json(&mut socket, "state").await?;
    let history = next_json(&mut socket, "chat_history").await?;
    Ok((socket, history))
}

/// Issue "abuse, round two": an account's chat lines count over all its games and sockets,
/// as a player and as a watcher, whatever address they come from; another account is not
/// held back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_accounts_lines_count_over_all_its_games_and_addresses() -> Result<(), Error> {
    let app = App::new(
        Store::in_memory()?,
        Settings {
            behind_proxy: true,
            ..settings(Duration::from_secs(60))
        },
    );
    let address = serve(&app).await?;
    let mut anna = Visitor::new(&app, 11);
    let mut vera = Visitor::new(&app, 12);
    for (visitor, name) in [(&mut anna, "Anna"), (&mut vera, "Vera")] {
        let body = json!({"name": name, "password": "correct horse"});
        let (status, answer) = visitor
            .call("POST", "/api/account/signup", None, Some(body))
            .await?;
        assert_eq!(status, StatusCode::CREATED, "{answer}");
    }
    // Anna plays two games against guests.
    let mut games = Vec::new();
    for _ in 0..2 {
        let body = json!({"variant": "russian", "mode": "friend", "color": "white",
                          "time": {"minutes": 5}});
        let (status, made) = anna.call("POST", "/api/games", None, Some(body)).await?;
        assert_eq!(status, StatusCode::CREATED, "{made}");
        let id = made["id"].as_str().ok_or("no id")?.to_string();
        let invite = made["invite_url"]
            .as_str()
            .and_then(|url| url.rsplit('/').next())
            .ok_or("no invite")?;
        let body = json!({"invite": invite, "name": "Guest"}).to_string();
        let (status, joined) = call(
            &app,
            "POST",
            &format!("/api/games/{id}/join"),
            None,
            Some(&body),
        )
        .await?;
        assert_eq!(status, StatusCode::OK, "{joined}");
        let token = made["token"].as_str().ok_or("no token")?.to_string();
        games.push((id, token));
    }
    let cookie = |visitor: &Visitor| visitor.cookie.clone();
    let (first, second) = (&games[0], &games[1]);
    let (mut at_first, _) = open_as(address, &first.0, "10.0.0.11", None, Some(&first.1)).await?;
    for n in 1..=5 {
        assert_eq!(
            say(&mut at_first, n, "players", "hello").await?["type"],
            "ack"
        );
    }
    // The same account in its other game, from another address: held back.
    let (mut at_second, _) =
        open_as(address, &second.0, "10.0.0.21", None, Some(&second.1)).await?;
    let refused = say(&mut at_second, 6, "players", "and here").await?;
    assert_eq!(refused["code"], "too_many", "{refused}");
    // Vera watches from two addresses, logged in: her lines count together.
    let vera_cookie = cookie(&vera);
    let (mut one, _) =
        open_as(address, &first.0, "10.0.0.31", vera_cookie.as_deref(), None).await?;
    for n in 7..=11 {
        // The name she gives does not count: she writes under her account's.
        send_json(
            &mut one,
            json!({"type": "chat", "id": n, "room": "watchers", "text": "go Anna", "name": "Zed"}),
        )
        .await?;
        assert_eq!(answer(&mut one, n).await?["type"], "ack");
    }
    let (mut two, _) = open_as(
        address,
        &second.0,
        "10.0.0.32",
        vera_cookie.as_deref(),
        None,
    )
    .await?;
    let refused = say(&mut two, 12, "watchers", "again").await?;
    assert_eq!(refused["code"], "too_many", "{refused}");
    // A guest watcher at yet another address is not held back by either.
    let (mut guest, _) = open_as(address, &second.0, "10.0.0.41", None, None).await?;
    assert_eq!(say(&mut guest, 13, "watchers", "hi").await?["type"], "ack");
    // A guest may not write under an account's name, nor a look-alike of it.
    for (n, name) in [(14, "Vera"), (15, "VERA")] {
        send_json(
            &mut guest,
            json!({"type": "chat", "id": n, "room": "watchers", "text": "it is me", "name": name}),
        )
        .await?;
        let refused = answer(&mut guest, n).await?;
        assert_eq!(refused["code"], "conflict", "{refused}");
    }
    // Lines say whether an account wrote them.
    let (_, history) = open_as(address, &first.0, "10.0.0.51", None, None).await?;
    let lines = history["rooms"]["watchers"].as_array().ok_or("no lines")?;
    assert_eq!(lines.len(), 5);
    assert!(
        lines
            .iter()
            .all(|l| l["name"] == "Vera" && l["account"] == true),
        "{history}"
    );
    let (_, history) = open_as(address, &second.0, "10.0.0.52", None, None).await?;
    assert_eq!(
        history["rooms"]["watchers"][0]["account"], false,
        "{history}"
    );
    let (_, seat) = open_as(address, &first.0, "10.0.0.11", None, Some(&first.1)).await?;
    let players = seat["rooms"]["players"].as_array().ok_or("no lines")?;
    assert!(players.iter().all(|l| l["account"] == true), "{seat}");
    drop(anna);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sqlite_store_keeps_the_last_lines_of_each_room() -> Result<(), Error> {
    let app = memory_app()?;
    let (id, _, _) = friend_game(&app).await?;
    chat_store_suite(&app.database, &id).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_muted_player_is_not_heard_and_not_told() -> Result<(), Error> {
    let app = memory_app()?;
    let (id, white, black) = friend_game(&app).await?;
    let address = serve(&app).await?;
    let (mut anna, _, _) = open(address, &id, Some(&white)).await?;
    let (mut boris, _, _) = open(address, &id, Some(&black)).await?;
    assert_eq!(say(&mut anna, 1, "players", "before").await?["type"], "ack");
    next_json(&mut boris, "chat").await?;

    send_json(
        &mut boris,
        json!({"type": "mute", "id": 2, "action": "mute"}),
    )
    .await?;
    assert_eq!(answer(&mut boris, 2).await?["type"], "ack");
    let history = next_json(&mut boris, "chat_history").await?;
    assert_eq!(history["muted"], true);
    assert!(texts(&history["rooms"]["players"]).is_empty(), "{history}");
    assert!(
        heard(&mut anna, "chat_history", Duration::from_millis(300))
            .await
            .is_empty(),
        "the muted player was told"
    );

    // Anna still writes; Boris does not get it, but Boris's own lines reach Anna.
    assert_eq!(
        say(&mut anna, 3, "players", "can you hear me").await?["type"],
        "ack"
    );
    assert_eq!(
        next_json(&mut anna, "chat").await?["line"]["text"],
        "can you hear me"
    );
    assert!(
        heard(&mut boris, "chat", Duration::from_millis(300))
            .await
            .is_empty()
    );
    assert_eq!(
        say(&mut boris, 4, "players", "quiet please").await?["type"],
        "ack"
    );
    assert_eq!(
        next_json(&mut anna, "chat").await?["line"]["text"],
        "quiet please"
    );
    // The mute is stored: a new socket of Boris's seat does not get Anna's lines either.
    let (_, _, again) = open(address, &id, Some(&black)).await?;
    assert_eq!(again["muted"], true);
    assert_eq!(texts(&again["rooms"]["players"]), ["quiet please"]);
    let (_, _, hers) = open(address, &id, Some(&white)).await?;
    assert!(hers["muted"] == false, "{hers}");
    assert_eq!(
        texts(&hers["rooms"]["players"]),
        ["before", "can you hear me", "quiet please"]
    );
    // Watchers have no one to mute.
    let (mut watcher, _, _) = open(address, &id, None).await?;
    send_json(
        &mut watcher,
        json!({"type": "mute", "id": 5, "action": "mute"}),
    )
    .await?;
    assert_eq!(answer(&mut watcher, 5).await?["code"], "forbidden");
    send_json(
        &mut boris,
        json!({"type": "mute", "id": 6, "action": "shush"}),
    )
    .await?;
    assert_eq!(answer(&mut boris, 6).await?["code"], "bad_request");

    send_json(
        &mut boris,
        json!({"type": "mute", "id": 7, "action": "unmute"}),
    )
    .await?;
    assert_eq!(answer(&mut boris, 7).await?["type"], "ack");
    let history = next_json(&mut boris, "chat_history").await?;
    assert_eq!(history["muted"], false);
    assert_eq!(
        texts(&history["rooms"]["players"]),
        ["before", "can you hear me", "quiet please"]
    );
    assert_eq!(
        say(&mut anna, 8, "players", "hello again").await?["type"],
        "ack"
    );
    assert_eq!(
        next_json(&mut boris, "chat").await?["line"]["text"],
        "hello again"
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_line_the_store_refuses_is_sent_to_nobody() -> Result<(), Error> {
    let (app, path) = file_app("chat-locked", Duration::from_secs(60))?;
    let (id, white, black) = friend_game(&app).await?;
    let address = serve(&app).await?;
    let (mut anna, _, _) = open(address, &id, Some(&white)).await?;
    let (mut boris, _, _) = open(address, &id, Some(&black)).await?;
    let other = rusqlite::Connection::open(&path)?;
    other.execute_batch("BEGIN IMMEDIATE")?;
    let refused = say(&mut anna, 1, "players", "lost?").await?;
    assert_eq!(refused["code"], "unavailable", "{refused}");
    assert!(
        refused["error"]
            .as_str()
            .is_some_and(|e| e.contains("nothing was changed")),
        "{refused}"
    );
    assert!(
        heard(&mut boris, "chat", Duration::from_millis(400))
            .await
            .is_empty(),
        "a line that was not stored was sent"
    );
    other.execute_batch("ROLLBACK")?;
    assert_eq!(say(&mut anna, 2, "players", "stored").await?["seq"], 1);
    assert_eq!(
        next_json(&mut boris, "chat").await?["line"]["text"],
        "stored"
    );
    drop(app);
    let app = app_on(&path)?;
    let address = serve(&app).await?;
    let (_, _, history) = open(address, &id, Some(&black)).await?;
    assert_eq!(texts(&history["rooms"]["players"]), ["stored"]);
    Ok(())
}

/// The value of `side`'s `online` in a state or update.
fn online(state: &Value, side: &str) -> Option<bool> {
    state[side]["online"].as_bool()
}

/// Plays `text` over `socket` (message `n`) at `ply`, acknowledged.
async fn play_on(socket: &mut Socket, n: u64, text: &str, ply: u64) -> Result<(), Error> {
    send_json(
        socket,
        json!({"type": "move", "id": n, "move": text, "ply": ply}),
    )
    .await?;
    let ack = answer(socket, n).await?;
    assert_eq!(ack["type"], "ack", "{ack}");
    Ok(())
}

/// Waits for an update on `socket` that satisfies `check`.
async fn update_where(socket: &mut Socket, check: impl Fn(&Value) -> bool) -> Result<Value, Error> {
    for _ in 0..50 {
        let update = next_json(socket, "update").await?;
        if check(&update["update"]) {
            return Ok(update["update"].clone());
        }
    }
    Err("no such update came".into())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn presence_shows_who_is_there_and_a_claim_ends_an_abandoned_game() -> Result<(), Error> {
    let wait = Duration::from_secs(60);
    let (app, path) = file_app("abandon", wait)?;
    let (id, white, black) = friend_game(&app).await?;
    let address = serve(&app).await?;
    let (mut anna, state, _) = open(address, &id, Some(&white)).await?;
    assert_eq!(online(&state, "white"), Some(true));
    assert_eq!(online(&state, "black"), Some(false));
    let (mut boris, state, _) = open(address, &id, Some(&black)).await?;
    assert_eq!(
        (online(&state, "white"), online(&state, "black")),
        (Some(true), Some(true))
    );
    update_where(&mut anna, |u| online(u, "black") == Some(true)).await?;
    // A watcher is nobody's presence.
    let (mut watcher, state, _) = open(address, &id, None).await?;
    assert_eq!(online(&state, "black"), Some(true));

    // Before both sides have moved nothing can be claimed.
    send_json(&mut anna, json!({"type": "claim", "id": 1, "claim": "win"})).await?;
    let refused = answer(&mut anna, 1).await?;
    assert_eq!(refused["code"], "conflict");
    assert!(
        refused["error"]
            .as_str()
            .is_some_and(|e| e.contains("both sides")),
        "{refused}"
    );
    play_on(&mut anna, 2, "c3-d4", 0).await?;
    play_on(&mut boris, 3, "f6-g5", 1).await?;
    play_on(&mut anna, 4, "g3-h4", 2).await?;

    // Boris, to move, closes his socket: everyone is told, and Anna sees the wait.
    drop(boris);
    let update = update_where(&mut anna, |u| online(u, "black") == Some(false)).await?;
    let abandon = &update["abandon"];
    assert_eq!(abandon["side"], "black", "{update}");
    assert!(
        abandon["claim_in_ms"]
            .as_i64()
            .is_some_and(|ms| ms > 50_000 && ms <= 60_000),
        "{abandon}"
    );
    assert_eq!(abandon["may_claim"], false);
    update_where(&mut watcher, |u| online(u, "black") == Some(false)).await?;
    send_json(&mut anna, json!({"type": "claim", "id": 5, "claim": "win"})).await?;
    let early = answer(&mut anna, 5).await?;
    assert_eq!(early["code"], "conflict", "{early}");
    assert!(
        early["error"]
            .as_str()
            .is_some_and(|e| e.contains("Black has been offline for")),
        "{early}"
    );

    // He comes back before a claim: nothing to claim; he leaves again, and the wait starts
    // again from then.
    let (boris, state, _) = open(address, &id, Some(&black)).await?;
    assert!(state["abandon"].is_null(), "{state}");
    app.settings.time.advance(wait);
    send_json(&mut anna, json!({"type": "claim", "id": 6, "claim": "win"})).await?;
    let refused = answer(&mut anna, 6).await?;
    assert!(
        refused["error"]
            .as_str()
            .is_some_and(|e| e.contains("Black is online")),
        "{refused}"
    );
    drop(boris);
    update_where(&mut anna, |u| online(u, "black") == Some(false)).await?;
    // The player waiting cannot be claimed against, and a watcher cannot claim.
    let (status, answer_http) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/claim"),
        None,
        Some(r#"{"claim": "win"}"#),
    )
    .await?;
    assert_eq!(status, StatusCode::FORBIDDEN, "{answer_http}");
    let (status, bad) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/claim"),
        Some(&white),
        Some(r#"{"claim": "everything"}"#),
    )
    .await?;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}");
    app.settings.time.advance(wait + Duration::from_millis(100));
    let (_, state) = call(&app, "GET", &format!("/api/games/{id}"), Some(&white), None).await?;
    assert_eq!(state["abandon"]["may_claim"], true, "{state}");
    assert_eq!(state["abandon"]["claim_in_ms"], 0);
    send_json(&mut anna, json!({"type": "claim", "id": 7, "claim": "win"})).await?;
    assert_eq!(answer(&mut anna, 7).await?["type"], "ack");
    let over = update_where(&mut watcher, |u| !u["result"].is_null()).await?;
    assert_eq!(
        over["result"],
        json!({"score": "1-0", "winner": "white", "reason": "Black left the game",
               "code": "abandoned", "details": {"side": "black"}})
    );
    assert!(over["abandon"].is_null());
    assert!(over["clock"]["running"].is_null());
    let (_, pdn) = call(&app, "GET", &format!("/api/games/{id}/pdn"), None, None).await?;
    let pdn = pdn.as_str().ok_or("no PDN")?;
    assert!(
        pdn.contains("[Termination \"Black left the game\"]"),
        "{pdn}"
    );
    assert!(pdn.contains("[Result \"1-0\"]"), "{pdn}");

    // Read back from the file, the result and its reason are the same.
    drop((anna, watcher));
    drop(app);
    let app = App::new(Store::open(&path, StoreOptions::default())?, settings(wait));
    let (_, state) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await?;
    assert_eq!(state["result"], over["result"]);
    let (status, _) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/claim"),
        Some(&white),
        Some(r#"{"claim": "draw"}"#),
    )
    .await?;
    assert_eq!(status, StatusCode::CONFLICT);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draw_may_be_claimed_over_http_and_a_win_also_without_a_clock() -> Result<(), Error> {
    let wait = Duration::from_secs(60);
    let (app, _) = file_app("abandon-draw", wait)?;
    let (id, white, black) = friend_game(&app).await?;
    for (token, text) in [(&white, "c3-d4"), (&black, "f6-g5")] {
        let (status, state) = play(&app, &id, token, text).await?;
        assert_eq!(status, StatusCode::OK, "{state}");
    }
    // White is to move and was never online: the wait counts from the last move (or from
    // when this server took the game, after a restart).
    app.settings.time.advance(wait + Duration::from_millis(100));
    let (status, refused) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/claim"),
        Some(&white),
        Some(r#"{"claim": "draw"}"#),
    )
    .await?;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    assert!(
        refused["error"]
            .as_str()
            .is_some_and(|e| e.contains("your turn"))
    );
    let (status, state) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/claim"),
        Some(&black),
        Some(r#"{"claim": "draw"}"#),
    )
    .await?;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(state["result"]["score"], "1/2-1/2");
    assert_eq!(state["result"]["reason"], "White left the game");

    // Seam 2: without a clock a player who left may be claimed against all the same.
    let (untimed, white, created) = create(
        &app,
        json!({"variant": "russian", "mode": "friend", "color": "white"}),
    )
    .await?;
    let invite = created["invite_url"]
        .as_str()
        .and_then(|u| u.rsplit('/').next())
        .ok_or("no invite")?;
    let (_, joined) = call(
        &app,
        "POST",
        &format!("/api/games/{untimed}/join"),
        None,
        Some(&json!({"invite": invite}).to_string()),
    )
    .await?;
    let black = joined["token"].as_str().ok_or("no token")?.to_string();
    play(&app, &untimed, &white, "c3-d4").await?;
    play(&app, &untimed, &black, "f6-g5").await?;
    app.settings.time.advance(wait + Duration::from_millis(100));
    let (_, state) = call(
        &app,
        "GET",
        &format!("/api/games/{untimed}"),
        Some(&black),
        None,
    )
    .await?;
    assert_eq!(state["abandon"]["side"], "white", "{state}");
    assert_eq!(state["abandon"]["may_claim"], true, "{state}");
    let (status, won) = call(
        &app,
        "POST",
        &format!("/api/games/{untimed}/claim"),
        Some(&black),
        Some(r#"{"claim": "win"}"#),
    )
    .await?;
    assert_eq!(status, StatusCode::OK, "{won}");
    assert_eq!(won["result"]["score"], "0-1");
    assert_eq!(won["result"]["code"], "abandoned");
    Ok(())
}
