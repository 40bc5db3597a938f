//! # switchyard-serve
//!
//! Runs `switchyard/graph@1` documents as durable workflows on a Restate server (spec
//! section 5, `switchyard serve`). A run is a workflow keyed by its run id; every effect
//! (a model, HTTP or tool call, a retry's back-off) is a journaled step, so a worker killed
//! mid-run replays from the journal and never repeats a finished call; a human node waits on
//! a durable promise; the record is kept in the workflow's state after every step.
//!
//! | module | what it holds |
//! |---|---|
//! | [`workflow`] | `GraphRun`: the handlers `run`, `status`, `record`, `answer`, `fork` |
//! | [`graphs`] | `GraphStore`: graphs registered by hash |
//! | [`protocol`] | the bodies the handlers take |
//! | [`claims`] | `RunClaims`, internal: who took a run id, which answer took a wait |
//! | `driver` | the engine's thread: the run driven step by step, its needs sent to the handler |
//! | `messages` | what the engine thread asks of the handler, and HTTP exchanges as journaled |
//! | `host` | the [`engine::Host`] a served run sees: effects as messages, a journal-driven clock |
//! | `effects` | effects performed for real: HTTP with the environment's keys |
//! | [`reach`] | what a served graph's requests may reach: the operator's allow and deny lists |
//! | `store` | the record in the workflow's state: a summary and one entry per step |
//! | [`limits`] | a served run's ceilings, below Restate's limits on one message |
//! | [`load`] | graph documents read and compiled, refusals and their HTTP codes |

pub mod claims;
mod driver;
mod effects;
pub mod graphs;
mod host;
pub mod limits;
pub mod load;
mod messages;
pub mod protocol;
pub mod reach;
mod store;
pub mod workflow;

use restate_sdk::prelude::*;

/// Serves the workflow and the graph store on `listener` until the process ends, the graphs'
/// requests reaching what `reach` allows.
pub async fn serve(listener: tokio::net::TcpListener, reach: net::reach::Reach) {
    effects::set_reach(reach);
    let endpoint =
        Endpoint::builder().bind(graphs::GraphStore).bind(workflow::GraphRun).bind(claims::RunClaims).build();
    HttpServer::new(endpoint).serve(listener).await;
}
