//! The run record, `switchyard/run@1` (spec section 4): what a run did, step by step, in a
//! form that can be saved, shown, and resumed or forked later. [`crate::Run::record`] writes
//! one and [`crate::Run::from_record`] reads one back.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::run::errors::{NodeError, RunError};
use crate::run::task::MapItem;
use crate::run::types::{ForkInfo, Status, Waiting};
use crate::update::Update;

/// The value of every run record's `format` field.
pub const RUN_FORMAT: &str = "switchyard/run@1";

/// The `$id` of the run record's JSON Schema (`schema/run.schema.json`).
pub const RUN_SCHEMA_ID: &str = "urn:switchyard:run@1";

/// A run record as JSON sees it. Fields beyond the spec's (`errors`, `forked_from`, and in
/// steps `skipped`, `waiting`, `pending_joins`, `taken`, `details`, `map`) carry what an editor
/// shows and what resuming needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunRecord {
    /// The JSON Schema the record says it follows (`"$schema"`).
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    pub format: String,
    pub run_id: String,
    pub graph: String,
    pub status: Status,
    pub input: Map<String, Value>,
    pub state: Map<String, Value>,
    pub step: u64,
    pub next: Vec<String>,
    pub waiting: Vec<Waiting>,
    pub error: Option<RunError>,
    pub outputs: BTreeMap<String, Vec<Value>>,
    /// Tokens the model providers reported, summed over the run (absent in older records).
    #[serde(default)]
    pub usage: Usage,
    /// Node id → its last error message.
    #[serde(default)]
    pub errors: BTreeMap<String, String>,
    /// The graph version the run belongs to: [`crate::GraphHash`] (absent in older records).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub graph_hash: Option<String>,
    /// The hash of each part of that graph, so a changed graph can be named part by part.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub graph_parts: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forked_from: Option<ForkInfo>,
    /// Absent in a summary.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steps: Option<Vec<StepDoc>>,
}

/// Tokens model providers said a run's calls took (spec 4): each `llm` step's
/// `details.usage`, summed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Usage {
    pub input_tokens: u64,
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
#[serde(deny_unknown_fields)]
pub struct StepDoc {
    pub step: u64,
    pub ran: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<String>,
    pub updates: BTreeMap<String, Update>,
    pub errors: BTreeMap<String, NodeError>,
    pub patch: json_patch::Patch,
    pub state: Map<String, Value>,
    pub next: Vec<String>,
    /// The items of the map instances in `next`: node id → one `{"as": name, "item": value}`
    /// per instance, in index order. Absent when `next` holds no instance.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub map: BTreeMap<String, Vec<MapItem>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub waiting: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pending_joins: Vec<String>,
    /// Indices in the graph's `edges` of the edges followed after this step.
    #[serde(default)]
    pub taken: Vec<usize>,
    /// What nodes sent out (rendered prompts, requests), by node.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub details: BTreeMap<String, Value>,
    pub duration_ms: f64,
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
