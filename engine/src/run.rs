//! The executor: supersteps, routing, joins, interrupts, checkpoints, resume and fork
//! (spec section 3).
//!
//! A [`Run`] advances one superstep per call to [`Run::step`]; [`Run::run`] steps until the
//! run stops. Every step is kept as a [`StepRecord`] holding the state after it (a cheap,
//! structurally shared snapshot), which is the checkpoint forks start from.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt;
use std::rc::Rc;
use std::sync::Arc;

use json_patch::PatchOperation;
use rhai::{Dynamic, INT};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use thin_vec::ThinVec;

use crate::document::{NodeKind, OnError};
use crate::host::Host;
use crate::plan::{Op, Plan, PlanNode};
use crate::record::RunRecord;
use crate::script::{Ctx, ObjectView, View, ViewSource, from_dynamic, to_dynamic};
use crate::state::{State, StateView, check_update, excerpt, normalize_update, type_name};
use crate::update::Update;

/// A node's recent updates, oldest first.
type History = VecDeque<Arc<Update>>;

/// How many past updates `outputs` keeps per node.
pub const OUTPUT_HISTORY: usize = 5;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Not stopped yet (a live run in an editor).
    Running,
    Completed,
    Interrupted,
    Failed,
    LimitReached,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Running => "running",
            Status::Completed => "completed",
            Status::Interrupted => "interrupted",
            Status::Failed => "failed",
            Status::LimitReached => "limit_reached",
        }
    }
}

/// The `kind` of a node or run error (spec 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    Expression,
    Type,
    Conflict,
    Timeout,
    Http,
    Llm,
    StateSize,
    Join,
    Limit,
}

/// A node's failure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NodeError {
    pub kind: ErrorKind,
    pub message: String,
}

/// Why a run stopped short.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunError {
    pub node: Option<String>,
    pub kind: ErrorKind,
    pub message: String,
}

/// A human node the run waits for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Waiting {
    pub node: String,
    pub prompt: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<Vec<String>>,
}

/// One superstep, kept whole: this is both the run record's step and the checkpoint.
/// Its lists are thin vectors (one word each, nothing allocated when empty): every step of a
/// long run stays in memory, and most of these lists are empty.
#[derive(Debug, Clone)]
pub struct StepRecord {
    pub step: u64,
    /// Nodes that ran (plan indices, in id order).
    pub ran: ThinVec<usize>,
    /// Disabled nodes passed through in this step.
    pub skipped: ThinVec<usize>,
    pub updates: ThinVec<(usize, Arc<Update>)>,
    pub errors: ThinVec<(usize, NodeError)>,
    pub patch: Vec<PatchOperation>,
    /// The state after the step.
    pub state: State,
    /// What runs next (waiting human nodes included).
    pub next: ThinVec<usize>,
    /// Human nodes that were reached and wait for an answer.
    pub waiting: ThinVec<usize>,
    /// `join: all` nodes activated but still waiting for predecessors.
    pub pending_joins: ThinVec<usize>,
    /// Indices (in the document's `edges`) of the edges followed after this step.
    pub taken: ThinVec<usize>,
    /// What a node sent to the outside world, rendered (prompt, request), by node.
    pub details: ThinVec<(usize, Value)>,
    pub duration_ms: f64,
    /// The step failed: nothing it did was applied, and `next` holds its own nodes so that
    /// continuing the run retries it.
    pub failed: bool,
}

/// Input or answers that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    /// Where: `input.count`, `answer.ask`, `set.notes`…
    pub path: String,
    pub message: String,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl std::error::Error for InputError {}

/// Where a forked run came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ForkInfo {
    pub run_id: String,
    pub step: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set: Option<Map<String, Value>>,
}

/// A run of a plan.
pub struct Run {
    pub(crate) plan: Rc<Plan>,
    pub(crate) run_id: String,
    pub(crate) input: Rc<Map<String, Value>>,
    pub(crate) status: Status,
    pub(crate) initial: State,
    pub(crate) initial_next: Vec<usize>,
    pub(crate) initial_taken: Vec<usize>,
    pub(crate) state: State,
    /// What scripts see, and the scope they see it through (built once per run).
    pub(crate) live: Rc<Live>,
    pub(crate) ctx: Ctx,
    pub(crate) run_counts: Vec<u64>,
    pub(crate) next: NodeSet,
    pub(crate) pending_joins: BTreeSet<usize>,
    pub(crate) join_seen: Vec<BTreeSet<usize>>,
    pub(crate) answers: BTreeMap<usize, Value>,
    /// Subgraph nodes whose embedded run waits for an answer, with that run's record.
    pub(crate) suspended: RefCell<BTreeMap<usize, RunRecord>>,
    pub(crate) waiting: Vec<Waiting>,
    pub(crate) error: Option<RunError>,
    pub(crate) steps: Vec<StepRecord>,
    pub(crate) active_ms: f64,
    /// When the current step began, on the host's clock (effects use it to respect the run
    /// timeout within a step).
    pub(crate) step_started_ms: std::cell::Cell<f64>,
    pub(crate) forked_from: Option<ForkInfo>,
    /// Changes made between checkpoints (a fork's `set`), reported in the next step's patch.
    pub(crate) pending_patch: Vec<PatchOperation>,
}

/// What one node did in a step.
pub(crate) enum Outcome {
    Update {
        update: Update,
        route: Route,
        detail: Option<Value>,
    },
    /// A disabled node: writes nothing, follows its unconditional edges.
    Bypass,
    Failed {
        error: NodeError,
        detail: Option<Value>,
    },
    /// A subgraph stopped for a human: the parent waits too, keeping the child's record.
    Suspended {
        record: Box<RunRecord>,
        waiting: Waiting,
        detail: Value,
    },
}

