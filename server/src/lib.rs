//! # switchyard-server
//!
//! `switchyard server GRAPH.json...`: the HTTP API of LangGraph's Agent Server for
//! Switchyard graphs (docs/server.md), so LangGraph's clients (`langgraph-sdk` for Python
//! and JavaScript, UIs built on them) drive Switchyard graphs unchanged. Each graph is an
//! assistant; a thread is a chain of runs sharing state; a checkpoint is a step.
//!
//! | module | what it holds |
//! |---|---|
//! | [`options`] | the command line's options, the listen address and the data file's default |
//! | [`graphs`] | the loaded graphs, one assistant each |
//! | [`domain`] | ids, threads, checkpoints, runs, interrupts: what the API speaks of |
//! | [`backend`] | the [`backend::Backend`] trait the API calls |
//! | [`feed`] | a run's events, read by every stream of that run |
//! | [`interrupts`] | human nodes' waits as interrupts |
//! | [`wire`] | LangGraph's JSON shapes |
//! | [`api`] | the routes, SSE, errors, tokens, CORS |
//! | [`embedded`] | the embedded backend: SQLite, runs in the process, the effect journal |

pub mod api;
pub mod backend;
pub mod domain;
pub mod embedded;
pub mod feed;
pub mod graphs;
pub mod interrupts;
pub mod options;
pub mod wire;

use std::net::SocketAddr;
use std::sync::Arc;

use crate::api::{AppState, HttpOptions};
use crate::embedded::Embedded;
use crate::embedded::host::HostSettings;
use crate::embedded::store::Store;
use crate::graphs::Graphs;
use crate::options::Options;

/// A server that is listening.
pub struct Running {
    pub addr: SocketAddr,
    pub backend: Embedded,
    task: tokio::task::JoinHandle<()>,
}

impl Running {
    /// Serves until the process ends (or the server fails).
    pub async fn wait(self) {
        let _ = self.task.await;
    }

    /// Stops listening (runs on engine threads are left to end with the process).
    pub fn stop(self) {
        self.task.abort();
    }
}

/// Loads the graphs, opens the store, continues the runs a stopped server left and starts
/// listening; the message says what is wrong.
pub async fn start(options: &Options) -> Result<Running, String> {
    let tokens = options.check()?;
    if options.restate.is_some() {
        return Err(
            "--restate: the Restate backend is not in this build yet; leave it out to use the embedded store".into()
        );
    }
    let graphs = Arc::new(Graphs::load(&options.graphs).map_err(|e| e.to_string())?);
    let data = options.data_file()?;
    let store = Store::open(&data)?;
    let (settings, warnings) = HostSettings::from_env(net::mcp::AllowedCommands::of(options.allow_command.iter()));
    for w in warnings {
        eprintln!("switchyard server: {w}");
    }
    let backend = Embedded::new(store, graphs.clone(), Arc::new(settings), tokio::runtime::Handle::current());
    let continued = backend.recover().map_err(|e| e.to_string())?;
    if continued > 0 {
        eprintln!("switchyard server: continuing {continued} run(s) left going");
    }
    let state = AppState { backend: Arc::new(backend.clone()), graphs, started_at: wire::time::now() };
    let http = HttpOptions { tokens, cors_origins: options.cors_origin.clone() };
    let app = api::router(state, &http);
    let listener = tokio::net::TcpListener::bind(&options.listen)
        .await
        .map_err(|e| format!("--listen {}: {e}", options.listen))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let task = tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, app).await {
            eprintln!("switchyard server: {e}");
        }
    });
    Ok(Running { addr, backend, task })
}
