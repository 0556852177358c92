//! The HTTP API: reads requests, hands them to the game, answers with JSON.
//! The rules decide; this module only translates.

use std::sync::Arc;
use std::time::Instant;

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use bashni_engine::{Limits, Past};
use bashni_pdn::{MoveForm, Reader, record, replay, write_game};
use bashni_rules::notation::{self, write_fen};
use bashni_rules::{
    BaseUnit, Color, Game, Position, Setup, Square, TimeControl, TimeControlError, Tower, Variant,
};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use subtle::ConstantTimeEq;

use crate::app::{App, Change, StateText};
use crate::error::ApiError;
use crate::live::{LiveGame, Mode, Seat, now_ms};
use crate::store::{GameRow, MoveRow, SeatRow};
use crate::view::{MoveView, PositionView};

/// The header that carries a seat's token.
pub const TOKEN_HEADER: &str = "x-seat-token";

/// The longest player name, in characters.
pub const MAX_NAME_CHARS: usize = 40;

/// `bytes` random bytes from the operating system, as hex.
pub fn random_hex(bytes: usize) -> Result<String, ApiError> {
    let mut buffer = vec![0u8; bytes];
    getrandom::fill(&mut buffer).map_err(|e| {
        tracing::error!("random numbers: {e}");
        ApiError::internal("no random numbers available")
    })?;
    Ok(buffer.iter().map(|b| format!("{b:02x}")).collect())
}

/// A new game id: 12 letters and digits (about 62 bits).
fn new_game_id() -> Result<String, ApiError> {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let mut buffer = [0u8; 12];
    getrandom::fill(&mut buffer).map_err(|_| ApiError::internal("no random numbers available"))?;
    Ok(buffer
        .iter()
        .map(|b| ALPHABET[(*b as usize) % ALPHABET.len()] as char)
        .collect())
}

/// Reads a JSON body, turning every failure into a clear refusal.
pub fn parse_body<T: DeserializeOwned>(body: Result<Bytes, BytesRejection>) -> Result<T, ApiError> {
    let bytes = body.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::too_large("the request is too large")
        } else {
            ApiError::bad_request(rejection.body_text())
        }
    })?;
    parse_json(&bytes)
}

/// Reads JSON text, with the place of the first error.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(bytes).map_err(|e| ApiError::bad_request(format!("request body: {e}")))
}

/// Compares two tokens in time that does not depend on where they differ.
pub fn same_token(given: &str, stored: &str) -> bool {
    given.len() == stored.len() && bool::from(given.as_bytes().ct_eq(stored.as_bytes()))
}

/// The seat `token` holds in `live`, if any.
pub fn seat_of(live: &LiveGame, token: Option<&str>) -> Option<Seat> {
    let token = token?;
    let white = live
        .row
        .white
        .token
        .as_deref()
        .is_some_and(|t| same_token(token, t));
    let black = live
        .row
        .black
        .token
        .as_deref()
        .is_some_and(|t| same_token(token, t));
    match (white, black) {
        (true, true) => Some(Seat::Both),
        (true, false) => Some(Seat::White),
        (false, true) => Some(Seat::Black),
        (false, false) => None,
    }
}

/// The seat `token` holds, or the refusal.
pub fn require_seat(live: &LiveGame, token: Option<&str>) -> Result<Seat, ApiError> {
    match token {
        None => Err(ApiError::forbidden(
            "this needs your seat's token (header X-Seat-Token)",
        )),
        Some(token) => seat_of(live, Some(token))
            .ok_or_else(|| ApiError::forbidden("the seat token is wrong for this game")),
    }
}

fn token_of(headers: &HeaderMap) -> Option<String> {
    headers
        .get(TOKEN_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(|s| s.trim().to_string())
}

/// A player's name: trimmed, no control characters, at most 40 characters.
fn clean_name(name: Option<&str>, default: &str) -> Result<String, ApiError> {
    let name: String = name
        .unwrap_or("")
        .chars()
        .filter(|c| !c.is_control())
        .collect();
    let name = name.trim();
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(ApiError::bad_request(format!(
            "name: at most {MAX_NAME_CHARS} characters"
        )));
    }
    Ok(if name.is_empty() {
        default.to_string()
    } else {
        name.to_string()
    })
}

