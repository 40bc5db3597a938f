//! Mermaid `flowchart` export.

use std::fmt::Write;

use crate::document::{Graph, NodeKind};
use crate::plan::DEFAULT_ITEM_NAME;

/// Draws the graph as a Mermaid flowchart: a shape per kind, edge labels and conditions.
/// Notes are left out; a disabled node is drawn dashed; a node that `use`s a definition
/// names it.
pub fn to_mermaid(graph: &Graph) -> String {
    let mut out = String::from("flowchart TD\n");
    for n in &graph.nodes {
        if n.kind == NodeKind::Note {
            continue;
        }
        let text = match &n.use_def {
            Some(def) if n.kind == NodeKind::Subgraph => escape(&format!("{} (uses {def})", n.title())),
            _ => escape(n.title()),
        };
        let id = mermaid_id(&n.id);
        let shape = match n.kind {
            NodeKind::Start | NodeKind::End => format!("([\"{text}\"])"),
            NodeKind::Router => format!("{{\"{text}\"}}"),
            NodeKind::Human => format!("[/\"{text}\"/]"),
            NodeKind::Llm => format!("[[\"{text}\"]]"),
            NodeKind::Http => format!("[(\"{text}\")]"),
            NodeKind::Subgraph => format!("[[\"{text}\"]]"),
            _ => format!("[\"{text}\"]"),
        };
        let _ = writeln!(out, "    {id}{shape}");
    }
    for e in &graph.edges {
        let mut parts: Vec<String> = e.label.iter().cloned().collect();
        if let Some(w) = &e.when {
            parts.push(format!("when {w}"));
        }
        if let Some(m) = &e.map {
            parts.push(format!("for each {} in {m}", e.as_name.as_deref().unwrap_or(DEFAULT_ITEM_NAME)));
        }
        let label = parts.join(" ");
        // A map edge is drawn thick: its target runs once per item.
        let arrow = match (&e.map, &e.when) {
            (Some(_), _) => "==>",
            (None, Some(_)) => "-.->",
            (None, None) => "-->",
        };
        let (from, to) = (mermaid_id(&e.from), mermaid_id(&e.to));
        if label.is_empty() {
            let _ = writeln!(out, "    {from} {arrow} {to}");
        } else {
            let _ = writeln!(out, "    {from} {arrow}|\"{}\"| {to}", escape(&label));
        }
    }
    for n in graph.nodes.iter().filter(|n| n.is_disabled()) {
        let _ = writeln!(out, "    style {} stroke-dasharray: 5 5", mermaid_id(&n.id));
    }
    out
}

/// Node ids such as `end` are Mermaid keywords; a prefix keeps every id safe.
fn mermaid_id(id: &str) -> String {
    format!("n_{}", id.replace('-', "_"))
}

fn escape(text: &str) -> String {
    text.replace('"', "#quot;").replace('\n', " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_shapes_labels_and_conditions() {
        let mut g = Graph::new("t");
        g.nodes.push(crate::document::Node::new("route", NodeKind::Router));
        g.edges.push(crate::document::Edge {
            label: Some("yes".into()),
            when: Some("state.x > 1".into()),
            ..crate::document::Edge::new("route", "end")
        });
        let m = to_mermaid(&g);
        assert!(m.starts_with("flowchart TD\n"));
        assert!(m.contains("n_end([\"end\"])"));
        assert!(m.contains("n_route{\"route\"}"));
        assert!(m.contains("n_route -.->|\"yes when state.x > 1\"| n_end"));
    }

    #[test]
    fn a_node_using_a_definition_names_it() {
        let mut g = Graph::new("t");
        let mut n = crate::document::Node::new("check", NodeKind::Subgraph);
        n.use_def = Some("review".into());
        g.nodes.push(n);
        let m = to_mermaid(&g);
        assert!(m.contains("n_check[[\"check (uses review)\"]]"), "{m}");
    }

    #[test]
    fn draws_map_edges_thick_with_their_list() {
        let mut g = Graph::new("t");
        g.nodes.push(crate::document::Node::new("work", NodeKind::Set));
        g.edges.push(crate::document::Edge {
            map: Some("state.docs".into()),
            as_name: Some("doc".into()),
            ..crate::document::Edge::new("start", "work")
        });
        let m = to_mermaid(&g);
        assert!(m.contains("n_start ==>|\"for each doc in state.docs\"| n_work"), "{m}");
    }
}
