//! A run that cannot go on: its engine thread panicked or never started, its graph is no
//! longer served, or the store failed under it. Without this, the run would stay `running`, its thread busy, and whoever
//! waits on it or streams it would wait for ever. Here the run and its thread are marked
//! `error`, an `error` event goes out, the feed closes and the run's end is told once.

use std::sync::{Arc, Mutex};

use serde_json::json;

use crate::domain::{RunStatus, ThreadStatus};
use crate::embedded::store::{RunRow, Store};
use crate::feed::{Event, FeedWriter};
use crate::wire::time::now;

/// What is called with a run's final row, at most once whoever ends it (the run itself, or
/// [`abandon`] after a panic).
#[derive(Clone)]
pub struct OnEnd(Arc<Mutex<Option<EndHook>>>);

type EndHook = Box<dyn FnOnce(RunRow) + Send>;

impl OnEnd {
    pub fn new(f: impl FnOnce(RunRow) + Send + 'static) -> OnEnd {
        OnEnd(Arc::new(Mutex::new(Some(Box::new(f)))))
    }

    /// Tells of the end, unless it was told already.
    pub fn call(&self, row: RunRow) {
        let f = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
        if let Some(f) = f {
            f(row);
        }
    }

    fn told(&self) -> bool {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner).is_none()
    }
}

/// Why a run is abandoned: the `error` event's and the run's error name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Abandoned {
    /// The engine thread panicked.
    Panicked,
    /// No engine thread (or its runtime) could be started.
    NotStarted,
    /// The run's graph is no longer among those served.
    GraphGone,
    /// The store refused a write the run needs.
    StoreFailed,
}

impl Abandoned {
    fn name(self) -> &'static str {
        match self {
            Abandoned::Panicked => "InternalError",
            Abandoned::NotStarted => "RuntimeError",
            Abandoned::GraphGone => "GraphNotFound",
            Abandoned::StoreFailed => "StoreError",
        }
    }
}

/// Ends `row`'s run as `error` with `message` (its stored row, if newer, is the one ended),
/// unless it was already told ended.
pub fn abandon(store: &Store, row: RunRow, feed: &FeedWriter, on_end: &OnEnd, why: Abandoned, message: String) {
    if on_end.told() {
        return;
    }
    let mut row = store.run(&row.info.run_id).ok().flatten().unwrap_or(row);
    row.info.status = RunStatus::Error;
    row.info.updated_at = now();
    row.error = Some((why.name().into(), message.clone()));
    if let Err(e) = store.update_run(&row) {
        eprintln!("switchyard server: run {}: could not record its error: {e}", row.info.run_id);
    }
    if let Ok(Some(mut t)) = store.thread(&row.info.thread_id) {
        t.status = ThreadStatus::Error;
        t.updated_at = now();
        if let Err(e) = store.update_thread(&t) {
            eprintln!("switchyard server: thread {}: could not record its error: {e}", t.thread_id);
        }
    }
    feed.push(Event::new("error", json!({"error": why.name(), "message": message})));
    feed.close();
    on_end.call(row);
}

/// A panic's message.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    let text = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".into());
    format!("the run's engine failed: {text}")
}
