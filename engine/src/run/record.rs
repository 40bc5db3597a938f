//! A run as its [`RunRecord`] (spec 4), and a run rebuilt from one to resume or fork it.

use std::rc::Rc;
use std::sync::Arc;

use serde_json::Value;

use super::Run;
use crate::host::Host;
use crate::plan::Plan;
use crate::record::{RUN_FORMAT, RunRecord, StepDoc, Usage};
use crate::run::errors::InputError;
use crate::run::types::{Status, StepRecord};
use crate::state::State;

impl Run {
    /// The record of this run; `with_steps: false` gives the summary.
    pub fn record(&self, with_steps: bool) -> RunRecord {
        let plan = &self.plan;
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
            outputs: self.live.outputs_by_id(),
            usage: self.usage(),
            errors: self.live.errors_by_id(),
            forked_from: self.forked_from.clone(),
            steps: with_steps.then(|| self.steps.iter().map(|s| step_doc(plan, s)).collect()),
        }
    }

    /// Tokens the providers reported over the run, failed steps included (their calls were
    /// made).
    pub fn usage(&self) -> Usage {
        let mut total = Usage::default();
        for s in &self.steps {
            for (_, d) in &s.details {
                total.add_detail(d);
            }
        }
        total
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
        if record.format != RUN_FORMAT {
            return Err(bad("format", format!("expected \"{RUN_FORMAT}\", found \"{}\"", record.format)));
        }
        let Some(steps) = &record.steps else {
            return Err(bad("steps", "this is a summary (made with --summary); resuming needs the full record"));
        };
        let mut run = Run::start(plan.clone(), Value::Object(record.input.clone()), host)
            .map_err(|e| bad(e.path, format!("the run's input no longer fits the graph: {}", e.message)))?;
        super::verify::check_record(&plan, record, &run.state.to_json())?;
        run.run_id = record.run_id.clone();
        run.forked_from = record.forked_from.clone();
        for (k, s) in steps.iter().enumerate() {
            run.replay(step_record(&plan, k, s)?);
        }
        for (k, id) in record.next.iter().enumerate() {
            index(&plan, format!("next[{k}]"), id)?;
        }
        for (k, w) in record.waiting.iter().enumerate() {
            index(&plan, format!("waiting[{k}].node"), &w.node)?;
        }
        run.status = record.status;
        run.error = record.error.clone();
        run.waiting = record.waiting.clone();
        if run.status == Status::Interrupted && run.waiting_for().is_empty() {
            return Err(bad("status", "the record says the run is interrupted, but no human node waits in `next`"));
        }
        if record.status == Status::Failed && run.steps.is_empty() {
            run.next.clear();
        }
        Ok(run)
    }
}

fn bad(path: impl Into<String>, message: impl Into<String>) -> InputError {
    InputError { path: path.into(), message: message.into() }
}

/// The plan index of node `id`, which the record mentions at `path`.
fn index(plan: &Plan, path: String, id: &str) -> Result<usize, InputError> {
    plan.index(id).ok_or_else(|| bad(path, format!("the run mentions node `{id}`, which the graph does not have")))
}

/// Step `s` (the `k`th of the record) as the run keeps it, node ids turned into plan indices.
fn step_record(plan: &Plan, k: usize, s: &StepDoc) -> Result<StepRecord, InputError> {
    let at = |field: &str| format!("steps[{k}].{field}");
    let ids = |field: &str, list: &[String]| -> Result<Vec<usize>, InputError> {
        list.iter().enumerate().map(|(n, id)| index(plan, format!("{}[{n}]", at(field)), id)).collect()
    };
    let mut updates = Vec::new();
    for (id, u) in &s.updates {
        updates.push((index(plan, at("updates"), id)?, Arc::new(u.clone())));
    }
    updates.sort_by_key(|(i, _)| *i);
    let mut errors = Vec::new();
    for (id, e) in &s.errors {
        errors.push((index(plan, at("errors"), id)?, e.clone()));
    }
    let mut details = Vec::new();
    for (id, d) in &s.details {
        details.push((index(plan, at("details"), id)?, d.clone()));
    }
    if s.step != k as u64 + 1 {
        return Err(bad(at("step"), format!("expected step {}, found {}", k + 1, s.step)));
    }
    Ok(StepRecord {
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
    })
}

/// Step `s` as the record writes it, plan indices turned into node ids.
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
