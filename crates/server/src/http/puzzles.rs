//! Puzzles in the API: `GET /api/puzzles/next` (one to solve, near the player's puzzle
//! rating), `GET /api/puzzles/daily`, `GET /api/puzzles/{id}` and
//! `POST /api/puzzles/{id}/attempt` (solved or not: both ratings change for an account; a
//! guest brings its rating from the browser and gets the new one back).

use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use bashni_club::rating::Rating;
use bashni_puzzles::Theme;
use bashni_rules::Game;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::app::App;
use crate::http::error::ApiError;
use crate::http::games::parse_body;
use crate::http::session::Viewer;
use crate::rating::rating_at;
use crate::store::{Pick, PuzzleRow, rate_attempt};

/// How long a day is, for the daily puzzle.
const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// The most puzzle ids a guest may ask to skip.
const MOST_SKIPPED: usize = 100;

fn rating_view(rating: &Rating) -> Value {
    json!({
        "rating": rating.rating.round() as i64,
        "deviation": rating.deviation.round() as i64,
        "volatility": rating.volatility,
        "provisional": rating.is_provisional(),
    })
}

/// A puzzle as the page needs it: the position with its legal moves, the line, themes and
/// rating.
fn puzzle_view(row: &PuzzleRow) -> Result<Value, ApiError> {
    let puzzle = &row.puzzle;
    let start = puzzle
        .start()
        .map_err(|e| ApiError::internal(format!("stored puzzle {}: {e}", puzzle.id)))?;
    let themes: Vec<&str> = puzzle.themes.iter().map(|t| t.name()).collect();
    Ok(json!({
        "id": puzzle.id,
        "variant": puzzle.variant,
        "position": puzzle.position,
        "solver": start.side_to_move().name().to_ascii_lowercase(),
        "line": puzzle.line,
        "themes": themes,
        "score": puzzle.score,
        "source": puzzle.source,
        "rating": row.rating.rating.round() as i64,
        "attempts": row.attempts,
        "solved": row.solved,
        "start": crate::game::variation::position_answer(&Game::new(start)),
    }))
}

/// The answer about a puzzle: the puzzle, and for an account its puzzle rating in the
/// puzzle's game as it stands now (shown before its first attempt too).
async fn answer(
    app: &App,
    account: Option<&crate::account::Account>,
    row: &PuzzleRow,
) -> Result<Value, ApiError> {
    let mut view = puzzle_view(row)?;
    if let Some(account) = account {
        let stored = app
            .database
            .puzzle_rating(account.id, variant(Some(&row.puzzle.variant))?)
            .await?
            .map(|(stored, _)| stored);
        view["player"] = rating_view(&rating_at(stored, app.now_ms()));
    }
    Ok(view)
}

fn variant(name: Option<&str>) -> Result<&'static str, ApiError> {
    Ok(crate::app::actions::variant_named(name.unwrap_or("russian"))?.name())
}

/// `GET /api/puzzles/next?variant=bashni&theme=sacrifice&rating=1500&skip=ID,ID`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NextQuery {
    variant: Option<String>,
    theme: Option<String>,
    rating: Option<f64>,
    skip: Option<String>,
}

/// A puzzle to solve: of the game and theme asked, near the account's puzzle rating (a
/// guest's from `rating`), one the account has not tried; for a guest, not one of `skip`
/// when others are near.
pub async fn next(
    State(app): State<Arc<App>>,
    Viewer(account): Viewer,
    query: Result<Query<NextQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let variant = variant(query.variant.as_deref())?;
    let theme = match query.theme.as_deref().filter(|t| !t.is_empty()) {
        None => None,
        Some(name) => Some(
            Theme::parse(name)
                .ok_or_else(|| {
                    ApiError::bad_request(format!(
                        "theme: no theme {:?}",
                        name.chars().take(30).collect::<String>()
                    ))
                })?
                .name()
                .to_string(),
        ),
    };
    let now = app.now_ms();
    let near = match &account {
        Some(account) => {
            rating_at(
                app.database
                    .puzzle_rating(account.id, variant)
                    .await?
                    .map(|(stored, _)| stored),
                now,
            )
            .rating
        }
        None => query
            .rating
            .filter(|r| r.is_finite() && (0.0..=4000.0).contains(r))
            .unwrap_or(Rating::NEW.rating),
    };
    let skip: Vec<String> = query
        .skip
        .as_deref()
        .unwrap_or_default()
        .split(',')
        .filter(|id| !id.is_empty())
        .take(MOST_SKIPPED)
        .map(str::to_string)
        .collect();
    let pick = Pick {
        variant,
        theme,
        near,
        player: account.as_ref().map(|a| a.id),
        skip,
        salt: now as u64 ^ 0x9e37_79b9_7f4a_7c15,
    };
    match app.database.pick_puzzle(pick).await? {
        Some(row) => Ok(Json(answer(&app, account.as_ref(), &row).await?)),
        None => Err(ApiError::not_found("no puzzle left of this game and theme")),
    }
}

