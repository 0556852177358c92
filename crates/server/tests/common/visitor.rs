//! One browser on the site for the tests of accounts: requests with the site's Host and
//! Origin, a session cookie that follows `Set-Cookie`.

use std::net::IpAddr;
use std::sync::Arc;

use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode, header};
use bashni_server::{App, router};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

type Error = Box<dyn std::error::Error>;

pub const HOST: &str = "bashni.test";
pub const SITE: &str = "http://bashni.test";

/// Sends a request with exactly these headers (besides the body's type); returns the status,
/// the headers and the body (JSON if it is JSON, else a string).
pub async fn send(
    app: &Arc<App>,
    client: IpAddr,
    method: &str,
    uri: &str,
    headers: &[(header::HeaderName, &str)],
    body: Option<&Value>,
) -> Result<(StatusCode, HeaderMap, Value), Error> {
    let mut request = Request::builder().method(method).uri(uri);
    for (name, value) in headers {
        request = request.header(name, *value);
    }
    if body.is_some() {
        request = request.header(header::CONTENT_TYPE, "application/json");
    }
    let text = body.map(Value::to_string).unwrap_or_default();
    let mut request = request.body(Body::from(text))?;
    request
        .extensions_mut()
        .insert(axum::extract::ConnectInfo(std::net::SocketAddr::new(
            client, 40000,
        )));
    let response = router(Arc::clone(app)).oneshot(request).await?;
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = response.into_body().collect().await?.to_bytes();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
    Ok((status, headers, value))
}

/// One browser on the site: its address and the session cookie it holds.
pub struct Visitor {
    /// The app it visits.
    pub app: Arc<App>,
    /// Its address.
    pub address: IpAddr,
    /// The session cookie it holds.
    pub cookie: Option<String>,
}

impl Visitor {
    /// A browser at 10.0.0.`last_byte`, logged out.
    pub fn new(app: &Arc<App>, last_byte: u8) -> Visitor {
        Visitor {
            app: Arc::clone(app),
            address: IpAddr::from([10, 0, 0, last_byte]),
            cookie: None,
        }
    }

    /// Deletes the account this browser is logged in to, giving `password` again.
    pub async fn delete_account(&mut self, password: &str) -> Result<(StatusCode, Value), Error> {
        let body = serde_json::json!({ "password": password });
        self.call("DELETE", "/api/account", None, Some(body)).await
    }

    /// A request as the site's page sends it: its Host and Origin, the cookie, a seat token
    /// when given. The cookie follows `Set-Cookie` as a browser's would.
    pub async fn call(
        &mut self,
        method: &str,
        uri: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Result<(StatusCode, Value), Error> {
        let cookie = self
            .cookie
            .as_ref()
            .map(|id| format!("bashni_session={id}"));
        let mut headers = vec![(header::HOST, HOST), (header::ORIGIN, SITE)];
        if let Some(cookie) = &cookie {
            headers.push((header::COOKIE, cookie.as_str()));
        }
        if let Some(token) = token {
            headers.push((header::HeaderName::from_static("x-seat-token"), token));
        }
        let (status, answer_headers, value) = send(
            &self.app,
            self.address,
            method,
            uri,
            &headers,
            body.as_ref(),
        )
        .await?;
        if let Some(set) = answer_headers.get(header::SET_COOKIE) {
            let set = set.to_str()?;
            let value = set
                .strip_prefix("bashni_session=")
                .and_then(|rest| rest.split(';').next())
                .ok_or("a Set-Cookie of another cookie")?;
            self.cookie = (!value.is_empty()).then(|| value.to_string());
        }
        Ok((status, value))
    }
}