pub(crate) enum Route {
    /// Every edge whose `when` holds (not `error` edges).
    Normal,
    /// The edges with these labels (a router, or a human answering with an option).
    Labels(Vec<String>),
}

impl Run {
    /// Starts a run: the defaults, then `input` applied through the reducers.
    pub fn start(plan: Rc<Plan>, input: Value, host: &dyn Host) -> Result<Run, InputError> {
        let Value::Object(input) = input else {
            return Err(InputError {
                path: "input".into(),
                message: format!("must be a JSON object, got {}", type_name(&input)),
            });
        };
        for key in plan.required_inputs() {
            if !input.contains_key(key) {
                return Err(InputError {
                    path: format!("input.{key}"),
                    message: format!("required by the start node `{}` but missing", plan.node(plan.start).id),
                });
            }
        }
        let mut initial = State::initial(&plan.schema);
        let mut input = input;
        check_against_schema(&plan, input.iter_mut(), "input")?;
        initial.apply(&plan.schema, &input, &mut Vec::new());

        let input = Rc::new(input);
        let (live, ctx) = Live::new(&plan, &input);
        let mut run = Run {
            plan: plan.clone(),
            run_id: host.new_run_id(),
            input,
            status: Status::Running,
            initial: initial.clone(),
            initial_next: Vec::new(),
            initial_taken: Vec::new(),
            state: initial,
            live,
            ctx,
            run_counts: vec![0; plan.nodes.len()],
            next: NodeSet::default(),
            pending_joins: BTreeSet::new(),
            join_seen: vec![BTreeSet::new(); plan.nodes.len()],
            answers: BTreeMap::new(),
            suspended: RefCell::new(BTreeMap::new()),
            waiting: Vec::new(),
            error: None,
            steps: Vec::new(),
            active_ms: 0.0,
            step_started_ms: std::cell::Cell::new(0.0),
            forked_from: None,
            pending_patch: Vec::new(),
        };
        run.mark_ran(plan.start);
        run.refresh_context(0);
        let (mut targets, mut taken) = (Vec::new(), ThinVec::new());
        let routed = run.route(plan.start, &Route::Normal, false, &run.ctx, &mut targets, &mut taken);
        match routed {
            Ok(()) => {
                run.initial_taken = taken.to_vec();
                run.activate(targets);
                run.initial_next = run.next.iter().copied().collect();
                if run.next.is_empty() {
                    run.status = Status::Completed;
                }
            }
            Err(e) => {
                run.status = Status::Failed;
                run.error = Some(e);
            }
        }
        Ok(run)
    }

    pub fn plan(&self) -> &Rc<Plan> {
        &self.plan
    }

    pub fn run_id(&self) -> &str {
        &self.run_id
    }

    pub fn status(&self) -> Status {
        self.status
    }

    pub fn error(&self) -> Option<&RunError> {
        self.error.as_ref()
    }

    pub fn waiting(&self) -> &[Waiting] {
        &self.waiting
    }

    pub fn steps(&self) -> &[StepRecord] {
        &self.steps
    }

    /// The number of steps taken.
    pub fn step_count(&self) -> u64 {
        self.steps.len() as u64
    }

    /// The current state as JSON.
    pub fn state_json(&self) -> Map<String, Value> {
        self.state.to_json()
    }

    /// The state at checkpoint `step` (0: before step 1).
    pub fn state_at(&self, step: u64) -> Option<&State> {
        if step == 0 { Some(&self.initial) } else { self.steps.get(usize::try_from(step - 1).ok()?).map(|s| &s.state) }
    }

    /// Ids of the nodes the run waits for: human nodes and suspended subgraphs in `next`
    /// that have no answer yet.
    pub fn waiting_for(&self) -> Vec<String> {
        self.next
            .iter()
            .filter(|&&i| self.asks(i) && !self.answers.contains_key(&i))
            .map(|&i| self.plan.node(i).id.to_string())
            .collect()
    }

    /// Whether node `ix` needs an answer to run: a human node (not disabled or pinned), or a
    /// subgraph whose embedded run waits for one.
    fn asks(&self, ix: usize) -> bool {
        let n = self.plan.node(ix);
        match n.kind {
            NodeKind::Human => !n.disabled && n.pinned.is_none(),
            NodeKind::Subgraph => self.suspended.borrow().contains_key(&ix),
            _ => false,
        }
    }

    /// Ids of the nodes that run next.
    pub fn next_ids(&self) -> Vec<String> {
        self.next.iter().map(|&i| self.plan.node(i).id.to_string()).collect()
    }

    /// Steps until the run stops.
    pub async fn run(&mut self, host: &dyn Host) {
        while self.status == Status::Running {
            self.step(host).await;
        }
    }

    /// Gives the answer to a waiting human node. The run carries on at the next [`Run::step`].
    pub fn answer(&mut self, node: &str, answer: Value) -> Result<(), InputError> {
        let path = format!("answer.{node}");
        let Some(ix) = self.plan.index(node) else {
            return Err(InputError { path, message: "no node has this id".into() });
        };
        if !self.next.contains(&ix) || !self.asks(ix) {
            let waiting = self.waiting_for();
            let message = if waiting.is_empty() {
                "the run is not waiting for any answer".to_string()
            } else {
                format!("`{node}` is not waiting for an answer (waiting: {})", waiting.join(", "))
            };
            return Err(InputError { path, message });
        }
        let (options, writes) = match &self.plan.node(ix).op {
            Op::Human { writes, options, .. } => (options.clone(), Some(writes.clone())),
            // A subgraph passes the answer on; its own human node checks it.
            _ => {
                (self.suspended.borrow().get(&ix).and_then(|r| r.waiting.first().and_then(|w| w.options.clone())), None)
            }
        };
        if let Some(options) = options {
            let ok = answer.as_str().is_some_and(|a| options.iter().any(|o| o == a));
            if !ok {
                return Err(InputError {
                    path,
                    message: format!("must be one of {}, got {}", options.join(", "), excerpt(&answer)),
                });
            }
        }
        let answer = match writes {
            Some(writes) => {
                let spec = self.plan.schema.spec(&writes);
                check_update(spec, &answer)
                    .map_err(|m| InputError { path: path.clone(), message: format!("`{writes}`: {m}") })?
            }
            None => answer,
        };
        self.answers.insert(ix, answer);
        if self.status == Status::Interrupted {
            self.status = Status::Running;
        }
        Ok(())
    }

