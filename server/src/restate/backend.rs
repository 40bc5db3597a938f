//! [`OverRestate`]: the [`Backend`] whose threads and runs live in Restate. Every call goes to
//! the ingress (on a blocking thread: the client is synchronous), so two servers see the same
//! threads, and a run started through one is read, resumed or cancelled through the other.

use std::sync::Arc;
use std::time::Duration;

use futures_util::FutureExt;
use futures_util::future::BoxFuture;
use serde_json::{Map, Value};
use switchyard_serve::client::{Failure, RestateThreads, RunStart, RunView};

use crate::backend::{Backend, BackendError, NewThread, Result};
use crate::domain::{
    Checkpoint, CheckpointId, MultitaskStrategy, Outcome, RunId, RunInfo, RunRequest, RunStatus, StateUpdate, ThreadId,
    ThreadInfo, ThreadQuery,
};
use crate::embedded::RunEnded;
use crate::embedded::store::RunRow;
use crate::feed::{Feed, FeedWriter};
use crate::graphs::Graphs;
use crate::restate::{RestateCrons, convert, follow};

/// How long `wait` and `join` wait for a run before answering with it as it is.
const WAIT: Duration = Duration::from_secs(3600);

/// The Restate backend; cheap to clone.
#[derive(Clone)]
pub struct OverRestate {
    client: Arc<RestateThreads>,
    graphs: Arc<Graphs>,
    runtime: tokio::runtime::Handle,
    /// Told of each run this server started with a webhook, when it ends.
    on_end: Option<RunEnded>,
}

impl OverRestate {
    /// The backend over the ingress at `url`, serving `graphs`.
    pub fn new(url: &str, graphs: Arc<Graphs>, runtime: tokio::runtime::Handle) -> Result<OverRestate> {
        let documents: Vec<Value> = graphs.list.iter().map(|g| g.document.clone()).collect();
        let client = RestateThreads::new(url, &documents).map_err(convert::error)?;
        Ok(OverRestate { client: Arc::new(client), graphs, runtime, on_end: None })
    }

    /// Calls `f` with each run started here with a `webhook`, when it ends (as the embedded
    /// backend's hook: [`crate::webhooks::sender`]).
    pub fn set_on_end(&mut self, f: RunEnded) {
        self.on_end = Some(f);
    }

    /// The crons, kept in Restate beside the threads.
    pub fn cron_store(&self) -> RestateCrons {
        RestateCrons::new(self.client.clone())
    }

    /// Whether the ingress answers and `switchyard serve` is registered there (its thread
    /// list can be read).
    pub async fn check(&self) -> Result<()> {
        self.call(|c, _| c.threads().map(drop)).await.map_err(|e| match e {
            BackendError::NotFound(m) => BackendError::Internal(format!(
                "{m}: is `switchyard serve` registered with this Restate server? (docs/scale.md)"
            )),
            other => other,
        })
    }

    /// Runs `f` with the client on a blocking thread.
    async fn call<T: Send + 'static>(
        &self,
        f: impl FnOnce(&RestateThreads, &Graphs) -> std::result::Result<T, Failure> + Send + 'static,
    ) -> Result<T> {
        let (client, graphs) = (self.client.clone(), self.graphs.clone());
        tokio::task::spawn_blocking(move || f(&client, &graphs))
            .await
            .map_err(|e| BackendError::Internal(e.to_string()))?
            .map_err(convert::error)
    }
}

/// The thread as the domain has it: its head checkpoint and its newest run's status.
fn thread_info(client: &RestateThreads, graphs: &Graphs, id: &str) -> std::result::Result<ThreadInfo, Failure> {
    let doc = client.thread(id)?;
    let last = match doc.runs.last() {
        Some(run) => Some(client.view_of(&doc, run)?),
        None => None,
    };
    let head = client.head(&doc)?.map(|c| convert::checkpoint(&doc, graphs, c));
    Ok(convert::thread_info(&doc, last.as_ref(), head.as_ref()))
}

fn matches(value: &Map<String, Value>, wanted: &Map<String, Value>) -> bool {
    wanted.iter().all(|(k, v)| value.get(k) == Some(v))
}

