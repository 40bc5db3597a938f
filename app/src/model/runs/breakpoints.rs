//! Breakpoints (cli.md, LangGraph's `interrupt_before` / `interrupt_after`) as the editor
//! keeps them: a setting of the person's for one graph, stored with the editor's per-graph
//! preferences rather than in the document, and handed to each run it starts.

use std::collections::BTreeSet;

use engine::Graph;
use engine::run::{Breakpoint, Breakpoints, Waiting};
use serde::{Deserialize, Serialize};

use crate::model::storage::doc_id::DocId;

/// The nodes of one graph the person wants runs to stop at.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BreakpointSet {
    #[serde(default)]
    pub before: BTreeSet<String>,
    #[serde(default)]
    pub after: BTreeSet<String>,
}

/// The name of the preference holding the breakpoints of graph `doc`.
pub fn preference_name(doc: &DocId) -> String {
    format!("breakpoints:{doc}")
}

/// What the Inspector and the node's menu call each side.
pub fn side_name(side: Breakpoint) -> &'static str {
    match side {
        Breakpoint::Before => "Break before",
        Breakpoint::After => "Break after",
    }
}

impl BreakpointSet {
    /// Reads a stored preference; anything unreadable is no breakpoints (best effort).
    pub fn parse(text: Option<&str>) -> BreakpointSet {
        text.and_then(|t| serde_json::from_str(t).ok()).unwrap_or_default()
    }

    pub fn to_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    fn side(&self, side: Breakpoint) -> &BTreeSet<String> {
        match side {
            Breakpoint::Before => &self.before,
            Breakpoint::After => &self.after,
        }
    }

    pub fn has(&self, node: &str, side: Breakpoint) -> bool {
        self.side(side).contains(node)
    }

    /// The sides set on `node`, before first.
    pub fn sides_of(&self, node: &str) -> Vec<Breakpoint> {
        [Breakpoint::Before, Breakpoint::After].into_iter().filter(|s| self.has(node, *s)).collect()
    }

    /// Sets or clears the breakpoint on `side` of `node`.
    pub fn set(&mut self, node: &str, side: Breakpoint, on: bool) {
        let set = match side {
            Breakpoint::Before => &mut self.before,
            Breakpoint::After => &mut self.after,
        };
        if on {
            set.insert(node.to_string());
        } else {
            set.remove(node);
        }
    }

    /// Breakpoints for a run of `graph`: those on nodes it has (a node since deleted or
    /// renamed is left out rather than refused by the engine).
    pub fn for_run(&self, graph: &Graph) -> Breakpoints {
        let keep = |s: &BTreeSet<String>| s.iter().filter(|id| graph.node(id).is_some()).cloned().collect();
        Breakpoints { before: keep(&self.before), after: keep(&self.after) }
    }
}

/// Whether a run waiting for `waiting` stopped at breakpoints only (no answer is asked for:
/// the next step goes on).
pub fn at_breakpoint(waiting: &[Waiting]) -> bool {
    !waiting.is_empty() && waiting.iter().all(|w| w.breakpoint.is_some())
}

/// What the run panel says about a run stopped at a breakpoint.
pub fn stopped_text(node: &str, side: Breakpoint) -> String {
    match side {
        Breakpoint::Before => format!("Stopped at a breakpoint before `{node}` runs"),
        Breakpoint::After => format!("Stopped at a breakpoint after `{node}` ran"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{Node, NodeKind};

    #[test]
    fn toggled_breakpoints_survive_being_stored_and_read_back() {
        let mut b = BreakpointSet::default();
        b.set("ask", Breakpoint::Before, true);
        b.set("ask", Breakpoint::After, true);
        b.set("work", Breakpoint::After, true);
        b.set("ask", Breakpoint::After, false);
        assert_eq!(b.sides_of("ask"), [Breakpoint::Before]);
        assert_eq!(b.sides_of("work"), [Breakpoint::After]);
        assert!(b.sides_of("other").is_empty());
        let back = BreakpointSet::parse(Some(&b.to_text()));
        assert_eq!(back, b);
        assert_eq!(BreakpointSet::parse(Some("not json")), BreakpointSet::default());
        assert_eq!(BreakpointSet::parse(None), BreakpointSet::default());
    }

    #[test]
    fn a_run_gets_the_breakpoints_of_nodes_the_graph_still_has() {
        let mut g = Graph::new("g");
        g.nodes.push(Node::new("work", NodeKind::Set));
        let mut b = BreakpointSet::default();
        b.set("work", Breakpoint::Before, true);
        b.set("gone", Breakpoint::After, true);
        let run = b.for_run(&g);
        assert_eq!(run.before.iter().collect::<Vec<_>>(), ["work"]);
        assert!(run.after.is_empty());
    }

    #[test]
    fn a_run_waiting_only_at_breakpoints_goes_on_without_an_answer() {
        let at = |node: &str, breakpoint| Waiting {
            node: node.into(),
            prompt: String::new(),
            options: None,
            fields: None,
            breakpoint,
        };
        assert!(at_breakpoint(&[at("a", Some(Breakpoint::Before)), at("b", Some(Breakpoint::After))]));
        assert!(!at_breakpoint(&[at("a", Some(Breakpoint::Before)), at("ask", None)]), "a person is asked too");
        assert!(!at_breakpoint(&[]));
    }

    #[test]
    fn each_graph_has_its_own_preference_and_the_stop_is_described() {
        let a = preference_name(&DocId::Library("a".into()));
        let b = preference_name(&DocId::Library("b".into()));
        assert_ne!(a, b);
        assert_eq!(stopped_text("ask", Breakpoint::Before), "Stopped at a breakpoint before `ask` runs");
        assert_eq!(stopped_text("ask", Breakpoint::After), "Stopped at a breakpoint after `ask` ran");
    }
}
