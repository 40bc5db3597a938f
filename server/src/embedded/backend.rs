//! [`Embedded`]: threads, runs and checkpoints in the store, each run on an engine thread,
//! one run at a time per thread (a thread's lock), runs that were going continued at start.

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::FutureExt;
use futures_util::future::BoxFuture;
use serde_json::{Map, Value};
use tokio::sync::oneshot;

use crate::backend::{Backend, BackendError, NewThread, Result};
use crate::domain::{
    Checkpoint, CheckpointId, MultitaskStrategy, Outcome, RunId, RunInfo, RunRequest, RunStatus, Source, StateUpdate,
    ThreadId, ThreadInfo, ThreadQuery, ThreadStatus,
};
use crate::embedded::host::HostSettings;
use crate::embedded::runner::{self, Job};
use crate::embedded::store::{CheckpointRow, RunRow, Store, ThreadRow};
use crate::feed::{Event, Feed, FeedWriter, Next};
use crate::graphs::Graphs;
use crate::interrupts::interrupts;
use crate::wire::time::now;

/// What is told of each run that ends.
pub type RunEnded = Arc<dyn Fn(RunRow) + Send + Sync>;

/// How long an ended run's events stay in memory for streams that join late.
const FEED_KEPT: Duration = Duration::from_secs(60);

/// What the process knows of a run that has not ended (or ended a moment ago).
#[derive(Clone)]
struct Live {
    feed: FeedWriter,
    cancel: Arc<AtomicBool>,
}

struct Inner {
    store: Store,
    graphs: Arc<Graphs>,
    settings: Arc<HostSettings>,
    live: Mutex<HashMap<RunId, Live>>,
    locks: Mutex<HashMap<ThreadId, Arc<tokio::sync::Mutex<()>>>>,
    /// Called with each run that ends (webhooks).
    on_end: Mutex<Option<RunEnded>>,
    /// The server's runtime (a run ends on its own engine thread).
    runtime: tokio::runtime::Handle,
}

/// The embedded backend; cheap to clone.
#[derive(Clone)]
pub struct Embedded {
    inner: Arc<Inner>,
}

fn not_found(what: &str, id: &impl std::fmt::Display) -> BackendError {
    BackendError::NotFound(format!("{what} {id} not found"))
}

impl Embedded {
    /// The backend over `store`, on the runtime `runtime`. Call [`Embedded::recover`] to
    /// continue the runs a stopped server left.
    pub fn new(
        store: Store,
        graphs: Arc<Graphs>,
        settings: Arc<HostSettings>,
        runtime: tokio::runtime::Handle,
    ) -> Embedded {
        let inner = Inner {
            runtime,
            store,
            graphs,
            settings,
            live: Mutex::default(),
            locks: Mutex::default(),
            on_end: Mutex::new(None),
        };
        Embedded { inner: Arc::new(inner) }
    }

    /// Called with every run that ends, after it is saved.
    pub fn set_on_end(&self, f: RunEnded) {
        *self.inner.on_end.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(f);
    }

    pub fn store(&self) -> &Store {
        &self.inner.store
    }

    /// Continues the runs that were pending or running when the server stopped.
    pub fn recover(&self) -> Result<usize> {
        let mut n = 0;
        for status in [RunStatus::Running, RunStatus::Pending] {
            for row in self.inner.store.runs_with_status(status)? {
                let lock = self.lock_of(&row.info.thread_id);
                let this = self.clone();
                self.inner.runtime.spawn(async move {
                    let guard = lock.lock_owned().await;
                    this.launch(row, Some(guard), true, None);
                });
                n += 1;
            }
        }
        Ok(n)
    }

    fn lock_of(&self, thread: &ThreadId) -> Arc<tokio::sync::Mutex<()>> {
        let mut locks = self.inner.locks.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        locks.entry(thread.clone()).or_default().clone()
    }

    fn live(&self, run: &RunId) -> Option<Live> {
        self.inner.live.lock().unwrap_or_else(std::sync::PoisonError::into_inner).get(run).cloned()
    }

