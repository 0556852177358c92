//! The page and its files, built into the binary so that running it needs nothing else.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::app::App;

const INDEX: &str = include_str!("../web/index.html");
const APP_JS: &str = include_str!("../web/app.js");
const STYLE: &str = include_str!("../web/style.css");

fn file(app: &App, name: &str, built_in: &'static str) -> String {
    if let Some(dir) = &app.settings.web_dir
        && let Ok(text) = std::fs::read_to_string(dir.join(name))
    {
        return text;
    }
    built_in.to_string()
}

/// The page, for every address the browser shows.
pub async fn page(State(app): State<Arc<App>>) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; \
                 frame-ancestors 'none'",
            ),
            (header::X_FRAME_OPTIONS, "DENY"),
            (header::REFERRER_POLICY, "same-origin"),
        ],
        file(&app, "index.html", INDEX),
    )
        .into_response()
}

/// The page's script and style sheet.
pub async fn asset(State(app): State<Arc<App>>, Path(name): Path<String>) -> Response {
    let (kind, built_in) = match name.as_str() {
        "app.js" => ("text/javascript; charset=utf-8", APP_JS),
        "style.css" => ("text/css; charset=utf-8", STYLE),
        _ => return (StatusCode::NOT_FOUND, "no such file").into_response(),
    };
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        file(&app, &name, built_in),
    )
        .into_response()
}

/// A page address that does not exist: a short page that says so, with a way back.
pub async fn missing_page() -> Response {
    const PAGE: &str = "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
<title>No such page – Bashni</title>\n<link rel=\"stylesheet\" href=\"/assets/style.css\">\n\
</head>\n<body>\n<main id=\"app\"><div class=\"card narrow\"><h1>No such page</h1>\n\
<p><a href=\"/\">Start a new game</a> or open the <a href=\"/study\">study board</a>.</p>\n\
</div></main>\n</body>\n</html>\n";
    (
        StatusCode::NOT_FOUND,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'self'; frame-ancestors 'none'",
            ),
        ],
        PAGE,
    )
        .into_response()
}
