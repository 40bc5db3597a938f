//! A run on the embedded server, on an engine thread of its own (the engine is
//! single-threaded): where it starts (a new input on the thread's state, a checkpoint
//! continued or forked, a run continued after a restart), then step by step, each step saved
//! (the record, a checkpoint) before its events go out.

use std::cell::{Cell, RefCell};
use std::collections::BTreeSet;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use engine::run::{Breakpoints, StartFrom};
use engine::{Plan, Run, RunRecord, Status};
use serde_json::{Value, json};
use switchyard_serve::export::RunTrace;
use tokio::sync::oneshot;

use crate::backend::BackendError;
use crate::domain::{Checkpoint, CheckpointId, RunStatus, Source, ThreadStatus};
use crate::embedded::abandon::{Abandoned, OnEnd, abandon, panic_message};
use crate::embedded::events;
use crate::embedded::host::{HostSettings, JournalHost};
use crate::embedded::store::{Base, CheckpointRow, RunRow, Store};
use crate::embedded::turns::Turn;
use crate::feed::{Event, FeedWriter};
use crate::graphs::LoadedGraph;
use crate::interrupts::{interrupt_id, interrupts};
use crate::wire::time::now;

/// Everything a run's thread needs.
pub struct Job {
    pub row: RunRow,
    pub graph: LoadedGraph,
    pub store: Store,
    pub settings: Arc<HostSettings>,
    pub feed: FeedWriter,
    pub cancel: Arc<AtomicBool>,
    /// Continue the run from its stored record (a restart) rather than from its request.
    pub recover: bool,
    /// Told whether the run could start (the message is a 422's detail).
    pub started: Option<oneshot::Sender<Result<(), BackendError>>>,
    /// Held for the run's life: one run at a time per thread.
    pub guard: Option<tokio::sync::OwnedMutexGuard<()>>,
    /// Held for the run's life: one of the server's turns.
    pub turn: Option<Turn>,
    /// Called with the final row once the run has ended.
    pub on_end: OnEnd,
}

/// What ends the run if its thread cannot: enough of the job, kept outside it.
struct Fallback {
    store: Store,
    row: RunRow,
    feed: FeedWriter,
    on_end: OnEnd,
}

impl Fallback {
    fn of(job: &Job) -> Fallback {
        Fallback { store: job.store.clone(), row: job.row.clone(), feed: job.feed.clone(), on_end: job.on_end.clone() }
    }

    fn abandon(self, why: Abandoned, message: String) {
        abandon(&self.store, self.row, &self.feed, &self.on_end, why, message);
    }
}

/// Starts the job's engine thread. Whatever happens there (a panic included), the run ends:
/// a run left `running` would keep its thread busy and its waiters waiting for ever.
pub fn spawn(job: Job) {
    let failed = Fallback::of(&job);
    let inside = Fallback::of(&job);
    let started = engine::stack::spawn_run_thread("run", move || {
        let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
            Ok(rt) => rt,
            Err(e) => return inside.abandon(Abandoned::NotStarted, e.to_string()),
        };
        // The job (and the thread's lock it holds) is dropped as the panic unwinds.
        let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| runtime.block_on(drive(job))));
        if let Err(payload) = ran {
            inside.abandon(Abandoned::Panicked, panic_message(payload.as_ref()));
        }
    });
    if let Err(e) = started {
        failed.abandon(Abandoned::NotStarted, e.to_string());
    }
}

/// Where the engine's run sits in the thread.
struct Begun {
    run: Run,
    /// The state and chain step the engine's run starts from (not the defaults).
    base: Option<Base>,
    /// The newest checkpoint before this run's first.
    parent: Option<CheckpointId>,
    /// The run starts with an input: its step 0 is a checkpoint of its own.
    fresh: bool,
}

impl Begun {
    fn chain(&self) -> u64 {
        self.base.as_ref().map_or(0, |(_, s)| *s)
    }

    fn chain_i64(&self) -> i64 {
        i64::try_from(self.chain()).unwrap_or(i64::MAX)
    }
}

