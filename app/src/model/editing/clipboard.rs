//! Copy and paste of a selection, as JSON text (so it travels between tabs through the
//! system clipboard). Pasting gives the nodes fresh ids where theirs are taken, keeps the
//! edges among them, and places them next to the originals.

use std::collections::{BTreeMap, BTreeSet};

use engine::document::{NodeKind, Position};
use engine::{Edge, Graph, Node};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::model::editing::edit::Edit;
use crate::model::editing::geometry::{node_rect, position};
use crate::model::editing::palette::fresh_id_from;
use crate::model::editing::selection::Selection;

pub const FRAGMENT_FORMAT: &str = "switchyard/fragment@1";

/// A piece of a graph on the clipboard.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Fragment {
    pub format: String,
    pub nodes: Vec<Node>,
    #[serde(default)]
    pub edges: Vec<Edge>,
    #[serde(default)]
    pub positions: BTreeMap<String, Position>,
}

/// The selected nodes with the edges among them (and selected edges between them).
pub fn copy(graph: &Graph, selection: &Selection) -> Option<Fragment> {
    if selection.nodes.is_empty() {
        return None;
    }
    let mut positions = BTreeMap::new();
    let mut nodes = Vec::new();
    for (i, n) in graph.nodes.iter().enumerate() {
        if selection.nodes.contains(&n.id) {
            let r = node_rect(graph, i);
            positions.insert(n.id.clone(), position(r.x, r.y));
            nodes.push(n.clone());
        }
    }
    let edges = graph
        .edges
        .iter()
        .filter(|e| selection.nodes.contains(&e.from) && selection.nodes.contains(&e.to))
        .cloned()
        .collect();
    Some(Fragment { format: FRAGMENT_FORMAT.into(), nodes, edges, positions })
}

/// Reads clipboard text: a fragment, a whole graph document, a node, or a list of nodes.
pub fn read(text: &str) -> Result<Fragment, String> {
    let value: Value =
        serde_json::from_str(text.trim()).map_err(|e| format!("the clipboard does not hold JSON: {e}"))?;
    let fragment = match &value {
        Value::Object(m) if m.get("format").and_then(Value::as_str) == Some(FRAGMENT_FORMAT) => {
            serde_json::from_value::<Fragment>(value).map_err(|e| format!("a broken fragment: {e}"))?
        }
        Value::Object(m) if m.get("format").and_then(Value::as_str) == Some(engine::document::GRAPH_FORMAT) => {
            let g = engine::parse::graph_from_value(value).map_err(|e| e.to_string())?;
            let positions = g
                .layout
                .as_ref()
                .map(|l| l.nodes.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
                .unwrap_or_default();
            Fragment { format: FRAGMENT_FORMAT.into(), nodes: g.nodes, edges: g.edges, positions }
        }
        Value::Object(_) => {
            let node: Node = serde_json::from_value(value).map_err(|e| format!("not a node: {e}"))?;
            Fragment { format: FRAGMENT_FORMAT.into(), nodes: vec![node], edges: vec![], positions: BTreeMap::new() }
        }
        Value::Array(_) => {
            let nodes: Vec<Node> = serde_json::from_value(value).map_err(|e| format!("not a list of nodes: {e}"))?;
            Fragment { format: FRAGMENT_FORMAT.into(), nodes, edges: vec![], positions: BTreeMap::new() }
        }
        _ => return Err("the clipboard holds JSON, but not nodes".into()),
    };
    if fragment.nodes.is_empty() {
        return Err("nothing to paste".into());
    }
    Ok(fragment)
}

/// The edit that adds `fragment` to `graph`, offset by (`dx`, `dy`), and the new ids.
/// A `start` node is skipped when the graph already has one.
pub fn paste(graph: &Graph, fragment: &Fragment, dx: f64, dy: f64) -> (Edit, Vec<String>) {
    let has_start = graph.nodes.iter().any(|n| n.kind == NodeKind::Start);
    let mut scratch = graph.clone();
    let mut renamed: BTreeMap<String, String> = BTreeMap::new();
    let mut edits = Vec::new();
    let mut ids = Vec::new();
    for (k, node) in fragment.nodes.iter().enumerate() {
        if node.kind == NodeKind::Start && has_start {
            continue;
        }
        let id = fresh_id_from(&scratch, &node.id);
        let mut n = node.clone();
        n.id = id.clone();
        scratch.nodes.push(n.clone());
        renamed.insert(node.id.clone(), id.clone());
        let pos = fragment.positions.get(&node.id).map_or_else(
            || position(k as f64 * 40.0 + dx, k as f64 * 40.0 + dy),
            |p| Position { x: p.x + dx, y: p.y + dy, ..p.clone() },
        );
        edits.push(Edit::InsertNode { index: usize::MAX, node: n, pos: Some(pos) });
        ids.push(id);
    }
    let kept: BTreeSet<&String> = renamed.keys().collect();
    for e in &fragment.edges {
        if kept.contains(&e.from) && kept.contains(&e.to) {
            let mut e = e.clone();
            e.from = renamed[&e.from].clone();
            e.to = renamed[&e.to].clone();
            e.id = None;
            edits.push(Edit::InsertEdge { index: usize::MAX, edge: e });
        }
    }
    (Edit::Batch(edits), ids)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copy_paste_keeps_inner_edges_and_renames() {
        let mut g = Graph::new("t");
        let mut a = Node::new("a", NodeKind::Set);
        a.set = Some([("x".to_string(), "1".to_string())].into_iter().collect());
        g.nodes.insert(1, a);
        g.edges = vec![Edge::new("start", "a"), Edge::new("a", "end")];
        let sel = Selection { nodes: ["a".to_string(), "end".to_string()].into(), edges: Default::default() };
        let frag = copy(&g, &sel).unwrap();
        assert_eq!(frag.edges, vec![Edge::new("a", "end")]);
        let text = serde_json::to_string(&frag).unwrap();
        let (edit, ids) = paste(&g, &read(&text).unwrap(), 40.0, 40.0);
        assert_eq!(ids, vec!["a_2".to_string(), "end_2".to_string()]);
        edit.apply(&mut g);
        assert!(g.edges.contains(&Edge::new("a_2", "end_2")));
        assert_eq!(g.nodes.len(), 5);
        assert!(engine::validate(&g).iter().all(|d| !d.is_error()), "{:?}", engine::validate(&g));
        let pos = &g.layout.as_ref().unwrap().nodes;
        // `a` had no position: it was drawn in the default grid at x = 300.
        assert_eq!(pos["a_2"].x, 340.0);
    }

    #[test]
    fn pasting_a_document_skips_a_second_start() {
        let g = Graph::new("t");
        let (edit, ids) = paste(&g, &read(&Graph::new("other").to_pretty_json()).unwrap(), 0.0, 0.0);
        assert_eq!(ids, vec!["end_2".to_string()]);
        assert!(!edit.is_empty());
    }

    #[test]
    fn junk_is_refused_with_a_reason() {
        assert!(read("hello").unwrap_err().contains("JSON"));
        assert!(read("42").is_err());
        assert!(read("[]").is_err());
    }
}
