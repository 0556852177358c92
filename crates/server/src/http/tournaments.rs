//! The HTTP API of tournaments (see [`crate::tournament`]), and the seat an account holds in
//! a game. This module only translates; the answers are described in `docs/api.md`.

use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Extension, Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use bashni_club::Score;
use bashni_rules::Variant;
use serde::Deserialize;

use crate::texts::text;
use serde_json::{Value, json};

use crate::app::App;
use crate::app::actions;
use crate::game::round::now_ms;
use crate::game::secret::{is_game_id, new_game_id, normalise_name};
use crate::http::error::ApiError;
use crate::http::games::{Client, parse_body};
use crate::http::session::LoggedIn;
use crate::store::{Entry, TournamentData, TournamentRow};
use crate::tournament::{self, MAX_PLAYERS, MAX_SWISS_ROUNDS, POINTS, System};

/// The most tournaments one account may have made that have not finished.
pub const MAX_UNFINISHED_PER_ACCOUNT: i64 = 3;

/// The longest tournament name, in characters.
pub const MAX_TOURNAMENT_NAME: usize = 60;

/// `POST /api/tournaments`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateTournament {
    name: String,
    variant: String,
    system: String,
    rounds: Option<i64>,
    micro: Option<bool>,
    time: Option<actions::TimeRequest>,
}

fn started() -> ApiError {
    ApiError::texted(
        StatusCode::CONFLICT,
        "tournament_started",
        crate::texts::text!("tournament-started"),
    )
}

/// A refusal with the usual code of `status`, said in the reader's language.
fn refused(status: StatusCode, text: crate::texts::Text) -> ApiError {
    let code = match status {
        StatusCode::BAD_REQUEST => "bad_request",
        StatusCode::FORBIDDEN => "forbidden",
        _ => "conflict",
    };
    ApiError::texted(status, code, text)
}

fn missing(id: &str) -> ApiError {
    let shown: String = id.chars().take(24).collect();
    ApiError::not_found(format!("there is no tournament {shown:?}"))
}

/// Reads a tournament by id, or refuses with `404`.
async fn load(app: &App, id: &str) -> Result<TournamentData, ApiError> {
    if !is_game_id(id) {
        return Err(missing(id));
    }
    app.database
        .tournament(id)
        .await?
        .ok_or_else(|| missing(id))
}

/// Makes a tournament, open for players to join; its creator does not join by making it.
pub async fn create(
    State(app): State<Arc<App>>,
    Extension(Client(client)): Extension<Client>,
    LoggedIn(account): LoggedIn,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let request: CreateTournament = parse_body(body)?;
    // A tournament counts as a new game against the address's limit.
    app.allow_new_games(client, 1)?;
    let name = normalise_name(&request.name)
        .ok_or_else(|| refused(StatusCode::BAD_REQUEST, text!("tournament-name-missing")))?;
    if name.chars().count() > MAX_TOURNAMENT_NAME {
        return Err(refused(
            StatusCode::BAD_REQUEST,
            text!("tournament-name-long", most = MAX_TOURNAMENT_NAME as i64),
        ));
    }
    let variant = actions::variant_named(&request.variant)?;
    let system = System::parse(&request.system)
        .ok_or_else(|| ApiError::bad_request("system: expected round_robin or swiss"))?;
    let rounds = match (system, request.rounds) {
        (System::Swiss, Some(rounds)) if (1..=MAX_SWISS_ROUNDS).contains(&rounds) => rounds,
        (System::Swiss, _) => {
            return Err(ApiError::bad_request(format!(
                "rounds: a Swiss tournament needs 1 to {MAX_SWISS_ROUNDS} rounds"
            )));
        }
        (System::RoundRobin, None) => 0,
        (System::RoundRobin, Some(_)) => {
            return Err(ApiError::bad_request(
                "rounds: a round robin has as many rounds as its players need; leave rounds out",
            ));
        }
    };
    let micro = request.micro.unwrap_or(false);
    if micro && variant != Variant::Russian {
        return Err(ApiError::bad_request(
            "micro: micro-matches are played in Russian draughts only",
        ));
    }
    let control = match &request.time {
        Some(time) => Some(time.clock("time")?),
        None => None,
    };
    let seed_text = crate::game::secret::random_hex(8).map_err(crate::app::ActionError::from)?;
    let seed = i64::from_str_radix(&seed_text[..15], 16).unwrap_or(0);
    let row = TournamentRow {
        id: new_game_id().map_err(crate::app::ActionError::from)?,
        name,
        variant: variant.name().into(),
        system: system.name().into(),
        rounds,
        micro,
        base_ms: control.map(|c| crate::game::round::millis(c.base)),
        increment_ms: control.map(|c| crate::game::round::millis(c.increment)),
        creator: account.id,
        creator_name: account.name.clone(),
        status: "open".into(),
        current_round: 0,
        version: 1,
        created_ms: now_ms(),
        seed,
        players: 0,
    };
    let id = row.id.clone();
    if !app
        .database
        .tournament_create(row, MAX_UNFINISHED_PER_ACCOUNT)
        .await?
    {
        return Err(ApiError::texted(
            StatusCode::TOO_MANY_REQUESTS,
            "too_many",
            text!("tournament-too-many", most = MAX_UNFINISHED_PER_ACCOUNT),
        ));
    }
    let data = load(&app, &id).await?;
    Ok((
        StatusCode::CREATED,
        Json(tournament_json(&data, Some(&account.name))),
    )
        .into_response())
}

