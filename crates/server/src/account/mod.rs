//! Player accounts, which nobody needs in order to play: names and what makes two names too
//! alike, passwords (Argon2id, hashed on blocking threads so that no async thread waits for
//! them), log-in sessions, the limits on log-in attempts, and who is logged in on a request.
//!
//! A handler learns who is logged in with the extractor [`Viewer`] (anyone, maybe logged in)
//! or [`LoggedIn`] (refused with `401 not_logged_in` otherwise). A session's id lives only in
//! the browser's `bashni_session` cookie; the store keeps its SHA-256 hash. Every request
//! that changes something and carries that cookie must come from the site's own pages
//! ([`refuse_cross_site`]). The endpoints are in [`crate::http::accounts`].

use std::net::IpAddr;
use std::sync::{Arc, LazyLock};
use std::time::Instant;

use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};
use unicode_normalization::UnicodeNormalization;
use unicode_security::{GeneralSecurityProfile, MixedScript};

use crate::app::{App, Settings};
use crate::http::error::ApiError;
use crate::limits::AddressRates;
use crate::store::SessionRow;

/// The cookie that holds the session id.
pub const COOKIE: &str = "bashni_session";

/// How long a session lasts from its log-in, in seconds (30 days).
pub const SESSION_SECONDS: i64 = 30 * 24 * 60 * 60;

/// The shortest account name, in characters.
pub const MIN_NAME_CHARS: usize = 3;
/// The longest account name.
pub const MAX_NAME_CHARS: usize = 20;
/// The shortest password, in characters.
pub const MIN_PASSWORD_CHARS: usize = 8;
/// The longest password.
pub const MAX_PASSWORD_CHARS: usize = 200;

/// A logged-in player: the account a request's session belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    /// The account's id (the store's; never shown).
    pub id: i64,
    /// Its name.
    pub name: String,
    /// When it was made (ms since 1970).
    pub created_ms: i64,
}

/// The name a person chose, checked: NFKC-normalised, 3 to 20 letters, digits, `_` and `-`,
/// letters of one script only (digits, `_` and `-` go with any). Returns the name and its
/// key (see [`name_key`]), or what is wrong with it.
pub fn account_name(typed: &str) -> Result<(String, String), String> {
    let name: String = typed.trim().nfkc().collect();
    let count = name.chars().count();
    if !(MIN_NAME_CHARS..=MAX_NAME_CHARS).contains(&count) {
        return Err(format!(
            "name: {MIN_NAME_CHARS} to {MAX_NAME_CHARS} characters"
        ));
    }
    let allowed = |c: char| c == '_' || c == '-' || (c.is_alphanumeric() && c.identifier_allowed());
    if let Some(c) = name.chars().find(|&c| !allowed(c)) {
        return Err(format!(
            "name: {c:?} is not allowed; use letters, digits, _ and -"
        ));
    }
    if !name.chars().any(char::is_alphabetic) {
        return Err("name: needs at least one letter".into());
    }
    if !name.as_str().is_single_script() {
        return Err(
            "name: mixes letters of different alphabets (such as Latin and Cyrillic)".into(),
        );
    }
    let key = name_key(&name);
    Ok((name, key))
}

/// The key of a name: two names with the same key look alike, so only one account may have
/// it. The name is NFKC-normalised, case-folded and reduced to its skeleton (Unicode's
/// table of characters that look the same, UTS #39: Cyrillic `а` is Latin `a`, `0` is `O`,
/// `m` is `rn`), twice, since folding a skeleton may give a character that has one; then `i`
/// is taken for `l` (a capital `I` looks like `l`, and only one of them is folded to `i`),
/// and `_` and `-` are left out.
pub fn name_key(name: &str) -> String {
    let mut key: String = name.nfkc().collect();
    for _ in 0..2 {
        key = unicode_security::skeleton(&caseless::default_case_fold_str(&key)).collect();
    }
    caseless::default_case_fold_str(&key)
        .chars()
        .filter(|c| !matches!(c, '_' | '-'))
        .map(|c| if c == 'i' { 'l' } else { c })
        .collect()
}

/// Checks a new password: 8 to 200 characters.
pub fn check_password(password: &str) -> Result<(), ApiError> {
    let count = password.chars().count();
    if (MIN_PASSWORD_CHARS..=MAX_PASSWORD_CHARS).contains(&count) {
        Ok(())
    } else {
        Err(ApiError::bad_request(format!(
            "password: {MIN_PASSWORD_CHARS} to {MAX_PASSWORD_CHARS} characters"
        )))
    }
}