    /// Starts the run's engine thread.
    fn launch(
        &self,
        row: RunRow,
        guard: Option<tokio::sync::OwnedMutexGuard<()>>,
        recover: bool,
        started: Option<oneshot::Sender<std::result::Result<(), String>>>,
    ) {
        let Some(graph) = self.inner.graphs.find(row.info.assistant_id.as_str()).cloned() else {
            if let Some(tx) = started {
                let _ = tx.send(Err(format!("assistant {} is no longer served", row.info.assistant_id)));
            }
            return;
        };
        let live = self
            .live(&row.info.run_id)
            .unwrap_or_else(|| Live { feed: FeedWriter::new(), cancel: Arc::new(AtomicBool::new(false)) });
        self.inner
            .live
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(row.info.run_id.clone(), live.clone());
        let this = self.clone();
        let on_end = Box::new(move |row: RunRow| this.ended(row));
        runner::spawn(Job {
            row,
            graph,
            store: self.inner.store.clone(),
            settings: self.inner.settings.clone(),
            feed: live.feed,
            cancel: live.cancel,
            recover,
            started,
            guard,
            on_end,
        });
    }

    /// A run has ended (or never started): forget it, drop a stateless run's thread, tell
    /// whoever listens.
    fn ended(&self, row: RunRow) {
        // The feed stays a while: a stream asked for as the run started may read it only now.
        let (this, run) = (self.clone(), row.info.run_id.clone());
        self.inner.runtime.spawn(async move {
            tokio::time::sleep(FEED_KEPT).await;
            this.inner.live.lock().unwrap_or_else(std::sync::PoisonError::into_inner).remove(&run);
        });
        if row.request.temporary {
            // A little later: whoever waits for the run reads its outcome first.
            let (store, thread) = (self.inner.store.clone(), row.info.thread_id.clone());
            self.inner.runtime.spawn(async move {
                tokio::time::sleep(Duration::from_secs(5)).await;
                let _ = store.delete_thread(&thread);
            });
        }
        let hook = self.inner.on_end.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone();
        if let Some(hook) = hook {
            hook(row);
        }
    }

    fn thread_info(&self, t: ThreadRow) -> Result<ThreadInfo> {
        let head = match &t.head {
            Some(id) => self.inner.store.checkpoint(&t.thread_id, id)?,
            None => None,
        };
        Ok(ThreadInfo {
            thread_id: t.thread_id,
            created_at: t.created_at,
            updated_at: t.updated_at,
            metadata: t.metadata,
            status: t.status,
            values: head.as_ref().map(|c| c.checkpoint.values.clone()),
            interrupts: head.map(|c| c.checkpoint.interrupts).unwrap_or_default(),
        })
    }

    fn thread_row(&self, id: &ThreadId) -> Result<ThreadRow> {
        self.inner.store.thread(id)?.ok_or_else(|| not_found("thread", id))
    }

    fn run_row(&self, thread: &ThreadId, run: &RunId) -> Result<RunRow> {
        match self.inner.store.run(run)? {
            Some(r) if &r.info.thread_id == thread => Ok(r),
            _ => Err(not_found("run", run)),
        }
    }

    /// Whether a run on this thread has not ended.
    fn busy(&self, thread: &ThreadId) -> Result<Vec<RunId>> {
        self.inner.store.unfinished_runs(thread)
    }

