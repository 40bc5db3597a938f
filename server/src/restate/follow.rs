//! A run followed from any server: its `GraphRun`'s progress read every so often, each step
//! that appeared told to the feed once, the feed closed when the run has ended. A stream that
//! joins late reads the run from its start.

use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use switchyard_serve::client::{RestateThreads, RunStatus, RunView, Source, ThreadDoc};

use crate::domain::{Interrupt, RunId, RunInfo, ThreadId};
use crate::feed::{Event, FeedWriter};
use crate::graphs::LoadedGraph;
use crate::restate::{convert, events};

/// How often a followed run's progress is read.
const POLL: Duration = Duration::from_millis(100);

/// Follows the run on the runtime until it ends, telling `feed`.
pub fn spawn(
    client: Arc<RestateThreads>,
    graph: LoadedGraph,
    thread: ThreadId,
    run: RunId,
    feed: FeedWriter,
    runtime: &tokio::runtime::Handle,
) {
    runtime.spawn(async move {
        // How many of the run's steps were told; `None` until it has started.
        let mut told = None;
        loop {
            let (doc, view) = match read(&client, &thread, &run).await {
                Ok(read) => read,
                Err((kind, message)) => {
                    feed.push(Event::new("error", json!({"error": kind, "message": message})));
                    break;
                }
            };
            let info = convert::run_info(&doc, &view);
            if told.is_none() && view.status != RunStatus::Pending {
                if fresh(&doc, &view)
                    && let Some(values) = &view.values_before
                {
                    events::values(&feed, values, &[], &graph);
                }
                told = Some(0);
            }
            if let Some(n) = told.as_mut() {
                tell_steps(&feed, &view, n, &graph, &info);
            }
            if view.status.is_final() {
                if let Some((kind, message)) = &convert::run_error(view.error.clone()) {
                    feed.push(Event::new("error", json!({"error": kind, "message": message})));
                }
                break;
            }
            tokio::time::sleep(POLL).await;
        }
        feed.close();
    });
}

/// The thread and the run as they stand; an error as the `error` event's kind and message.
async fn read(
    client: &Arc<RestateThreads>,
    thread: &ThreadId,
    run: &RunId,
) -> Result<(ThreadDoc, RunView), (String, String)> {
    let (c, t, r) = (client.clone(), thread.clone(), run.clone());
    let read = tokio::task::spawn_blocking(move || {
        let doc = c.thread(t.as_str())?;
        let view = c.run_view(t.as_str(), r.as_str())?;
        Ok::<_, switchyard_serve::client::Failure>((doc, view))
    })
    .await;
    match read {
        Ok(Ok(read)) => Ok(read),
        Ok(Err(e)) => Err(("RestateError".into(), e.detail)),
        Err(e) => Err(("InternalError".into(), e.to_string())),
    }
}

/// Whether the run began with an input applied (its first event is then those values).
fn fresh(doc: &ThreadDoc, view: &RunView) -> bool {
    let run = &view.run;
    let segment = doc.segment(&run.graph_run);
    run.since_stop == 0 && run.since_step == 0 && segment.is_some_and(|s| s.source == Source::Input)
}

/// Tells the steps not told yet (`told` of them were), as the embedded server tells them: a
/// step in which a human node stopped the run carries the interrupts; a run that stopped
/// without a step of its own (a human node next) tells them after its last step. A step that
/// stopped the run is held back until the run has ended, so that it is told with them.
fn tell_steps(feed: &FeedWriter, view: &RunView, told: &mut usize, graph: &LoadedGraph, info: &RunInfo) {
    let ended = view.status.is_final();
    let pending: Vec<Interrupt> = if ended {
        convert::interrupts(&view.run.graph_run, &view.interrupts).into_iter().map(|(_, i)| i).collect()
    } else {
        Vec::new()
    };
    let mut count = view.steps.len();
    if !ended && view.steps.last().is_some_and(|s| !s.waiting.is_empty()) {
        count -= 1;
    }
    let mut told_pending = false;
    for (k, step) in view.steps.iter().enumerate().take(count).skip(*told) {
        let stopped_here = ended && k + 1 == view.steps.len() && !step.waiting.is_empty();
        told_pending |= stopped_here;
        events::step(feed, step, if stopped_here { &pending } else { &[] }, graph, info);
    }
    *told = count.max(*told);
    if ended && !pending.is_empty() && !told_pending {
        feed.push(Event::new("updates", json!({"__interrupt__": pending})));
        events::values(feed, &view.values, &pending, graph);
    }
}
