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
use tokio::sync::oneshot;

use crate::domain::{Checkpoint, CheckpointId, RunStatus, Source, ThreadStatus};
use crate::embedded::events;
use crate::embedded::host::{HostSettings, JournalHost};
use crate::embedded::store::{Base, CheckpointRow, RunRow, Store};
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
    pub started: Option<oneshot::Sender<Result<(), String>>>,
    /// Held for the run's life: one run at a time per thread.
    pub guard: Option<tokio::sync::OwnedMutexGuard<()>>,
    /// Called with the final row once the run has ended.
    pub on_end: Box<dyn FnOnce(RunRow) + Send>,
}

/// Starts the job's engine thread.
pub fn spawn(job: Job) {
    let failed = job.feed.clone();
    let started = engine::stack::spawn_run_thread("run", move || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build();
        match runtime {
            Ok(rt) => rt.block_on(drive(job)),
            Err(e) => {
                job.feed.push(Event::new("error", json!({"error": "RuntimeError", "message": e.to_string()})));
                job.feed.close();
            }
        }
    });
    if let Err(e) = started {
        failed.push(Event::new("error", json!({"error": "RuntimeError", "message": e.to_string()})));
        failed.close();
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
    let plan = match plan_for(&job) {
        Ok(plan) => plan,
        Err(message) => return refuse(job, message),
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
        Err(message) => return refuse(job, message),
    };
    if let Some(tx) = job.started.take() {
        let _ = tx.send(Ok(()));
    }
    job.row.base = begun.base.clone();
    job.row.info.status = RunStatus::Running;
    if begun.fresh {
        // Its step 0 is a checkpoint, read through this record.
        save_run(&job, &begun.run);
    } else {
        // No record until the first step: a restart before it begins again from the request
        // (the checkpoint and the answer), which nothing has changed yet.
        let _ = job.store.update_run(&job.row);
    }
    set_thread(&job, ThreadStatus::Busy, None);
    let mut head = begun.parent.clone();
    if begun.fresh {
        head = Some(input_checkpoint(&job, &begun, head));
        head = Some(checkpoint(&job, &begun, 0, Source::Loop, head));
        events::values(&job.feed, &begun.run, &job.graph);
    }
    let mut first = true;
    let (mut cancelled, mut mid_step) = (false, false);
    while begun.run.status() == Status::Running || (first && begun.run.at_breakpoint()) {
        first = false;
        if job.cancel.load(Ordering::SeqCst) {
            cancelled = true;
            break;
        }
        let before = begun.run.step_count();
        host.at_step(before + 1);
        now_step.set(begun.chain() + before + 1);
        streamed.borrow_mut().clear();
        // A cancel stops the step where it is (a model call may never answer): the run keeps
        // its record as of the step before.
        let finished = tokio::select! {
            () = begun.run.step(&host) => true,
            () = cancel_asked(&job.cancel) => false,
        };
        if !finished {
            cancelled = true;
            mid_step = true;
            break;
        }
        let k = begun.run.step_count();
        if k == before {
            // Stopped without a step (a human node or a breakpoint reached): the newest
            // checkpoint now has something waiting.
            if let Some(id) = &head {
                mark_waiting(&job, &begun.run, id);
            }
            events::stopped(&job.feed, &begun.run, &job.graph);
            continue;
        }
        save_run(&job, &begun.run);
        let failed = begun.run.steps().last().is_some_and(|s| s.failed);
        if !failed {
            head = Some(checkpoint(&job, &begun, k, Source::Loop, head));
        }
        let chain = begun.chain() + k;
        events::step(&job.feed, &begun.run, &job.graph, chain, &job.row.info, &streamed.borrow());
    }
    if mid_step && let Ok(Some(stored)) = job.store.run(&job.row.info.run_id) {
        job.row.record = stored.record;
    }
    finish(job, &begun.run, cancelled.then_some(mid_step), head);
}

