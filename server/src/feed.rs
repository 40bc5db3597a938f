//! A run's events: a log every stream of that run reads from the start (a client that joins
//! late sees the whole run), and a count that wakes readers when an event arrives.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;
use tokio::sync::watch;

/// One event of a run: the stream mode it belongs to (`values`, `updates`, `debug`,
/// `messages`, …, or `error`) and its data.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub name: String,
    pub data: Value,
}

impl Event {
    pub fn new(name: impl Into<String>, data: Value) -> Event {
        Event { name: name.into(), data }
    }
}

#[derive(Debug, Default)]
struct Log {
    events: Vec<Event>,
    done: bool,
}

/// The writing side, kept by whoever runs the run.
#[derive(Debug, Clone)]
pub struct FeedWriter {
    log: Arc<Mutex<Log>>,
    count: Arc<watch::Sender<usize>>,
}

impl Default for FeedWriter {
    fn default() -> Self {
        FeedWriter::new()
    }
}

impl FeedWriter {
    pub fn new() -> FeedWriter {
        FeedWriter { log: Arc::default(), count: Arc::new(watch::channel(0).0) }
    }

    /// A writer whose run has already ended with these events.
    pub fn finished(events: Vec<Event>) -> FeedWriter {
        let writer = FeedWriter::new();
        for e in events {
            writer.push(e);
        }
        writer.close();
        writer
    }

    pub fn push(&self, event: Event) {
        let n = {
            let mut log = self.log.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            log.events.push(event);
            log.events.len()
        };
        self.count.send_replace(n);
    }

    /// The run has ended: readers finish once they have read everything.
    pub fn close(&self) {
        let n = {
            let mut log = self.log.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            log.done = true;
            log.events.len()
        };
        // Wakes readers even when no event came last.
        self.count.send_modify(|c| *c = n);
    }

    pub fn reader(&self) -> Feed {
        Feed { log: self.log.clone(), count: self.count.subscribe(), read: 0 }
    }
}

/// What a reader gets next.
#[derive(Debug, Clone, PartialEq)]
pub enum Next {
    Event(Event),
    /// Nothing came for a while: time for a heartbeat.
    Quiet,
    /// The run has ended and every event was read.
    Done,
}

/// The reading side: one per stream.
#[derive(Debug)]
pub struct Feed {
    log: Arc<Mutex<Log>>,
    count: watch::Receiver<usize>,
    read: usize,
}

impl Feed {
    /// The next event, waiting at most `quiet` for one.
    pub async fn next(&mut self, quiet: Duration) -> Next {
        loop {
            self.count.mark_unchanged();
            {
                let log = self.log.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                if let Some(e) = log.events.get(self.read) {
                    self.read += 1;
                    return Next::Event(e.clone());
                }
                if log.done {
                    return Next::Done;
                }
            }
            match tokio::time::timeout(quiet, self.count.changed()).await {
                Ok(Ok(())) => {}
                // The writer is gone without closing: nothing more will come.
                Ok(Err(_)) => return Next::Done,
                Err(_) => return Next::Quiet,
            }
        }
    }
}
