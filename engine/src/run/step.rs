//! One superstep (format.md §10–3.4): the active nodes and map instances run against the same
//! snapshot of the state; their updates are type-checked, checked for conflicts, applied in
//! step order (the nodes by id, then the instances in the order their map edges were taken,
//! as LangGraph applies its `Send` tasks after the others) and routed in that order; then the
//! step is committed as a checkpoint, or, when anything fails, kept as a failed step that
//! changed nothing.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use json_patch::PatchOperation;

use super::Run;
use crate::document::{OnError, Reducer};
use crate::effects::Deadline;
use crate::host::Host;
use crate::record::{ErrorKind, NodeError, RunError, Status};
use crate::run::map::Targets;
use crate::run::outcome::Outcome;
use crate::run::start::check_against_schema;
use crate::run::task::Task;
use crate::run::types::StepRecord;
use crate::update::Update;

/// Each task that ran in a step, in step order, with what it did.
type Results = Vec<(Task, Outcome)>;

/// The wall-clock start and end of each effect task of a step.
type Timings = thin_vec::ThinVec<(Task, [f64; 2])>;

impl Run {
    /// Steps until the run stops. A run stopped at a breakpoint goes on past it.
    pub async fn run(&mut self, host: &dyn Host) {
        self.pass_breakpoint();
        while self.status == Status::Running {
            self.step(host).await;
        }
    }

    /// Runs one superstep (passing the breakpoint the run stopped at, if it did). When the
    /// run stops (completed, failed, interrupted, at a limit), its MCP sessions are closed; a
    /// run that goes on later opens new ones.
    pub async fn step(&mut self, host: &dyn Host) {
        let before = self.step_count();
        self.superstep(host).await;
        if self.step_count() > before {
            self.session_ran();
        }
        self.close_session_if_stopped();
        if self.status != Status::Running && self.owns_mcp {
            self.mcp.close(host).await;
        }
    }

    async fn superstep(&mut self, host: &dyn Host) {
        self.pass_breakpoint();
        if self.status != Status::Running {
            return;
        }
        self.open_session();
        let t0 = host.now_ms();
        // The step's wall-clock start, read once: a trace shows when it ran.
        let started_ms = host.epoch_ms();
        if self.stop_before_step() {
            return;
        }
        let step_no = self.step_count() + 1;
        if self.owns_tape {
            self.tape.set_step(step_no);
        }
        let (waiting, tasks) = self.tasks();
        self.refresh_context(step_no);
        Deadline::new(&self.plan.limits, self.active_ms, t0).within(self.enclosing).arm(
            self.plan.scripting.guard(),
            host,
            None,
        );
        if self.stop_before(&tasks, &waiting) || !self.show_waiting(&waiting, tasks.is_empty()) {
            return;
        }

        let deadline = Deadline::new(&self.plan.limits, self.active_ms, t0).within(self.enclosing);
        let (mut results, timings) = self.exec_all(&tasks, host, deadline, started_ms.is_some()).await;
        // Routing's `when` expressions run under what is left of the run's time.
        deadline.arm(self.plan.scripting.guard(), host, None);
        for task in tasks.iter().filter(|t| t.instance.is_none()) {
            self.answers.remove(&task.node);
        }
        self.check_types(&mut results, step_no);
        let mut record = StepRecord::new(step_no, self.state.clone(), &waiting);
        record.started_ms = started_ms;
        record.timings = timings;
        collect(&mut record, &mut results);

        // A failure with on_error: fail stops the run, as do two writers of one `replace`
        // field; the step's updates are not applied.
        if let Some((culprit, error)) = self.fatal(&results).or_else(|| self.find_conflict(&record.updates, step_no)) {
            self.fail_step(record, Some(culprit), error, t0, host);
            return;
        }
        let before = self.state.clone();
        let patch = match self.apply_updates(&record) {
            Ok(patch) => patch,
            Err((culprit, error)) => {
                self.state = before;
                self.fail_step(record, culprit, error, t0, host);
                return;
            }
        };
        let targets = match self.route_step(&results, &mut record, step_no) {
            Ok(targets) => targets,
            Err(e) => {
                self.state = before;
                let culprit = e.node.as_deref().and_then(|n| self.plan.index(n)).map(Task::plain);
                record.taken.clear();
                self.fail_step(record, culprit, NodeError { kind: e.kind, message: e.message }, t0, host);
                return;
            }
        };
        record.patch = patch;
        self.pending_patch.clear();
        let suspended_now = self.commit(record, results, targets, &waiting, t0, host);
        if let Some(end) = self.steps.last().and_then(|s| self.failing_end(&s.taken)) {
            self.end_failed(end, step_no);
            return;
        }
        self.settle(!waiting.is_empty() || suspended_now);
        self.stop_after();
    }

