//! The Bashni web app: play Bashni and Russian draughts in the browser against the engine,
//! with a friend over an invite link, or at one screen; watch, replay, analyse, download and
//! upload game records.
//!
//! Games live in an SQLite file ([`store`]); a move is stored before it is acknowledged,
//! so a restart loses nothing. [`api`] is the JSON HTTP API and [`ws`] the WebSocket of each
//! game (both described in `docs/api.md`); [`live`] holds a game in play, and the rules
//! crate decides everything about moves and results.

pub mod api;
pub mod app;
pub mod assets;
pub mod connections;
pub mod diagram;
pub mod error;
pub mod live;
pub mod store;
pub mod view;
pub mod ws;

use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};

pub use app::{App, Settings};
pub use error::ApiError;
pub use store::{Store, StoreError};

/// The largest request body, in bytes (a PDN upload may be larger).
pub const MAX_BODY_BYTES: usize = 256 * 1024;

/// The largest PDN upload, in bytes.
pub const MAX_UPLOAD_BYTES: usize = 2 * 1024 * 1024;

/// Every address the server answers.
pub fn router(app: Arc<App>) -> Router {
    let api = Router::new()
        .route("/api/health", get(api::health))
        .route("/api/games", post(api::create).get(api::list))
        .route("/api/games/{id}", get(api::show))
        .route("/api/games/{id}/join", post(api::join))
        .route("/api/games/{id}/move", post(api::play))
        .route("/api/games/{id}/resign", post(api::resign))
        .route("/api/games/{id}/draw", post(api::draw))
        .route("/api/games/{id}/takeback", post(api::takeback))
        .route("/api/games/{id}/pdn", get(api::pdn))
        .route("/api/games/{id}/diagram.svg", get(diagram::svg))
        .route("/api/games/{id}/ws", get(ws::handler))
        .route("/api/position", post(api::position))
        .route("/api/analyse", post(api::analyse))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES));
    let upload = Router::new()
        .route("/api/pdn", post(api::upload))
        .layer(DefaultBodyLimit::max(MAX_UPLOAD_BYTES));
    Router::new()
        .route("/", get(assets::page))
        .route("/g/{id}", get(assets::page))
        .route("/g/{id}/join/{invite}", get(assets::page))
        .route("/study", get(assets::page))
        .route("/assets/{name}", get(assets::asset))
        .merge(api)
        .merge(upload)
        .fallback(api::not_found)
        .with_state(app)
}

/// Runs the server on `listener` until the process is stopped, with at most
/// `Settings::connections_per_address` connections open from one address.
pub async fn serve(listener: tokio::net::TcpListener, app: Arc<App>) -> std::io::Result<()> {
    let limits = connections::ConnectionLimits::new(app.settings.connections_per_address);
    let listener = connections::LimitedListener::new(listener, limits);
    axum::serve(listener, router(app)).await
}
