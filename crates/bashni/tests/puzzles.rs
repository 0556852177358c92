//! `bashni puzzles` as a user runs it: mining self-play games, going on after a stop,
//! counting and checking the set; mining the games a server stored; `bashni serve
//! --puzzles` refusing a bad file.

mod common;
#[allow(dead_code)]
#[path = "../../server/tests/common/pg.rs"]
mod pg;

use std::path::{Path, PathBuf};

use common::bashni;
use serde_json::json;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bashni-puzzles-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    dir
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// Four Bashni games into `games`: a weak level against a strong one, whose mistakes give
/// the strong side shots.
fn play_games(games: &Path) {
    let played = bashni(&[
        "match",
        "--variant",
        "bashni",
        "--first",
        "level=2",
        "--second",
        "level=6",
        "--games",
        "2",
        "--concurrency",
        "1",
        "--pdn",
        path(games),
    ]);
    assert!(played.status.success(), "{}", text(&played.stderr));
}

#[test]
fn mining_goes_on_where_it_stopped_and_the_set_is_counted_and_checked() {
    let dir = folder("mine");
    let games = dir.join("games.pdn");
    play_games(&games);
    let out = dir.join("puzzles.jsonl");
    let mine = |games_limit: &str| {
        bashni(&[
            "puzzles",
            "mine",
            path(&games),
            "--out",
            path(&out),
            "--depth",
            "8",
            "--screen-depth",
            "4",
            "--threads",
            "1",
            "--games",
            games_limit,
        ])
    };
    let first = mine("2");
    assert!(first.status.success(), "{}", text(&first.stderr));
    let report = text(&first.stdout);
    assert!(
        report.starts_with("games 2 (0 unreadable), positions examined "),
        "{report}"
    );
    assert!(report.contains("rejected: forced "), "{report}");
    assert!(report.contains("peak memory"), "{report}");
    let after_first = std::fs::read_to_string(&out).expect("the puzzles");
    // `--games 2` made two pairs of games: four records. The next run goes on with the two
    // not done, and adds to the file.
    let rest = mine("4");
    assert!(rest.status.success(), "{}", text(&rest.stderr));
    let line = |r: &str| r.lines().next().unwrap_or_default().to_string();
    let report = text(&rest.stdout);
    assert!(
        line(&report).starts_with("games 4 (0 unreadable)"),
        "{report}"
    );
    let after_rest = std::fs::read_to_string(&out).expect("the puzzles");
    assert!(after_rest.starts_with(&after_first));
    // Once every game is done, a run examines nothing again and adds nothing.
    let again = mine("4");
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert_eq!(line(&text(&again.stdout)), line(&report));
    assert_eq!(
        std::fs::read_to_string(&out).expect("the puzzles"),
        after_rest
    );
    let after_first = after_rest;
    let stats = bashni(&["puzzles", "stats", path(&out)]);
    assert!(stats.status.success());
    let count = after_first.lines().count();
    assert!(
        text(&stats.stdout).starts_with(&format!("bashni: {count} puzzles")),
        "{}",
        text(&stats.stdout)
    );
    let sound = dir.join("sound.jsonl");
    let checked = bashni(&[
        "puzzles",
        "check",
        path(&out),
        "--depth",
        "8",
        "--threads",
        "1",
        "--sound",
        path(&sound),
    ]);
    let summary = text(&checked.stdout);
    assert!(
        summary.contains(&format!("{count} puzzles checked at depth 8")),
        "{summary}"
    );
    let kept = std::fs::read_to_string(&sound).expect("the sound ones");
    assert!(kept.lines().all(|l| after_first.contains(l)));
    assert_eq!(checked.status.success(), kept.lines().count() == count);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_puzzle_file_is_refused_with_its_line() {
    let dir = folder("bad");
    let bad = dir.join("bad.jsonl");
    std::fs::write(&bad, "\n{\"id\": 1}\n").expect("written");
    let db = dir.join("games.sqlite3");
    let served = bashni(&[
        "serve",
        "--addr",
        "127.0.0.1:0",
        "--db",
        path(&db),
        "--puzzles",
        path(&bad),
    ]);
    assert!(!served.status.success());
    let error = text(&served.stderr);
    assert!(error.contains("bad.jsonl: puzzle on line 2"), "{error}");
    let mined = bashni(&["puzzles", "stats", path(&bad)]);
    assert!(!mined.status.success());
    assert!(
        text(&mined.stderr).contains("line 2"),
        "{}",
        text(&mined.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The puzzles of a file, without the games they come from: (id, line).
fn found(file: &Path) -> Vec<(String, Vec<String>)> {
    let text = std::fs::read_to_string(file).unwrap_or_default();
    let mut found: Vec<(String, Vec<String>)> = text
        .lines()
        .map(|line| {
            let puzzle: serde_json::Value = serde_json::from_str(line).expect("a puzzle");
            let moves = puzzle["line"].as_array().expect("a line");
            (
                puzzle["id"].as_str().expect("an id").to_string(),
                moves
                    .iter()
                    .map(|m| m.as_str().expect("a move").to_string())
                    .collect(),
            )
        })
        .collect();
    found.sort();
    found
}

/// Plays four games, stores them on a server using `db` as records with a game played
/// there, and mines them from `db`: the same puzzles as from their PDN file, once.
fn mine_stored(dir: &Path, db: &str) -> Result<(), common::Error> {
    let games = dir.join("games.pdn");
    play_games(&games);
    let local_game;
    {
        let server = common::start(Path::new(db))?;
        // The four games uploaded as records, and a game played at one screen and resigned.
        let pdn = std::fs::read_to_string(&games)?;
        let (status, answer) = common::request(&server, "POST", "/api/pdn", None, &pdn)?;
        assert_eq!(status, 200, "{answer}");
        let stored = answer["games"].as_array().ok_or("no games")?;
        assert_eq!(stored.len(), 4, "{answer}");
        assert!(stored.iter().all(|game| game["id"].is_string()), "{answer}");
        let made = json!({"variant": "bashni", "mode": "local"}).to_string();
        let (status, game) = common::request(&server, "POST", "/api/games", None, &made)?;
        assert_eq!(status, 201, "{game}");
        local_game = game["id"].as_str().ok_or("no id")?.to_string();
        let token = game["token"].as_str().ok_or("no token")?.to_string();
        for (ply, mv) in ["c3-d4", "b6-a5"].iter().enumerate() {
            let body = json!({"move": mv, "ply": ply}).to_string();
            let at = format!("/api/games/{local_game}/move");
            let (status, answer) = common::request(&server, "POST", &at, Some(&token), &body)?;
            assert_eq!(status, 200, "{answer}");
        }
        let at = format!("/api/games/{local_game}/resign");
        let (status, answer) = common::request(&server, "POST", &at, Some(&token), "{}")?;
        assert_eq!(status, 200, "{answer}");
        // An unfinished game is not mined.
        let (status, _) = common::request(&server, "POST", "/api/games", None, &made)?;
        assert_eq!(status, 201);
    }
    let options = ["--depth", "8", "--screen-depth", "4", "--threads", "1"];
    let from_db = dir.join("from-db.jsonl");
    let mine_db = || {
        let mut args = vec!["puzzles", "mine", "--db", db, "--out", path(&from_db)];
        args.extend(options);
        bashni(&args)
    };
    let first = mine_db();
    assert!(first.status.success(), "{}", text(&first.stderr));
    let report = text(&first.stdout);
    assert!(report.starts_with("games 5 (0 unreadable)"), "{report}");
    // The same games read from their PDN file give the same puzzles.
    let from_file = dir.join("from-file.jsonl");
    let mut args = vec!["puzzles", "mine", path(&games), "--out", path(&from_file)];
    args.extend(options);
    let by_file = bashni(&args);
    assert!(by_file.status.success(), "{}", text(&by_file.stderr));
    assert!(!found(&from_db).is_empty(), "{report}");
    assert_eq!(found(&from_db), found(&from_file));
    let sources = std::fs::read_to_string(&from_db)?;
    for line in sources.lines() {
        let puzzle: serde_json::Value = serde_json::from_str(line)?;
        let source = puzzle["source"].as_str().ok_or("no source")?;
        // Named by the database as shown (no password) and the game's id.
        assert!(source.contains(" game "), "{source}");
        assert!(
            !db.contains('@') || source.starts_with("postgresql://bashni@"),
            "{source}"
        );
        assert!(!source.contains(&local_game), "{source}");
    }
    // Mined once: a second run finds every game done.
    let again = mine_db();
    assert!(again.status.success(), "{}", text(&again.stderr));
    let first_line = |r: &str| r.lines().next().unwrap_or_default().to_string();
    assert_eq!(first_line(&text(&again.stdout)), first_line(&report));
    assert_eq!(std::fs::read_to_string(&from_db)?, sources);
    Ok(())
}

#[test]
fn the_games_a_server_stored_in_its_file_are_mined_once_each() -> Result<(), common::Error> {
    let dir = folder("stored");
    let db = dir.join("server.sqlite3");
    mine_stored(&dir, path(&db))?;
    // A database that is not there is not made.
    let out = dir.join("none.jsonl");
    let missing = dir.join("none.sqlite3");
    let refused = bashni(&[
        "puzzles",
        "mine",
        "--db",
        path(&missing),
        "--out",
        path(&out),
    ]);
    assert!(!refused.status.success());
    assert!(
        text(&refused.stderr).contains("no such database file"),
        "{}",
        text(&refused.stderr)
    );
    assert!(!missing.exists());
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

#[test]
fn the_games_a_server_stored_on_postgresql_are_mined_once_each() -> Result<(), common::Error> {
    let dir = folder("stored-pg");
    let postgres = pg::Postgres::start("puzzles-mine")?;
    let db = postgres.url("postgres");
    mine_stored(&dir, &db)?;
    postgres.stop()?;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
