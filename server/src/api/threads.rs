//! Threads: create, get, search, count, patch, delete, copy; their state, state updates and
//! history.

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{Map, Value, json};

use crate::api::AppState;
use crate::api::body::{JsonBody, page};
use crate::api::error::{ApiError, ApiResult};
use crate::backend::NewThread;
use crate::domain::{Checkpoint, CheckpointId, StateUpdate, ThreadId, ThreadInfo, ThreadQuery, ThreadStatus};
use crate::wire::thread::{checkpoint_written, thread, thread_state};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/threads", post(create))
        .route("/threads/search", post(search))
        .route("/threads/count", post(count))
        .route("/threads/{tid}", get(get_one).patch(patch).delete(delete))
        .route("/threads/{tid}/copy", post(copy))
        .route("/threads/{tid}/state", get(state_now).post(update_state))
        .route("/threads/{tid}/state/checkpoint", post(state_by_body))
        .route("/threads/{tid}/state/{cid}", get(state_at))
        .route("/threads/{tid}/history", get(history_query).post(history))
}

/// The thread as JSON, its messages in LangChain's form.
fn thread_json(state: &AppState, t: &ThreadInfo) -> Value {
    let fields = state.message_fields(t.metadata.get("graph_id").and_then(Value::as_str));
    thread(t, &fields)
}

fn state_json(state: &AppState, c: &Checkpoint) -> Value {
    thread_state(c, &state.message_fields(Some(&c.graph_id)))
}

/// A thread's state before its first run: nothing yet.
fn empty_state(thread: &ThreadId) -> Value {
    json!({"values": {}, "next": [], "tasks": [], "metadata": null, "created_at": null, "checkpoint":
        {"thread_id": thread, "checkpoint_ns": "", "checkpoint_id": null}, "parent_checkpoint": null, "interrupts": [],
        "checkpoint_id": null, "parent_checkpoint_id": null})
}

async fn create(State(state): State<AppState>, body: JsonBody) -> ApiResult<Json<Value>> {
    let body = body.object()?;
    let new = NewThread {
        thread_id: body.get("thread_id").and_then(Value::as_str).map(|s| ThreadId(s.to_string())),
        metadata: body.get("metadata").and_then(Value::as_object).cloned().unwrap_or_default(),
        if_exists_do_nothing: body.get("if_exists").and_then(Value::as_str) == Some("do_nothing"),
    };
    if let Some(id) = &new.thread_id
        && !valid_id(id.as_str())
    {
        return Err(ApiError::invalid("thread_id: use letters, digits and `_.:-` only"));
    }
    let t = state.backend.create_thread(new).await?;
    Ok(Json(thread_json(&state, &t)))
}

/// Ids go into paths: keep them to a safe alphabet.
fn valid_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 128 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b"_.:-".contains(&b))
}

fn query_of(body: &Map<String, Value>) -> ApiResult<ThreadQuery> {
    let (limit, offset) = page(body);
    let status = match body.get("status").and_then(Value::as_str) {
        Some(s) => Some(ThreadStatus::parse(s).ok_or_else(|| ApiError::invalid(format!("status: unknown `{s}`")))?),
        None => None,
    };
    let object = |k: &str| body.get(k).and_then(Value::as_object).cloned().unwrap_or_default();
    let ids = body
        .get("ids")
        .and_then(Value::as_array)
        .map(|ids| ids.iter().filter_map(Value::as_str).map(|s| ThreadId(s.to_string())).collect());
    Ok(ThreadQuery { metadata: object("metadata"), values: object("values"), status, ids, limit, offset })
}

async fn search(State(state): State<AppState>, body: JsonBody) -> ApiResult<Response> {
    let query = query_of(&body.object()?)?;
    let (found, total) = state.backend.search_threads(query).await?;
    let list: Vec<Value> = found.iter().map(|t| thread_json(&state, t)).collect();
    Ok(([("x-pagination-total", total.to_string())], Json(Value::Array(list))).into_response())
}

async fn count(State(state): State<AppState>, body: JsonBody) -> ApiResult<Json<Value>> {
    let mut query = query_of(&body.object()?)?;
    (query.limit, query.offset) = (usize::MAX, 0);
    let (_, total) = state.backend.search_threads(query).await?;
    Ok(Json(json!(total)))
}

