//! Pictures of games: `GET /api/games/{id}/diagram.svg`, the thumbnails of the games list.
//! The drawing is `bashni_diagram`'s, the same board the page shows.

use std::sync::Arc;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use bashni_diagram::Options;
use serde::Deserialize;

use crate::app::App;
use crate::http::error::ApiError;

/// The width of a picture when the request names none, in pixels.
pub const DEFAULT_SIZE: u32 = 160;
/// The smallest width a request gets.
pub const MIN_SIZE: u32 = 32;
/// The largest width a request gets.
pub const MAX_SIZE: u32 = 1024;
/// From this width on the picture has coordinates; below it they would be too small to read.
pub const COORDINATES_FROM: u32 = 240;

/// How long a browser may keep a picture of a game's version: a year (it never changes).
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// `?ply=N&size=N&version=V`.
#[derive(Deserialize)]
pub struct DiagramQuery {
    /// The position after this many plies; the current one if absent or past the end.
    ply: Option<usize>,
    /// The width in pixels, clamped to [`MIN_SIZE`]..=[`MAX_SIZE`].
    size: Option<u32>,
    /// The game's version the picture is asked for: when it is the current one, the picture
    /// never changes and may be kept for good.
    version: Option<u64>,
}

/// Whether an `If-None-Match` header names `etag` (or any picture, `*`).
fn matches(if_none_match: &str, etag: &str) -> bool {
    let bare = |tag: &str| tag.trim().trim_start_matches("W/").to_string();
    if_none_match
        .split(',')
        .any(|tag| tag.trim() == "*" || bare(tag) == bare(etag))
}

/// The game's position as SVG, its last move marked with an arrow. The picture of one
/// version, ply and size never changes: it has an ETag (a request that names it in
/// `If-None-Match` gets `304`), and asked for with `version` equal to the game's version it
/// may be kept for good; otherwise the browser must ask again (`no-cache`).
pub async fn svg(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    query: Result<Query<DiagramQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let size = query.size.unwrap_or(DEFAULT_SIZE).clamp(MIN_SIZE, MAX_SIZE);
    let slot = app.slot(&id).await?;
    let (position, last_move, ply, version) = {
        let state = slot.live.lock().await;
        let game = &state.round.game;
        let plies = game.moves().len();
        let ply = query.ply.unwrap_or(plies).min(plies);
        let last = ply.checked_sub(1).map(|i| game.moves()[i]);
        (game.positions()[ply], last, ply, state.round.version)
    };
    let etag = format!("W/\"{id}-v{version}-p{ply}-s{size}\"");
    let cache = if query.version == Some(version) {
        IMMUTABLE
    } else {
        "no-cache"
    };
    let headers_out = [
        (header::CACHE_CONTROL, cache.to_string()),
        (header::ETAG, etag.clone()),
    ];
    let known = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| matches(v, &etag));
    if known {
        return Ok((StatusCode::NOT_MODIFIED, headers_out).into_response());
    }
    let options = Options {
        size_px: size,
        flipped: false,
        coordinates: size >= COORDINATES_FROM,
        last_move,
        title: None,
    };
    let text = bashni_diagram::svg(&position, &options);
    Ok((headers_out, [(header::CONTENT_TYPE, "image/svg+xml")], text).into_response())
}