/// What the client is asked to start for `request`: breakpoints' `"*"` as the graph's nodes,
/// `resume` by interrupt id read as answers by node.
fn run_start(client: &RestateThreads, graphs: &Graphs, request: &RunRequest) -> std::result::Result<RunStart, Failure> {
    let graph = graphs
        .find(request.assistant_id.as_str())
        .ok_or_else(|| Failure::invalid(format!("assistant {} not found", request.assistant_id)))?;
    let stars =
        |ids: &[String]| -> Vec<String> { if ids.iter().any(|i| i == "*") { graph.node_ids() } else { ids.to_vec() } };
    let answers = match &request.resume {
        Some(resume) => {
            let doc = client.thread(request.thread_id.as_str())?;
            let head = client.head(&doc)?;
            let pending = head.map(|c| convert::interrupts(&c.checkpoint.graph_run, &c.interrupts)).unwrap_or_default();
            convert::answers_by_id(resume, &pending)
        }
        None => None,
    };
    Ok(RunStart {
        run_id: None,
        assistant_id: graph.assistant_id.as_str().to_string(),
        graph: graph.document.clone(),
        input: request.input.clone(),
        resume: request.resume.clone(),
        answers,
        checkpoint_id: request.checkpoint.as_ref().map(|c| c.as_str().to_string()),
        interrupt_before: stars(&request.interrupt_before),
        interrupt_after: stars(&request.interrupt_after),
        max_steps: request.max_steps,
        metadata: request.metadata.clone(),
        kwargs: Value::Object(request.kwargs.clone()),
    })
}

/// Cancels the thread's run that goes on, if any, and waits for it to end.
fn cancel_going(client: &RestateThreads, thread: &str) -> std::result::Result<(), Failure> {
    let doc = client.thread(thread)?;
    let Some(last) = doc.runs.last() else { return Ok(()) };
    if client.view_of(&doc, last)?.status.is_final() {
        return Ok(());
    }
    match client.cancel_run(thread, &last.run_id) {
        Ok(()) => {}
        // It ended meanwhile.
        Err(e) if e.status == 409 => return Ok(()),
        Err(e) => return Err(e),
    }
    client.wait_run(thread, &last.run_id, WAIT).map(drop)
}

/// LangGraph puts the graph and the assistant in the thread's metadata at its first run.
fn label(client: &RestateThreads, thread: &str, graphs: &Graphs, assistant: &str) -> std::result::Result<(), Failure> {
    let Some(graph) = graphs.find(assistant) else { return Ok(()) };
    let doc = client.thread(thread)?;
    if doc.metadata.contains_key("graph_id") {
        return Ok(());
    }
    let mut labels = Map::new();
    labels.insert("graph_id".into(), Value::String(graph.graph_id.clone()));
    labels.insert("assistant_id".into(), Value::String(graph.assistant_id.as_str().to_string()));
    client.update_metadata(thread, labels).map(drop)
}

