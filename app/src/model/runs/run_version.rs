//! Whether a run on display belongs to the graph as it is now. A record carries the hash of
//! the graph it ran (`graph_hash`) and of each part of it (`graph_parts`); when the open
//! graph's hash differs, the run was made with an earlier version: its steps can still be
//! looked at, but going on from them would run the rest of an old run against a changed
//! graph, so the run panel names what changed and offers a fork instead. A record without a
//! hash (made before records had one) cannot tell, and goes on as it always did.

use engine::GraphHash;
use engine::graph_hash::changes;
use engine::record::RunRecord;

use crate::model::runs::instances::node_of;

/// How many changes the notice lists; the rest are counted.
pub const CHANGES_LISTED: usize = 4;

/// Heading of the notice shown with a run made with an earlier version of the graph.
pub const EARLIER_HEADING: &str = "This run was made with an earlier version of this graph";

#[derive(Debug, Clone, PartialEq, Default)]
pub enum RunVersion {
    /// Made with the graph as it is now, or a record too old to say: it goes on as usual.
    #[default]
    Current,
    /// Made with an earlier version of the graph.
    Earlier(Earlier),
}

impl RunVersion {
    pub fn is_earlier(&self) -> bool {
        matches!(self, RunVersion::Earlier(_))
    }
}

/// What sets an earlier version apart from the graph as it is now.
#[derive(Debug, Clone, PartialEq)]
pub struct Earlier {
    /// What changed, part by part (`node \`b\` changed`), at most [`CHANGES_LISTED`].
    pub changes: Vec<String>,
    /// How many more changes there are than are listed.
    pub more: usize,
    /// A node the run ran or waits for that the graph no longer has: the run cannot be
    /// rebuilt against this version, so it cannot be forked either.
    pub missing: Option<MissingNode>,
}

/// A node a record names that the graph no longer has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingNode {
    pub node: String,
    pub named: Named,
}

/// Where a record names a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Named {
    /// Step `k` ran it (or passed through it).
    Ran(u64),
    /// Step `k` led to it (its `next`, a join it waits at, a map edge's targets).
    After(u64),
    /// The run was about to run it, or waits for it.
    Next,
}

impl MissingNode {
    /// Why the run cannot be forked, as the notice says it.
    pub fn text(&self) -> String {
        let what = match self.named {
            Named::Ran(k) => format!("which it ran in step {k}"),
            Named::After(k) => format!("which step {k} led to"),
            Named::Next => "which it was about to run".to_string(),
        };
        format!("It cannot be forked against this version: node `{}`, {what}, no longer exists.", self.node)
    }
}

impl Earlier {
    /// The line after the listed changes (`and 3 more changes`), if some were left out.
    pub fn more_text(&self) -> Option<String> {
        match self.more {
            0 => None,
            1 => Some("and 1 more change".into()),
            n => Some(format!("and {n} more changes")),
        }
    }
}

/// What the notice says a fork from step `step` does.
pub fn fork_hint(step: usize) -> String {
    format!(
        "Its steps show the run as it was. Fork anyway starts a new run from step {step} against the graph as it is now."
    )
}

/// Which version of the graph `record` belongs to, the open document's hash being `current`.
pub fn run_version(record: &RunRecord, current: &GraphHash) -> RunVersion {
    match &record.graph_hash {
        Some(hash) if *hash != current.hash => {
            let mut all = changes(&record.graph_parts, &current.parts);
            let more = all.len().saturating_sub(CHANGES_LISTED);
            all.truncate(CHANGES_LISTED);
            RunVersion::Earlier(Earlier { changes: all, more, missing: first_missing(record, current) })
        }
        _ => RunVersion::Current,
    }
}