async fn enter(app: &App, id: &str, player: i64, join: bool) -> Result<(), ApiError> {
    if !is_game_id(id) {
        return Err(missing(id));
    }
    match app
        .database
        .tournament_enter(id, player, now_ms(), join, MAX_PLAYERS as i64)
        .await?
    {
        Entry::Done => Ok(()),
        Entry::Missing => Err(missing(id)),
        Entry::Closed(_) => Err(started()),
        Entry::Full => Err(refused(
            StatusCode::CONFLICT,
            text!("tournament-full", most = MAX_PLAYERS as i64),
        )),
    }
}

/// Joins an open tournament.
pub async fn join(
    State(app): State<Arc<App>>,
    LoggedIn(account): LoggedIn,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    enter(&app, &id, account.id, true).await?;
    let data = load(&app, &id).await?;
    Ok(Json(tournament_json(&data, Some(&account.name))))
}

/// Leaves an open tournament.
pub async fn leave(
    State(app): State<Arc<App>>,
    LoggedIn(account): LoggedIn,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    enter(&app, &id, account.id, false).await?;
    let data = load(&app, &id).await?;
    Ok(Json(tournament_json(&data, Some(&account.name))))
}

/// Starts an open tournament (its creator only): numbers the players and pairs round 1.
pub async fn start(
    State(app): State<Arc<App>>,
    LoggedIn(account): LoggedIn,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let data = load(&app, &id).await?;
    if data.tournament.creator != account.id {
        return Err(refused(
            StatusCode::FORBIDDEN,
            text!("tournament-start-not-creator"),
        ));
    }
    if data.tournament.status != "open" {
        return Err(started());
    }
    let step = tournament::first_step(&data)?;
    if !app.database.tournament_advance(&id, step).await? {
        return Err(refused(
            StatusCode::CONFLICT,
            text!("tournament-start-changed"),
        ));
    }
    tracing::info!(tournament = %id, players = data.entrants.len(), "tournament started");
    let data = load(&app, &id).await?;
    tournament::hold_current_games(&app, &data).await;
    Ok(Json(tournament_json(&data, Some(&account.name))))
}

/// The newest tournaments: open, running and finished.
pub async fn list(State(app): State<Arc<App>>) -> Result<Json<Value>, ApiError> {
    let mut lists = serde_json::Map::new();
    for status in ["open", "running", "finished"] {
        let rows = app.database.tournament_list(status).await?;
        lists.insert(
            status.to_string(),
            Value::Array(rows.iter().map(summary_json).collect()),
        );
    }
    Ok(Json(Value::Object(lists)))
}

/// A tournament: players, rounds with their games and results, standings and crosstable.
pub async fn show(
    State(app): State<Arc<App>>,
    crate::http::session::Viewer(viewer): crate::http::session::Viewer,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let data = load(&app, &id).await?;
    let name = viewer.as_ref().map(|a| a.name.as_str());
    Ok(Json(tournament_json(&data, name)))
}

/// The game of the current round that `viewer` plays and that has no result yet.
fn next_game(
    data: &TournamentData,
    viewer: Option<&str>,
    name_of: &dyn Fn(i64) -> String,
) -> Option<String> {
    let viewer = viewer?;
    data.boards
        .iter()
        .filter(|board| board.round == data.tournament.current_round)
        .filter(|board| tournament::score_of(board.result.as_deref()).is_none())
        .find(|board| {
            name_of(board.white) == viewer || board.black.is_some_and(|b| name_of(b) == viewer)
        })
        .and_then(|board| board.black.and(board.game_id.clone()))
}

/// Every game of a tournament as one PDN file, in round and board order.
pub async fn pdn(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let data = load(&app, &id).await?;
    let mut text = String::new();
    for board in &data.boards {
        let Some(game) = &board.game_id else { continue };
        // Read from the store (the truth) without bringing every game into memory.
        let Some(round) = app.database.load(game).await? else {
            continue;
        };
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&actions::pdn_text(&round));
    }
    Ok(crate::http::games::pdn_download(
        &format!("bashni-tournament-{id}.pdn"),
        text,
    ))
}

fn time_json(tournament: &TournamentRow) -> Value {
    match tournament.base_ms {
        Some(base) => json!({
            "minutes": base as f64 / 60_000.0,
            "increment_s": tournament.increment_ms.unwrap_or(0) as f64 / 1000.0,
        }),
        None => Value::Null,
    }
}