    async fn start(&self, request: RunRequest) -> Result<RunInfo> {
        let thread = request.thread_id.clone();
        let mut t = self.thread_row(&thread)?;
        let busy = self.busy(&thread)?;
        if !busy.is_empty() {
            match request.multitask_strategy {
                MultitaskStrategy::Reject => {
                    return Err(BackendError::Conflict(format!(
                        "thread {thread} is busy with run {}; use multitask_strategy \"enqueue\" to queue this one",
                        busy[0]
                    )));
                }
                MultitaskStrategy::Interrupt | MultitaskStrategy::Rollback => {
                    for run in &busy {
                        self.cancel(&thread, run)?;
                    }
                }
                MultitaskStrategy::Enqueue => {}
            }
        }
        let graph = self.inner.graphs.find(request.assistant_id.as_str()).cloned();
        if let Some(g) = &graph {
            // LangGraph puts the graph and assistant on the thread at its first run.
            t.metadata.entry("graph_id").or_insert_with(|| Value::String(g.graph_id.clone()));
            t.metadata.entry("assistant_id").or_insert_with(|| Value::String(g.assistant_id.0.clone()));
            self.inner.store.update_thread(&t)?;
        }
        let created = now();
        let info = RunInfo {
            run_id: RunId(uuid::Uuid::now_v7().to_string()),
            thread_id: thread.clone(),
            assistant_id: request.assistant_id.clone(),
            status: RunStatus::Pending,
            metadata: request.metadata.clone(),
            kwargs: request.kwargs.clone(),
            multitask_strategy: request.multitask_strategy,
            created_at: created.clone(),
            updated_at: created,
        };
        let row = RunRow { info: info.clone(), request, base: None, record: None, error: None };
        self.inner.store.insert_run(&row)?;
        let lock = self.lock_of(&thread);
        if let Ok(guard) = lock.clone().try_lock_owned() {
            let (tx, rx) = oneshot::channel();
            self.launch(row, Some(guard), false, Some(tx));
            match rx.await {
                Ok(Ok(())) => Ok(info),
                Ok(Err(message)) => {
                    self.inner.store.delete_run(&info.run_id)?;
                    Err(BackendError::Invalid(message))
                }
                Err(_) => Err(BackendError::Internal("the run's thread ended before it started".into())),
            }
        } else {
            // Queued: it starts when the runs before it have ended.
            let live = Live { feed: FeedWriter::new(), cancel: Arc::new(AtomicBool::new(false)) };
            self.inner.live.lock().unwrap_or_else(std::sync::PoisonError::into_inner).insert(info.run_id.clone(), live);
            let this = self.clone();
            tokio::spawn(async move {
                let guard = lock.lock_owned().await;
                this.launch(row, Some(guard), false, None);
            });
            Ok(info)
        }
    }

    fn cancel(&self, thread: &ThreadId, run: &RunId) -> Result<()> {
        let row = self.run_row(thread, run)?;
        if row.info.status.is_final() {
            return Err(BackendError::Conflict(format!("run {run} has already ended ({})", row.info.status.as_str())));
        }
        if let Some(live) = self.live(run) {
            live.cancel.store(true, Ordering::SeqCst);
        }
        Ok(())
    }

    async fn wait_outcome(&self, thread: &ThreadId, run: &RunId) -> Result<Outcome> {
        let _ = self.run_row(thread, run)?;
        if let Some(live) = self.live(run) {
            let mut feed = live.feed.reader();
            while feed.next(Duration::from_secs(3600)).await != Next::Done {}
        }
        let row = self.run_row(thread, run)?;
        Ok(outcome_of(&row))
    }

