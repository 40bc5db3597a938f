//! A run's sessions (format.md §11, §15): each start, and each time a stopped run goes on
//! (resumed, answered, retried, past a limit), is a session exported as one trace. Its id is
//! derived from the run id and the session's first step ([`crate::trace::trace_id_for`]), so
//! a replayed or re-read run names the same traces.

use super::Run;
use crate::record::TraceSession;
use crate::trace::trace_id_for_attempt;

/// The sessions a run has had, and whether the latest is still going.
#[derive(Debug, Clone, Default)]
pub(super) struct Sessions {
    pub list: Vec<TraceSession>,
    /// The latest session is going: the run has not stopped since it began.
    pub open: bool,
    /// The latest session ran a step (a session that stopped before its first step goes on
    /// under the same trace; one that ran a step and failed is retried under another).
    pub ran: bool,
}

impl Run {
    /// Begins a session at the next step unless one is going. A session that stopped before
    /// running a step (a wait before the first step, a breakpoint passed) goes on instead:
    /// it has nothing of its own to show. A failed step retried is a session of its own even
    /// though it starts at the same step: [`trace_id_for_attempt`].
    pub(super) fn open_session(&mut self) {
        if self.sessions.open || !self.owns_tape {
            return;
        }
        self.sessions.open = true;
        let from_step = self.step_count() + 1;
        if self.sessions.list.last().is_some_and(|s| s.from_step == from_step) && !self.sessions.ran {
            return;
        }
        let attempt = self.sessions.list.iter().filter(|s| s.from_step == from_step).count() as u64;
        let trace_id = trace_id_for_attempt(&self.run_id, from_step, attempt).to_string();
        self.sessions.list.push(TraceSession { trace_id, from_step });
        self.sessions.ran = false;
    }

    /// Notes that the session ran a step.
    pub(super) fn session_ran(&mut self) {
        self.sessions.ran = true;
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
    pub(super) fn restore_sessions(&mut self, list: &[TraceSession], status: crate::record::Status, steps: u64) {
        let open = status == crate::record::Status::Running && !list.is_empty();
        let ran = list.last().is_some_and(|s| steps >= s.from_step);
        self.sessions = Sessions { list: list.to_vec(), open, ran };
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
