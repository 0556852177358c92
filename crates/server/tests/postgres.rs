//! The store on both databases, and several servers sharing one PostgreSQL: each test
//! starts its own throw-away PostgreSQL server (see `common/pg.rs`).

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use bashni_rules::{Color, Position, TimeControl, Variant};
use bashni_server::game::round::{Mode, Player, Rematch, Round, Seat};
use bashni_server::store::{Change, ListFilter, ListStatus, StoreErrorKind, postgres_migrations};
use bashni_server::{App, Database, PgStore, Settings, Store};
use common::pg::Postgres;
use common::*;
use serde_json::json;

type Error = Box<dyn std::error::Error>;

fn local_round(id: &str) -> Round {
    let mut round = Round::new(
        id.into(),
        Mode::Local,
        Position::start(Variant::Bashni),
        Some(TimeControl {
            base: Duration::from_secs(60),
            increment: Duration::from_secs(1),
        }),
    );
    for (color, name) in [(Color::White, "Anna"), (Color::Black, "Boris")] {
        *round.player_mut(color) = Player {
            name: name.into(),
            token: Some("aa".into()),
            joined: true,
        };
    }
    round.creator = Some(Seat::Both);
    round
}

async fn play_stored(db: &Database, round: &mut Round, text: &str) -> Result<(), Error> {
    let was = round.version;
    let mut next = round.clone();
    next.play(Seat::Both, text, false, Instant::now())?;
    let (next, saved) = db.save(next, Change::Move, was).await;
    saved?;
    *round = next.ok_or("no round back")?;
    Ok(())
}

/// The store's behaviour, the same on every database.
async fn store_suite(db: &Database) -> Result<(), Error> {
    let mut round = local_round("g1");
    let (_, stored) = db.insert(round.clone()).await;
    stored?;
    play_stored(db, &mut round, "c3-d4").await?;
    play_stored(db, &mut round, "f6-g5").await?;
    let loaded = db.load("g1").await?.ok_or("g1 is missing")?;
    assert_eq!(loaded.game.moves(), round.game.moves());
    assert_eq!(loaded.version, round.version);
    assert_eq!(loaded.white, round.white);
    assert_eq!(loaded.move_clocks, round.move_clocks);
    assert_eq!(loaded.control(), round.control());

    // A change computed on an old version is refused, and nothing of it is written.
    let mut old = round.clone();
    old.version -= 1;
    old.play(Seat::Both, "g3-h4", false, Instant::now())?;
    let (_, refused) = db.save(old, Change::Move, round.version - 1).await;
    assert_eq!(
        refused.map_err(|e| e.kind).err(),
        Some(StoreErrorKind::Stale)
    );
    assert_eq!(db.load("g1").await?.ok_or("missing")?.game.ply(), 2);

    // A take-back, then a resignation that must be declared again when read.
    let was = round.version;
    let ply = round.take_back(Seat::Both, Instant::now())?;
    let (back, saved) = db.save(round.clone(), Change::TakeBack(ply), was).await;
    saved?;
    round = back.ok_or("no round back")?;
    assert_eq!(db.load("g1").await?.ok_or("missing")?.game.ply(), 1);
    let was = round.version;
    round.resign(Seat::Both, Instant::now())?;
    let (_, saved) = db.save(round.clone(), Change::Game, was).await;
    saved?;
    let loaded = db.load("g1").await?.ok_or("missing")?;
    assert_eq!(loaded.ending(), round.ending());
    assert!(loaded.is_over());

    // Two games in the list, newest first; a game twice is refused.
    let (_, stored) = db.insert(local_round("g2")).await;
    stored?;
    let (_, again) = db.insert(local_round("g2")).await;
    assert!(again.is_err());
    let recent = db.recent(10).await?;
    assert_eq!(recent.len(), 2);
    assert!(recent.iter().any(|g| g.id == "g1" && g.plies == 1));

    // A record's comments and variations read back as they were stored.
    let mut noted = local_round("noted");
    noted.notes = Some(bashni_server::game::notes::Notes {
        intro: vec!["Before the game".to_string()],
        after: vec![bashni_server::game::notes::PlyNotes {
            ply: 1,
            notes: bashni_server::game::notes::MoveNotes {
                comments: vec!["Ход".to_string()],
                nags: vec![1],
                variations: vec![bashni_server::game::notes::Line {
                    intro: Vec::new(),
                    moves: vec![bashni_server::game::notes::NotedMove {
                        text: "f6-g5".to_string(),
                        notes: Default::default(),
                    }],
                }],
            },
        }],
    });
    let (_, stored) = db.insert(noted.clone()).await;
    stored?;
    assert_eq!(
        db.load("noted").await?.ok_or("noted is missing")?.notes,
        noted.notes
    );

    // An aborted game reads back aborted, with its clocks stopped.
    let mut aborted = local_round("g3");
    let (_, stored) = db.insert(aborted.clone()).await;
    stored?;
    play_stored(db, &mut aborted, "c3-d4").await?;
    let was = aborted.version;
    aborted.abort(Seat::Both, Instant::now())?;
    let (_, saved) = db.save(aborted.clone(), Change::Game, was).await;
    saved?;
    let loaded = db.load("g3").await?.ok_or("g3 is missing")?;
    assert!(loaded.aborted && loaded.is_over());
    assert_eq!(loaded.ending(), aborted.ending());
    assert_eq!(loaded.running_clock(), None);
    let recent = db.recent(10).await?;
    let listed = recent
        .iter()
        .find(|g| g.id == "g3")
        .ok_or("g3 is not listed")?;
    assert_eq!(listed.result.as_deref(), Some("*"));

    // A rematch, offered and then made, reads back as stored.
    for made in [None, Some("g4")] {
        let was = aborted.version;
        aborted.rematch = Some(Rematch {
            offered_by: Color::Black,
            game: made.map(String::from),
        });
        aborted.touch();
        let (_, saved) = db.save(aborted.clone(), Change::Game, was).await;
        saved?;
        let loaded = db.load("g3").await?.ok_or("g3 is missing")?;
        assert_eq!(loaded.rematch, aborted.rematch);
    }
    assert!(db.load("nope").await?.is_none());
    assert!(db.schema_version().await? >= 3);

    // The lists: live games (a move made), finished ones (not aborted), by id, by pages.
    let mut live = local_round("g5");
    let (_, stored) = db.insert(live.clone()).await;
    stored?;
    play_stored(db, &mut live, "c3-d4").await?;
    let list = |status, ids: Option<&[&str]>, before: Option<(i64, String)>, limit| ListFilter {
        status,
        ids: ids.map(|ids| ids.iter().map(|id| id.to_string()).collect()),
        before,
        limit,
    };
    let names = |games: Vec<bashni_server::store::GameSummary>| -> Vec<String> {
        games.into_iter().map(|g| g.id).collect()
    };
    assert_eq!(
        names(db.list(list(ListStatus::Live, None, None, 10)).await?),
        ["g5"]
    );
    assert_eq!(
        names(db.list(list(ListStatus::Finished, None, None, 10)).await?),
        ["g1"]
    );
    let mut mine = names(
        db.list(list(ListStatus::All, Some(&["g3", "g1", "zz"]), None, 10))
            .await?,
    );
    mine.sort();
    assert_eq!(mine, ["g1", "g3"]);
    assert!(
        db.list(list(ListStatus::All, Some(&[]), None, 10))
            .await?
            .is_empty()
    );
    let all = db.list(list(ListStatus::All, None, None, 10)).await?;
    assert_eq!(all.len(), 5, "g1, g2, g3, g5 and the noted record");
    assert!(
        all.iter()
            .any(|g| g.id == "g5" && g.version == live.version)
    );
    let mut paged = Vec::new();
    let mut before = None;
    loop {
        let page = db
            .list(list(ListStatus::All, None, before.clone(), 3))
            .await?;
        let Some(last) = page.last() else { break };
        before = Some((last.listed_ms, last.id.clone()));
        paged.extend(page.into_iter().map(|g| g.id));
    }
    assert_eq!(paged, names(all));
    a_game_keeps_its_place_in_the_lists(db).await?;
    changes_made_together(db).await
}

