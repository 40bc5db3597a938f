//! A run's sessions (format.md §11, §15): each start, and each time a stopped run goes on
//! (resumed, answered, retried, past a limit), is a session exported as one trace. Its id is
//! derived from the run id and the session's first step ([`crate::trace::trace_id_for`]), so
//! a replayed or re-read run names the same traces.

use super::Run;
use crate::record::TraceSession;
use crate::trace::trace_id_for;

/// The sessions a run has had, and whether the latest is still going.
#[derive(Debug, Clone, Default)]
pub(super) struct Sessions {
    pub list: Vec<TraceSession>,
    /// The latest session is going: the run has not stopped since it began.
    pub open: bool,
}

impl Run {
    /// Begins a session at the next step unless one is going. Asking again before a step
    /// runs (a run stopped at a breakpoint and passed it, a failed first step retried) keeps
    /// the one that begins there: a session is named by its first step.
    pub(super) fn open_session(&mut self) {
        if self.sessions.open || !self.owns_tape {
            return;
        }
        self.sessions.open = true;
        let from_step = self.step_count() + 1;
        if self.sessions.list.last().is_some_and(|s| s.from_step == from_step) {
            return;
        }
        let trace_id = trace_id_for(&self.run_id, from_step).to_string();
        self.sessions.list.push(TraceSession { trace_id, from_step });
    }

    /// Ends the session once the run stops (it waits, failed, ended, hit a limit).
    pub(super) fn close_session_if_stopped(&mut self) {
        if self.status != crate::record::Status::Running {
            self.sessions.open = false;
        }
    }

    /// The sessions of a run rebuilt from its record. A record of a run that had not
    /// stopped (written during a run its host lost, or kept by a durable host between steps)
    /// goes on in the same session; a stopped one begins a new session when it goes on.
    pub(super) fn restore_sessions(&mut self, list: &[TraceSession], status: crate::record::Status) {
        let open = status == crate::record::Status::Running && !list.is_empty();
        self.sessions = Sessions { list: list.to_vec(), open };
    }

    /// Every session so far, oldest first (empty for a run inside another: its spans belong
    /// to the outer run's trace).
    pub fn sessions(&self) -> &[TraceSession] {
        &self.sessions.list
    }

    /// The trace id of the run's latest session (32 lowercase hex digits).
    pub fn trace_id(&self) -> Option<&str> {
        self.sessions.list.last().map(|s| s.trace_id.as_str())
    }

    /// The trace of this run's session that ran step `step` (the checkpoint a fork starts
    /// from; step 0 is the first session's).
    pub(super) fn session_of_step(&self, step: u64) -> Option<&TraceSession> {
        let step = step.max(1);
        self.sessions.list.iter().rev().find(|s| s.from_step <= step)
    }
}
