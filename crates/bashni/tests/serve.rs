//! `bashni serve` as an operator runs it: what it writes to its log when requests are
//! refused and when the database fails, and that no secret reaches the log.

mod common;

use std::io::Read;
use std::process::Command;

use common::{Error, request, start, start_with};

use serde_json::json;

#[test]
fn refusals_and_store_failures_are_logged_without_secrets() -> Result<(), Error> {
    let dir = std::env::temp_dir().join(format!("bashni-serve-log-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    let db = dir.join("games.sqlite3");
    let mut server = start(&db)?;

    let (status, _) = request(&server, "POST", "/api/games", None, "{not json")?;
    assert_eq!(status, 400);
    let made = json!({"variant": "bashni", "mode": "friend"}).to_string();
    let (status, game) = request(&server, "POST", "/api/games", None, &made)?;
    assert_eq!(status, 201, "{game}");
    let id = game["id"].as_str().ok_or("no id")?.to_string();
    let token = game["token"].as_str().ok_or("no token")?.to_string();
    let invite = game["invite_url"]
        .as_str()
        .and_then(|url| url.rsplit('/').next())
        .ok_or("no invite")?
        .to_string();
    let wrong = json!({"invite": "0".repeat(32)}).to_string();
    let (status, _) = request(
        &server,
        "POST",
        &format!("/api/games/{id}/join"),
        None,
        &wrong,
    )?;
    assert_eq!(status, 403);
    let joined = json!({"invite": invite}).to_string();
    let (status, answer) = request(
        &server,
        "POST",
        &format!("/api/games/{id}/join"),
        None,
        &joined,
    )?;
    assert_eq!(status, 200, "{answer}");

    // Another process holds the database's write lock: the move is refused and logged.
    let other = rusqlite::Connection::open(&db)?;
    other.execute_batch("BEGIN IMMEDIATE")?;
    let moved = json!({"move": "c3-d4", "ply": 0}).to_string();
    let (status, answer) = request(
        &server,
        "POST",
        &format!("/api/games/{id}/move"),
        Some(&token),
        &moved,
    )?;
    assert_eq!(status, 503, "{answer}");
    other.execute_batch("ROLLBACK")?;

    server.child.kill()?;
    let mut log = String::new();
    server
        .child
        .stderr
        .take()
        .ok_or("no stderr")?
        .read_to_string(&mut log)?;
    let has = |words: &[&str]| {
        log.lines()
            .any(|line| words.iter().all(|w| line.contains(w)))
    };
    assert!(has(&["POST", "/api/games", "400", "bad_request"]), "{log}");
    assert!(
        has(&["/join", "403", "forbidden", "invite code is wrong"]),
        "{log}"
    );
    assert!(has(&["could not be stored", "Busy"]), "{log}");
    assert!(has(&["/move", "503", "unavailable"]), "{log}");
    for secret in [&token, &invite] {
        assert!(
            !log.contains(secret.as_str()),
            "a secret is in the log:\n{log}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// `--egtb DIR`: the engines get the tables and the health check says so; a directory that
/// holds none stops the server at once with a message naming it.
#[test]
fn endgame_tables_given_are_loaded_and_named_in_health() -> Result<(), Error> {
    let dir = std::env::temp_dir().join(format!("bashni-serve-egtb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let tables = dir.join("tables");
    bashni_egtb::build(&tables, 2, |_| {})?;
    let server = start_with(
        &dir.join("games.sqlite3"),
        &["--egtb".as_ref(), tables.as_os_str()],
    )?;
    let (status, health) = request(&server, "GET", "/api/health", None, "")?;
    assert_eq!(status, 200, "{health}");
    assert_eq!(health["endgame_tables"]["pieces"], 2, "{health}");
    assert!(
        health["endgame_tables"]["memory_limit_bytes"].is_null(),
        "{health}"
    );
    drop(server);
    let lazy = start_with(
        &dir.join("lazy.sqlite3"),
        &[
            "--egtb".as_ref(),
            tables.as_os_str(),
            "--egtb-memory".as_ref(),
            "1".as_ref(),
        ],
    )?;
    let (_, health) = request(&lazy, "GET", "/api/health", None, "")?;
    assert_eq!(
        health["endgame_tables"]["memory_limit_bytes"],
        1 << 20,
        "{health}"
    );
    assert_eq!(health["endgame_tables"]["memory_bytes"], 0, "{health}");
    drop(lazy);

    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty)?;
    let output = Command::new(env!("CARGO_BIN_EXE_bashni"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(dir.join("other.sqlite3"))
        .arg("--egtb")
        .arg(&empty)
        .env_remove("BASHNI_EGTB")
        .output()?;
    assert!(!output.status.success());
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("holds no endgame tables"), "{said}");
    assert!(said.contains(&empty.display().to_string()), "{said}");
    assert!(!said.contains("panicked"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
