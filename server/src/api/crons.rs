//! Crons (`crate::crons`): create (on a thread or stateless), search, count, update, delete.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{delete, post};
use axum::{Json, Router};
use serde_json::{Value, json};

use crate::api::AppState;
use crate::api::body::{JsonBody, page};
use crate::api::error::{ApiError, ApiResult};
use crate::crons::Crons;
use crate::domain::ThreadId;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/runs/crons", post(create))
        .route("/threads/{tid}/runs/crons", post(create_on_thread))
        .route("/runs/crons/search", post(search))
        .route("/runs/crons/count", post(count))
        .route("/runs/crons/{id}", delete(remove).patch(update))
}

fn crons(state: &AppState) -> ApiResult<&Crons> {
    state.crons.as_ref().ok_or_else(|| ApiError::not_found("crons are not supported by this backend"))
}

async fn create(State(state): State<AppState>, body: JsonBody) -> ApiResult<Json<Value>> {
    Ok(Json(crons(&state)?.create(body.object()?, None).await?))
}

async fn create_on_thread(
    State(state): State<AppState>,
    Path(tid): Path<String>,
    body: JsonBody,
) -> ApiResult<Json<Value>> {
    Ok(Json(crons(&state)?.create(body.object()?, Some(ThreadId(tid))).await?))
}

async fn search(State(state): State<AppState>, body: JsonBody) -> ApiResult<Json<Value>> {
    let body = body.object()?;
    let (limit, offset) = page(&body);
    let found = crons(&state)?.search(&body)?;
    Ok(Json(Value::Array(found.into_iter().skip(offset).take(limit).collect())))
}

async fn count(State(state): State<AppState>, body: JsonBody) -> ApiResult<Json<Value>> {
    Ok(Json(json!(crons(&state)?.search(&body.object()?)?.len())))
}

async fn remove(State(state): State<AppState>, Path(id): Path<String>) -> ApiResult<StatusCode> {
    crons(&state)?.delete(&id)?;
    Ok(StatusCode::NO_CONTENT)
}

async fn update(State(state): State<AppState>, Path(id): Path<String>, body: JsonBody) -> ApiResult<Json<Value>> {
    Ok(Json(crons(&state)?.update(&id, &body.object()?)?))
}
