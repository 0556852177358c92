//! A server with endgame tables (`bashni serve --egtb DIR`): its health says so, its engine
//! plays a covered ending by them at full strength, and its analysis answers from them.

mod common;

use std::sync::{Arc, OnceLock};

use bashni_egtb::{Tablebase, build};
use bashni_rules::Variant;
use bashni_rules::notation::{parse_move, read_position};
use bashni_server::{App, EndgameTables, Settings, Store};
use common::*;
use serde_json::json;

/// A won ending for White (a man against a man) that three-piece tables cover.
const WON: &str = "W:Wc7:Bh6";

/// The tables of up to three pieces, built once (loaded whole, so their directory goes).
fn tables() -> &'static Arc<Tablebase> {
    static TABLES: OnceLock<Arc<Tablebase>> = OnceLock::new();
    TABLES.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("bashni-server-egtb-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        build(&dir, 3, |_| {}).expect("the tables build");
        let tables = EndgameTables::open(&dir, None).expect("the tables load");
        let _ = std::fs::remove_dir_all(&dir);
        tables.0
    })
}

fn app_with_tables() -> Result<Arc<App>, Box<dyn std::error::Error>> {
    let settings = Settings {
        tables: Some(EndgameTables(Arc::clone(tables()))),
        ..test_settings()
    };
    Ok(App::new(Store::in_memory()?, settings))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_says_which_tables_the_engines_have() -> TestResult {
    let (_, without) = call(&memory_app()?, "GET", "/api/health", None, None).await?;
    assert!(without["endgame_tables"].is_null(), "{without}");
    let (_, with) = call(&app_with_tables()?, "GET", "/api/health", None, None).await?;
    let said = &with["endgame_tables"];
    assert_eq!(said["pieces"], 3, "{with}");
    assert_eq!(said["slices"], tables().signatures().len(), "{with}");
    assert!(
        said["memory_bytes"].as_u64().is_some_and(|b| b > 0),
        "{with}"
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_at_full_strength_plays_a_covered_ending_by_the_tables() -> TestResult {
    let app = app_with_tables()?;
    let position = read_position(Variant::Russian, WON)?;
    let best = tables()
        .best_move(&position)
        .ok_or("the ending is covered")?;
    let (id, _, _) = create(
        &app,
        json!({"variant": "russian", "mode": "engine", "level": 8, "color": "black",
               "position": WON, "time": null}),
    )
    .await?;
    let state = wait_for(&app, &id, |s| {
        s["moves"].as_array().map(Vec::len) == Some(1)
    })
    .await?;
    let text = state["moves"][0]["text"].as_str().ok_or("no move text")?;
    assert_eq!(parse_move(&position, text)?, best, "{text}");
    // Every engine the server lends has the tables (the level decides whether it uses them).
    let lent = app
        .engines
        .lend(bashni_server::app::engines::Priority::Game)
        .await
        .ok_or("no engine")?;
    let held = lent
        .engine()
        .tablebase()
        .ok_or("an engine without the tables")?;
    assert!(Arc::ptr_eq(held, tables()));
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analysis_of_a_covered_ending_comes_from_the_tables() -> TestResult {
    let app = app_with_tables()?;
    let position = read_position(Variant::Russian, WON)?;
    let value = tables().probe(&position).ok_or("covered")?;
    let body = json!({"variant": "russian", "position": WON, "movetime_ms": 1000, "lines": 1});
    let (status, answer) =
        call(&app, "POST", "/api/analyse", None, Some(&body.to_string())).await?;
    assert_eq!(status, axum::http::StatusCode::OK, "{answer}");
    assert_eq!(answer["nodes"], 0, "no search: {answer}");
    let score = answer["lines"][0]["score"].as_str().ok_or("no score")?;
    assert!(score.starts_with("win in"), "{score}");
    let moves = answer["lines"][0]["moves"].as_array().ok_or("no line")?;
    assert_eq!(
        moves.len() as u32,
        value.distance,
        "the whole line to the end: {answer}"
    );
    // Without the tables the same request searches.
    let (_, searched) = call(
        &memory_app()?,
        "POST",
        "/api/analyse",
        None,
        Some(&body.to_string()),
    )
    .await?;
    assert!(
        searched["nodes"].as_u64().is_some_and(|n| n > 0),
        "{searched}"
    );
    Ok(())
}

/// Tables read on demand (`--egtb-memory`): the first analysis of an ending searches while
/// its slices are read, and once they are in memory the analysis comes from them; the health
/// check shows the memory and its bound.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_read_on_demand_answer_once_their_slices_are_in() -> TestResult {
    let dir = std::env::temp_dir().join(format!("bashni-server-egtb-lazy-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    build(&dir, 3, |_| {})?;
    let tables = EndgameTables::open(&dir, Some(1 << 20))?;
    let settings = Settings {
        tables: Some(tables.clone()),
        ..test_settings()
    };
    let app = App::new(Store::in_memory()?, settings);
    let (_, health) = call(&app, "GET", "/api/health", None, None).await?;
    assert_eq!(health["endgame_tables"]["memory_bytes"], 0, "{health}");
    assert_eq!(
        health["endgame_tables"]["memory_limit_bytes"],
        1 << 20,
        "{health}"
    );

    let body = json!({"variant": "russian", "position": WON, "depth": 4, "lines": 1});
    let (_, first) = call(&app, "POST", "/api/analyse", None, Some(&body.to_string())).await?;
    assert!(
        first["nodes"].as_u64().is_some_and(|n| n > 0),
        "searched: {first}"
    );
    // The slices of the position and of the positions its moves lead to.
    let position = read_position(Variant::Russian, WON)?;
    tables.0.read_now(bashni_egtb::Signature::of(&position))?;
    for mv in position.legal_moves().iter() {
        tables
            .0
            .read_now(bashni_egtb::Signature::of(&position.after(mv)))?;
    }
    let (_, again) = call(&app, "POST", "/api/analyse", None, Some(&body.to_string())).await?;
    assert_eq!(again["nodes"], 0, "from the tables: {again}");
    let (_, health) = call(&app, "GET", "/api/health", None, None).await?;
    let held = health["endgame_tables"]["memory_bytes"]
        .as_u64()
        .ok_or("no memory")?;
    assert!(held > 0 && held <= 1 << 20, "{health}");
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

#[test]
fn a_directory_without_tables_is_refused_with_its_name() {
    let dir = std::env::temp_dir().join(format!("bashni-server-no-egtb-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let error = EndgameTables::open(&dir, None).expect_err("no tables there");
    assert!(error.contains("holds no endgame tables"), "{error}");
    assert!(error.contains(&dir.display().to_string()), "{error}");
    let missing = dir.join("missing");
    let error = EndgameTables::open(&missing, None).expect_err("no such directory");
    assert!(error.contains("missing"), "{error}");
    let _ = std::fs::remove_dir_all(&dir);
}
