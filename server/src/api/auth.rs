//! Bearer tokens (`--token-file`): with any configured, every request but `/ok` must carry
//! `Authorization: Bearer <token>` (or `x-api-key: <token>`, which the SDK sends) with one of
//! them; otherwise a 401.

use std::sync::Arc;

use axum::Router;
use axum::extract::Request;
use axum::http::StatusCode;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};

use crate::api::error::ApiError;

/// `api` behind the token check, when there are tokens.
pub fn layer(api: Router, tokens: Vec<String>) -> Router {
    if tokens.is_empty() {
        return api;
    }
    let tokens = Arc::new(tokens);
    api.layer(middleware::from_fn(move |req: Request, next: Next| {
        let tokens = tokens.clone();
        async move { check(&tokens, req, next).await }
    }))
}

async fn check(tokens: &[String], req: Request, next: Next) -> Response {
    // Preflight requests carry no credentials; health checks need none.
    if req.method() == axum::http::Method::OPTIONS || req.uri().path() == "/ok" {
        return next.run(req).await;
    }
    let headers = req.headers();
    let bearer = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer ").or_else(|| v.strip_prefix("bearer ")));
    let api_key = headers.get("x-api-key").and_then(|v| v.to_str().ok());
    let given = bearer.or(api_key).map(str::trim);
    if given.is_some_and(|g| tokens.iter().any(|t| constant_time_eq(t.as_bytes(), g.as_bytes()))) {
        return next.run(req).await;
    }
    ApiError::new(StatusCode::UNAUTHORIZED, "a bearer token is required (Authorization: Bearer <token>)")
        .into_response()
}

/// Equality that takes as long whatever the first difference (a token is a secret).
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Reads a token file: one token a line, blank lines and `#` comments skipped.
pub fn read_tokens(path: &std::path::Path) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let tokens: Vec<String> =
        text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).map(str::to_string).collect();
    if tokens.is_empty() {
        return Err(format!("{}: holds no token", path.display()));
    }
    Ok(tokens)
}