async fn drive(mut job: Job) {
    if job.cancel.load(Ordering::SeqCst) {
        // Cancelled while it waited its turn: its input is never applied.
        return cancelled_before_start(job);
    }
    let plan = match plan_for(&job) {
        Ok(plan) => plan,
        Err(e) => return refuse(job, e),
    };
    let feed = job.feed.clone();
    let delta_meta =
        json!({"run_id": job.row.info.run_id, "thread_id": job.row.info.thread_id, "graph_id": job.graph.graph_id});
    // The step under way (counted across the thread) and the nodes whose model streamed in it.
    let now_step = Rc::new(Cell::new(0u64));
    let streamed: Rc<RefCell<BTreeSet<String>>> = Rc::default();
    let (step_seen, streamed_seen) = (now_step.clone(), streamed.clone());
    let on_delta = Box::new(move |node: &str, text: &str| {
        streamed_seen.borrow_mut().insert(node.to_string());
        events::token(&feed, node, text, step_seen.get(), &delta_meta);
    });
    let host = JournalHost::new(job.row.info.run_id.clone(), job.store.clone(), job.settings.clone(), on_delta);
    let begun = if job.recover { recover(&job, plan, &host) } else { begin(&job, plan, &host) };
    let mut begun = match begun {
        Ok(b) => b,
        Err(e) => return refuse(job, e),
    };
    if let Some(tx) = job.started.take() {
        let _ = tx.send(Ok(()));
    }
    job.row.base = begun.base.clone();
    job.row.info.status = RunStatus::Running;
    note_trace_id(&mut job, &begun.run);
    let trace = RunTrace::new(&begun.run);
    let stepping = Stepping { host: &host, now_step: &now_step, streamed: &streamed, trace: &trace };
    match run_steps(&mut job, &mut begun, &stepping).await {
        Ok(Stopped { cancelled, mid_step, head }) => {
            trace.session_end(&begun.run);
            note_trace_id(&mut job, &begun.run);
            if mid_step && let Ok(Some(stored)) = job.store.run(&job.row.info.run_id) {
                job.row.record = stored.record;
            }
            finish(job, &begun.run, cancelled.then_some(mid_step), head);
        }
        Err(e) => store_failed(job, &e),
    }
}

/// What the step loop shares with the host's streaming callback.
struct Stepping<'a> {
    host: &'a JournalHost,
    /// The step under way, counted across the thread.
    now_step: &'a Cell<u64>,
    /// The nodes whose model streamed in that step.
    streamed: &'a RefCell<BTreeSet<String>>,
    /// What of the run went out as trace spans.
    trace: &'a RunTrace,
}

/// How the step loop ended.
struct Stopped {
    cancelled: bool,
    /// Cancelled inside a step (its results dropped).
    mid_step: bool,
    /// The newest checkpoint written.
    head: Option<CheckpointId>,
}

