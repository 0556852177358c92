//! The Bashni web app: play Bashni and Russian draughts in the browser against the engine,
//! with a friend over an invite link, or at one screen; watch, replay, analyse, download and
//! upload game records.
//!
//! The folders, from the inside out; each imports only folders above it in this list, and
//! `scripts/layout.sh` checks it (no domain folder knows axum, `http/` or `socket/`; no
//! import circle between folders):
//! - [`rating`]: Glicko-2 arithmetic; [`limits`]: rate and connection limits; [`names`]: when
//!   two account names look alike; [`texts`]: what players read, in their language.
//! - [`game`]: a game on the server without I/O: the round and its actions, views,
//!   variations, the rating and fair-play rules read from a round, seat secrets.
//! - [`store`]: the truth (SQLite or PostgreSQL); [`account`]: names, passwords, sessions.
//! - [`app`]: the core: games in memory, every change through the store before anyone sees
//!   it, the engines, presence, the cluster listener; it publishes what happens
//!   ([`app::events`]) and calls no feature by name.
//! - [`chat`], [`lobby`], [`tournament`], [`analysis`]: features that follow the core.
//! - [`http`] and [`socket`]: the transports, which only translate (`docs/api.md`).
//!
//! This file puts them together: the router, and [`wire`], which subscribes the features.

pub mod account;
pub mod analysis;
pub mod app;
pub mod chat;
pub mod game;
pub mod http;
pub mod limits;
pub mod lobby;
pub mod names;
pub mod puzzles;
pub mod rating;
pub mod socket;
pub mod store;
pub mod texts;
pub mod tournament;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Instant;

use axum::Router;
use axum::body::Body;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Request, State};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use hyper_util::rt::{TokioIo, TokioTimer};
use tower::ServiceExt;

pub use app::{App, EndgameTables, Settings};
pub use http::error::ApiError;
pub use store::{Database, PgStore, Store, StoreError, StoreOptions};

/// The largest request body, in bytes (a PDN upload may be larger).
pub const MAX_BODY_BYTES: usize = 256 * 1024;

/// The largest PDN upload, in bytes.
pub const MAX_UPLOAD_BYTES: usize = 2 * 1024 * 1024;

/// Puts the features on the core: each subscribes to the happenings it follows (see
/// [`app::events`]). Done by [`router`]; doing it again changes nothing.
pub fn wire(app: &App) {
    chat::follow(app);
    lobby::Lobby::follow(app);
    tournament::follow(app);
}

