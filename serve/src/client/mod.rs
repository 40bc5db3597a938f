//! The client side of `switchyard server --restate URL`: LangGraph's threads, runs and
//! checkpoints kept in Restate and run as `GraphRun` workflows, through the ingress only. A
//! server holding a [`RestateThreads`] keeps nothing of its own, so any number of them can
//! stand in front of one Restate cluster (docs/scale.md).
//!
//! | module | what it holds |
//! |---|---|
//! | [`ingress`] | calls to the ingress; [`Failure`], a refusal with the HTTP status to answer |
//! | [`doc`] | the thread document the `Thread` object keeps: runs, segments, checkpoints |
//! | [`threads`] | threads created, read, searched, changed (compare and set) and deleted |
//! | [`start`] | a LangGraph run started on a thread: new input, resume, breakpoints, forks, `update_state` |
//! | [`crons`] | crons kept by version in the `Cron` object, listed, written and deleted |
//! | [`queue`] | runs asked for on a busy thread (`enqueue`), kept in its document and started in turn |
//! | [`view`] | a run as its client sees it (status, steps, interrupts) and the thread's checkpoints |
//! | `graphs` | the graph documents the server serves, compiled, by hash |
//! | `clock` | ids and timestamps |

mod clock;
pub mod crons;
pub mod doc;
mod graphs;
pub mod ingress;
pub mod queue;
pub mod start;
pub mod threads;
pub mod view;

pub use crons::KeptCron;
pub use doc::{Checkpoint, QueuedRun, Segment, Source, ThreadDoc, ThreadRun};
pub use ingress::{Failure, Ingress};
pub use start::RunStart;
pub use view::{CheckpointView, Interrupt, RunStatus, RunView, StepView};

use graphs::Graphs;

/// LangGraph's threads on a Restate server, for one `switchyard server` replica.
pub struct RestateThreads {
    ingress: Ingress,
    graphs: Graphs,
}

impl RestateThreads {
    /// A client of the ingress at `url`, serving `documents` (the server's graphs).
    pub fn new(url: &str, documents: &[serde_json::Value]) -> Result<RestateThreads, Failure> {
        Ok(RestateThreads { ingress: Ingress::new(url), graphs: Graphs::new(documents)? })
    }

    pub fn ingress(&self) -> &Ingress {
        &self.ingress
    }
}