impl Backend for OverRestate {
    fn create_thread(&self, new: NewThread) -> BoxFuture<'_, Result<ThreadInfo>> {
        async move {
            self.call(move |c, g| {
                let id = new.thread_id.map(|t| t.0);
                let doc = c.create_thread(id, new.metadata, new.if_exists_do_nothing)?;
                thread_info(c, g, &doc.thread_id)
            })
            .await
        }
        .boxed()
    }

    fn thread(&self, id: &ThreadId) -> BoxFuture<'_, Result<ThreadInfo>> {
        let id = id.clone();
        async move { self.call(move |c, g| thread_info(c, g, id.as_str())).await }.boxed()
    }

    fn search_threads(&self, q: ThreadQuery) -> BoxFuture<'_, Result<(Vec<ThreadInfo>, usize)>> {
        async move {
            self.call(move |c, g| {
                let mut found = Vec::new();
                for doc in c.threads()?.into_iter().rev() {
                    if q.ids.as_ref().is_some_and(|ids| !ids.iter().any(|i| i.as_str() == doc.thread_id)) {
                        continue;
                    }
                    let info = thread_info(c, g, &doc.thread_id)?;
                    let values = info.values.clone().unwrap_or_default();
                    if matches(&info.metadata, &q.metadata)
                        && matches(&values, &q.values)
                        && q.status.is_none_or(|s| s == info.status)
                    {
                        found.push(info);
                    }
                }
                let total = found.len();
                Ok((found.into_iter().skip(q.offset).take(q.limit).collect(), total))
            })
            .await
        }
        .boxed()
    }

    fn update_thread_metadata(&self, id: &ThreadId, metadata: Map<String, Value>) -> BoxFuture<'_, Result<ThreadInfo>> {
        let id = id.clone();
        async move {
            self.call(move |c, g| {
                c.update_metadata(id.as_str(), metadata)?;
                thread_info(c, g, id.as_str())
            })
            .await
        }
        .boxed()
    }

    fn delete_thread(&self, id: &ThreadId) -> BoxFuture<'_, Result<()>> {
        let id = id.clone();
        async move { self.call(move |c, _| c.delete_thread(id.as_str())).await }.boxed()
    }

    fn copy_thread(&self, id: &ThreadId) -> BoxFuture<'_, Result<ThreadInfo>> {
        let id = id.clone();
        async move {
            self.call(move |c, g| {
                let copy = c.copy_thread(id.as_str())?;
                thread_info(c, g, &copy.thread_id)
            })
            .await
        }
        .boxed()
    }

    fn checkpoint(&self, thread: &ThreadId, id: Option<&CheckpointId>) -> BoxFuture<'_, Result<Option<Checkpoint>>> {
        let (thread, id) = (thread.clone(), id.cloned());
        async move {
            self.call(move |c, g| {
                let doc = c.thread(thread.as_str())?;
                let view = match id {
                    None => c.head(&doc)?,
                    Some(id) => Some(c.checkpoint(&doc, &switchyard_serve::client::Checkpoint::parse(id.as_str())?)?),
                };
                Ok(view.map(|v| convert::checkpoint(&doc, g, v)))
            })
            .await
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
            self.call(move |c, g| {
                let doc = c.thread(thread.as_str())?;
                let all = c.checkpoints(thread.as_str())?;
                let skip = match &before {
                    Some(b) => all.iter().position(|v| v.checkpoint.id() == b.as_str()).map_or(all.len(), |i| i + 1),
                    None => 0,
                };
                Ok(all.into_iter().skip(skip).take(limit).map(|v| convert::checkpoint(&doc, g, v)).collect())
            })
            .await
        }
        .boxed()
    }

    fn update_state(&self, thread: &ThreadId, update: StateUpdate) -> BoxFuture<'_, Result<Checkpoint>> {
        let thread = thread.clone();
        async move {
            self.call(move |c, g| {
                let at = update.checkpoint.as_ref().map(|c| c.as_str().to_string());
                let made = c.update_state(thread.as_str(), update.values, at.as_deref())?;
                let doc = c.thread(thread.as_str())?;
                Ok(convert::checkpoint(&doc, g, c.checkpoint(&doc, &made)?))
            })
            .await
        }
        .boxed()
    }

    fn start_run(&self, request: RunRequest) -> BoxFuture<'_, Result<RunInfo>> {
        async move {
            let asked = request.clone();
            let info = self
                .call(move |c, g| {
                    let start = run_start(c, g, &request)?;
                    let thread = request.thread_id.as_str();
                    if matches!(request.multitask_strategy, MultitaskStrategy::Interrupt | MultitaskStrategy::Rollback)
                    {
                        cancel_going(c, thread)?;
                    }
                    label(c, thread, g, &start.assistant_id)?;
                    let run = match request.multitask_strategy {
                        MultitaskStrategy::Enqueue => c.start_or_enqueue(thread, start)?,
                        _ => c.start_run(thread, start)?,
                    };
                    let doc = c.thread(thread)?;
                    Ok(convert::run_info(&doc, &c.run_view(thread, &run.run_id)?))
                })
                .await?;
            if info.status == RunStatus::Pending && asked.multitask_strategy == MultitaskStrategy::Enqueue {
                self.drain(asked.thread_id.clone());
            }
            self.when_ended(asked, info.run_id.clone());
            Ok(info)
        }
        .boxed()
    }

    fn run(&self, thread: &ThreadId, run: &RunId) -> BoxFuture<'_, Result<RunInfo>> {
        let (thread, run) = (thread.clone(), run.clone());
        async move {
            self.call(move |c, _| {
                let doc = c.thread(thread.as_str())?;
                Ok(convert::run_info(&doc, &c.run_view(thread.as_str(), run.as_str())?))
            })
            .await
        }
        .boxed()
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
            self.call(move |c, _| {
                let doc = c.thread(thread.as_str())?;
                let mut out = Vec::new();
                for queued in doc.queued.iter().rev() {
                    let info = convert::run_info(&doc, &RunView::pending(queued.run.clone()));
                    if status.is_none_or(|s| s == info.status) {
                        out.push(info);
                    }
                }
                for run in doc.runs.iter().rev() {
                    let info = convert::run_info(&doc, &c.view_of(&doc, run)?);
                    if status.is_none_or(|s| s == info.status) {
                        out.push(info);
                    }
                }
                Ok(out.into_iter().skip(offset).take(limit).collect())
            })
            .await
        }
        .boxed()
    }

    fn outcome(&self, thread: &ThreadId, run: &RunId) -> BoxFuture<'_, Result<Outcome>> {
        let (thread, run) = (thread.clone(), run.clone());
        async move {
            self.call(move |c, _| {
                let view = c.wait_run(thread.as_str(), run.as_str(), WAIT)?;
                let interrupts = convert::interrupts(&view.run.graph_run, &view.interrupts);
                Ok(Outcome {
                    status: convert::status(view.status),
                    values: view.values,
                    interrupts: interrupts.into_iter().map(|(_, i)| i).collect(),
                    error: convert::run_error(view.error),
                })
            })
            .await
        }
        .boxed()
    }

    fn feed(&self, thread: &ThreadId, run: &RunId) -> BoxFuture<'_, Result<Feed>> {
        let (thread, run) = (thread.clone(), run.clone());
        async move {
            let (t, r) = (thread.clone(), run.clone());
            let view = self.call(move |c, _| c.run_view(t.as_str(), r.as_str())).await?;
            let graph = self.graphs.find(&view.run.assistant_id).cloned().ok_or_else(|| {
                BackendError::Internal(format!("assistant {} is no longer served", view.run.assistant_id))
            })?;
            let writer = FeedWriter::new();
            let feed = writer.reader();
            follow::spawn(self.client.clone(), graph, thread, run, writer, &self.runtime);
            Ok(feed)
        }
        .boxed()
    }

    fn cancel_run(&self, thread: &ThreadId, run: &RunId) -> BoxFuture<'_, Result<()>> {
        let (thread, run) = (thread.clone(), run.clone());
        async move { self.call(move |c, _| c.cancel_run(thread.as_str(), run.as_str())).await }.boxed()
    }

    fn delete_run(&self, thread: &ThreadId, run: &RunId) -> BoxFuture<'_, Result<()>> {
        let (thread, run) = (thread.clone(), run.clone());
        async move {
            self.call(move |c, _| {
                let view = c.run_view(thread.as_str(), run.as_str())?;
                if !view.status.is_final() {
                    return Err(Failure::conflict(format!("run {run} has not ended: cancel it first")));
                }
                c.change(thread.as_str(), |doc| {
                    doc.runs.retain(|r| r.run_id != run.as_str());
                    Ok(())
                })?;
                Ok(())
            })
            .await
        }
        .boxed()
    }
}

