//! A run as its [`RunRecord`] (format.md §11), and a run rebuilt from one to resume or fork it.
//! Steps carry their state where [`crate::record::snapshots`] puts it, or on every step when asked
//! ([`StepStates::Every`]).

use std::rc::Rc;
use std::sync::Arc;

use thin_vec::ThinVec;

use serde_json::Value;

use super::Run;
use crate::host::Host;
use crate::plan::Plan;
use crate::record::snapshots::StepStates;
use crate::record::{InputError, RUN_FORMAT, RunRecord, Status, StepDoc, Usage, split_name};
use crate::run::start::StartFrom;
use crate::run::task::{Fanout, Task};
use crate::run::types::StepRecord;
use crate::state::State;

impl Run {
    /// The record of this run; `with_steps: false` gives the summary. Steps carry their
    /// state where the snapshot rule puts it.
    pub fn record(&self, with_steps: bool) -> RunRecord {
        self.record_with(with_steps, StepStates::Snapshots)
    }

    /// The record of this run, with the steps' states as `states` says.
    pub fn record_with(&self, with_steps: bool, states: StepStates) -> RunRecord {
        self.record_parts(with_steps, states, true)
    }

    /// The record, its reply tape and answers left out unless `with_tape`.
    pub(super) fn record_parts(&self, with_steps: bool, states: StepStates, with_tape: bool) -> RunRecord {
        let plan = &self.plan;
        let (replies, answers) = if with_tape { self.recorded_tape() } else { (Vec::new(), Vec::new()) };
        RunRecord {
            schema: None,
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
            graph_hash: Some(plan.graph_hash().hash.clone()),
            graph_parts: plan.graph_hash().parts.clone(),
            forked_from: self.forked_from.clone(),
            steps: with_steps.then(|| self.complete_step_docs(states)),
            replies,
            answers,
            trace_id: self.trace_id().map(str::to_string),
            traces: self.sessions().to_vec(),
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

    /// Steps `from..` as a record holds them when more steps follow: with their state where
    /// the snapshot rule puts one. An editor showing a live run, or a file kept up to date,
    /// appends these rather than rebuilding the whole record after every step; a complete
    /// record also gives its last step its state ([`Run::record`] does, and
    /// [`crate::record::snapshots::seal`] does it for steps gathered this way).
    pub fn step_docs(&self, from: usize) -> Vec<StepDoc> {
        self.step_docs_with(from, StepStates::Snapshots)
    }

    /// Steps `from..` as a record holds them when more steps follow, with the states `states`
    /// says.
    pub fn step_docs_with(&self, from: usize, states: StepStates) -> Vec<StepDoc> {
        let with_state = |i: usize| self.writes_state(i, states);
        self.steps.iter().enumerate().skip(from).map(|(i, s)| step_doc(&self.plan, s, with_state(i))).collect()
    }

    /// Step `index` (from 0) as the complete record holds it, with the states `states` says
    /// and, on the last step, its state whatever the form: a writer that prints a record
    /// step by step holds one step's state at a time.
    pub fn step_doc(&self, index: usize, states: StepStates) -> Option<StepDoc> {
        let s = self.steps.get(index)?;
        let last = index + 1 == self.steps.len();
        Some(step_doc(&self.plan, s, last || self.writes_state(index, states)))
    }

    /// Every step as the complete record holds it: the last one with its state too.
    fn complete_step_docs(&self, states: StepStates) -> Vec<StepDoc> {
        (0..self.steps.len()).filter_map(|i| self.step_doc(i, states)).collect()
    }

    /// Rebuilds a run from its record, to resume or fork it. The record must hold its steps.
    pub fn from_record(plan: Rc<Plan>, record: &RunRecord, host: &dyn Host) -> Result<Run, InputError> {
        Run::rebuild(plan, record, host, None)
    }

    /// Rebuilds a run that was started with [`Run::start_from`] from `from`: the record
    /// holds the input, not the state it was applied to.
    pub fn from_record_at(
        plan: Rc<Plan>,
        from: StartFrom<'_>,
        record: &RunRecord,
        host: &dyn Host,
    ) -> Result<Run, InputError> {
        Run::rebuild(plan, record, host, Some(from))
    }

    fn rebuild(
        plan: Rc<Plan>,
        record: &RunRecord,
        host: &dyn Host,
        from: Option<StartFrom<'_>>,
    ) -> Result<Run, InputError> {
        if record.format != RUN_FORMAT {
            return Err(bad("format", format!("expected \"{RUN_FORMAT}\", found \"{}\"", record.format)));
        }
        let Some(steps) = &record.steps else {
            return Err(bad("steps", "this is a summary (made with --summary); resuming needs the full record"));
        };
        let input = Value::Object(record.input.clone());
        let started = match from {
            Some(from) => Run::start_from(plan.clone(), from, input, host),
            None => Run::start(plan.clone(), input, host),
        };
        let mut run =
            started.map_err(|e| bad(e.path, format!("the run's input no longer fits the graph: {}", e.message)))?;
        crate::record::verify::check_record(&plan, record)?;
        let states =
            crate::record::snapshots::rebuild_states(&plan.schema, plan.limits.max_state_bytes, &run.state, steps)?;
        run.run_id = record.run_id.clone();
        run.forked_from = record.forked_from.clone();
        run.restore_tape(&record.replies, &record.answers);
        run.restore_sessions(&record.traces, record.status, record.step);
        for (k, (s, state)) in steps.iter().zip(states).enumerate() {
            run.replay_step(step_record(&plan, k, s, state)?);
        }
        for (k, name) in record.next.iter().enumerate() {
            task(&plan, format!("next[{k}]"), name)?;
        }
        for (k, w) in record.waiting.iter().enumerate() {
            index(&plan, format!("waiting[{k}].node"), &w.node)?;
        }
        run.status = record.status;
        run.error = record.error.clone();
        run.waiting = record.waiting.clone();
        run.restore_breakpoint_stop(record)?;
        if run.status == Status::Interrupted && run.waiting_for().is_empty() && !run.at_breakpoint() {
            return Err(bad(
                "status",
                "the record says the run is interrupted, but no human node waits in `next` and no breakpoint stopped it",
            ));
        }
        if record.status == Status::Failed && run.steps.is_empty() {
            run.next.clear();
            run.fanout = Fanout::default();
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

/// The task the record names `name` at `path`: a node id, or `<node>[<index>]`.
pub(super) fn task(plan: &Plan, path: String, name: &str) -> Result<Task, InputError> {
    let Some((id, instance)) = split_name(name) else {
        return Err(bad(path, format!("`{name}` is neither a node id nor an instance name such as `node[0]`")));
    };
    Ok(Task { node: index(plan, path, id)?, instance })
}

/// Entries of `map` (named by task) as the run keeps them, in task order.
fn by_task<T: Clone>(
    plan: &Plan,
    path: impl Fn(&str) -> String,
    map: &std::collections::BTreeMap<String, T>,
) -> Result<ThinVec<(Task, T)>, InputError> {
    let mut out =
        map.iter().map(|(name, v)| Ok((task(plan, path(name), name)?, v.clone()))).collect::<Result<Vec<_>, _>>()?;
    out.sort_by_key(|(t, _)| *t);
    Ok(out.into())
}

/// Step `s` (the `k`th of the record, `state` after it) as the run keeps it, names turned
/// into tasks.
fn step_record(plan: &Plan, k: usize, s: &StepDoc, state: State) -> Result<StepRecord, InputError> {
    let at = |field: &str| format!("steps[{k}].{field}");
    let ids = |field: &str, list: &[String]| -> Result<Vec<usize>, InputError> {
        list.iter().enumerate().map(|(n, id)| index(plan, format!("{}[{n}]", at(field)), id)).collect()
    };
    let tasks = |field: &str, list: &[String]| -> Result<ThinVec<Task>, InputError> {
        list.iter().enumerate().map(|(n, name)| task(plan, format!("{}[{n}]", at(field)), name)).collect()
    };
    let keyed = |field: &'static str| move |name: &str| format!("steps[{k}].{field}.{name}");
    let updates = by_task(plan, keyed("updates"), &s.updates)?.into_iter().map(|(t, u)| (t, Arc::new(u))).collect();
    let errors = by_task(plan, keyed("errors"), &s.errors)?;
    let details = by_task(plan, keyed("details"), &s.details)?;
    let mut map = Vec::new();
    for (id, items) in &s.map {
        map.push((index(plan, format!("{}.{id}", at("map")), id)?, Rc::from(items.as_slice())));
    }
    if s.step != k as u64 + 1 {
        return Err(bad(at("step"), format!("expected step {}, found {}", k + 1, s.step)));
    }
    let next = tasks("next", &s.next)?;
    let timings = by_task(plan, keyed("timings"), &s.timings)?;
    Ok(StepRecord {
        step: s.step,
        ran: tasks("ran", &s.ran)?,
        skipped: tasks("skipped", &s.skipped)?,
        updates,
        errors,
        patch: s.patch.0.clone(),
        state,
        map: map.into_iter().collect::<Fanout>().ordered_as(&next),
        next,
        waiting: ids("waiting", &s.waiting)?.into(),
        pending_joins: ids("pending_joins", &s.pending_joins)?.into(),
        taken: s.taken.clone().into(),
        details,
        duration_ms: s.duration_ms,
        started_ms: s.started_ms,
        timings,
        failed: s.failed,
    })
}

/// Step `s` as the record writes it, tasks turned into names, with its state or without.
pub(super) fn step_doc(plan: &Plan, s: &StepRecord, with_state: bool) -> StepDoc {
    let id = |i: &usize| plan.node(*i).id.to_string();
    let name = |t: &Task| t.name(plan);
    StepDoc {
        step: s.step,
        ran: s.ran.iter().map(name).collect(),
        skipped: s.skipped.iter().map(name).collect(),
        updates: s.updates.iter().map(|(t, u)| (name(t), (**u).clone())).collect(),
        errors: s.errors.iter().map(|(t, e)| (name(t), e.clone())).collect(),
        patch: json_patch::Patch(s.patch.to_vec()),
        state: with_state.then(|| s.state.to_json()),
        next: s.next.iter().map(name).collect(),
        map: s.map.iter().map(|(ix, items)| (id(&ix), items.to_vec())).collect(),
        waiting: s.waiting.iter().map(id).collect(),
        pending_joins: s.pending_joins.iter().map(id).collect(),
        taken: s.taken.to_vec(),
        details: s.details.iter().map(|(t, d)| (name(t), d.clone())).collect(),
        duration_ms: s.duration_ms,
        started_ms: s.started_ms,
        timings: s.timings.iter().map(|(t, span)| (name(t), *span)).collect(),
        failed: s.failed,
    }
}
