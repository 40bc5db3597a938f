//! Errors as LangGraph answers them: a status and `{"detail": message}`.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::backend::BackendError;

/// An error response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    pub detail: String,
}

impl ApiError {
    pub fn new(status: StatusCode, detail: impl Into<String>) -> ApiError {
        ApiError { status, detail: detail.into() }
    }

    /// A request that does not validate (LangGraph's 422).
    pub fn invalid(detail: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, detail)
    }

    pub fn not_found(detail: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, detail)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(json!({"detail": self.detail}))).into_response()
    }
}

impl From<BackendError> for ApiError {
    fn from(e: BackendError) -> Self {
        let status = match &e {
            BackendError::NotFound(_) => StatusCode::NOT_FOUND,
            BackendError::Conflict(_) => StatusCode::CONFLICT,
            BackendError::Invalid(_) => StatusCode::UNPROCESSABLE_ENTITY,
            BackendError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        ApiError::new(status, e.to_string())
    }
}

pub type ApiResult<T> = Result<T, ApiError>;