fn hashing_failed() -> ApiError {
    ApiError::internal("the password could not be hashed; nothing was changed")
}

/// The password's Argon2id hash (a PHC string with its random salt and parameters), made on
/// a blocking thread.
pub async fn hash_password(password: String) -> Result<String, ApiError> {
    tokio::task::spawn_blocking(move || {
        let hash: PasswordHash = Argon2::default().hash_password(password.as_bytes())?;
        Ok::<_, argon2::password_hash::Error>(hash.to_string())
    })
    .await
    .map_err(|_| hashing_failed())?
    .map_err(|error| {
        tracing::error!("argon2: {error}");
        hashing_failed()
    })
}

/// A hash of no account's password, checked when the name given has no account: a wrong
/// name then takes as long as a wrong password.
static NOBODYS_HASH: LazyLock<String> = LazyLock::new(|| {
    let mut random = [0u8; 24];
    let _ = getrandom::fill(&mut random);
    Argon2::default()
        .hash_password(&random)
        .map(|hash: PasswordHash| hash.to_string())
        .unwrap_or_default()
});

/// Whether `password` is the one `stored` is the hash of, checked on a blocking thread;
/// `false` without a stored hash (no account, or a deleted one), after as much work.
pub async fn verify_password(password: String, stored: Option<String>) -> bool {
    tokio::task::spawn_blocking(move || {
        let known = stored.filter(|hash| !hash.is_empty());
        let text = known.as_deref().unwrap_or(NOBODYS_HASH.as_str());
        let Ok(hash) = PasswordHash::new(text) else {
            return false;
        };
        Argon2::default()
            .verify_password(password.as_bytes(), &hash)
            .is_ok()
            && known.is_some()
    })
    .await
    .unwrap_or(false)
}

