//! The HTTP API: reads requests into [`crate::app::actions`], answers with JSON. The rules
//! decide; this module only translates.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Extension, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use bashni_engine::Level;
use bashni_pdn::{Reader, replay_record};
use bashni_rules::notation;
use bashni_rules::{Color, Position, Setup, Square, Tower, Variant};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::app::actions::{self, ColorChoice, MAX_UPLOAD_GAMES, NewGame};
use crate::app::{Answer, App, StateText};
use crate::game::round::{MAX_PLIES, Mode};
use crate::game::secret::{is_game_id, typed_name};
use crate::http::error::ApiError;
use crate::http::session::Viewer;
use crate::store::{GameSummary, ListFilter, ListStatus};
use crate::texts::{Language, Text, text};

/// The header that carries a seat's token.
pub const TOKEN_HEADER: &str = "x-seat-token";

/// The address a request came from (unspecified when unknown, as in tests).
#[derive(Clone, Copy, Debug)]
pub struct Client(pub IpAddr);

impl IntoResponse for StateText {
    fn into_response(self) -> Response {
        ([(header::CONTENT_TYPE, "application/json")], self.json).into_response()
    }
}

/// A request's body, or why it could not be read.
fn body_bytes(body: Result<Bytes, BytesRejection>) -> Result<Bytes, ApiError> {
    body.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::too_large("the request is too large")
        } else if crate::http::body::BodyTooSlow::caused(&rejection) {
            ApiError::too_slow()
        } else {
            ApiError::bad_request(rejection.body_text())
        }
    })
}

/// Reads a JSON object body, turning every failure into a clear refusal.
pub fn parse_body<T: DeserializeOwned>(body: Result<Bytes, BytesRejection>) -> Result<T, ApiError> {
    crate::http::error::parse_json(&body_bytes(body)?)
}

fn token_of(headers: &HeaderMap) -> Option<String> {
    headers
        .get(TOKEN_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(|s| s.trim().to_string())
}

fn name_field(name: Option<&str>) -> Result<Option<String>, ApiError> {
    typed_name(name).map_err(|text| ApiError::texted(StatusCode::BAD_REQUEST, "bad_request", text))
}

/// Reads a position in any accepted notation (see [`notation::read_position`]); an empty
/// text is the start.
pub fn read_position(variant: Variant, text: &str) -> Result<Position, ApiError> {
    let trimmed = text.trim();
    if trimmed.len() > 4096 {
        return Err(ApiError::bad_request("position: longer than 4096 bytes"));
    }
    if trimmed.is_empty() || trimmed == "start" {
        return Ok(Position::start(variant));
    }
    notation::read_position(variant, trimmed)
        .map_err(|e| ApiError::bad_request(format!("position: {e}")))
}

fn read_variant(name: &str) -> Result<Variant, ApiError> {
    Ok(actions::variant_named(name)?)
}

/// `POST /api/games`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    variant: String,
    mode: String,
    level: Option<u8>,
    color: Option<String>,
    time: Option<actions::TimeRequest>,
    name: Option<String>,
    opponent_name: Option<String>,
    position: Option<String>,
    #[serde(default)]
    rated: bool,
}

fn new_game(request: CreateRequest) -> Result<NewGame, ApiError> {
    let variant = read_variant(&request.variant)?;
    let mode = match Mode::parse(&request.mode) {
        Some(mode @ (Mode::Engine | Mode::Friend | Mode::Local)) => mode,
        _ => {
            return Err(ApiError::bad_request(
                "mode: expected engine, friend or local",
            ));
        }
    };
    let start = read_position(variant, request.position.as_deref().unwrap_or(""))?;
    let level = match request.level {
        Some(level) => {
            Some(Level::new(level).ok_or_else(|| ApiError::bad_request("level: expected 1 to 8"))?)
        }
        None => None,
    };
    let color = match request.color.as_deref().unwrap_or("white") {
        "random" => ColorChoice::Random,
        name => ColorChoice::Color(
            Color::from_code(name)
                .ok_or_else(|| ApiError::bad_request("color: expected white, black or random"))?,
        ),
    };
    let (control, days_per_move) = match &request.time {
        Some(time) => time.rule("time")?,
        None => (None, None),
    };
    Ok(NewGame {
        mode,
        start,
        level,
        color,
        control,
        name: name_field(request.name.as_deref())?,
        opponent_name: name_field(request.opponent_name.as_deref())?,
        days_per_move,
    })
}

