//! The run record, `switchyard/run@1` (spec section 4): what a run did, step by step, in a
//! form that can be saved, shown, and resumed or forked later.

use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::host::Host;
use crate::plan::Plan;
use crate::run::{ForkInfo, InputError, NodeError, Run, RunError, Status, StepRecord, Waiting};
use crate::state::State;
use crate::update::Update;

pub const RUN_FORMAT: &str = "switchyard/run@1";

/// A run record as JSON sees it. Fields beyond the spec's (`errors`, `forked_from`, and in
/// steps `skipped`, `waiting`, `pending_joins`, `taken`, `details`) carry what an editor shows
/// and what resuming needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunRecord {
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
    /// Node id → its last error message.
    #[serde(default)]
    pub errors: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forked_from: Option<ForkInfo>,
    /// Absent in a summary.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steps: Option<Vec<StepDoc>>,
}

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

impl Run {
    /// The record of this run; `with_steps: false` gives the summary.
    pub fn record(&self, with_steps: bool) -> RunRecord {
        let plan = &self.plan;
        let id = |i: usize| plan.node(i).id.to_string();
        let outputs = self
            .live
            .outputs
            .borrow()
            .iter()
            .enumerate()
            .filter(|(_, h)| !h.is_empty())
            .map(|(i, h)| (id(i), h.iter().map(|u| Value::Object(u.to_map())).collect()))
            .collect();
        let errors = self
            .live
            .errors
            .borrow()
            .iter()
            .enumerate()
            .filter_map(|(i, e)| e.as_ref().map(|e| (id(i), e.clone())))
            .collect();
        RunRecord {
            format: RUN_FORMAT.into(),
            run_id: self.run_id.clone(),
            graph: plan.graph.display_name().to_string(),
            status: self.status,
            input: (*self.input).clone(),
            state: self.state.to_json(),
            step: self.step_count(),
            next: if matches!(self.status, Status::Completed) { Vec::new() } else { self.next_ids() },
            waiting: if self.status == Status::Interrupted { self.waiting.clone() } else { Vec::new() },
            error: self.error.clone(),
            outputs,
            errors,
            forked_from: self.forked_from.clone(),
            steps: with_steps.then(|| self.steps.iter().map(|s| step_doc(plan, s)).collect()),
        }
    }

    /// Steps `from..` as they appear in the record: an editor showing a live run appends
    /// these rather than rebuilding the whole record after every step.
    pub fn step_docs(&self, from: usize) -> Vec<StepDoc> {
        self.steps.iter().skip(from).map(|s| step_doc(&self.plan, s)).collect()
    }

    /// The record as pretty JSON.
    pub fn record_json(&self, with_steps: bool) -> String {
        serde_json::to_string_pretty(&self.record(with_steps)).unwrap_or_default()
    }

    /// Rebuilds a run from its record, to resume or fork it. The record must hold its steps.
    pub fn from_record(plan: Rc<Plan>, record: &RunRecord, host: &dyn Host) -> Result<Run, InputError> {
        let bad = |path: String, message: String| InputError { path, message };
        if record.format != RUN_FORMAT {
            return Err(bad("format".into(), format!("expected \"{RUN_FORMAT}\", found \"{}\"", record.format)));
        }
        let Some(steps) = &record.steps else {
            return Err(bad(
                "steps".into(),
                "this is a summary (made with --summary); resuming needs the full record".into(),
            ));
        };
        let mut run = Run::start(plan.clone(), Value::Object(record.input.clone()), host)
            .map_err(|e| bad(e.path.clone(), format!("the run's input no longer fits the graph: {}", e.message)))?;
        run.run_id = record.run_id.clone();
        run.forked_from = record.forked_from.clone();
        let index = |path: String, id: &str| -> Result<usize, InputError> {
            plan.index(id)
                .ok_or_else(|| bad(path, format!("the run mentions node `{id}`, which the graph does not have")))
        };
        for (k, s) in steps.iter().enumerate() {
            let at = |field: &str| format!("steps[{k}].{field}");
            let ids = |field: &str, list: &[String]| -> Result<Vec<usize>, InputError> {
                list.iter().enumerate().map(|(n, id)| index(format!("{}[{n}]", at(field)), id)).collect()
            };
            let mut updates = Vec::new();
            for (id, u) in &s.updates {
                updates.push((index(at("updates"), id)?, Arc::new(u.clone())));
            }
            updates.sort_by_key(|(i, _)| *i);
            let mut errors = Vec::new();
            for (id, e) in &s.errors {
                errors.push((index(at("errors"), id)?, e.clone()));
            }
            let mut details = Vec::new();
            for (id, d) in &s.details {
                details.push((index(at("details"), id)?, d.clone()));
            }
            if s.step != k as u64 + 1 {
                return Err(bad(at("step"), format!("expected step {}, found {}", k + 1, s.step)));
            }
            run.replay(StepRecord {
                step: s.step,
                ran: ids("ran", &s.ran)?.into(),
                skipped: ids("skipped", &s.skipped)?.into(),
                updates: updates.into(),
                errors: errors.into(),
                patch: s.patch.0.clone(),
                state: State::from_json(&plan.schema, &s.state),
                next: ids("next", &s.next)?.into(),
                waiting: ids("waiting", &s.waiting)?.into(),
                pending_joins: ids("pending_joins", &s.pending_joins)?.into(),
                taken: s.taken.clone().into(),
                details: details.into(),
                duration_ms: s.duration_ms,
                failed: s.failed,
            });
        }
        for (k, id) in record.next.iter().enumerate() {
            index(format!("next[{k}]"), id)?;
        }
        for (k, w) in record.waiting.iter().enumerate() {
            index(format!("waiting[{k}].node"), &w.node)?;
        }
        run.status = record.status;
        run.error = record.error.clone();
        run.waiting = record.waiting.clone();
        if run.status == Status::Interrupted && run.waiting_for().is_empty() {
            return Err(bad(
                "status".into(),
                "the record says the run is interrupted, but no human node waits in `next`".into(),
            ));
        }
        if record.status == Status::Failed && run.steps.is_empty() {
            run.next.clear();
        }
        Ok(run)
    }
}

fn step_doc(plan: &Plan, s: &StepRecord) -> StepDoc {
    let id = |i: &usize| plan.node(*i).id.to_string();
    StepDoc {
        step: s.step,
        ran: s.ran.iter().map(id).collect(),
        skipped: s.skipped.iter().map(id).collect(),
        updates: s.updates.iter().map(|(i, u)| (id(i), (**u).clone())).collect(),
        errors: s.errors.iter().map(|(i, e)| (id(i), e.clone())).collect(),
        patch: json_patch::Patch(s.patch.to_vec()),
        state: s.state.to_json(),
        next: s.next.iter().map(id).collect(),
        waiting: s.waiting.iter().map(id).collect(),
        pending_joins: s.pending_joins.iter().map(id).collect(),
        taken: s.taken.to_vec(),
        details: s.details.iter().map(|(i, d)| (id(i), d.clone())).collect(),
        duration_ms: s.duration_ms,
        failed: s.failed,
    }
}
