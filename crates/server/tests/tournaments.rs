//! Tournaments over HTTP: who may make, join, leave and start one; a round robin played out
//! with its points and tie-breaks counted by hand; Swiss rounds paired as the club crate
//! pairs them; micro-matches on one ballot opening; the PDN of all games; the seat of an
//! account; and on PostgreSQL with two servers, each round made once.

mod common;

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use bashni_club::GameScore;
use bashni_club::tournament::{History, Pairing, Points, swiss};
use bashni_server::app::events::Happening;
use bashni_server::{App, PgStore, Settings, Store, router};
use common::pg::Postgres;
use common::*;
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

type Error = Box<dyn std::error::Error>;

const HOST: &str = "bashni.test";
const SITE: &str = "http://bashni.test";

/// One browser on the site, with the session cookie it holds.
struct Visitor {
    app: Arc<App>,
    address: IpAddr,
    cookie: Option<String>,
}

impl Visitor {
    fn new(app: &Arc<App>, last_byte: u8) -> Visitor {
        Visitor {
            app: Arc::clone(app),
            address: IpAddr::from([10, 0, 1, last_byte]),
            cookie: None,
        }
    }

    /// The same browser on another server of the site.
    fn on(&self, app: &Arc<App>) -> Visitor {
        Visitor {
            app: Arc::clone(app),
            address: self.address,
            cookie: self.cookie.clone(),
        }
    }