/// Makes a new game; a logged-in creator's seat is their account's.
pub async fn create(
    State(app): State<Arc<App>>,
    Extension(Client(client)): Extension<Client>,
    Viewer(account): Viewer,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let request: CreateRequest = parse_body(body)?;
    let rated = request.rated;
    if rated && account.is_none() {
        return Err(crate::lobby::rated_refusal().into());
    }
    let new = new_game(request)?;
    // A refused time rule does not count as a new game.
    actions::check_correspondence(&new)?;
    app.allow_new_games(client, 1)?;
    let created = actions::create(&app, new, account.as_ref(), Some(client), rated).await?;
    let state: Value = serde_json::from_str(&created.state.json).unwrap_or_default();
    let id = created.id;
    let answer = json!({
        "id": id,
        "seat": created.seat.name(),
        "token": created.token,
        "url": format!("/g/{id}"),
        "invite_url": created.invite.map(|code| format!("/g/{id}/join/{code}")),
        "state": state,
    });
    Ok((StatusCode::CREATED, Json(answer)).into_response())
}

/// The most games `GET /api/games?ids=...` asks for.
pub const MAX_LIST_IDS: usize = 50;

/// `?limit=N&status=live|finished|all&ids=a,b,c&before=CURSOR`.
#[derive(Deserialize)]
pub struct ListQuery {
    limit: Option<u32>,
    status: Option<String>,
    ids: Option<String>,
    before: Option<String>,
}

/// The place in the list after the game `id` listed at `listed_ms`: the `next` of an
/// answer, for `before` of the next request.
pub fn list_cursor(listed_ms: i64, id: &str) -> String {
    format!("{listed_ms}.{id}")
}

/// Reads a `before`: a cursor from `next`, or a time in ms since 1970.
pub fn read_cursor(text: &str) -> Result<(i64, String), ApiError> {
    let (ms, id) = text.split_once('.').unwrap_or((text, ""));
    let ms = ms.trim().parse::<i64>().ok();
    match ms {
        Some(ms) if id.len() <= 64 => Ok((ms, id.to_string())),
        _ => Err(ApiError::bad_request(
            "before: expected the `next` of an earlier answer, or a time in ms",
        )),
    }
}

fn list_filter(query: ListQuery) -> Result<ListFilter, ApiError> {
    let status = match query.status.as_deref() {
        None | Some("all") => ListStatus::All,
        Some("live") => ListStatus::Live,
        Some("finished") => ListStatus::Finished,
        Some("records") => ListStatus::Records,
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "status: expected live, finished, records or all, not {:?}",
                other.chars().take(20).collect::<String>()
            )));
        }
    };
    let ids = match query.ids {
        Some(text) => {
            let ids: Vec<String> = text
                .split(',')
                .map(str::trim)
                .filter(|id| !id.is_empty())
                .map(String::from)
                .collect();
            if ids.len() > MAX_LIST_IDS {
                return Err(ApiError::bad_request(format!(
                    "ids: at most {MAX_LIST_IDS} games at once"
                )));
            }
            // An id that is not a game id names no game: left out like an unknown one.
            Some(ids.into_iter().filter(|id| is_game_id(id)).collect())
        }
        None => None,
    };
    Ok(ListFilter {
        status,
        ids,
        before: query.before.as_deref().map(read_cursor).transpose()?,
        limit: query.limit.unwrap_or(50).clamp(1, 200),
    })
}

