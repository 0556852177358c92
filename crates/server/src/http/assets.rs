//! The page and its files, built into the binary so that running it needs nothing else.
//!
//! Each file is also served under a name with a hash of its content (`board.3fa94c01d2.js`),
//! cached by browsers for good; the page (the shell) names those files, through an import
//! map for the script modules, and is checked again on each visit with its ETag.

use std::sync::{Arc, LazyLock};

use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use sha2::{Digest, Sha256};

use crate::app::App;

const INDEX: &str = include_str!("../../web/index.html");

/// The page's files: name and text.
const FILES: &[(&str, &str)] = &[
    ("style.css", include_str!("../../web/style.css")),
    ("main.js", include_str!("../../web/main.js")),
    ("dom.js", include_str!("../../web/dom.js")),
    ("api.js", include_str!("../../web/api.js")),
    ("text.js", include_str!("../../web/text.js")),
    ("state.js", include_str!("../../web/state.js")),
    ("derive.js", include_str!("../../web/derive.js")),
    ("selection.js", include_str!("../../web/selection.js")),
    ("towers.js", include_str!("../../web/towers.js")),
    ("board.js", include_str!("../../web/board.js")),
    ("socket.js", include_str!("../../web/socket.js")),
    ("sound.js", include_str!("../../web/sound.js")),
    ("settings.js", include_str!("../../web/settings.js")),
    ("analysis.js", include_str!("../../web/analysis.js")),
    ("home.js", include_str!("../../web/home.js")),
    ("join.js", include_str!("../../web/join.js")),
    ("game.js", include_str!("../../web/game.js")),
    ("study.js", include_str!("../../web/study.js")),
    ("tree.js", include_str!("../../web/tree.js")),
    (
        "analysis-board.js",
        include_str!("../../web/analysis-board.js"),
    ),
    ("your-turn.js", include_str!("../../web/your-turn.js")),
    ("chat.js", include_str!("../../web/chat.js")),
    ("account.js", include_str!("../../web/account.js")),
    ("login.js", include_str!("../../web/login.js")),
    ("player.js", include_str!("../../web/player.js")),
    ("lobby.js", include_str!("../../web/lobby.js")),
    ("seeks.js", include_str!("../../web/seeks.js")),
    ("tournaments.js", include_str!("../../web/tournaments.js")),
    ("account-seat.js", include_str!("../../web/account-seat.js")),
    ("ratings.js", include_str!("../../web/ratings.js")),
    ("rating-chart.js", include_str!("../../web/rating-chart.js")),
    ("i18n.js", include_str!("../../web/i18n.js")),
    ("rules.js", include_str!("../../web/rules.js")),
    ("puzzles.js", include_str!("../../web/puzzles.js")),
    (
        "fluent-bundle.js",
        include_str!("../../web/fluent-bundle.js"),
    ),
];

/// The module that carries a catalogue ([`crate::texts::CATALOGUES`]) to the page:
/// `export default "...";`, without the catalogue's comments (lines that start with `#`;
/// a message's own lines never do), which are for translators, not for the page.
fn catalogue_module(text: &str) -> String {
    let messages: String = text
        .lines()
        .filter(|line| !line.starts_with('#'))
        .flat_map(|line| [line, "\n"])
        .collect();
    format!("export default {};\n", serde_json::Value::String(messages))
}

/// The modules every view imports.
const CORE: &[&str] = &[
    "main.js",
    "dom.js",
    "api.js",
    "text.js",
    "settings.js",
    "sound.js",
    "account.js",
    "i18n.js",
    "fluent-bundle.js",
];

const IMMUTABLE: &str = "public, max-age=31536000, immutable";

fn content_type(name: &str) -> &'static str {
    if name.ends_with(".css") {
        "text/css; charset=utf-8"
    } else {
        "text/javascript; charset=utf-8"
    }
}