/// The run's steps, each saved (record, checkpoint, then the thread's head) before its
/// events go out; a store that fails stops the run there, the head on the last checkpoint
/// written.
async fn run_steps(job: &mut Job, begun: &mut Begun, s: &Stepping<'_>) -> Result<Stopped, BackendError> {
    if begun.fresh {
        // Its step 0 is a checkpoint, read through this record.
        save_run(job, &begun.run)?;
    } else {
        // No record until the first step: a restart before it begins again from the request
        // (the checkpoint and the answer), which nothing has changed yet.
        job.store.update_run(&job.row)?;
    }
    set_thread(job, ThreadStatus::Busy, None)?;
    let mut head = begun.parent.clone();
    if begun.fresh {
        head = Some(input_checkpoint(job, begun, head)?);
        head = Some(checkpoint(job, begun, 0, Source::Loop, head)?);
        events::values(&job.feed, &begun.run, &job.graph);
    }
    let mut first = true;
    while begun.run.status() == Status::Running || (first && begun.run.at_breakpoint()) {
        first = false;
        if job.cancel.load(Ordering::SeqCst) {
            return Ok(Stopped { cancelled: true, mid_step: false, head });
        }
        let before = begun.run.step_count();
        s.host.at_step(before + 1);
        s.now_step.set(begun.chain() + before + 1);
        s.streamed.borrow_mut().clear();
        // A cancel stops the step where it is (a model call may never answer): the run keeps
        // its record as of the step before.
        let finished = tokio::select! {
            () = begun.run.step(s.host) => true,
            () = cancel_asked(&job.cancel) => false,
        };
        if !finished {
            return Ok(Stopped { cancelled: true, mid_step: true, head });
        }
        let k = begun.run.step_count();
        if k == before {
            // Stopped without a step (a human node or a breakpoint reached): the newest
            // checkpoint now has something waiting.
            if let Some(id) = &head {
                mark_waiting(job, &begun.run, id)?;
            }
            events::stopped(&job.feed, &begun.run, &job.graph);
            continue;
        }
        save_run(job, &begun.run)?;
        s.trace.steps(&begun.run);
        let failed = begun.run.steps().last().is_some_and(|s| s.failed);
        if !failed {
            head = Some(checkpoint(job, begun, k, Source::Loop, head)?);
        }
        let chain = begun.chain() + k;
        events::step(&job.feed, &begun.run, &job.graph, chain, &job.row.info, &s.streamed.borrow());
    }
    Ok(Stopped { cancelled: false, mid_step: false, head })
}

/// The run's metadata names the trace of its session (`trace_id`, as its record does), so a
/// client finds the run in its tracing tool.
fn note_trace_id(job: &mut Job, run: &Run) {
    if let Some(id) = run.trace_id() {
        job.row.info.metadata.insert("trace_id".into(), Value::String(id.to_string()));
    }
}

/// The store failed mid-run: the run ends `error` (as far as the store still takes it).
fn store_failed(job: Job, e: &BackendError) {
    let fallback = Fallback::of(&job);
    drop(job);
    fallback.abandon(Abandoned::StoreFailed, format!("the server could not save the run: {e}"));
}

