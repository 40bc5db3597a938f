//! `/ok`, `/info`, and an answer for everything not served: a 404 naming it, never a hang.

use axum::extract::Request;
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{Value, json};

use crate::api::AppState;
use crate::api::error::ApiError;

pub fn routes() -> Router<AppState> {
    Router::new().route("/ok", get(ok)).route("/info", get(info))
}

async fn ok() -> Json<Value> {
    Json(json!({"ok": true}))
}

async fn info() -> Json<Value> {
    Json(json!({
        "version": env!("CARGO_PKG_VERSION"),
        "server": "switchyard server",
        "flags": {"assistants": true, "crons": true, "langsmith": false},
    }))
}

/// Any other path: the store, assistants' creation and the rest LangGraph also serves.
pub async fn not_served(req: Request) -> ApiError {
    ApiError::not_found(format!("{} {} is not supported by switchyard server", req.method(), req.uri().path()))
}