/// A game's place in the lists is the time it was made, then of its first move, then of its
/// end; the moves between leave it where it is (so that they write no list index).
async fn a_game_keeps_its_place_in_the_lists(db: &Database) -> Result<(), Error> {
    let mut round = local_round("listed");
    round.updated_ms = 1_000;
    let (_, stored) = db.insert(round.clone()).await;
    stored?;
    let listed = || async {
        let filter = ListFilter {
            ids: Some(vec!["listed".to_string()]),
            limit: 1,
            ..ListFilter::default()
        };
        let games = db.list(filter).await?;
        let game = games.first().ok_or("the game is not listed")?;
        Ok::<_, Error>((game.listed_ms, game.updated_ms))
    };
    assert_eq!(listed().await?, (1_000, 1_000));
    // Each change at a time of its own: 2, 3 and 4 seconds in.
    for (ply, (text, at)) in [("c3-d4", 2_000), ("f6-g5", 3_000), ("g3-h4", 4_000)]
        .into_iter()
        .enumerate()
    {
        let was = round.version;
        let mut next = round.clone();
        next.play(Seat::Both, text, false, Instant::now())?;
        next.updated_ms = at;
        let (next, saved) = db.save(next, Change::Move, was).await;
        saved?;
        round = next.ok_or("no round back")?;
        let first = if ply == 0 { at } else { 2_000 };
        assert_eq!(listed().await?, (first, at), "after ply {}", ply + 1);
    }
    let was = round.version;
    let mut ended = round.clone();
    ended.resign(Seat::Both, Instant::now())?;
    ended.updated_ms = 5_000;
    let (_, saved) = db.save(ended, Change::Game, was).await;
    saved?;
    assert_eq!(listed().await?, (5_000, 5_000), "the end places it again");
    Ok(())
}

/// Plays c3-d4 in every one of `rounds` at once, each stored as made on the version
/// `was(n, version)` gives for the `n`-th; what each save answered.
async fn first_moves_at_once(
    db: &Database,
    rounds: &[Round],
    was: impl Fn(usize, u64) -> u64,
) -> Vec<Result<Result<(), StoreErrorKind>, String>> {
    let saves = rounds.iter().enumerate().map(|(n, round)| {
        let mut next = round.clone();
        let was = was(n, round.version);
        async move {
            next.play(Seat::Both, "c3-d4", false, Instant::now())
                .map_err(|e| e.to_string())?;
            let (_, saved) = db.save(next, Change::Move, was).await;
            Ok::<_, String>(saved.map_err(|e| e.kind))
        }
    });
    futures_util::future::join_all(saves).await
}

