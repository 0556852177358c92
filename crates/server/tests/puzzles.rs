//! Puzzles through the API on both databases: the shipped set is added once, a pick is of
//! the game and theme asked and never one the account tried, the daily puzzle stays the
//! same all day, and an attempt moves the player's and the puzzle's ratings the right way,
//! once per account (a guest's rating comes from the browser and goes back to it).

mod common;

use std::sync::Arc;

use axum::http::StatusCode;
use bashni_club::rating::Rating;
use bashni_server::store::rate_attempt;
use bashni_server::{App, PgStore, Settings, Store};
use common::pg::Postgres;
use common::visitor::*;
use common::*;
use serde_json::{Value, json};

type Error = Box<dyn std::error::Error>;

fn settings() -> Settings {
    Settings {
        login_attempts_per_minute: 1000,
        ..test_settings()
    }
}

async fn signup(visitor: &mut Visitor, name: &str) -> Result<(), Error> {
    let body = json!({"name": name, "password": "correct horse"});
    let (status, answer) = visitor
        .call("POST", "/api/account/signup", None, Some(body))
        .await?;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    Ok(())
}

async fn get(visitor: &mut Visitor, uri: &str) -> Result<Value, Error> {
    let (status, answer) = visitor.call("GET", uri, None, None).await?;
    assert_eq!(status, StatusCode::OK, "{uri}: {answer}");
    Ok(answer)
}

fn id_of(puzzle: &Value) -> Result<String, Error> {
    Ok(puzzle["id"].as_str().ok_or("no id")?.to_string())
}

async fn attempt(
    visitor: &mut Visitor,
    id: &str,
    body: Value,
) -> Result<(StatusCode, Value), Error> {
    visitor
        .call(
            "POST",
            &format!("/api/puzzles/{id}/attempt"),
            None,
            Some(body),
        )
        .await
}

async fn suite(app: &Arc<App>) -> Result<(), Error> {
    let shipped = bashni_server::puzzles::shipped()?;
    bashni_server::puzzles::add_shipped(app).await;
    assert_eq!(
        app.database.add_puzzles(shipped.clone()).await?,
        0,
        "added twice"
    );
    let mut guest = Visitor::new(app, 1);
    // Of the game and theme asked, with its position's legal moves.
    for variant in ["bashni", "russian"] {
        let puzzle = get(&mut guest, &format!("/api/puzzles/next?variant={variant}")).await?;
        assert_eq!(puzzle["variant"], variant, "{puzzle}");
        assert!(puzzle["line"].as_array().is_some_and(|l| l.len() % 2 == 1));
        let first = puzzle["line"][0].as_str().ok_or("no move")?;
        let legal: Vec<String> = legal_texts(&puzzle["start"]);
        assert!(legal.iter().any(|m| m == first), "{first} not in {legal:?}");
        let themed = shipped
            .iter()
            .find(|p| p.variant == variant && !p.themes.is_empty())
            .ok_or("no puzzle with a theme")?;
        let theme = themed.themes[0].name();
        let picked = get(
            &mut guest,
            &format!("/api/puzzles/next?variant={variant}&theme={theme}"),
        )
        .await?;
        assert!(
            picked["themes"]
                .as_array()
                .is_some_and(|t| t.iter().any(|n| n == theme)),
            "{picked}"
        );
        let daily = get(&mut guest, &format!("/api/puzzles/daily?variant={variant}")).await?;
        let again = get(&mut guest, &format!("/api/puzzles/daily?variant={variant}")).await?;
        assert_eq!(daily["id"], again["id"]);
        assert_eq!(daily["variant"], variant);
        // The day's puzzle has two moves of the solver or more.
        assert!(
            daily["line"].as_array().is_some_and(|l| l.len() >= 3),
            "{daily}"
        );
        // A guest's rating is the browser's: none comes with a puzzle.
        assert!(daily.get("player").is_none(), "{daily}");
        assert!(puzzle.get("player").is_none(), "{puzzle}");
    }
    let (status, _) = guest
        .call("GET", "/api/puzzles/r000000000000", None, None)
        .await?;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, answer) = guest
        .call("GET", "/api/puzzles/next?theme=fork", None, None)
        .await?;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");

    // A guest's rating comes and goes with the browser; the puzzle's stays.
    let puzzle = get(&mut guest, "/api/puzzles/next?variant=russian").await?;
    let id = id_of(&puzzle)?;
    let sent = json!({"rating": 1600.0, "deviation": 120.0, "volatility": 0.06});
    let (status, solved) =
        attempt(&mut guest, &id, json!({"solved": true, "rating": sent})).await?;
    assert_eq!(status, StatusCode::OK, "{solved}");
    assert_eq!(solved["before"]["rating"], 1600);
    assert!(solved["diff"].as_i64().ok_or("no diff")? > 0, "{solved}");
    let shown = get(&mut guest, &format!("/api/puzzles/{id}")).await?;
    assert_eq!(shown["rating"], puzzle["rating"]);
    assert_eq!(shown["attempts"], 0);
    let (status, answer) = attempt(
        &mut guest,
        &id,
        json!({"solved": true, "rating": {"rating": 1e9, "deviation": 50.0, "volatility": 0.06}}),
    )
    .await?;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
    let (status, answer) = attempt(&mut guest, &id, json!({"solved": "yes"})).await?;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");

    // An account's first attempt moves both ratings; a second changes nothing.
    let mut player = Visitor::new(app, 2);
    signup(&mut player, "solver").await?;
    let first = get(&mut player, "/api/puzzles/next?variant=bashni").await?;
    let first_id = id_of(&first)?;
    // The account's rating comes with the puzzle before its first attempt.
    assert_eq!(first["player"]["rating"], 1500, "{first}");
    assert_eq!(first["player"]["provisional"], true, "{first}");
    let before_puzzle = app
        .database
        .puzzle(&first_id)
        .await?
        .ok_or("stored")?
        .rating;
    let (status, won) = attempt(&mut player, &first_id, json!({"solved": true})).await?;
    assert_eq!(status, StatusCode::OK, "{won}");
    assert_eq!(won["counted"], true);
    let (player_after, puzzle_after) = rate_attempt(Rating::NEW, before_puzzle, true);
    assert_eq!(won["after"]["rating"], player_after.rating.round() as i64);
    assert!(player_after.rating > Rating::NEW.rating);
    let stored = app.database.puzzle(&first_id).await?.ok_or("stored")?;
    assert_eq!(stored.rating, puzzle_after);
    assert!(
        stored.rating.rating < before_puzzle.rating,
        "solving lowers the puzzle"
    );
    assert_eq!((stored.attempts, stored.solved), (1, 1));
    let (_, again) = attempt(&mut player, &first_id, json!({"solved": false})).await?;
    assert_eq!(again["counted"], false);
    assert_eq!(again["after"], won["after"]);
    assert_eq!(
        app.database.puzzle(&first_id).await?.ok_or("stored")?,
        stored
    );

    let second = get(&mut player, "/api/puzzles/next?variant=bashni").await?;
    let second_id = id_of(&second)?;
    assert_eq!(second["player"]["rating"], won["after"]["rating"]);
    let shown = get(&mut player, &format!("/api/puzzles/{first_id}")).await?;
    assert_eq!(shown["player"]["rating"], won["after"]["rating"]);
    let daily = get(&mut player, "/api/puzzles/daily?variant=russian").await?;
    assert_eq!(
        daily["player"]["rating"], 1500,
        "another game, another rating"
    );
    assert_ne!(second_id, first_id, "a tried puzzle is not picked again");
    let second_before = app
        .database
        .puzzle(&second_id)
        .await?
        .ok_or("stored")?
        .rating;
    let (_, lost) = attempt(&mut player, &second_id, json!({"solved": false})).await?;
    assert!(lost["diff"].as_i64().ok_or("no diff")? < 0, "{lost}");
    assert_eq!(lost["before"], won["after"]);
    let second_after = app.database.puzzle(&second_id).await?.ok_or("stored")?;
    assert!(
        second_after.rating.rating > second_before.rating,
        "a miss raises the puzzle"
    );
    assert_eq!((second_after.attempts, second_after.solved), (1, 0));
    // The next attempt starts from the stored rating.
    let third = id_of(&get(&mut player, "/api/puzzles/next?variant=bashni").await?)?;
    let (_, next) = attempt(&mut player, &third, json!({"solved": true})).await?;
    assert_eq!(next["before"], lost["after"]);
    let (status, _) = attempt(&mut player, "b000000000000", json!({"solved": true})).await?;
    assert_eq!(status, StatusCode::NOT_FOUND);
    Ok(())
}

