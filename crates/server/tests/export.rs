//! Pictures to save: a position as SVG or PNG, a game's position as PNG, a whole game as an
//! animated GIF.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use bashni_server::{App, Settings, Store, router};
use http_body_util::BodyExt;
use tower::ServiceExt;

type TestResult = Result<(), Box<dyn std::error::Error>>;

const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

fn app() -> Result<Arc<App>, Box<dyn std::error::Error>> {
    Ok(App::new(
        Store::in_memory()?,
        Settings {
            engines: 1,
            hash_mb: 4,
            connections_per_address: 8,
            ..Settings::default()
        },
    ))
}

/// What a request was answered with.
struct Answer {
    status: StatusCode,
    kind: String,
    disposition: Option<String>,
    body: Vec<u8>,
}

impl Answer {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The message of a JSON refusal.
    fn error(&self) -> String {
        serde_json::from_slice::<serde_json::Value>(&self.body)
            .ok()
            .and_then(|v| v["error"].as_str().map(String::from))
            .unwrap_or_default()
    }
}

async fn call(
    app: &Arc<App>,
    method: &str,
    uri: &str,
    body: &str,
) -> Result<Answer, Box<dyn std::error::Error>> {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "text/plain")
        .body(Body::from(body.to_string()))?;
    let response = router(Arc::clone(app)).oneshot(request).await?;
    let status = response.status();
    let header_text = |name| {
        response
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(String::from)
    };
    let kind = header_text(header::CONTENT_TYPE).unwrap_or_default();
    let disposition = header_text(header::CONTENT_DISPOSITION);
    let body = response.into_body().collect().await?.to_bytes().to_vec();
    Ok(Answer {
        status,
        kind,
        disposition,
        body,
    })
}

/// A PNG's width and height, from its header.
fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if !bytes.starts_with(PNG_SIGNATURE) || bytes.get(12..16) != Some(b"IHDR") {
        return None;
    }
    let number = |at: usize| -> Option<u32> {
        Some(u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
    };
    Some((number(16)?, number(20)?))
}

/// Stores a game read from PDN; returns its id.
async fn upload(app: &Arc<App>, pdn: &str) -> Result<String, Box<dyn std::error::Error>> {
    let answer = call(app, "POST", "/api/pdn", pdn).await?;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    let value: serde_json::Value = serde_json::from_slice(&answer.body)?;
    Ok(value["games"][0]["id"].as_str().ok_or("an id")?.to_string())
}

#[tokio::test]
async fn a_position_is_drawn_as_svg_and_png_with_its_last_move() -> TestResult {
    let app = app()?;
    let after = "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,d6,h6,g5";
    let svg = call(
        &app,
        "GET",
        &format!("/api/diagram.svg?variant=russian&position={after}&last=f6-g5&size=300"),
        "",
    )
    .await?;
    assert_eq!(svg.status, StatusCode::OK, "{}", svg.text());
    assert_eq!(svg.kind, "image/svg+xml");
    assert_eq!(svg.disposition, None);
    let text = svg.text();
    assert!(text.starts_with("<svg"), "{text}");
    assert!(text.contains("width=\"300\""));
    assert!(text.contains("data-move=\"f6-g5\""));
    assert_eq!(text.matches("class=\"tower\"").count(), 24);

    let png = call(
        &app,
        "GET",
        "/api/diagram.png?variant=bashni&position=start&size=256&download=1",
        "",
    )
    .await?;
    assert_eq!(png.status, StatusCode::OK, "{}", png.text());
    assert_eq!(png.kind, "image/png");
    assert_eq!(png_size(&png.body), Some((256, 256)));
    assert_eq!(
        png.disposition.as_deref(),
        Some("attachment; filename=\"bashni-position.png\"")
    );
    // The same picture with an arrow differs.
    let arrowed = call(
        &app,
        "GET",
        "/api/diagram.png?variant=bashni&position=start&size=256&last=b2-c3",
        "",
    )
    .await?;
    assert_eq!(arrowed.status, StatusCode::OK, "{}", arrowed.text());
    assert_eq!(png_size(&arrowed.body), Some((256, 256)));
    assert_ne!(arrowed.body, png.body);
    // The arrow may name its squares by number: b2 is 25, c3 is 22.
    let numbered = call(
        &app,
        "GET",
        "/api/diagram.png?variant=bashni&position=start&size=256&last=25-22",
        "",
    )
    .await?;
    assert_eq!(numbered.status, StatusCode::OK, "{}", numbered.text());
    assert_eq!(numbered.body, arrowed.body);
    Ok(())
}