    /// `update_state`: the checkpoint's run forked there with `values` set, kept as a new
    /// checkpoint (nothing runs) that becomes the thread's head.
    async fn update(&self, thread: &ThreadId, update: StateUpdate) -> Result<Checkpoint> {
        let t = self.thread_row(thread)?;
        if !self.busy(thread)?.is_empty() {
            return Err(BackendError::Conflict(format!("thread {thread} is busy; update its state once the run ends")));
        }
        let at_id = update.checkpoint.clone().or(t.head.clone()).ok_or_else(|| {
            BackendError::Invalid(format!("thread {thread} has no checkpoint yet; start a run with this input instead"))
        })?;
        let at = self.inner.store.checkpoint(thread, &at_id)?.ok_or_else(|| not_found("checkpoint", &at_id))?;
        let owner =
            self.inner.store.run(&at.checkpoint.run_id)?.ok_or_else(|| not_found("run", &at.checkpoint.run_id))?;
        let graph = self
            .inner
            .graphs
            .find(owner.info.assistant_id.as_str())
            .cloned()
            .ok_or_else(|| BackendError::Invalid("the thread's graph is no longer served".into()))?;
        let mut values = update.values.clone();
        crate::wire::message::values_from_wire(&mut values, &graph.message_fields);
        // Earlier `set`s at the same checkpoint are applied first, then these.
        let set = at.set.clone().map(|mut s| {
            s.extend(values.clone());
            s
        });
        let set = set.unwrap_or(values);
        let document = graph.document.clone();
        let (local_step, for_engine) = (at.local_step, set.clone());
        let forked = on_engine_thread(move || {
            let parsed = engine::parse::graph_from_value(document).map_err(|e| e.to_string())?;
            let plan = Rc::new(engine::compile(&parsed).plan.ok_or("the graph no longer compiles")?);
            let host = engine::OfflineHost::new();
            let run = runner::rebuild(plan, &owner, &host)?;
            let fork = run.fork(local_step, Some(for_engine), &host).map_err(|e| e.to_string())?;
            let waits = interrupts(fork.run_id(), fork.waiting());
            Ok((fork.state_json(), fork.next_ids(), waits))
        })
        .await
        .map_err(BackendError::Invalid)?;
        let (values, next, waits) = forked;
        let row = CheckpointRow {
            checkpoint: Checkpoint {
                id: CheckpointId(uuid::Uuid::now_v7().to_string()),
                thread_id: thread.clone(),
                parent: Some(at.checkpoint.id.clone()),
                run_id: at.checkpoint.run_id.clone(),
                step: at.checkpoint.step + 1,
                source: Source::Update,
                values,
                next,
                interrupts: waits,
                created_at: now(),
                graph_id: at.checkpoint.graph_id.clone(),
                assistant_id: at.checkpoint.assistant_id.clone(),
            },
            local_step: at.local_step,
            set: Some(set),
        };
        self.inner.store.insert_checkpoint(&row)?;
        let mut t = t;
        t.head = Some(row.checkpoint.id.clone());
        t.status = if row.checkpoint.next.is_empty() { ThreadStatus::Idle } else { ThreadStatus::Interrupted };
        t.updated_at = now();
        self.inner.store.update_thread(&t)?;
        Ok(row.checkpoint)
    }

    fn copy(&self, id: &ThreadId) -> Result<ThreadInfo> {
        let t = self.thread_row(id)?;
        let new_id = ThreadId(uuid::Uuid::now_v7().to_string());
        let store = &self.inner.store;
        let mut runs = store.runs_of(id)?;
        runs.reverse();
        let mut run_ids = HashMap::new();
        for mut r in runs.into_iter().filter(|r| r.info.status.is_final()) {
            let fresh = RunId(uuid::Uuid::now_v7().to_string());
            run_ids.insert(r.info.run_id.clone(), fresh.clone());
            r.info.run_id = fresh;
            r.info.thread_id = new_id.clone();
            r.request.thread_id = new_id.clone();
            store.insert_run(&r)?;
        }
        let mut checkpoints = store.checkpoints(id)?;
        checkpoints.reverse();
        let mut ids = HashMap::new();
        for mut c in checkpoints {
            let Some(run) = run_ids.get(&c.checkpoint.run_id) else { continue };
            let fresh = CheckpointId(uuid::Uuid::now_v7().to_string());
            ids.insert(c.checkpoint.id.clone(), fresh.clone());
            c.checkpoint.id = fresh;
            c.checkpoint.thread_id = new_id.clone();
            c.checkpoint.run_id = run.clone();
            c.checkpoint.parent = c.checkpoint.parent.and_then(|p| ids.get(&p).cloned());
            store.insert_checkpoint(&c)?;
        }
        let at = now();
        let copy = ThreadRow {
            thread_id: new_id,
            created_at: at.clone(),
            updated_at: at,
            metadata: t.metadata,
            status: if t.status == ThreadStatus::Busy { ThreadStatus::Idle } else { t.status },
            head: t.head.and_then(|h| ids.get(&h).cloned()),
        };
        store.insert_thread(&copy)?;
        self.thread_info(copy)
    }
}

/// Runs `work` on an engine thread (a stack of known size) and awaits its answer.
async fn on_engine_thread<T: Send + 'static>(
    work: impl FnOnce() -> std::result::Result<T, String> + Send + 'static,
) -> std::result::Result<T, String> {
    let (tx, rx) = oneshot::channel();
    engine::stack::spawn_run_thread("engine", move || {
        let _ = tx.send(work());
    })
    .map_err(|e| e.to_string())?;
    rx.await.map_err(|_| "the engine's thread ended early".to_string())?
}