    /// Points the context expressions see at the current state and step `step`.
    pub(crate) fn refresh_context(&self, step: u64) {
        *self.live.state.borrow_mut() = self.state.clone();
        self.ctx.set_step(INT::try_from(step).unwrap_or(INT::MAX));
    }

    /// Runs one superstep.
    pub async fn step(&mut self, host: &dyn Host) {
        if self.status != Status::Running {
            return;
        }
        let t0 = host.now_ms();
        self.step_started_ms.set(t0);
        let limits = self.plan.limits;
        if self.active_ms > limits.run_timeout_ms as f64 {
            self.status = Status::Failed;
            self.error = Some(RunError {
                node: None,
                kind: ErrorKind::Timeout,
                message: format!("the run took longer than run_timeout_ms ({} ms)", limits.run_timeout_ms),
            });
            return;
        }
        if self.step_count() >= limits.max_steps && !self.next.is_empty() {
            self.stop_at_limit();
            return;
        }
        let plan = self.plan.clone();
        let step_no = self.step_count() + 1;

        let mut waiting = Vec::new();
        let mut runnable = Vec::new();
        for &ix in &self.next {
            if self.asks(ix) && !self.answers.contains_key(&ix) {
                waiting.push(ix);
            } else {
                runnable.push(ix);
            }
        }

        self.refresh_context(step_no);
        let ctx = &self.ctx;
        if !waiting.is_empty() {
            match self.render_waiting(&waiting, ctx) {
                Ok(w) => self.waiting = w,
                Err((ix, error)) => {
                    self.fail_without_step(ix, error);
                    return;
                }
            }
            if runnable.is_empty() {
                self.status = Status::Interrupted;
                return;
            }
        } else {
            self.waiting.clear();
        }

        let outcomes = if let [only] = runnable[..] {
            vec![self.exec(only, ctx, host).await]
        } else {
            let futures = runnable.iter().map(|&ix| self.exec(ix, ctx, host));
            futures_util::future::join_all(futures).await
        };
        let mut results: Vec<(usize, Outcome)> = runnable.iter().copied().zip(outcomes).collect();
        for &ix in &runnable {
            self.answers.remove(&ix);
        }

        // Type-check every update before anything is applied.
        for (ix, outcome) in &mut results {
            if let Outcome::Update { update, detail, .. } = outcome {
                match check_against_schema(&plan, update.iter_mut(), "") {
                    Ok(()) => {}
                    Err(e) => {
                        let error = NodeError {
                            kind: ErrorKind::Type,
                            message: format!(
                                "node `{}` wrote `{}`: {}",
                                plan.node(*ix).id,
                                e.path.trim_start_matches('.'),
                                e.message
                            ),
                        };
                        *outcome = Outcome::Failed { error, detail: detail.take() };
                    }
                }
            }
        }

        let mut record = StepRecord {
            step: step_no,
            ran: ThinVec::new(),
            skipped: ThinVec::new(),
            updates: ThinVec::new(),
            errors: ThinVec::new(),
            patch: Vec::new(),
            state: self.state.clone(),
            next: ThinVec::new(),
            waiting: waiting.iter().copied().collect(),
            pending_joins: ThinVec::new(),
            taken: ThinVec::new(),
            details: ThinVec::new(),
            duration_ms: 0.0,
            failed: false,
        };
        for (ix, outcome) in &mut results {
            match outcome {
                Outcome::Bypass => record.skipped.push(*ix),
                Outcome::Update { update, detail, .. } => {
                    record.ran.push(*ix);
                    record.updates.push((*ix, Arc::new(std::mem::take(update))));
                    if let Some(d) = detail.take() {
                        record.details.push((*ix, d));
                    }
                }
                Outcome::Failed { error, detail } => {
                    record.ran.push(*ix);
                    record.errors.push((*ix, error.clone()));
                    if let Some(d) = detail.take() {
                        record.details.push((*ix, d));
                    }
                }
                Outcome::Suspended { detail, .. } => {
                    record.ran.push(*ix);
                    record.waiting.push(*ix);
                    record.details.push((*ix, std::mem::take(detail)));
                }
            }
        }

        // A failure with on_error: fail stops the run; the step's updates are not applied.
        let fatal = results.iter().find_map(|(ix, o)| match o {
            Outcome::Failed { error, .. } if plan.node(*ix).on_error == OnError::Fail => Some((*ix, error.clone())),
            _ => None,
        });
        if let Some((ix, error)) = fatal {
            self.fail_step(record, Some(ix), error, t0, host);
            return;
        }

        // Two writers of one `replace` field in a step conflict.
        if let Some((culprit, error)) = self.find_conflict(&record.updates, step_no) {
            self.fail_step(record, Some(culprit), error, t0, host);
            return;
        }

        // Apply the updates in node id order.
        let before = self.state.clone();
        let mut patch = std::mem::take(&mut self.pending_patch);
        for (_, update) in &record.updates {
            self.state.apply(&plan.schema, update.iter(), &mut patch);
        }
        let size = self.state.serialized_len();
        if size as u64 > limits.max_state_bytes {
            self.state = before;
            let error = NodeError {
                kind: ErrorKind::StateSize,
                message: format!(
                    "the state would grow to {size} bytes, over max_state_bytes ({})",
                    limits.max_state_bytes
                ),
            };
            let culprit = record.ran.first().copied();
            self.fail_step(record, culprit, error, t0, host);
            return;
        }

        // Routing, on the state after the step. This step's updates and errors are shown to
        // `when` expressions as pending, and committed only if routing succeeds.
        self.refresh_context(step_no);
        std::mem::swap(&mut record.updates, &mut *self.live.pending_updates.borrow_mut());
        std::mem::swap(&mut record.errors, &mut *self.live.pending_errors.borrow_mut());
        let ctx = &self.ctx;
        let mut targets = Vec::new();
        let mut route_error = None;
        for (ix, o) in &results {
            let routed = match o {
                Outcome::Update { route, .. } => self.route(*ix, route, false, ctx, &mut targets, &mut record.taken),
                Outcome::Bypass => {
                    self.bypass_route(*ix, &mut targets, &mut record.taken);
                    Ok(())
                }
                Outcome::Failed { .. } if plan.node(*ix).on_error == OnError::Route => {
                    self.route(*ix, &Route::Normal, true, ctx, &mut targets, &mut record.taken)
                }
                Outcome::Failed { .. } | Outcome::Suspended { .. } => Ok(()),
            };
            if let Err(e) = routed {
                route_error.get_or_insert(e);
            }
        }
        std::mem::swap(&mut record.updates, &mut *self.live.pending_updates.borrow_mut());
        std::mem::swap(&mut record.errors, &mut *self.live.pending_errors.borrow_mut());
        if let Some(e) = route_error {
            self.state = before;
            let culprit = e.node.as_deref().and_then(|n| plan.index(n));
            record.taken.clear();
            self.fail_step(record, culprit, NodeError { kind: e.kind, message: e.message }, t0, host);
            return;
        }

        // Commit: outputs history, last errors, join progress, the next active set.
        self.live.remember(&record);
        for &ix in record.ran.iter().chain(&record.skipped) {
            self.run_counts[ix] += 1;
            if plan.node(ix).join_all {
                self.join_seen[ix].clear();
            }
        }
        for &ix in record.ran.iter().chain(&record.skipped) {
            self.mark_ran(ix);
        }
        record.patch = patch;
        record.state = self.state.clone();
        self.activate(targets);
        self.next.extend(waiting.iter().copied());
        let mut suspended_now = false;
        for (ix, o) in results {
            if let Outcome::Suspended { record: child, waiting: w, .. } = o {
                self.suspended.borrow_mut().insert(ix, *child);
                self.waiting.push(w);
                self.next.insert(ix);
                suspended_now = true;
            }
        }
        record.next = self.next.iter().copied().collect();
        record.pending_joins = self.pending_joins.iter().copied().collect();
        record.taken.sort_unstable();
        record.duration_ms = (host.now_ms() - t0).max(0.0);
        self.active_ms += record.duration_ms;
        self.steps.push(record);

        if self.next.is_empty() {
            if let Some(&j) = self.pending_joins.iter().next() {
                self.status = Status::Failed;
                self.error = Some(self.join_error(j));
            } else {
                self.status = Status::Completed;
            }
        } else if self.step_count() >= limits.max_steps {
            self.stop_at_limit();
        } else if !waiting.is_empty() || suspended_now {
            self.status = Status::Interrupted;
        }
    }

