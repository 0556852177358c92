//! The lobby over its WebSocket: seeks listed, added and removed live, taken by a click or by
//! quick pairing into a game both players can play; on an SQLite file and on PostgreSQL, and
//! with two servers sharing one PostgreSQL.

mod common;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;
use bashni_server::store::SeekRow;
use bashni_server::{App, PgStore, Settings, Store};
use common::pg::Postgres;
use common::*;
use futures_util::StreamExt;
use serde_json::{Value, json};

type Error = Box<dyn std::error::Error>;

async fn lobby(addr: SocketAddr) -> Result<Socket, Error> {
    let (mut socket, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr}/api/lobby/ws")).await?;
    let list = next_json(&mut socket, "seeks").await?;
    assert!(list["seeks"].is_array(), "{list}");
    Ok(socket)
}

/// Connects and returns the socket with the list it was sent.
async fn lobby_with_list(addr: SocketAddr) -> Result<(Socket, Vec<Value>), Error> {
    let (mut socket, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr}/api/lobby/ws")).await?;
    let list = next_json(&mut socket, "seeks").await?;
    let seeks = list["seeks"].as_array().ok_or("no list")?.clone();
    Ok((socket, seeks))
}

/// The next message of any type, within 5 s.
async fn next_message(socket: &mut Socket) -> Result<Value, Error> {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(5), socket.next())
            .await?
            .ok_or("socket closed")??;
        if let Ok(text) = message.to_text()
            && !text.is_empty()
        {
            return Ok(serde_json::from_str(text)?);
        }
    }
}

/// Nothing but pings arrives for a while.
async fn silent(socket: &mut Socket, wait: Duration) -> Result<(), Error> {
    match tokio::time::timeout(wait, next_message(socket)).await {
        Err(_) => Ok(()),
        Ok(Ok(message)) => Err(format!("unexpected message {message}").into()),
        Ok(Err(error)) => Err(error),
    }
}

fn seek(id: u64, color: &str, minutes: u64, increment: u64, name: &str) -> Value {
    json!({
        "type": "seek", "id": id, "variant": "russian",
        "clock": {"minutes": minutes, "increment_s": increment},
        "rated": false, "color": color, "name": name,
    })
}

/// Sends `message` and returns the answer to it (an ack or an error with its id).
async fn ask(socket: &mut Socket, message: Value) -> Result<Value, Error> {
    let id = message["id"].clone();
    send_json(socket, message).await?;
    loop {
        let reply = next_message(socket).await?;
        if (reply["type"] == "ack" || reply["type"] == "error") && reply["id"] == id {
            return Ok(reply);
        }
    }
}

/// Posts a seek and returns its id.
async fn post(socket: &mut Socket, message: Value) -> Result<String, Error> {
    let ack = ask(socket, message).await?;
    assert_eq!(ack["type"], "ack", "{ack}");
    Ok(ack["seek"].as_str().ok_or("no seek id")?.to_string())
}

/// Waits for `seek_added` of seek `id`, skipping other messages.
async fn added(socket: &mut Socket, id: &str) -> Result<Value, Error> {
    loop {
        let message = next_json(socket, "seek_added").await?;
        if message["seek"]["id"] == id {
            return Ok(message["seek"].clone());
        }
    }
}

async fn removed(socket: &mut Socket, id: &str) -> Result<(), Error> {
    loop {
        let message = next_json(socket, "seek_removed").await?;
        if message["seek"] == id {
            return Ok(());
        }
    }
}

/// Like [`removed`], with no limit on the wait between messages.
async fn removed_late(socket: &mut Socket, id: &str) -> Result<(), Error> {
    loop {
        let message = socket.next().await.ok_or("socket closed")??;
        if let Ok(text) = message.to_text()
            && let Ok(value) = serde_json::from_str::<Value>(text)
            && value["type"] == "seek_removed"
            && value["seek"] == id
        {
            return Ok(());
        }
    }
}

fn text<'a>(value: &'a Value, field: &str) -> Result<&'a str, Error> {
    value[field]
        .as_str()
        .ok_or_else(|| format!("no {field} in {value}").into())
}

