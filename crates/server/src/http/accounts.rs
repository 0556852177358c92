//! The HTTP API of accounts and players: sign up, log in and out, delete an account, and a
//! player's page (results and games). The rules of names, passwords and sessions are in
//! [`crate::account`]; this module only translates.

use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Extension, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::account::{
    Account, SessionEnded, account_name, check_password, hash_password, name_key, new_session,
    session_hash, verify_password,
};
use crate::app::App;
use crate::game::round::now_ms;
use crate::http::error::ApiError;
use crate::http::games::{Client, game_item, list_cursor, parse_body, read_cursor};
use crate::http::session::{LoggedIn, clear_cookie, require_same_site, session_id, set_cookie};
use crate::store::{NewPlayer, Signup};
use crate::texts::Text;

/// `POST /api/account/signup` and `POST /api/account/login`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    name: String,
    password: String,
}

/// `DELETE /api/account`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PasswordRequest {
    password: String,
}

fn account_json(account: &Account) -> Value {
    json!({"name": account.name, "created_ms": account.created_ms})
}

/// An answer that gives the browser a new session.
fn with_session(app: &App, status: StatusCode, id: &str, account: &Account) -> Response {
    (
        status,
        [(header::SET_COOKIE, set_cookie(&app.settings, id))],
        Json(account_json(account)),
    )
        .into_response()
}

/// An answer that makes the browser forget its session.
fn without_session(app: &App) -> Response {
    (
        [(header::SET_COOKIE, clear_cookie(&app.settings))],
        Json(json!({"ok": true})),
    )
        .into_response()
}

fn wrong_login() -> ApiError {
    ApiError::texted(
        StatusCode::UNAUTHORIZED,
        "wrong_login",
        Text::new("error-wrong-login", Vec::new()),
    )
}

fn name_taken(name: &str, taken: &str) -> ApiError {
    let text = if name.to_lowercase() == taken.to_lowercase() {
        Text::new("error-name-taken", vec![("name", taken.into())])
    } else {
        Text::new(
            "error-name-looks-taken",
            vec![("name", name.into()), ("taken", taken.into())],
        )
    };
    ApiError::texted(StatusCode::CONFLICT, "name_taken", text)
}

/// Ends the session the request came with, if any (a new one replaces it); its failure
/// only leaves a session nobody holds any more until it runs out.
async fn end_presented(app: &App, headers: &HeaderMap) {
    if let Some(id) = session_id(headers)
        && let Err(error) = app.database.end_session(&session_hash(id)).await
    {
        tracing::warn!("a replaced session could not be ended: {error}");
    }
}

/// Makes an account and logs it in.
pub async fn signup(
    State(app): State<Arc<App>>,
    Extension(Client(client)): Extension<Client>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    require_same_site(&app.settings, &headers)?;
    let request: Credentials = parse_body(body)?;
    let (name, key) = account_name(&request.name)
        .map_err(|text| ApiError::texted(StatusCode::BAD_REQUEST, "bad_request", text))?;
    check_password(&request.password)?;
    // Looked up first so that a taken name costs no password hash (nor counts as a try).
    if let Some(taken) = app.database.player_by_name(&name).await? {
        return Err(name_taken(&name, &taken.name));
    }
    app.accounts.allow_signup(client)?;
    let password_hash = hash_password(request.password).await?;
    let now = now_ms();
    let (id, session) = new_session(client, now)?;
    let player = NewPlayer {
        name: name.clone(),
        key,
        password_hash,
        created_ms: now,
    };
    let known = player.key.clone();
    match app.database.create_player(player, session).await? {
        Signup::Created(player_id) => {
            app.accounts.logged_in(client, &known);
            end_presented(&app, &headers).await;
            tracing::info!(player = %name, "new account");
            let account = Account {
                id: player_id,
                name,
                created_ms: now,
            };
            Ok(with_session(&app, StatusCode::CREATED, &id, &account))
        }
        Signup::Taken(taken) => Err(name_taken(&name, &taken)),
    }
}

/// Logs in: a new session every time, replacing the one the request came with.
pub async fn login(
    State(app): State<Arc<App>>,
    Extension(Client(client)): Extension<Client>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    require_same_site(&app.settings, &headers)?;
    let request: Credentials = parse_body(body)?;
    // No account's name is longer: a longer one is cut before its key is made.
    let typed: String = request.name.trim().chars().take(64).collect();
    let key = name_key(&typed);
    app.accounts.allow_login(client, &key)?;
    if request.password.chars().count() > crate::account::MAX_PASSWORD_CHARS {
        return Err(wrong_login());
    }
    let player = app
        .database
        .player_by_name(&typed)
        .await?
        .filter(|player| player.deleted_ms.is_none());
    let stored = player.as_ref().map(|player| player.password_hash.clone());
    let (true, Some(player)) = (verify_password(request.password, stored).await, player) else {
        tracing::info!(%client, "a log-in with a wrong name or password");
        return Err(wrong_login());
    };
    let (id, session) = new_session(client, now_ms())?;
    let replaced = session_id(&headers).map(session_hash);
    app.database
        .start_session(player.id, session, replaced)
        .await?;
    app.accounts.logged_in(client, &key);
    let account = Account {
        id: player.id,
        name: player.name,
        created_ms: player.created_ms,
    };
    Ok(with_session(&app, StatusCode::OK, &id, &account))
}