fn summary_json(tournament: &TournamentRow) -> Value {
    json!({
        "id": tournament.id,
        "name": tournament.name,
        "variant": tournament.variant,
        "system": tournament.system,
        "rounds": tournament.rounds,
        "micro": tournament.micro,
        "time": time_json(tournament),
        "creator": tournament.creator_name,
        "status": tournament.status,
        "round": tournament.current_round,
        "players": tournament.players,
        "created_ms": tournament.created_ms,
    })
}

fn score_text(score: Score) -> &'static str {
    match score {
        Score::Win => "win",
        Score::Draw => "draw",
        Score::Loss => "loss",
    }
}

/// The whole tournament as the page shows it; `viewer` is the logged-in player's name.
pub fn tournament_json(data: &TournamentData, viewer: Option<&str>) -> Value {
    let tournament = &data.tournament;
    let started = tournament.status != "open";
    // Numbers are shown from 1; before the start players are listed in joining order.
    let mut entrants = data.entrants.clone();
    entrants.sort_by_key(|e| (e.number.unwrap_or(i64::MAX), e.joined_ms, e.player_id));
    let name_of = |number: i64| {
        entrants
            .get(usize::try_from(number).unwrap_or(usize::MAX))
            .map_or("?".to_string(), |e| e.name.clone())
    };
    let players: Vec<Value> = entrants
        .iter()
        .enumerate()
        .map(|(index, e)| {
            json!({
                "number": if started { Value::from(index as i64 + 1) } else { Value::Null },
                "name": e.name,
                "joined_ms": e.joined_ms,
            })
        })
        .collect();
    let mut rounds: Vec<Value> = Vec::new();
    for board in &data.boards {
        let index = usize::try_from(board.round - 1).unwrap_or(0);
        while rounds.len() <= index {
            rounds.push(json!({"round": rounds.len() + 1, "games": [], "bye": null}));
        }
        match board.black {
            None => rounds[index]["bye"] = Value::from(name_of(board.white)),
            Some(black) => {
                if let Some(games) = rounds[index]["games"].as_array_mut() {
                    games.push(json!({
                        "board": board.board,
                        "leg": board.leg,
                        "game": board.game_id,
                        "white": name_of(board.white),
                        "black": name_of(black),
                        "result": board.result.as_deref().filter(|_| {
                            tournament::score_of(board.result.as_deref()).is_some()
                        }),
                    }));
                }
            }
        }
    }
    let (standings, crosstable) = if started {
        let table = tournament::table(data);
        let standings: Vec<Value> = table
            .rows
            .iter()
            .map(|row| {
                let s = &row.standing;
                json!({
                    "place": s.place,
                    "number": s.player + 1,
                    "name": name_of(s.player as i64),
                    "points": s.points,
                    "games": s.games,
                    "wins": s.wins,
                    "draws": s.draws,
                    "losses": s.losses,
                    "byes": s.byes,
                    "sonneborn_berger": s.sonneborn_berger,
                    "buchholz": s.buchholz,
                    "median_buchholz": s.median_buchholz,
                })
            })
            .collect();
        let order: Vec<usize> = table.rows.iter().map(|r| r.standing.player + 1).collect();
        let rows: Vec<Value> = table
            .rows
            .iter()
            .map(|row| {
                let cells: Vec<Value> = row
                    .cells
                    .iter()
                    .map(|cell| match cell {
                        None => Value::Null,
                        Some(scores) => Value::Array(
                            scores.iter().map(|s| Value::from(score_text(*s))).collect(),
                        ),
                    })
                    .collect();
                json!({"number": row.standing.player + 1, "cells": cells})
            })
            .collect();
        (
            Value::Array(standings),
            json!({"order": order, "rows": rows}),
        )
    } else {
        (Value::Array(Vec::new()), Value::Null)
    };
    let viewer_in = viewer.is_some_and(|name| data.entrants.iter().any(|e| e.name == name));
    json!({
        "id": tournament.id,
        "name": tournament.name,
        "variant": tournament.variant,
        "system": tournament.system,
        "rounds": tournament.rounds,
        "micro": tournament.micro,
        "time": time_json(tournament),
        "creator": tournament.creator_name,
        "status": tournament.status,
        "round": tournament.current_round,
        "version": tournament.version,
        "created_ms": tournament.created_ms,
        "points": {"win": POINTS.win, "draw": POINTS.draw, "loss": POINTS.loss},
        "tiebreaks": tournament::system_of(tournament).tiebreaks(),
        "players": players,
        "schedule": rounds,
        "standings": standings,
        "crosstable": crosstable,
        "you": {
            "joined": viewer_in,
            "creator": viewer == Some(tournament.creator_name.as_str()),
            // The viewer's game of the current round still to be played: where to go next.
            "game": next_game(data, viewer, &name_of),
        },
    })
}