/// Lists games, newest first.
pub async fn list(
    State(app): State<Arc<App>>,
    query: Result<Query<ListQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let mut filter = list_filter(query)?;
    let limit = filter.limit as usize;
    // One more than asked for tells whether there is a next page.
    filter.limit += 1;
    let mut games = app.database.list(filter).await?;
    let next = (games.len() > limit)
        .then(|| games.get(limit - 1))
        .flatten()
        .map(|game| list_cursor(game.listed_ms, &game.id));
    games.truncate(limit);
    let games: Vec<Value> = games.into_iter().map(game_item).collect();
    Ok(Json(json!({ "games": games, "next": next })))
}

/// A game as lists show it (`GET /api/games`, a player's games).
pub fn game_item(game: GameSummary) -> Value {
    json!({
        "id": game.id,
        "variant": game.variant,
        "mode": game.mode,
        "white": game.white,
        "black": game.black,
        "moves": game.plies.div_ceil(2),
        "plies": game.plies,
        "result": game.result,
        "reason": game.reason,
        "updated_ms": game.updated_ms,
        "listed_ms": game.listed_ms,
        "version": game.version,
    })
}

/// The game's state.
pub async fn show(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<StateText, ApiError> {
    let slot = app.slot(&id).await?;
    let token = token_of(&headers);
    let (state, _) = app.state_text(&slot, token.as_deref()).await?;
    Ok(state)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinRequest {
    invite: String,
    name: Option<String>,
}

/// Takes the free seat of a friend game; a logged-in player's seat is their account's.
pub async fn join(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Extension(Client(client)): Extension<Client>,
    Viewer(account): Viewer,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let request: JoinRequest = parse_body(body)?;
    let name = name_field(request.name.as_deref())?;
    let slot = app.slot(&id).await?;
    if account.is_none() && slot.live.lock().await.round.rated {
        return Err(crate::lobby::rated_refusal().into());
    }
    let (seat, token, state) = actions::join(
        &app,
        &slot,
        &request.invite,
        name,
        account.as_ref(),
        Some(client),
    )
    .await?;
    let state: Value = serde_json::from_str(&state.json).unwrap_or_default();
    Ok(Json(json!({
        "seat": seat.name(),
        "token": token,
        "state": state,
    })))
}

/// `GET /api/games/{id}/join?invite=CODE`: whether the invite would let a player join now;
/// `{"ok": true}`, or the refusal a join would get (the game is over, both seats are taken,
/// the code is wrong).
pub async fn check_invite(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    query: Result<Query<InviteQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let slot = app.slot(&id).await?;
    slot.live.lock().await.round.check_invite(&query.invite)?;
    Ok(Json(json!({ "ok": true })))
}

/// The query of [`check_invite`].
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InviteQuery {
    invite: String,
}

/// The state an action answered with.
fn answer_state(acted: crate::app::Acted) -> Result<StateText, ApiError> {
    acted
        .state
        .ok_or_else(|| ApiError::internal("the state after the action is missing"))
}

/// `POST /api/games/{id}/{kind}` for each game action (see [`actions::GameAction`]):
/// the address names the action, the body holds its fields, the header the seat's token.
/// The answer is the state after the action as that seat sees it; an action made for
/// another ply is refused with the code `stale` and the state now.
pub async fn game_action(
    kind: &'static str,
    app: Arc<App>,
    id: String,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<StateText, ApiError> {
    let action = actions::GameAction::parse(Some(kind), &body_bytes(body)?)?;
    let slot = app.slot(&id).await?;
    let token = token_of(&headers);
    let token = token.as_deref();
    match actions::perform(&app, &slot, token, action, Answer::State(token)).await {
        Ok(performed) => answer_state(performed.acted),
        Err(error) => {
            let mut refusal = ApiError::from(error);
            if refusal.code == "stale"
                && let Ok((state, _)) = app.state_text(&slot, token).await
            {
                refusal.state = serde_json::from_str(&state.json).ok();
            }
            Err(refusal)
        }
    }
}

/// The route of one game action (see [`game_action`]).
pub fn action_route(kind: &'static str) -> axum::routing::MethodRouter<Arc<App>> {
    axum::routing::post(
        move |State(app): State<Arc<App>>,
              Path(id): Path<String>,
              headers: HeaderMap,
              body: Result<Bytes, BytesRejection>| async move {
            game_action(kind, app, id, headers, body).await
        },
    )
}

/// Downloads the game as PDN.
pub async fn pdn(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let slot = app.slot(&id).await?;
    let text = actions::pdn_text(&slot.live.lock().await.round);
    Ok(pdn_download(&format!("bashni-{id}.pdn"), text))
}

/// A PDN text as a download named `file`.
pub fn pdn_download(file: &str, text: String) -> Response {
    let disposition = format!("attachment; filename=\"{file}\"");
    (
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response()
}

/// Reads uploaded PDN and stores each readable game as a record.
pub async fn upload(
    State(app): State<Arc<App>>,
    Extension(Client(client)): Extension<Client>,
    Extension(language): Extension<Language>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let bytes = body.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::texted(
                StatusCode::PAYLOAD_TOO_LARGE,
                "too_large",
                crate::texts::text!(
                    "pdn-file-too-large",
                    most = (crate::MAX_UPLOAD_BYTES / 1024) as i64
                ),
            )
        } else {
            ApiError::bad_request(rejection.body_text())
        }
    })?;
    // The reader takes UTF-8, UTF-16 by its byte order mark and Windows-1251 lines.
    let mut reader = Reader::new(&bytes[..]);
    let mut games = Vec::new();
    while let Some(read) = reader.next_game() {
        let index = games.len() + 1;
        if index > MAX_UPLOAD_GAMES {
            let words = text!("pdn-too-many-games", most = MAX_UPLOAD_GAMES).words(language);
            games.push(json!({"index": index, "error": words}));
            break;
        }
        let replayed = read.map_err(|e| e.to_string()).and_then(|raw| {
            if raw.moves.len() > MAX_PLIES {
                let too_long = text!("pdn-too-long", plies = raw.moves.len(), most = MAX_PLIES);
                return Err(too_long.words(language));
            }
            // A game without GameType is of the game it replays under.
            let replayed =
                replay_record(&raw, None).map_err(|e| replay_error_words(&e, language))?;
            if let Some(stop) = replayed.stop {
                return Err(replay_error_words(&stop, language));
            }
            // What was read leniently, and how the game was found, is said with the game.
            let mut notes: Vec<String> = variant_note(&replayed)
                .map(|note| note.words(language))
                .into_iter()
                .collect();
            notes.extend(
                replayed
                    .warnings
                    .iter()
                    .map(|warning| warning_text(warning).words(language)),
            );
            Ok((raw, replayed.game, notes))
        });
        let outcome = match replayed {
            Ok((raw, game, notes)) => match app.allow_new_games(client, 1) {
                Ok(()) => actions::store_record(&app, &raw, game)
                    .await
                    .map(|id| (id, notes))
                    .map_err(|e| ApiError::from(e).error),
                Err(error) => Err(ApiError::from(error).error),
            },
            Err(error) => Err(error),
        };
        games.push(match outcome {
            Ok((id, notes)) if notes.is_empty() => json!({"index": index, "id": id}),
            Ok((id, notes)) => json!({"index": index, "id": id, "warnings": notes}),
            Err(error) => json!({"index": index, "error": error}),
        });
    }
    if games.is_empty() {
        return Err(ApiError::texted(
            StatusCode::BAD_REQUEST,
            "bad_request",
            crate::texts::text!("pdn-file-no-game"),
        ));
    }
    Ok(Json(json!({ "games": games })))
}

/// Where a move of a record stands, in `language`: "game 2 (Bashni), move 12... c3-d4 (line
/// 30, column 7)".
fn move_place_words(place: &bashni_pdn::MovePlace, language: Language) -> String {
    text!(
        "pdn-move-place",
        game = place.game,
        variant = place.variant.name(),
        variation = if place.in_variation { "yes" } else { "no" },
        number = u64::from(place.number),
        dots = if place.color == Color::White {
            "."
        } else {
            "..."
        },
        mv = place.text.as_str(),
        line = place.line,
        column = place.column
    )
    .words(language)
}

/// Why a record could not be replayed, in `language`. The reader's own words about a FEN
/// tag it cannot read stay as they are (they quote the tag).
fn replay_error_words(error: &bashni_pdn::ReplayError, language: Language) -> String {
    use bashni_pdn::{GameTypeError, ReplayError, StopReason};
    let at = |place, why: Text| {
        format!(
            "{}: {}",
            move_place_words(place, language),
            why.words(language)
        )
    };
    match error {
        ReplayError::Move { place, error } => at(
            place,
            crate::game::round::move_text_error(&place.text, error),
        ),
        ReplayError::AfterEnd { place, .. } => at(place, text!("round-game-over")),
        ReplayError::Stopped { place, reason } => at(
            place,
            match reason {
                StopReason::UnknownMove => text!("pdn-stop-unknown-move"),
                StopReason::Setup => text!("pdn-stop-setup"),
            },
        ),
        ReplayError::GameType { game, error } => match error {
            GameTypeError::Missing => text!("pdn-game-type-missing", game = *game),
            GameTypeError::Unsupported(value) => {
                text!(
                    "pdn-game-type-unsupported",
                    game = *game,
                    value = value.as_str()
                )
            }
        }
        .words(language),
        ReplayError::NoGameFits {
            game,
            further,
            other,
        } => text!(
            "pdn-no-game-fits",
            game = *game,
            further = replay_error_words(further, language),
            other = replay_error_words(other, language)
        )
        .words(language),
        other => other.to_string(),
    }
}

/// How the game of a record without `GameType` was chosen, as a text of the catalogues.
fn variant_note(replayed: &bashni_pdn::Replayed) -> Option<Text> {
    use bashni_pdn::VariantSource;
    let variant = replayed.game.variant().name();
    let how = match replayed.source {
        VariantSource::Tag => return None,
        VariantSource::Default => "asked",
        VariantSource::OnlyFit => "only_fit",
        VariantSource::BothFit => "both_fit",
    };
    Some(text!("pdn-no-game-type", variant = variant, how = how))
}

/// What a record's reader read leniently, as a text of the catalogues with its place.
fn warning_text(warning: &bashni_pdn::Warning) -> Text {
    use bashni_pdn::WarningKind;
    let (line, column) = (warning.line, warning.column);
    match &warning.kind {
        WarningKind::Encoding { encoding } => text!(
            "pdn-warning-encoding",
            line = line,
            column = column,
            encoding = *encoding
        ),
        WarningKind::TextSkipped { last_line } => text!(
            "pdn-warning-text-skipped",
            line = line,
            column = column,
            last = *last_line
        ),
        WarningKind::TagName { written, read } => text!(
            "pdn-warning-tag-name",
            line = line,
            column = column,
            written = written.as_str(),
            read = *read
        ),
        WarningKind::SetupAsFen => {
            text!("pdn-warning-setup-as-fen", line = line, column = column)
        }
        WarningKind::RemarkInParentheses => {
            text!("pdn-warning-remark", line = line, column = column)
        }
        WarningKind::CaptureWrittenQuiet { written, read } => text!(
            "pdn-warning-capture-quiet",
            line = line,
            column = column,
            written = written.as_str(),
            read = read.as_str()
        ),
        _ => Text::api_words(warning.to_string()),
    }
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
    /// Moves played in order from the position (see [`crate::game::variation`]).
    #[serde(default)]
    moves: Option<Vec<String>>,
    /// The game the position comes from, when it comes from one (see [`crate::game::fair_play`]).
    #[serde(default)]
    game: Option<String>,
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
                let square = Square::read(name)
                    .map_err(|error| ApiError::bad_request(format!("towers: {error}")))?;
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

/// The request's position with its moves played from it, as a game.
fn game_of(request: &PositionRequest) -> Result<bashni_rules::Game, ApiError> {
    let position = position_of(request)?;
    let moves = request.moves.as_deref().unwrap_or_default();
    Ok(crate::game::variation::play_variation(position, moves)?)
}

/// Checks a position, plays the moves given from it, and lists the legal moves then.
pub async fn position(body: Result<Bytes, BytesRejection>) -> Result<Json<Value>, ApiError> {
    let request: PositionRequest = parse_body(body)?;
    let game = game_of(&request)?;
    Ok(Json(crate::game::variation::position_answer(&game)))
}

/// The engine's view of a position.
pub async fn analyse(
    State(app): State<Arc<App>>,
    Extension(Client(client)): Extension<Client>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let request: PositionRequest = parse_body(body)?;
    let game = game_of(&request)?;
    crate::analysis::check_analysis(&app, request.game.as_deref(), &game).await?;
    let movetime = Duration::from_millis(request.movetime_ms.unwrap_or(1000));
    let lines = request.lines.unwrap_or(1);
    let analysis = actions::analyse(&app, client, game, movetime, request.depth, lines).await?;
    let side = analysis.side;
    let lines: Vec<Value> = analysis
        .lines
        .iter()
        .map(|line| crate::analysis::line_view(line, side))
        .collect();
    Ok(Json(
        json!({"depth": analysis.depth, "nodes": analysis.nodes, "lines": lines}),
    ))
}

/// Refuses a seat's token to an account that holds no seat in the game.
fn no_seat() -> ApiError {
    ApiError::texted(
        StatusCode::FORBIDDEN,
        "forbidden",
        crate::texts::text!("error-no-seat"),
    )
}

/// Refuses anything else under `/api`.
pub async fn not_found() -> ApiError {
    ApiError::not_found("no such address")
}

/// Says the server is up, and how busy it is.
pub async fn health(State(app): State<Arc<App>>) -> (StatusCode, Json<Value>) {
    let (free, games_waiting, analyses_waiting) = app.engines.state();
    // A server whose database does not answer says so, with 503, so that a balancer
    // checking this address sends no players there.
    let database = match tokio::time::timeout(HEALTH_WAIT, app.database.ping()).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(error)) => Err(error.message),
        Err(_) => Err(format!("no answer within {} ms", HEALTH_WAIT.as_millis())),
    };
    let status = if database.is_ok() {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    let body = json!({
        "ok": database.is_ok(),
        "database": match &database {
            Ok(()) => "ok".to_string(),
            Err(why) => format!("unreachable: {why}"),
        },
        "games_in_memory": app.games_in_memory(),
        "engines": app.engines.size(),
        "endgame_tables": app.settings.tables.as_ref().map(|tables| tables.summary()),
        "engines_free": free,
        "engine_moves_waiting": games_waiting,
        "analyses_waiting": analyses_waiting,
    });
    (status, Json(body))
}

/// How long the health check waits for the database to answer.
const HEALTH_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// The token of the seat the logged-in account holds in a game: how a player opens their
/// tournament game (or any game of their account) in a browser that has no token for it.
pub async fn seat(
    State(app): State<Arc<App>>,
    crate::http::session::LoggedIn(account): crate::http::session::LoggedIn,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let slot = app.slot(&id).await?;
    let live = slot.live.lock().await;
    let round = &live.round;
    let color = [Color::White, Color::Black]
        .into_iter()
        .find(|&color| round.account(color) == Some(account.id))
        .ok_or_else(no_seat)?;
    let token = round.player(color).token.clone().ok_or_else(no_seat)?;
    Ok(Json(json!({
        "seat": color.code(),
        "token": token,
        "tournament": round.tag(crate::game::round::TOURNAMENT_TAG),
    })))
}