/// Every address the server answers.
pub fn router(app: Arc<App>) -> Router {
    wire(&app);
    let api = Router::new()
        .route("/api/health", get(http::games::health))
        .route(
            "/api/games",
            post(http::games::create).get(http::games::list),
        )
        .route("/api/games/{id}", get(http::games::show))
        .route(
            "/api/games/{id}/join",
            post(http::games::join).get(http::games::check_invite),
        )
        .route("/api/games/{id}/move", http::games::action_route("move"))
        .route(
            "/api/games/{id}/resign",
            http::games::action_route("resign"),
        )
        .route("/api/games/{id}/abort", http::games::action_route("abort"))
        .route(
            "/api/games/{id}/rematch",
            http::games::action_route("rematch"),
        )
        .route("/api/games/{id}/draw", http::games::action_route("draw"))
        .route(
            "/api/games/{id}/takeback",
            http::games::action_route("takeback"),
        )
        .route("/api/games/{id}/claim", http::games::action_route("claim"))
        .route("/api/games/{id}/pdn", get(http::games::pdn))
        .route("/api/games/{id}/diagram.svg", get(http::diagram::svg))
        .route("/api/games/{id}/ws", get(socket::game::handler))
        .route("/api/position", post(http::games::position))
        .route("/api/analyse", post(http::games::analyse))
        .route("/api/analysis/ws", get(socket::analysis::handler))
        .route("/api/diagram.svg", get(http::export::position_svg))
        .route("/api/diagram.png", get(http::export::position_png))
        .route("/api/games/{id}/diagram.png", get(http::export::game_png))
        .route("/api/games/{id}/game.gif", get(http::export::game_gif))
        .route("/api/your-turn", post(http::turns::your_turn))
        .route(
            "/api/account",
            get(http::accounts::show).delete(http::accounts::delete),
        )
        .route("/api/account/signup", post(http::accounts::signup))
        .route(
            "/api/account/language",
            axum::routing::put(http::accounts::set_language),
        )
        .route("/api/account/login", post(http::accounts::login))
        .route("/api/account/logout", post(http::accounts::logout))
        .route("/api/account/logout-all", post(http::accounts::logout_all))
        .route("/api/players/{name}", get(http::accounts::player))
        .route("/api/lobby/ws", get(socket::lobby::handler))
        .route(
            "/api/tournaments",
            get(http::tournaments::list).post(http::tournaments::create),
        )
        .route("/api/tournaments/{id}", get(http::tournaments::show))
        .route("/api/tournaments/{id}/join", post(http::tournaments::join))
        .route(
            "/api/tournaments/{id}/leave",
            post(http::tournaments::leave),
        )
        .route(
            "/api/tournaments/{id}/start",
            post(http::tournaments::start),
        )
        .route("/api/tournaments/{id}/pdn", get(http::tournaments::pdn))
        .route("/api/games/{id}/seat", post(http::games::seat))
        .route("/api/leaderboard", get(http::ratings::leaderboard))
        .route("/api/puzzles/next", get(http::puzzles::next))
        .route("/api/puzzles/daily", get(http::puzzles::daily))
        .route("/api/puzzles/{id}", get(http::puzzles::show))
        .route("/api/puzzles/{id}/attempt", post(http::puzzles::attempt))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES));
    let upload = Router::new()
        .route("/api/pdn", post(http::games::upload))
        .layer(DefaultBodyLimit::max(MAX_UPLOAD_BYTES));
    Router::new()
        .route("/", get(http::assets::page))
        .route("/g/{id}", get(http::assets::page))
        .route("/g/{id}/join/{invite}", get(http::assets::page))
        .route("/study", get(http::assets::page))
        .route("/analysis", get(http::assets::page))
        .route("/rules", get(http::assets::page))
        .route("/lobby", get(http::assets::page))
        .route("/assets/{name}", get(http::assets::asset))
        .route("/login", get(http::assets::page))
        .route("/players/{name}", get(http::assets::page))
        .route("/tournaments", get(http::assets::page))
        .route("/t/{id}", get(http::assets::page))
        .route("/leaderboard", get(http::assets::page))
        .route("/puzzles", get(http::assets::page))
        .route("/puzzles/{id}", get(http::assets::page))
        .merge(api)
        .merge(upload)
        .fallback(not_found)
        .layer(middleware::from_fn_with_state(
            Arc::clone(&app),
            http::session::refuse_cross_site,
        ))
        .layer(middleware::from_fn_with_state(Arc::clone(&app), gate))
        // Text (the page, its script, JSON answers, PDN, SVG) goes out compressed when the
        // browser accepts it: brotli or gzip.
        .layer(tower_http::compression::CompressionLayer::new())
        .with_state(app)
}

/// Anything else: under `/api` a JSON refusal, elsewhere a page that says so.
async fn not_found(State(app): State<Arc<App>>, uri: axum::http::Uri) -> Response {
    if uri.path() == "/api" || uri.path().starts_with("/api/") {
        http::games::not_found().await.into_response()
    } else {
        http::assets::missing_page(&app)
    }
}

/// The path as it may be logged: invite codes are secrets and are left out.
fn loggable_path(path: &str) -> String {
    match path.find("/join/") {
        Some(at) => format!("{}/join/…", &path[..at]),
        None => path.chars().take(200).collect(),
    }
}

/// The client's address as the balancer in front of the server wrote it: the last entry of
/// the last `X-Forwarded-For` line. A balancer adds its own entry after whatever the client
/// sent, either as a line of its own (HAProxy's `option forwardfor`) or at the end of the
/// client's line (nginx's `$proxy_add_x_forwarded_for`); anything before it is the client's
/// word and is not believed. `None` when there is no such line or its last entry is not an
/// address.
fn forwarded_client(headers: &axum::http::HeaderMap) -> Option<IpAddr> {
    let last_line = headers.get_all("x-forwarded-for").iter().next_back()?;
    let last_entry = last_line.to_str().ok()?.rsplit(',').next()?;
    last_entry.trim().parse().ok()
}

/// A refusal for too many requests, in the words of the catalogues' message `id`.
fn refused_too_many(id: &'static str) -> ApiError {
    ApiError::texted(
        axum::http::StatusCode::TOO_MANY_REQUESTS,
        "too_many",
        texts::Text::new(id, Vec::new()),
    )
}

