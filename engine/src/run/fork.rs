//! Checkpoints and time travel (format.md §10): every step's record is a checkpoint; a run can
//! be resumed from its last one, or forked from any earlier one, optionally with the state
//! edited there first. Forking never changes the original run.

use serde_json::{Map, Value};

use super::Run;
use crate::host::Host;
use crate::record::{ForkInfo, InputError, RunRecord, Status};
use crate::run::start::check_against_schema;
use crate::run::types::StepRecord;

impl Run {
    /// A new run that starts from checkpoint `step` of this one (0: before step 1), with
    /// `set` applied there through the reducers. This run is not touched.
    pub fn fork(&self, step: u64, set: Option<Map<String, Value>>, host: &dyn Host) -> Result<Run, InputError> {
        let mut run = self.rewind(step)?;
        run.run_id = host.new_run_id();
        run.forked_from = Some(self.fork_info(step, set.clone()));
        run.open_session();
        if let Some(mut set) = set {
            // Messages set here are written by `set` at the checkpoint forked from.
            check_against_schema(&run.plan, set.iter_mut(), "set", run.message_writer("set", step))?;
            let mut patch = Vec::new();
            run.state
                .apply(&run.plan.schema, &set, &mut patch)
                .map_err(|e| InputError { path: format!("set.{}", e.field), message: e.message })?;
            run.pending_patch = patch;
        }
        Ok(run)
    }

    /// Like [`Run::fork`], but `values` are set as they are, whatever the fields' reducers
    /// (an editor's "edit the state here"): appending to a list would not let a person
    /// correct it. Values are still type-checked.
    pub fn fork_with_values(
        &self,
        step: u64,
        mut values: Map<String, Value>,
        host: &dyn Host,
    ) -> Result<Run, InputError> {
        let mut run = self.rewind(step)?;
        run.run_id = host.new_run_id();
        for (k, v) in values.iter_mut() {
            let spec = run.plan.schema.spec(k);
            crate::state::normalize_type(spec.ty, v)
                .map_err(|message| InputError { path: format!("state.{k}"), message })?;
            if spec.ty == crate::document::FieldType::Messages {
                // Checked just above: this only gives ids to messages edited in without one.
                let _ = crate::messages::normalize_list(v, Some(run.message_writer("set", step)));
            }
        }
        run.forked_from = Some(self.fork_info(step, Some(values.clone())));
        run.open_session();
        let mut patch = Vec::new();
        run.state.overwrite(&run.plan.schema, values.iter(), &mut patch);
        run.pending_patch = patch;
        Ok(run)
    }

    /// Where a fork of this run from checkpoint `step` comes from, with the trace that ran it.
    fn fork_info(&self, step: u64, set: Option<Map<String, Value>>) -> ForkInfo {
        let trace_id = self.session_of_step(step).map(|s| s.trace_id.clone());
        ForkInfo { run_id: self.run_id.clone(), step, set, trace_id }
    }

    /// Continues a run that stopped: a failed run retries its failed step from the last good
    /// checkpoint; an interrupted run waits for [`Run::answer`]; a run stopped at the step
    /// limit carries on if the graph's limit has been raised.
    pub fn resume(&mut self) {
        match self.status {
            Status::Failed => {
                let last_good = self.last_good_step();
                if let Ok(mut rewound) = self.rewind(last_good) {
                    self.hand_tape_to(&mut rewound, last_good);
                    rewound.run_id = std::mem::take(&mut self.run_id);
                    rewound.forked_from = self.forked_from.take();
                    rewound.answers = std::mem::take(&mut self.answers);
                    *self = rewound;
                    self.open_session();
                }
            }
            Status::LimitReached
                if self.step_count() < self.plan.limits.max_steps
                    && self.record_size() <= self.plan.limits.max_record_bytes =>
            {
                self.status = Status::Running;
                self.error = None;
                self.open_session();
            }
            _ => {}
        }
    }