/// Resolves once a cancel has been asked for.
async fn cancel_asked(flag: &AtomicBool) {
    while !flag.load(Ordering::SeqCst) {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// A request the run cannot take (a 422 when its caller waits to hear).
fn invalid(e: impl std::fmt::Display) -> BackendError {
    BackendError::Invalid(e.to_string())
}

/// The plan, its step limit lowered to the run's `recursion_limit` when that is lower.
fn plan_for(job: &Job) -> Result<Rc<Plan>, BackendError> {
    let graph = engine::parse::graph_from_value(job.graph.document.clone()).map_err(invalid)?;
    let mut plan = engine::compile(&graph).plan.ok_or_else(|| invalid("the graph no longer compiles"))?;
    if let Some(limit) = job.row.request.max_steps {
        plan.limits.max_steps = plan.limits.max_steps.min(limit.max(1));
    }
    Ok(Rc::new(plan))
}

/// A run cancelled before it began: `interrupted`, the thread as it was.
fn cancelled_before_start(mut job: Job) {
    drop(job.guard.take());
    drop(job.turn.take());
    job.row.info.status = RunStatus::Interrupted;
    job.row.info.updated_at = now();
    if let Err(e) = job.store.update_run(&job.row) {
        job.feed.push(Event::new("error", json!({"error": "StoreError", "message": e.to_string()})));
    }
    job.feed.close();
    job.on_end.call(job.row);
}

/// The run could not start: the client is told, and a recovered run is failed.
fn refuse(mut job: Job, error: BackendError) {
    // The thread is free before anyone hears of it: the client's next run must not queue.
    drop(job.guard.take());
    drop(job.turn.take());
    if let Some(tx) = job.started.take() {
        let _ = tx.send(Err(error));
        job.feed.close();
        job.on_end.call(job.row);
        return;
    }
    let BackendError::Invalid(message) = error else {
        // Not the request's fault: the store (or the server) failed.
        return store_failed(job, &error);
    };
    job.row.error = Some(("InvalidInput".into(), message.clone()));
    job.row.info.status = RunStatus::Error;
    job.row.info.updated_at = now();
    let saved = job.store.update_run(&job.row).and_then(|()| set_thread(&job, ThreadStatus::Error, None));
    if let Err(e) = saved {
        return store_failed(job, &e);
    }
    job.feed.push(Event::new("error", json!({"error": "InvalidInput", "message": message})));
    job.feed.close();
    job.on_end.call(job.row);
}

/// A run started from its request: a new input at a checkpoint (or on an empty thread), or a
/// checkpoint continued (answering what waits there).
fn begin(job: &Job, plan: Rc<Plan>, host: &JournalHost) -> Result<Begun, BackendError> {
    let request = &job.row.request;
    let at =
        match &request.checkpoint {
            Some(id) => Some(job.store.checkpoint(&request.thread_id, id)?.ok_or_else(|| {
                invalid(format!("checkpoint_id: thread {} has no checkpoint {id}", request.thread_id))
            })?),
            None => head_of(job)?,
        };
    let parent = at.as_ref().map(|c| c.checkpoint.id.clone());
    let mut begun = match (&request.input, at) {
        (Some(input), Some(c)) => {
            // As LangGraph counts: the input checkpoint one after the head, the input applied
            // one after that.
            let first = u64::try_from(c.checkpoint.step + 2).unwrap_or(1);
            let base = (c.checkpoint.values.clone(), first);
            let from = StartFrom { state: &base.0, step: base.1 };
            let run = Run::start_from(plan, from, input.clone(), host).map_err(invalid)?;
            Begun { run, base: Some(base), parent, fresh: true }
        }
        (input, None) => {
            let input = input.clone().unwrap_or_else(|| json!({}));
            let run = Run::start(plan, input, host).map_err(invalid)?;
            Begun { run, base: None, parent, fresh: true }
        }
        (None, Some(c)) => {
            let (run, base) = materialize(job, plan, &c, host)?;
            Begun { run, base, parent, fresh: false }
        }
    };
    if let Some(resume) = &request.resume {
        answer(&mut begun.run, resume.clone()).map_err(invalid)?;
    }
    let before: std::collections::BTreeSet<String> = request.interrupt_before.iter().cloned().collect();
    let after = request.interrupt_after.iter().cloned().collect();
    begun.run.set_breakpoints(Breakpoints { before, after });
    Ok(begun)
}

/// The thread's newest checkpoint, if any.
fn head_of(job: &Job) -> Result<Option<CheckpointRow>, BackendError> {
    let thread = job.store.thread(&job.row.request.thread_id)?;
    match thread.and_then(|t| t.head) {
        Some(id) => job.store.checkpoint(&job.row.request.thread_id, &id),
        None => Ok(None),
    }
}

/// The engine's run at checkpoint `c`: the run that wrote it, rebuilt from its record, then
/// forked there unless `c` is its last step (an `update_state` checkpoint forks with its values).
fn materialize(
    job: &Job,
    plan: Rc<Plan>,
    c: &CheckpointRow,
    host: &JournalHost,
) -> Result<(Run, Option<Base>), BackendError> {
    let owner = job
        .store
        .run(&c.checkpoint.run_id)?
        .ok_or_else(|| invalid(format!("checkpoint {}: its run is gone", c.checkpoint.id)))?;
    let run = rebuild(plan, &owner, host).map_err(invalid)?;
    let run = match &c.set {
        Some(set) => run.fork(c.local_step, Some(set.clone()), host).map_err(invalid)?,
        None if c.local_step == run.step_count() => run,
        None => run.fork(c.local_step, None, host).map_err(invalid)?,
    };
    Ok((run, owner.base))
}

/// A run rebuilt from its stored record.
pub fn rebuild(plan: Rc<Plan>, row: &RunRow, host: &dyn engine::Host) -> Result<Run, String> {
    let record = row.record.clone().ok_or("the run has no record yet")?;
    let record: RunRecord = serde_json::from_value(record).map_err(|e| format!("the stored record: {e}"))?;
    match &row.base {
        Some((state, step)) => Run::from_record_at(plan, StartFrom { state, step: *step }, &record, host),
        None => Run::from_record(plan, &record, host),
    }
    .map_err(|e| e.to_string())
}

/// A run that was going when the server stopped: its record as stored, continued; the step
/// it was in runs again with the journal's replies.
fn recover(job: &Job, plan: Rc<Plan>, host: &JournalHost) -> Result<Begun, BackendError> {
    if job.row.record.is_none() {
        return begin(job, plan, host);
    }
    let run = rebuild(plan, &job.row, host).map_err(invalid)?;
    let parent = head_of(job)?.map(|c| c.checkpoint.id);
    Ok(Begun { run, base: job.row.base.clone(), parent, fresh: false })
}

/// `Command(resume=…)`: one waiting node takes the value; several take a map from interrupt
/// id (or node id) to answer.
fn answer(run: &mut Run, resume: Value) -> Result<(), String> {
    let waiting = run.waiting_for();
    match waiting.as_slice() {
        [] => Err("command.resume: nothing on this thread waits for an answer".into()),
        [node] => run.answer(node, resume).map_err(|e| format!("command.resume: {e}")),
        nodes => {
            let Value::Object(answers) = resume else {
                return Err(format!(
                    "command.resume: {} nodes wait ({}); give a map from interrupt id to answer",
                    nodes.len(),
                    nodes.join(", ")
                ));
            };
            let run_id = run.run_id().to_string();
            for (key, value) in answers {
                let Some(node) = nodes.iter().find(|n| **n == key || interrupt_id(&run_id, n) == key) else {
                    return Err(format!("command.resume: `{key}` names no pending interrupt"));
                };
                run.answer(node, value).map_err(|e| format!("command.resume: {e}"))?;
            }
            Ok(())
        }
    }
}

/// Writes checkpoint `k` of the engine's run; returns its id (the thread's new head).
fn checkpoint(
    job: &Job,
    begun: &Begun,
    k: u64,
    source: Source,
    parent: Option<CheckpointId>,
) -> Result<CheckpointId, BackendError> {
    let run = &begun.run;
    let id = CheckpointId(uuid::Uuid::now_v7().to_string());
    let waiting =
        if run.status() == Status::Interrupted { interrupts(run.run_id(), run.waiting()) } else { Vec::new() };
    let next = if run.status() == Status::Completed { Vec::new() } else { run.next_ids() };
    let row = CheckpointRow {
        checkpoint: Checkpoint {
            id: id.clone(),
            thread_id: job.row.info.thread_id.clone(),
            parent,
            run_id: job.row.info.run_id.clone(),
            step: begun.chain_i64() + i64::try_from(k).unwrap_or(i64::MAX),
            source,
            values: run.state_json(),
            next,
            interrupts: waiting,
            created_at: now(),
            graph_id: job.graph.graph_id.clone(),
            assistant_id: job.graph.assistant_id.clone(),
        },
        local_step: k,
        set: None,
    };
    job.store.insert_checkpoint(&row)?;
    set_thread(job, ThreadStatus::Busy, Some(id.clone()))?;
    Ok(id)
}

/// The checkpoint before a run's input is applied (LangGraph's `source: "input"`): the values
/// it starts from, `__start__` next. A run from it goes on from the input applied.
fn input_checkpoint(job: &Job, begun: &Begun, parent: Option<CheckpointId>) -> Result<CheckpointId, BackendError> {
    let id = CheckpointId(uuid::Uuid::now_v7().to_string());
    let row = CheckpointRow {
        checkpoint: Checkpoint {
            id: id.clone(),
            thread_id: job.row.info.thread_id.clone(),
            parent,
            run_id: job.row.info.run_id.clone(),
            step: begun.chain_i64() - 1,
            source: Source::Input,
            values: begun.base.as_ref().map(|(values, _)| values.clone()).unwrap_or_default(),
            next: vec!["__start__".into()],
            interrupts: Vec::new(),
            created_at: now(),
            graph_id: job.graph.graph_id.clone(),
            assistant_id: job.graph.assistant_id.clone(),
        },
        local_step: 0,
        set: None,
    };
    job.store.insert_checkpoint(&row)?;
    Ok(id)
}

/// Checkpoint `id` as the run stands now: what runs next and waits.
fn mark_waiting(job: &Job, run: &Run, id: &CheckpointId) -> Result<(), BackendError> {
    let thread = &job.row.info.thread_id;
    if let Some(mut row) = job.store.checkpoint(thread, id)? {
        row.checkpoint.next = run.next_ids();
        row.checkpoint.interrupts = interrupts(run.run_id(), run.waiting());
        job.store.replace_checkpoint(&row)?;
    }
    Ok(())
}

/// Saves the run's record as it stands.
fn save_run(job: &Job, run: &Run) -> Result<(), BackendError> {
    let mut row = job.row.clone();
    row.record = Some(serde_json::to_value(run.record(true)).map_err(|e| BackendError::Internal(e.to_string()))?);
    row.info.updated_at = now();
    job.store.update_run(&row)
}

/// Sets the thread's status, and its head when one is given.
fn set_thread(job: &Job, status: ThreadStatus, head: Option<CheckpointId>) -> Result<(), BackendError> {
    if let Some(mut t) = job.store.thread(&job.row.info.thread_id)? {
        t.status = status;
        if head.is_some() {
            t.head = head;
        }
        t.updated_at = now();
        job.store.update_thread(&t)?;
    }
    Ok(())
}

/// The run has stopped: its status as LangGraph names it, the thread's, the last events.
/// `cancelled` is `Some(mid_step)` for a cancelled run: stopped inside a step, the record
/// stored after the step before is kept.
fn finish(mut job: Job, run: &Run, cancelled: Option<bool>, head: Option<CheckpointId>) {
    let (status, thread_status) = match (cancelled.is_some(), run.status()) {
        (true, _) => (RunStatus::Interrupted, ThreadStatus::Idle),
        (false, Status::Completed) => (RunStatus::Success, ThreadStatus::Idle),
        (false, Status::Interrupted) => (RunStatus::Success, ThreadStatus::Interrupted),
        (false, _) => (RunStatus::Error, ThreadStatus::Error),
    };
    job.row.info.status = status;
    job.row.info.updated_at = now();
    if cancelled != Some(true) {
        job.row.record = serde_json::to_value(run.record(true)).ok();
    }
    if status == RunStatus::Error {
        let (kind, message) = match run.error() {
            Some(e) => (error_name(e.kind), e.message.clone()),
            None if run.status() == Status::LimitReached => {
                ("GraphRecursionError".into(), format!("the run reached its step limit ({} steps)", run.step_count()))
            }
            None => ("GraphError".into(), format!("the run stopped {:?}", run.status())),
        };
        job.row.error = Some((kind, message));
    }
    let saved = job.store.update_run(&job.row).and_then(|()| set_thread(&job, thread_status, head));
    if let Err(e) = saved {
        return store_failed(job, &e);
    }
    if let Some((error, message)) = &job.row.error {
        job.feed.push(Event::new("error", json!({"error": error, "message": message})));
    }
    // The thread is free before anyone hears the run ended: their next run must not queue.
    drop(job.guard.take());
    drop(job.turn.take());
    job.feed.close();
    job.on_end.call(job.row);
}

/// An engine error kind as an exception-like name (`GraphRecursionError` at the step limit,
/// as LangGraph names it).
fn error_name(kind: engine::ErrorKind) -> String {
    let name = serde_json::to_value(kind).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
    if name == "limit" {
        return "GraphRecursionError".into();
    }
    let mut out = String::new();
    for part in name.split('_') {
        let mut chars = part.chars();
        if let Some(c) = chars.next() {
            out.extend(c.to_uppercase());
            out.push_str(chars.as_str());
        }
    }
    out + "Error"
}
