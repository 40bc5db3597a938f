//! A run record checked against its graph before it is resumed or forked: a record is a file
//! like any other, and a tampered one must be refused with the field at fault, not trusted.
//!
//! Checked: every node a step or the record names exists and is one a step can run (not
//! `start` or `end`); edge indices are in range; step numbers count up from 1; each step's
//! patch applies to the state before it; durations are finite and not negative (a negative
//! one would give the run time back and switch its timeout off).

use serde_json::{Map, Value};

use crate::document::NodeKind;
use crate::plan::Plan;
use crate::record::{RunRecord, StepDoc};
use crate::run::errors::InputError;

fn bad(path: impl Into<String>, message: impl Into<String>) -> InputError {
    InputError { path: path.into(), message: message.into() }
}

/// Checks `record` against `plan`; `initial` is the state before step 1.
pub(super) fn check_record(plan: &Plan, record: &RunRecord, initial: &Map<String, Value>) -> Result<(), InputError> {
    let steps = record.steps.as_deref().unwrap_or_default();
    if record.step != steps.len() as u64 {
        return Err(bad("step", format!("the record has {} steps, but says {}", steps.len(), record.step)));
    }
    for (k, id) in record.next.iter().enumerate() {
        runnable(plan, format!("next[{k}]"), id)?;
    }
    for (k, w) in record.waiting.iter().enumerate() {
        runnable(plan, format!("waiting[{k}].node"), &w.node)?;
    }
    let mut before = initial;
    for (k, s) in steps.iter().enumerate() {
        check_step(plan, k, s, before)?;
        before = &s.state;
    }
    Ok(())
}

fn check_step(plan: &Plan, k: usize, s: &StepDoc, before: &Map<String, Value>) -> Result<(), InputError> {
    let at = |field: &str| format!("steps[{k}].{field}");
    if s.step != k as u64 + 1 {
        return Err(bad(at("step"), format!("expected step {}, found {}", k + 1, s.step)));
    }
    for (field, list) in [
        ("ran", &s.ran),
        ("skipped", &s.skipped),
        ("next", &s.next),
        ("waiting", &s.waiting),
        ("pending_joins", &s.pending_joins),
    ] {
        for (n, id) in list.iter().enumerate() {
            runnable(plan, format!("{}[{n}]", at(field)), id)?;
        }
    }
    for (field, ids) in [
        ("updates", s.updates.keys().collect::<Vec<_>>()),
        ("errors", s.errors.keys().collect()),
        ("details", s.details.keys().collect()),
    ] {
        for id in ids {
            runnable(plan, format!("{}.{id}", at(field)), id)?;
        }
    }
    let edges = plan.graph.edges.len();
    for (n, &e) in s.taken.iter().enumerate() {
        if e >= edges {
            return Err(bad(
                format!("{}[{n}]", at("taken")),
                format!("edge {e} does not exist (the graph has {edges})"),
            ));
        }
    }
    if !s.duration_ms.is_finite() || s.duration_ms < 0.0 {
        return Err(bad(at("duration_ms"), format!("must be a number ≥ 0, found {}", s.duration_ms)));
    }
    if !s.patch.0.is_empty() {
        let mut state = Value::Object(before.clone());
        json_patch::patch(&mut state, &s.patch)
            .map_err(|e| bad(at("patch"), format!("does not apply to the state before the step: {e}")))?;
    }
    Ok(())
}

/// Node `id`, named at `path`, exists and can run in a step.
fn runnable(plan: &Plan, path: String, id: &str) -> Result<(), InputError> {
    let Some(ix) = plan.index(id) else {
        return Err(bad(path, format!("the run mentions node `{id}`, which the graph does not have")));
    };
    match plan.node(ix).kind {
        NodeKind::Start | NodeKind::End => Err(bad(
            path,
            format!("`{id}` is the graph's {} node, which never runs in a step", plan.node(ix).kind.name()),
        )),
        _ => Ok(()),
    }
}