/// How a stored run ended.
fn outcome_of(row: &RunRow) -> Outcome {
    let record = row.record.as_ref();
    let values: Map<String, Value> =
        record.and_then(|r| r.get("state")).and_then(Value::as_object).cloned().unwrap_or_default();
    let waits = record
        .filter(|r| r.get("status").and_then(Value::as_str) == Some("interrupted"))
        .and_then(|r| {
            let waiting: Vec<engine::record::Waiting> = serde_json::from_value(r.get("waiting")?.clone()).ok()?;
            Some(interrupts(r.get("run_id")?.as_str()?, &waiting))
        })
        .unwrap_or_default();
    Outcome {
        status: row.info.status,
        values,
        interrupts: waits.into_iter().map(|(_, i)| i).collect(),
        error: row.error.clone(),
    }
}

/// Whether `value` holds every key of `wanted` with an equal value.
fn matches(value: &Map<String, Value>, wanted: &Map<String, Value>) -> bool {
    wanted.iter().all(|(k, v)| value.get(k) == Some(v))
}

impl Backend for Embedded {
    fn create_thread(&self, new: NewThread) -> BoxFuture<'_, Result<ThreadInfo>> {
        async move {
            let id = new.thread_id.clone().unwrap_or_else(|| ThreadId(uuid::Uuid::now_v7().to_string()));
            if let Some(existing) = self.inner.store.thread(&id)? {
                if new.if_exists_do_nothing {
                    return self.thread_info(existing);
                }
                return Err(BackendError::Conflict(format!("thread {id} already exists")));
            }
            let at = now();
            let row = ThreadRow {
                thread_id: id,
                created_at: at.clone(),
                updated_at: at,
                metadata: new.metadata,
                status: ThreadStatus::Idle,
                head: None,
            };
            self.inner.store.insert_thread(&row)?;
            self.thread_info(row)
        }
        .boxed()
    }

    fn thread(&self, id: &ThreadId) -> BoxFuture<'_, Result<ThreadInfo>> {
        let id = id.clone();
        async move { self.thread_info(self.thread_row(&id)?) }.boxed()
    }

    fn search_threads(&self, q: ThreadQuery) -> BoxFuture<'_, Result<(Vec<ThreadInfo>, usize)>> {
        async move {
            let mut found = Vec::new();
            for t in self.inner.store.threads()? {
                if q.ids.as_ref().is_some_and(|ids| !ids.contains(&t.thread_id))
                    || q.status.is_some_and(|s| s != t.status)
                    || !matches(&t.metadata, &q.metadata)
                {
                    continue;
                }
                let info = self.thread_info(t)?;
                if !q.values.is_empty() && !info.values.as_ref().is_some_and(|v| matches(v, &q.values)) {
                    continue;
                }
                found.push(info);
            }
            let total = found.len();
            Ok((found.into_iter().skip(q.offset).take(q.limit).collect(), total))
        }
        .boxed()
    }

    fn update_thread_metadata(&self, id: &ThreadId, metadata: Map<String, Value>) -> BoxFuture<'_, Result<ThreadInfo>> {
        let id = id.clone();
        async move {
            let mut t = self.thread_row(&id)?;
            t.metadata.extend(metadata);
            t.updated_at = now();
            self.inner.store.update_thread(&t)?;
            self.thread_info(t)
        }
        .boxed()
    }

    fn delete_thread(&self, id: &ThreadId) -> BoxFuture<'_, Result<()>> {
        let id = id.clone();
        async move {
            for run in self.busy(&id)? {
                let _ = self.cancel(&id, &run);
            }
            if self.inner.store.delete_thread(&id)? { Ok(()) } else { Err(not_found("thread", &id)) }
        }
        .boxed()
    }

    fn copy_thread(&self, id: &ThreadId) -> BoxFuture<'_, Result<ThreadInfo>> {
        let id = id.clone();
        async move { self.copy(&id) }.boxed()
    }

    fn checkpoint(&self, thread: &ThreadId, id: Option<&CheckpointId>) -> BoxFuture<'_, Result<Option<Checkpoint>>> {
        let (thread, id) = (thread.clone(), id.cloned());
        async move {
            let t = self.thread_row(&thread)?;
            let Some(id) = id.or(t.head) else { return Ok(None) };
            match self.inner.store.checkpoint(&thread, &id)? {
                Some(c) => Ok(Some(c.checkpoint)),
                None => Err(not_found("checkpoint", &id)),
            }
        }
        .boxed()
    }

    fn history(
        &self,
        thread: &ThreadId,
        limit: usize,
        before: Option<&CheckpointId>,
    ) -> BoxFuture<'_, Result<Vec<Checkpoint>>> {
        let (thread, before) = (thread.clone(), before.cloned());
        async move {
            self.thread_row(&thread)?;
            let all = self.inner.store.checkpoints(&thread)?;
            let skip = match &before {
                Some(b) => all.iter().position(|c| &c.checkpoint.id == b).map_or(all.len(), |i| i + 1),
                None => 0,
            };
            Ok(all.into_iter().skip(skip).take(limit).map(|c| c.checkpoint).collect())
        }
        .boxed()
    }

    fn update_state(&self, thread: &ThreadId, update: StateUpdate) -> BoxFuture<'_, Result<Checkpoint>> {
        let thread = thread.clone();
        async move { self.update(&thread, update).await }.boxed()
    }

    fn start_run(&self, request: RunRequest) -> BoxFuture<'_, Result<RunInfo>> {
        async move { self.start(request).await }.boxed()
    }

    fn run(&self, thread: &ThreadId, run: &RunId) -> BoxFuture<'_, Result<RunInfo>> {
        let (thread, run) = (thread.clone(), run.clone());
        async move { Ok(self.run_row(&thread, &run)?.info) }.boxed()
    }

    fn list_runs(
        &self,
        thread: &ThreadId,
        status: Option<RunStatus>,
        limit: usize,
        offset: usize,
    ) -> BoxFuture<'_, Result<Vec<RunInfo>>> {
        let thread = thread.clone();
        async move {
            self.thread_row(&thread)?;
            let runs = self.inner.store.runs_of(&thread)?;
            let runs = runs.into_iter().map(|r| r.info).filter(|r| status.is_none_or(|s| r.status == s));
            Ok(runs.skip(offset).take(limit).collect())
        }
        .boxed()
    }

    fn outcome(&self, thread: &ThreadId, run: &RunId) -> BoxFuture<'_, Result<Outcome>> {
        let (thread, run) = (thread.clone(), run.clone());
        async move { self.wait_outcome(&thread, &run).await }.boxed()
    }

    fn feed(&self, thread: &ThreadId, run: &RunId) -> BoxFuture<'_, Result<Feed>> {
        let (thread, run) = (thread.clone(), run.clone());
        async move {
            let row = self.run_row(&thread, &run)?;
            if let Some(live) = self.live(&run) {
                return Ok(live.feed.reader());
            }
            // An ended run: its final values (or its error), as a stream that ends at once.
            let o = outcome_of(&row);
            let mut events = Vec::new();
            if let Some((error, message)) = &o.error {
                events.push(Event::new("error", serde_json::json!({"error": error, "message": message})));
            } else {
                let graph = self.inner.graphs.find(row.info.assistant_id.as_str());
                let fields = graph.map(|g| g.message_fields.clone()).unwrap_or_default();
                events.push(Event::new("values", crate::wire::run::outcome(&o, &fields)));
            }
            Ok(FeedWriter::finished(events).reader())
        }
        .boxed()
    }

    fn cancel_run(&self, thread: &ThreadId, run: &RunId) -> BoxFuture<'_, Result<()>> {
        let (thread, run) = (thread.clone(), run.clone());
        async move { self.cancel(&thread, &run) }.boxed()
    }

    fn delete_run(&self, thread: &ThreadId, run: &RunId) -> BoxFuture<'_, Result<()>> {
        let (thread, run) = (thread.clone(), run.clone());
        async move {
            let row = self.run_row(&thread, &run)?;
            if !row.info.status.is_final() {
                return Err(BackendError::Conflict(format!("run {run} has not ended; cancel it first")));
            }
            self.inner.store.delete_run(&run)
        }
        .boxed()
    }
}