    /// Stops the run before a step when it is out of time or steps; whether it stopped.
    fn stop_before_step(&mut self) -> bool {
        let limits = self.plan.limits;
        if self.active_ms > limits.run_timeout_ms as f64 {
            self.status = Status::Failed;
            self.error = Some(RunError {
                node: None,
                kind: ErrorKind::Timeout,
                message: format!("the run took longer than run_timeout_ms ({} ms)", limits.run_timeout_ms),
            });
            return true;
        }
        if self.step_count() >= limits.max_steps && !self.nothing_next() {
            self.stop_at_limit();
            return true;
        }
        if self.record_size() > limits.max_record_bytes && !self.nothing_next() {
            self.status = Status::LimitReached;
            self.error = Some(RunError {
                node: None,
                kind: ErrorKind::Limit,
                message: format!(
                    "stopped after {} steps: the run's record passed max_record_bytes ({} bytes); {} would run next",
                    self.step_count(),
                    limits.max_record_bytes,
                    self.next_ids().join(", ")
                ),
            });
            return true;
        }
        false
    }

    /// Renders what waits in this step. Returns whether the step goes on: not when a prompt
    /// fails to render, nor when nothing but waiting nodes is active (the run is then
    /// interrupted).
    fn show_waiting(&mut self, waiting: &[usize], nothing_else: bool) -> bool {
        if waiting.is_empty() {
            self.waiting.clear();
            return true;
        }
        match self.render_waiting(waiting) {
            Ok(w) => self.waiting = w,
            Err((ix, error)) => {
                self.fail_without_step(ix, error);
                return false;
            }
        }
        if nothing_else {
            self.status = Status::Interrupted;
            return false;
        }
        true
    }

    /// What this step does: the human nodes (and suspended subgraphs) that wait for an
    /// answer, and the tasks that run, in step order (the active nodes that do not wait, by
    /// id, then the map instances due, in the order their edges were taken).
    fn tasks(&self) -> (Vec<usize>, Vec<Task>) {
        let mut waiting = Vec::new();
        let mut tasks = Vec::with_capacity(self.next.len());
        for &ix in &self.next {
            if self.needs_answer(ix) {
                waiting.push(ix);
            } else {
                tasks.push(Task::plain(ix));
            }
        }
        tasks.extend(self.fanout.tasks());
        (waiting, tasks)
    }

    /// Runs the step's tasks at the same time, against the same snapshot: those computed
    /// inside the engine one after the other (none waits), then the effects concurrently.
    /// The results are in the order of `tasks`; with `stamp`, each effect's wall-clock start
    /// and end too (two clock readings per effect, none for the others).
    async fn exec_all(&self, tasks: &[Task], host: &dyn Host, deadline: Deadline, stamp: bool) -> (Results, Timings) {
        let mut results = Vec::with_capacity(tasks.len());
        let mut effects = Vec::new();
        for (at, &task) in tasks.iter().enumerate() {
            match self.exec_now(task, host, deadline) {
                Some(outcome) => results.push((at, task, outcome)),
                None => effects.push((at, task)),
            }
        }
        let mut timings = Timings::new();
        if !effects.is_empty() {
            let outcomes = if let [(_, only)] = effects[..] {
                vec![self.exec_timed(only, host, deadline, stamp).await]
            } else {
                let futures = effects.iter().map(|&(_, t)| self.exec_timed(t, host, deadline, stamp));
                futures_util::future::join_all(futures).await
            };
            let computed = results.len();
            for ((at, t), (o, span)) in effects.into_iter().zip(outcomes) {
                if let Some(span) = span {
                    timings.push((t, span));
                }
                results.push((at, t, o));
            }
            if computed > 0 {
                results.sort_by_key(|(at, _, _)| *at);
            }
        }
        (results.into_iter().map(|(_, task, outcome)| (task, outcome)).collect(), timings)
    }

    /// Runs an effect's task, with its wall-clock start and end when `stamp`.
    async fn exec_timed(
        &self,
        task: Task,
        host: &dyn Host,
        deadline: Deadline,
        stamp: bool,
    ) -> (Outcome, Option<[f64; 2]>) {
        let start = if stamp { host.epoch_ms() } else { None };
        let outcome = self.exec_effect(task, host, deadline).await;
        let span = start.and_then(|s| host.epoch_ms().map(|e| [s, e.max(s)]));
        (outcome, span)
    }