    /// A request as the site's page sends it (Host, Origin, cookie, a seat token).
    async fn call(
        &mut self,
        method: &str,
        uri: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Result<(StatusCode, Value), Error> {
        let mut request = Request::builder()
            .method(method)
            .uri(uri)
            .header(header::HOST, HOST)
            .header(header::ORIGIN, SITE);
        if let Some(id) = &self.cookie {
            request = request.header(header::COOKIE, format!("bashni_session={id}"));
        }
        if let Some(token) = token {
            request = request.header("x-seat-token", token);
        }
        if body.is_some() {
            request = request.header(header::CONTENT_TYPE, "application/json");
        }
        let text = body.as_ref().map(Value::to_string).unwrap_or_default();
        let mut request = request.body(Body::from(text))?;
        request
            .extensions_mut()
            .insert(axum::extract::ConnectInfo(std::net::SocketAddr::new(
                self.address,
                40000,
            )));
        let response = router(Arc::clone(&self.app)).oneshot(request).await?;
        let status = response.status();
        if let Some(set) = response.headers().get(header::SET_COOKIE) {
            let value = set
                .to_str()?
                .strip_prefix("bashni_session=")
                .and_then(|rest| rest.split(';').next())
                .ok_or("a Set-Cookie of another cookie")?;
            self.cookie = (!value.is_empty()).then(|| value.to_string());
        }
        let bytes = response.into_body().collect().await?.to_bytes();
        let value = serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
        Ok((status, value))
    }

    async fn signup(app: &Arc<App>, last_byte: u8, name: &str) -> Result<Visitor, Error> {
        let mut visitor = Visitor::new(app, last_byte);
        let body = json!({"name": name, "password": "correct horse"});
        let (status, answer) = visitor
            .call("POST", "/api/account/signup", None, Some(body))
            .await?;
        assert_eq!(status, StatusCode::CREATED, "{answer}");
        Ok(visitor)
    }

    async fn post(&mut self, uri: &str, body: Value) -> Result<(StatusCode, Value), Error> {
        self.call("POST", uri, None, Some(body)).await
    }

    /// The token of this player's seat in `game`, from `POST /api/games/{id}/seat`.
    async fn seat(&mut self, game: &str) -> Result<(String, String), Error> {
        let (status, answer) = self
            .post(&format!("/api/games/{game}/seat"), json!({}))
            .await?;
        assert_eq!(status, StatusCode::OK, "{answer}");
        Ok((
            answer["seat"].as_str().ok_or("no seat")?.to_string(),
            answer["token"].as_str().ok_or("no token")?.to_string(),
        ))
    }
}

fn roomy() -> Settings {
    Settings {
        login_attempts_per_minute: 1000,
        ..test_settings()
    }
}

fn sqlite_app() -> Result<Arc<App>, Error> {
    Ok(App::new(Store::in_memory()?, roomy()))
}

async fn tournament(app: &Arc<App>, id: &str) -> Result<Value, Error> {
    let (status, answer) = call(app, "GET", &format!("/api/tournaments/{id}"), None, None).await?;
    assert_eq!(status, StatusCode::OK, "{answer}");
    Ok(answer)
}

/// Waits until the tournament's state passes `check`: looks again each time a tournament
/// moves on or a game ends on `app`, and at the latest each second (a step made by another
/// server is told to that server only).
async fn wait_tournament(
    app: &Arc<App>,
    id: &str,
    check: impl Fn(&Value) -> bool,
) -> Result<Value, Error> {
    let (tx, mut changes) = tokio::sync::mpsc::unbounded_channel();
    app.subscribe(
        "test: tournament changes",
        Arc::new(move |_, happening| {
            if matches!(
                happening,
                Happening::TournamentMoved(_) | Happening::GameOver(_)
            ) {
                let _ = tx.send(());
            }
            Box::pin(async {})
        }),
    );
    for _ in 0..100 {
        let state = tournament(app, id).await?;
        if check(&state) {
            return Ok(state);
        }
        let _ = tokio::time::timeout(Duration::from_secs(1), changes.recv()).await;
    }
    Err(format!(
        "the tournament never came to the state: {}",
        tournament(app, id).await?
    )
    .into())
}

/// The games of round `round` (from 1).
fn games_of(state: &Value, round: usize) -> Vec<Value> {
    state["schedule"][round - 1]["games"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// Makes a tournament as `creator` and lets `players` join in order; returns its id.
async fn open_tournament(
    creator: &mut Visitor,
    players: &mut [Visitor],
    body: Value,
) -> Result<String, Error> {
    let (status, made) = creator.post("/api/tournaments", body).await?;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    assert_eq!(made["status"], "open");
    let id = made["id"].as_str().ok_or("no id")?.to_string();
    for player in players.iter_mut() {
        let (status, joined) = player
            .post(&format!("/api/tournaments/{id}/join"), json!({}))
            .await?;
        assert_eq!(status, StatusCode::OK, "{joined}");
        assert_eq!(joined["you"]["joined"], true);
    }
    Ok(id)
}

/// Ends `game` as wanted: `winner` by the loser's resignation, or a draw agreed.
async fn finish(
    players: &mut HashMap<String, Visitor>,
    game: &Value,
    winner: Option<&str>,
) -> Result<(), Error> {
    let id = game["game"].as_str().ok_or("no game id")?;
    let (white, black) = (
        game["white"].as_str().ok_or("no white")?,
        game["black"].as_str().ok_or("no black")?,
    );
    match winner {
        Some(winner) => {
            let loser = if winner == white { black } else { white };
            let player = players.get_mut(loser).ok_or("no such player")?;
            let (_, token) = player.seat(id).await?;
            let (status, state) = player
                .call(
                    "POST",
                    &format!("/api/games/{id}/resign"),
                    Some(&token),
                    Some(json!({})),
                )
                .await?;
            assert_eq!(status, StatusCode::OK, "{state}");
        }
        None => {
            for (name, action) in [(white, "offer"), (black, "accept")] {
                let player = players.get_mut(name).ok_or("no such player")?;
                let (_, token) = player.seat(id).await?;
                let (status, state) = player
                    .call(
                        "POST",
                        &format!("/api/games/{id}/draw"),
                        Some(&token),
                        Some(json!({ "action": action })),
                    )
                    .await?;
                assert_eq!(status, StatusCode::OK, "{state}");
            }
        }
    }
    Ok(())
}

#[tokio::test]
async fn who_may_make_join_leave_and_start() -> Result<(), Error> {
    let app = sqlite_app()?;
    let mut guest = Visitor::new(&app, 99);
    let body = json!({"name": "Spring cup", "variant": "bashni", "system": "round_robin"});
    let (status, refusal) = guest.post("/api/tournaments", body.clone()).await?;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(refusal["code"], "not_logged_in");

    let mut anna = Visitor::signup(&app, 1, "Anna").await?;
    for (bad, field) in [
        (
            json!({"name": "X", "variant": "bashni", "system": "swiss"}),
            "rounds",
        ),
        (
            json!({"name": "X", "variant": "bashni", "system": "round_robin", "micro": true}),
            "micro",
        ),
        (
            json!({"name": "X", "variant": "chess", "system": "swiss", "rounds": 3}),
            "variant",
        ),
        (
            json!({"name": "X", "variant": "bashni", "system": "knockout"}),
            "system",
        ),
        (
            json!({"name": " ", "variant": "bashni", "system": "round_robin"}),
            "name",
        ),
    ] {
        let (status, refusal) = anna.post("/api/tournaments", bad).await?;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{refusal}");
        assert!(
            refusal["error"].as_str().unwrap_or("").starts_with(field),
            "{refusal}"
        );
    }
    let mut bob = Visitor::signup(&app, 2, "Bob").await?;
    let mut cara = Visitor::signup(&app, 3, "Cara").await?;
    let mut dan = Visitor::signup(&app, 4, "Dan").await?;
    let id = open_tournament(&mut anna, std::slice::from_mut(&mut bob), body).await?;
    let join = format!("/api/tournaments/{id}/join");
    let leave = format!("/api/tournaments/{id}/leave");
    let start = format!("/api/tournaments/{id}/start");

    // A guest cannot join.
    let (status, _) = guest.post(&join, json!({})).await?;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    // Joining twice keeps one place; leaving takes it away.
    cara.post(&join, json!({})).await?;
    let (_, state) = cara.post(&join, json!({})).await?;
    assert_eq!(state["players"].as_array().map(Vec::len), Some(2));
    let (status, state) = cara.post(&leave, json!({})).await?;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(state["you"]["joined"], false);
    anna.post(&join, json!({})).await?;

    // Only the creator starts, and a round robin needs three players.
    let (status, refusal) = bob.post(&start, json!({})).await?;
    assert_eq!(status, StatusCode::FORBIDDEN, "{refusal}");
    let (status, refusal) = anna.post(&start, json!({})).await?;
    assert_eq!(status, StatusCode::CONFLICT, "{refusal}");
    assert!(
        refusal["error"]
            .as_str()
            .unwrap_or("")
            .contains("at least 3")
    );
    assert_eq!(tournament(&app, &id).await?["status"], "open");

    cara.post(&join, json!({})).await?;
    let (status, state) = anna.post(&start, json!({})).await?;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(state["status"], "running");
    assert_eq!(state["round"], 1);
    assert_eq!(state["rounds"], 3);
    // Numbers in joining order: Bob, Anna, Cara.
    let names: Vec<&str> = state["players"]
        .as_array()
        .ok_or("no players")?
        .iter()
        .filter_map(|p| p["name"].as_str())
        .collect();
    assert_eq!(names, ["Bob", "Anna", "Cara"]);
    assert_eq!(state["players"][0]["number"], 1);

    // After the start nobody joins or leaves, and nothing changes.
    let (status, refusal) = dan.post(&join, json!({})).await?;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(refusal["code"], "tournament_started");
    let (status, refusal) = bob.post(&leave, json!({})).await?;
    assert_eq!(refusal["code"], "tournament_started", "{status}");
    let (status, refusal) = anna.post(&start, json!({})).await?;
    assert_eq!(refusal["code"], "tournament_started", "{status}");
    let after = tournament(&app, &id).await?;
    assert_eq!(after["players"], state["players"]);
    assert_eq!(after["version"], state["version"]);

    // A game of the tournament: each player gets their own seat's token, others none,
    // and it cannot be aborted.
    let game = games_of(&after, 1)[0].clone();
    let game_id = game["game"].as_str().ok_or("no game")?;
    let mut players: HashMap<String, Visitor> = HashMap::new();
    players.insert("Anna".into(), anna);
    players.insert("Bob".into(), bob);
    players.insert("Cara".into(), cara);
    let white = game["white"].as_str().ok_or("no white")?;
    let (seat, token) = players
        .get_mut(white)
        .ok_or("white is no player")?
        .seat(game_id)
        .await?;
    assert_eq!(seat, "white");
    let (_, state) = call(
        &app,
        "GET",
        &format!("/api/games/{game_id}"),
        Some(&token),
        None,
    )
    .await?;
    assert_eq!(state["you"], "white", "{state}");
    let (status, _) = dan
        .post(&format!("/api/games/{game_id}/seat"), json!({}))
        .await?;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = guest
        .post(&format!("/api/games/{game_id}/seat"), json!({}))
        .await?;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, refusal) = call(
        &app,
        "POST",
        &format!("/api/games/{game_id}/abort"),
        Some(&token),
        Some("{}"),
    )
    .await?;
    assert_eq!(status, StatusCode::CONFLICT, "{refusal}");

    // Another site cannot ask for a seat with the player's cookie.
    let mut request = Request::builder()
        .method("POST")
        .uri(format!("/api/games/{game_id}/seat"))
        .header(header::HOST, HOST)
        .header(header::ORIGIN, "http://evil.test");
    if let Some(cookie) = &dan.cookie {
        request = request.header(header::COOKIE, format!("bashni_session={cookie}"));
    }
    let response = router(Arc::clone(&app))
        .oneshot(request.body(Body::empty())?)
        .await?;
    assert_eq!(response.status(), StatusCode::FORBIDDEN);

    let (_, list) = call(&app, "GET", "/api/tournaments", None, None).await?;
    assert_eq!(list["running"][0]["id"], id.as_str());
    assert_eq!(list["running"][0]["players"], 3);
    assert_eq!(list["open"].as_array().map(Vec::len), Some(0));
    Ok(())
}

/// A 4-player round robin played to the end: A beats B and C and draws with D, B beats C,
/// D beats B, C beats D.
async fn round_robin_suite(app: &Arc<App>) -> Result<(), Error> {
    let mut a = Visitor::signup(app, 11, "Aleks").await?;
    let b = Visitor::signup(app, 12, "Boris").await?;
    let c = Visitor::signup(app, 13, "Clara").await?;
    let d = Visitor::signup(app, 14, "Dasha").await?;
    let mut joining = [a.on(app), b, c, d];
    let body = json!({"name": "Club round robin", "variant": "bashni", "system": "round_robin",
        "time": {"minutes": 5, "increment_s": 3}});
    let id = open_tournament(&mut a, &mut joining, body).await?;
    let (status, state) = a
        .post(&format!("/api/tournaments/{id}/start"), json!({}))
        .await?;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(state["rounds"], 3);
    let mut players: HashMap<String, Visitor> = joining
        .into_iter()
        .zip(["Aleks", "Boris", "Clara", "Dasha"])
        .map(|(v, n)| (n.to_string(), v))
        .collect();
    let winner = |x: &str, y: &str| -> Option<&'static str> {
        let mut pair = [x, y];
        pair.sort_unstable();
        match pair {
            ["Aleks", "Boris"] | ["Aleks", "Clara"] => Some("Aleks"),
            ["Boris", "Clara"] => Some("Boris"),
            ["Boris", "Dasha"] => Some("Dasha"),
            ["Clara", "Dasha"] => Some("Clara"),
            _ => None,
        }
    };
    let mut seen_games = 0;
    for round in 1..=3 {
        let state = wait_tournament(app, &id, |s| s["round"] == round).await?;
        let games = games_of(&state, round as usize);
        assert_eq!(games.len(), 2, "round {round}: {state}");
        for game in &games {
            // A tournament game: the tournament's clock, both seats taken by the accounts.
            let game_id = game["game"].as_str().ok_or("no game")?;
            let (_, view) = call(app, "GET", &format!("/api/games/{game_id}"), None, None).await?;
            assert_eq!(view["white_player"], game["white"], "{view}");
            assert_eq!(view["black_player"], game["black"], "{view}");
            let (white, black) = (
                game["white"].as_str().ok_or("no white")?,
                game["black"].as_str().ok_or("no black")?,
            );
            finish(&mut players, game, winner(white, black)).await?;
            seen_games += 1;
        }
    }
    assert_eq!(seen_games, 6);
    let done = wait_tournament(app, &id, |s| s["status"] == "finished").await?;
    assert_eq!(done["round"], 3);
    assert_eq!(done["schedule"].as_array().map(Vec::len), Some(3));
    // Points 2-1-0: Aleks 2+2+1 = 5, Dasha 1+2+0 = 3, Boris 2 and Clara 2.
    // Sonneborn-Berger (a win counts the opponent's points, a draw half of them):
    // Aleks 2 + 2 + 3/2 = 5.5, Dasha 5/2 + 2 = 4.5, Clara 3 (beat Dasha), Boris 2 (beat
    // Clara): Clara stands above Boris.
    let expected = [
        ("Aleks", 1, 5, 5.5),
        ("Dasha", 2, 3, 4.5),
        ("Clara", 3, 2, 3.0),
        ("Boris", 4, 2, 2.0),
    ];
    let standings = done["standings"].as_array().ok_or("no standings")?;
    assert_eq!(standings.len(), 4);
    for (line, (name, place, points, sb)) in standings.iter().zip(expected) {
        assert_eq!(line["name"], name, "{line}");
        assert_eq!(line["place"], place, "{line}");
        assert_eq!(line["points"], points, "{line}");
        assert_eq!(line["sonneborn_berger"].as_f64(), Some(sb), "{line}");
    }
    assert_eq!(done["tiebreaks"], json!(["sonneborn_berger", "wins"]));
    // The crosstable: rows and columns in standing order; Aleks's row reads win against
    // Clara and Boris and a draw against Dasha.
    let numbers: HashMap<String, Value> = done["players"]
        .as_array()
        .ok_or("no players")?
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap_or("").to_string(),
                p["number"].clone(),
            )
        })
        .collect();
    let order = done["crosstable"]["order"].as_array().ok_or("no order")?;
    let wanted: Vec<Value> = ["Aleks", "Dasha", "Clara", "Boris"]
        .iter()
        .map(|n| numbers[*n].clone())
        .collect();
    assert_eq!(order, &wanted);
    let first = &done["crosstable"]["rows"][0]["cells"];
    assert_eq!(
        first,
        &json!([null, ["draw"], ["win"], ["win"]]),
        "{}",
        done["crosstable"]
    );

    // Every game in one PDN file, with the tournament's tags.
    let (status, pdn) = call(
        app,
        "GET",
        &format!("/api/tournaments/{id}/pdn"),
        None,
        None,
    )
    .await?;
    assert_eq!(status, StatusCode::OK);
    let pdn = pdn.as_str().ok_or("the PDN is not text")?;
    assert_eq!(
        pdn.matches("[Event \"Club round robin\"]").count(),
        6,
        "{pdn}"
    );
    for round in 1..=3 {
        assert_eq!(
            pdn.matches(&format!("[Round \"{round}.")).count(),
            2,
            "{pdn}"
        );
    }
    assert_eq!(
        pdn.matches("[White \"Aleks\"]").count() + pdn.matches("[Black \"Aleks\"]").count(),
        3
    );
    assert_eq!(pdn.matches("[Result \"1/2-1/2\"]").count(), 1);
    assert!(pdn.contains("[TimeControl \"300+3\"]"), "{pdn}");
    let (_, list) = call(app, "GET", "/api/tournaments", None, None).await?;
    assert_eq!(list["finished"][0]["id"], id.as_str());
    Ok(())
}

