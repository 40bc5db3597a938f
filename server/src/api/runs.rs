//! Runs: on a thread or stateless (a temporary thread, dropped when the run ends unless
//! `on_completion: "keep"`); created in the background, waited for, streamed, joined, listed,
//! cancelled, deleted.

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{Map, Value, json};

use crate::api::AppState;
use crate::api::body::JsonBody;
use crate::api::error::{ApiError, ApiResult};
use crate::api::sse;
use crate::backend::NewThread;
use crate::domain::{RunId, RunInfo, RunStatus, ThreadId};
use crate::wire::run::{RunBody, outcome, read_body, run};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/threads/{tid}/runs", post(create).get(list))
        .route("/threads/{tid}/runs/wait", post(wait))
        .route("/threads/{tid}/runs/stream", post(stream))
        .route("/threads/{tid}/runs/{rid}", get(get_one).delete(delete))
        .route("/threads/{tid}/runs/{rid}/join", get(join))
        .route("/threads/{tid}/runs/{rid}/stream", get(join_stream))
        .route("/threads/{tid}/runs/{rid}/cancel", post(cancel))
        .route("/runs", post(create_stateless))
        .route("/runs/wait", post(wait_stateless))
        .route("/runs/stream", post(stream_stateless))
}

/// How the request names its thread.
enum On {
    Thread(String),
    /// A temporary thread.
    Stateless,
}

/// Reads the body, makes sure the thread is there, starts the run.
async fn start(state: &AppState, on: On, body: JsonBody) -> ApiResult<(RunInfo, RunBody)> {
    let (thread, stateless) = match on {
        On::Thread(t) => (ThreadId(t), false),
        On::Stateless => (ThreadId(uuid::Uuid::now_v7().to_string()), true),
    };
    let mut parsed = read_body(&body.0, thread.clone(), &state.graphs).map_err(ApiError::invalid)?;
    if stateless {
        parsed.request.temporary = !parsed.keep_thread;
        let new = NewThread { thread_id: Some(thread), ..NewThread::default() };
        state.backend.create_thread(new).await?;
    } else if parsed.create_thread {
        let new = NewThread { thread_id: Some(thread), if_exists_do_nothing: true, ..NewThread::default() };
        state.backend.create_thread(new).await?;
    } else {
        state.backend.thread(&thread).await?;
    }
    let info = state.backend.start_run(parsed.request.clone()).await;
    if stateless && info.is_err() {
        let _ = state.backend.delete_thread(&parsed.request.thread_id).await;
    }
    Ok((info?, parsed))
}

/// `Content-Location` (the SDK reads the run id from it) and, for a thread that stays,
/// `Location`: where the SDK goes on reading a cut answer (`join` for a wait, `stream` for a
/// stream).
fn run_headers(info: &RunInfo, location: Option<&str>) -> HeaderMap {
    let mut headers = HeaderMap::new();
    let path = format!("/threads/{}/runs/{}", info.thread_id, info.run_id);
    if let Ok(v) = HeaderValue::from_str(&path) {
        headers.insert("content-location", v);
    }
    if let Some(tail) = location
        && let Ok(v) = HeaderValue::from_str(&format!("{path}/{tail}"))
    {
        headers.insert("location", v);
    }
    headers
}

async fn create_on(state: AppState, on: On, body: JsonBody) -> ApiResult<Response> {
    let (info, _) = start(&state, on, body).await?;
    Ok((run_headers(&info, None), Json(run(&info))).into_response())
}

async fn wait_on(state: AppState, on: On, body: JsonBody) -> ApiResult<Response> {
    let stateless = matches!(on, On::Stateless);
    let (info, parsed) = start(&state, on, body).await?;
    let o = state.backend.outcome(&info.thread_id, &info.run_id).await?;
    let body = outcome(&o, &parsed.graph.message_fields);
    Ok((run_headers(&info, (!stateless).then_some("join")), Json(body)).into_response())
}

async fn stream_on(state: AppState, on: On, body: JsonBody) -> ApiResult<Response> {
    let stateless = matches!(on, On::Stateless);
    let (info, parsed) = start(&state, on, body).await?;
    let feed = state.backend.feed(&info.thread_id, &info.run_id).await?;
    let on_disconnect = parsed.cancel_on_disconnect.then(|| (state.backend.clone(), info.thread_id.clone()));
    let response = sse::respond(feed, info.run_id.clone(), parsed.stream_modes, on_disconnect);
    // Stateless threads go away: no `Location` to come back to.
    Ok((run_headers(&info, (!stateless).then_some("stream")), response).into_response())
}

