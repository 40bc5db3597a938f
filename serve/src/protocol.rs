//! What the handlers take and give, as JSON. Clients (the `switchyard submit`, `status`,
//! `answer`, `record` and `fork` commands, or anything that speaks HTTP to a Restate ingress)
//! send these bodies.

use engine::RunRecord;
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
    /// Set by the `fork` handler: the run starts as a fork of this record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fork: Option<Box<ForkFrom>>,
}

/// Where a fork starts: the original's record, the step after which it forks, and an update
/// applied there (`--set`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForkFrom {
    pub record: RunRecord,
    pub from_step: u64,
    #[serde(default)]
    pub set: Option<Map<String, Value>>,
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