fn sha256(text: &str) -> [u8; 32] {
    Sha256::digest(text.as_bytes()).into()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `board.js` with `hash` in its name: `board.<hash>.js`.
fn hashed_name(name: &str, hash: &str) -> String {
    match name.rsplit_once('.') {
        Some((stem, ext)) => format!("{stem}.{hash}.{ext}"),
        None => format!("{name}.{hash}"),
    }
}

/// The built-in files with their hashed names, and the shell that names them.
struct Built {
    /// (plain name, hashed name, text)
    files: Vec<(String, String, String)>,
    shell: String,
    etag: String,
    csp: String,
}

fn csp(script_hash: Option<&str>) -> String {
    let scripts = script_hash.map_or_else(|| "'self'".to_string(), |h| format!("'self' '{h}'"));
    format!(
        "default-src 'self'; script-src {scripts}; img-src 'self' data: blob:; \
         media-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'"
    )
}

fn build() -> Built {
    let catalogues = crate::texts::CATALOGUES
        .iter()
        .map(|(lang, text)| (format!("texts-{lang}.js"), catalogue_module(text)));
    let files: Vec<_> = FILES
        .iter()
        .map(|&(name, text)| (name.to_string(), text.to_string()))
        .chain(catalogues)
        .map(|(name, text)| {
            let hashed = hashed_name(&name, &hex(&sha256(&text))[..10]);
            (name, hashed, text)
        })
        .collect();
    let url = |name: &str| format!("/assets/{name}");
    let imports: serde_json::Map<String, serde_json::Value> = files
        .iter()
        .filter(|(name, _, _)| name.ends_with(".js"))
        .map(|(name, hashed, _)| (url(name), url(hashed).into()))
        .collect();
    let map = serde_json::json!({ "imports": imports }).to_string();
    // Fetched at once: the modules every view needs; each view's own follow when it loads.
    let preload: String = files
        .iter()
        .filter(|(name, _, _)| CORE.contains(&name.as_str()))
        .map(|(_, hashed, _)| format!("<link rel=\"modulepreload\" href=\"{}\">\n", url(hashed)))
        .collect();
    let mut shell = INDEX.to_string();
    for (name, hashed, _) in &files {
        if name.ends_with(".css") {
            shell = shell.replace(&url(name), &url(hashed));
        }
    }
    let main = files
        .iter()
        .find(|(name, _, _)| *name == "main.js")
        .map(|(_, hashed, _)| url(hashed))
        .unwrap_or_else(|| url("main.js"));
    shell = shell.replace(
        "<script type=\"module\" src=\"/assets/main.js\"></script>",
        &format!("<script type=\"importmap\">{map}</script>\n{preload}<script type=\"module\" src=\"{main}\"></script>"),
    );
    let script_hash = format!(
        "sha256-{}",
        base64::engine::general_purpose::STANDARD.encode(sha256(&map))
    );
    let etag = format!("\"{}\"", &hex(&sha256(&shell))[..20]);
    Built {
        files,
        shell,
        etag,
        csp: csp(Some(&script_hash)),
    }
}

static BUILT: LazyLock<Built> = LazyLock::new(build);

/// A file from the page's folder on disk (development); a catalogue's module is made from
/// `../locales/<lang>.ftl` beside that folder.
fn from_dir(app: &App, name: &str) -> Option<String> {
    let dir = app.settings.web_dir.as_ref()?;
    if let Some(lang) = name
        .strip_prefix("texts-")
        .and_then(|rest| rest.strip_suffix(".js"))
    {
        let path = dir.join("..").join("locales").join(format!("{lang}.ftl"));
        return std::fs::read_to_string(path)
            .ok()
            .map(|text| catalogue_module(&text));
    }
    std::fs::read_to_string(dir.join(name)).ok()
}

fn matches(headers: &HeaderMap, etag: &str) -> bool {
    headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag || t.trim() == "*"))
}

/// The page, for every address the browser shows.
pub async fn page(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    shell(&app, &headers)
}

/// The shell: the page's frame that loads the view its address asks for.
fn shell(app: &App, headers: &HeaderMap) -> Response {
    let (shell, etag, policy) = match from_dir(app, "index.html") {
        // Development: the files as they are on disk, no hashed names.
        Some(text) => {
            let etag = format!("\"{}\"", &hex(&sha256(&text))[..20]);
            (text, etag, csp(None))
        }
        None => (BUILT.shell.clone(), BUILT.etag.clone(), BUILT.csp.clone()),
    };
    let common = [
        (header::CACHE_CONTROL, "no-cache".to_string()),
        (header::ETAG, etag.clone()),
        (header::CONTENT_SECURITY_POLICY, policy),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff".to_string()),
        (header::X_FRAME_OPTIONS, "DENY".to_string()),
        (header::REFERRER_POLICY, "same-origin".to_string()),
    ];
    if matches(headers, &etag) {
        return (StatusCode::NOT_MODIFIED, common).into_response();
    }
    let mut response = (common, shell).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    response
}