    /// Type-checks every update before anything is applied: a bad one fails its node.
    /// Messages a node writes without an id get theirs here, named after the task (an
    /// instance's messages must not take each other's ids).
    fn check_types(&self, results: &mut Results, step_no: u64) {
        for (task, outcome) in results {
            let Outcome::Update { update, detail, .. } = outcome else { continue };
            // An instance's name is only spelled out when it writes messages (their ids carry
            // it): a thousand instances should not cost a thousand names otherwise.
            let writes_messages = || update.keys().any(|k| self.plan.schema.spec(k).reducer == Reducer::Messages);
            let name: Cow<'_, str> = match task.instance {
                Some(_) if writes_messages() => Cow::Owned(task.name(&self.plan)),
                _ => Cow::Borrowed(&self.plan.node(task.node).id),
            };
            let writer = self.message_writer(&name, step_no);
            if let Err(e) = check_against_schema(&self.plan, update.iter_mut(), "", writer) {
                let error = NodeError {
                    kind: ErrorKind::Type,
                    message: format!(
                        "node `{}` wrote `{}`: {}",
                        task.name(&self.plan),
                        e.path.trim_start_matches('.'),
                        e.message
                    ),
                };
                *outcome = Outcome::Failed { error, detail: detail.take() };
            }
        }
    }

    /// The first task that failed with `on_error: fail`, with its error.
    fn fatal(&self, results: &Results) -> Option<(Task, NodeError)> {
        results.iter().find_map(|(task, o)| match o {
            Outcome::Failed { error, .. } if self.plan.node(task.node).on_error == OnError::Fail => {
                Some((*task, error.clone()))
            }
            _ => None,
        })
    }

    /// The second writer (in step order) of a `replace` field some other task also wrote:
    /// two nodes, two instances of one node, or a node and an instance.
    fn find_conflict(&self, updates: &[(Task, Arc<Update>)], step_no: u64) -> Option<(Task, NodeError)> {
        let plan = &self.plan;
        let mut writers: BTreeMap<&str, Task> = BTreeMap::new();
        for (task, update) in updates {
            for key in update.keys() {
                if plan.schema.spec(key).reducer != Reducer::Replace {
                    continue;
                }
                if let Some(prev) = writers.insert(key, *task) {
                    let message = format!(
                        "`{}` and `{}` both wrote `{key}` in step {step_no}; a `replace` field takes one write per step (give it a reducer such as `append`, or let one node write it)",
                        prev.name(plan),
                        task.name(plan)
                    );
                    return Some((*task, NodeError { kind: ErrorKind::Conflict, message }));
                }
            }
        }
        None
    }

    /// Applies the step's updates in step order, through the reducers; the patch from
    /// the last checkpoint's state. The caller restores the state when a reducer refuses an
    /// update (the task that wrote it is the culprit) or the new state is too big (the first
    /// task that ran is).
    fn apply_updates(&mut self, record: &StepRecord) -> Result<Vec<PatchOperation>, (Option<Task>, NodeError)> {
        // Kept until the step commits: a failed step records the edit too (its state has it).
        let mut patch = self.pending_patch.clone();
        for (task, update) in &record.updates {
            if let Err(e) = self.state.apply(&self.plan.schema, update.iter(), &mut patch) {
                let message = format!("node `{}` wrote `{}`: {}", task.name(&self.plan), e.field, e.message);
                return Err((Some(*task), NodeError { kind: ErrorKind::Type, message }));
            }
        }
        let size = self.state.serialized_len();
        let max = self.plan.limits.max_state_bytes;
        if size as u64 > max {
            let message = format!("the state would grow to {size} bytes, over max_state_bytes ({max})");
            return Err((record.ran.first().copied(), NodeError { kind: ErrorKind::StateSize, message }));
        }
        Ok(patch)
    }

    /// Routing, on the state after the step: the targets of every node's followed edges,
    /// once per node however many instances of it ran, the nodes in the order they first
    /// ran in the step (so the next step's instances come in the order LangGraph sends them).
    /// This step's updates and errors are shown to `when` expressions as pending, and
    /// committed only if routing succeeds.
    fn route_step(&self, results: &Results, record: &mut StepRecord, step_no: u64) -> Result<Targets, RunError> {
        self.refresh_context(step_no);
        self.live.swap_pending(record);
        let mut targets = Targets::default();
        let mut route_error = None;
        for (ix, outcomes) in by_node(results) {
            if let Err(e) = self.route_node(ix, outcomes.into_iter(), &mut targets, &mut record.taken) {
                route_error.get_or_insert(e);
            }
        }
        self.live.swap_pending(record);
        match route_error {
            Some(e) => Err(e),
            None => Ok(targets),
        }
    }

    /// Commits the step: outputs history, last errors, join progress, the next active set,
    /// suspended subgraphs, and the step record. Returns whether a subgraph suspended.
    fn commit(
        &mut self,
        mut record: StepRecord,
        results: Results,
        targets: Targets,
        waiting: &[usize],
        t0: f64,
        host: &dyn Host,
    ) -> bool {
        self.live.remember(&record);
        self.count_ran(&record.ran, &record.skipped);
        record.state = self.state.clone();
        self.activate(targets);
        self.next.extend(waiting.iter().copied());
        let mut suspended_now = false;
        for (task, o) in results {
            if let Outcome::Suspended { record: child, waiting: w, .. } = o {
                self.suspended.borrow_mut().insert(task.node, *child);
                self.waiting.push(w);
                self.next.insert(task.node);
                suspended_now = true;
            }
        }
        record.next = self.next_tasks();
        record.map = self.fanout.clone();
        record.pending_joins = self.pending_joins.iter().copied().collect();
        record.taken.sort_unstable();
        record.duration_ms = (host.now_ms() - t0).max(0.0);
        self.active_ms += record.duration_ms;
        self.push_step(record);
        suspended_now
    }

    /// The run's status after a committed step: completed (or failed on a waiting join)
    /// when nothing is active, stopped at the step limit, or interrupted when something
    /// waits for an answer.
    fn settle(&mut self, something_waits: bool) {
        if self.nothing_next() {
            if let Some(&j) = self.pending_joins.iter().next() {
                self.status = Status::Failed;
                self.error = Some(self.join_error(j));
            } else {
                self.status = Status::Completed;
            }
        } else if self.step_count() >= self.plan.limits.max_steps {
            self.stop_at_limit();
        } else if something_waits {
            self.status = Status::Interrupted;
        }
    }

    /// Stops the run at `max_steps`, naming what would run next.
    fn stop_at_limit(&mut self) {
        let limit = self.plan.limits.max_steps;
        self.status = Status::LimitReached;
        self.error = Some(RunError {
            node: None,
            kind: ErrorKind::Limit,
            message: format!("stopped after max_steps ({limit}) steps; {} would run next", self.next_ids().join(", ")),
        });
    }

    /// Fails the run before the step starts (a waiting node's prompt does not render).
    pub(super) fn fail_without_step(&mut self, ix: usize, error: NodeError) {
        self.status = Status::Failed;
        self.error =
            Some(RunError { node: Some(self.plan.node(ix).id.to_string()), kind: error.kind, message: error.message });
    }

    /// Ends the run with a failed step: the state stays as it was before the step, and `next`
    /// keeps the step's nodes so that continuing retries it.
    fn fail_step(&mut self, mut record: StepRecord, task: Option<Task>, error: NodeError, t0: f64, host: &dyn Host) {
        if let Some(t) = task
            && !record.errors.iter().any(|(i, _)| *i == t)
        {
            record.errors.push((t, error.clone()));
        }
        record.duration_ms = (host.now_ms() - t0).max(0.0);
        self.active_ms += record.duration_ms;
        record.state = self.state.clone();
        // Nothing the step did is applied; a fork's edit made before it is, and shows here.
        record.patch = self.pending_patch.clone();
        record.failed = true;
        record.next = self.next_tasks();
        record.map = self.fanout.clone();
        self.live.remember_errors(&record);
        self.push_step(record);
        self.status = Status::Failed;
        self.error =
            Some(RunError { node: task.map(|t| t.name(&self.plan)), kind: error.kind, message: error.message });
    }
}

