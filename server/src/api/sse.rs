//! A run's feed as server-sent events: `metadata` first, then the events of the modes asked
//! for, a comment line as a heartbeat when nothing came for a while (a slow model), and the
//! end of the response when the run has ended. A client that goes away leaves the run going,
//! unless it asked for `on_disconnect: "cancel"`.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::response::Sse;
use axum::response::sse::Event as SseEvent;
use futures_util::Stream;
use serde_json::json;

use crate::backend::Backend;
use crate::domain::{RunId, ThreadId};
use crate::feed::{Feed, Next};

/// How long the stream stays quiet before a heartbeat.
pub const HEARTBEAT: Duration = Duration::from_secs(5);

/// Whether an event named `name` is one of `modes`: `messages` events are LangGraph's
/// `messages-tuple` mode, `messages/…` its older `messages` mode; errors always go out.
fn wanted(name: &str, modes: &[String]) -> bool {
    let mode = match name {
        "error" => return true,
        "messages" => "messages-tuple",
        n if n.starts_with("messages/") => "messages",
        n => n,
    };
    modes.iter().any(|m| m == mode)
}

/// Cancels the run when the stream is dropped before its end (the client went away).
struct CancelOnDrop {
    target: Option<(Arc<dyn Backend>, ThreadId, RunId)>,
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if let Some((backend, thread, run)) = self.target.take()
            && let Ok(rt) = tokio::runtime::Handle::try_current()
        {
            rt.spawn(async move {
                let _ = backend.cancel_run(&thread, &run).await;
            });
        }
    }
}

struct StreamState {
    feed: Feed,
    modes: Vec<String>,
    metadata: Option<SseEvent>,
    guard: CancelOnDrop,
}

/// The SSE response for `feed`.
pub fn respond(
    feed: Feed,
    run_id: RunId,
    modes: Vec<String>,
    on_disconnect: Option<(Arc<dyn Backend>, ThreadId)>,
) -> Sse<impl Stream<Item = Result<SseEvent, Infallible>>> {
    let metadata = SseEvent::default().event("metadata").data(json!({"run_id": run_id, "attempt": 1}).to_string());
    let guard = CancelOnDrop { target: on_disconnect.map(|(b, t)| (b, t, run_id)) };
    let state = StreamState { feed, modes, metadata: Some(metadata), guard };
    Sse::new(futures_util::stream::unfold(state, next_event))
}

async fn next_event(mut s: StreamState) -> Option<(Result<SseEvent, Infallible>, StreamState)> {
    if let Some(first) = s.metadata.take() {
        return Some((Ok(first), s));
    }
    loop {
        match s.feed.next(HEARTBEAT).await {
            Next::Event(e) if wanted(&e.name, &s.modes) => {
                let event = SseEvent::default().event(e.name).data(e.data.to_string());
                return Some((Ok(event), s));
            }
            Next::Event(_) => {}
            Next::Quiet => return Some((Ok(SseEvent::default().comment("heartbeat")), s)),
            Next::Done => {
                // The run ended: nothing to cancel.
                s.guard.target = None;
                return None;
            }
        }
    }
}