/// `GET /api/puzzles/daily?variant=russian`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DailyQuery {
    variant: Option<String>,
}

/// The puzzle of the day (the same for everybody all day, by the server's clock in UTC).
pub async fn daily(
    State(app): State<Arc<App>>,
    Viewer(account): Viewer,
    query: Result<Query<DailyQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let variant = variant(query.variant.as_deref())?;
    let day = (app.now_ms() / DAY_MS) as u64;
    // Days in a row fall far apart in the list.
    let salt = day.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 16;
    match app.database.nth_puzzle(variant, salt).await? {
        Some(row) => {
            let mut view = answer(&app, account.as_ref(), &row).await?;
            view["day"] = json!(day);
            Ok(Json(view))
        }
        None => Err(ApiError::not_found("no puzzle of this game")),
    }
}

/// `GET /api/puzzles/{id}`.
pub async fn show(
    State(app): State<Arc<App>>,
    Viewer(account): Viewer,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    match app.database.puzzle(&id).await? {
        Some(row) => Ok(Json(answer(&app, account.as_ref(), &row).await?)),
        None => Err(ApiError::not_found("no such puzzle")),
    }
}

/// The guest's rating as the browser keeps it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GuestRating {
    rating: f64,
    deviation: f64,
    volatility: f64,
}

/// `POST /api/puzzles/{id}/attempt`: `{"solved": true, "rating": {...}}` (`rating` for a
/// guest only).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AttemptRequest {
    solved: bool,
    rating: Option<GuestRating>,
}

/// Records an attempt. For an account, its first attempt at the puzzle changes its puzzle
/// rating and the puzzle's (stored before the answer); later ones change nothing. For a
/// guest, the answer is the guest's new rating from the one it sent; the puzzle's rating
/// does not change.
pub async fn attempt(
    State(app): State<Arc<App>>,
    Viewer(account): Viewer,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let request: AttemptRequest = parse_body(body)?;
    let now = app.now_ms();
    let (counted, before, after, puzzle) = match account {
        Some(account) => {
            let outcome = app
                .database
                .attempt_puzzle(account.id, &id, request.solved, now)
                .await?
                .ok_or_else(|| ApiError::not_found("no such puzzle"))?;
            (
                outcome.counted,
                outcome.before,
                outcome.after,
                outcome.puzzle,
            )
        }
        None => {
            let row = app
                .database
                .puzzle(&id)
                .await?
                .ok_or_else(|| ApiError::not_found("no such puzzle"))?;
            let before = match request.rating {
                None => Rating::NEW,
                Some(r) => {
                    let rating = Rating::new(r.rating, r.deviation, r.volatility);
                    let bounded = (0.0..=4000.0).contains(&rating.rating)
                        && rating.deviation <= 350.0
                        && rating.volatility <= 1.0;
                    if !rating.is_valid() || !bounded {
                        return Err(ApiError::bad_request(
                            "rating: expected a rating 0-4000, a deviation 0-350 and a \
                             volatility 0-1",
                        ));
                    }
                    rating
                }
            };
            let (after, _) = rate_attempt(before, row.rating, request.solved);
            (true, before, after, row.rating)
        }
    };
    Ok(Json(json!({
        "counted": counted,
        "solved": request.solved,
        "before": rating_view(&before),
        "after": rating_view(&after),
        "diff": after.rating.round() as i64 - before.rating.round() as i64,
        "puzzle": {"id": id, "rating": puzzle.rating.round() as i64},
    })))
}
