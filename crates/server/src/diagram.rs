//! Pictures of games: `GET /api/games/{id}/diagram.svg`, the thumbnails of the games list.
//! The drawing is `bashni_diagram`'s, the same board the page shows.

use std::sync::Arc;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use bashni_diagram::Options;
use serde::Deserialize;

use crate::app::App;
use crate::error::ApiError;

/// The width of a picture when the request names none, in pixels.
pub const DEFAULT_SIZE: u32 = 160;
/// The smallest width a request gets.
pub const MIN_SIZE: u32 = 32;
/// The largest width a request gets.
pub const MAX_SIZE: u32 = 1024;
/// From this width on the picture has coordinates; below it they would be too small to read.
pub const COORDINATES_FROM: u32 = 240;

/// `?ply=N&size=N`.
#[derive(Deserialize)]
pub struct DiagramQuery {
    /// The position after this many plies; the current one if absent or past the end.
    ply: Option<usize>,
    /// The width in pixels, clamped to [`MIN_SIZE`]..=[`MAX_SIZE`].
    size: Option<u32>,
}

/// The game's position as SVG, its last move marked with an arrow.
pub async fn svg(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    query: Result<Query<DiagramQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let size = query.size.unwrap_or(DEFAULT_SIZE).clamp(MIN_SIZE, MAX_SIZE);
    let slot = app.slot(&id).await?;
    let (position, last_move) = {
        let state = slot.live.lock().await;
        let game = &state.round.game;
        let plies = game.moves().len();
        let ply = query.ply.unwrap_or(plies).min(plies);
        let last = ply.checked_sub(1).map(|i| game.moves()[i]);
        (game.positions()[ply], last)
    };
    let options = Options {
        size_px: size,
        flipped: false,
        coordinates: size >= COORDINATES_FROM,
        last_move,
        title: None,
    };
    let text = bashni_diagram::svg(&position, &options);
    Ok((
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        text,
    )
        .into_response())
}
