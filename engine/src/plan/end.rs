//! `end` nodes (format.md §4, end): reaching one ends a branch; one with `outcome: failed` ends the
//! whole run failed, with its `message` rendered as the run's error.

use crate::document::{NodeField, Outcome};
use crate::plan::check::{Checker, NodeAt};
use crate::plan::types::{FailedEnd, Op};

impl Checker {
    /// `end`: its outcome, and the message of a failed one (a template).
    pub(super) fn end_op(&mut self, at: &NodeAt<'_>) -> Option<Op> {
        let (n, id) = (at.n, at.id());
        let failed = n.outcome == Some(Outcome::Failed);
        let message = match &n.message {
            Some(src) => {
                if !failed {
                    let message = "only an end with `outcome: \"failed\"` shows its message (as the run's error); this one completes";
                    self.warn(at.path(NodeField::Message), message.into(), id, None);
                }
                Some(self.template(at.scripting, src, at.path(NodeField::Message), id)?)
            }
            None => None,
        };
        Some(Op::End { failed: failed.then_some(FailedEnd { message }) })
    }
}