/// Reads a position in any accepted notation (see [`notation::read_position`]); an empty
/// text is the start.
pub fn read_position(variant: Variant, text: &str) -> Result<Position, ApiError> {
    let trimmed = text.trim();
    if trimmed.len() > 4096 {
        return Err(ApiError::bad_request("position: the text is too long"));
    }
    if trimmed.is_empty() {
        return Ok(Position::start(variant));
    }
    notation::read_position(variant, trimmed)
        .map_err(|e| ApiError::bad_request(format!("position: {e}")))
}

fn read_variant(name: &str) -> Result<Variant, ApiError> {
    Variant::parse(name).ok_or_else(|| {
        ApiError::bad_request(format!("variant: expected bashni or russian, not {name:?}"))
    })
}

/// The `time` of a new game: minutes for the game and seconds added per move, read into
/// the rules' [`TimeControl`].
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeRequest {
    /// Minutes for the game.
    pub minutes: f64,
    /// Seconds added after each move.
    #[serde(default)]
    pub increment_s: f64,
}

/// `POST /api/games`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    variant: String,
    mode: String,
    level: Option<u8>,
    color: Option<String>,
    time: Option<TimeRequest>,
    name: Option<String>,
    opponent_name: Option<String>,
    position: Option<String>,
}

/// Makes a new game.
pub async fn create(
    State(app): State<Arc<App>>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let request: CreateRequest = parse_body(body)?;
    let (answer, _) = create_game(&app, request)?;
    Ok((StatusCode::CREATED, Json(answer)).into_response())
}