/// Every request passes here: the rate limit per address, the client's address for the
/// handlers, and one log line for each refused or failed request with its cause.
async fn gate(State(app): State<Arc<App>>, mut request: Request, next: Next) -> Response {
    let connected = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |info| info.0.ip());
    let forwarded = app
        .settings
        .behind_proxy
        .then(|| forwarded_client(request.headers()))
        .flatten();
    let client = forwarded.unwrap_or(connected);
    let method = request.method().clone();
    let path = loggable_path(request.uri().path());
    let language = texts::Language::of_request(
        request.uri().query(),
        request
            .headers()
            .get(axum::http::header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok()),
    );
    request.extensions_mut().insert(language);
    // The request holds its client's place before it counts as in progress, so whoever
    // sees it in progress sees its place taken too.
    let open = app.open_request(client);
    let _in_flight = app.in_flight();
    let response = if open.is_none() {
        tracing::warn!(%client, "limit: too many requests in progress from one address");
        refused_too_many("error-too-many-open").into_response()
    } else if app.allow_request(client) {
        request.extensions_mut().insert(http::games::Client(client));
        let started = Instant::now();
        let response = next.run(request).await;
        tracing::trace!(%method, %path, status = response.status().as_u16(), ms = started.elapsed().as_millis() as u64);
        response
    } else {
        tracing::warn!(%client, "limit: too many requests from one address");
        refused_too_many("error-too-many-requests").into_response()
    };
    drop(open);
    let response = http::error::in_language(response, language).await;
    let status = response.status();
    if status.is_client_error() || status.is_server_error() {
        let (code, message) = response
            .extensions()
            .get::<http::error::Refusal>()
            .map_or(("", ""), |r| (r.code, r.message.as_str()));
        if status.is_server_error() {
            tracing::error!(%method, %path, status = status.as_u16(), code, "{message}");
        } else {
            tracing::info!(%method, %path, status = status.as_u16(), code, "{message}");
        }
    }
    response
}

/// Runs the server on `listener` until the process is stopped or [`App::stop`] is called: at most
/// [`Settings::connections_per_address`] connections open from one address and
/// [`Settings::connections`] from all (no more than the open-files limit leaves room for,
/// once raised as far as the system allows); a connection that does not send a request's
/// headers within [`Settings::idle_timeout`] (also between requests) is closed, and one
/// whose request body falls behind [`Settings::body_pace`] is answered 408 and closed.
pub async fn serve(listener: tokio::net::TcpListener, app: Arc<App>) -> std::io::Result<()> {
    puzzles::add_shipped(&app).await;
    app.start_sweeping();
    app.start_listening();
    app.start_engine_jobs();
    app.start_presence();
    lobby::start(&app);
    tournament::start(&app);
    let total = app.settings.connections.min(limits::connections_allowed());
    tracing::info!(
        connections = total,
        "the most connections held open at once"
    );
    let limits = limits::ConnectionLimits::new(app.settings.connections_per_address, total);
    let mut listener = limits::LimitedListener::new(listener, limits);
    let router = router(Arc::clone(&app));
    let idle = app.settings.idle_timeout;
    let pace = app.settings.body_pace;
    let mut stopping = app.stopping();
    loop {
        let (stream, address) = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = crate::app::stopped(&mut stopping) => return Ok(()),
        };
        let router = router.clone();
        let service =
            hyper::service::service_fn(move |request: hyper::Request<hyper::body::Incoming>| {
                let mut request = request.map(|body| {
                    if http_body::Body::is_end_stream(&body) {
                        Body::new(body)
                    } else {
                        Body::new(http::body::PacedBody::new(body, pace))
                    }
                });
                request.extensions_mut().insert(ConnectInfo(address));
                router.clone().oneshot(request)
            });
        tokio::spawn(async move {
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(idle)
                .max_buf_size(64 * 1024);
            let connection = builder
                .serve_connection(TokioIo::new(stream), service)
                .with_upgrades();
            if let Err(error) = connection.await {
                tracing::debug!(%address, "connection: {error}");
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use axum::http::{HeaderMap, HeaderValue};

    use super::forwarded_client;

    fn headers(lines: &[&'static str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for line in lines {
            headers.append("x-forwarded-for", HeaderValue::from_static(line));
        }
        headers
    }

    #[test]
    fn the_balancers_entry_counts_and_nothing_the_client_wrote() {
        // HAProxy: the client's own line, then the balancer's.
        let haproxy = headers(&["203.0.113.7", "198.51.100.2"]);
        assert_eq!(forwarded_client(&haproxy), "198.51.100.2".parse().ok());
        // nginx: the balancer's entry at the end of the client's line.
        let nginx = headers(&["203.0.113.7, 10.1.1.1, 198.51.100.2"]);
        assert_eq!(forwarded_client(&nginx), "198.51.100.2".parse().ok());
        assert_eq!(
            forwarded_client(&headers(&["2001:db8::1"])),
            "2001:db8::1".parse().ok()
        );
        // No line, or a last entry that is not an address: the connection's address counts.
        assert_eq!(forwarded_client(&HeaderMap::new()), None);
        assert_eq!(
            forwarded_client(&headers(&["198.51.100.2", "unknown"])),
            None
        );
        assert_eq!(forwarded_client(&headers(&["198.51.100.2, "])), None);
    }
}