/// Changes of many games sent at once (stored together, in group commits): each is stored
/// or refused on its own; a change made on a version the store does not hold is refused
/// without taking the others with it.
async fn changes_made_together(db: &Database) -> Result<(), Error> {
    let mut rounds = Vec::new();
    for n in 0..24 {
        let round = local_round(&format!("together{n}"));
        let (_, stored) = db.insert(round.clone()).await;
        stored?;
        rounds.push(round);
    }
    let results = first_moves_at_once(
        db,
        &rounds,
        |n, version| {
            if n == 5 { version + 7 } else { version }
        },
    )
    .await;
    for (n, result) in results.into_iter().enumerate() {
        let stored = db
            .load(&format!("together{n}"))
            .await?
            .ok_or("missing game")?;
        if n == 5 {
            assert_eq!(result?, Err(StoreErrorKind::Stale));
            assert_eq!(stored.game.ply(), 0);
        } else {
            assert_eq!(result?, Ok(()), "game {n}");
            assert_eq!(stored.game.ply(), 1, "game {n}");
        }
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_store_suite_passes_on_both_databases() -> Result<(), Error> {
    store_suite(&Database::from(Store::in_memory()?)).await?;
    let postgres = Postgres::start("suite")?;
    let url = postgres.database("suite").await?;
    store_suite(&Database::from(PgStore::connect(&url).await?)).await?;
    Ok(())
}

/// A move that fails in the database itself (its row is there already, written by hand) among
/// many stored at once: it is refused and leaves its game as it was; the others are stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_the_database_refuses_takes_no_other_move_with_it() -> Result<(), Error> {
    let postgres = Postgres::start("refused")?;
    let url = postgres.database("refused").await?;
    let db = Database::from(PgStore::connect(&url).await?);
    let mut rounds = Vec::new();
    for n in 0..16 {
        let round = local_round(&format!("g{n}"));
        let (_, stored) = db.insert(round.clone()).await;
        stored?;
        rounds.push(round);
    }
    let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await?;
    tokio::spawn(connection);
    client
        .batch_execute(
            "INSERT INTO moves (game_id, ply, text, white_ms, black_ms, at_ms) \
             VALUES ('g3', 0, 'a3-b4', NULL, NULL, 1)",
        )
        .await?;
    let results = first_moves_at_once(&db, &rounds, |_, version| version).await;
    for (n, result) in results.into_iter().enumerate() {
        let row = client
            .query_one(
                "SELECT version FROM games WHERE id = $1",
                &[&format!("g{n}")],
            )
            .await?;
        let version: i64 = row.get(0);
        let result = result?;
        if n == 3 {
            assert!(
                result.is_err(),
                "the stray row's game was stored: {result:?}"
            );
            assert_eq!(version, rounds[n].version as i64, "game g3 changed");
        } else {
            assert_eq!(result, Ok(()), "game {n}");
            assert_eq!(version, rounds[n].version as i64 + 1, "game {n}");
            let loaded = db.load(&format!("g{n}")).await?.ok_or("missing game")?;
            assert_eq!(loaded.game.ply(), 1, "game {n}");
        }
    }
    Ok(())
}

/// Moves of many games made at once share their commits: one statement stores them all
/// (each row keeps the transaction that wrote it), and every move is there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_of_many_games_made_at_once_share_their_commits() -> Result<(), Error> {
    let postgres = Postgres::start("shared_commits")?;
    let url = postgres.database("shared_commits").await?;
    let db = Database::from(PgStore::connect(&url).await?);
    let mut rounds = Vec::new();
    for n in 0..32 {
        let round = local_round(&format!("g{n}"));
        let (_, stored) = db.insert(round.clone()).await;
        stored?;
        rounds.push(round);
    }
    for result in first_moves_at_once(&db, &rounds, |_, version| version).await {
        assert_eq!(result?, Ok(()));
    }
    let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await?;
    tokio::spawn(connection);
    let row = client
        .query_one(
            "SELECT count(*), count(DISTINCT xmin::TEXT) FROM moves WHERE game_id LIKE 'g%'",
            &[],
        )
        .await?;
    let (moves, commits): (i64, i64) = (row.get(0), row.get(1));
    assert_eq!(moves, 32);
    // The writer may have taken the first move alone, before the others were queued.
    assert!(commits <= 3, "32 moves made at once took {commits} commits");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_old_postgres_database_is_brought_up_to_date_and_a_newer_one_refused()
-> Result<(), Error> {
    let postgres = Postgres::start("migrate")?;
    let url = postgres.database("old").await?;
    let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await?;
    tokio::spawn(connection);
    client
        .batch_execute(&format!(
            "CREATE TABLE bashni_schema (version INTEGER NOT NULL);
             INSERT INTO bashni_schema VALUES (1);
             {}
             INSERT INTO games (id, variant, mode, start_fen, white_name, black_name,
                 white_joined, black_joined, tags, created_ms, updated_ms)
             VALUES ('old', 'russian', 'local', 'W:W:B', 'A', 'B', true, true, '[]', 1, 1);",
            postgres_migrations()[0]
        ))
        .await?;
    let store = PgStore::connect(&url).await?;
    assert_eq!(
        store.schema_version().await?,
        postgres_migrations().len() as i64
    );
    let old = store.load("old").await?.ok_or("the old game is missing")?;
    assert_eq!(old.version, 0);
    assert_eq!(old.white.name, "A");
    client
        .batch_execute("UPDATE bashni_schema SET version = 99")
        .await?;
    let refused = PgStore::connect(&url).await;
    assert!(
        refused.as_ref().is_err_and(|e| e.message.contains("newer")),
        "{:?}",
        refused.err()
    );
    Ok(())
}

fn settings() -> Settings {
    Settings {
        engines: 1,
        hash_mb: 4,
        requests_per_second: 100_000,
        open_requests_per_address: 100_000,
        new_games_per_minute: 100_000,
        ..Settings::default()
    }
}

async fn two_servers(name: &str) -> Result<(Postgres, [Arc<App>; 2]), Error> {
    let postgres = Postgres::start(name)?;
    let url = postgres.database(name).await?;
    let a = App::new(PgStore::connect(&url).await?, settings());
    let b = App::new(PgStore::connect(&url).await?, settings());
    Ok((postgres, [a, b]))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_change_on_one_server_reaches_the_sockets_of_another() -> Result<(), Error> {
    let (_postgres, [a, b]) = two_servers("share").await?;
    serve(&a).await?;
    let at_b = serve(&b).await?;
    let (id, token, _) = create(&a, json!({"variant": "bashni", "mode": "local"})).await?;
    let (mut socket, _) =
        tokio_tungstenite::connect_async(format!("ws://{at_b}/api/games/{id}/ws")).await?;
    next_json(&mut socket, "state").await?;
    send_json(
        &mut socket,
        json!({"type": "seat", "id": 0, "token": token}),
    )
    .await?;
    next_json(&mut socket, "ack").await?;
    next_json(&mut socket, "state").await?;
    // A move on server A is told to the socket on server B.
    let (status, _) = play(&a, &id, &token, "c3-d4").await?;
    assert_eq!(status, StatusCode::OK);
    let update = next_json(&mut socket, "update").await?;
    assert_eq!(move_texts(&update["update"]), ["c3-d4"]);
    // A move over the socket on B is seen on A.
    send_json(
        &mut socket,
        json!({"type": "move", "id": 1, "move": "f6-g5", "ply": 1}),
    )
    .await?;
    assert_eq!(next_json(&mut socket, "ack").await?["id"], 1);
    let state = wait_for(&a, &id, |s| move_texts(s).len() == 2).await?;
    assert_eq!(move_texts(&state), ["c3-d4", "f6-g5"]);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_seat_moving_on_two_servers_at_once_stores_exactly_one_move() -> Result<(), Error>
{
    let (_postgres, [a, b]) = two_servers("race").await?;
    serve(&a).await?;
    serve(&b).await?;
    let (id, token, _) = create(&a, json!({"variant": "russian", "mode": "local"})).await?;
    let mut stored = 0;
    let mut rounds = 0;
    for _ in 0..40 {
        let (_, state) = call(&a, "GET", &format!("/api/games/{id}"), None, None).await?;
        if !state["result"].is_null() {
            break;
        }
        let legal = legal_texts(&state);
        let (Some(first), Some(last)) = (legal.first(), legal.last()) else {
            break;
        };
        let (at_a, at_b) = tokio::join!(play(&a, &id, &token, first), play(&b, &id, &token, last));
        let (at_a, at_b) = (at_a?, at_b?);
        let accepted = [&at_a, &at_b]
            .iter()
            .filter(|(status, _)| *status == StatusCode::OK)
            .count();
        assert_eq!(accepted, 1, "A: {at_a:?}\nB: {at_b:?}");
        stored += accepted;
        rounds += 1;
        // Both servers come to the same game.
        let seen_a = wait_for(&a, &id, |s| move_texts(s).len() == stored).await?;
        let seen_b = wait_for(&b, &id, |s| move_texts(s).len() == stored).await?;
        assert_eq!(move_texts(&seen_a), move_texts(&seen_b));
    }
    assert!(rounds >= 10, "only {rounds} rounds were played");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engine_moves_are_jobs_any_server_takes_also_after_a_server_died() -> Result<(), Error> {
    let postgres = Postgres::start("jobs")?;
    let url = postgres.database("jobs").await?;
    // Server A makes games but never serves (it takes no jobs); server B serves later.
    let a = App::new(PgStore::connect(&url).await?, settings());
    let b = App::new(PgStore::connect(&url).await?, settings());
    let (first, _, _) = create(
        &a,
        json!({"variant": "russian", "mode": "engine", "level": 1, "color": "black"}),
    )
    .await?;
    // The second game's job is held by a server that died: its lease runs 1.5 s more.
    let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await?;
    tokio::spawn(connection);
    let (second, token, _) = create(
        &a,
        json!({"variant": "russian", "mode": "engine", "level": 1}),
    )
    .await?;
    let (status, _) = play(&a, &second, &token, "c3-d4").await?;
    assert_eq!(status, StatusCode::OK);
    client
        .execute(
            "UPDATE engine_jobs SET taken_by = 'dead', taken_until = $2 WHERE game_id = $1",
            &[&second, &(bashni_server::game::round::now_ms() + 1500)],
        )
        .await?;
    let started = Instant::now();
    serve(&b).await?;
    let state = wait_for(&b, &first, |s| move_texts(s).len() == 1).await?;
    assert_eq!(state["turn"], "black");
    let state = wait_for(&b, &second, |s| move_texts(s).len() == 2).await?;
    assert_eq!(state["turn"], "white");
    assert!(
        started.elapsed() >= Duration::from_millis(1000),
        "the job was taken while its lease held"
    );
    let jobs: i64 = client
        .query_one("SELECT COUNT(*) FROM engine_jobs", &[])
        .await?
        .get(0);
    assert_eq!(jobs, 0, "a done job was left");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_chat_store_keeps_the_last_lines_on_postgres() -> Result<(), Error> {
    let postgres = Postgres::start("chatstore")?;
    let url = postgres.database("chatstore").await?;
    let db = Database::from(PgStore::connect(&url).await?);
    let (_, stored) = db.insert(local_round("c1")).await;
    stored?;
    chat_store_suite(&db, "c1").await
}

/// Two servers on one database, with short waits for claims and reports of presence.
async fn two_quick_servers(
    name: &str,
    abandon_after: Duration,
) -> Result<(Postgres, String, [Arc<App>; 2]), Error> {
    let postgres = Postgres::start(name)?;
    let url = postgres.database(name).await?;
    let quick = Settings {
        abandon_after,
        presence_beat: Duration::from_millis(200),
        ..settings()
    };
    let a = App::new(PgStore::connect(&url).await?, quick.clone());
    let b = App::new(PgStore::connect(&url).await?, quick);
    Ok((postgres, url, [a, b]))
}

/// A game between two people with a clock, made on `app`: its id and both tokens.
async fn timed_friend_game(app: &Arc<App>) -> Result<(String, String, String), Error> {
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

/// A socket on game `id` at `address`, bound with `token` (or a watcher's), past its state
/// and chat history; returns the state too.
async fn open_socket(
    address: std::net::SocketAddr,
    id: &str,
    token: Option<&str>,
) -> Result<(Socket, serde_json::Value), Error> {
    let url = format!("ws://{address}/api/games/{id}/ws");
    let (mut socket, _) = tokio_tungstenite::connect_async(&url).await?;
    let mut state = next_json(&mut socket, "state").await?;
    next_json(&mut socket, "chat_history").await?;
    if let Some(token) = token {
        send_json(
            &mut socket,
            json!({"type": "seat", "id": 0, "token": token}),
        )
        .await?;
        next_json(&mut socket, "ack").await?;
        state = next_json(&mut socket, "state").await?;
        next_json(&mut socket, "chat_history").await?;
    }
    Ok((socket, state["state"].clone()))
}

/// The next update on `socket` for which `check` holds.
async fn update_where(
    socket: &mut Socket,
    check: impl Fn(&serde_json::Value) -> bool,
) -> Result<serde_json::Value, Error> {
    for _ in 0..100 {
        let update = next_json(socket, "update").await?;
        if check(&update["update"]) {
            return Ok(update["update"].clone());
        }
    }
    Err("no such update came".into())
}

/// The ack or error answering message `n` on `socket`.
async fn answer_to(socket: &mut Socket, n: u64) -> Result<serde_json::Value, Error> {
    loop {
        let value = next_json_any(socket).await?;
        if (value["type"] == "ack" || value["type"] == "error") && value["id"] == n {
            return Ok(value);
        }
    }
}

async fn next_json_any(socket: &mut Socket) -> Result<serde_json::Value, Error> {
    use futures_util::StreamExt;
    let message = tokio::time::timeout(Duration::from_secs(5), socket.next())
        .await?
        .ok_or("socket closed")??;
    Ok(serde_json::from_str(message.to_text()?)?)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_and_mutes_reach_the_sockets_of_every_server() -> Result<(), Error> {
    let (_postgres, _, [a, b]) = two_quick_servers("chat", Duration::from_secs(60)).await?;
    let at_a = serve(&a).await?;
    let at_b = serve(&b).await?;
    let (id, white, black) = timed_friend_game(&a).await?;
    let (mut anna, _) = open_socket(at_a, &id, Some(&white)).await?;
    let (mut boris, _) = open_socket(at_b, &id, Some(&black)).await?;
    let (mut watcher, _) = open_socket(at_b, &id, None).await?;
    let (mut watcher_a, _) = open_socket(at_a, &id, None).await?;

    // A line written on A reaches the player on B, not the watcher there.
    send_json(
        &mut anna,
        json!({"type": "chat", "id": 1, "room": "players", "text": "hi from A"}),
    )
    .await?;
    assert_eq!(answer_to(&mut anna, 1).await?["seq"], 1);
    let line = next_json(&mut boris, "chat").await?;
    assert_eq!(line["line"]["text"], "hi from A");
    assert_eq!(line["line"]["name"], "Anna");
    // A watcher's line on B reaches the watcher on A, not the player there (during play).
    send_json(
        &mut watcher,
        json!({"type": "chat", "id": 2, "room": "watchers", "text": "from B"}),
    )
    .await?;
    let line = next_json(&mut watcher_a, "chat").await?;
    assert_eq!(line["room"], "watchers");
    assert_eq!(line["line"]["text"], "from B");
    assert_eq!(line["line"]["seq"], 1);
    let own = next_json(&mut anna, "chat").await?;
    assert_eq!(own["room"], "players", "Anna hears her own line: {own}");
    assert_eq!(
        next_json(&mut watcher, "chat").await?["line"]["text"],
        "from B",
        "the watcher never heard the players' line"
    );

    // Boris mutes Anna on B: Anna's next line on A does not reach him.
    send_json(
        &mut boris,
        json!({"type": "mute", "id": 3, "action": "mute"}),
    )
    .await?;
    assert_eq!(answer_to(&mut boris, 3).await?["type"], "ack");
    let history = next_json(&mut boris, "chat_history").await?;
    assert_eq!(history["muted"], true);
    // A new socket of Boris's seat on A hears of the mute too.
    let (mut boris_at_a, _) = open_socket(at_a, &id, Some(&black)).await?;
    send_json(
        &mut anna,
        json!({"type": "chat", "id": 4, "room": "players", "text": "still there?"}),
    )
    .await?;
    assert_eq!(answer_to(&mut anna, 4).await?["seq"], 2);
    send_json(
        &mut anna,
        json!({"type": "chat", "id": 5, "room": "watchers", "text": "x"}),
    )
    .await?;
    assert_eq!(answer_to(&mut anna, 5).await?["code"], "forbidden");
    // Boris writes after Anna: his line comes, hers never did (on either server).
    send_json(
        &mut boris,
        json!({"type": "chat", "id": 6, "room": "players", "text": "busy"}),
    )
    .await?;
    assert_eq!(answer_to(&mut boris, 6).await?["seq"], 3);
    for socket in [&mut boris, &mut boris_at_a] {
        assert_eq!(next_json(socket, "chat").await?["line"]["text"], "busy");
    }
    // Unmuted on A: both of his sockets are sent the chat again, with her line.
    send_json(
        &mut boris_at_a,
        json!({"type": "mute", "id": 7, "action": "unmute"}),
    )
    .await?;
    assert_eq!(answer_to(&mut boris_at_a, 7).await?["type"], "ack");
    for socket in [&mut boris_at_a, &mut boris] {
        let history = next_json(socket, "chat_history").await?;
        assert_eq!(history["muted"], false);
        let texts: Vec<&str> = history["rooms"]["players"]
            .as_array()
            .map(|lines| lines.iter().filter_map(|l| l["text"].as_str()).collect())
            .unwrap_or_default();
        assert_eq!(texts, ["hi from A", "still there?", "busy"]);
    }
    Ok(())
}

/// A game's chat is known empty on the server that made it, without reading the store: a
/// line written on another server before any socket opened there still reaches that
/// server's first socket (in its history, or right after it when the note comes later).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_line_written_elsewhere_reaches_the_server_that_made_the_game() -> Result<(), Error> {
    let (_postgres, _, [a, b]) = two_quick_servers("chatnew", Duration::from_secs(60)).await?;
    let at_a = serve(&a).await?;
    let at_b = serve(&b).await?;
    let (id, white, black) = timed_friend_game(&a).await?;
    let (mut boris, _) = open_socket(at_b, &id, Some(&black)).await?;
    send_json(
        &mut boris,
        json!({"type": "chat", "id": 1, "room": "players", "text": "first"}),
    )
    .await?;
    assert_eq!(answer_to(&mut boris, 1).await?["seq"], 1);
    // Anna's first socket on A, bound to her seat.
    let url = format!("ws://{at_a}/api/games/{id}/ws");
    let (mut anna, _) = tokio_tungstenite::connect_async(&url).await?;
    next_json(&mut anna, "state").await?;
    next_json(&mut anna, "chat_history").await?;
    send_json(&mut anna, json!({"type": "seat", "id": 0, "token": white})).await?;
    next_json(&mut anna, "ack").await?;
    next_json(&mut anna, "state").await?;
    let history = next_json(&mut anna, "chat_history").await?;
    let texts = texts(&history["rooms"]["players"]);
    if texts.is_empty() {
        let line = next_json(&mut anna, "chat").await?;
        assert_eq!(line["line"]["text"], "first", "{line}");
        assert_eq!(line["line"]["seq"], 1);
    } else {
        assert_eq!(texts, ["first"], "{history}");
    }
    // Her answer on A reaches Boris on B as the second line.
    send_json(
        &mut anna,
        json!({"type": "chat", "id": 2, "room": "players", "text": "second"}),
    )
    .await?;
    assert_eq!(answer_to(&mut anna, 2).await?["seq"], 2);
    let mut heard = next_json(&mut boris, "chat").await?;
    if heard["line"]["text"] == "first" {
        heard = next_json(&mut boris, "chat").await?;
    }
    assert_eq!(heard["line"]["text"], "second", "{heard}");
    Ok(())
}

/// Players of many games arriving on one server at once (their reports of presence written
/// together): the other server sees every one of them online, and they see their opponents
/// arrive there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_arriving_at_once_are_all_seen_online_on_another_server() -> Result<(), Error> {
    let (_postgres, _url, [a, b]) =
        two_quick_servers("arrivals", Duration::from_millis(1500)).await?;
    let at_a = serve(&a).await?;
    let at_b = serve(&b).await?;
    let mut games = Vec::new();
    for _ in 0..8 {
        games.push(timed_friend_game(&a).await?);
    }
    let opened = futures_util::future::join_all(
        games
            .iter()
            .map(|(id, white, _)| open_socket(at_a, id, Some(white))),
    )
    .await;
    let mut whites = Vec::new();
    for socket in opened {
        whites.push(socket?.0);
    }
    for ((id, _, black), white) in games.iter().zip(&mut whites) {
        let (_boris, state) = open_socket(at_b, id, Some(black)).await?;
        assert_eq!(
            state["white"]["online"], true,
            "game {id}: B sees White on A"
        );
        update_where(white, |u| u["black"]["online"] == true).await?;
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn presence_and_claims_work_across_servers() -> Result<(), Error> {
    let wait = Duration::from_millis(1500);
    let (_postgres, url, [a, b]) = two_quick_servers("presence", wait).await?;
    let at_a = serve(&a).await?;
    let at_b = serve(&b).await?;
    let (id, white, black) = timed_friend_game(&a).await?;
    let (mut anna, state) = open_socket(at_a, &id, Some(&white)).await?;
    assert_eq!(state["black"]["online"], false);
    let (mut boris, state) = open_socket(at_b, &id, Some(&black)).await?;
    assert_eq!(state["white"]["online"], true, "B knows Anna is on A");
    assert_eq!(state["black"]["online"], true);
    update_where(&mut anna, |u| u["black"]["online"] == true).await?;

    // Each moves once the other's move has reached their server.
    for (socket, n, text, server) in [(&mut anna, 1, "c3-d4", &b), (&mut boris, 2, "f6-g5", &a)] {
        send_json(
            socket,
            json!({"type": "move", "id": n, "move": text, "ply": n - 1}),
        )
        .await?;
        assert_eq!(answer_to(socket, n).await?["type"], "ack");
        wait_for(server, &id, |s| move_texts(s).len() == n as usize).await?;
    }
    send_json(
        &mut anna,
        json!({"type": "move", "id": 3, "move": "g3-h4", "ply": 2}),
    )
    .await?;
    assert_eq!(answer_to(&mut anna, 3).await?["type"], "ack");

    // Boris closes his socket on B: A hears it and Anna sees the wait.
    drop(boris);
    let update = update_where(&mut anna, |u| u["black"]["online"] == false).await?;
    assert_eq!(update["abandon"]["side"], "black", "{update}");
    send_json(&mut anna, json!({"type": "claim", "id": 4, "claim": "win"})).await?;
    let early = answer_to(&mut anna, 4).await?;
    assert!(
        early["error"]
            .as_str()
            .is_some_and(|e| e.contains("offline for")),
        "{early}"
    );

    // A server that dies leaves a report that goes stale: Black counts as online until
    // three beats after its last renewal, then as away since then.
    let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await?;
    tokio::spawn(connection);
    let now = bashni_server::game::round::now_ms();
    client
        .execute(
            "INSERT INTO presence (game_id, side, server, sockets, seen_ms) \
             VALUES ($1, 'black', 'dead', 1, $2)",
            &[&id, &now],
        )
        .await?;
    client
        .execute(
            "SELECT pg_notify('bashni_people', $1)",
            &[&format!("presence {id}")],
        )
        .await?;
    let back = update_where(&mut anna, |u| u["black"]["online"] == true).await?;
    assert!(back["abandon"].is_null(), "{back}");
    let gone = update_where(&mut anna, |u| u["black"]["online"] == false).await?;
    let claim_in = gone["abandon"]["claim_in_ms"].as_i64().ok_or("no wait")?;
    assert!(
        claim_in > 0 && claim_in <= wait.as_millis() as i64,
        "{gone}"
    );
    // After the wait (B's time moved past it) the claim is taken, and both servers show
    // the result.
    b.settings
        .time
        .advance(Duration::from_millis(claim_in as u64 + 100));
    let (status, state) = call(
        &b,
        "POST",
        &format!("/api/games/{id}/claim"),
        Some(&white),
        Some(r#"{"claim": "win"}"#),
    )
    .await?;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(state["result"]["code"], "abandoned");
    assert_eq!(state["result"]["reason"], "Black left the game");
    let seen = wait_for(&a, &id, |s| !s["result"].is_null()).await?;
    assert_eq!(seen["result"], state["result"]);
    Ok(())
}

/// Seam 1, without timing luck: server B hears nothing of A (it does not listen), so its
/// copy of the game falls behind the store by construction. A move made for an older
/// position is refused with `stale` and the state now, on the server whose copy is behind
/// and on the one whose copy is current; a move made for the stored position is decided
/// again on the stored game and taken.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_made_for_an_older_position_is_refused_on_every_server() -> Result<(), Error> {
    let (_postgres, [a, b]) = two_servers("behind").await?;
    let (id, token, _) = create(&a, json!({"variant": "bashni", "mode": "local"})).await?;
    // B takes the game into memory at ply 0 and hears nothing after.
    let (_, at_b) = call(&b, "GET", &format!("/api/games/{id}"), None, None).await?;
    assert_eq!(at_b["ply"], 0);
    for (ply, text) in [(0, "c3-d4"), (1, "f6-g5")] {
        let (status, state) = play_at(&a, &id, &token, text, ply).await?;
        assert_eq!(status, StatusCode::OK, "{state}");
    }
    // B's copy is at ply 0, the store at 2; the client was shown ply 0.
    let (status, refused) = play_at(&b, &id, &token, "g3-h4", 0).await?;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    assert_eq!(refused["code"], "stale", "{refused}");
    assert_eq!(
        refused["state"]["ply"], 2,
        "the refusal carries the state now"
    );
    let (_, stored) = call(&a, "GET", &format!("/api/games/{id}"), None, None).await?;
    assert_eq!(move_texts(&stored), ["c3-d4", "f6-g5"]);

    // Two more plies on A; B's copy stays at 2.
    let at_2 = stored;
    for ply in 2..4 {
        let (_, state) = call(&a, "GET", &format!("/api/games/{id}"), None, None).await?;
        let first = legal_texts(&state)
            .first()
            .cloned()
            .ok_or("no legal move")?;
        let (status, _) = play_at(&a, &id, &token, &first, ply).await?;
        assert_eq!(status, StatusCode::OK);
    }
    let (_, at_4) = call(&a, "GET", &format!("/api/games/{id}"), None, None).await?;
    assert_eq!(at_4["ply"], 4);
    // A move White could make at ply 2 and still can at ply 4, sent as made for ply 2:
    // legal on the board now, but never shown with this board, so refused on A too.
    let still: Vec<String> = legal_texts(&at_2)
        .into_iter()
        .filter(|text| legal_texts(&at_4).contains(text))
        .collect();
    let both = still.first().ok_or("no move is legal at both plies")?;
    let (status, refused) = play_at(&a, &id, &token, both, 2).await?;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    assert_eq!(refused["code"], "stale");
    // The same move made for ply 4, sent to B whose copy is at 2: decided again on the
    // stored game, and taken.
    let (status, state) = play_at(&b, &id, &token, both, 4).await?;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(state["ply"], 5);
    let (_, stored) = call(&a, "GET", &format!("/api/games/{id}"), None, None).await?;
    assert_eq!(move_texts(&stored).len(), 5);
    assert_eq!(move_texts(&stored)[4], *both);
    Ok(())
}

/// Seam 1, without a kill: one seat plays 200 plies at one screen, each move sent to the
/// other server than the last, made for the position the last answer showed. A server whose
/// copy has not yet heard of the last move decides again on the stored game: no legal move
/// is refused, and the game is the same on both.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_alternating_between_two_servers_are_all_taken() -> Result<(), Error> {
    let (_postgres, [a, b]) = two_servers("alternate").await?;
    serve(&a).await?;
    serve(&b).await?;
    let (id, token, created) = create(&a, json!({"variant": "bashni", "mode": "local"})).await?;
    let mut shown = created["state"].clone();
    let mut played = Vec::new();
    for n in 0..200 {
        if !shown["result"].is_null() {
            break;
        }
        let Some(text) = legal_texts(&shown).first().cloned() else {
            break;
        };
        let ply = shown["ply"].as_u64().ok_or("no ply")?;
        let server = if n % 2 == 0 { &b } else { &a };
        let (status, answer) = play_at(server, &id, &token, &text, ply).await?;
        assert_eq!(status, StatusCode::OK, "ply {ply}, {text}: {answer}");
        played.push(text);
        shown = answer;
    }
    assert!(played.len() >= 40, "only {} plies", played.len());
    let at_a = wait_for(&a, &id, |s| move_texts(s).len() == played.len()).await?;
    let at_b = wait_for(&b, &id, |s| move_texts(s).len() == played.len()).await?;
    assert_eq!(move_texts(&at_a), played);
    assert_eq!(move_texts(&at_b), played);
    Ok(())
}

/// A server holding a game brings its copy up to date from what the notifications carry:
/// moves and take-backs without reading the game again; any other change (here a
/// resignation, which ends the game) is read from the store.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notifications_carry_each_move_and_no_game_is_read_again() -> Result<(), Error> {
    let (_postgres, [a, b]) = two_servers("notes").await?;
    serve(&a).await?;
    let at_b = serve(&b).await?;
    let (id, token, created) = create(
        &a,
        json!({"variant": "bashni", "mode": "local", "time": {"minutes": 5}}),
    )
    .await?;
    // A watcher on B: B holds the game, and tells the socket of each change it hears (a
    // state asked for over HTTP would read the game instead, to show the stored version).
    let (mut watcher, at_b) = open_socket(at_b, &id, None).await?;
    assert_eq!(at_b["ply"], 0);
    let mut shown = created["state"].clone();
    let mut seen = Vec::new();
    for ply in 0..30u64 {
        let text = legal_texts(&shown)
            .first()
            .cloned()
            .ok_or("no legal move")?;
        let (status, answer) = play_at(&a, &id, &token, &text, ply).await?;
        assert_eq!(status, StatusCode::OK, "{answer}");
        shown = answer;
        let update = update_where(&mut watcher, |u| u["ply"] == ply + 1).await?;
        seen.extend(move_texts(&update));
        assert_eq!(seen, move_texts(&shown));
        assert_eq!(legal_texts(&update), legal_texts(&shown));
        assert_eq!(update["version"], shown["version"], "ply {}", ply + 1);
    }
    assert_eq!(b.games_read_again(), 0, "every move came with its note");

    let (status, ended) = call(
        &a,
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(&token),
        Some(&json!({"ply": 30}).to_string()),
    )
    .await?;
    assert_eq!(status, StatusCode::OK, "{ended}");
    let update = update_where(&mut watcher, |u| !u["result"].is_null()).await?;
    assert_eq!(update["result"], ended["result"]);
    assert_eq!(b.games_read_again(), 1, "an end is read from the store");
    Ok(())
}

/// A game made on one server and played on another (as behind a balancer that sends a game's
/// requests and sockets to its owner): the server that made it, holding it for nobody, lets
/// it go at the first change it hears instead of following every move, and reads it afresh
/// when it is asked for it again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_played_on_another_server_is_let_go_not_followed() -> Result<(), Error> {
    let (_postgres, [a, b]) = two_servers("let_go").await?;
    let at_a = serve(&a).await?;
    serve(&b).await?;
    let (played, token, created) =
        create(&a, json!({"variant": "russian", "mode": "local"})).await?;
    // A second game, watched on A: when A's watcher sees its move, made after the first
    // game's, A has heard of both.
    let (marker, marker_token, marker_state) =
        create(&b, json!({"variant": "russian", "mode": "local"})).await?;
    let (mut watcher, _) = open_socket(at_a, &marker, None).await?;
    assert_eq!(
        a.games_in_memory(),
        2,
        "A holds the game it made and the watched one"
    );

    let first = legal_texts(&created["state"])
        .first()
        .cloned()
        .ok_or("no legal move")?;
    let (status, moved) = play_at(&b, &played, &token, &first, 0).await?;
    assert_eq!(status, StatusCode::OK, "{moved}");
    let first = legal_texts(&marker_state["state"])
        .first()
        .cloned()
        .ok_or("no legal move")?;
    let (status, answer) = play_at(&b, &marker, &marker_token, &first, 0).await?;
    assert_eq!(status, StatusCode::OK, "{answer}");
    update_where(&mut watcher, |u| u["ply"] == 1).await?;
    // A lets the game go on hearing the change, or, if something held the game just then,
    // once it has followed it: wait for that.
    let mut let_go = a.games_let_go();
    let waited = tokio::time::timeout(
        Duration::from_secs(10),
        let_go.wait_for(|&count| count >= 1),
    )
    .await
    .is_ok_and(|seen| seen.is_ok());
    assert!(
        waited,
        "A still follows the game played on B: {} games in memory",
        a.games_in_memory()
    );
    assert_eq!(
        a.games_in_memory(),
        1,
        "A still follows the game played on B"
    );
    assert_eq!(a.games_read_again(), 0);

    let (status, state) = call(&a, "GET", &format!("/api/games/{played}"), None, None).await?;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(state["ply"], 1);
    assert_eq!(state["version"], moved["version"]);
    Ok(())
}

/// Waits until `heard` tells of the game at `wanted` or a later version.
async fn updated_to(
    heard: &mut tokio::sync::broadcast::Receiver<Arc<bashni_server::app::Event>>,
    wanted: u64,
) -> Result<(), Error> {
    loop {
        let event = tokio::time::timeout(Duration::from_secs(30), heard.recv()).await??;
        if let bashni_server::app::Event::Update { version, .. } = event.as_ref()
            && *version >= wanted
        {
            return Ok(());
        }
    }
}

/// Whether the server whose count `let_go` is let a game go (a guard of 30 s against a hang).
async fn let_go_once(let_go: &mut tokio::sync::watch::Receiver<u64>) -> bool {
    tokio::time::timeout(
        Duration::from_secs(30),
        let_go.wait_for(|&count| count >= 1),
    )
    .await
    .is_ok_and(|seen| seen.is_ok())
}

/// The same when the change is not heard one by one but found on starting to listen (the
/// listener says a change may have been missed, and every game in memory is read again): a
/// game held just then is followed, then let go at a beat once nothing holds it. (Under load
/// the listener of the test above could start after the move, and the game stayed for good.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_followed_after_a_gap_is_let_go_once_free() -> Result<(), Error> {
    let postgres = Postgres::start("let_go_gap")?;
    let url = postgres.database("let_go_gap").await?;
    let quick = Settings {
        presence_beat: Duration::from_millis(100),
        ..settings()
    };
    let a = App::new(PgStore::connect(&url).await?, quick);
    let b = App::new(PgStore::connect(&url).await?, settings());
    serve(&b).await?;
    // A is not listening yet: the move made on B is not heard there.
    let (played, token, created) =
        create(&a, json!({"variant": "russian", "mode": "local"})).await?;
    let held = a.slot(&played).await.map_err(|e| format!("{e:?}"))?;
    let mut heard = held.events.subscribe();
    let first = legal_texts(&created["state"])
        .first()
        .cloned()
        .ok_or("no legal move")?;
    let (status, moved) = play_at(&b, &played, &token, &first, 0).await?;
    assert_eq!(status, StatusCode::OK, "{moved}");
    let wanted = moved["version"].as_u64().ok_or("no version")?;
    let mut let_go = a.games_let_go();
    serve(&a).await?;
    updated_to(&mut heard, wanted).await?;
    drop(heard);
    drop(held);
    assert!(
        let_go_once(&mut let_go).await,
        "A keeps following the game played on B once nothing holds it: {} in memory",
        a.games_in_memory()
    );
    assert_eq!(a.games_in_memory(), 0);
    let (status, state) = call(&a, "GET", &format!("/api/games/{played}"), None, None).await?;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(state["ply"], 1);
    Ok(())
}

/// The same, when something on the server that made the game holds it just as the change is
/// heard (a request, or a feature looking at every game): the change is followed, and the game
/// is let go at a later beat once nothing holds it, not kept and followed for good.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_held_when_its_change_is_heard_is_let_go_once_free() -> Result<(), Error> {
    let postgres = Postgres::start("let_go_later")?;
    let url = postgres.database("let_go_later").await?;
    let quick = Settings {
        presence_beat: Duration::from_millis(100),
        ..settings()
    };
    let a = App::new(PgStore::connect(&url).await?, quick);
    let b = App::new(PgStore::connect(&url).await?, settings());
    serve(&a).await?;
    serve(&b).await?;
    let (played, token, created) =
        create(&a, json!({"variant": "russian", "mode": "local"})).await?;
    // Held on A, as a request would: A follows the change made on B.
    let held = a.slot(&played).await.map_err(|e| format!("{e:?}"))?;
    let mut heard = held.events.subscribe();
    let first = legal_texts(&created["state"])
        .first()
        .cloned()
        .ok_or("no legal move")?;
    let (status, moved) = play_at(&b, &played, &token, &first, 0).await?;
    assert_eq!(status, StatusCode::OK, "{moved}");
    let wanted = moved["version"].as_u64().ok_or("no version")?;
    updated_to(&mut heard, wanted).await?;
    assert_eq!(a.games_in_memory(), 1, "A lets go a game it holds");
    let mut let_go = a.games_let_go();
    assert_eq!(*let_go.borrow(), 0, "A let go a game held there");
    drop(heard);
    drop(held);
    assert!(
        let_go_once(&mut let_go).await,
        "A keeps following the game played on B once nothing holds it: {} in memory",
        a.games_in_memory()
    );
    assert_eq!(a.games_in_memory(), 0);
    let (status, state) = call(&a, "GET", &format!("/api/games/{played}"), None, None).await?;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(state["ply"], 1);
    assert_eq!(state["version"], moved["version"]);
    Ok(())
}

/// A state a server shows is the stored one even when the server has not heard of the last
/// change yet (its notification late, or lost): before showing a state it looks at the
/// stored version, and reads the game again only when that is newer than its copy.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_state_shown_is_the_stored_one_before_its_change_is_heard() -> Result<(), Error> {
    let (postgres, [_a, b]) = two_servers("catch_up").await?;
    let at_b = serve(&b).await?;
    let (id, token, created) = create(&b, json!({"variant": "russian", "mode": "local"})).await?;
    let first = legal_texts(&created["state"])
        .first()
        .cloned()
        .ok_or("no legal move")?;
    let (status, moved) = play_at(&b, &id, &token, &first, 0).await?;
    assert_eq!(status, StatusCode::OK, "{moved}");
    let (_, shown) = call(&b, "GET", &format!("/api/games/{id}"), None, None).await?;
    assert_eq!(
        shown["version"], moved["version"],
        "the copy is the stored game"
    );

    // A change stored without a notification, as one whose notification is still on its way.
    let url = postgres.url("catch_up");
    let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await?;
    tokio::spawn(connection);
    let changed = client
        .execute(
            "UPDATE games SET version = version + 1, draw_offer = 'white' WHERE id = $1",
            &[&id],
        )
        .await?;
    assert_eq!(changed, 1);
    let (_second, shown) = open_socket(at_b, &id, None).await?;
    let stored = moved["version"].as_u64().ok_or("no version")? + 1;
    assert_eq!(shown["version"], stored, "{shown}");
    Ok(())
}

/// Issue "abuse, round two", finding 4: while PostgreSQL is down, actions are refused as
/// `unavailable` (503), not as the server's fault, and the health check says the database
/// cannot be reached (503), so that a balancer sends no players to the server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_outage_is_unavailable_and_the_health_check_says_so() -> Result<(), Error> {
    let postgres = Postgres::start("outage")?;
    let url = postgres.database("outage").await?;
    let app = App::new(PgStore::connect(&url).await?, settings());
    let (status, health) = call(&app, "GET", "/api/health", None, None).await?;
    assert_eq!(status, StatusCode::OK, "{health}");
    assert_eq!(
        (health["ok"].clone(), health["database"].clone()),
        (json!(true), json!("ok"))
    );
    let (id, token, _) = create(&app, json!({"variant": "russian", "mode": "local"})).await?;
    postgres.stop()?;
    for text in ["c3-d4", "c3-b4"] {
        let (status, refused) = play_at(&app, &id, &token, text, 0).await?;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{refused}");
        assert_eq!(refused["code"], "unavailable", "{refused}");
    }
    let (status, made) = create_raw(&app).await?;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{made}");
    assert_eq!(made["code"], "unavailable", "{made}");
    let (status, health) = call(&app, "GET", "/api/health", None, None).await?;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{health}");
    assert_eq!(health["ok"], false);
    assert!(
        health["database"]
            .as_str()
            .is_some_and(|d| d.starts_with("unreachable")),
        "{health}"
    );
    // Nothing was changed: the copy in memory still has no move.
    let (_, state) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await?;
    assert_eq!(state["ply"], 0, "{state}");
    Ok(())
}

/// A new game asked for, answered as it comes.
async fn create_raw(app: &Arc<App>) -> Result<(StatusCode, serde_json::Value), Error> {
    call(
        app,
        "POST",
        "/api/games",
        None,
        Some(&json!({"variant": "bashni", "mode": "local"}).to_string()),
    )
    .await
}