/// Makes a game from `request`; returns the answer and the game's id.
pub fn create_game(app: &Arc<App>, request: CreateRequest) -> Result<(Value, String), ApiError> {
    let variant = read_variant(&request.variant)?;
    let mode = match Mode::parse(&request.mode) {
        Some(mode @ (Mode::Engine | Mode::Friend | Mode::Local)) => mode,
        _ => {
            return Err(ApiError::bad_request(format!(
                "mode: expected engine, friend or local, not {:?}",
                request.mode
            )));
        }
    };
    let start = read_position(variant, request.position.as_deref().unwrap_or("start"))?;
    let level = match (mode, request.level) {
        (Mode::Engine, Some(level)) => Some(
            bashni_engine::Level::new(level)
                .ok_or_else(|| ApiError::bad_request("level: expected 1 to 8"))?,
        ),
        (Mode::Engine, None) => bashni_engine::Level::new(4),
        _ => None,
    };
    let creator = match request.color.as_deref().unwrap_or("white") {
        "random" => {
            let mut byte = [0u8; 1];
            getrandom::fill(&mut byte).map_err(|_| ApiError::internal("no random numbers"))?;
            if byte[0] & 1 == 0 {
                Color::White
            } else {
                Color::Black
            }
        }
        name => Color::from_code(name).ok_or_else(|| {
            ApiError::bad_request(format!(
                "color: expected white, black or random, not {name:?}"
            ))
        })?,
    };
    let control = request
        .time
        .as_ref()
        .map(|time| {
            TimeControl::from_numbers(time.minutes, BaseUnit::Minutes, time.increment_s).map_err(
                |error| {
                    let field = match error {
                        TimeControlError::IncrementOutOfRange => "time.increment_s",
                        _ => "time.minutes",
                    };
                    ApiError::bad_request(format!("{field}: {error}"))
                },
            )
        })
        .transpose()?;
    let millis = |d: std::time::Duration| i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
    let base_ms = control.map(|c| millis(c.base));
    let increment_ms = control.map(|c| millis(c.increment));
    let token = random_hex(16)?;
    let id = new_game_id()?;
    let name = clean_name(request.name.as_deref(), "")?;
    let mut white = SeatRow {
        name: String::new(),
        token: None,
        joined: false,
    };
    let mut black = white.clone();
    let mut invite = None;
    let engine_color = (mode == Mode::Engine).then(|| creator.opponent());
    let (mine, theirs) = match creator {
        Color::White => (&mut white, &mut black),
        Color::Black => (&mut black, &mut white),
    };
    mine.token = Some(token.clone());
    mine.joined = true;
    match mode {
        Mode::Engine => {
            mine.name = if name.is_empty() { "You".into() } else { name };
            let level = level.unwrap_or_else(bashni_engine::Level::full);
            theirs.name = format!("Engine, level {} ({})", level.number(), level.name());
            theirs.joined = true;
        }
        Mode::Friend => {
            mine.name = if name.is_empty() {
                creator.code().to_string()
            } else {
                name
            };
            invite = Some(random_hex(16)?);
        }
        _ => {
            // At one screen the creator holds both seats with one token.
            mine.name = if name.is_empty() {
                "White".into()
            } else {
                name
            };
            theirs.name = clean_name(request.opponent_name.as_deref(), "Black")?;
            theirs.token = Some(token.clone());
            theirs.joined = true;
            if creator == Color::Black {
                std::mem::swap(&mut mine.name, &mut theirs.name);
            }
        }
    }
    let now = now_ms();
    let row = GameRow {
        id: id.clone(),
        variant: variant.name().into(),
        mode: mode.name().into(),
        start_fen: write_fen(&start),
        level: level.map(|l| l.number()),
        engine_color: engine_color.map(|c| c.code().to_string()),
        creator: Some(
            if mode == Mode::Local {
                "both"
            } else {
                creator.code()
            }
            .to_string(),
        ),
        white,
        black,
        invite: invite.clone(),
        base_ms,
        increment_ms,
        white_ms: base_ms,
        black_ms: base_ms,
        result: None,
        reason: None,
        reason_code: None,
        draw_offer: None,
        tags: "[]".into(),
        created_ms: now,
        updated_ms: now,
        version: 1,
        last_offer: None,
    };
    let mut live = LiveGame::restore(row, &[]).map_err(ApiError::internal)?;
    // A start position with no move for the side to move ends the game at once.
    live.sync_result(Instant::now());
    app.store.insert_game(&live.row, &[])?;
    let seat = match mode {
        Mode::Local => Seat::Both,
        _ if creator == Color::White => Seat::White,
        _ => Seat::Black,
    };
    let records = Vec::new();
    let state = serde_json::to_value(crate::view::game_state(
        &live,
        &records,
        Some(seat),
        Instant::now(),
    ))
    .unwrap_or_default();
    app.add(live);
    let answer = json!({
        "id": id,
        "seat": seat.name(),
        "token": token,
        "url": format!("/g/{id}"),
        "invite_url": invite.map(|code| format!("/g/{id}/join/{code}")),
        "state": state,
    });
    Ok((answer, id))
}

/// `?limit=N`.
#[derive(Deserialize)]
pub struct ListQuery {
    limit: Option<u32>,
}

/// Lists recent games.
pub async fn list(
    State(app): State<Arc<App>>,
    query: Result<Query<ListQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let limit = query.limit.unwrap_or(50).clamp(1, 200);
    let games = app.store.recent_games(limit)?;
    let games: Vec<Value> = games
        .into_iter()
        .map(|summary| {
            let row = summary.row;
            json!({
                "id": row.id,
                "variant": row.variant,
                "mode": row.mode,
                "white": row.white.name,
                "black": row.black.name,
                "moves": summary.moves,
                "result": row.result,
                "reason": row.reason,
                "updated_ms": row.updated_ms,
            })
        })
        .collect();
    Ok(Json(json!({ "games": games })))
}

