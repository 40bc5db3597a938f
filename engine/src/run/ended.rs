//! Ending with an outcome (format.md §4, end): a step that routes into an `end` node with
//! `outcome: failed` ends the run `failed` after that step, whatever else was active, with
//! error kind `ended` and the end's `message` rendered against the state after the step.
//!
//! Nothing runs after it: the run's `next` (and its last step's) is empty, so resuming the
//! record does not bring the other branches back. A run rebuilt at that step (a fork from it,
//! or a retry) ends the same way, since the step's followed edges say where it went.

use super::Run;
use crate::plan::Op;
use crate::record::{ErrorKind, NodeError, RunError, Status};
use crate::run::task::Fanout;

impl Run {
    /// The `end` node with `outcome: failed` that one of the edges `taken` (indices in the
    /// document's `edges`) leads into; the first in id order when there are several.
    pub(super) fn failing_end(&self, taken: &[usize]) -> Option<usize> {
        taken
            .iter()
            .filter_map(|&j| self.plan.graph.edges.get(j))
            .filter_map(|e| self.plan.index(&e.to))
            .filter(|&ix| matches!(self.plan.node(ix).op, Op::End { failed: Some(_) }))
            .min()
    }

    /// Ends the run at failing end `ix` after step `step` (0: at the start): nothing is left
    /// to run, and the error carries the end's message.
    pub(super) fn end_failed(&mut self, ix: usize, step: u64) {
        self.next.clear();
        self.fanout = Fanout::default();
        self.pending_joins.clear();
        self.suspended.borrow_mut().clear();
        self.answers.clear();
        self.waiting.clear();
        if let Some(last) = self.steps.last_mut().filter(|s| s.step == step) {
            last.next.clear();
            last.map = Fanout::default();
            last.pending_joins.clear();
        }
        self.status = Status::Failed;
        self.error = Some(self.ended_error(ix, step));
    }

    /// The error of a run ended at `ix`: its message rendered in the scope after `step`.
    fn ended_error(&self, ix: usize, step: u64) -> RunError {
        let node = self.plan.node(ix);
        let Op::End { failed: Some(end) } = &node.op else {
            return RunError { node: Some(node.id.to_string()), kind: ErrorKind::Ended, message: String::new() };
        };
        self.refresh_context(step);
        let rendered = match &end.message {
            Some(t) => self.plan.scripting.render(t, &self.ctx),
            None => Ok(format!("the run ended at `{}` (outcome: failed)", node.id)),
        };
        match rendered {
            Ok(message) => RunError { node: Some(node.id.to_string()), kind: ErrorKind::Ended, message },
            // The run still ends here; the error says why the message is missing.
            Err(e) => {
                let NodeError { kind, message } = NodeError::expression(&node.id, "message", e);
                RunError { node: Some(node.id.to_string()), kind, message }
            }
        }
    }
}
