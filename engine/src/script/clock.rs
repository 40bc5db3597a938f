//! Time limits inside an evaluation. `max_ops` bounds how much a script does, but not how
//! long it takes (a huge `max_ops` and `loop {}`), and timeouts checked between steps never
//! see a step that does not end. So the executor hands the sandbox a deadline on the host's
//! clock before it evaluates, and Rhai's progress callback looks at the clock every
//! [`CHECK_EVERY`] operations: cheap, and a runaway script stops within milliseconds of its
//! deadline.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;

use crate::host::Clock;

/// Operations between two readings of the clock.
pub(super) const CHECK_EVERY: u64 = 4096;

/// The start of every message of an evaluation stopped by its deadline.
const STOPPED: &str = "stopped by its time limit: ";

/// The deadline an evaluation runs under, shared by the sandbox and its progress callback.
#[derive(Default)]
pub(crate) struct Guard {
    clock: RefCell<Option<Clock>>,
    /// When evaluations must stop, on the clock; infinite when there is no deadline.
    deadline_ms: Cell<f64>,
    /// Why, for the error message (`None` until a deadline is set); kept as its parts and written out only when an
    /// evaluation is stopped (the deadline is set several times a step).
    why: RefCell<Option<Why>>,
}

/// What a deadline stands for.
#[derive(Debug, Clone)]
pub(crate) enum Why {
    /// Node `id`'s own limit, `ms` from the step's start.
    Node { id: Arc<str>, ms: f64 },
    /// The run's `run_timeout_ms`.
    Run { run_timeout_ms: u64 },
    /// The limit of the subgraph node the run is embedded in.
    Enclosing { ms: u64 },
}

impl Guard {
    pub(super) fn new() -> Rc<Guard> {
        let g = Guard::default();
        g.deadline_ms.set(f64::INFINITY);
        Rc::new(g)
    }

    /// Evaluations from now on stop at `deadline_ms` on `clock`, for reason `why`.
    pub(crate) fn set(&self, clock: Option<Clock>, deadline_ms: f64, why: Why) {
        *self.clock.borrow_mut() = clock;
        self.deadline_ms.set(deadline_ms);
        *self.why.borrow_mut() = Some(why);
    }

    /// Evaluations from now on run without a deadline.
    pub(crate) fn clear(&self) {
        *self.clock.borrow_mut() = None;
        self.deadline_ms.set(f64::INFINITY);
    }

    /// Whether the deadline has passed (read from the progress callback).
    pub(super) fn expired(&self, ops: u64) -> bool {
        if !ops.is_multiple_of(CHECK_EVERY) || self.deadline_ms.get().is_infinite() {
            return false;
        }
        match &*self.clock.borrow() {
            Some(now) => now() >= self.deadline_ms.get(),
            None => false,
        }
    }

    /// Whether the deadline has passed, read now (for work outside the sandbox that must stop
    /// at the same deadline: a schema check).
    pub(crate) fn passed(&self) -> bool {
        if self.deadline_ms.get().is_infinite() {
            return false;
        }
        self.clock.borrow().as_ref().is_some_and(|now| now() >= self.deadline_ms.get())
    }

    /// The message of an evaluation the deadline stopped.
    pub(crate) fn message(&self) -> String {
        match &*self.why.borrow() {
            Some(Why::Node { id, ms }) => format!("{STOPPED}node `{id}` took longer than {ms} ms"),
            Some(Why::Run { run_timeout_ms }) => {
                format!("{STOPPED}the run's time limit passed (run_timeout_ms {run_timeout_ms})")
            }
            Some(Why::Enclosing { ms }) => format!("{STOPPED}the subgraph node it runs in took longer than {ms} ms"),
            None => STOPPED.to_string(),
        }
    }
}