    /// The checkpoint before the failed step (the last one whose state is good).
    fn last_good_step(&self) -> u64 {
        if self.steps.last().is_some_and(|s| s.failed) { self.step_count() - 1 } else { self.step_count() }
    }

    /// A copy of this run as it was at checkpoint `step`.
    fn rewind(&self, step: u64) -> Result<Run, InputError> {
        let path = "from_step".to_string();
        if step > self.step_count() {
            return Err(InputError {
                path,
                message: format!("the run has {} steps; cannot start from step {step}", self.step_count()),
            });
        }
        let keep = usize::try_from(step).unwrap_or(usize::MAX);
        if keep > 0 && keep == self.steps.len() && self.status == Status::Failed && self.last_good_step() < step {
            return Err(InputError {
                path,
                message: format!(
                    "step {step} failed, so it has no checkpoint; fork from step {} to retry it",
                    step - 1
                ),
            });
        }
        let mut run = Run::blank(self.plan.clone(), self.run_id.clone(), self.input.clone(), self.initial.clone());
        run.initial_next = self.initial_next.clone();
        run.initial_taken = self.initial_taken.clone();
        run.next = self.initial_next.iter().copied().collect();
        run.fanout = self.initial_fanout.clone();
        run.initial_fanout = self.initial_fanout.clone();
        run.forked_from = self.forked_from.clone();
        run.breakpoints = self.breakpoints.clone();
        run.chain_step = self.chain_step;
        (run.tape, run.given) = self.tape_until(step);
        run.mark_ran(self.plan.start);
        for s in &self.steps[..keep] {
            run.replay_step(s.clone());
        }
        // A step that went into a failing end ends the rewound run there too.
        let taken = if keep == 0 { Some(&run.initial_taken[..]) } else { run.steps.last().map(|s| &s.taken[..]) };
        if let Some(end) = taken.and_then(|t| run.failing_end(t)) {
            run.end_failed(end, step);
        } else if run.nothing_next() {
            run.status = if run.pending_joins.is_empty() { Status::Completed } else { Status::Failed };
            if let Some(&j) = run.pending_joins.iter().next() {
                run.error = Some(run.join_error(j));
            }
        }
        Ok(run)
    }

    /// Brings the bookkeeping up to date with a recorded step.
    pub(super) fn replay_step(&mut self, s: StepRecord) {
        if s.failed {
            self.live.remember_errors(&s);
            self.active_ms += s.duration_ms;
            self.set_next(&s);
            self.push_step(s);
            return;
        }
        self.replay_suspended(&s);
        self.live.remember(&s);
        self.count_ran(&s.ran, &s.skipped);
        self.active_ms += s.duration_ms;
        self.state = s.state.clone();
        self.set_next(&s);
        self.pending_joins = s.pending_joins.iter().copied().collect();
        self.push_step(s);
    }

    /// What runs after recorded step `s`: its `next`, the map instances with their items.
    fn set_next(&mut self, s: &StepRecord) {
        self.next = s.next.iter().filter(|t| t.instance.is_none()).map(|t| t.node).collect();
        self.fanout = s.map.clone();
    }

    /// A subgraph that stopped for a human in step `s` waits with its record; one that ran
    /// to its end no longer does. (A map instance never waits.)
    fn replay_suspended(&mut self, s: &StepRecord) {
        for &task in s.ran.iter().filter(|t| t.instance.is_none()) {
            let ix = task.node;
            let record = s
                .details
                .iter()
                .find(|(t, _)| *t == task)
                .and_then(|(_, d)| serde_json::from_value::<RunRecord>(d["subgraph"].clone()).ok());
            match record {
                Some(r) if s.waiting.contains(&ix) && r.status == Status::Interrupted => {
                    self.suspended.borrow_mut().insert(ix, r);
                }
                _ => {
                    self.suspended.borrow_mut().remove(&ix);
                }
            }
        }
    }
}
