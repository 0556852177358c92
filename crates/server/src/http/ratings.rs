//! The ratings in the API: a player's ratings and rating history (part of
//! `GET /api/players/{name}`) and the leaderboards, `GET /api/leaderboard`.

use std::sync::Arc;

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use bashni_club::pace::Pace;
use bashni_club::rating::PROVISIONAL_DEVIATION;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::app::App;
use crate::http::error::ApiError;
use crate::store::{HistoryPoint, RatingRow};

/// A rating as the API shows it: rounded, with the deviation, the games and whether it is
/// still provisional.
fn rating_view(row: &RatingRow) -> Value {
    json!({
        "rating": row.rating.rating.round() as i64,
        "deviation": row.rating.deviation.round() as i64,
        "games": row.games,
        "provisional": row.rating.is_provisional(),
    })
}

/// `{variant: {pace: value}}` from `(variant, pace, value)` items, in their order.
fn by_variant_and_pace(items: impl IntoIterator<Item = (String, String, Value)>) -> Value {
    let mut variants = Map::new();
    for (variant, pace, value) in items {
        let paces = variants
            .entry(variant)
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(paces) = paces {
            paces.insert(pace, value);
        }
    }
    Value::Object(variants)
}

/// The `ratings` and `rating_history` of account `player`'s page.
pub async fn ratings_of(app: &Arc<App>, player: i64) -> Result<(Value, Value), ApiError> {
    let ratings = app.database.player_ratings(player).await?;
    let history = app.database.rating_history(player).await?;
    let ratings = by_variant_and_pace(
        ratings
            .iter()
            .map(|row| (row.variant.clone(), row.pace.clone(), rating_view(row))),
    );
    let mut lines: Vec<(String, String, Vec<Value>)> = Vec::new();
    for HistoryPoint {
        variant,
        pace,
        at_ms,
        rating,
        game,
    } in history
    {
        let point = json!({"at_ms": at_ms, "rating": rating.round() as i64, "game": game});
        match lines
            .iter_mut()
            .find(|(v, p, _)| *v == variant && *p == pace)
        {
            Some((_, _, points)) => points.push(point),
            None => lines.push((variant, pace, vec![point])),
        }
    }
    let history = by_variant_and_pace(
        lines
            .into_iter()
            .map(|(variant, pace, points)| (variant, pace, Value::Array(points))),
    );
    Ok((ratings, history))
}

/// `GET /api/leaderboard?variant=russian&pace=blitz`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardQuery {
    variant: Option<String>,
    pace: Option<String>,
}

/// The best players of a variant and pace: established ratings first, by rating, then the
/// provisional ones (marked), by rating.
pub async fn leaderboard(
    State(app): State<Arc<App>>,
    query: Result<Query<BoardQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let variant =
        crate::app::actions::variant_named(query.variant.as_deref().unwrap_or("russian"))?;
    let pace_name = query.pace.as_deref().unwrap_or("blitz");
    let pace = Pace::parse(pace_name).ok_or_else(|| {
        ApiError::bad_request(format!(
            "pace: expected blitz, rapid, classical or correspondence, not {:?}",
            pace_name.chars().take(20).collect::<String>()
        ))
    })?;
    let rows = app
        .database
        .leaderboard(variant.name(), pace.name())
        .await?;
    let players: Vec<Value> = rows
        .iter()
        .enumerate()
        .map(|(place, row)| {
            json!({
                "place": place + 1,
                "name": row.name,
                "rating": row.rating.round() as i64,
                "deviation": row.deviation.round() as i64,
                "games": row.games,
                "provisional": row.deviation >= PROVISIONAL_DEVIATION,
            })
        })
        .collect();
    Ok(Json(json!({
        "variant": variant.name(),
        "pace": pace.name(),
        "players": players,
    })))
}