/// One of the page's files, by its plain name (checked on each use) or its hashed name
/// (kept for good).
pub async fn asset(
    State(app): State<Arc<App>>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Response {
    let found = BUILT
        .files
        .iter()
        .find(|(plain, hashed, _)| *plain == name || *hashed == name);
    let Some((plain, hashed, text)) = found else {
        // Development: a file new in the page's folder is served before it is built in.
        return match from_dir(&app, &name).filter(|_| is_page_file(&name)) {
            Some(text) => file(&name, text, &headers, "no-cache"),
            None => (StatusCode::NOT_FOUND, "no such file").into_response(),
        };
    };
    if *hashed == name {
        file(plain, text.clone(), &headers, IMMUTABLE)
    } else {
        let text = from_dir(&app, plain).unwrap_or_else(|| text.clone());
        file(plain, text, &headers, "no-cache")
    }
}

/// A file of the page named `name`, cached as `cache` says (kept for good under a hashed
/// name, checked again on each use under its plain name).
fn file(name: &str, text: String, headers: &HeaderMap, cache: &'static str) -> Response {
    let etag = format!("\"{}\"", &hex(&sha256(&text))[..20]);
    let common = [
        (header::CACHE_CONTROL, cache.to_string()),
        (header::ETAG, etag.clone()),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff".to_string()),
    ];
    if matches(headers, &etag) {
        return (StatusCode::NOT_MODIFIED, common).into_response();
    }
    let mut response = (common, text).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(content_type(name)),
    );
    response
}

/// A name a file of the page's folder may have: letters, digits and dashes, then `.js` or
/// `.css`.
fn is_page_file(name: &str) -> bool {
    let stem = name
        .strip_suffix(".js")
        .or_else(|| name.strip_suffix(".css"))
        .unwrap_or_default();
    !stem.is_empty()
        && stem
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// A page address that does not exist: the shell, answered 404, whose script says so in the
/// visitor's language with a way back.
pub fn missing_page(app: &App) -> Response {
    let mut response = shell(app, &HeaderMap::new());
    *response.status_mut() = StatusCode::NOT_FOUND;
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_module_the_page_imports_is_served() {
        // Each `from './x.js'` in a module names a file of FILES.
        for (name, text) in FILES {
            let parts = text
                .split("from './")
                .skip(1)
                .chain(text.split("import('./").skip(1));
            for part in parts {
                let imported = part.split('\'').next().unwrap_or_default();
                assert!(
                    FILES.iter().any(|(n, _)| *n == imported),
                    "{name} imports {imported}, which is not served"
                );
            }
        }
    }

    #[test]
    fn the_shell_names_hashed_files_and_its_import_map_is_allowed() {
        let built = build();
        assert!(!built.shell.contains("src=\"/assets/main.js\""));
        for (name, hashed, _) in &built.files {
            assert_ne!(*name, hashed.as_str());
            assert!(
                built.shell.contains(&format!("/assets/{hashed}")),
                "{hashed}"
            );
        }
        let start = built
            .shell
            .find("<script type=\"importmap\">")
            .expect("an import map")
            + 25;
        let end = start + built.shell[start..].find("</script>").expect("its end");
        let map = &built.shell[start..end];
        let hash = base64::engine::general_purpose::STANDARD.encode(sha256(map));
        assert!(built.csp.contains(&format!("'sha256-{hash}'")));
    }

    #[test]
    fn a_catalogues_module_keeps_its_messages_and_drops_its_comments() {
        let module = catalogue_module(
            "## Section\n# $n: a number\nhello = Hello, { $n }\nmulti =\n    two lines\n",
        );
        assert!(module.starts_with("export default \""), "{module}");
        assert!(
            module.contains("hello = Hello, { $n }\\nmulti =\\n    two lines"),
            "{module}"
        );
        assert!(
            !module.contains("Section") && !module.contains("a number"),
            "{module}"
        );
    }

    #[test]
    fn a_hashed_name_changes_with_the_text() {
        let a = hashed_name("board.js", &hex(&sha256("one"))[..10]);
        let b = hashed_name("board.js", &hex(&sha256("two"))[..10]);
        assert_ne!(a, b);
        assert!(a.starts_with("board.") && a.ends_with(".js"));
    }
}
