//! The HTTP API (LangGraph's Agent Server subset), routes by resource over a [`Backend`].
//!
//! | module | what it holds |
//! |---|---|
//! | `assistants` | search, count, get, graph, schemas, subgraphs: the loaded graphs |
//! | `threads` | create, get, search, count, patch, delete, copy, state, update state, history |
//! | `runs` | runs on a thread and stateless: create, wait, stream, join, list, get, cancel, delete |
//! | `sse` | a run's feed as server-sent events: the modes asked for, heartbeats, cancel on disconnect |
//! | `crons` | crons: create (on a thread or not), search, count, update, delete |
//! | `misc` | `/ok`, `/info`, and the endpoints not served (a 404 that says so) |
//! | `auth` | bearer tokens, when the server has them |
//! | `body` | JSON bodies read with LangGraph's errors |
//! | `error` | errors as `{"detail"}` with LangGraph's status codes |

mod assistants;
pub mod auth;
mod body;
mod crons;
pub mod error;
mod misc;
mod runs;
mod sse;
mod threads;

use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderName, HeaderValue, Method};
use tower_http::cors::{AllowHeaders, AllowOrigin, CorsLayer};

use crate::backend::Backend;
use crate::graphs::Graphs;

/// The largest request body taken (a larger one is a 413).
pub const MAX_BODY_BYTES: usize = 4 << 20;

/// What every handler sees.
#[derive(Clone)]
pub struct AppState {
    pub backend: Arc<dyn Backend>,
    pub graphs: Arc<Graphs>,
    /// When the server loaded its graphs (the assistants' `created_at`).
    pub started_at: String,
    /// The crons, when the backend keeps them.
    pub crons: Option<crate::crons::Crons>,
}

impl AppState {
    /// The message fields of the graph `assistant_id` names (none when it names none).
    pub fn message_fields(&self, assistant_id: Option<&str>) -> Vec<String> {
        assistant_id.and_then(|a| self.graphs.find(a)).map(|g| g.message_fields.clone()).unwrap_or_default()
    }
}

/// Options of the HTTP layer.
#[derive(Debug, Clone, Default)]
pub struct HttpOptions {
    /// Bearer tokens a request must carry one of; none: no authentication.
    pub tokens: Vec<String>,
    /// Origins allowed to call from a browser.
    pub cors_origins: Vec<String>,
}

/// The whole API.
pub fn router(state: AppState, options: &HttpOptions) -> Router {
    let api = Router::new()
        .merge(misc::routes())
        .merge(assistants::routes())
        .merge(threads::routes())
        .merge(runs::routes())
        .merge(crons::routes())
        .fallback(misc::not_served)
        .with_state(state)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES));
    let api = auth::layer(api, options.tokens.clone());
    if options.cors_origins.is_empty() {
        return api;
    }
    let origins: Vec<HeaderValue> = options.cors_origins.iter().filter_map(|o| HeaderValue::from_str(o).ok()).collect();
    let cors = CorsLayer::new()
        .allow_origin(AllowOrigin::list(origins))
        .allow_methods([Method::GET, Method::POST, Method::PUT, Method::PATCH, Method::DELETE, Method::OPTIONS])
        .allow_headers(AllowHeaders::mirror_request())
        .expose_headers([
            HeaderName::from_static("content-location"),
            HeaderName::from_static("location"),
            HeaderName::from_static("x-pagination-total"),
        ]);
    api.layer(cors)
}