    /// The second writer (in id order) of a `replace` field some other node also wrote.
    fn find_conflict(&self, updates: &[(usize, Arc<Update>)], step_no: u64) -> Option<(usize, NodeError)> {
        let plan = &self.plan;
        let mut writers: BTreeMap<&str, usize> = BTreeMap::new();
        for (ix, update) in updates {
            for key in update.keys() {
                if plan.schema.spec(key).reducer != crate::document::Reducer::Replace {
                    continue;
                }
                if let Some(prev) = writers.insert(key, *ix) {
                    let message = format!(
                        "`{}` and `{}` both wrote `{key}` in step {step_no}; a `replace` field takes one write per step (give it a reducer such as `append`, or let one node write it)",
                        plan.node(prev).id,
                        plan.node(*ix).id
                    );
                    return Some((*ix, NodeError { kind: ErrorKind::Conflict, message }));
                }
            }
        }
        None
    }

    fn stop_at_limit(&mut self) {
        let limit = self.plan.limits.max_steps;
        self.status = Status::LimitReached;
        self.error = Some(RunError {
            node: None,
            kind: ErrorKind::Limit,
            message: format!("stopped after max_steps ({limit}) steps; {} would run next", self.next_ids().join(", ")),
        });
    }

    fn join_error(&self, j: usize) -> RunError {
        let node = self.plan.node(j);
        let missing: Vec<&str> =
            node.preds.iter().filter(|p| !self.join_seen[j].contains(p)).map(|&p| &*self.plan.node(p).id).collect();
        RunError {
            node: Some(node.id.to_string()),
            kind: ErrorKind::Join,
            message: format!(
                "join `{}` (join: all) still waits for {}, but nothing else can run",
                node.id,
                missing.join(", ")
            ),
        }
    }

    fn fail_without_step(&mut self, ix: usize, error: NodeError) {
        self.status = Status::Failed;
        self.error =
            Some(RunError { node: Some(self.plan.node(ix).id.to_string()), kind: error.kind, message: error.message });
    }

