//! The API's refusals: a status, a code and a message saying what is wrong.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// A refused request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ApiError {
    /// The HTTP status.
    #[serde(skip)]
    pub status: StatusCode,
    /// What is wrong, for people.
    pub error: String,
    /// What is wrong, for programs (see the API description).
    pub code: &'static str,
    /// For an illegal move: the legal moves, in full notation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal: Option<Vec<String>>,
    /// For an action made for a position the game has left (code `stale`): the game's
    /// state now, as the actor sees it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<serde_json::Value>,
    /// The message as a text of the catalogues, when it is one: the answer then says it in
    /// the language the request asks for (`error` holds the English words).
    #[serde(skip)]
    pub text: Option<Box<crate::texts::Text>>,
}

impl ApiError {
    fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            error: message.into(),
            code,
            legal: None,
            state: None,
            text: None,
        }
    }

    /// A refusal whose message is `text` of the catalogues, said in the reader's language.
    pub fn texted(status: StatusCode, code: &'static str, text: crate::texts::Text) -> ApiError {
        ApiError {
            error: text.words(crate::texts::Language::English),
            text: Some(Box::new(text)),
            ..ApiError::new(status, code, "")
        }
    }

    /// 400: the request cannot be read.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad_request", message)
    }

    /// 403: a wrong or missing seat token, or not this seat's turn.
    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, "forbidden", message)
    }

    /// 404: no such game.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "not_found", message)
    }

    /// 409: not possible now.
    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, "conflict", message)
    }

    /// 408: the request's body came too slowly (see [`crate::http::body`]); the
    /// connection is closed after the answer.
    pub fn too_slow() -> ApiError {
        ApiError::texted(
            StatusCode::REQUEST_TIMEOUT,
            "too_slow",
            crate::texts::Text::new("error-body-too-slow", Vec::new()),
        )
    }

    /// 413: too big.
    pub fn too_large(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "too_large", message)
    }

    /// 429: too many requests or connections.
    pub fn too_many(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::TOO_MANY_REQUESTS, "too_many", message)
    }

    /// 500: the server failed (the database, most likely); nothing was changed.
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", message)
    }

    /// A refusal with a code of its own, for the parts of the API that have their own codes
    /// (accounts: `not_logged_in`, `wrong_login`, `name_taken`, `cross_site`).
    pub fn coded(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(status, code, message)
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.error)
    }
}

impl std::error::Error for ApiError {}

impl From<crate::game::round::RoundError> for ApiError {
    fn from(error: crate::game::round::RoundError) -> ApiError {
        use crate::game::round::RoundError;
        match error {
            RoundError::Invalid(message) => ApiError::bad_request(message),
            RoundError::Forbidden(text) => {
                ApiError::texted(StatusCode::FORBIDDEN, "forbidden", text)
            }
            RoundError::Conflict(text) => ApiError::texted(StatusCode::CONFLICT, "conflict", text),
            ref stale @ RoundError::Stale { .. } => ApiError::texted(
                StatusCode::CONFLICT,
                "stale",
                stale.text().unwrap_or_default(),
            ),
            RoundError::Illegal { message, legal } => {
                let mut error =
                    ApiError::texted(StatusCode::UNPROCESSABLE_ENTITY, "illegal_move", message);
                error.legal = Some(legal);
                error
            }
        }
    }
}

impl From<crate::store::StoreError> for ApiError {
    fn from(error: crate::store::StoreError) -> ApiError {
        use crate::store::StoreErrorKind;
        match error.kind {
            StoreErrorKind::Busy => ApiError::texted(
                StatusCode::SERVICE_UNAVAILABLE,
                "unavailable",
                crate::texts::text!("error-store-busy"),
            ),
            StoreErrorKind::Full => ApiError::texted(
                StatusCode::INSUFFICIENT_STORAGE,
                "unavailable",
                crate::texts::text!("error-store-full"),
            ),
            StoreErrorKind::Stale => ApiError::texted(
                StatusCode::CONFLICT,
                "stale",
                crate::texts::text!("error-store-stale"),
            ),
            StoreErrorKind::Corrupt => ApiError::texted(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal",
                crate::texts::text!("error-store-corrupt"),
            ),
            StoreErrorKind::Other => ApiError::texted(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal",
                crate::texts::text!("error-store-failed"),
            ),
        }
    }
}

