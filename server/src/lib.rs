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
//! | [`crons`] | schedules that start runs, and their scheduler |
//! | [`webhooks`] | a run POSTed to its `webhook` when it ends |
//! | [`restate`] | `--restate URL`: the backend over Restate, threads and runs in `switchyard serve`'s objects and workflows |

pub mod api;
pub mod backend;
pub mod crons;
pub mod domain;
pub mod embedded;
pub mod feed;
pub mod graphs;
pub mod interrupts;
pub mod options;
pub mod restate;
pub mod webhooks;
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
    /// The embedded backend (`None` with `--restate`).
    pub backend: Option<Embedded>,
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
    for w in options.warnings() {
        eprintln!("switchyard server: {w}");
    }
    let graphs = Arc::new(Graphs::load(&options.graphs).map_err(|e| e.to_string())?);
    // Bound first: the address it got is one graphs and webhooks must not reach.
    let listener = tokio::net::TcpListener::bind(&options.listen)
        .await
        .map_err(|e| format!("--listen {}: {e}", options.listen))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let reach = Arc::new(options.reach(addr)?);
    let (state, embedded) = match &options.restate {
        Some(url) => {
            let restate = over_restate(url, &graphs, reach).await?;
            let cron_store: Arc<dyn crons::CronStore> = Arc::new(restate.cron_store());
            let backend: Arc<dyn backend::Backend> = Arc::new(restate);
            let crons = crons::Crons::new(cron_store, backend.clone(), graphs.clone());
            tokio::spawn(crons.clone().schedule());
            (AppState { backend, graphs, started_at: wire::time::now(), crons: Some(crons) }, None)
        }
        None => {
            let (state, embedded) = embedded(options, graphs, reach)?;
            (state, Some(embedded))
        }
    };
    let http = HttpOptions { tokens, cors_origins: options.cors_origin.clone() };
    let app = api::router(state, &http);
    let task = tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, app).await {
            eprintln!("switchyard server: {e}");
        }
    });
    Ok(Running { addr, backend: embedded, task })
}

/// The Restate backend, after checking the ingress answers: a server that cannot reach it
/// says so at start rather than at the first request. Its webhooks reach what `reach` allows.
async fn over_restate(
    url: &str,
    graphs: &Arc<Graphs>,
    reach: Arc<net::reach::Reach>,
) -> Result<restate::OverRestate, String> {
    let runtime = tokio::runtime::Handle::current();
    let mut backend =
        restate::OverRestate::new(url, graphs.clone(), runtime.clone()).map_err(|e| format!("--restate {url}: {e}"))?;
    backend.set_on_end(webhooks::sender(graphs.clone(), reach, runtime));
    backend.check().await.map_err(|e| format!("--restate {url}: {e}"))?;
    Ok(backend)
}

/// The embedded backend over its store (the runs a stopped server left continued, webhooks
/// sent, crons scheduled), and the API's state over it; graphs and webhooks reach what
/// `reach` allows.
fn embedded(
    options: &Options,
    graphs: Arc<Graphs>,
    reach: Arc<net::reach::Reach>,
) -> Result<(AppState, Embedded), String> {
    let data = options.data_file()?;
    let store = Store::open(&data)?;
    let allowed = net::mcp::AllowedCommands::of(options.allow_command.iter());
    let (settings, warnings) = HostSettings::from_env(allowed);
    for w in warnings {
        eprintln!("switchyard server: {w}");
    }
    let settings = Arc::new(settings.within(reach));
    let runtime = tokio::runtime::Handle::current();
    let turns = embedded::turns::Turns::new(options.max_runs, options.max_waiting);
    let backend = Embedded::new(store, graphs.clone(), settings.clone(), runtime.clone(), turns);
    backend.set_on_end(webhooks::sender(graphs.clone(), settings.reach.clone(), runtime));
    let continued = backend.recover().map_err(|e| e.to_string())?;
    if continued > 0 {
        eprintln!("switchyard server: continuing {continued} run(s) left going");
    }
    let shared: Arc<dyn backend::Backend> = Arc::new(backend.clone());
    let crons = crons::Crons::new(Arc::new(backend.store().clone()), shared.clone(), graphs.clone());
    tokio::spawn(crons.clone().schedule());
    let state = AppState { backend: shared, graphs, started_at: wire::time::now(), crons: Some(crons) };
    Ok((state, backend))
}
