//! Assistants: the loaded graphs, one each. Creating, changing and versioning assistants is
//! not served (a 404 that says so).

use axum::extract::{Path, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{Value, json};

use crate::api::AppState;
use crate::api::body::{JsonBody, page};
use crate::api::error::{ApiError, ApiResult};
use crate::graphs::LoadedGraph;
use crate::wire::assistant::{assistant, graph_view, schemas};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/assistants/search", post(search))
        .route("/assistants/count", post(count))
        .route("/assistants/{id}", get(get_one))
        .route("/assistants/{id}/graph", get(graph))
        .route("/assistants/{id}/schemas", get(get_schemas))
        .route("/assistants/{id}/subgraphs", get(subgraphs))
        .route("/assistants/{id}/subgraphs/{ns}", get(subgraphs))
}

fn find<'a>(state: &'a AppState, id: &str) -> ApiResult<&'a LoadedGraph> {
    state.graphs.find(id).ok_or_else(|| ApiError::not_found(format!("assistant {id} not found")))
}

/// The graphs matching a search body's `graph_id`, `name` and `metadata`.
fn matching(state: &AppState, body: &serde_json::Map<String, Value>) -> Vec<Value> {
    let wanted = |key: &str| body.get(key).and_then(Value::as_str);
    state
        .graphs
        .list
        .iter()
        .filter(|g| wanted("graph_id").is_none_or(|w| w == g.graph_id))
        .filter(|g| wanted("name").is_none_or(|w| g.graph_id.contains(w)))
        .map(|g| assistant(g, &state.started_at))
        .filter(|a| {
            body.get("metadata")
                .and_then(Value::as_object)
                .is_none_or(|m| m.iter().all(|(k, v)| &a["metadata"][k] == v))
        })
        .collect()
}

async fn search(State(state): State<AppState>, body: JsonBody) -> ApiResult<Json<Value>> {
    let body = body.object()?;
    let (limit, offset) = page(&body);
    let found: Vec<Value> = matching(&state, &body).into_iter().skip(offset).take(limit).collect();
    Ok(Json(Value::Array(found)))
}

async fn count(State(state): State<AppState>, body: JsonBody) -> ApiResult<Json<Value>> {
    Ok(Json(json!(matching(&state, &body.object()?).len())))
}

async fn get_one(State(state): State<AppState>, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    Ok(Json(assistant(find(&state, &id)?, &state.started_at)))
}

async fn graph(State(state): State<AppState>, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    Ok(Json(graph_view(find(&state, &id)?)))
}

async fn get_schemas(State(state): State<AppState>, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    Ok(Json(schemas(find(&state, &id)?)))
}

async fn subgraphs(State(state): State<AppState>, Path(params): Path<Vec<(String, String)>>) -> ApiResult<Json<Value>> {
    let id = params.first().map(|(_, v)| v.as_str()).unwrap_or_default();
    find(&state, id)?;
    Ok(Json(json!({})))
}
