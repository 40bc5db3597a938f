//! What is selected: nodes by id, edges by index.

use std::collections::BTreeSet;

use engine::Graph;

use crate::model::editing::geometry::{Rect, node_rect};

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    pub nodes: BTreeSet<String>,
    pub edges: BTreeSet<usize>,
}

impl Selection {
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty() && self.edges.is_empty()
    }

    pub fn clear(&mut self) {
        self.nodes.clear();
        self.edges.clear();
    }

    pub fn only_node(id: &str) -> Selection {
        Selection { nodes: BTreeSet::from([id.to_string()]), edges: BTreeSet::new() }
    }

    /// A click selects one thing; a shift-click adds it, or removes it if it was selected.
    pub fn click_node(&mut self, id: &str, additive: bool) {
        if additive {
            if !self.nodes.remove(id) {
                self.nodes.insert(id.to_string());
            }
        } else {
            *self = Selection::only_node(id);
        }
    }

    pub fn click_edge(&mut self, index: usize, additive: bool) {
        if additive {
            if !self.edges.remove(&index) {
                self.edges.insert(index);
            }
        } else {
            self.clear();
            self.edges.insert(index);
        }
    }

    /// Selects the nodes a marquee touches (added to the selection with shift).
    pub fn marquee(&mut self, graph: &Graph, area: &Rect, additive: bool) {
        if !additive {
            self.clear();
        }
        for (i, n) in graph.nodes.iter().enumerate() {
            if node_rect(graph, i).intersects(area) {
                self.nodes.insert(n.id.clone());
            }
        }
    }

    /// Drops what no longer exists.
    pub fn retain_existing(&mut self, graph: &Graph) {
        self.nodes.retain(|id| graph.nodes.iter().any(|n| &n.id == id));
        self.edges.retain(|&i| i < graph.edges.len());
    }
}

/// The nodes an edge from `from` may be drawn to, picked from a list (the keyboard's way to
/// connect): none from an end or a note, and never into a start, a note or `from` itself.
pub fn connect_targets(graph: &Graph, from: &str) -> Vec<String> {
    use engine::document::NodeKind;
    let Some(source) = graph.node(from) else { return Vec::new() };
    if matches!(source.kind, NodeKind::End | NodeKind::Note) {
        return Vec::new();
    }
    graph
        .nodes
        .iter()
        .filter(|n| n.id != from && !matches!(n.kind, NodeKind::Start | NodeKind::Note))
        .map(|n| n.id.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::editing::geometry::Point;

    #[test]
    fn clicks_and_shift_clicks() {
        let mut s = Selection::default();
        s.click_node("a", false);
        s.click_node("b", true);
        assert_eq!(s.nodes.len(), 2);
        s.click_node("a", true);
        assert_eq!(s.nodes, BTreeSet::from(["b".to_string()]));
        s.click_edge(3, false);
        assert!(s.nodes.is_empty() && s.edges.contains(&3));
    }

    #[test]
    fn marquee_selects_what_it_touches() {
        let g = Graph::new("t");
        let mut s = Selection::default();
        // `start` sits at the origin of the default grid, `end` to its right.
        s.marquee(&g, &Rect::from_corners(Point::new(-10.0, -10.0), Point::new(50.0, 50.0)), false);
        assert_eq!(s.nodes, BTreeSet::from(["start".to_string()]));
    }

    #[test]
    fn connect_targets_leave_out_what_cannot_be_connected() {
        let g = engine::parse_graph(
            r#"{"format": "switchyard/graph@1", "nodes": [
                {"id": "start", "kind": "start"}, {"id": "a", "kind": "set", "set": {}},
                {"id": "memo", "kind": "note"}, {"id": "end", "kind": "end"}],
               "edges": [{"from": "start", "to": "a"}]}"#,
        )
        .unwrap();
        assert_eq!(connect_targets(&g, "start"), ["a", "end"]);
        assert_eq!(connect_targets(&g, "a"), ["end"]);
        assert!(connect_targets(&g, "end").is_empty());
        assert!(connect_targets(&g, "memo").is_empty());
        assert!(connect_targets(&g, "missing").is_empty());
    }
}
