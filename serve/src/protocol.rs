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
}
