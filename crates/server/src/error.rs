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
}

impl ApiError {
    fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            error: message.into(),
            code,
            legal: None,
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

    /// 413: too big.
    pub fn too_large(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "too_large", message)
    }

    /// 422: an unreadable or illegal move.
    pub fn illegal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "illegal_move", message)
    }

    /// 429: too many requests or connections.
    pub fn too_many(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::TOO_MANY_REQUESTS, "too_many", message)
    }

    /// 500: the server failed (the database, most likely); nothing was changed.
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", message)
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.error)
    }
}

impl std::error::Error for ApiError {}

impl From<crate::store::StoreError> for ApiError {
    fn from(error: crate::store::StoreError) -> ApiError {
        tracing::error!("{error}");
        ApiError::internal("the game could not be stored; nothing was changed")
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(&self)).into_response()
    }
}