#[tokio::test]
async fn a_set_of_one_move_puzzles_still_has_a_daily_puzzle() -> Result<(), Error> {
    let app = App::new(Store::in_memory()?, settings());
    let short: Vec<_> = bashni_server::puzzles::shipped()?
        .into_iter()
        .filter(|p| p.variant == "russian" && p.line.len() == 1)
        .take(5)
        .collect();
    assert_eq!(app.database.add_puzzles(short.clone()).await?, 5);
    let mut guest = Visitor::new(&app, 1);
    let daily = get(&mut guest, "/api/puzzles/daily?variant=russian").await?;
    assert!(
        short.iter().any(|p| daily["id"] == p.id.as_str()),
        "{daily}"
    );
    let (status, _) = guest
        .call("GET", "/api/puzzles/daily?variant=bashni", None, None)
        .await?;
    assert_eq!(status, StatusCode::NOT_FOUND);
    Ok(())
}

#[tokio::test]
async fn puzzles_on_sqlite() -> Result<(), Error> {
    let app = App::new(Store::in_memory()?, settings());
    suite(&app).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn puzzles_on_postgres() -> Result<(), Error> {
    let postgres = Postgres::start("puzzles")?;
    let url = postgres.database("puzzles").await?;
    let app = App::new(PgStore::connect(&url).await?, settings());
    suite(&app).await?;
    // Two servers, one attempt each at the same puzzle at once: both count.
    let other = App::new(PgStore::connect(&url).await?, settings());
    let mut a = Visitor::new(&app, 3);
    let mut b = Visitor::new(&other, 4);
    signup(&mut a, "first").await?;
    signup(&mut b, "second").await?;
    let id = id_of(&get(&mut a, "/api/puzzles/next?variant=russian").await?)?;
    let before = app.database.puzzle(&id).await?.ok_or("stored")?;
    let body = json!({"solved": true});
    let (one, two) = tokio::join!(
        attempt(&mut a, &id, body.clone()),
        attempt(&mut b, &id, body)
    );
    assert_eq!(one?.1["counted"], true);
    assert_eq!(two?.1["counted"], true);
    let after = app.database.puzzle(&id).await?.ok_or("stored")?;
    assert_eq!(after.attempts, before.attempts + 2);
    postgres.stop()?;
    Ok(())
}
