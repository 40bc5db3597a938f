//! Breakpoints (cli.md; LangGraph's `interrupt_before` / `interrupt_after`): the run stops
//! `interrupted` before a step that would run a node of [`Breakpoints::before`], or after a
//! step that ran one of [`Breakpoints::after`], with one `waiting` entry per node hit.
//!
//! Continuing (stepping again, or resuming a record without an answer) passes the stop: a
//! `before` stop lets that very step run once instead of stopping there again. Human nodes
//! waiting at the same time keep waiting for their answers. A human node is not stopped
//! before: it stops for its answer anyway, and the answer is the go-ahead. An `after` stop
//! only interrupts a run that would go on (a run that completed, failed or reached its limit
//! keeps that status).

use std::collections::BTreeSet;
use std::sync::Arc;

use super::Run;
use crate::record::{Breakpoint, InputError, RunRecord, Status, Waiting};
use crate::run::task::Task;
use crate::run::types::Breakpoints;

impl Run {
    /// Sets where the run stops before or after a node (ids of nodes the plan lacks are
    /// ignored); they apply from the next step on.
    pub fn set_breakpoints(&mut self, breakpoints: Breakpoints) {
        self.breakpoints = breakpoints;
    }

    pub fn breakpoints(&self) -> &Breakpoints {
        &self.breakpoints
    }

    /// Whether the run is stopped at a breakpoint (it may wait for answers too).
    pub fn at_breakpoint(&self) -> bool {
        self.status == Status::Interrupted && self.waiting.iter().any(|w| w.breakpoint.is_some())
    }

    /// Continuing a run stopped at a breakpoint passes it.
    pub(super) fn pass_breakpoint(&mut self) {
        if self.at_breakpoint() {
            self.status = Status::Running;
        }
    }

    /// Stops the run before a step whose `tasks` include a `before` node, unless this stop
    /// was just passed; `waiting` (human nodes without an answer) are listed too. Returns
    /// whether the run stopped.
    pub(super) fn stop_before(&mut self, tasks: &[Task], waiting: &[usize]) -> bool {
        if std::mem::take(&mut self.break_passed) || self.breakpoints.before.is_empty() {
            return false;
        }
        let hit = self.hits(&self.breakpoints.before, tasks.iter().filter(|t| !self.asks(t.node)));
        if hit.is_empty() {
            return false;
        }
        let mut entries = match self.render_waiting(waiting) {
            Ok(w) => w,
            Err((ix, error)) => {
                self.fail_without_step(ix, error);
                return true;
            }
        };
        entries.extend(hit.into_iter().map(|node| at(node, Breakpoint::Before)));
        self.waiting = entries;
        self.status = Status::Interrupted;
        self.break_passed = true;
        true
    }

    /// After a committed step: stops a run that would go on when the step ran an `after` node.
    pub(super) fn stop_after(&mut self) {
        if self.breakpoints.after.is_empty() || !matches!(self.status, Status::Running | Status::Interrupted) {
            return;
        }
        let Some(last) = self.steps.last() else { return };
        let hit = self.hits(&self.breakpoints.after, last.ran.iter());
        if hit.is_empty() {
            return;
        }
        if self.status == Status::Running {
            self.waiting.clear();
        }
        self.waiting.extend(hit.into_iter().map(|node| at(node, Breakpoint::After)));
        self.status = Status::Interrupted;
    }

    /// The ids, sorted, of the nodes of `tasks` that are in `set` (disabled nodes never stop).
    fn hits<'t>(&self, set: &BTreeSet<String>, tasks: impl Iterator<Item = &'t Task>) -> BTreeSet<Arc<str>> {
        tasks
            .map(|t| self.plan.node(t.node))
            .filter(|n| !n.disabled && set.contains(&*n.id))
            .map(|n| n.id.clone())
            .collect()
    }

    /// A run rebuilt from `record` that stopped at a breakpoint: a `before` entry names a node
    /// due next, an `after` entry one its last step ran; a `before` stop is passed when the
    /// run continues.
    pub(super) fn restore_breakpoint_stop(&mut self, record: &RunRecord) -> Result<(), InputError> {
        let next = self.next_tasks();
        for (k, w) in record.waiting.iter().enumerate() {
            let Some(bp) = w.breakpoint else { continue };
            let ix = self.plan.index(&w.node);
            let (holds, what) = match bp {
                Breakpoint::Before => (next.iter().any(|t| Some(t.node) == ix), "is not due to run next"),
                Breakpoint::After => {
                    let ran = self.steps.last().is_some_and(|s| s.ran.iter().any(|t| Some(t.node) == ix));
                    (ran, "did not run in the last step")
                }
            };
            if !holds {
                return Err(InputError {
                    path: format!("waiting[{k}].breakpoint"),
                    message: format!("the run stopped at a breakpoint at `{}`, but `{}` {what}", w.node, w.node),
                });
            }
            if bp == Breakpoint::Before {
                self.break_passed = true;
            }
        }
        Ok(())
    }
}

/// The `waiting` entry of a stop at `node`'s breakpoint.
fn at(node: Arc<str>, breakpoint: Breakpoint) -> Waiting {
    Waiting { node: node.to_string(), prompt: String::new(), options: None, fields: None, breakpoint: Some(breakpoint) }
}
