//! Two runs compared step by step (pure, over their records): where they part, and how.
//! Steps are aligned by number; a step differs when the nodes that ran, the edges taken, the
//! nodes due next or the state after it differ. States are rebuilt from the records'
//! snapshots and patches ([`super::snapshots`]), so records with sparse snapshots compare too.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::snapshots::fill_states;
use super::{RunRecord, Status, StepDoc};
use crate::json_eq::canonical;

/// Which of the two runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Side {
    A,
    B,
}

/// How two runs differ. Pairs are `(a, b)`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RunDiff {
    /// The first step that differs, if any does.
    pub first: Option<u64>,
    /// The runs' statuses, when they differ.
    pub status: Option<(Status, Status)>,
    /// Every step that differs, in order.
    pub steps: Vec<StepDiff>,
    /// A JSON Patch from a's final state to b's.
    #[cfg_attr(feature = "schema", schemars(with = "Vec<Value>"))]
    pub state: json_patch::Patch,
}

impl RunDiff {
    /// Whether the runs ended alike and went the same way.
    pub fn is_empty(&self) -> bool {
        self.first.is_none() && self.status.is_none() && self.state.0.is_empty()
    }
}

/// How one step differs between two runs. Each pair is `(a, b)` and present only when the
/// two differ.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StepDiff {
    pub step: u64,
    /// The nodes that ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ran: Option<(Vec<String>, Vec<String>)>,
    /// The edges followed after the step (indices in each graph's `edges`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub taken: Option<(Vec<usize>, Vec<usize>)>,
    /// The nodes due next.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<(Vec<String>, Vec<String>)>,
    /// A JSON Patch from a's state after the step to b's.
    #[cfg_attr(feature = "schema", schemars(with = "Vec<Value>"))]
    pub state: json_patch::Patch,
    /// Set when the step exists in one run only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub only_in: Option<Side>,
}

/// The difference between runs `a` and `b`. Records without steps (summaries) compare by
/// status and final state only.
pub fn diff_runs(a: &RunRecord, b: &RunRecord) -> RunDiff {
    let steps_a = full_steps(a);
    let steps_b = full_steps(b);
    let mut steps = Vec::new();
    for k in 0..steps_a.len().max(steps_b.len()) {
        let d = match (steps_a.get(k), steps_b.get(k)) {
            (Some(x), Some(y)) => compare_step(x, y),
            (Some(x), None) => one_sided(x, Side::A),
            (None, Some(y)) => one_sided(y, Side::B),
            (None, None) => None,
        };
        steps.extend(d);
    }
    RunDiff {
        first: steps.first().map(|s| s.step),
        status: (a.status != b.status).then_some((a.status, b.status)),
        steps,
        state: json_patch::diff(
            &canonical(&Value::Object(a.state.clone())),
            &canonical(&Value::Object(b.state.clone())),
        ),
    }
}

/// One line naming the first difference (`step 3: ran [a] vs [b]`), if there is one.
pub fn describe_first(d: &RunDiff) -> Option<String> {
    if let Some(s) = d.steps.first() {
        return Some(format!("step {}: {}", s.step, describe_step(s)));
    }
    if let Some((a, b)) = d.status {
        return Some(format!("status {} vs {}", a.name(), b.name()));
    }
    d.state.0.first().map(|op| format!("final state differs at {}", path_or_root(op.path().as_str())))
}

/// What differs in step `s`, most telling first.
fn describe_step(s: &StepDiff) -> String {
    if let Some(side) = s.only_in {
        let (which, other) = match side {
            Side::A => ("a", "b"),
            Side::B => ("b", "a"),
        };
        return format!("only {which} has this step ({other} ended before it)");
    }
    if let Some((a, b)) = &s.ran {
        return format!("ran {} vs {}", list(a), list(b));
    }
    if let Some((a, b)) = &s.taken {
        return format!("took edges {a:?} vs {b:?}");
    }
    if let Some(op) = s.state.0.first() {
        return format!("state differs at {}", path_or_root(op.path().as_str()));
    }
    if let Some((a, b)) = &s.next {
        return format!("next {} vs {}", list(a), list(b));
    }
    "differs".into()
}

fn list(names: &[String]) -> String {
    format!("[{}]", names.join(", "))
}

fn path_or_root(path: &str) -> &str {
    if path.is_empty() { "/" } else { path }
}

/// The record's steps, each with its state (rebuilt where the record keeps none). A record
/// whose patches do not rebuild keeps the states it has; the others compare as empty.
fn full_steps(r: &RunRecord) -> Vec<StepDoc> {
    let mut steps = r.steps.clone().unwrap_or_default();
    // The first step always carries a snapshot, so the initial state is never read in
    // records the engine writes; an empty state is the honest guess otherwise.
    let _ = fill_states(&Map::new(), &mut steps);
    steps
}

fn compare_step(a: &StepDoc, b: &StepDoc) -> Option<StepDiff> {
    let pair = |x: &Vec<String>, y: &Vec<String>| (x != y).then(|| (x.clone(), y.clone()));
    let state = json_patch::diff(&canonical(&state_of(a)), &canonical(&state_of(b)));
    let d = StepDiff {
        step: a.step,
        ran: pair(&a.ran, &b.ran),
        taken: (a.taken != b.taken).then(|| (a.taken.clone(), b.taken.clone())),
        next: pair(&a.next, &b.next),
        state,
        only_in: None,
    };
    let same = d.ran.is_none() && d.taken.is_none() && d.next.is_none() && d.state.0.is_empty();
    (!same).then_some(d)
}

fn one_sided(s: &StepDoc, side: Side) -> Option<StepDiff> {
    Some(StepDiff { step: s.step, only_in: Some(side), ..StepDiff::default() })
}

fn state_of(s: &StepDoc) -> Value {
    Value::Object(s.state.clone().unwrap_or_default())
}