/// Resolves once a cancel has been asked for.
async fn cancel_asked(flag: &AtomicBool) {
    while !flag.load(Ordering::SeqCst) {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// The plan, its step limit lowered to the run's `recursion_limit` when that is lower.
fn plan_for(job: &Job) -> Result<Rc<Plan>, String> {
    let graph = engine::parse::graph_from_value(job.graph.document.clone()).map_err(|e| e.to_string())?;
    let mut plan = engine::compile(&graph).plan.ok_or("the graph no longer compiles")?;
    if let Some(limit) = job.row.request.max_steps {
        plan.limits.max_steps = plan.limits.max_steps.min(limit.max(1));
    }
    Ok(Rc::new(plan))
}

/// The run could not start: the client is told, and a recovered run is failed.
fn refuse(mut job: Job, message: String) {
    // The thread is free before anyone hears of it: the client's next run must not queue.
    drop(job.guard.take());
    if let Some(tx) = job.started.take() {
        let _ = tx.send(Err(message));
        job.feed.close();
        (job.on_end)(job.row);
        return;
    }
    job.row.error = Some(("InvalidInput".into(), message.clone()));
    job.row.info.status = RunStatus::Error;
    job.row.info.updated_at = now();
    let _ = job.store.update_run(&job.row);
    set_thread(&job, ThreadStatus::Error, None);
    job.feed.push(Event::new("error", json!({"error": "InvalidInput", "message": message})));
    job.feed.close();
    (job.on_end)(job.row);
}

/// A run started from its request: a new input at a checkpoint (or on an empty thread), or a
/// checkpoint continued (answering what waits there).
fn begin(job: &Job, plan: Rc<Plan>, host: &JournalHost) -> Result<Begun, String> {
    let request = &job.row.request;
    let at = match &request.checkpoint {
        Some(id) => Some(
            job.store
                .checkpoint(&request.thread_id, id)
                .map_err(|e| e.to_string())?
                .ok_or_else(|| format!("checkpoint_id: thread {} has no checkpoint {id}", request.thread_id))?,
        ),
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
            let run = Run::start_from(plan, from, input.clone(), host).map_err(|e| e.to_string())?;
            Begun { run, base: Some(base), parent, fresh: true }
        }
        (input, None) => {
            let input = input.clone().unwrap_or_else(|| json!({}));
            let run = Run::start(plan, input, host).map_err(|e| e.to_string())?;
            Begun { run, base: None, parent, fresh: true }
        }
        (None, Some(c)) => {
            let (run, base) = materialize(job, plan, &c, host)?;
            Begun { run, base, parent, fresh: false }
        }
    };
    if let Some(resume) = &request.resume {
        answer(&mut begun.run, resume.clone())?;
    }
    let before: std::collections::BTreeSet<String> = request.interrupt_before.iter().cloned().collect();
    let after = request.interrupt_after.iter().cloned().collect();
    begun.run.set_breakpoints(Breakpoints { before, after });
    Ok(begun)
}

/// The thread's newest checkpoint, if any.
fn head_of(job: &Job) -> Result<Option<CheckpointRow>, String> {
    let thread = job.store.thread(&job.row.request.thread_id).map_err(|e| e.to_string())?;
    match thread.and_then(|t| t.head) {
        Some(id) => job.store.checkpoint(&job.row.request.thread_id, &id).map_err(|e| e.to_string()),
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
) -> Result<(Run, Option<Base>), String> {
    let owner = job
        .store
        .run(&c.checkpoint.run_id)
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("checkpoint {}: its run is gone", c.checkpoint.id))?;
    let run = rebuild(plan, &owner, host)?;
    let run = match &c.set {
        Some(set) => run.fork(c.local_step, Some(set.clone()), host).map_err(|e| e.to_string())?,
        None if c.local_step == run.step_count() => run,
        None => run.fork(c.local_step, None, host).map_err(|e| e.to_string())?,
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
fn recover(job: &Job, plan: Rc<Plan>, host: &JournalHost) -> Result<Begun, String> {
    if job.row.record.is_none() {
        return begin(job, plan, host);
    }
    let run = rebuild(plan, &job.row, host)?;
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
fn checkpoint(job: &Job, begun: &Begun, k: u64, source: Source, parent: Option<CheckpointId>) -> CheckpointId {
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
    let _ = job.store.insert_checkpoint(&row);
    set_thread(job, ThreadStatus::Busy, Some(id.clone()));
    id
}

/// The checkpoint before a run's input is applied (LangGraph's `source: "input"`): the values
/// it starts from, `__start__` next. A run from it goes on from the input applied.
fn input_checkpoint(job: &Job, begun: &Begun, parent: Option<CheckpointId>) -> CheckpointId {
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
    let _ = job.store.insert_checkpoint(&row);
    id
}

/// Checkpoint `id` as the run stands now: what runs next and waits.
fn mark_waiting(job: &Job, run: &Run, id: &CheckpointId) {
    let thread = &job.row.info.thread_id;
    if let Ok(Some(mut row)) = job.store.checkpoint(thread, id) {
        row.checkpoint.next = run.next_ids();
        row.checkpoint.interrupts = interrupts(run.run_id(), run.waiting());
        let _ = job.store.replace_checkpoint(&row);
    }
}

/// Saves the run's record as it stands.
fn save_run(job: &Job, run: &Run) {
    let mut row = job.row.clone();
    row.record = serde_json::to_value(run.record(true)).ok();
    row.info.updated_at = now();
    let _ = job.store.update_run(&row);
}

/// Sets the thread's status, and its head when one is given.
fn set_thread(job: &Job, status: ThreadStatus, head: Option<CheckpointId>) {
    if let Ok(Some(mut t)) = job.store.thread(&job.row.info.thread_id) {
        t.status = status;
        if head.is_some() {
            t.head = head;
        }
        t.updated_at = now();
        let _ = job.store.update_thread(&t);
    }
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
    let _ = job.store.update_run(&job.row);
    set_thread(&job, thread_status, head);
    if let Some((error, message)) = &job.row.error {
        job.feed.push(Event::new("error", json!({"error": error, "message": message})));
    }
    // The thread is free before anyone hears the run ended: their next run must not queue.
    drop(job.guard.take());
    job.feed.close();
    (job.on_end)(job.row);
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