#[tokio::test]
async fn a_bad_position_picture_request_says_what_is_wrong() -> TestResult {
    let app = app()?;
    let cases = [
        ("/api/diagram.png?position=start", "variant: missing"),
        (
            "/api/diagram.png?variant=chess",
            "variant: expected bashni or russian",
        ),
        (
            "/api/diagram.png?variant=bashni&position=W:Wz9",
            "position: ",
        ),
        (
            "/api/diagram.png?variant=bashni&size=5000",
            "size: from 32 to 1024 pixels, not 5000",
        ),
        (
            "/api/diagram.svg?variant=bashni&size=8",
            "size: from 32 to 1024",
        ),
        ("/api/diagram.png?variant=bashni&size=big", "size"),
        (
            "/api/diagram.svg?variant=bashni&last=c3",
            "last: give the move's start",
        ),
        (
            "/api/diagram.svg?variant=bashni&last=c3-z9",
            "last: `z9` is not a dark square",
        ),
        (
            "/api/diagram.svg?variant=bashni&last=22-33",
            "last: `33` is not a square number (1-32)",
        ),
        (
            "/api/diagram.svg?variant=bashni&last=c3-d4",
            "last: the move ends on d4, but no tower stands there",
        ),
        (
            "/api/diagram.svg?variant=bashni&flip=maybe",
            "flip: expected 1 or 0",
        ),
    ];
    for (uri, expected) in cases {
        let answer = call(&app, "GET", uri, "").await?;
        assert_eq!(
            answer.status,
            StatusCode::BAD_REQUEST,
            "{uri}: {}",
            answer.text()
        );
        let error = answer.error();
        assert!(
            error.contains(expected),
            "{uri}: {error:?} says nothing of {expected:?}"
        );
    }
    Ok(())
}

#[tokio::test]
async fn a_game_is_saved_as_a_png_of_any_ply_and_as_an_animated_gif() -> TestResult {
    let app = app()?;
    let id = upload(
        &app,
        "[GameType \"25\"]\n\n1. c3-d4 f6-g5 2. d4-e5 d6:f4 3. g3:e5 *\n",
    )
    .await?;

    let png = call(
        &app,
        "GET",
        &format!("/api/games/{id}/diagram.png?ply=2&size=200&download=1"),
        "",
    )
    .await?;
    assert_eq!(png.status, StatusCode::OK, "{}", png.text());
    assert_eq!(png_size(&png.body), Some((200, 200)));
    assert_eq!(
        png.disposition.as_deref(),
        Some(format!("attachment; filename=\"bashni-{id}-ply2.png\"").as_str())
    );
    let current = call(
        &app,
        "GET",
        &format!("/api/games/{id}/diagram.png?size=200"),
        "",
    )
    .await?;
    assert_eq!(png_size(&current.body), Some((200, 200)));
    assert_ne!(current.body, png.body, "ply 2 is not the end");

    let gif = call(
        &app,
        "GET",
        &format!("/api/games/{id}/game.gif?size=120&delay_ms=200&download=1"),
        "",
    )
    .await?;
    assert_eq!(gif.status, StatusCode::OK, "{}", gif.text());
    assert_eq!(gif.kind, "image/gif");
    assert!(gif.body.starts_with(b"GIF89a"));
    assert_eq!(
        gif.disposition.as_deref(),
        Some(format!("attachment; filename=\"bashni-{id}.gif\"").as_str())
    );
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(gif.body.as_slice())?;
    assert_eq!(decoder.width(), 120);
    let mut delays = Vec::new();
    while let Some(frame) = decoder.read_next_frame()? {
        delays.push(frame.delay);
    }
    // The start and one frame per ply; the last one shown longer.
    assert_eq!(delays.len(), 6);
    assert_eq!(delays[0], 20);
    assert_eq!(delays[5], 60);

    for (query, expected) in [
        ("size=481", "size: from 32 to 480 pixels, not 481"),
        ("size=0", "size: from 32 to 480"),
        ("delay_ms=10", "delay_ms: from 50 to 10000, not 10"),
        ("download=please", "download: expected 1 or 0"),
    ] {
        let answer = call(
            &app,
            "GET",
            &format!("/api/games/{id}/game.gif?{query}"),
            "",
        )
        .await?;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{query}");
        let error = answer.error();
        assert!(error.contains(expected), "{query}: {error:?}");
    }
    let answer = call(
        &app,
        "GET",
        &format!("/api/games/{id}/diagram.png?size=2000"),
        "",
    )
    .await?;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    let answer = call(&app, "GET", "/api/games/nosuchgame/game.gif", "").await?;
    assert_eq!(answer.status, StatusCode::NOT_FOUND);
    Ok(())
}
