//! Correspondence games: days per move, the deadline kept in the database across restarts
//! and servers, the sweeper that ends overdue games with nobody connected, and the list of
//! games waiting for a seat's move.

mod common;

use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;
use bashni_club::pace::Control;
use bashni_server::app::events::Happening;
use bashni_server::store::{Change, StoreErrorKind, postgres_migrations};
use bashni_server::{App, PgStore, Settings, Store, StoreOptions};
use common::pg::Postgres;
use common::*;
use serde_json::{Value, json};

type Error = Box<dyn std::error::Error>;

const DAY_MS: i64 = 86_400_000;

fn now_ms() -> i64 {
    bashni_server::game::round::now_ms()
}

/// A friend game of `days` per move, made by Anna (White) and joined by Boris (Black).
async fn friend_game(
    app: &Arc<App>,
    variant: &str,
    days: u32,
) -> Result<(String, String, String), Error> {
    let (id, white, answer) = create(
        app,
        json!({"variant": variant, "mode": "friend", "name": "Anna",
               "time": {"days_per_move": days}}),
    )
    .await?;
    assert_eq!(answer["state"]["clock"], Value::Null, "no clock runs");
    assert_eq!(
        answer["state"]["correspondence"],
        json!({"days_per_move": days, "deadline_ms": null}),
        "no deadline before the second player comes"
    );
    let invite = answer["invite_url"]
        .as_str()
        .and_then(|url| url.rsplit('/').next())
        .ok_or("no invite")?
        .to_string();
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

fn deadline_of(state: &Value) -> Option<i64> {
    state["correspondence"]["deadline_ms"].as_i64()
}

async fn state_of(app: &Arc<App>, id: &str) -> Result<Value, Error> {
    let (status, state) = call(app, "GET", &format!("/api/games/{id}"), None, None).await?;
    assert_eq!(status, StatusCode::OK, "{state}");
    Ok(state)
}

#[tokio::test]
async fn days_per_move_other_than_1_2_3_or_7_are_refused() -> TestResult {
    let app = memory_app()?;
    let refused = [
        (
            json!({"days_per_move": 5}),
            "friend",
            "5 days per move is not offered",
        ),
        (
            json!({"days_per_move": 0}),
            "friend",
            "0 days per move is not offered",
        ),
        (
            json!({"days_per_move": 14}),
            "friend",
            "choose 1, 2, 3 or 7",
        ),
        (
            json!({"days_per_move": 2.5}),
            "friend",
            "whole number of days",
        ),
        (
            json!({"days_per_move": -1}),
            "friend",
            "whole number of days",
        ),
        (
            json!({"days_per_move": 3, "minutes": 5}),
            "friend",
            "days_per_move alone",
        ),
        (
            json!({"days_per_move": 3, "increment_s": 2}),
            "friend",
            "days_per_move alone",
        ),
        (json!({"increment_s": 2}), "friend", "time.minutes: missing"),
        (json!({"days_per_move": 3}), "engine", "two people online"),
        (json!({"days_per_move": 3}), "local", "two people online"),
    ];
    for (time, mode, words) in refused {
        let body = json!({"variant": "bashni", "mode": mode, "time": time});
        let (status, answer) =
            call(&app, "POST", "/api/games", None, Some(&body.to_string())).await?;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {answer}");
        assert_eq!(answer["code"], "bad_request");
        let message = answer["error"].as_str().unwrap_or_default();
        assert!(message.contains(words), "{body}: {message}");
        assert!(message.starts_with("time"), "the field is named: {message}");
    }
    let (status, answer) = call(
        &app,
        "POST",
        "/api/games",
        None,
        Some(r#"{"variant": "bashni", "mode": "friend", "time": {"days_per_move": "3"}}"#),
    )
    .await?;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    let (_, list) = call(&app, "GET", "/api/games", None, None).await?;
    assert_eq!(list["games"], json!([]), "no refused game was made");
    for days in [1, 2, 3, 7] {
        friend_game(&app, "russian", days).await?;
    }
    Ok(())
}

#[tokio::test]
async fn the_deadline_is_stored_and_the_same_after_a_restart() -> TestResult {
    let path = temp_db("corr-restart");
    let (id, white, black, deadline) = {
        let app = app_on(&path)?;
        let before = now_ms();
        let (id, white, black) = friend_game(&app, "bashni", 3).await?;
        let after = now_ms();
        let state = state_of(&app, &id).await?;
        let first = deadline_of(&state).ok_or("no deadline once both are seated")?;
        assert!(
            (before + 3 * DAY_MS..=after + 3 * DAY_MS).contains(&first),
            "three days from the join: {first}"
        );
        let before = now_ms();
        let (status, moved) = play(&app, &id, &white, "c3-d4").await?;
        assert_eq!(status, StatusCode::OK, "{moved}");
        let after = now_ms();
        let deadline = deadline_of(&moved).ok_or("no deadline after the move")?;
        assert!(
            (before + 3 * DAY_MS..=after + 3 * DAY_MS).contains(&deadline),
            "three whole days for Black's answer: {deadline}"
        );
        assert_eq!(moved["turn"], "black");
        (id, white, black, deadline)
    };
    // The file read again holds the deadline exactly.
    let store = Store::open(&path, StoreOptions::default())?;
    let round = store.load(&id)?.ok_or("the game is gone")?;
    assert_eq!(round.deadline_ms(), Some(deadline));
    assert_eq!(round.correspondence.map(|c| c.days_per_move), Some(3));
    drop(store);
    // A restarted server shows it and goes on.
    let app = app_on(&path)?;
    let state = state_of(&app, &id).await?;
    assert_eq!(
        state["correspondence"],
        json!({"days_per_move": 3, "deadline_ms": deadline})
    );
    assert_eq!(state["clock"], Value::Null);
    let (status, _) = play(&app, &id, &white, "d4-e5").await?;
    assert_eq!(status, StatusCode::FORBIDDEN, "not White's turn");
    let (status, moved) = play(&app, &id, &black, "f6-g5").await?;
    assert_eq!(status, StatusCode::OK, "{moved}");
    assert!(
        deadline_of(&moved) >= Some(deadline),
        "a new whole allowance"
    );
    assert_eq!(moved["result"], Value::Null);
    // The record names the control in PDN's TimeControl tag, and it reads back.
    let (status, pdn) = call(&app, "GET", &format!("/api/games/{id}/pdn"), None, None).await?;
    assert_eq!(status, StatusCode::OK);
    let text = pdn.as_str().ok_or("no PDN text")?;
    assert!(text.contains("[TimeControl \"1/259200\"]"), "{text}");
    let mut reader = bashni_pdn::Reader::new(text.as_bytes());
    let raw = reader.next_game().ok_or("no game in the PDN")??;
    let tag = raw.tag("TimeControl").ok_or("no TimeControl tag")?;
    assert_eq!(Control::from_pdn_tag(tag), Control::correspondence(3).ok());
    Ok(())
}

#[tokio::test]
async fn the_sweeper_ends_an_overdue_game_with_nobody_connected() -> TestResult {
    let path = temp_db("corr-sweep");
    let id = {
        let app = app_on(&path)?;
        let (id, white, black) = friend_game(&app, "russian", 1).await?;
        assert_eq!(play(&app, &id, &white, "c3-d4").await?.0, StatusCode::OK);
        assert_eq!(play(&app, &id, &black, "f6-g5").await?.0, StatusCode::OK);
        id
    };
    // The deadline of White's move passed while the server was down.
    {
        let connection = rusqlite::Connection::open(&path)?;
        let changed = connection.execute(
            "UPDATE games SET deadline_ms = ?1 WHERE id = ?2",
            rusqlite::params![now_ms() - 1_000, id],
        )?;
        assert_eq!(changed, 1);
    }
    let app = App::new(
        Store::open(&path, StoreOptions::default())?,
        Settings {
            deadline_sweep: Duration::from_millis(50),
            ..test_settings()
        },
    );
    assert_eq!(app.games_in_memory(), 0, "nobody has asked for the game");
    // Told when a game is stored ended.
    let (ends_tx, mut ends) = tokio::sync::mpsc::unbounded_channel();
    app.subscribe(
        "test",
        Arc::new(move |_, happening| {
            if let Happening::GameOver(round) = happening {
                let _ = ends_tx.send(round.id.clone());
            }
            Box::pin(async {})
        }),
    );
    app.start_sweeping();
    let over = tokio::time::timeout(Duration::from_secs(25), ends.recv()).await?;
    assert_eq!(
        over.as_deref(),
        Some(id.as_str()),
        "the sweeper ended the game"
    );
    // Read from the database only: a request for the game would end it too.
    let round = app.database.load(&id).await?.ok_or("the game is gone")?;
    let (ending, deadline) = (
        round.ending().ok_or("not stored ended")?,
        round.deadline_ms(),
    );
    assert_eq!((ending.score(), ending.code()), ("0-1", "time"));
    assert_eq!(ending.reason_text(), "White ran out of time");
    assert_eq!(deadline, None);
    let state = state_of(&app, &id).await?;
    assert_eq!(state["result"]["code"], "time");
    assert_eq!(state["correspondence"]["deadline_ms"], Value::Null);
    Ok(())
}

#[tokio::test]
async fn a_deadline_passed_before_both_have_moved_aborts_once() -> TestResult {
    let path = temp_db("corr-abort");
    let (id, waiting, deadline) = {
        let app = app_on(&path)?;
        let (id, white, _) = friend_game(&app, "bashni", 2).await?;
        let (status, moved) = play(&app, &id, &white, "c3-d4").await?;
        assert_eq!(status, StatusCode::OK);
        let deadline = deadline_of(&moved).ok_or("no deadline")?;
        // A game still waiting for its second player has no deadline to pass.
        let (waiting, _, _) = create(
            &app,
            json!({"variant": "bashni", "mode": "friend", "time": {"days_per_move": 1}}),
        )
        .await?;
        (id, waiting, deadline)
    };
    let app = app_on(&path)?;
    assert_eq!(app.end_overdue_games(deadline - 1).await?, 0, "not yet");
    assert_eq!(app.end_overdue_games(deadline).await?, 1);
    assert_eq!(
        app.end_overdue_games(deadline + DAY_MS).await?,
        0,
        "ended once"
    );
    let state = state_of(&app, &id).await?;
    assert_eq!(state["result"]["code"], "aborted");
    assert_eq!(state["result"]["score"], "*");
    let state = state_of(&app, &waiting).await?;
    assert_eq!(state["result"], Value::Null);
    Ok(())
}

async fn your_turn(app: &Arc<App>, seats: Value) -> Result<(StatusCode, Value), Error> {
    call(
        app,
        "POST",
        "/api/your-turn",
        None,
        Some(&json!({ "seats": seats }).to_string()),
    )
    .await
}

#[tokio::test]
async fn your_turn_lists_the_games_waiting_for_the_seats_move() -> TestResult {
    let app = memory_app()?;
    let (week, week_white, week_black) = friend_game(&app, "bashni", 7).await?;
    assert_eq!(
        play(&app, &week, &week_white, "c3-d4").await?.0,
        StatusCode::OK
    );
    let (day, day_white, _) = friend_game(&app, "russian", 1).await?;
    let (clock, clock_white, answer) = create(
        &app,
        json!({"variant": "bashni", "mode": "friend", "time": {"minutes": 5}}),
    )
    .await?;
    let invite = answer["invite_url"]
        .as_str()
        .and_then(|url| url.rsplit('/').next())
        .ok_or("no invite")?;
    let (status, _) = call(
        &app,
        "POST",
        &format!("/api/games/{clock}/join"),
        None,
        Some(&json!({ "invite": invite }).to_string()),
    )
    .await?;
    assert_eq!(status, StatusCode::OK);
    let (local, local_token, _) =
        create(&app, json!({"variant": "bashni", "mode": "local"})).await?;
    let seat = |id: &str, token: &str| json!({"id": id, "token": token});
    let (status, answer) = your_turn(
        &app,
        json!([
            seat(&week, &week_white),
            seat(&week, &week_black),
            seat(&day, &day_white),
            seat(&clock, &clock_white),
            seat(&local, &local_token),
            seat("nosuchga", &day_white),
            seat("not a game id", &day_white),
        ]),
    )
    .await?;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let ids: Vec<&str> = answer["games"]
        .as_array()
        .ok_or("no games")?
        .iter()
        .filter_map(|g| g["id"].as_str())
        .collect();
    // One seat per game: the later seat of `week` (Black) stands for it.
    assert_eq!(ids, [day.as_str(), week.as_str(), clock.as_str()]);
    let first = &answer["games"][0];
    assert_eq!(first["you"], "white");
    assert_eq!(first["opponent"], "Boris");
    assert_eq!(first["variant"], "russian");
    assert_eq!(first["days_per_move"], 1);
    assert_eq!(
        first["deadline_ms"],
        state_of(&app, &day).await?["correspondence"]["deadline_ms"]
    );
    assert_eq!(answer["games"][1]["you"], "black");
    assert_eq!(answer["games"][1]["opponent"], "Anna");
    assert_eq!(answer["games"][2]["deadline_ms"], Value::Null);
    assert!(answer["now_ms"].as_i64().is_some());
    // White's seat in `week` waits for Black: nothing to do there; a wrong token holds no seat.
    let (_, answer) = your_turn(
        &app,
        json!([seat(&week, &week_white), seat(&day, &week_white)]),
    )
    .await?;
    assert_eq!(answer["games"], json!([]));
    // After the move the game leaves the mover's list.
    assert_eq!(
        play(&app, &day, &day_white, "c3-d4").await?.0,
        StatusCode::OK
    );
    let (_, answer) = your_turn(&app, json!([seat(&day, &day_white)])).await?;
    assert_eq!(answer["games"], json!([]));
    // Bad requests say what is wrong.
    let many: Vec<Value> = (0..101).map(|_| seat(&day, &day_white)).collect();
    let (status, answer) = your_turn(&app, Value::Array(many)).await?;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        answer["error"]
            .as_str()
            .is_some_and(|m| m.contains("at most 100")),
        "{answer}"
    );
    let (status, answer) = call(
        &app,
        "POST",
        "/api/your-turn",
        None,
        Some(r#"{"tokens": []}"#),
    )
    .await?;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    let (status, _) = call(&app, "GET", "/api/your-turn", None, None).await?;
    assert_eq!(
        status,
        StatusCode::METHOD_NOT_ALLOWED,
        "tokens never go in an address"
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_on_postgres_keep_the_deadline_and_end_an_overdue_game_once() -> TestResult {
    let postgres = Postgres::start("sweep")?;
    let url = postgres.database("sweep").await?;
    let a = App::new(PgStore::connect(&url).await?, test_settings());
    let b = App::new(PgStore::connect(&url).await?, test_settings());
    let mut games = Vec::new();
    for _ in 0..6 {
        let (id, white, black) = friend_game(&a, "bashni", 2).await?;
        assert_eq!(play(&a, &id, &white, "c3-d4").await?.0, StatusCode::OK);
        let (status, moved) = play(&a, &id, &black, "f6-g5").await?;
        assert_eq!(status, StatusCode::OK);
        let deadline = deadline_of(&moved).ok_or("no deadline")?;
        // The other server reads the same deadline (and now holds the game in memory).
        let seen = state_of(&b, &id).await?;
        assert_eq!(deadline_of(&seen), Some(deadline));
        games.push((id, deadline, moved["version"].as_u64().ok_or("no version")?));
    }
    let later = games.iter().map(|(_, d, _)| *d).max().unwrap_or(0) + 1;
    // Two servers that both computed the end on one version: the second one's is stale.
    let (first, second) = (
        a.database.load(&games[0].0).await?.ok_or("gone")?,
        b.database.load(&games[0].0).await?.ok_or("gone")?,
    );
    let mut ends = Vec::new();
    for mut round in [first, second] {
        let was = round.version;
        assert!(round.end_overdue(std::time::Instant::now(), later));
        ends.push((round, was));
    }
    let mut saved = Vec::new();
    for (round, was) in ends {
        let (_, result) = a.database.save(round, Change::Game, was).await;
        saved.push(result.map_err(|e| e.kind));
    }
    assert_eq!(saved[0], Ok(()));
    assert_eq!(saved[1], Err(StoreErrorKind::Stale));
    // Now the sweepers of both servers at once, on the other games.
    let (at_a, at_b) = tokio::join!(a.end_overdue_games(later), b.end_overdue_games(later));
    let (at_a, at_b) = (at_a?, at_b?);
    assert_eq!(
        at_a + at_b,
        games.len() - 1,
        "each game ended once: A {at_a}, B {at_b}"
    );
    // The servers are done; a third reads what was stored.
    let c = App::new(PgStore::connect(&url).await?, test_settings());
    for (id, _, version) in &games {
        let round = c.database.load(id).await?.ok_or("the game is gone")?;
        assert_eq!(round.version, version + 1, "one change: the end");
        let ending = round.ending().ok_or("not ended")?;
        assert_eq!((ending.score(), ending.code()), ("0-1", "time"));
        assert_eq!(round.deadline_ms(), None);
    }
    assert_eq!(a.end_overdue_games(later + DAY_MS).await?, 0);
    assert_eq!(b.end_overdue_games(later + DAY_MS).await?, 0);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_older_postgres_database_learns_whose_turn_it_is() -> TestResult {
    let postgres = Postgres::start("migrate8")?;
    let url = postgres.database("old").await?;
    let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await?;
    tokio::spawn(connection);
    let before = postgres_migrations()
        .iter()
        .position(|sql| sql.contains("ADD COLUMN to_move"))
        .ok_or("no migration adds to_move")?;
    client
        .batch_execute(&format!(
            "CREATE TABLE bashni_schema (version INTEGER NOT NULL);
             INSERT INTO bashni_schema VALUES ({before});
             {}
             INSERT INTO games (id, variant, mode, start_fen, white_name, black_name,
                 white_joined, black_joined, tags, created_ms, updated_ms)
             VALUES ('whitesfirst', 'russian', 'local', 'W:W:B', 'A', 'B', true, true, '[]', 1, 1),
                    ('blacksfirst', 'russian', 'local', 'B:W:B', 'A', 'B', true, true, '[]', 1, 1);
             INSERT INTO moves (game_id, ply, text, at_ms) VALUES ('whitesfirst', 0, 'c3-d4', 1);",
            postgres_migrations()[..before].join(";\n")
        ))
        .await?;
    let store = PgStore::connect(&url).await?;
    let turns = store
        .turns(&["whitesfirst".to_string(), "blacksfirst".to_string()])
        .await?;
    let mut found: Vec<(String, String)> = turns.into_iter().map(|t| (t.id, t.to_move)).collect();
    found.sort();
    assert_eq!(
        found,
        [
            ("blacksfirst".to_string(), "black".to_string()),
            ("whitesfirst".to_string(), "black".to_string())
        ]
    );
    Ok(())
}
