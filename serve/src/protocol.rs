//! What the handlers take and give, as JSON. Clients (the `switchyard submit`, `status`,
//! `answer`, `record` and `fork` commands, or anything that speaks HTTP to a Restate ingress)
//! send these bodies.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// `GraphRun/{run id}/run`: a new run.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunRequest {
    /// The graph document; or leave it out and name a registered one by `graph_hash`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub graph: Option<Value>,
    /// The hash (`graph_hash`) of a graph registered before (`GraphStore/{hash}/put`, or any
    /// earlier run of it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub graph_hash: Option<String>,
    /// The run's input (default `{}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<Value>,
    /// The run starts as a fork of another run, as the `fork` handler starts one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fork: Option<ForkOf>,
    /// The state the run starts from instead of the defaults (a thread's next run starts from
    /// the values its previous one left).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<StartState>,
    /// Where the run stops for a look (LangGraph's `interrupt_before` / `interrupt_after`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_at: Option<StopAt>,
    /// At most this many steps, below the graph's own `max_steps` (LangGraph's
    /// `recursion_limit`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_steps: Option<u64>,
}

/// A state to start a run from: values at a checkpoint of an earlier run, and that
/// checkpoint's step counted over the whole chain of runs (it names input messages' ids).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct StartState {
    pub state: Map<String, Value>,
    #[serde(default)]
    pub step: u64,
}

/// Breakpoints of a run: node ids, or `"*"` for every node.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct StopAt {
    #[serde(default)]
    pub before: Vec<String>,
    #[serde(default)]
    pub after: Vec<String>,
}

/// `GraphRun/{run id}/proceed`: what a stopped run goes on with. A run stopped at a breakpoint
/// goes on with no answers; a human node's answer is given as to `answer`. `stop_at` replaces
/// the run's breakpoints from here on.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Proceed {
    #[serde(default)]
    pub answers: Map<String, Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_at: Option<StopAt>,
}

/// `GraphRun/{run id}/progress`: the record so far, and where the run is in its life.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Progress {
    pub record: engine::RunRecord,
    /// How many times the run has stopped to wait (for an answer or at a breakpoint).
    pub stops: u32,
    /// Whether it now waits on its latest stop.
    pub waiting: bool,
    /// Whether it was cancelled (it ended after its current step).
    pub cancelled: bool,
    /// Whether the workflow has ended (completed, failed, limit reached, or cancelled).
    pub ended: bool,
    /// The state the run started from, if not the defaults.
    #[serde(default)]
    pub from: Option<StartState>,
}

/// Where a fork starts: the run it forks (its record and graph as the service keeps them),
/// the step after which it forks, and an update applied there (`--set`). A request never
/// carries a record: a record is the service's own, read back from the run it belongs to, so
/// no client can hand the engine one it made up.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForkOf {
    /// The run to fork (required; a default so that a request with a `record` instead is
    /// refused by name).
    #[serde(default)]
    pub run_id: String,
    pub from_step: u64,
    #[serde(default)]
    pub set: Option<Map<String, Value>>,
    /// The ticket the `fork` handler claimed the new id with (the id of the awakeable it waits
    /// on, resolved once the fork has started, rejected with the reason when it cannot). Only
    /// compared with that claim: a request cannot name an awakeable to complete.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started: Option<String>,
    /// A record sent along (what the service once took here): refused by name, never read.
    #[serde(default, skip_serializing)]
    pub record: Option<serde::de::IgnoredAny>,
}

/// `GraphRun/{run id}/fork`: a new run forked from this one.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForkRequest {
    pub from_step: u64,
    #[serde(default)]
    pub set: Option<Map<String, Value>>,
    /// The new run's id (default: a fresh one).
    #[serde(default)]
    pub run_id: Option<String>,
    /// The fork's breakpoints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_at: Option<StopAt>,
    /// The fork's step limit, as a run's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_steps: Option<u64>,
}
