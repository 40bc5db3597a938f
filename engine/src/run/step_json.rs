//! A step written as the run record's JSON straight from the run's [`StepRecord`], without
//! building its [`StepDoc`](crate::record::StepDoc) first: the same fields in the same order,
//! left out under the same rules, maps keyed by task name in sorted order as the `StepDoc`'s
//! `BTreeMap`s are. A writer of a long run's record (the CLI prints every step) saves a copy
//! of every update, patch and name. The tests hold it to the `StepDoc`'s JSON.

use std::borrow::Cow;

use serde::ser::{Serialize, SerializeMap, SerializeStruct, Serializer};

use super::Run;
use crate::plan::Plan;
use crate::record::snapshots::StepStates;
use crate::run::task::Task;
use crate::run::types::StepRecord;

impl Run {
    /// Step `index` (from 0) as [`Run::step_doc`] gives it, written as compact JSON onto
    /// `out`. Returns false, writing nothing, when there is no such step.
    pub fn write_step_json(&self, index: usize, states: StepStates, out: &mut Vec<u8>) -> bool {
        let Some(s) = self.steps.get(index) else { return false };
        let last = index + 1 == self.steps.len();
        let step = StepJson { plan: &self.plan, s, with_state: last || self.writes_state(index, states) };
        // Writing into a vector cannot fail, and every part of a step serializes.
        let _ = serde_json::to_writer(out, &step);
        true
    }
}

/// A step of the run as the record writes it.
struct StepJson<'a> {
    plan: &'a Plan,
    s: &'a StepRecord,
    with_state: bool,
}

impl Serialize for StepJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (plan, s) = (self.plan, self.s);
        let mut out = serializer.serialize_struct("StepDoc", 17)?;
        out.serialize_field("step", &s.step)?;
        out.serialize_field("ran", &Names { plan, tasks: &s.ran })?;
        if !s.skipped.is_empty() {
            out.serialize_field("skipped", &Names { plan, tasks: &s.skipped })?;
        }
        out.serialize_field("updates", &ByName::new(plan, s.updates.iter().map(|(t, u)| (*t, &**u))))?;
        out.serialize_field("errors", &ByName::new(plan, s.errors.iter().map(|(t, e)| (*t, e))))?;
        out.serialize_field("patch", &s.patch)?;
        if self.with_state {
            out.serialize_field("state", &s.state.to_json())?;
        }
        out.serialize_field("next", &Names { plan, tasks: &s.next })?;
        if !s.map.is_empty() {
            let map = s.map.iter().map(|(ix, items)| (Task::plain(ix), &**items));
            out.serialize_field("map", &ByName::new(plan, map))?;
        }
        if !s.waiting.is_empty() {
            out.serialize_field("waiting", &Ids { plan, ixs: &s.waiting })?;
        }
        if !s.pending_joins.is_empty() {
            out.serialize_field("pending_joins", &Ids { plan, ixs: &s.pending_joins })?;
        }
        out.serialize_field("taken", &*s.taken)?;
        if !s.details.is_empty() {
            out.serialize_field("details", &ByName::new(plan, s.details.iter().map(|(t, d)| (*t, d))))?;
        }
        out.serialize_field("duration_ms", &s.duration_ms)?;
        if let Some(started) = s.started_ms {
            out.serialize_field("started_ms", &started)?;
        }
        if !s.timings.is_empty() {
            out.serialize_field("timings", &ByName::new(plan, s.timings.iter().map(|(t, span)| (*t, span))))?;
        }
        if s.failed {
            out.serialize_field("failed", &true)?;
        }
        out.end()
    }
}

/// A task's name as the record writes it: its node's id, borrowed, or `<node>[<index>]`.
fn name(plan: &Plan, task: Task) -> Cow<'_, str> {
    match task.instance {
        None => Cow::Borrowed(&plan.node(task.node).id),
        Some(_) => Cow::Owned(task.name(plan)),
    }
}

/// Tasks as a list of names.
struct Names<'a> {
    plan: &'a Plan,
    tasks: &'a [Task],
}

impl Serialize for Names<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.tasks.iter().map(|&t| name(self.plan, t)))
    }
}

/// Nodes (plan indices) as a list of ids.
struct Ids<'a> {
    plan: &'a Plan,
    ixs: &'a [usize],
}

impl Serialize for Ids<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.ixs.iter().map(|&ix| &*self.plan.node(ix).id))
    }
}

/// Values by task, written as a map from task name in name order (a `StepDoc`'s `BTreeMap`).
struct ByName<'a, T: ?Sized> {
    entries: Vec<(Cow<'a, str>, &'a T)>,
}

impl<'a, T: ?Sized> ByName<'a, T> {
    fn new(plan: &'a Plan, entries: impl Iterator<Item = (Task, &'a T)>) -> Self {
        let mut entries: Vec<_> = entries.map(|(t, v)| (name(plan, t), v)).collect();
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        // A map holds a name once: the last entry of a name wins, as in a `BTreeMap`.
        entries.dedup_by(|later, earlier| {
            let same = later.0 == earlier.0;
            if same {
                earlier.1 = later.1;
            }
            same
        });
        ByName { entries }
    }
}

impl<T: Serialize + ?Sized> Serialize for ByName<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.entries.len()))?;
        for (k, v) in &self.entries {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}