async fn create(State(s): State<AppState>, Path(tid): Path<String>, body: JsonBody) -> ApiResult<Response> {
    create_on(s, On::Thread(tid), body).await
}

async fn wait(State(s): State<AppState>, Path(tid): Path<String>, body: JsonBody) -> ApiResult<Response> {
    wait_on(s, On::Thread(tid), body).await
}

async fn stream(State(s): State<AppState>, Path(tid): Path<String>, body: JsonBody) -> ApiResult<Response> {
    stream_on(s, On::Thread(tid), body).await
}

async fn create_stateless(State(s): State<AppState>, body: JsonBody) -> ApiResult<Response> {
    create_on(s, On::Stateless, body).await
}

async fn wait_stateless(State(s): State<AppState>, body: JsonBody) -> ApiResult<Response> {
    wait_on(s, On::Stateless, body).await
}

async fn stream_stateless(State(s): State<AppState>, body: JsonBody) -> ApiResult<Response> {
    stream_on(s, On::Stateless, body).await
}

async fn list(
    State(state): State<AppState>,
    Path(tid): Path<String>,
    Query(q): Query<Map<String, Value>>,
) -> ApiResult<Json<Value>> {
    let number = |k: &str, d: usize| q.get(k).and_then(Value::as_str).and_then(|v| v.parse().ok()).unwrap_or(d);
    let status = match q.get("status").and_then(Value::as_str) {
        Some(s) => Some(RunStatus::parse(s).ok_or_else(|| ApiError::invalid(format!("status: unknown `{s}`")))?),
        None => None,
    };
    let runs = state.backend.list_runs(&ThreadId(tid), status, number("limit", 10), number("offset", 0)).await?;
    Ok(Json(Value::Array(runs.iter().map(run).collect())))
}

async fn get_one(State(state): State<AppState>, Path((tid, rid)): Path<(String, String)>) -> ApiResult<Json<Value>> {
    let info = state.backend.run(&ThreadId(tid), &RunId(rid)).await?;
    Ok(Json(run(&info)))
}

async fn delete(State(state): State<AppState>, Path((tid, rid)): Path<(String, String)>) -> ApiResult<StatusCode> {
    state.backend.delete_run(&ThreadId(tid), &RunId(rid)).await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn join(State(state): State<AppState>, Path((tid, rid)): Path<(String, String)>) -> ApiResult<Json<Value>> {
    let (thread, run_id) = (ThreadId(tid), RunId(rid));
    let info = state.backend.run(&thread, &run_id).await?;
    let o = state.backend.outcome(&thread, &run_id).await?;
    Ok(Json(outcome(&o, &state.message_fields(Some(info.assistant_id.as_str())))))
}

async fn join_stream(
    State(state): State<AppState>,
    Path((tid, rid)): Path<(String, String)>,
    Query(q): Query<Map<String, Value>>,
) -> ApiResult<Response> {
    let (thread, run_id) = (ThreadId(tid), RunId(rid));
    let info = state.backend.run(&thread, &run_id).await?;
    let modes = match q.get("stream_mode").and_then(Value::as_str) {
        Some(m) => m.split(',').map(str::to_string).collect(),
        None => info
            .kwargs
            .get("stream_mode")
            .and_then(|m| serde_json::from_value(m.clone()).ok())
            .unwrap_or_else(|| vec!["values".to_string()]),
    };
    let cancel = q.get("cancel_on_disconnect").and_then(Value::as_str) == Some("true");
    let feed = state.backend.feed(&thread, &run_id).await?;
    let on_disconnect = cancel.then(|| (state.backend.clone(), thread.clone()));
    Ok(sse::respond(feed, run_id, modes, on_disconnect).into_response())
}

async fn cancel(
    State(state): State<AppState>,
    Path((tid, rid)): Path<(String, String)>,
    Query(q): Query<Map<String, Value>>,
) -> ApiResult<Response> {
    let (thread, run_id) = (ThreadId(tid), RunId(rid));
    state.backend.cancel_run(&thread, &run_id).await?;
    if q.get("wait").and_then(Value::as_str).is_some_and(|w| w == "true" || w == "1") {
        state.backend.outcome(&thread, &run_id).await?;
        return Ok(StatusCode::OK.into_response());
    }
    Ok((StatusCode::ACCEPTED, Json(json!({"run_id": run_id, "status": "cancelling"}))).into_response())
}