    /// Ends the run with a failed step: the state stays as it was before the step, and `next`
    /// keeps the step's nodes so that continuing retries it.
    fn fail_step(&mut self, mut record: StepRecord, node: Option<usize>, error: NodeError, t0: f64, host: &dyn Host) {
        if let Some(ix) = node
            && !record.errors.iter().any(|(i, _)| *i == ix)
        {
            record.errors.push((ix, error.clone()));
        }
        record.duration_ms = (host.now_ms() - t0).max(0.0);
        self.active_ms += record.duration_ms;
        record.state = self.state.clone();
        record.patch.clear();
        record.failed = true;
        record.next = self.next.iter().copied().collect();
        self.live.remember_errors(&record);
        self.steps.push(record);
        self.status = Status::Failed;
        self.error = Some(RunError {
            node: node.map(|i| self.plan.node(i).id.to_string()),
            kind: error.kind,
            message: error.message,
        });
    }

    fn mark_ran(&mut self, ix: usize) {
        for &j in &self.plan.node(ix).feeds_joins {
            self.join_seen[j].insert(ix);
        }
    }

    /// Turns routed targets into the next active set, holding back unsatisfied joins.
    fn activate(&mut self, targets: impl IntoIterator<Item = usize>) {
        self.next.clear();
        for t in targets {
            let node = self.plan.node(t);
            if node.kind == NodeKind::End {
                continue;
            }
            if node.join_all {
                self.pending_joins.insert(t);
            } else {
                self.next.insert(t);
            }
        }
        if self.pending_joins.is_empty() {
            return;
        }
        let ready: Vec<usize> = self
            .pending_joins
            .iter()
            .copied()
            .filter(|&j| self.plan.node(j).preds.iter().all(|p| self.join_seen[j].contains(p)))
            .collect();
        for j in ready {
            self.pending_joins.remove(&j);
            self.next.insert(j);
        }
    }

    /// The edges out of `ix` to follow, as (targets, edge indices).
    fn route(
        &self,
        ix: usize,
        route: &Route,
        failed: bool,
        ctx: &Ctx,
        targets: &mut Vec<usize>,
        taken: &mut ThinVec<usize>,
    ) -> Result<(), RunError> {
        let node = self.plan.node(ix);
        let holds = |e: &crate::plan::PlanEdge| -> Result<bool, RunError> {
            let Some(when) = &e.when else { return Ok(true) };
            let v = self.plan.scripting.eval(when, ctx).map_err(|err| RunError {
                node: Some(node.id.to_string()),
                kind: ErrorKind::Expression,
                message: format!("edge {} → {} (edges[{}].when): {err}", node.id, self.plan.node(e.to).id, e.index),
            })?;
            v.as_bool().map_err(|_| RunError {
                node: Some(node.id.to_string()),
                kind: ErrorKind::Expression,
                message: format!(
                    "edge {} → {} (edges[{}].when) must give true or false, got {}",
                    node.id,
                    self.plan.node(e.to).id,
                    e.index,
                    from_dynamic(&v).map(|j| excerpt(&j)).unwrap_or_else(|_| v.type_name().to_string())
                ),
            })
        };
        if failed {
            for e in node.out.iter().filter(|e| e.is_error_edge()) {
                if holds(e)? {
                    targets.push(e.to);
                    taken.push(e.index);
                }
            }
            return Ok(());
        }
        match route {
            Route::Normal => {
                for e in node.out.iter().filter(|e| !e.is_error_edge()) {
                    if holds(e)? {
                        targets.push(e.to);
                        taken.push(e.index);
                    }
                }
            }
            Route::Labels(labels) => {
                let mut chosen = BTreeSet::new();
                for label in labels {
                    let mut matched = false;
                    for e in node.out.iter().filter(|e| e.label.as_deref() == Some(label.as_str())) {
                        matched = true;
                        if holds(e)? {
                            chosen.insert(e.index);
                        }
                    }
                    if matched {
                        continue;
                    }
                    let defaults: Vec<_> = node.out.iter().filter(|e| e.label.as_deref() == Some("default")).collect();
                    if defaults.is_empty() {
                        let labels: Vec<&str> = node.out.iter().filter_map(|e| e.label.as_deref()).collect();
                        return Err(RunError {
                            node: Some(node.id.to_string()),
                            kind: ErrorKind::Expression,
                            message: format!(
                                "`{}` chose `{label}`, but no edge out of it has that label and there is no `default` edge (labels: {})",
                                node.id,
                                labels.join(", ")
                            ),
                        });
                    }
                    for e in defaults {
                        if holds(e)? {
                            chosen.insert(e.index);
                        }
                    }
                }
                for e in &node.out {
                    if chosen.contains(&e.index) {
                        targets.push(e.to);
                        taken.push(e.index);
                    }
                }
            }
        }
        Ok(())
    }

    /// A disabled node follows its unconditional edges; one that chooses by label follows
    /// its `default` edges.
    fn bypass_route(&self, ix: usize, targets: &mut Vec<usize>, taken: &mut ThinVec<usize>) {
        let node = self.plan.node(ix);
        let by_label = matches!(node.op, Op::Router(_)) || matches!(&node.op, Op::Human { options: Some(_), .. });
        for e in node.out.iter().filter(|e| e.when.is_none() && !e.is_error_edge()) {
            if !by_label || e.label.as_deref() == Some("default") {
                targets.push(e.to);
                taken.push(e.index);
            }
        }
    }

    fn render_waiting(&self, waiting: &[usize], ctx: &Ctx) -> Result<Vec<Waiting>, (usize, NodeError)> {
        let mut out = Vec::new();
        for &ix in waiting {
            let node = self.plan.node(ix);
            if let Some(record) = self.suspended.borrow().get(&ix) {
                let w = record.waiting.first();
                out.push(Waiting {
                    node: node.id.to_string(),
                    prompt: w.map(|w| w.prompt.clone()).unwrap_or_default(),
                    options: w.and_then(|w| w.options.clone()),
                });
                continue;
            }
            let Op::Human { prompt, options, .. } = &node.op else {
                continue;
            };
            let prompt = match prompt {
                Some(t) => self.plan.scripting.render(t, ctx).map_err(|e| {
                    (
                        ix,
                        NodeError {
                            kind: ErrorKind::Expression,
                            message: format!("node `{}`, field `prompt`: {e}", node.id),
                        },
                    )
                })?,
                None => String::new(),
            };
            out.push(Waiting { node: node.id.to_string(), prompt, options: options.clone() });
        }
        Ok(out)
    }

