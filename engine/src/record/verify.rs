//! A run record checked against its graph before it is resumed or forked: a record is a file
//! like any other, and a tampered one must be refused with the field at fault, not trusted.
//!
//! Checked: every node a step or the record names exists and is one a step can run (not
//! `start` or `end`), and a map instance (`node[i]`) is one of a node some map edge leads to;
//! the map instances in a step's `next` are exactly those its `map` gives items for; edge
//! indices are in range; step numbers count up from 1; durations are finite and not negative
//! (a negative one would give the run time back and switch its timeout off). That each step's
//! patch applies to the state before it, and agrees with the step's snapshot, is checked as
//! the states are rebuilt (`snapshots`).

use std::collections::BTreeSet;

use crate::document::NodeKind;
use crate::plan::Plan;
use crate::record::{InputError, RunRecord, StepDoc, split_name};

fn bad(path: impl Into<String>, message: impl Into<String>) -> InputError {
    InputError { path: path.into(), message: message.into() }
}

/// Checks `record` against `plan`.
pub(crate) fn check_record(plan: &Plan, record: &RunRecord) -> Result<(), InputError> {
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
    for (k, s) in steps.iter().enumerate() {
        check_step(plan, k, s)?;
    }
    Ok(())
}

fn check_step(plan: &Plan, k: usize, s: &StepDoc) -> Result<(), InputError> {
    let at = |field: &str| format!("steps[{k}].{field}");
    if s.step != k as u64 + 1 {
        return Err(bad(at("step"), format!("expected step {}, found {}", k + 1, s.step)));
    }
    for (field, list) in [("ran", &s.ran), ("skipped", &s.skipped), ("next", &s.next)] {
        for (n, name) in list.iter().enumerate() {
            runnable(plan, format!("{}[{n}]", at(field)), name)?;
        }
    }
    // Waiting nodes and joins are nodes, never instances.
    for (field, list) in [("waiting", &s.waiting), ("pending_joins", &s.pending_joins)] {
        for (n, id) in list.iter().enumerate() {
            let path = format!("{}[{n}]", at(field));
            if split_name(id).is_none_or(|(_, i)| i.is_some()) {
                return Err(bad(path, format!("`{id}` is not a node id")));
            }
            runnable(plan, path, id)?;
        }
    }
    check_map(plan, k, s)?;
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
    Ok(())
}

/// The instances in step `s`'s `next` are exactly those its `map` has items for.
fn check_map(plan: &Plan, k: usize, s: &StepDoc) -> Result<(), InputError> {
    let mut instances: BTreeSet<(&str, u32)> = BTreeSet::new();
    for (n, name) in s.next.iter().enumerate() {
        if let Some((id, Some(i))) = split_name(name) {
            let path = format!("steps[{k}].next[{n}]");
            if s.map.get(id).is_none_or(|items| i as usize >= items.len()) {
                return Err(bad(path, format!("`{name}` has no item in the step's `map`")));
            }
            if !instances.insert((id, i)) {
                return Err(bad(path, format!("`{name}` is listed twice")));
            }
        }
    }
    for (id, items) in &s.map {
        let path = format!("steps[{k}].map.{id}");
        runnable(plan, path.clone(), id)?;
        if let Some(i) = (0..items.len() as u32).find(|&i| !instances.contains(&(id.as_str(), i))) {
            return Err(bad(path, format!("has an item for `{id}[{i}]`, which is not in the step's `next`")));
        }
    }
    Ok(())
}

/// Task `name` (a node id or `node[i]`), named at `path`, exists and can run in a step.
fn runnable(plan: &Plan, path: String, name: &str) -> Result<(), InputError> {
    let Some((id, instance)) = split_name(name) else {
        return Err(bad(path, format!("`{name}` is neither a node id nor an instance name such as `node[0]`")));
    };
    let Some(ix) = plan.index(id) else {
        return Err(bad(path, format!("the run mentions node `{id}`, which the graph does not have")));
    };
    let node = plan.node(ix);
    match node.kind {
        NodeKind::Start | NodeKind::End => {
            Err(bad(path, format!("`{id}` is the graph's {} node, which never runs in a step", node.kind.name())))
        }
        _ if instance.is_some() && node.item_names.is_empty() => {
            Err(bad(path, format!("`{name}` is a map instance, but no map edge leads to `{id}`")))
        }
        _ => Ok(()),
    }
}
