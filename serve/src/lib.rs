//! # switchyard-serve
//!
//! Runs `switchyard/graph@1` documents as durable workflows on a Restate server
//! (cli.md, `switchyard serve`). A run is a workflow keyed by its run id; every effect
//! (a model, HTTP or tool call, a retry's back-off) is a journaled step, so a worker killed
//! mid-run replays from the journal and never repeats a finished call; a human node waits on
//! a durable promise; the record is kept in the workflow's state after every step.
//!
//! | module | what it holds |
//! |---|---|
//! | [`workflow`] | `GraphRun`: the handlers `run`, `status`, `record`, `answer`, `fork` |
//! | [`graphs`] | `GraphStore`: graphs registered by hash |
//! | [`threads`] | `Thread`, `Cron` and `ThreadIndex`: `switchyard server --restate`'s conversations and crons, kept by version |
//! | [`protocol`] | the bodies the handlers take |
//! | [`claims`] | `RunClaims`, internal: who took a run id, which answer took a wait |
//! | [`client`] | `switchyard server --restate`'s side: LangGraph threads, runs and checkpoints over the ingress |
//! | `driver` | the engine's thread: the run driven step by step, its needs sent to the handler |
//! | `messages` | what the engine thread asks of the handler, and HTTP and MCP exchanges as journaled |
//! | `host` | the [`engine::Host`] a served run sees: effects as messages, a journal-driven clock |
//! | `effects` | effects performed for real: HTTP with the environment's keys, MCP exchanges with its tokens |
//! | `consent` | the programs served graphs may start as MCP servers |
//! | [`reach`] | what a served graph's requests may reach: the operator's allow and deny lists |
//! | `store` | the record in the workflow's state: a summary and one entry per step |
//! | [`export`] | the process's trace exporter (`OTEL_*`), and a run's spans sent as its steps end |
//! | [`limits`] | a served run's ceilings, below Restate's limits on one message |
//! | [`load`] | graph documents read and compiled, refusals and their HTTP codes |

pub mod claims;
pub mod client;
mod consent;
mod driver;
mod effects;
pub mod export;
pub mod graphs;
mod host;
pub mod limits;
pub mod load;
mod messages;
pub mod protocol;
pub mod reach;
mod store;
pub mod threads;
pub mod workflow;

use restate_sdk::prelude::*;

/// The variable naming the Restate servers' public keys (`publickeyv1_…`, comma-separated)
/// whose signature every request must carry: with it set, only those servers can call this
/// deployment, not anyone who can reach its port.
pub const IDENTITY_KEYS_VAR: &str = "SWITCHYARD_IDENTITY_KEYS";

/// A request identity key that is not one.
#[derive(Debug)]
pub struct BadIdentityKey {
    pub key: String,
    pub why: String,
}

impl std::fmt::Display for BadIdentityKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{IDENTITY_KEYS_VAR}: `{}` is not a Restate request identity key ({})", self.key, self.why)
    }
}

/// The deployment: the workflow, the graph store and the claims, verifying requests against
/// `identity_keys` when there are any.
pub fn endpoint(identity_keys: &[String]) -> Result<Endpoint, BadIdentityKey> {
    let mut builder = Endpoint::builder()
        .bind(graphs::GraphStore)
        .bind(workflow::GraphRun)
        .bind(claims::RunClaims)
        .bind(threads::Thread)
        .bind(threads::Cron)
        .bind(threads::ThreadIndex);
    for key in identity_keys {
        builder = builder.identity_key(key).map_err(|e| BadIdentityKey { key: key.clone(), why: format!("{e}") })?;
    }
    Ok(builder.build())
}

/// The keys `SWITCHYARD_IDENTITY_KEYS` names (none when it is unset or empty).
pub fn identity_keys_from_env() -> Vec<String> {
    std::env::var(IDENTITY_KEYS_VAR)
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|k| !k.is_empty())
        .map(str::to_string)
        .collect()
}

/// Serves `endpoint` on `listener` until the process is asked to stop (SIGINT or SIGTERM), the
/// graphs' requests reaching what `reach` allows and their MCP servers starting only the
/// programs in `allowed`.
pub async fn serve(
    listener: tokio::net::TcpListener,
    endpoint: Endpoint,
    reach: net::reach::Reach,
    allowed: net::mcp::AllowedCommands,
) {
    effects::set_reach(reach);
    consent::set_allowed_commands(allowed);
    HttpServer::new(endpoint).serve_with_cancel(listener, stop_asked()).await;
}

/// Resolves when the process is asked to stop: Ctrl-C, or SIGTERM (what service managers and
/// container runtimes send), so that what is queued for export goes out first.
pub async fn stop_asked() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}
