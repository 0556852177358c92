//! `GET /api/games/{id}/diagram.svg`: the thumbnails of the games list.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use bashni_server::{App, Settings, Store, router};
use http_body_util::BodyExt;
use tower::ServiceExt;

type TestResult = Result<(), Box<dyn std::error::Error>>;

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

/// Sends a request; returns the status, the content type and the body.
async fn call(
    app: &Arc<App>,
    method: &str,
    uri: &str,
    body: &str,
) -> Result<(StatusCode, String, String), Box<dyn std::error::Error>> {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "text/plain")
        .body(Body::from(body.to_string()))?;
    let response = router(Arc::clone(app)).oneshot(request).await?;
    let status = response.status();
    let kind = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    let bytes = response.into_body().collect().await?.to_bytes();
    Ok((status, kind, String::from_utf8(bytes.to_vec())?))
}

#[tokio::test]
async fn a_game_is_drawn_at_any_ply() -> TestResult {
    let app = app()?;
    let pdn = "[GameType \"25\"]\n\n1. c3-d4 f6-g5 2. d4-e5 d6:f4 3. g3:e5 *\n";
    let (status, _, answer) = call(&app, "POST", "/api/pdn", pdn).await?;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let answer: serde_json::Value = serde_json::from_str(&answer)?;
    let id = answer["games"][0]["id"]
        .as_str()
        .ok_or("an id")?
        .to_string();

    let (status, kind, svg) =
        call(&app, "GET", &format!("/api/games/{id}/diagram.svg"), "").await?;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(kind, "image/svg+xml");
    assert!(svg.starts_with("<svg"));
    // The end: 11 men each, the last move g3:e5 as an arrow.
    assert_eq!(svg.matches("class=\"tower\"").count(), 22);
    assert!(svg.contains("data-move=\"g3:e5\""));
    assert!(svg.contains("width=\"160\""));
    // Small thumbnails have no coordinates.
    assert!(!svg.contains("class=\"coord\""));

    let uri = format!("/api/games/{id}/diagram.svg?ply=0&size=100000");
    let (status, _, svg) = call(&app, "GET", &uri, "").await?;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(svg.matches("class=\"tower\"").count(), 24);
    assert!(!svg.contains("class=\"arrow\""));
    assert!(svg.contains("width=\"1024\""), "the size is clamped");
    assert!(svg.contains("class=\"coord\""));

    let uri = format!("/api/games/{id}/diagram.svg?ply=2&size=1");
    let (_, _, svg) = call(&app, "GET", &uri, "").await?;
    assert!(svg.contains("data-move=\"f6-g5\""));
    assert!(svg.contains("width=\"32\""));

    let uri = format!("/api/games/{id}/diagram.svg?ply=x");
    let (status, _, _) = call(&app, "GET", &uri, "").await?;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _, _) = call(&app, "GET", "/api/games/nosuchgame/diagram.svg", "").await?;
    assert_eq!(status, StatusCode::NOT_FOUND);
    Ok(())
}

/// Sends a GET with an `If-None-Match` header if given; returns the status and headers.
async fn get_with(
    app: &Arc<App>,
    uri: &str,
    if_none_match: Option<&str>,
) -> Result<(StatusCode, axum::http::HeaderMap, usize), Box<dyn std::error::Error>> {
    let mut request = Request::builder().uri(uri);
    if let Some(tag) = if_none_match {
        request = request.header(header::IF_NONE_MATCH, tag);
    }
    let response = router(Arc::clone(app))
        .oneshot(request.body(Body::empty())?)
        .await?;
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = response.into_body().collect().await?.to_bytes();
    Ok((status, headers, bytes.len()))
}

fn header_of(headers: &axum::http::HeaderMap, name: header::HeaderName) -> String {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string()
}

#[tokio::test]
async fn a_picture_of_the_current_version_is_cached_for_good_and_revalidated() -> TestResult {
    let app = app()?;
    let (_, _, answer) = call(
        &app,
        "POST",
        "/api/games",
        r#"{"variant": "russian", "mode": "local"}"#,
    )
    .await?;
    let answer: serde_json::Value = serde_json::from_str(&answer)?;
    let id = answer["id"].as_str().ok_or("an id")?.to_string();
    let token = answer["token"].as_str().ok_or("a token")?.to_string();
    let version = answer["state"]["version"].as_u64().ok_or("a version")?;

    let current = format!("/api/games/{id}/diagram.svg?size=120&version={version}");
    let (status, headers, length) = get_with(&app, &current, None).await?;
    assert_eq!(status, StatusCode::OK);
    assert!(length > 0);
    assert_eq!(
        header_of(&headers, header::CACHE_CONTROL),
        "public, max-age=31536000, immutable"
    );
    let etag = header_of(&headers, header::ETAG);
    assert!(etag.contains(&id), "{etag}");
    for uri in [
        format!("/api/games/{id}/diagram.svg?size=120"),
        format!(
            "/api/games/{id}/diagram.svg?size=120&version={}",
            version + 5
        ),
    ] {
        let (status, headers, _) = get_with(&app, &uri, None).await?;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            header_of(&headers, header::CACHE_CONTROL),
            "no-cache",
            "{uri}"
        );
        assert_eq!(header_of(&headers, header::ETAG), etag, "the same picture");
    }
    // Another size is another picture.
    let bigger = format!("/api/games/{id}/diagram.svg?size=300&version={version}");
    let (_, headers, _) = get_with(&app, &bigger, None).await?;
    assert_ne!(header_of(&headers, header::ETAG), etag);

    // The browser asks again with its tag: nothing new is sent while nothing changed.
    let (status, headers, length) = get_with(&app, &current, Some(&etag)).await?;
    assert_eq!(status, StatusCode::NOT_MODIFIED);
    assert_eq!(length, 0);
    assert_eq!(header_of(&headers, header::ETAG), etag);
    let listed = format!("\"other\", {etag}");
    let (status, _, _) = get_with(&app, &current, Some(&listed)).await?;
    assert_eq!(status, StatusCode::NOT_MODIFIED);
    let (status, _, _) = get_with(&app, &current, Some("\"other\"")).await?;
    assert_eq!(status, StatusCode::OK);

    // After a move the old tag no longer matches, and the old version is no longer for good.
    let request = Request::builder()
        .method("POST")
        .uri(format!("/api/games/{id}/move"))
        .header("content-type", "application/json")
        .header("x-seat-token", &token)
        .body(Body::from(r#"{"move": "c3-d4", "ply": 0}"#))?;
    let moved = router(Arc::clone(&app)).oneshot(request).await?;
    assert_eq!(moved.status(), StatusCode::OK);
    let (status, headers, length) = get_with(&app, &current, Some(&etag)).await?;
    assert_eq!(status, StatusCode::OK);
    assert!(length > 0);
    assert_ne!(header_of(&headers, header::ETAG), etag);
    assert_eq!(header_of(&headers, header::CACHE_CONTROL), "no-cache");
    Ok(())
}