impl From<crate::account::AccountError> for ApiError {
    fn from(error: crate::account::AccountError) -> ApiError {
        use crate::account::AccountError;
        match error {
            AccountError::Invalid(text) => {
                ApiError::texted(StatusCode::BAD_REQUEST, "bad_request", text)
            }
            AccountError::TooMany(text) => {
                ApiError::texted(StatusCode::TOO_MANY_REQUESTS, "too_many", text)
            }
            AccountError::Failed(message) => ApiError::internal(message),
        }
    }
}

impl From<crate::app::ActionError> for ApiError {
    fn from(error: crate::app::ActionError) -> ApiError {
        use crate::app::ActionError;
        match error {
            ActionError::Round(error) => error.into(),
            ActionError::Store(error) => error.into(),
            ActionError::NotFound(message) => ApiError::not_found(message),
            ActionError::Invalid(message) => ApiError::bad_request(message),
            ActionError::TooMany(text) => {
                ApiError::texted(StatusCode::TOO_MANY_REQUESTS, "too_many", text)
            }
            ActionError::Unavailable(message) => {
                ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "unavailable", message)
            }
            ActionError::FairPlay(text) => {
                ApiError::texted(StatusCode::FORBIDDEN, "fair_play", text)
            }
            ActionError::Refused { code, message } => {
                ApiError::texted(status_of(code), code, message)
            }
        }
    }
}

/// The HTTP status of a refusal with a code of its own.
fn status_of(code: &str) -> StatusCode {
    match code {
        "bad_request" => StatusCode::BAD_REQUEST,
        "not_logged_in" => StatusCode::UNAUTHORIZED,
        "rated_needs_account" | "cross_site" | "not_organiser" => StatusCode::FORBIDDEN,
        "wrong_login" => StatusCode::UNAUTHORIZED,
        _ => StatusCode::CONFLICT,
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, Json(&self)).into_response();
        if self.status == StatusCode::REQUEST_TIMEOUT {
            // The body is unread: the connection cannot carry another request.
            response.headers_mut().insert(
                axum::http::header::CONNECTION,
                axum::http::HeaderValue::from_static("close"),
            );
        }
        // Kept for the request log (see `crate::http_log`).
        response.extensions_mut().insert(Refusal {
            code: self.code,
            message: self.error,
            text: self.text,
        });
        response
    }
}

/// Why a request was refused, attached to the response for the log (and for the answer in
/// the reader's language, see [`in_language`]).
#[derive(Clone, Debug)]
pub struct Refusal {
    /// The error's code.
    pub code: &'static str,
    /// The error's message.
    pub message: String,
    /// The message as a text of the catalogues, when it is one.
    pub text: Option<Box<crate::texts::Text>>,
}

/// The answer `response` with its refusal's message in `language`, when the message is a
/// text of the catalogues and the language is not English; otherwise as it is.
pub async fn in_language(response: Response, language: crate::texts::Language) -> Response {
    let words = match response.extensions().get::<Refusal>() {
        Some(Refusal {
            text: Some(text), ..
        }) if language != crate::texts::Language::English => text.words(language),
        _ => return response,
    };
    let (parts, body) = response.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, 1 << 20).await else {
        return Response::from_parts(parts, axum::body::Body::empty());
    };
    let body = match serde_json::from_slice::<serde_json::Value>(&bytes) {
        Ok(mut value) => {
            value["error"] = serde_json::Value::String(words);
            axum::body::Body::from(value.to_string())
        }
        Err(_) => axum::body::Body::from(bytes),
    };
    let mut response = Response::from_parts(parts, body);
    response
        .headers_mut()
        .remove(axum::http::header::CONTENT_LENGTH);
    response
}

/// Reads JSON text that must be an object (a request body or a socket message), with the
/// place of the first error.
pub fn parse_json<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    Ok(crate::app::actions::read_json(bytes)?)
}
