//! A JSON body read leniently (an empty body is `{}`), its faults as `{"detail"}`: invalid
//! JSON is a 422 as in LangGraph, an oversize body a 413.

use axum::body::Body;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::http::header::CONTENT_LENGTH;
use futures_util::StreamExt;
use serde_json::{Map, Value};

use crate::api::MAX_BODY_BYTES;
use crate::api::error::ApiError;

/// How much of an oversize body is read and dropped before the 413 is sent. A client writes
/// its whole body before it reads the answer; closing on it mid-body would show it a broken
/// connection instead of the 413. Past this, the connection is closed after all.
const DRAINED_BYTES: usize = 4 * MAX_BODY_BYTES;

/// The request's JSON body.
pub struct JsonBody(pub Value);

impl<S: Send + Sync> FromRequest<S> for JsonBody {
    type Rejection = ApiError;

    async fn from_request(req: Request, _state: &S) -> Result<Self, Self::Rejection> {
        let declared = req.headers().get(CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<usize>().ok());
        if declared.is_some_and(|n| n > DRAINED_BYTES) {
            return Err(too_large());
        }
        let bytes = read_within_limit(req.into_body()).await?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(JsonBody(Value::Object(Map::new())));
        }
        serde_json::from_slice(&bytes)
            .map(JsonBody)
            .map_err(|e| ApiError::invalid(format!("the body is not valid JSON: {e}")))
    }
}

/// The body, when it is at most [`MAX_BODY_BYTES`]; a larger one is read on (up to
/// [`DRAINED_BYTES`]) and dropped, then refused.
async fn read_within_limit(body: Body) -> Result<Vec<u8>, ApiError> {
    let mut stream = body.into_data_stream();
    let (mut kept, mut seen) = (Vec::new(), 0usize);
    while let Some(chunk) = stream.next().await {
        let chunk =
            chunk.map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, format!("the body could not be read: {e}")))?;
        seen = seen.saturating_add(chunk.len());
        if seen > DRAINED_BYTES {
            break;
        }
        if seen <= MAX_BODY_BYTES {
            kept.extend_from_slice(&chunk);
        }
    }
    if seen > MAX_BODY_BYTES { Err(too_large()) } else { Ok(kept) }
}

fn too_large() -> ApiError {
    ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, format!("the body is larger than {} MiB", MAX_BODY_BYTES >> 20))
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