/// Each node's outcomes in the step (its own run and its instances), the nodes in the order
/// they first appear in `results`.
fn by_node(results: &Results) -> Vec<(usize, Vec<&Outcome>)> {
    let mut groups: Vec<(usize, Vec<&Outcome>)> = Vec::new();
    let mut group_of: HashMap<usize, usize> = HashMap::new();
    for (task, outcome) in results {
        let g = *group_of.entry(task.node).or_insert_with(|| {
            groups.push((task.node, Vec::new()));
            groups.len() - 1
        });
        groups[g].1.push(outcome);
    }
    groups
}

/// Files each node's result in the step record: who ran or was skipped, updates, errors,
/// details, and subgraphs that now wait.
fn collect(record: &mut StepRecord, results: &mut Results) {
    for (task, outcome) in results {
        let task = *task;
        match outcome {
            Outcome::Bypass => record.skipped.push(task),
            Outcome::Update { update, detail, .. } => {
                record.ran.push(task);
                record.updates.push((task, Arc::new(std::mem::take(update))));
                if let Some(d) = detail.take() {
                    record.details.push((task, d));
                }
            }
            Outcome::Failed { error, detail } => {
                record.ran.push(task);
                record.errors.push((task, error.clone()));
                if let Some(d) = detail.take() {
                    record.details.push((task, d));
                }
            }
            Outcome::Suspended { detail, .. } => {
                record.ran.push(task);
                record.waiting.push(task.node);
                record.details.push((task, std::mem::take(detail)));
            }
        }
    }
}