/// The hash under which a session id is stored (hex SHA-256: the id is 256 random bits, so
/// a fast hash is enough; the store alone never lets anyone log in).
pub fn session_hash(id: &str) -> String {
    Sha256::digest(id.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A new session started at `now` from `client`: its id (for the cookie only) and its row.
pub fn new_session(client: IpAddr, now: i64) -> Result<(String, SessionRow), ApiError> {
    let id = crate::game::secret::random_hex(32)
        .map_err(|missing| ApiError::from(crate::app::ActionError::from(missing)))?;
    let row = SessionRow {
        hash: session_hash(&id),
        created_ms: now,
        expires_ms: now + SESSION_SECONDS * 1000,
        address: client.to_string(),
    };
    Ok((id, row))
}

/// The values of the cookie named [`COOKIE`] the request carries.
fn cookie_values(headers: &HeaderMap) -> impl Iterator<Item = &str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|line| line.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .filter(|(name, _)| *name == COOKIE)
        .map(|(_, value)| value.trim())
}

/// Whether the request carries the session cookie, whatever its value.
pub fn carries_session_cookie(headers: &HeaderMap) -> bool {
    cookie_values(headers).next().is_some()
}

/// The session id of the request's cookie, if it has the form of one (64 hex digits).
pub fn session_id(headers: &HeaderMap) -> Option<&str> {
    cookie_values(headers)
        .find(|value| value.len() == 64 && value.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn cookie_header(settings: &Settings, value: &str, max_age: i64) -> HeaderValue {
    let secure = if settings.secure_cookies {
        "; Secure"
    } else {
        ""
    };
    let text =
        format!("{COOKIE}={value}; HttpOnly; SameSite=Lax; Path=/; Max-Age={max_age}{secure}");
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// The `Set-Cookie` value that gives the browser session `id`.
pub fn set_cookie(settings: &Settings, id: &str) -> HeaderValue {
    cookie_header(settings, id, SESSION_SECONDS)
}

/// The `Set-Cookie` value that makes the browser forget its session.
pub fn clear_cookie(settings: &Settings) -> HeaderValue {
    cookie_header(settings, "", 0)
}

/// The scheme and host (with port) of an address: `https://example.org:8443/x` gives
/// `("https", "example.org:8443")`.
fn origin_parts(url: &str) -> Option<(&str, &str)> {
    let (scheme, rest) = url.split_once("://")?;
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    (!scheme.is_empty() && !host.is_empty()).then_some((scheme, host))
}

/// Reads `--site-origin`: a scheme and host (`https://example.org`, maybe with a port),
/// nothing after it but a `/`.
pub fn site_origin(text: &str) -> Result<String, String> {
    let trimmed = text.trim().trim_end_matches('/').to_ascii_lowercase();
    match origin_parts(&trimmed) {
        Some((scheme @ ("http" | "https"), host))
            if trimmed.len() == scheme.len() + 3 + host.len() =>
        {
            Ok(format!("{scheme}://{host}"))
        }
        _ => Err(format!(
            "{text:?} is not a site's origin such as https://example.org"
        )),
    }
}

fn cross_site() -> ApiError {
    ApiError::coded(
        StatusCode::FORBIDDEN,
        "cross_site",
        "this request did not come from this site's pages (its Origin or Referer names \
         another site, or is missing); nothing was changed",
    )
}

/// Refuses a request that does not come from the site's own pages: its `Origin` (or, without
/// one, its `Referer`) must be the site, which is `--site-origin` when given, else the host
/// the request was sent to (its `Host`).
pub fn require_same_site(settings: &Settings, headers: &HeaderMap) -> Result<(), ApiError> {
    let text = |name| {
        headers
            .get(name)
            .and_then(|v: &HeaderValue| v.to_str().ok())
    };
    // An `Origin` of "null" (a sandboxed frame, a redirect across sites) names no site.
    let claimed = match text(header::ORIGIN) {
        Some(origin) => origin_parts(origin),
        None => text(header::REFERER).and_then(origin_parts),
    };
    let Some((scheme, host)) = claimed else {
        return Err(cross_site());
    };
    let same = match &settings.site_origin {
        Some(site) => format!("{scheme}://{host}").eq_ignore_ascii_case(site),
        None => {
            matches!(scheme, "http" | "https")
                && text(header::HOST).is_some_and(|own| own.eq_ignore_ascii_case(host))
        }
    };
    if same { Ok(()) } else { Err(cross_site()) }
}

/// Every request passes here: one that may change something (not GET, HEAD or OPTIONS, or a
/// WebSocket's opening, whose messages act for the player) and carries the session cookie
/// must come from the site's own pages (see [`require_same_site`]), or it is refused with
/// `403 cross_site` before any handler sees it. Requests without the cookie (a seat's token
/// is a header no other site can send) pass.
pub async fn refuse_cross_site(
    State(app): State<Arc<App>>,
    request: Request,
    next: Next,
) -> Response {
    let opens_socket = request
        .headers()
        .get(header::UPGRADE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("websocket"));
    let reads = !opens_socket
        && matches!(
            *request.method(),
            Method::GET | Method::HEAD | Method::OPTIONS
        );
    if !reads
        && carries_session_cookie(request.headers())
        && let Err(refusal) = require_same_site(&app.settings, request.headers())
    {
        tracing::warn!(path = %request.uri().path(), "a request with the session cookie came from another site");
        return refusal.into_response();
    }
    next.run(request).await
}

/// The limits on log-in attempts (per account name and per address) and on new accounts
/// (per address).
pub struct Accounts {
    by_address: AddressRates,
    by_name: AddressRates<String>,
    signups: AddressRates,
    per_minute: u32,
    /// Sessions that ended on this server, for the sockets opened with them.
    ended: tokio::sync::broadcast::Sender<SessionEnded>,
}

/// Sessions that ended: one (logged out) or every session of an account (logged out
/// everywhere, or the account deleted). The sockets opened with them close.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionEnded {
    /// The account.
    pub account: i64,
    /// The session's hash, or `None` for all of the account's sessions.
    pub session: Option<String>,
}

impl SessionEnded {
    /// Whether a socket opened by `account` with the session `session` (its hash) ends.
    pub fn ends(&self, account: i64, session: Option<&str>) -> bool {
        self.account == account
            && self
                .session
                .as_deref()
                .is_none_or(|ended| Some(ended) == session)
    }
}

impl Accounts {
    /// `per_minute` attempts a minute for one name, and from one address.
    pub fn new(per_minute: u32) -> Accounts {
        let per_minute = per_minute.max(1);
        let rate = f64::from(per_minute) / 60.0;
        Accounts {
            by_address: AddressRates::new(per_minute, rate),
            by_name: AddressRates::new(per_minute, rate),
            signups: AddressRates::new(per_minute, rate),
            per_minute,
            ended: tokio::sync::broadcast::channel(64).0,
        }
    }

    /// Tells the sockets on this server that sessions ended.
    pub fn end_sessions(&self, ended: SessionEnded) {
        let _ = self.ended.send(ended);
    }

    /// Hears of the sessions that end on this server.
    pub fn watch_sessions(&self) -> tokio::sync::broadcast::Receiver<SessionEnded> {
        self.ended.subscribe()
    }

    fn refused(&self, whose: &str) -> ApiError {
        ApiError::too_many(format!(
            "too many log-in attempts {whose} (at most {} a minute); wait a minute and try again",
            self.per_minute
        ))
    }

    /// Counts a log-in attempt (or a password check) for the name with key `key` from
    /// `client`; refused when either has made too many.
    pub fn allow_login(&self, client: IpAddr, key: &str) -> Result<(), ApiError> {
        let now = Instant::now();
        if !self.by_address.allow(client, 1, now) {
            tracing::warn!(%client, "limit: too many log-in attempts from one address");
            return Err(self.refused("from your address"));
        }
        let key: String = key.chars().take(64).collect();
        if !self.by_name.allow(key, 1, now) {
            tracing::warn!("limit: too many log-in attempts for one name");
            return Err(self.refused("for this name"));
        }
        Ok(())
    }

    /// Counts a new account from `client` (each costs a password hash): as many a minute
    /// as log-in attempts.
    pub fn allow_signup(&self, client: IpAddr) -> Result<(), ApiError> {
        if self.signups.allow(client, 1, Instant::now()) {
            Ok(())
        } else {
            tracing::warn!(%client, "limit: too many new accounts from one address");
            Err(ApiError::too_many(format!(
                "too many new accounts from your address (at most {} a minute); wait a minute \
                 and try again",
                self.per_minute
            )))
        }
    }
}

/// Who makes a request: the logged-in player, or `None` for a guest (no cookie, or one of a
/// session that has ended). Any handler may take it as an argument; the session is looked up
/// once per request.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Viewer(pub Option<Account>);

impl FromRequestParts<Arc<App>> for Viewer {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Viewer, ApiError> {
        if let Some(viewer) = parts.extensions.get::<Viewer>() {
            return Ok(viewer.clone());
        }
        let viewer = match session_id(&parts.headers) {
            None => Viewer(None),
            Some(id) => {
                let seen = app
                    .database
                    .session(&session_hash(id), crate::game::round::now_ms())
                    .await?;
                Viewer(seen.map(|seen| Account {
                    id: seen.player_id,
                    name: seen.name,
                    created_ms: seen.created_ms,
                }))
            }
        };
        parts.extensions.insert(viewer.clone());
        Ok(viewer)
    }
}

/// The logged-in player making a request; a handler that takes it refuses guests with
/// `401 not_logged_in`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoggedIn(pub Account);

/// The refusal of a request that needs a logged-in player.
pub fn not_logged_in() -> ApiError {
    ApiError::coded(
        StatusCode::UNAUTHORIZED,
        "not_logged_in",
        "you are not logged in (or your session has ended)",
    )
}

impl FromRequestParts<Arc<App>> for LoggedIn {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<LoggedIn, ApiError> {
        let Viewer(account) = Viewer::from_request_parts(parts, app).await?;
        account.map(LoggedIn).ok_or_else(not_logged_in)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(name: &str) -> String {
        name_key(name)
    }

    #[test]
    fn names_that_look_alike_have_one_key() {
        assert_eq!(key("admin"), key("Admin"));
        assert_eq!(key("admin"), key("ADMIN"));
        // Cyrillic а in front (refused anyway as mixed), and a whole Cyrillic look-alike.
        assert_eq!(key("admin"), key("\u{430}dmin"));
        assert_eq!(key("paca"), key("\u{440}\u{430}\u{441}\u{430}"));
        assert_eq!(key("lucy"), key("Iucy"));
        assert_eq!(key("lucy"), key("1ucy"));
        assert_eq!(key("olga"), key("0lga"));
        assert_eq!(key("mary"), key("rnary"));
        assert_eq!(key("anna_b"), key("anna-b"));
        // Full-width letters are the same letters.
        assert_eq!(key("anna"), key("\u{ff41}nna"));
        assert_ne!(key("anna"), key("hanna"));
        assert_ne!(key("boris"), key("borls2"));
    }

    #[test]
    fn names_are_checked() {
        assert!(account_name("Anna").is_ok());
        assert!(account_name("Иван_2").is_ok());
        assert_eq!(
            account_name(" \u{ff21}nna ").map(|(name, _)| name),
            Ok("Anna".into())
        );
        for bad in [
            "ab",
            "a".repeat(21).as_str(),
            "anna b",
            "an<na",
            "___",
            "123",
            "\u{430}dmin",
        ] {
            assert!(account_name(bad).is_err(), "{bad:?} was taken");
        }
        assert!(
            account_name("\u{430}dmin").is_err_and(|e| e.contains("alphabets")),
            "a mixed name is refused for mixing"
        );
    }

    #[test]
    fn passwords_are_hashed_and_checked() -> Result<(), Box<dyn std::error::Error>> {
        let runtime = tokio::runtime::Builder::new_current_thread().build()?;
        runtime.block_on(async {
            let hash = hash_password("correct horse".into()).await?;
            assert!(hash.starts_with("$argon2id$"), "{hash}");
            assert!(verify_password("correct horse".into(), Some(hash.clone())).await);
            assert!(!verify_password("correct horsE".into(), Some(hash)).await);
            assert!(!verify_password("correct horse".into(), None).await);
            assert!(!verify_password("".into(), Some(String::new())).await);
            Ok::<_, ApiError>(())
        })?;
        assert!(check_password("1234567").is_err());
        assert!(check_password("12345678").is_ok());
        assert!(check_password(&"x".repeat(201)).is_err());
        Ok(())
    }

    #[test]
    fn the_site_is_told_from_other_sites() {
        let settings = Settings::default();
        let headers = |pairs: &[(header::HeaderName, &str)]| {
            let mut map = HeaderMap::new();
            for (name, value) in pairs {
                map.insert(
                    name.clone(),
                    HeaderValue::from_str(value).unwrap_or(HeaderValue::from_static("")),
                );
            }
            map
        };
        let host = (header::HOST, "bashni.test:8080");
        let ok = |pairs: &[(header::HeaderName, &str)]| {
            require_same_site(&settings, &headers(pairs)).is_ok()
        };
        assert!(ok(&[
            host.clone(),
            (header::ORIGIN, "http://bashni.test:8080")
        ]));
        assert!(ok(&[
            host.clone(),
            (header::REFERER, "http://bashni.test:8080/login")
        ]));
        assert!(!ok(&[host.clone(), (header::ORIGIN, "http://evil.test")]));
        assert!(!ok(&[
            host.clone(),
            (header::ORIGIN, "null"),
            (header::REFERER, "http://bashni.test:8080/")
        ]));
        assert!(!ok(std::slice::from_ref(&host)));
        assert!(!ok(&[host.clone(), (header::ORIGIN, "http://bashni.test")]));
        let behind = Settings {
            site_origin: Some("https://bashni.example".into()),
            ..Settings::default()
        };
        let proxied = headers(&[
            (header::HOST, "10.0.0.5:8080"),
            (header::ORIGIN, "https://bashni.example"),
        ]);
        assert!(require_same_site(&behind, &proxied).is_ok());
        assert_eq!(
            site_origin("HTTPS://Bashni.Example/"),
            Ok("https://bashni.example".into())
        );
        assert!(site_origin("https://bashni.example/path").is_err());
        assert!(site_origin("bashni.example").is_err());
    }

    #[test]
    fn the_cookie_is_read_and_written() {
        let mut headers = HeaderMap::new();
        let id = "ab".repeat(32);
        headers.insert(
            header::COOKIE,
            HeaderValue::from_str(&format!("other=1; {COOKIE}={id}"))
                .unwrap_or(HeaderValue::from_static("")),
        );
        assert_eq!(session_id(&headers), Some(id.as_str()));
        headers.insert(
            header::COOKIE,
            HeaderValue::from_static("bashni_session=short"),
        );
        assert_eq!(session_id(&headers), None);
        assert!(carries_session_cookie(&headers));
        let secure = Settings {
            secure_cookies: true,
            ..Settings::default()
        };
        let set = set_cookie(&secure, &id);
        let text = set.to_str().unwrap_or_default();
        for part in [
            "HttpOnly",
            "SameSite=Lax",
            "Path=/",
            "Max-Age=2592000",
            "Secure",
        ] {
            assert!(text.contains(part), "{text}");
        }
        assert!(
            !set_cookie(&Settings::default(), &id)
                .to_str()
                .unwrap_or_default()
                .contains("Secure")
        );
        assert!(
            clear_cookie(&Settings::default())
                .to_str()
                .unwrap_or_default()
                .contains("Max-Age=0")
        );
    }
}