/// Logs out: this session ends (without one, the browser is only told to forget its cookie).
pub async fn logout(State(app): State<Arc<App>>, headers: HeaderMap) -> Result<Response, ApiError> {
    if let Some(id) = session_id(&headers) {
        let hash = session_hash(id);
        let ended = app.database.session(&hash, now_ms()).await?;
        app.database.end_session(&hash).await?;
        if let Some(ended) = ended {
            app.accounts.end_sessions(SessionEnded {
                account: ended.player_id,
                session: Some(hash),
            });
        }
    }
    Ok(without_session(&app))
}

/// Logs out everywhere: every session of the account ends.
pub async fn logout_all(
    State(app): State<Arc<App>>,
    LoggedIn(account): LoggedIn,
) -> Result<Response, ApiError> {
    app.database.end_sessions(account.id).await?;
    app.accounts.end_sessions(SessionEnded {
        account: account.id,
        session: None,
    });
    Ok(without_session(&app))
}

/// Who is logged in.
pub async fn show(
    State(app): State<Arc<App>>,
    LoggedIn(account): LoggedIn,
) -> Result<Json<Value>, ApiError> {
    let mut answer = account_json(&account);
    answer["language"] = json!(app.database.player_language(account.id).await?);
    Ok(Json(answer))
}

/// `PUT /api/account/language`: `{"language": "en" | "ru"}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LanguageRequest {
    language: String,
}

/// Keeps the language the logged-in account chose for the site, so that it follows the
/// player to any browser they log in from.
pub async fn set_language(
    State(app): State<Arc<App>>,
    LoggedIn(account): LoggedIn,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let request: LanguageRequest = parse_body(body)?;
    let language = crate::texts::Language::from_code(&request.language).ok_or_else(|| {
        ApiError::bad_request(format!(
            "language: expected en or ru, not {:?}",
            request.language.chars().take(16).collect::<String>()
        ))
    })?;
    if !app
        .database
        .set_player_language(account.id, language.code())
        .await?
    {
        return Err(ApiError::texted(
            StatusCode::UNAUTHORIZED,
            "not_logged_in",
            Text::new("error-not-logged-in", Vec::new()),
        ));
    }
    Ok(Json(json!({"language": language.code()})))
}

/// Deletes the logged-in account, after its password is given again.
pub async fn delete(
    State(app): State<Arc<App>>,
    Extension(Client(client)): Extension<Client>,
    LoggedIn(account): LoggedIn,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let request: PasswordRequest = parse_body(body)?;
    app.accounts.allow_login(client, &name_key(&account.name))?;
    let stored = app
        .database
        .player_by_name(&account.name)
        .await?
        .filter(|player| player.id == account.id)
        .map(|player| player.password_hash);
    if !verify_password(request.password, stored).await {
        return Err(ApiError::texted(
            StatusCode::FORBIDDEN,
            "wrong_password",
            Text::new("error-wrong-password", Vec::new()),
        ));
    }
    let games = crate::app::actions::delete_account(&app, account.id).await?;
    tracing::info!(player = %account.name, games, "account deleted");
    Ok(without_session(&app))
}

/// `GET /api/players/{name}?before=CURSOR&limit=N`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerQuery {
    before: Option<String>,
    limit: Option<u32>,
}

/// A player's page: name, since when, results per variant, games newest first (in pages).
pub async fn player(
    State(app): State<Arc<App>>,
    Path(name): Path<String>,
    query: Result<Query<PlayerQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let before = query.before.as_deref().map(read_cursor).transpose()?;
    let limit = query.limit.unwrap_or(20).clamp(1, 100);
    let shown: String = name.chars().take(40).collect();
    let missing = || ApiError::not_found(format!("there is no player {shown:?}"));
    if name.chars().count() > crate::account::MAX_NAME_CHARS * 2 {
        return Err(missing());
    }
    let player = app
        .database
        .player_by_name(&name)
        .await?
        .filter(|player| player.deleted_ms.is_none())
        .ok_or_else(missing)?;
    let results = app.database.player_results(player.id).await?;
    let (ratings, rating_history) = crate::http::ratings::ratings_of(&app, player.id).await?;
    // One more than asked for tells whether there is a next page.
    let mut games = app
        .database
        .player_games(player.id, before, limit + 1)
        .await?;
    let next = (games.len() > limit as usize)
        .then(|| games.get(limit as usize - 1))
        .flatten()
        .map(|played| list_cursor(played.game.listed_ms, &played.game.id));
    games.truncate(limit as usize);
    let mut by_variant = serde_json::Map::new();
    for variant in ["bashni", "russian"] {
        let counted = results.iter().find(|r| r.variant == variant);
        by_variant.insert(
            variant.to_string(),
            json!({
                "wins": counted.map_or(0, |r| r.wins),
                "draws": counted.map_or(0, |r| r.draws),
                "losses": counted.map_or(0, |r| r.losses),
            }),
        );
    }
    let games: Vec<Value> = games
        .into_iter()
        .map(|played| {
            let mut item = game_item(played.game);
            item["color"] = Value::from(played.color);
            item
        })
        .collect();
    Ok(Json(json!({
        "name": player.name,
        "created_ms": player.created_ms,
        "results": by_variant,
        "ratings": ratings,
        "rating_history": rating_history,
        "games": games,
        "next": next,
    })))
}
