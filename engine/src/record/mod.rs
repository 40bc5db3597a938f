//! The run record, `switchyard/run@1` (format.md §11): what a run did, step by step, in a
//! form that can be saved, shown, and resumed or forked later. [`crate::Run::record`] writes
//! one and [`crate::Run::from_record`] reads one back; [`snapshots`] says which steps
//! carry their full state and rebuilds the others'.
//!
//! Everything the format holds is declared in this folder, and so is everything that reads a
//! record without running it, as the graph format is in [`crate::document`]. The executor
//! ([`crate::run`]) writes and resumes records through these types and never the other way
//! round: nothing here imports `run` or `effects`.
//!
//! | module | what it holds |
//! |---|---|
//! | `mod.rs` | [`RunRecord`], its steps ([`StepDoc`]), the tokens used ([`Usage`]), [`RUN_FORMAT`] |
//! | `status` | [`Status`], what a run waits for ([`Waiting`], [`WaitingField`], [`Breakpoint`]), [`ForkInfo`] |
//! | `errors` | [`ErrorKind`], a node's [`NodeError`], the [`RunError`] that stops a run, [`InputError`] for input, answers and records that cannot be used |
//! | `instance` | a map instance's name in the record (`<node>[<index>]`, [`split_name`]) and its [`MapItem`] |
//! | [`snapshots`] | which steps carry their full state, and any step's state rebuilt from the nearest snapshot and the patches after it |
//! | `verify` | a record checked against its graph before it is resumed or forked |
//! | `replies` | the reply tape: every effect's request and reply ([`RecordedReply`]), the answers given ([`GivenAnswer`]), how a run replays ([`ReplayMode`], [`ReplayProblem`]) |
//! | [`diff`] | two runs compared step by step ([`diff::diff_runs`]), the first difference in one line |

pub mod diff;
mod errors;
mod instance;
mod replies;
pub mod snapshots;
mod status;
pub(crate) mod verify;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub use self::errors::{ErrorKind, InputError, NodeError, RunError};
pub use self::instance::{MapItem, split_name};
pub use self::replies::{GivenAnswer, RecordedReply, ReplayMode, ReplayProblem, ReplyKind};
pub use self::status::{Breakpoint, ForkInfo, Status, Waiting, WaitingField};
use crate::update::Update;

/// The value of every run record's `format` field.
pub const RUN_FORMAT: &str = "switchyard/run@1";

/// The `$id` of the run record's JSON Schema (`schema/run.schema.json`).
pub const RUN_SCHEMA_ID: &str = "urn:switchyard:run@1";

/// A run record as JSON sees it. Fields beyond the spec's (`errors`, `forked_from`, and in
/// steps `skipped`, `waiting`, `pending_joins`, `taken`, `details`, `map`) carry what an editor
/// shows and what resuming needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(description = "A run record: what a run did, step by step."))]
#[serde(deny_unknown_fields)]
pub struct RunRecord {
    /// The JSON Schema the record says it follows (`"$schema"`).
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    /// Always `switchyard/run@1`: the format and its version.
    pub format: String,
    /// The run's id, given by the host that started it.
    pub run_id: String,
    /// The name of the graph the run belongs to.
    pub graph: String,
    pub status: Status,
    /// The input the run started with.
    pub input: Map<String, Value>,
    /// The state after the last step.
    pub state: Map<String, Value>,
    /// How many steps have run.
    pub step: u64,
    /// The nodes that would run in the next step (map instances as `<node>[<index>]`).
    pub next: Vec<String>,
    /// What the run waits for when it is interrupted; empty otherwise.
    pub waiting: Vec<Waiting>,
    /// Why the run failed or hit a limit; `null` otherwise.
    pub error: Option<RunError>,
    /// Node id → its last updates (at most 5, newest last).
    pub outputs: BTreeMap<String, Vec<Value>>,
    /// Tokens the model providers reported, summed over the run (absent in older records).
    #[serde(default)]
    pub usage: Usage,
    /// Node id → its last error message.
    #[serde(default)]
    pub errors: BTreeMap<String, String>,
    /// The graph version the run belongs to: [`crate::GraphHash`] (absent in older records).
    #[cfg_attr(
        feature = "schema",
        schemars(
            description = "The version of the graph the run belongs to: the SHA-256 (hex) of the graph's canonical JSON, layout left out (absent in older records)."
        )
    )]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub graph_hash: Option<String>,
    /// The hash of each part of that graph, so a changed graph can be named part by part.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub graph_parts: BTreeMap<String, String>,
    /// Where the run was forked from, when it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forked_from: Option<ForkInfo>,
    /// Every step, in order (absent in a summary).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steps: Option<Vec<StepDoc>>,
    /// Every effect's request and reply, in the order they were made: a test replays them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replies: Vec<RecordedReply>,
    /// The answers given to human nodes, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub answers: Vec<GivenAnswer>,
    /// The OpenTelemetry trace id (32 lowercase hex digits) of the run's latest session: its
    /// start, or its last resume. A tracing tool shows the run under this id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace_id: Option<String>,
    /// Every session of the run (its start and each resume), in order: the trace each one
    /// is exported as, and the first step it ran.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub traces: Vec<TraceSession>,
}

