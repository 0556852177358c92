//! Who makes a request, by its session cookie, and the cookie itself: a handler learns who is
//! logged in with the extractor [`Viewer`] (anyone, maybe logged in) or [`LoggedIn`] (refused
//! with `401 not_logged_in` otherwise). Every request that changes something and carries the
//! cookie must come from the site's own pages ([`refuse_cross_site`]).

use std::sync::Arc;

use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::account::{Account, COOKIE, SESSION_SECONDS, origin_parts, session_hash};
use crate::app::{App, Settings};
use crate::http::error::ApiError;

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
    ApiError::texted(
        StatusCode::UNAUTHORIZED,
        "not_logged_in",
        crate::texts::Text::new("error-not-logged-in", Vec::new()),
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
    use crate::account::site_origin;

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
