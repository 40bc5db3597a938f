//! What the export thread saw, shared with the [`crate::Exporter`] that reports it at
//! shutdown: spans in flight (the queue's bound), delivered, lost, dropped, and the first
//! reason a request failed. Counters only; nothing here blocks a run.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Why a request to the collector did not deliver its spans.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The collector answered with an error status.
    Status(u16),
    /// No answer within the request's timeout.
    Timeout,
    /// The connection could not be made or broke (refused, reset, DNS…).
    Transport(String),
    /// The exporter failed in another way (its own message).
    Other(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Status(code) => write!(f, "the collector answered HTTP {code}"),
            Failure::Timeout => write!(f, "no answer before the export timeout"),
            Failure::Transport(why) | Failure::Other(why) => write!(f, "{why}"),
        }
    }
}

/// Counters the sending side and the export thread share.
#[derive(Debug, Default)]
pub struct Health {
    /// Spans handed to the processor and not yet exported or lost.
    pub in_flight: AtomicUsize,
    pub delivered: AtomicUsize,
    /// Spans whose export request failed.
    pub lost: AtomicUsize,
    /// Spans refused because the queue was full.
    pub dropped: AtomicUsize,
    first_failure: Mutex<Option<Failure>>,
}

impl Health {
    /// Keeps the first failure: later ones are usually the same cause repeated.
    pub fn note_failure(&self, failure: Failure) {
        if let Ok(mut first) = self.first_failure.lock() {
            first.get_or_insert(failure);
        }
    }

    pub fn first_failure(&self) -> Option<Failure> {
        self.first_failure.lock().ok().and_then(|f| f.clone())
    }

    /// A batch of `n` spans left the queue, delivered or not.
    pub fn settle(&self, n: usize, delivered: bool) {
        self.in_flight.fetch_sub(n, Ordering::AcqRel);
        let counter = if delivered { &self.delivered } else { &self.lost };
        counter.fetch_add(n, Ordering::AcqRel);
    }

    pub fn count(counter: &AtomicUsize) -> usize {
        counter.load(Ordering::Acquire)
    }
}