/// The first node the record's steps or its head name that `current` does not have. A
/// mapped node's instances (`node[2]`) name their node.
fn first_missing(record: &RunRecord, current: &GraphHash) -> Option<MissingNode> {
    let steps = record.steps.as_deref().unwrap_or_default();
    // A node a step ran is named by that step, rather than by the one before leading to it.
    let ran = steps.iter().find_map(|s| {
        let names = s.ran.iter().chain(&s.skipped).chain(s.updates.keys()).chain(s.errors.keys());
        absent(current, names.chain(s.details.keys()), Named::Ran(s.step))
    });
    let after = || {
        steps.iter().find_map(|s| {
            let names = s.next.iter().chain(&s.waiting).chain(&s.pending_joins).chain(s.map.keys());
            absent(current, names, Named::After(s.step))
        })
    };
    let next = || absent(current, record.next.iter().chain(record.waiting.iter().map(|w| &w.node)), Named::Next);
    ran.or_else(after).or_else(next)
}

/// The first of `names` whose node `current` does not have.
fn absent<'a>(current: &GraphHash, mut names: impl Iterator<Item = &'a String>, named: Named) -> Option<MissingNode> {
    // The parts of a graph name each node `nodes.<id>` (engine::graph_hash).
    let has = |name: &str| current.parts.contains_key(&format!("nodes.{}", node_of(name)));
    names.find(|n| !has(n)).map(|n| MissingNode { node: node_of(n).to_string(), named })
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{Graph, NodeKind, OfflineHost, Run, compile, parse_graph};
    use serde_json::json;
    use std::rc::Rc;

    fn graph() -> Graph {
        parse_graph(
            &json!({
                "format": "switchyard/graph@1",
                "name": "g",
                "state": {"x": {"type": "integer", "default": 0}, "y": {"type": "integer", "default": 0}},
                "nodes": [
                    {"id": "start", "kind": "start"},
                    {"id": "a", "kind": "set", "set": {"x": "1"}},
                    {"id": "b", "kind": "set", "set": {"y": "state.x * 10"}},
                    {"id": "end", "kind": "end"}
                ],
                "edges": [{"from": "start", "to": "a"}, {"from": "a", "to": "b"}, {"from": "b", "to": "end"}]
            })
            .to_string(),
        )
        .expect("a valid graph")
    }

    /// The record of a run of `g` (it runs `a`, then `b`).
    fn record_of(g: &Graph) -> RunRecord {
        let plan = Rc::new(compile(g).plan.expect("a plan"));
        let host = OfflineHost::new();
        let mut run = Run::start(plan, json!({}), &host).expect("a run");
        let waker = std::task::Waker::noop();
        let mut cx = std::task::Context::from_waker(waker);
        let mut fut = Box::pin(run.run(&host));
        while fut.as_mut().poll(&mut cx).is_pending() {}
        drop(fut);
        let record = run.record(true);
        assert_eq!(record.steps.as_ref().map(Vec::len), Some(2));
        record
    }

    fn set_b(g: &mut Graph, expr: &str) {
        let b = g.nodes.iter_mut().find(|n| n.id == "b").expect("node b");
        b.set.as_mut().expect("a set node").insert("y".into(), expr.into());
    }

    #[test]
    fn the_same_graph_is_current() {
        let g = graph();
        assert_eq!(run_version(&record_of(&g), &GraphHash::of(&g)), RunVersion::Current);
    }

    #[test]
    fn moving_a_node_keeps_the_version() {
        let g = graph();
        let record = record_of(&g);
        let mut moved = g.clone();
        moved.layout = Some(serde_json::from_value(json!({"b": {"x": 400, "y": 90}})).expect("a layout"));
        assert_eq!(run_version(&record, &GraphHash::of(&moved)), RunVersion::Current);
    }

    #[test]
    fn a_record_without_a_hash_goes_on_as_before() {
        let g = graph();
        let mut record = record_of(&g);
        record.graph_hash = None;
        record.graph_parts.clear();
        let mut changed = g.clone();
        set_b(&mut changed, "state.x * 100");
        assert_eq!(run_version(&record, &GraphHash::of(&changed)), RunVersion::Current);
    }

    #[test]
    fn a_changed_expression_is_named_and_the_run_can_be_forked() {
        let g = graph();
        let record = record_of(&g);
        let mut changed = g.clone();
        set_b(&mut changed, "state.x * 100");
        let RunVersion::Earlier(e) = run_version(&record, &GraphHash::of(&changed)) else {
            panic!("an edited node makes the run earlier")
        };
        assert_eq!(e.changes, ["node `b` changed"]);
        assert_eq!(e.more, 0);
        assert_eq!(e.more_text(), None);
        assert_eq!(e.missing, None);
    }

    #[test]
    fn many_changes_are_listed_a_few_at_a_time() {
        let g = graph();
        let record = record_of(&g);
        let mut changed = g.clone();
        set_b(&mut changed, "state.x * 100");
        changed.description = Some("now described".into());
        changed.name = Some("renamed".into());
        for id in ["c", "d", "e"] {
            changed.nodes.push(engine::Node::new(id, NodeKind::Note));
        }
        let RunVersion::Earlier(e) = run_version(&record, &GraphHash::of(&changed)) else {
            panic!("changes make the run earlier")
        };
        assert_eq!(e.changes.len(), CHANGES_LISTED);
        assert_eq!(e.more, 6 - CHANGES_LISTED);
        assert_eq!(e.more_text().as_deref(), Some("and 2 more changes"));
    }

    #[test]
    fn a_node_the_run_ran_that_is_gone_is_named_with_its_step() {
        let g = graph();
        let record = record_of(&g);
        let mut changed = g.clone();
        changed.nodes.retain(|n| n.id != "b");
        changed.edges.retain(|e| e.from != "b" && e.to != "b");
        changed.edges.push(engine::Edge::new("a", "end"));
        let RunVersion::Earlier(e) = run_version(&record, &GraphHash::of(&changed)) else {
            panic!("a removed node makes the run earlier")
        };
        let missing = e.missing.expect("b is missing");
        assert_eq!(missing, MissingNode { node: "b".into(), named: Named::Ran(2) });
        assert_eq!(
            missing.text(),
            "It cannot be forked against this version: node `b`, which it ran in step 2, no longer exists."
        );
        assert!(e.changes.contains(&"node `b` removed".to_string()), "{:?}", e.changes);
    }

    #[test]
    fn a_node_the_run_waits_for_that_is_gone_is_named() {
        let g = graph();
        let mut record = record_of(&g);
        // Stopped before step 2, about to run `b` (a breakpoint, say).
        record.steps.as_mut().expect("steps").pop();
        record.steps.as_mut().expect("steps")[0].next.clear();
        record.step = 1;
        record.next = vec!["b".into()];
        let mut changed = g.clone();
        changed.nodes.retain(|n| n.id != "b");
        let RunVersion::Earlier(e) = run_version(&record, &GraphHash::of(&changed)) else {
            panic!("a removed node makes the run earlier")
        };
        assert_eq!(e.missing, Some(MissingNode { node: "b".into(), named: Named::Next }));
        assert!(e.missing.expect("missing").text().contains("which it was about to run"));
    }

    #[test]
    fn an_instance_names_its_node() {
        let g = graph();
        let mut record = record_of(&g);
        record.steps.as_mut().expect("steps")[1].ran = vec!["b[0]".into(), "b[1]".into()];
        let mut changed = g.clone();
        changed.nodes.retain(|n| n.id != "b");
        let RunVersion::Earlier(e) = run_version(&record, &GraphHash::of(&changed)) else {
            panic!("a removed node makes the run earlier")
        };
        assert_eq!(e.missing.map(|m| m.node).as_deref(), Some("b"));
    }

    #[test]
    fn the_hint_names_the_step_forked_from() {
        assert!(fork_hint(3).contains("from step 3 against the graph as it is now"));
    }
}