/// One session of a run (it started, or was resumed) and the trace it is exported as.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TraceSession {
    /// The session's trace id: 32 lowercase hex digits.
    pub trace_id: String,
    /// The first step the session ran (the step count before it, plus one).
    pub from_step: u64,
}

/// Tokens model providers said a run's calls took (format.md §11): each `llm` step's
/// `details.usage`, summed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Usage {
    /// Tokens sent to the models.
    pub input_tokens: u64,
    /// Tokens the models replied with.
    pub output_tokens: u64,
}

impl Usage {
    /// Adds the `usage` a node's details report, if they report one.
    pub fn add_detail(&mut self, detail: &Value) {
        let u = &detail["usage"];
        self.input_tokens = self.input_tokens.saturating_add(u["input_tokens"].as_u64().unwrap_or(0));
        self.output_tokens = self.output_tokens.saturating_add(u["output_tokens"].as_u64().unwrap_or(0));
    }

    /// Whether no tokens were reported.
    pub fn is_zero(&self) -> bool {
        self.input_tokens == 0 && self.output_tokens == 0
    }
}

/// One step as the run record writes it: nodes by id, map instances as `<node>[<index>]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct StepDoc {
    /// The step's number, from 1.
    pub step: u64,
    /// The nodes that ran, in order.
    pub ran: Vec<String>,
    /// Disabled nodes passed through.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<String>,
    /// What each node that ran wrote: node → `{field: value}`.
    pub updates: BTreeMap<String, Update>,
    /// The nodes that failed, with their errors.
    pub errors: BTreeMap<String, NodeError>,
    /// An RFC 6902 JSON Patch from the state before the step to the state after it.
    #[cfg_attr(feature = "schema", schemars(schema_with = "crate::schema::run::patch"))]
    pub patch: json_patch::Patch,
    /// The state after the step, where the record keeps a snapshot: on the first and last
    /// steps and where the patches since the previous snapshot add up to the size of the state
    /// (every step with `--full-states`). Elsewhere absent: a reader rebuilds it from the
    /// nearest earlier snapshot and the patches after it (`snapshots::state_after`).
    #[cfg_attr(feature = "schema", schemars(schema_with = "crate::schema::run::snapshot"))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<Map<String, Value>>,
    /// The nodes due to run in the following step.
    pub next: Vec<String>,
    /// The items of the map instances in `next`: node id → one `{"as": name, "item": value}`
    /// per instance, in index order. Absent when `next` holds no instance.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub map: BTreeMap<String, Vec<MapItem>>,
    /// Human nodes (or breakpoints) the run waits at after this step.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub waiting: Vec<String>,
    /// `join: all` nodes that some, but not all, of their predecessors have reached.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pending_joins: Vec<String>,
    /// Indices in the graph's `edges` of the edges followed after this step.
    #[serde(default)]
    pub taken: Vec<usize>,
    /// What nodes sent out (rendered prompts, requests), by node.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub details: BTreeMap<String, Value>,
    /// How long the step took, in milliseconds.
    pub duration_ms: f64,
    /// When the step started, in milliseconds since the Unix epoch; absent when the host has
    /// no wall clock (tests, replays offline) and in older records.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_ms: Option<f64>,
    /// When each effect task of the step (`llm`, `http`, `tools`, `subgraph`; map instances
    /// as `<node>[<index>]`) started and ended, `[start_ms, end_ms]` since the Unix epoch.
    /// Only with a wall clock; tasks computed inside the engine take no time worth stamping.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub timings: BTreeMap<String, [f64; 2]>,
    /// Set on a step that failed the run: nothing it did was applied.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub failed: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_written_before_usage_still_read() {
        let old = r#"{"format":"switchyard/run@1","run_id":"r","graph":"g","status":"completed","input":{},
            "state":{},"step":0,"next":[],"waiting":[],"error":null,"outputs":{}}"#;
        let rec: RunRecord = serde_json::from_str(old).expect("an old record reads");
        assert_eq!(rec.usage, Usage::default());
        let written = serde_json::to_value(&rec).expect("a record serializes");
        assert_eq!(written["usage"], serde_json::json!({"input_tokens": 0, "output_tokens": 0}));
    }

    #[test]
    fn usage_adds_what_details_report() {
        let mut u = Usage::default();
        u.add_detail(&serde_json::json!({"usage": {"input_tokens": 3, "output_tokens": 4}}));
        u.add_detail(&serde_json::json!({"prompt": "no usage here"}));
        u.add_detail(&serde_json::json!({"usage": {"input_tokens": 1}}));
        assert_eq!(u, Usage { input_tokens: 4, output_tokens: 4 });
    }
}