#[tokio::test]
async fn a_round_robin_is_played_out_on_sqlite() -> Result<(), Error> {
    round_robin_suite(&sqlite_app()?).await
}

#[tokio::test]
async fn swiss_rounds_are_paired_by_the_club_crate() -> Result<(), Error> {
    let app = sqlite_app()?;
    let mut creator = Visitor::signup(&app, 30, "Host").await?;
    let names = ["Ivan", "Olga", "Petr", "Rita", "Sasha"];
    let mut joining = Vec::new();
    for (n, name) in names.iter().enumerate() {
        joining.push(Visitor::signup(&app, 31 + n as u8, name).await?);
    }
    let body = json!({"name": "Swiss", "variant": "russian", "system": "swiss", "rounds": 3});
    let id = open_tournament(&mut creator, &mut joining, body).await?;
    creator
        .post(&format!("/api/tournaments/{id}/start"), json!({}))
        .await?;
    let mut players: HashMap<String, Visitor> =
        names.iter().map(|n| n.to_string()).zip(joining).collect();
    let number = |name: &str| names.iter().position(|n| *n == name).unwrap_or(usize::MAX);
    let mut history = History::new(names.len());
    for round in 1..=3u32 {
        let state = wait_tournament(&app, &id, |s| s["round"] == round).await?;
        // The round the club crate pairs from the results so far.
        let expected = swiss::pair(&history, Points::DRAUGHTS, &[])?;
        let games = games_of(&state, round as usize);
        let paired: Vec<Pairing> = games
            .iter()
            .map(|g| {
                Pairing::new(
                    number(g["white"].as_str().unwrap_or("")),
                    number(g["black"].as_str().unwrap_or("")),
                )
            })
            .collect();
        assert_eq!(paired, expected.pairings, "round {round}: {state}");
        let bye = state["schedule"][round as usize - 1]["bye"]
            .as_str()
            .map(number);
        assert_eq!(bye, expected.bye);
        if let Some(bye) = expected.bye {
            history.add_bye(round, bye);
        }
        // White wins on the first board, Black on the second.
        for (board, game) in games.iter().enumerate() {
            let (white, black) = (
                game["white"].as_str().ok_or("no white")?,
                game["black"].as_str().ok_or("no black")?,
            );
            let (winner, score) = if board == 0 {
                (white, GameScore::WhiteWins)
            } else {
                (black, GameScore::BlackWins)
            };
            finish(&mut players, game, Some(winner)).await?;
            history.add_game(round, number(white), number(black), score);
        }
    }
    let done = wait_tournament(&app, &id, |s| s["status"] == "finished").await?;
    assert_eq!(done["tiebreaks"][0], "buchholz");
    let points = history.points(Points::DRAUGHTS);
    for line in done["standings"].as_array().ok_or("no standings")? {
        let n = number(line["name"].as_str().unwrap_or(""));
        assert_eq!(line["points"], points[n], "{line}");
    }
    Ok(())
}

