//! A JSON body read leniently (an empty body is `{}`), its faults as `{"detail"}`: invalid
//! JSON is a 422 as in LangGraph, an oversize body a 413.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use serde_json::{Map, Value};

use crate::api::error::ApiError;

/// The request's JSON body.
pub struct JsonBody(pub Value);

impl<S: Send + Sync> FromRequest<S> for JsonBody {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = Bytes::from_request(req, state).await.map_err(|e| ApiError::new(e.status(), e.body_text()))?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(JsonBody(Value::Object(Map::new())));
        }
        serde_json::from_slice(&bytes)
            .map(JsonBody)
            .map_err(|e| ApiError::invalid(format!("the body is not valid JSON: {e}")))
    }
}

impl JsonBody {
    /// The body as an object (422 otherwise).
    pub fn object(self) -> Result<Map<String, Value>, ApiError> {
        match self.0 {
            Value::Object(m) => Ok(m),
            other => Err(ApiError::invalid(format!("the body must be a JSON object, got {other}"))),
        }
    }
}

/// `limit` and `offset` from a body or query (LangGraph's defaults: 10 and 0).
pub fn page(body: &Map<String, Value>) -> (usize, usize) {
    let n = |k: &str, d: usize| body.get(k).and_then(Value::as_u64).and_then(|v| usize::try_from(v).ok()).unwrap_or(d);
    (n("limit", 10), n("offset", 0))
}