    /// Runs one node against the step's snapshot.
    async fn exec(&self, ix: usize, ctx: &Ctx, host: &dyn Host) -> Outcome {
        let node = self.plan.node(ix);
        if node.disabled {
            return Outcome::Bypass;
        }
        if let Some(pinned) = &node.pinned {
            let route = match &node.op {
                Op::Router(e) => match self.router_labels(node, e, ctx) {
                    Ok(r) => r,
                    Err(error) => {
                        return Outcome::Failed { error, detail: None };
                    }
                },
                Op::Human { writes, options: Some(_), .. } => {
                    Route::Labels(pinned.get(writes).and_then(Value::as_str).map(str::to_string).into_iter().collect())
                }
                _ => Route::Normal,
            };
            return Outcome::Update {
                update: Update::from((**pinned).clone()),
                route,
                detail: Some(Value::from("pinned")),
            };
        }
        let scripting = &self.plan.scripting;
        let expr_error = |field: &str, e: &dyn fmt::Display| NodeError {
            kind: ErrorKind::Expression,
            message: format!("node `{}`, field `{field}`: {e}", node.id),
        };
        match &node.op {
            Op::Set(fields) => {
                let mut update = Update::with_capacity(fields.len());
                for (field, expr) in fields {
                    match scripting.eval_json(expr, ctx) {
                        Ok(v) => {
                            update.insert(field.clone(), v);
                        }
                        Err(e) => {
                            return Outcome::Failed { error: expr_error(&format!("set.{field}"), &e), detail: None };
                        }
                    }
                }
                Outcome::Update { update, route: Route::Normal, detail: None }
            }
            Op::Script(expr) => {
                let value = match scripting.eval(expr, ctx) {
                    Ok(v) => v,
                    Err(e) => {
                        return Outcome::Failed { error: expr_error("script", &e), detail: None };
                    }
                };
                if value.is_unit() {
                    return Outcome::Update { update: Update::new(), route: Route::Normal, detail: None };
                }
                match from_dynamic(&value) {
                    Ok(Value::Object(update)) => {
                        Outcome::Update { update: Update::from(update), route: Route::Normal, detail: None }
                    }
                    Ok(other) => Outcome::Failed {
                        error: NodeError {
                            kind: ErrorKind::Type,
                            message: format!(
                                "node `{}`: a script must end with a map of updates (or `()`), got {} ({})",
                                node.id,
                                type_name(&other),
                                excerpt(&other)
                            ),
                        },
                        detail: None,
                    },
                    Err(e) => Outcome::Failed { error: expr_error("script", &e), detail: None },
                }
            }
            Op::Router(expr) => match self.router_labels(node, expr, ctx) {
                Ok(route) => Outcome::Update { update: Update::new(), route, detail: None },
                Err(error) => Outcome::Failed { error, detail: None },
            },
            Op::Human { writes, options, .. } => {
                let answer = self.answers.get(&ix).cloned().unwrap_or(Value::Null);
                let route = match (options, answer.as_str()) {
                    (Some(_), Some(a)) => Route::Labels(vec![a.to_string()]),
                    _ => Route::Normal,
                };
                let mut update = Update::new();
                update.insert(writes.clone(), answer);
                Outcome::Update { update, route, detail: None }
            }
            Op::Llm(_) | Op::Http(_) | Op::Subgraph(_) => crate::effects::exec(self, ix, ctx, host).await,
            Op::Start { .. } | Op::End | Op::Note => {
                Outcome::Update { update: Update::new(), route: Route::Normal, detail: None }
            }
        }
    }

    fn router_labels(&self, node: &PlanNode, expr: &crate::script::Expr, ctx: &Ctx) -> Result<Route, NodeError> {
        let v = self.plan.scripting.eval_json(expr, ctx).map_err(|e| NodeError {
            kind: ErrorKind::Expression,
            message: format!("node `{}`, field `route`: {e}", node.id),
        })?;
        let labels = match &v {
            Value::String(s) => vec![s.clone()],
            Value::Array(items) if items.iter().all(Value::is_string) => {
                items.iter().filter_map(Value::as_str).map(str::to_string).collect()
            }
            other => {
                return Err(NodeError {
                    kind: ErrorKind::Expression,
                    message: format!(
                        "node `{}`, field `route`: must give a label or a list of labels, got {} ({})",
                        node.id,
                        type_name(other),
                        excerpt(other)
                    ),
                });
            }
        };
        Ok(Route::Labels(labels))
    }

    /// A new run that starts from checkpoint `step` of this one (0: before step 1), with
    /// `set` applied there through the reducers. This run is not touched.
    pub fn fork(&self, step: u64, set: Option<Map<String, Value>>, host: &dyn Host) -> Result<Run, InputError> {
        let mut run = self.rewind(step)?;
        run.run_id = host.new_run_id();
        run.forked_from = Some(ForkInfo { run_id: self.run_id.clone(), step, set: set.clone() });
        if let Some(set) = set {
            let mut set = set;
            check_against_schema(&run.plan, set.iter_mut(), "set")?;
            let mut patch = Vec::new();
            run.state.apply(&run.plan.schema, &set, &mut patch);
            run.pending_patch = patch;
        }
        Ok(run)
    }