async fn get_one(State(state): State<AppState>, Path(tid): Path<String>) -> ApiResult<Json<Value>> {
    let t = state.backend.thread(&ThreadId(tid)).await?;
    Ok(Json(thread_json(&state, &t)))
}

async fn patch(State(state): State<AppState>, Path(tid): Path<String>, body: JsonBody) -> ApiResult<Json<Value>> {
    let body = body.object()?;
    let metadata = body.get("metadata").and_then(Value::as_object).cloned().unwrap_or_default();
    let t = state.backend.update_thread_metadata(&ThreadId(tid), metadata).await?;
    Ok(Json(thread_json(&state, &t)))
}

async fn delete(State(state): State<AppState>, Path(tid): Path<String>) -> ApiResult<StatusCode> {
    state.backend.delete_thread(&ThreadId(tid)).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn copy(State(state): State<AppState>, Path(tid): Path<String>) -> ApiResult<Json<Value>> {
    let t = state.backend.copy_thread(&ThreadId(tid)).await?;
    Ok(Json(thread_json(&state, &t)))
}

async fn state_now(State(state): State<AppState>, Path(tid): Path<String>) -> ApiResult<Json<Value>> {
    let thread = ThreadId(tid);
    match state.backend.checkpoint(&thread, None).await? {
        Some(c) => Ok(Json(state_json(&state, &c))),
        None => Ok(Json(empty_state(&thread))),
    }
}

async fn state_at(State(state): State<AppState>, Path((tid, cid)): Path<(String, String)>) -> ApiResult<Json<Value>> {
    let thread = ThreadId(tid);
    let c = state.backend.checkpoint(&thread, Some(&CheckpointId(cid))).await?;
    Ok(Json(c.map_or_else(|| empty_state(&thread), |c| state_json(&state, &c))))
}

async fn state_by_body(
    State(state): State<AppState>,
    Path(tid): Path<String>,
    body: JsonBody,
) -> ApiResult<Json<Value>> {
    let body = body.object()?;
    let cid = body.get("checkpoint").and_then(|c| c.get("checkpoint_id")).and_then(Value::as_str).map(str::to_string);
    let thread = ThreadId(tid);
    let c = state.backend.checkpoint(&thread, cid.map(CheckpointId).as_ref()).await?;
    Ok(Json(c.map_or_else(|| empty_state(&thread), |c| state_json(&state, &c))))
}

async fn update_state(
    State(state): State<AppState>,
    Path(tid): Path<String>,
    body: JsonBody,
) -> ApiResult<Json<Value>> {
    let body = body.object()?;
    let values = match body.get("values") {
        Some(Value::Object(m)) => m.clone(),
        None | Some(Value::Null) => Map::new(),
        Some(other) => return Err(ApiError::invalid(format!("values: expected an object, got {other}"))),
    };
    let checkpoint = body
        .get("checkpoint_id")
        .and_then(Value::as_str)
        .or_else(|| body.get("checkpoint").and_then(|c| c.get("checkpoint_id")).and_then(Value::as_str))
        .map(|s| CheckpointId(s.to_string()));
    let c = state.backend.update_state(&ThreadId(tid), StateUpdate { values, checkpoint }).await?;
    Ok(Json(checkpoint_written(&c)))
}

async fn history_of(state: &AppState, tid: String, body: &Map<String, Value>) -> ApiResult<Json<Value>> {
    let (limit, _) = page(body);
    let before = body
        .get("before")
        .and_then(|b| b.get("checkpoint_id").or(Some(b)))
        .and_then(Value::as_str)
        .map(|s| CheckpointId(s.to_string()));
    let list = state.backend.history(&ThreadId(tid), limit, before.as_ref()).await?;
    Ok(Json(Value::Array(list.iter().map(|c| state_json(state, c)).collect())))
}

async fn history(State(state): State<AppState>, Path(tid): Path<String>, body: JsonBody) -> ApiResult<Json<Value>> {
    let body = body.object()?;
    history_of(&state, tid, &body).await
}

async fn history_query(
    State(state): State<AppState>,
    Path(tid): Path<String>,
    Query(query): Query<Map<String, Value>>,
) -> ApiResult<Json<Value>> {
    let mut body = Map::new();
    if let Some(limit) = query.get("limit").and_then(Value::as_str).and_then(|l| l.parse::<u64>().ok()) {
        body.insert("limit".into(), json!(limit));
    }
    history_of(&state, tid, &body).await
}