/// Both players of a made game move with their tokens, and only their own colour.
async fn both_can_move(app: &Arc<App>, game: &str, white: &str, black: &str) -> Result<(), Error> {
    let (status, state) =
        call(app, "GET", &format!("/api/games/{game}"), Some(white), None).await?;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(state["you"], "white");
    assert_eq!(state["mode"], "friend");
    let (status, _) = play(app, game, black, "c3-d4").await?;
    assert_eq!(status, StatusCode::FORBIDDEN, "Black moved for White");
    let (status, _) = play(app, game, white, "c3-d4").await?;
    assert_eq!(status, StatusCode::OK);
    let (status, state) = play(app, game, black, "f6-g5").await?;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(move_texts(&state), ["c3-d4", "f6-g5"]);
    Ok(())
}

/// The lobby's behaviour on one server, the same on every database.
async fn lobby_suite(app: &Arc<App>) -> Result<(), Error> {
    let addr = serve(app).await?;
    let mut anna = lobby(addr).await?;
    let mut boris = lobby(addr).await?;

    // A seek is acknowledged with its id, then seen by everyone, marked for its owner.
    let first = post(&mut anna, seek(1, "white", 5, 3, "Anna")).await?;
    let mine = added(&mut anna, &first).await?;
    assert_eq!(mine["own"], true);
    let seen = added(&mut boris, &first).await?;
    assert_eq!(seen["own"], false);
    assert_eq!(seen["name"], "Anna");
    assert_eq!(seen["variant"], "russian");
    assert_eq!(seen["clock"], json!({"minutes": 5, "increment_s": 3}));
    assert_eq!(seen["rated"], false);
    assert_eq!(seen["color"], "white");

    // A socket that comes later is sent the list with it.
    let (mut watcher, list) = lobby_with_list(addr).await?;
    assert_eq!(list.len(), 1);
    assert_eq!(list[0]["id"], first.as_str());
    assert_eq!(list[0]["own"], false);

    // Cancelled: gone for everyone; only its owner may cancel it.
    let refused = ask(
        &mut boris,
        json!({"type": "cancel", "id": 2, "seek": first}),
    )
    .await?;
    assert_eq!(refused["code"], "forbidden", "{refused}");
    let ack = ask(&mut anna, json!({"type": "cancel", "id": 3, "seek": first})).await?;
    assert_eq!(ack["type"], "ack", "{ack}");
    removed(&mut boris, &first).await?;
    removed(&mut watcher, &first).await?;
    let again = ask(&mut anna, json!({"type": "cancel", "id": 4, "seek": first})).await?;
    assert_eq!(again["code"], "seek_gone", "{again}");

    // Its owner's socket closes: its seeks go.
    let second = post(&mut anna, seek(5, "random", 3, 2, "Anna")).await?;
    added(&mut boris, &second).await?;
    drop(anna);
    removed(&mut boris, &second).await?;
    let (_, list) = lobby_with_list(addr).await?;
    assert!(list.is_empty(), "{list:?}");

    // Taken: a game with the colours asked for, each player told its own token.
    let mut anna = lobby(addr).await?;
    let third = post(&mut anna, seek(6, "black", 10, 5, "Anna")).await?;
    added(&mut boris, &third).await?;
    added(&mut watcher, &third).await?;
    let own = ask(&mut anna, json!({"type": "accept", "id": 7, "seek": third})).await?;
    assert_eq!(own["code"], "own_seek", "{own}");
    let ack = ask(
        &mut boris,
        json!({"type": "accept", "id": 8, "seek": third, "name": "Boris"}),
    )
    .await?;
    assert_eq!(ack["type"], "ack", "{ack}");
    let game = text(&ack, "game")?.to_string();
    let taker = next_json(&mut boris, "paired").await?;
    let owner = next_json(&mut anna, "paired").await?;
    assert_eq!(taker["game"], game.as_str());
    assert_eq!(owner["game"], game.as_str());
    assert_eq!(owner["you"], "black");
    assert_eq!(taker["you"], "white");
    assert_ne!(owner["token"], taker["token"]);
    removed(&mut watcher, &third).await?;
    let late = ask(
        &mut watcher,
        json!({"type": "accept", "id": 9, "seek": third}),
    )
    .await?;
    assert_eq!(late["code"], "seek_gone", "{late}");
    let (_, state) = call(app, "GET", &format!("/api/games/{game}"), None, None).await?;
    assert_eq!(state["white"]["name"], "Boris");
    assert_eq!(state["black"]["name"], "Anna");
    assert_eq!(state["clock"]["base_ms"], 600_000);
    assert_eq!(state["clock"]["increment_ms"], 5_000);
    assert_eq!(state["variant"], "russian");
    both_can_move(app, &game, text(&taker, "token")?, text(&owner, "token")?).await?;
    // Nobody else was told of the game.
    silent(&mut watcher, Duration::from_millis(300)).await?;

    // At most three open seeks per socket.
    let mut ids = Vec::new();
    for n in 0..3 {
        ids.push(post(&mut anna, seek(10 + n, "random", 5, 3, "Anna")).await?);
    }
    let fourth = ask(&mut anna, seek(13, "random", 5, 3, "Anna")).await?;
    assert_eq!(fourth["code"], "too_many", "{fourth}");
    for (n, id) in ids.iter().enumerate() {
        let ack = ask(
            &mut anna,
            json!({"type": "cancel", "id": 20 + n, "seek": id}),
        )
        .await?;
        assert_eq!(ack["type"], "ack", "{ack}");
        removed(&mut watcher, id).await?;
    }

    // Quick pairing: with nothing to take it posts a seek of random colour ...
    let quick = json!({"type": "quick", "id": 30, "variant": "bashni",
                       "clock": {"minutes": 3, "increment_s": 2}, "name": "Anna"});
    let ack = ask(&mut anna, quick.clone()).await?;
    let posted = text(&ack, "seek")?.to_string();
    let seen = added(&mut watcher, &posted).await?;
    assert_eq!(seen["color"], "random");
    assert_eq!(seen["variant"], "bashni");
    // Asked again, it is the same seek.
    let mut twice = quick.clone();
    twice["id"] = json!(34);
    let ack = ask(&mut anna, twice).await?;
    assert_eq!(ack["seek"], posted.as_str(), "{ack}");
    // ... which another player's quick pairing by the same clock takes; a seek of another
    // clock or game is left alone.
    let other = post(
        &mut watcher,
        json!({"type": "seek", "id": 31, "variant": "bashni",
               "clock": {"minutes": 5, "increment_s": 3}, "name": "Vera"}),
    )
    .await?;
    let mut quick_boris = quick.clone();
    quick_boris["id"] = json!(32);
    quick_boris["name"] = json!("Boris");
    let ack = ask(&mut boris, quick_boris).await?;
    let game = text(&ack, "game")?.to_string();
    let taker = next_json(&mut boris, "paired").await?;
    let owner = next_json(&mut anna, "paired").await?;
    assert_eq!(owner["game"], game.as_str());
    assert_ne!(owner["you"], taker["you"]);
    let (white, black) = if taker["you"] == "white" {
        (text(&taker, "token")?, text(&owner, "token")?)
    } else {
        (text(&owner, "token")?, text(&taker, "token")?)
    };
    both_can_move(app, &game, white, black).await?;
    // Quick pairing also takes a seek posted with the form.
    let mut quick_anna = quick.clone();
    quick_anna["id"] = json!(33);
    quick_anna["clock"] = json!({"minutes": 5, "increment_s": 3});
    let ack = ask(&mut anna, quick_anna).await?;
    assert!(ack["game"].is_string(), "{ack}");
    let owner = next_json(&mut watcher, "paired").await?;
    assert_eq!(owner["game"], ack["game"]);
    removed(&mut boris, &other).await?;

    // Rated games wait for accounts; bad messages name what is wrong.
    let mut rated = seek(40, "white", 5, 3, "Anna");
    rated["rated"] = json!(true);
    let refused = ask(&mut anna, rated).await?;
    assert_eq!(refused["code"], "rated_needs_account", "{refused}");
    // Said in a player's words, not the API's.
    assert_eq!(
        refused["error"],
        "rated games need an account: log in, or play a casual game"
    );
    for (message, says) in [
        (
            json!({"type": "seek", "id": 41, "variant": "russian"}),
            "clock",
        ),
        (
            json!({"type": "seek", "id": 42, "variant": "chess", "clock": {"minutes": 5}}),
            "variant",
        ),
        (
            json!({"type": "seek", "id": 43, "variant": "russian", "clock": {"minutes": 5},
                   "color": "green"}),
            "color",
        ),
        (
            json!({"type": "seek", "id": 44, "variant": "russian", "clock": {"minutes": 5000}}),
            "clock.minutes",
        ),
        (json!({"type": "accept", "id": 45}), "seek"),
        (json!({"type": "dance", "id": 46}), "type"),
        (
            json!({"type": "seek", "id": 47, "colour": "white"}),
            "colour",
        ),
    ] {
        let refused = ask(&mut anna, message).await?;
        assert_eq!(refused["code"], "bad_request", "{refused}");
        assert!(text(&refused, "error")?.contains(says), "{refused}");
    }
    let (_, list) = lobby_with_list(addr).await?;
    assert!(list.is_empty(), "nothing refused was stored: {list:?}");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_on_an_sqlite_file() -> Result<(), Error> {
    let app = app_on(&temp_db("lobby"))?;
    lobby_suite(&app).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_on_postgres() -> Result<(), Error> {
    let postgres = Postgres::start("lobby")?;
    let url = postgres.database("lobby").await?;
    let app = App::new(PgStore::connect(&url).await?, test_settings());
    lobby_suite(&app).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seeks_count_against_the_new_games_of_an_address() -> Result<(), Error> {
    let app = App::new(
        Store::in_memory()?,
        Settings {
            new_games_per_minute: 2,
            ..test_settings()
        },
    );
    let addr = serve(&app).await?;
    let mut anna = lobby(addr).await?;
    let first = post(&mut anna, seek(1, "white", 5, 3, "Anna")).await?;
    let mut boris = lobby(addr).await?;
    // The same address: the second new game of the minute is the last.
    let ack = ask(
        &mut boris,
        json!({"type": "accept", "id": 2, "seek": first}),
    )
    .await?;
    assert!(ack["game"].is_string(), "{ack}");
    let refused = ask(&mut anna, seek(3, "white", 5, 3, "Anna")).await?;
    assert_eq!(refused["code"], "too_many", "{refused}");
    assert!(text(&refused, "error")?.contains("new games"), "{refused}");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seeks_left_from_an_earlier_run_of_a_file_are_removed() -> Result<(), Error> {
    let path = temp_db("lobby-restart");
    let now = bashni_server::game::round::now_ms();
    {
        // A server killed with a seek open: the row stays, its lease still holding.
        let store = Store::open(&path, Default::default())?;
        let left = SeekRow {
            id: "left".into(),
            owner: "gone".into(),
            server: "killed".into(),
            name: "Anna".into(),
            settings: "{}".into(),
            created_ms: now,
        };
        assert!(store.seek_insert(&left, now + 15_000, 3)?.is_some());
        assert_eq!(store.seek_list(now)?.len(), 1);
    }
    let app = app_on(&path)?;
    serve(&app).await?;
    bashni_server::lobby::Lobby::of(&app).cleared().await;
    assert_eq!(
        app.database.seek_list(now).await?.len(),
        0,
        "a seek of the earlier run is still stored"
    );
    Ok(())
}

fn shared_settings() -> Settings {
    Settings {
        engines: 1,
        hash_mb: 4,
        requests_per_second: 100_000,
        open_requests_per_address: 100_000,
        new_games_per_minute: 100_000,
        ..Settings::default()
    }
}

async fn two_servers(
    name: &str,
) -> Result<(Postgres, String, [Arc<App>; 2], [SocketAddr; 2]), Error> {
    let postgres = Postgres::start(name)?;
    let url = postgres.database(name).await?;
    let a = App::new(PgStore::connect(&url).await?, shared_settings());
    let b = App::new(PgStore::connect(&url).await?, shared_settings());
    let at_a = serve(&a).await?;
    let at_b = serve(&b).await?;
    Ok((postgres, url, [a, b], [at_a, at_b]))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seek_on_one_server_is_seen_and_taken_on_another() -> Result<(), Error> {
    let (_postgres, _, [a, b], [at_a, at_b]) = two_servers("lobbyshare").await?;
    let mut anna = lobby(at_a).await?;
    let mut boris = lobby(at_b).await?;
    let id = post(&mut anna, seek(1, "white", 5, 3, "Anna")).await?;
    let seen = added(&mut boris, &id).await?;
    assert_eq!(seen["name"], "Anna");
    // Taken on B: the owner, on A, is told by its own server.
    let ack = ask(
        &mut boris,
        json!({"type": "accept", "id": 2, "seek": id, "name": "Boris"}),
    )
    .await?;
    let game = text(&ack, "game")?.to_string();
    let taker = next_json(&mut boris, "paired").await?;
    let owner = next_json(&mut anna, "paired").await?;
    assert_eq!(owner["game"], game.as_str());
    assert_eq!(owner["you"], "white");
    assert_eq!(taker["you"], "black");
    // Each plays on the other's server.
    let (status, _) = play(&b, &game, text(&owner, "token")?, "c3-d4").await?;
    assert_eq!(status, StatusCode::OK);
    wait_for(&a, &game, |s| move_texts(s).len() == 1).await?;
    let (status, _) = play(&a, &game, text(&taker, "token")?, "f6-g5").await?;
    assert_eq!(status, StatusCode::OK);
    let state = wait_for(&b, &game, |s| move_texts(s).len() == 2).await?;
    assert_eq!(move_texts(&state), ["c3-d4", "f6-g5"]);
    // A cancelled seek, and one whose owner left, go on both servers.
    let second = post(&mut anna, seek(3, "black", 3, 2, "Anna")).await?;
    added(&mut boris, &second).await?;
    let third = post(&mut boris, seek(4, "black", 3, 2, "Boris")).await?;
    added(&mut anna, &third).await?;
    let ack = ask(
        &mut anna,
        json!({"type": "cancel", "id": 5, "seek": second}),
    )
    .await?;
    assert_eq!(ack["type"], "ack");
    removed(&mut boris, &second).await?;
    drop(boris);
    removed(&mut anna, &third).await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_taking_one_seek_on_two_servers_make_one_game() -> Result<(), Error> {
    let (_postgres, url, _apps, [at_a, at_b]) = two_servers("lobbyrace").await?;
    let mut owner = lobby(at_a).await?;
    let mut on_a = lobby(at_a).await?;
    let mut on_b = lobby(at_b).await?;
    for round in 0..5u64 {
        let id = post(&mut owner, seek(100 + round, "random", 5, 3, "Anna")).await?;
        added(&mut on_a, &id).await?;
        added(&mut on_b, &id).await?;
        let accept = |n: u64| json!({"type": "accept", "id": n, "seek": id});
        let (first, second) = tokio::join!(
            ask(&mut on_a, accept(200 + round)),
            ask(&mut on_b, accept(300 + round))
        );
        let answers = [first?, second?];
        let games: Vec<&Value> = answers
            .iter()
            .filter(|a| a["type"] == "ack")
            .map(|a| &a["game"])
            .collect();
        assert_eq!(games.len(), 1, "{answers:?}");
        assert!(
            answers.iter().any(|a| a["code"] == "seek_gone"),
            "{answers:?}"
        );
        let told = next_json(&mut owner, "paired").await?;
        assert_eq!(&told["game"], games[0]);
    }
    let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await?;
    tokio::spawn(connection);
    let games: i64 = client
        .query_one("SELECT COUNT(*) FROM games", &[])
        .await?
        .get(0);
    assert_eq!(games, 5, "a lost race left a game behind");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_seeks_of_a_server_that_died_leave_the_other_lobbies() -> Result<(), Error> {
    let (_postgres, url, _apps, [at_a, at_b]) = two_servers("lobbylease").await?;
    let mut anna = lobby(at_a).await?;
    let mut boris = lobby(at_b).await?;
    let id = post(&mut anna, seek(1, "white", 5, 3, "Anna")).await?;
    added(&mut boris, &id).await?;
    // Its server stops renewing it (as if it died): the lease runs out in a second.
    let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await?;
    tokio::spawn(connection);
    client
        .execute(
            "UPDATE seeks SET server = 'dead', lease_until = $2 WHERE id = $1",
            &[&id, &(bashni_server::game::round::now_ms() + 1000)],
        )
        .await?;
    let started = std::time::Instant::now();
    // The others look every 5 s.
    tokio::time::timeout(Duration::from_secs(12), removed_late(&mut boris, &id)).await??;
    assert!(
        started.elapsed() >= Duration::from_millis(900),
        "removed while its lease held"
    );
    removed(&mut anna, &id).await?;
    Ok(())
}