#[tokio::test]
async fn micro_matches_play_both_colours_on_one_opening() -> Result<(), Error> {
    let app = sqlite_app()?;
    let mut creator = Visitor::signup(&app, 50, "Master").await?;
    let mut joining = Vec::new();
    for (n, name) in ["Egor", "Fedor", "Galya"].iter().enumerate() {
        joining.push(Visitor::signup(&app, 51 + n as u8, name).await?);
    }
    let body = json!({"name": "Micro", "variant": "russian", "system": "round_robin",
        "micro": true});
    let id = open_tournament(&mut creator, &mut joining, body).await?;
    let (_, state) = creator
        .post(&format!("/api/tournaments/{id}/start"), json!({}))
        .await?;
    // Three players: one micro-match (two games) and a bye each round.
    let games = games_of(&state, 1);
    assert_eq!(games.len(), 2, "{state}");
    assert_eq!(games[0]["white"], games[1]["black"]);
    assert_eq!(games[0]["black"], games[1]["white"]);
    assert_eq!(
        (games[0]["leg"].clone(), games[1]["leg"].clone()),
        (json!(1), json!(2))
    );
    assert!(state["schedule"][0]["bye"].is_string());
    let mut fens = Vec::new();
    for game in &games {
        let game_id = game["game"].as_str().ok_or("no game")?;
        let (_, pdn) = call(
            &app,
            "GET",
            &format!("/api/games/{game_id}/pdn"),
            None,
            None,
        )
        .await?;
        let pdn = pdn.as_str().ok_or("no PDN")?.to_string();
        let fen = pdn
            .lines()
            .find(|line| line.starts_with("[FEN "))
            .ok_or_else(|| format!("no FEN tag: the game starts after a ballot opening\n{pdn}"))?
            .to_string();
        fens.push(fen);
    }
    assert_eq!(fens[0], fens[1], "both games start from the same opening");
    // Black is to move after a ballot opening of three plies.
    assert!(fens[0].starts_with("[FEN \"B:"), "{}", fens[0]);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_round_is_made_once_on_postgres_with_two_servers() -> Result<(), Error> {
    let postgres = Postgres::start("tournaments")?;
    let url = postgres.database("played").await?;
    round_robin_suite(&App::new(PgStore::connect(&url).await?, roomy())).await?;

    let url = postgres.database("shared").await?;
    let a = App::new(PgStore::connect(&url).await?, roomy());
    let b = App::new(PgStore::connect(&url).await?, roomy());
    serve(&a).await?;
    serve(&b).await?;
    let mut creator = Visitor::signup(&a, 70, "Zoya").await?;
    let mut joining = Vec::new();
    for (n, name) in ["Yana", "Xenia", "Vlad"].iter().enumerate() {
        joining.push(Visitor::signup(&a, 71 + n as u8, name).await?);
    }
    let body = json!({"name": "Shared", "variant": "bashni", "system": "round_robin"});
    let id = open_tournament(&mut creator, &mut joining, body).await?;
    let (_, state) = creator
        .post(&format!("/api/tournaments/{id}/start"), json!({}))
        .await?;
    let version = state["version"].as_i64().ok_or("no version")?;
    let game = games_of(&state, 1)[0].clone();
    let game_id = game["game"].as_str().ok_or("no game")?;
    // Both servers hold the game; it ends on A, and B hears of it.
    for server in [&a, &b] {
        let (status, _) = call(server, "GET", &format!("/api/games/{game_id}"), None, None).await?;
        assert_eq!(status, StatusCode::OK);
    }
    let mut players: HashMap<String, Visitor> = ["Yana", "Xenia", "Vlad"]
        .iter()
        .map(|n| n.to_string())
        .zip(joining)
        .collect();
    finish(&mut players, &game, None).await?;
    wait_for(&b, game_id, |s| s["result"]["score"] == "1/2-1/2").await?;
    let next = wait_tournament(&b, &id, |s| s["round"] == 2).await?;
    // Let any second attempt run, then look: one step, one round of one game.
    tokio::time::sleep(Duration::from_millis(300)).await;
    bashni_server::tournament::check_all(&a).await;
    bashni_server::tournament::check_all(&b).await;
    let after = tournament(&a, &id).await?;
    assert_eq!(after["version"].as_i64(), Some(version + 1), "{after}");
    assert_eq!(after["schedule"].as_array().map(Vec::len), Some(2));
    assert_eq!(games_of(&after, 2).len(), 1);
    assert_eq!(games_of(&after, 2), games_of(&next, 2));

    // Two servers that compute the same step at once: only one stores it.
    let game = games_of(&after, 2)[0].clone();
    let second = game["game"].as_str().ok_or("no game")?;
    let loaded = a.database.tournament(&id).await?.ok_or("no tournament")?;
    let mut done = loaded.clone();
    for board in &mut done.boards {
        if board.game_id.as_deref() == Some(second) {
            board.result = Some("1-0".into());
        }
    }
    let step_a = bashni_server::tournament::next_step(&done)
        .map_err(|e| format!("{e:?}"))?
        .ok_or("no step")?;
    let step_b = bashni_server::tournament::next_step(&done)
        .map_err(|e| format!("{e:?}"))?
        .ok_or("no step")?;
    let (made_a, made_b) = tokio::join!(
        a.database.tournament_advance(&id, step_a),
        b.database.tournament_advance(&id, step_b)
    );
    assert!(made_a? ^ made_b?, "exactly one of the two steps is stored");
    let after = tournament(&b, &id).await?;
    assert_eq!(after["version"].as_i64(), Some(version + 2));
    assert_eq!(games_of(&after, 3).len(), 1);
    Ok(())
}

/// A round whose last game ended where no server heard it (its server died in between) is
/// paired by the check every server makes at its start and every so often.
#[tokio::test]
async fn the_check_of_running_tournaments_pairs_a_round_nobody_heard_end() -> Result<(), Error> {
    let path = temp_db("tournament-check");
    let app = App::new(Store::open(&path, Default::default())?, roomy());
    let mut creator = Visitor::signup(&app, 90, "Lena").await?;
    let mut joining = Vec::new();
    for (n, name) in ["Mark", "Nina", "Oleg"].iter().enumerate() {
        joining.push(Visitor::signup(&app, 91 + n as u8, name).await?);
    }
    let body = json!({"name": "Quiet", "variant": "bashni", "system": "swiss", "rounds": 2});
    let id = open_tournament(&mut creator, &mut joining, body).await?;
    let (_, state) = creator
        .post(&format!("/api/tournaments/{id}/start"), json!({}))
        .await?;
    let game = games_of(&state, 1)[0]["game"]
        .as_str()
        .ok_or("no game")?
        .to_string();
    // The game ends in the store behind the server's back.
    let mut round = app.database.load(&game).await?.ok_or("no game stored")?;
    let was = round.version;
    round.resign(
        bashni_server::game::round::Seat::White,
        std::time::Instant::now(),
    )?;
    let (_, saved) = app
        .database
        .save(round, bashni_server::store::Change::Game, was)
        .await;
    saved?;
    // One server on a file hears nothing of a change behind its back: no waiting needed.
    let waiting = tournament(&app, &id).await?;
    assert_eq!(waiting["round"], 1, "nobody heard the end: {waiting}");
    assert_eq!(games_of(&waiting, 1)[0]["result"], "0-1");

    bashni_server::tournament::check_all(&app).await;
    let next = tournament(&app, &id).await?;
    assert_eq!(next["round"], 2, "{next}");
    assert_eq!(games_of(&next, 2).len(), 1);
    if let Some(dir) = path.parent() {
        let _ = std::fs::remove_dir_all(dir);
    }
    Ok(())
}

/// Seam 8: the store keeps a tournament's capacity and each account's number of
/// unfinished tournaments in the same transaction as the change, so joins and creations at
/// the same moment cannot pass them.
async fn limits_suite(app: &Arc<App>) -> Result<(), Error> {
    let mut creator = Visitor::signup(app, 40, "Olga").await?;
    let body = json!({"name": "Cup", "variant": "russian", "system": "round_robin"});
    let id = open_tournament(&mut creator, &mut [], body.clone()).await?;
    let mut players = Vec::new();
    for n in 0..6u8 {
        players.push(Visitor::signup(app, 41 + n, &format!("Entrant{n}")).await?);
    }
    let mut ids = Vec::new();
    for n in 0..6 {
        let player = app
            .database
            .player_by_name(&format!("Entrant{n}"))
            .await?
            .ok_or("no player")?;
        ids.push(player.id);
    }
    // Six join at once where four may.
    let now = bashni_server::game::round::now_ms();
    let joins = ids
        .iter()
        .map(|&player| app.database.tournament_enter(&id, player, now, true, 4));
    let entries = futures_util::future::join_all(joins).await;
    let done = entries
        .iter()
        .filter(|e| matches!(e, Ok(bashni_server::store::Entry::Done)))
        .count();
    let full = entries
        .iter()
        .filter(|e| matches!(e, Ok(bashni_server::store::Entry::Full)))
        .count();
    assert_eq!((done, full), (4, 2), "{entries:?}");
    assert_eq!(
        tournament(app, &id).await?["players"]
            .as_array()
            .map(Vec::len),
        Some(4)
    );
    // One who is in may join again (nothing to do) when it is full.
    let again = app
        .database
        .tournament_enter(&id, ids[0], now, true, 4)
        .await?;
    let in_first = tournament(app, &id).await?;
    let first_in = in_first["players"].as_array().map(Vec::len);
    assert!(
        matches!(
            again,
            bashni_server::store::Entry::Done | bashni_server::store::Entry::Full
        ),
        "{again:?}"
    );
    assert_eq!(first_in, Some(4));

    // An account may have three unfinished tournaments; five made at once make three.
    let mut makers = Vec::new();
    for _ in 0..5 {
        makers.push(creator.on(app));
    }
    let made = futures_util::future::join_all(
        makers
            .iter_mut()
            .map(|maker| maker.post("/api/tournaments", body.clone())),
    )
    .await;
    let statuses: Vec<StatusCode> = made
        .into_iter()
        .map(|answer| answer.map(|(status, _)| status))
        .collect::<Result<_, _>>()?;
    let created = statuses
        .iter()
        .filter(|s| **s == StatusCode::CREATED)
        .count();
    let refused = statuses
        .iter()
        .filter(|s| **s == StatusCode::TOO_MANY_REQUESTS)
        .count();
    // The first tournament counts: two more are made.
    assert_eq!((created, refused), (2, 3), "{statuses:?}");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn capacity_and_creations_hold_on_both_databases() -> Result<(), Error> {
    limits_suite(&sqlite_app()?).await?;
    let postgres = Postgres::start("limits")?;
    let url = postgres.database("limits").await?;
    limits_suite(&App::new(PgStore::connect(&url).await?, roomy())).await
}

/// Seam 2: an absent player does not stall a round. Each side's first move in a tournament
/// game has a time (the server's `first_move`); missing it loses the game, and the round
/// goes on. An account deleted during the event loses the games it still plays. The test
/// moves the sweep's clock past the time instead of waiting for it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_absent_or_deleted_player_loses_and_the_rounds_go_on() -> Result<(), Error> {
    let app = sqlite_app()?;
    let first_move = app.settings.first_move;
    let mut creator = Visitor::signup(&app, 80, "Pavel").await?;
    let mut joining = Vec::new();
    let names = ["Rita", "Sasha", "Tanya", "Ulyana"];
    for (n, name) in names.iter().enumerate() {
        joining.push(Visitor::signup(&app, 81 + n as u8, name).await?);
    }
    let body = json!({"name": "Absent", "variant": "russian", "system": "swiss", "rounds": 2,
        "time": {"minutes": 5, "increment_s": 3}});
    let id = open_tournament(&mut creator, &mut joining, body).await?;
    let (_, state) = creator
        .post(&format!("/api/tournaments/{id}/start"), json!({}))
        .await?;
    let games = games_of(&state, 1);
    assert_eq!(games.len(), 2);
    let game = games[0]["game"].as_str().ok_or("no game")?.to_string();
    let (_, shown) = call(&app, "GET", &format!("/api/games/{game}"), None, None).await?;
    assert_eq!(shown["first_move"]["side"], "white", "{shown}");
    assert_eq!(shown["first_move"]["missed"], "loses");
    // Seam 5: the game knows its tournament and round.
    assert_eq!(shown["tournament"]["id"], json!(id), "{shown}");
    assert_eq!(shown["tournament"]["name"], "Absent");
    assert_eq!(shown["tournament"]["round"], 1);
    assert_eq!(shown["tournament"]["board"], 1);
    // Within the time nothing ends.
    let now = bashni_server::game::round::now_ms();
    assert_eq!(app.end_overdue_games(now).await?, 0);
    // Nobody moved: past the time, both Whites lose.
    let later = now + bashni_server::game::round::millis(first_move) + 1_000;
    assert_eq!(app.end_overdue_games(later).await?, 2);
    let (_, ended) = call(&app, "GET", &format!("/api/games/{game}"), None, None).await?;
    assert_eq!(ended["result"]["score"], "0-1", "{ended}");
    assert!(ended["first_move"].is_null());
    // No rematch in a tournament: the tournament pairs the next game.
    let white_name = games[0]["white"].as_str().ok_or("no white")?.to_string();
    let index = names
        .iter()
        .position(|n| *n == white_name)
        .ok_or("no such player")?;
    let white_player = &mut joining[index];
    let (_, token) = white_player.seat(&game).await?;
    let (status, refused) = white_player
        .call(
            "POST",
            &format!("/api/games/{game}/rematch"),
            Some(&token),
            Some(json!({"action": "offer"})),
        )
        .await?;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    bashni_server::tournament::check_all(&app).await;
    let next = tournament(&app, &id).await?;
    assert_eq!(next["round"], 2, "{next}");
    // The player is told where the next game is.
    let (_, seen) = white_player
        .call("GET", &format!("/api/tournaments/{id}"), None, None)
        .await?;
    let theirs = games_of(&next, 2)
        .into_iter()
        .find(|g| g["white"] == json!(white_name) || g["black"] == json!(white_name))
        .ok_or("no game in round 2")?;
    assert_eq!(seen["you"]["game"], theirs["game"], "{seen}");

    // Round 2: one player deletes the account; the game is lost at once.
    let board = &games_of(&next, 2)[0];
    let leaving = board["black"].as_str().ok_or("no black")?.to_string();
    let game = board["game"].as_str().ok_or("no game")?.to_string();
    let index = names
        .iter()
        .position(|name| *name == leaving)
        .ok_or("no such player")?;
    let visitor = &mut joining[index];
    let (status, answer) = visitor
        .call(
            "DELETE",
            "/api/account",
            None,
            Some(json!({"password": "correct horse"})),
        )
        .await?;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let (_, ended) = call(&app, "GET", &format!("/api/games/{game}"), None, None).await?;
    assert_eq!(ended["result"]["score"], "1-0", "{ended}");
    assert_eq!(ended["result"]["code"], "resignation");
    // Issue "abuse, round two", finding 4: the tournament no longer shows the deleted
    // account's name, in its player list or its boards.
    let after = tournament(&app, &id).await?;
    let text = after.to_string();
    assert!(!text.contains(&format!("\"{leaving}\"")), "{after}");
    assert!(text.contains("\"deleted player\""), "{after}");
    Ok(())
}