/// The game's state.
pub async fn show(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<StateText, ApiError> {
    let slot = app.slot(&id)?;
    let mut state = slot.live.lock().await;
    if state.game.check_flag(Instant::now()) {
        drop(state);
        app.act(&slot, None, |_| Ok(((), Change::Game))).await?;
        state = slot.live.lock().await;
    }
    let token = token_of(&headers);
    let seat = seat_of(&state.game, token.as_deref());
    Ok(state.state_text(seat))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinRequest {
    invite: String,
    name: Option<String>,
}

/// Takes the free seat of a friend game.
pub async fn join(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let request: JoinRequest = parse_body(body)?;
    let slot = app.slot(&id)?;
    let token = random_hex(16)?;
    let name = clean_name(request.name.as_deref(), "")?;
    let given = token.clone();
    let (seat, state) = app
        .act(&slot, Some(&given), move |live| {
            if live.mode != Mode::Friend {
                return Err(ApiError::conflict(
                    "only games with a friend have an invite",
                ));
            }
            let invite = live
                .row
                .invite
                .as_deref()
                .ok_or_else(|| ApiError::conflict("both seats are already taken"))?;
            if !same_token(request.invite.trim(), invite) {
                return Err(ApiError::forbidden(
                    "the invite code is wrong for this game",
                ));
            }
            let (seat, color) = if live.row.white.joined {
                (&mut live.row.black, Color::Black)
            } else {
                (&mut live.row.white, Color::White)
            };
            seat.token = Some(token);
            seat.joined = true;
            seat.name = if name.is_empty() {
                color.code().to_string()
            } else {
                name
            };
            live.row.invite = None;
            live.sync_result(Instant::now());
            live.touch();
            Ok((color, Change::Game))
        })
        .await?;
    Ok(Json(json!({
        "seat": seat.code(),
        "token": given,
        "state": state.value(),
    })))
}

/// `POST /api/games/{id}/move`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The move in any accepted notation.
    #[serde(rename = "move")]
    pub text: String,
    /// Claim a draw with the move.
    #[serde(default)]
    pub claim_draw: bool,
}

/// Plays a move.
pub async fn play(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<StateText, ApiError> {
    let request: MoveRequest = parse_body(body)?;
    let slot = app.slot(&id)?;
    let token = token_of(&headers);
    let state = play_move(
        &app,
        &slot,
        token.as_deref(),
        &request.text,
        request.claim_draw,
    )
    .await?;
    Ok(state)
}

/// Plays a move for the holder of `token`; answers once it is stored.
pub async fn play_move(
    app: &Arc<App>,
    slot: &Arc<crate::app::GameSlot>,
    token: Option<&str>,
    text: &str,
    claim_draw: bool,
) -> Result<StateText, ApiError> {
    let (_, state) = app
        .act(slot, token, |live| {
            let seat = require_seat(live, token)?;
            let row: MoveRow = live.play(seat, text, claim_draw, Instant::now())?;
            Ok(((), Change::Move(row)))
        })
        .await?;
    Ok(state)
}

/// Resigns.
pub async fn resign(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<StateText, ApiError> {
    let slot = app.slot(&id)?;
    let token = token_of(&headers);
    resign_game(&app, &slot, token.as_deref()).await
}

/// Resigns for the holder of `token`.
pub async fn resign_game(
    app: &Arc<App>,
    slot: &Arc<crate::app::GameSlot>,
    token: Option<&str>,
) -> Result<StateText, ApiError> {
    let (_, state) = app
        .act(slot, token, |live| {
            let seat = require_seat(live, token)?;
            live.resign(seat)?;
            Ok(((), Change::Game))
        })
        .await?;
    Ok(state)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DrawRequest {
    action: String,
}

/// Offers, accepts, declines or claims a draw.
pub async fn draw(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<StateText, ApiError> {
    let request: DrawRequest = parse_body(body)?;
    let slot = app.slot(&id)?;
    let token = token_of(&headers);
    draw_action(&app, &slot, token.as_deref(), &request.action).await
}

/// A draw action for the holder of `token`; against the engine, an offer is answered.
pub async fn draw_action(
    app: &Arc<App>,
    slot: &Arc<crate::app::GameSlot>,
    token: Option<&str>,
    action: &str,
) -> Result<StateText, ApiError> {
    let (engine_game, mut state) = app
        .act(slot, token, |live| {
            let seat = require_seat(live, token)?;
            live.draw(seat, action)?;
            let level = live
                .row
                .level
                .and_then(bashni_engine::Level::new)
                .unwrap_or_else(bashni_engine::Level::full);
            let engine_game =
                (live.mode == Mode::Engine && action == "offer" && live.row.draw_offer.is_some())
                    .then(|| (live.game.clone(), level));
            Ok((engine_game, Change::Game))
        })
        .await?;
    if let Some((game, level)) = engine_game {
        let accept = app.engine_accepts_draw(game, level).await;
        let (_, answered) = app
            .act(slot, token, move |live| {
                live.engine_answers_draw(accept);
                Ok(((), Change::Game))
            })
            .await?;
        state = answered;
    }
    Ok(state)
}

/// Takes back moves.
pub async fn takeback(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<StateText, ApiError> {
    let slot = app.slot(&id)?;
    let token = token_of(&headers);
    take_back(&app, &slot, token.as_deref()).await
}

/// Takes back moves for the holder of `token`.
pub async fn take_back(
    app: &Arc<App>,
    slot: &Arc<crate::app::GameSlot>,
    token: Option<&str>,
) -> Result<StateText, ApiError> {
    let (_, state) = app
        .act(slot, token, |live| {
            let seat = require_seat(live, token)?;
            let ply = live.take_back(seat)?;
            Ok(((), Change::TakeBack(ply)))
        })
        .await?;
    Ok(state)
}

/// The game as PDN text.
pub fn game_pdn(live: &LiveGame) -> String {
    let stored: Vec<(String, String)> = serde_json::from_str(&live.row.tags).unwrap_or_default();
    let mut tags: Vec<(String, String)> = if stored.is_empty() {
        let event = match live.variant() {
            Variant::Bashni => "Bashni game",
            Variant::Russian => "Russian draughts game",
        };
        let mut tags = vec![
            ("Event".to_string(), event.to_string()),
            ("Site".to_string(), "bashni serve".to_string()),
            (
                "Date".to_string(),
                bashni_pdn::date_tag_of_ms(live.row.created_ms),
            ),
            ("White".to_string(), live.row.white.name.clone()),
            ("Black".to_string(), live.row.black.name.clone()),
        ];
        if let Some(control) = crate::live::row_control(&live.row) {
            tags.push(("TimeControl".to_string(), control.pdn_tag()));
        }
        tags
    } else {
        stored
    };
    if let Some(reason) = &live.row.reason
        && !tags.iter().any(|(name, _)| name == "Termination")
    {
        tags.push(("Termination".to_string(), reason.clone()));
    }
    let mut raw = record(&live.game, &tags, MoveForm::Full);
    if live.game.outcome().is_none()
        && let Some(result) = live
            .row
            .result
            .as_deref()
            .and_then(bashni_pdn::ResultToken::from_token)
    {
        // A record's result (or one the rules cannot rebuild) is written as stored.
        raw.result = Some(result);
        for (name, value) in raw.tags.iter_mut() {
            if name == "Result" {
                *value = result.token().to_string();
            }
        }
    }
    let mut text = String::new();
    let _ = write_game(&mut text, &raw);
    text
}

/// Downloads the game as PDN.
pub async fn pdn(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let slot = app.slot(&id)?;
    let state = slot.live.lock().await;
    let text = game_pdn(&state.game);
    let disposition = format!("attachment; filename=\"bashni-{id}.pdn\"");
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response())
}

/// The most games one upload may hold.
pub const MAX_UPLOAD_GAMES: usize = 200;

/// Reads uploaded PDN and stores each readable game as a record.
pub async fn upload(
    State(app): State<Arc<App>>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let bytes = body.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::too_large("the PDN file is too large")
        } else {
            ApiError::bad_request(rejection.body_text())
        }
    })?;
    let text = std::str::from_utf8(&bytes)
        .map_err(|e| ApiError::bad_request(format!("the PDN file is not UTF-8 text: {e}")))?;
    let mut reader = Reader::new(text.as_bytes());
    let mut games = Vec::new();
    while let Some(read) = reader.next_game() {
        let index = games.len() + 1;
        if index > MAX_UPLOAD_GAMES {
            games.push(json!({"index": index, "error": format!(
                "only the first {MAX_UPLOAD_GAMES} games of a file are read"
            )}));
            break;
        }
        let outcome = read
            .map_err(|e| e.to_string())
            .and_then(|raw| {
                let game = replay(&raw, Some(Variant::Russian)).map_err(|e| e.to_string())?;
                Ok((raw, game))
            })
            .and_then(|(raw, game)| store_record(&app, &raw, &game).map_err(|e| e.to_string()));
        games.push(match outcome {
            Ok(id) => json!({"index": index, "id": id}),
            Err(error) => json!({"index": index, "error": error}),
        });
    }
    if games.is_empty() {
        return Err(ApiError::bad_request("the file holds no game"));
    }
    Ok(Json(json!({ "games": games })))
}

fn store_record(
    app: &Arc<App>,
    raw: &bashni_pdn::RawGame,
    game: &Game,
) -> Result<String, ApiError> {
    let id = new_game_id()?;
    let name = |tag: &str, default: &str| {
        let value: String = raw.tag(tag).unwrap_or(default).chars().take(80).collect();
        if value.trim().is_empty() || value == "?" {
            default.to_string()
        } else {
            value
        }
    };
    let result = raw
        .result
        .or_else(|| {
            raw.tag("Result")
                .and_then(bashni_pdn::ResultToken::from_token)
        })
        .filter(|r| *r != bashni_pdn::ResultToken::Unfinished);
    let (result, reason, code) = match (game.outcome(), result) {
        (Some(outcome), _) => (
            Some(outcome.result.score().to_string()),
            Some(outcome.reason.to_string()),
            Some(crate::live::reason_code(outcome.reason).to_string()),
        ),
        (None, Some(result)) => (
            Some(result.token().to_string()),
            Some("as recorded".to_string()),
            Some("recorded".to_string()),
        ),
        (None, None) => (None, None, None),
    };
    let tags: Vec<(String, String)> = raw
        .tags
        .iter()
        .filter(|(name, _)| !matches!(name.as_str(), "Result" | "GameType" | "FEN"))
        .cloned()
        .collect();
    let now = now_ms();
    let row = GameRow {
        id: id.clone(),
        variant: game.variant().name().into(),
        mode: Mode::Record.name().into(),
        start_fen: write_fen(game.start_position()),
        level: None,
        engine_color: None,
        creator: None,
        white: SeatRow {
            name: name("White", "White"),
            token: None,
            joined: true,
        },
        black: SeatRow {
            name: name("Black", "Black"),
            token: None,
            joined: true,
        },
        invite: None,
        base_ms: None,
        increment_ms: None,
        white_ms: None,
        black_ms: None,
        result,
        reason,
        reason_code: code,
        draw_offer: None,
        tags: serde_json::to_string(&tags).unwrap_or_else(|_| "[]".into()),
        created_ms: now,
        updated_ms: now,
        version: 1,
        last_offer: None,
    };
    let moves: Vec<MoveRow> = game
        .moves()
        .iter()
        .enumerate()
        .map(|(ply, mv)| MoveRow {
            ply: ply as u32,
            text: mv.to_string(),
            white_ms: None,
            black_ms: None,
            at_ms: now,
        })
        .collect();
    app.store.insert_game(&row, &moves)?;
    Ok(id)
}

/// `POST /api/position` and the position part of `POST /api/analyse`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    variant: String,
    position: Option<String>,
    towers: Option<std::collections::BTreeMap<String, String>>,
    turn: Option<String>,
    #[serde(default)]
    movetime_ms: Option<u64>,
    #[serde(default)]
    depth: Option<u32>,
    #[serde(default)]
    lines: Option<usize>,
}

fn position_of(request: &PositionRequest) -> Result<Position, ApiError> {
    let variant = read_variant(&request.variant)?;
    match (&request.position, &request.towers) {
        (Some(_), Some(_)) => Err(ApiError::bad_request(
            "give either position or towers, not both",
        )),
        (Some(text), None) => read_position(variant, text),
        (None, Some(towers)) => {
            let mut setup = Setup::default();
            if towers.len() > 32 {
                return Err(ApiError::bad_request("towers: more than 32 squares"));
            }
            for (name, letters) in towers {
                let square = Square::parse(name).ok_or_else(|| {
                    ApiError::bad_request(format!("towers: {name:?} is not a dark square"))
                })?;
                if letters.chars().count() > 24 {
                    return Err(ApiError::bad_request(format!(
                        "towers: {name} is taller than 24 checkers"
                    )));
                }
                let checkers = letters
                    .chars()
                    .map(|c| {
                        bashni_rules::Checker::from_letter(c).ok_or_else(|| {
                            ApiError::bad_request(format!(
                                "towers: {name}: {c:?} is not w, W, b or B"
                            ))
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                let tower = Tower::from_checkers(checkers).ok_or_else(|| {
                    ApiError::bad_request(format!("towers: {name}: not a possible tower"))
                })?;
                setup.towers[square.index()] = tower;
            }
            let turn = request.turn.as_deref().unwrap_or("white");
            setup.side_to_move = Color::from_code(turn).ok_or_else(|| {
                ApiError::bad_request(format!("turn: expected white or black, not {turn:?}"))
            })?;
            Position::from_setup(variant, &setup)
                .map_err(|e| ApiError::bad_request(format!("position: {e}")))
        }
        (None, None) => Ok(Position::start(variant)),
    }
}

/// Checks a position and lists its legal moves.
pub async fn position(body: Result<Bytes, BytesRejection>) -> Result<Json<Value>, ApiError> {
    let request: PositionRequest = parse_body(body)?;
    let position = position_of(&request)?;
    let legal: Vec<MoveView> = position
        .legal_moves()
        .iter()
        .map(|mv| MoveView::of(&position, mv))
        .collect();
    Ok(Json(json!({
        "position": PositionView::of(&position),
        "legal_moves": legal,
    })))
}

/// The engine's view of a position.
pub async fn analyse(
    State(app): State<Arc<App>>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let request: PositionRequest = parse_body(body)?;
    let position = position_of(&request)?;
    let movetime = request.movetime_ms.unwrap_or(1000).clamp(1, 10_000);
    let lines = request.lines.unwrap_or(1).clamp(1, 5);
    let limits = Limits {
        movetime: Some(std::time::Duration::from_millis(movetime)),
        depth: request.depth.map(|d| d.clamp(1, 64)),
        ..Limits::default()
    };
    let game = Game::new(position);
    let side = game.side_to_move();
    if game.legal_moves().is_empty() {
        return Ok(Json(json!({"depth": 0, "nodes": 0, "lines": []})));
    }
    let result = app
        .engines
        .with_engine(move |engine| {
            let result =
                engine.search_lines(game.position(), &Past::of(&game), &limits, lines, |_| {});
            let lines: Vec<Value> = result
                .lines
                .iter()
                .map(|info| {
                    let mut line = game.clone();
                    let mut moves = Vec::new();
                    for mv in &info.pv {
                        if line.play(mv).is_err() {
                            break;
                        }
                        moves.push(mv.to_string());
                    }
                    json!({
                        "score": info.score.text(),
                        "score_white": info.score.white_text(side),
                        "score_cp": info.score.value(),
                        "moves": moves,
                    })
                })
                .collect();
            json!({"depth": result.depth, "nodes": result.nodes, "lines": lines})
        })
        .await
        .ok_or_else(|| ApiError::internal("the engine is not available"))?;
    Ok(Json(result))
}

/// Refuses anything else under `/api`.
pub async fn not_found() -> ApiError {
    ApiError::not_found("no such address")
}

/// Says the server is up.
pub async fn health(State(app): State<Arc<App>>) -> Json<Value> {
    Json(json!({"ok": true, "games_in_memory": app.games_in_memory()}))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_compare_exactly() {
        assert!(same_token("abc", "abc"));
        assert!(!same_token("abc", "abd"));
        assert!(!same_token("abc", "abcd"));
    }
}