    /// Like [`Run::fork`], but `values` are set as they are, whatever the fields' reducers
    /// (an editor's "edit the state here"): appending to a list would not let a person
    /// correct it. Values are still type-checked.
    pub fn fork_with_values(&self, step: u64, values: Map<String, Value>, host: &dyn Host) -> Result<Run, InputError> {
        let mut run = self.rewind(step)?;
        run.run_id = host.new_run_id();
        let mut values = values;
        for (k, v) in values.iter_mut() {
            let spec = run.plan.schema.spec(k);
            crate::state::normalize_type(spec.ty, v)
                .map_err(|message| InputError { path: format!("state.{k}"), message })?;
        }
        run.forked_from = Some(ForkInfo { run_id: self.run_id.clone(), step, set: Some(values.clone()) });
        let mut patch = Vec::new();
        run.state.overwrite(&run.plan.schema, values.iter(), &mut patch);
        run.pending_patch = patch;
        Ok(run)
    }

    /// Continues a run that stopped: a failed run retries its failed step from the last good
    /// checkpoint; an interrupted run waits for [`Run::answer`]; a run stopped at the step
    /// limit carries on if the graph's limit has been raised.
    pub fn resume(&mut self) {
        match self.status {
            Status::Failed => {
                let last_good = self.last_good_step();
                if let Ok(mut rewound) = self.rewind(last_good) {
                    rewound.run_id = std::mem::take(&mut self.run_id);
                    rewound.forked_from = self.forked_from.take();
                    rewound.answers = std::mem::take(&mut self.answers);
                    *self = rewound;
                }
            }
            Status::LimitReached if self.step_count() < self.plan.limits.max_steps => {
                self.status = Status::Running;
                self.error = None;
            }
            _ => {}
        }
    }

    /// The checkpoint before the failed step (the last one whose state is good).
    fn last_good_step(&self) -> u64 {
        if self.steps.last().is_some_and(|s| s.failed) { self.step_count() - 1 } else { self.step_count() }
    }

    /// A copy of this run as it was at checkpoint `step`.
    pub(crate) fn rewind(&self, step: u64) -> Result<Run, InputError> {
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
        let n = self.plan.nodes.len();
        let (live, ctx) = Live::new(&self.plan, &self.input);
        let mut run = Run {
            plan: self.plan.clone(),
            run_id: self.run_id.clone(),
            input: self.input.clone(),
            status: Status::Running,
            initial: self.initial.clone(),
            initial_next: self.initial_next.clone(),
            initial_taken: self.initial_taken.clone(),
            state: self.initial.clone(),
            live,
            ctx,
            run_counts: vec![0; n],
            next: self.initial_next.iter().copied().collect(),
            pending_joins: BTreeSet::new(),
            join_seen: vec![BTreeSet::new(); n],
            answers: BTreeMap::new(),
            suspended: RefCell::new(BTreeMap::new()),
            waiting: Vec::new(),
            error: None,
            steps: Vec::new(),
            active_ms: 0.0,
            step_started_ms: std::cell::Cell::new(0.0),
            forked_from: self.forked_from.clone(),
            pending_patch: Vec::new(),
        };
        run.mark_ran(self.plan.start);
        for s in &self.steps[..keep] {
            run.replay(s.clone());
        }
        if run.next.is_empty() {
            run.status = if run.pending_joins.is_empty() { Status::Completed } else { Status::Failed };
            if let Some(&j) = run.pending_joins.iter().next() {
                run.error = Some(run.join_error(j));
            }
        }
        Ok(run)
    }

    /// Brings the bookkeeping up to date with a recorded step.
    pub(crate) fn replay(&mut self, s: StepRecord) {
        if s.failed {
            self.live.remember_errors(&s);
            self.active_ms += s.duration_ms;
            self.next = s.next.iter().copied().collect();
            self.steps.push(s);
            return;
        }
        // A subgraph that stopped for a human in this step waits with its record; one that
        // ran to its end no longer does.
        for &ix in &s.ran {
            let record = s
                .details
                .iter()
                .find(|(i, _)| *i == ix)
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
        self.live.remember(&s);
        for &ix in s.ran.iter().chain(&s.skipped) {
            self.run_counts[ix] += 1;
            if self.plan.node(ix).join_all {
                self.join_seen[ix].clear();
            }
        }
        for &ix in s.ran.iter().chain(&s.skipped) {
            self.mark_ran(ix);
        }
        self.active_ms += s.duration_ms;
        self.state = s.state.clone();
        self.next = s.next.iter().copied().collect();
        self.pending_joins = s.pending_joins.iter().copied().collect();
        self.steps.push(s);
    }
}

/// Checks every key of an update against the schema, normalising values in place (`2.0`
/// becomes `2` for an integer field); the error's path names the first bad key.
pub(crate) fn check_against_schema<'a>(
    plan: &Plan,
    update: impl Iterator<Item = (&'a String, &'a mut Value)>,
    prefix: &str,
) -> Result<(), InputError> {
    for (k, v) in update {
        let spec = plan.schema.spec(k);
        match normalize_update(spec, v) {
            Ok(()) => {}
            Err(message) => return Err(InputError { path: format!("{prefix}.{k}"), message }),
        }
    }
    Ok(())
}

/// A small sorted set of node indices (the active set). Clearing it keeps its memory, so
/// a step allocates nothing for it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct NodeSet(Vec<usize>);

impl NodeSet {
    pub(crate) fn insert(&mut self, ix: usize) {
        if let Err(at) = self.0.binary_search(&ix) {
            self.0.insert(at, ix);
        }
    }
    pub(crate) fn contains(&self, ix: &usize) -> bool {
        self.0.binary_search(ix).is_ok()
    }
    pub(crate) fn iter(&self) -> std::slice::Iter<'_, usize> {
        self.0.iter()
    }
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub(crate) fn clear(&mut self) {
        self.0.clear();
    }
    pub(crate) fn extend(&mut self, items: impl IntoIterator<Item = usize>) {
        for i in items {
            self.insert(i);
        }
    }
}

