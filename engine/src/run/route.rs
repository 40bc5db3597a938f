//! Routing (format.md §5; format.md §10): which edges a node's result follows, and how the routed
//! targets become the next active set, `join: all` nodes held back until every
//! predecessor has run. A node that ran as several map instances is routed once, after all
//! of them.

use std::collections::BTreeSet;

use thin_vec::ThinVec;

use super::Run;
use crate::document::{NodeKind, OnError};
use crate::plan::{Op, PlanEdge, PlanNode};
use crate::record::{ErrorKind, RunError};
use crate::run::map::Targets;
use crate::run::outcome::{Outcome, Route};
use crate::run::task::{Fanout, Task};
use crate::script::from_dynamic;
use crate::state::excerpt;

impl Run {
    /// Routes node `ix` once after everything it did in the step (`outcomes`: the node's
    /// own run and its map instances): its edges by the routes chosen when one of them ran,
    /// its unconditional edges when it was passed through disabled, and its `error` edges
    /// when one failed and it has `on_error: route`.
    pub(super) fn route_node<'o>(
        &self,
        ix: usize,
        outcomes: impl Iterator<Item = &'o Outcome>,
        targets: &mut Targets,
        taken: &mut ThinVec<usize>,
    ) -> Result<(), RunError> {
        let (mut ran, mut bypassed, mut failed) = (None::<Route>, false, false);
        for o in outcomes {
            match o {
                Outcome::Update { route, .. } => match (&mut ran, route) {
                    (Some(Route::Labels(all)), Route::Labels(more)) => {
                        for label in more {
                            if !all.contains(label) {
                                all.push(label.clone());
                            }
                        }
                    }
                    (Some(_), _) => {}
                    (None, route) => ran = Some(route.clone()),
                },
                Outcome::Bypass => bypassed = true,
                Outcome::Failed { .. } => failed = true,
                Outcome::Suspended { .. } => {}
            }
        }
        match &ran {
            Some(route) => self.route(ix, route, false, targets, taken)?,
            None if bypassed => self.bypass_route(ix, targets, taken)?,
            None => {}
        }
        if failed && self.plan.node(ix).on_error == OnError::Route {
            self.route(ix, &Route::Normal, true, targets, taken)?;
        }
        Ok(())
    }

    /// Follows the edges out of `ix` for a node that ran with `route` (or `failed`, for
    /// its `error` edges), adding their targets (and a map edge's instances) and their
    /// indices in the document.
    pub(super) fn route(
        &self,
        ix: usize,
        route: &Route,
        failed: bool,
        targets: &mut Targets,
        taken: &mut ThinVec<usize>,
    ) -> Result<(), RunError> {
        let node = self.plan.node(ix);
        let chosen: Vec<&PlanEdge> = match route {
            _ if failed => self.edges_that_hold(node, node.out.iter().filter(|e| e.is_error_edge()))?,
            Route::Normal => self.edges_that_hold(node, node.out.iter().filter(|e| !e.is_error_edge()))?,
            Route::Labels(labels) => self.labelled_edges(node, labels)?,
        };
        for e in chosen {
            self.follow(node, e, targets, taken)?;
        }
        Ok(())
    }

    /// Follows edge `e` out of `node`: its target runs next, or for a map edge, one
    /// instance of it per item of the edge's list.
    fn follow(
        &self,
        node: &PlanNode,
        e: &PlanEdge,
        targets: &mut Targets,
        taken: &mut ThinVec<usize>,
    ) -> Result<(), RunError> {
        match &e.map {
            None => targets.plain.push(e.to),
            Some(m) => self.map_into(node, e, m, targets)?,
        }
        taken.push(e.index);
        Ok(())
    }

    /// The edges among `edges` whose `when` holds (or that have none), in order.
    fn edges_that_hold<'p>(
        &self,
        node: &PlanNode,
        edges: impl Iterator<Item = &'p PlanEdge>,
    ) -> Result<Vec<&'p PlanEdge>, RunError> {
        let mut out = Vec::new();
        for e in edges {
            if self.holds(node, e)? {
                out.push(e);
            }
        }
        Ok(out)
    }

    /// The edges a node choosing by label follows: for each label its edges, or the
    /// `default` edges when none has it; each edge once, in document order.
    fn labelled_edges<'p>(&self, node: &'p PlanNode, labels: &[String]) -> Result<Vec<&'p PlanEdge>, RunError> {
        let mut chosen = BTreeSet::new();
        for label in labels {
            let mut matching = node.out.iter().filter(|e| e.label.as_deref() == Some(label.as_str())).peekable();
            let edges: Vec<&PlanEdge> = if matching.peek().is_some() {
                matching.collect()
            } else {
                let defaults: Vec<_> = node.out.iter().filter(|e| e.label.as_deref() == Some("default")).collect();
                if defaults.is_empty() {
                    return Err(no_edge_for(node, label));
                }
                defaults
            };
            for e in edges {
                if self.holds(node, e)? {
                    chosen.insert(e.index);
                }
            }
        }
        Ok(node.out.iter().filter(|e| chosen.contains(&e.index)).collect())
    }

    /// Whether edge `e` out of `node` is followed: it has no `when`, or its `when` gives
    /// true on the state after the step.
    fn holds(&self, node: &PlanNode, e: &PlanEdge) -> Result<bool, RunError> {
        let Some(when) = &e.when else { return Ok(true) };
        let edge = || format!("edge {} → {} (edges[{}].when)", node.id, self.plan.node(e.to).id, e.index);
        let v = self.plan.scripting.eval(when, &self.ctx).map_err(|err| RunError {
            node: Some(node.id.to_string()),
            kind: ErrorKind::of_eval(&err),
            message: format!("{}: {err}", edge()),
        })?;
        v.as_bool().map_err(|_| RunError {
            node: Some(node.id.to_string()),
            kind: ErrorKind::Expression,
            message: format!(
                "{} must give true or false, got {}",
                edge(),
                from_dynamic(&v).map(|j| excerpt(&j)).unwrap_or_else(|_| v.type_name().to_string())
            ),
        })
    }

    /// A disabled node follows its unconditional edges; one that chooses by label follows
    /// its `default` edges.
    pub(super) fn bypass_route(
        &self,
        ix: usize,
        targets: &mut Targets,
        taken: &mut ThinVec<usize>,
    ) -> Result<(), RunError> {
        let node = self.plan.node(ix);
        let by_label = matches!(node.op, Op::Router(_)) || matches!(&node.op, Op::Human(h) if h.routes_by_label());
        for e in node.out.iter().filter(|e| e.when.is_none() && !e.is_error_edge()) {
            if !by_label || e.label.as_deref() == Some("default") {
                self.follow(node, e, targets, taken)?;
            }
        }
        Ok(())
    }

    /// Turns routed targets into the next active set, holding back unsatisfied joins.
    pub(super) fn activate(&mut self, targets: Targets) {
        self.next.clear();
        self.fanout = Fanout::routed(targets.mapped, targets.order);
        for t in targets.plain {
            let node = self.plan.node(t);
            if node.kind == NodeKind::End {
                continue;
            }
            if node.join_all {
                self.pending_joins.insert(t);
            } else {
                self.next.insert(t);
            }
        }
        if self.pending_joins.is_empty() {
            return;
        }
        let ready: Vec<usize> = self
            .pending_joins
            .iter()
            .copied()
            .filter(|&j| self.plan.node(j).preds.iter().all(|p| self.join_seen[j].contains(p)))
            .collect();
        for j in ready {
            self.pending_joins.remove(&j);
            self.next.insert(j);
        }
    }

    /// Notes that `ix` ran, for the `join: all` nodes it feeds.
    pub(super) fn mark_ran(&mut self, ix: usize) {
        for &j in &self.plan.node(ix).feeds_joins {
            self.join_seen[j].insert(ix);
        }
    }

    /// Counts the step's tasks as run: their node's turn advances (once per instance),
    /// their joins restart, and the joins they feed see them.
    pub(super) fn count_ran(&mut self, ran: &[Task], skipped: &[Task]) {
        for t in ran.iter().chain(skipped) {
            self.run_counts[t.node] += 1;
            if self.plan.node(t.node).join_all {
                self.join_seen[t.node].clear();
            }
        }
        for t in ran.iter().chain(skipped) {
            self.mark_ran(t.node);
        }
    }

    /// The error of a run that stops while join `j` still waits.
    pub(super) fn join_error(&self, j: usize) -> RunError {
        let node = self.plan.node(j);
        let missing: Vec<&str> =
            node.preds.iter().filter(|p| !self.join_seen[j].contains(p)).map(|&p| &*self.plan.node(p).id).collect();
        RunError {
            node: Some(node.id.to_string()),
            kind: ErrorKind::Join,
            message: format!(
                "join `{}` (join: all) still waits for {}, but nothing else can run",
                node.id,
                missing.join(", ")
            ),
        }
    }
}

/// A label chosen by `node` that no edge carries, with no `default` edge to catch it.
fn no_edge_for(node: &PlanNode, label: &str) -> RunError {
    let labels: Vec<&str> = node.out.iter().filter_map(|e| e.label.as_deref()).collect();
    RunError {
        node: Some(node.id.to_string()),
        kind: ErrorKind::Expression,
        message: format!(
            "`{}` chose `{label}`, but no edge out of it has that label and there is no `default` edge (labels: {})",
            node.id,
            labels.join(", ")
        ),
    }
}