impl OverRestate {
    /// Starts the thread's queued runs in turn, from this server. Kept by this server only:
    /// if it stops first, the queue waits for the next enqueue on the thread.
    fn drain(&self, thread: ThreadId) {
        let this = self.clone();
        self.runtime.spawn(async move {
            if let Err(e) = this.call(move |c, _| c.drain(thread.as_str())).await {
                eprintln!("switchyard server: a thread's queue: {e}");
            }
        });
    }

    /// What this server does when a run it started ends: its webhook is called, a stateless
    /// run's thread deleted a little later (whoever waits reads the outcome first). Kept by
    /// this server only: if it stops first, neither happens.
    fn when_ended(&self, request: RunRequest, run: RunId) {
        let hook = self.on_end.clone().filter(|_| request.webhook.is_some());
        if hook.is_none() && !request.temporary {
            return;
        }
        let this = self.clone();
        self.runtime.spawn(async move {
            let (t, r) = (request.thread_id.clone(), run.clone());
            let ended = this
                .call(move |c, _| {
                    let view = c.wait_run(t.as_str(), r.as_str(), WAIT)?;
                    let doc = c.thread(t.as_str())?;
                    Ok((convert::run_info(&doc, &view), view))
                })
                .await;
            let Ok((info, view)) = ended else { return };
            let temporary = request.temporary;
            let thread = request.thread_id.clone();
            if let Some(hook) = hook {
                let record = Some(serde_json::json!({ "state": view.values }));
                hook(RunRow { info, request, base: None, record, error: convert::run_error(view.error) });
            }
            if temporary {
                tokio::time::sleep(Duration::from_secs(5)).await;
                let _ = this.call(move |c, _| c.delete_thread(thread.as_str())).await;
            }
        });
    }
}