impl FromIterator<usize> for NodeSet {
    fn from_iter<I: IntoIterator<Item = usize>>(iter: I) -> Self {
        let mut v: Vec<usize> = iter.into_iter().collect();
        v.sort_unstable();
        v.dedup();
        NodeSet(v)
    }
}

impl<'a> IntoIterator for &'a NodeSet {
    type Item = &'a usize;
    type IntoIter = std::slice::Iter<'a, usize>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// The run's data as scripts see it, shared with the views in the run's scope. The run
/// writes here only between evaluations.
pub(crate) struct Live {
    plan: Rc<Plan>,
    state: RefCell<State>,
    pub(crate) outputs: RefCell<Vec<History>>,
    pub(crate) errors: RefCell<Vec<Option<String>>>,
    /// The current step's updates and errors while its edges are evaluated.
    pending_updates: RefCell<ThinVec<(usize, Arc<Update>)>>,
    pending_errors: RefCell<ThinVec<(usize, NodeError)>>,
}

impl Live {
    fn new(plan: &Rc<Plan>, input: &Rc<Map<String, Value>>) -> (Rc<Live>, Ctx) {
        let n = plan.nodes.len();
        let live = Rc::new(Live {
            plan: plan.clone(),
            state: RefCell::new(State::default()),
            outputs: RefCell::new(vec![VecDeque::new(); n]),
            errors: RefCell::new(vec![None; n]),
            pending_updates: RefCell::new(ThinVec::new()),
            pending_errors: RefCell::new(ThinVec::new()),
        });
        let ctx = Ctx::new(
            View::dynamic(Rc::new(LiveState(live.clone()))),
            View::dynamic(Rc::new(ObjectView(input.clone()))),
            View::dynamic(Rc::new(LiveOutputs(live.clone()))),
            View::dynamic(Rc::new(LiveErrors(live.clone()))),
            0,
        );
        (live, ctx)
    }

    /// Adds a step's updates to the output history and its errors to the last errors.
    fn remember(&self, s: &StepRecord) {
        let mut outputs = self.outputs.borrow_mut();
        for (ix, update) in &s.updates {
            let h = &mut outputs[*ix];
            h.push_back(update.clone());
            while h.len() > OUTPUT_HISTORY {
                h.pop_front();
            }
        }
        drop(outputs);
        self.remember_errors(s);
    }

    fn remember_errors(&self, s: &StepRecord) {
        let mut errors = self.errors.borrow_mut();
        for (ix, e) in &s.errors {
            errors[*ix] = Some(e.message.clone());
        }
    }
}

/// `state` as scripts see it.
struct LiveState(Rc<Live>);

impl ViewSource for LiveState {
    fn get(&self, key: &str) -> Option<Dynamic> {
        StateView(self.0.state.borrow().clone()).get(key)
    }
    fn keys(&self) -> Vec<String> {
        self.0.state.borrow().keys().map(str::to_string).collect()
    }
    fn to_json(&self) -> Value {
        Value::Object(self.0.state.borrow().to_json())
    }
}

/// `outputs` as scripts see it: node id → its last updates, newest last.
struct LiveOutputs(Rc<Live>);

impl ViewSource for LiveOutputs {
    fn get(&self, key: &str) -> Option<Dynamic> {
        let ix = self.0.plan.index(key)?;
        let outputs = self.0.outputs.borrow();
        let pending = self.0.pending_updates.borrow();
        let fresh = pending.iter().filter(|(i, _)| *i == ix).map(|(_, u)| u);
        let all: Vec<&Arc<Update>> = outputs[ix].iter().chain(fresh).collect();
        let recent = &all[all.len().saturating_sub(OUTPUT_HISTORY)..];
        Some(Dynamic::from_array(recent.iter().map(|u| to_dynamic(&Value::Object(u.to_map()))).collect()))
    }
    fn keys(&self) -> Vec<String> {
        let outputs = self.0.outputs.borrow();
        outputs
            .iter()
            .enumerate()
            .filter(|(_, h)| !h.is_empty())
            .map(|(i, _)| self.0.plan.node(i).id.to_string())
            .collect()
    }
    fn to_json(&self) -> Value {
        let outputs = self.0.outputs.borrow();
        let mut m = Map::new();
        for (i, h) in outputs.iter().enumerate() {
            if !h.is_empty() {
                m.insert(
                    self.0.plan.node(i).id.to_string(),
                    Value::Array(h.iter().map(|u| Value::Object(u.to_map())).collect()),
                );
            }
        }
        Value::Object(m)
    }
}

/// `errors` as scripts see it: node id → its last error message.
struct LiveErrors(Rc<Live>);

impl ViewSource for LiveErrors {
    fn get(&self, key: &str) -> Option<Dynamic> {
        let ix = self.0.plan.index(key)?;
        if let Some((_, e)) = self.0.pending_errors.borrow().iter().find(|(i, _)| *i == ix) {
            return Some(Dynamic::from(e.message.clone()));
        }
        self.0.errors.borrow()[ix].as_ref().map(|m| Dynamic::from(m.clone()))
    }
    fn keys(&self) -> Vec<String> {
        let errors = self.0.errors.borrow();
        errors
            .iter()
            .enumerate()
            .filter(|(_, e)| e.is_some())
            .map(|(i, _)| self.0.plan.node(i).id.to_string())
            .collect()
    }
    fn to_json(&self) -> Value {
        let errors = self.0.errors.borrow();
        let mut m = Map::new();
        for (i, e) in errors.iter().enumerate() {
            if let Some(e) = e {
                m.insert(self.0.plan.node(i).id.to_string(), Value::String(e.clone()));
            }
        }
        Value::Object(m)
    }
}
