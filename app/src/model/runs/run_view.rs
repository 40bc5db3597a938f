//! Moving through a run on display, as plain data: the step shown (the timeline's position),
//! one step forward or back, the run a subgraph node made at the shown step, and whether
//! the run shown belongs to the graph on the canvas (the subgraph path of nested runs opened
//! equals the canvas's). The taken edges and node statuses at the shown step are
//! [`Playback`]'s.

use std::fmt;

use engine::record::RunRecord;
use serde_json::Map;

use crate::model::editing::editor::ScopeStep;
use crate::model::runs::playback::Playback;

impl Playback {
    /// Shows the next recorded step; false when the last one is already shown.
    pub fn forward(&mut self) -> bool {
        if self.at_end() {
            return false;
        }
        let next = self.displayed + 1;
        self.show(next);
        true
    }

    /// Shows the step before (step 0 stays).
    pub fn back(&mut self) {
        let prev = self.displayed.saturating_sub(1);
        self.show(prev);
    }
}

/// Why a subgraph node's run cannot be shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoNestedRun {
    /// The node has not run up to the shown step.
    NotYet(String),
    /// The node's latest run carries no subgraph run.
    NoSubgraph(String),
}

impl fmt::Display for NoNestedRun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoNestedRun::NotYet(node) => write!(f, "`{node}` has not run a subgraph yet at this step"),
            NoNestedRun::NoSubgraph(node) => write!(f, "`{node}` has no subgraph run to show"),
        }
    }
}

/// The run subgraph node `node` made in its latest run up to the shown step (its steps are in
/// the parent's record), ready to be shown from its last step.
pub fn nested_run(view: &Playback, node: &str) -> Result<Playback, NoNestedRun> {
    let (_, detail) = view.detail(node).ok_or_else(|| NoNestedRun::NotYet(node.to_string()))?;
    let record = serde_json::from_value::<RunRecord>(detail["subgraph"].clone())
        .map_err(|_| NoNestedRun::NoSubgraph(node.to_string()))?;
    Ok(Playback::new(record, Map::new()))
}

/// Whether the run shown, opened through `parents` (subgraph node, enclosing run; outermost
/// first), is of the graph at `scope` on the canvas: the same subgraph nodes in (a definition
/// opened from the inspector is no node's run).
pub fn in_step(parents: &[(String, Playback)], scope: &[ScopeStep]) -> bool {
    parents.len() == scope.len() && parents.iter().zip(scope).all(|((node, _), step)| step.node() == Some(node))
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{OfflineHost, Run, compile, parse_graph};
    use serde_json::json;
    use std::rc::Rc;

    fn approval() -> Playback {
        let g = parse_graph(include_str!("../../../../templates/003-approval.json")).unwrap();
        let plan = Rc::new(compile(&g).plan.unwrap());
        let host = OfflineHost::new();
        let mut run = Run::start(plan, json!({"request": "two laptops"}), &host).unwrap();
        let waker = std::task::Waker::noop();
        let mut cx = std::task::Context::from_waker(waker);
        let waiting = {
            let mut fut = Box::pin(run.run(&host));
            while fut.as_mut().poll(&mut cx).is_pending() {}
            drop(fut);
            run.waiting_for()
        };
        run.answer(&waiting[0], json!({ "decision": "approve" })).unwrap();
        let mut fut = Box::pin(run.run(&host));
        while fut.as_mut().poll(&mut cx).is_pending() {}
        drop(fut);
        Playback::new(run.record(true), run.state_at(0).unwrap().to_json())
    }

    #[test]
    fn forward_and_back_move_the_timeline_within_the_run() {
        let mut p = approval();
        let len = p.len();
        assert!(len >= 3);
        assert!(!p.forward(), "a new playback shows its last step");
        p.show(0);
        p.back();
        assert_eq!(p.displayed, 0);
        assert!(p.forward());
        assert_eq!(p.displayed, 1);
        assert_eq!(p.taken(), p.steps()[0].taken.iter().copied().collect());
        p.show(len + 5);
        assert_eq!(p.displayed, len, "past the end shows the last step");
        p.back();
        assert_eq!(p.displayed, len - 1);
    }

    #[test]
    fn a_subgraph_nodes_run_is_read_from_the_step_details() {
        let inner = approval();
        let mut outer = approval();
        let node = outer.steps()[0].ran[0].clone();
        let steps = outer.record.steps.as_mut().unwrap();
        steps[0].details.insert(node.clone(), json!({ "subgraph": serde_json::to_value(&inner.record).unwrap() }));
        let outer = Playback::new(outer.record, outer.initial);
        let nested = nested_run(&outer, &node).unwrap();
        assert_eq!(nested.record, inner.record);
        assert_eq!(nested.displayed, nested.len());
        assert_eq!(nested_run(&outer, "nobody"), Err(NoNestedRun::NotYet("nobody".into())));
        let mut at_start = outer.clone();
        at_start.show(0);
        assert!(matches!(nested_run(&at_start, &node), Err(NoNestedRun::NotYet(_))));
        let other = outer.steps().iter().flat_map(|s| s.ran.iter()).find(|id| **id != node).cloned();
        if let Some(other) = other
            && outer.detail(&other).is_some()
        {
            assert_eq!(nested_run(&outer, &other), Err(NoNestedRun::NoSubgraph(other.clone())));
        }
        assert!(NoNestedRun::NotYet("x".into()).to_string().contains("has not run a subgraph yet"));
    }

    #[test]
    fn the_run_shown_is_in_step_with_the_canvas_when_the_paths_match() {
        let p = approval();
        let node = |id: &str| ScopeStep::Node(id.to_string());
        assert!(in_step(&[], &[]));
        let parents = vec![("sub".to_string(), p.clone())];
        assert!(in_step(&parents, &[node("sub")]));
        assert!(!in_step(&parents, &[]));
        assert!(!in_step(&[], &[node("sub")]));
        assert!(!in_step(&parents, &[node("other")]));
        assert!(!in_step(&parents, &[ScopeStep::Definition("sub".into())]));
    }
}
