//! The small set of edits every gesture becomes. Applying an edit returns its inverse, which
//! is what the undo log keeps.

use engine::document::{Layout, Limits, McpServer, Position, StateField, ToolDef};
use engine::{Edge, Graph, Node};
use indexmap::IndexMap;

/// The graph-wide settings edited in the inspector (everything but nodes, edges and layout).
#[derive(Debug, Clone, PartialEq)]
pub struct Meta {
    pub name: Option<String>,
    pub description: Option<String>,
    pub state: Option<IndexMap<String, StateField>>,
    pub tools: Option<IndexMap<String, ToolDef>>,
    pub mcp_servers: Option<IndexMap<String, McpServer>>,
    pub limits: Option<Limits>,
}

impl Meta {
    pub fn of(g: &Graph) -> Meta {
        Meta {
            name: g.name.clone(),
            description: g.description.clone(),
            state: g.state.clone(),
            tools: g.tools.clone(),
            mcp_servers: g.mcp_servers.clone(),
            limits: g.limits.clone(),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Edit {
    /// Puts `node` at `index` in `nodes`, with its position.
    InsertNode {
        index: usize,
        node: Node,
        pos: Option<Position>,
    },
    /// Takes the node out (its edges must be removed first, in the same batch).
    RemoveNode {
        id: String,
    },
    InsertEdge {
        index: usize,
        edge: Edge,
    },
    RemoveEdge {
        index: usize,
    },
    /// Sets or clears a node's position.
    SetPosition {
        id: String,
        pos: Option<Position>,
    },
    ReplaceNode {
        index: usize,
        node: Node,
    },
    ReplaceEdge {
        index: usize,
        edge: Edge,
    },
    SetMeta(Meta),
    /// Replaces the graph's `definitions` (format.md §9) as a whole: adding, renaming and
    /// removing one. Edits inside a definition are node and edge edits in its scope.
    SetDefinitions(Option<IndexMap<String, Graph>>),
    /// Several edits as one step of undo.
    Batch(Vec<Edit>),
}

impl Edit {
    /// Applies the edit and returns the edit that undoes it. An edit that no longer fits the
    /// graph (a stale index) changes nothing and returns an empty batch.
    pub fn apply(self, g: &mut Graph) -> Edit {
        match self {
            Edit::InsertNode { index, node, pos } => {
                let index = index.min(g.nodes.len());
                let id = node.id.clone();
                g.nodes.insert(index, node);
                let mut batch = vec![Edit::RemoveNode { id: id.clone() }];
                if let Some(p) = pos {
                    batch.push(Edit::SetPosition { id, pos: Some(p) }.apply(g));
                    batch.reverse();
                }
                Edit::Batch(batch)
            }
            Edit::RemoveNode { id } => {
                let Some(index) = g.nodes.iter().position(|n| n.id == id) else { return Edit::Batch(vec![]) };
                let node = g.nodes.remove(index);
                let pos = layout_mut(g).nodes.shift_remove(&id);
                Edit::InsertNode { index, node, pos }
            }
            Edit::InsertEdge { index, edge } => {
                let index = index.min(g.edges.len());
                g.edges.insert(index, edge);
                Edit::RemoveEdge { index }
            }
            Edit::RemoveEdge { index } => {
                if index >= g.edges.len() {
                    return Edit::Batch(vec![]);
                }
                let edge = g.edges.remove(index);
                Edit::InsertEdge { index, edge }
            }
            Edit::SetPosition { id, pos } => {
                let layout = layout_mut(g);
                let old = match pos {
                    Some(p) => layout.nodes.insert(id.clone(), p),
                    None => layout.nodes.shift_remove(&id),
                };
                Edit::SetPosition { id, pos: old }
            }
            Edit::ReplaceNode { index, node } => match g.nodes.get_mut(index) {
                Some(slot) => Edit::ReplaceNode { index, node: std::mem::replace(slot, node) },
                None => Edit::Batch(vec![]),
            },
            Edit::ReplaceEdge { index, edge } => match g.edges.get_mut(index) {
                Some(slot) => Edit::ReplaceEdge { index, edge: std::mem::replace(slot, edge) },
                None => Edit::Batch(vec![]),
            },
            Edit::SetMeta(meta) => {
                let old = Meta::of(g);
                g.name = meta.name;
                g.description = meta.description;
                g.state = meta.state;
                g.tools = meta.tools;
                g.mcp_servers = meta.mcp_servers;
                g.limits = meta.limits;
                Edit::SetMeta(old)
            }
            Edit::SetDefinitions(defs) => Edit::SetDefinitions(std::mem::replace(&mut g.definitions, defs)),
            Edit::Batch(edits) => {
                let mut inverse: Vec<Edit> = edits.into_iter().map(|e| e.apply(g)).collect();
                inverse.reverse();
                Edit::Batch(inverse)
            }
        }
    }

    /// Whether applying it would change nothing.
    pub fn is_empty(&self) -> bool {
        matches!(self, Edit::Batch(v) if v.iter().all(Edit::is_empty))
    }
}

fn layout_mut(g: &mut Graph) -> &mut Layout {
    g.layout.get_or_insert_with(Layout::default)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::NodeKind;

    fn pos(x: f64, y: f64) -> Position {
        Position { x, y, w: None, h: None }
    }

    #[test]
    fn every_edit_is_undone_by_its_inverse() {
        let original = {
            let mut g = Graph::new("t");
            g.layout = Some(Layout::default());
            g
        };
        let edits = vec![
            Edit::InsertNode { index: 1, node: Node::new("a", NodeKind::Set), pos: Some(pos(10.0, 20.0)) },
            Edit::InsertEdge { index: 0, edge: Edge::new("start", "a") },
            Edit::SetPosition { id: "start".into(), pos: Some(pos(0.0, 0.0)) },
            Edit::ReplaceEdge { index: 0, edge: Edge::new("start", "start") },
            Edit::SetMeta(Meta {
                name: Some("renamed".into()),
                description: None,
                state: None,
                tools: None,
                mcp_servers: None,
                limits: None,
            }),
            Edit::SetDefinitions(Some(IndexMap::from([("inner".to_string(), Graph::new("inner"))]))),
            Edit::Batch(vec![Edit::RemoveEdge { index: 0 }, Edit::RemoveNode { id: "end".into() }]),
        ];
        for e in edits {
            let mut g = original.clone();
            let inverse = e.clone().apply(&mut g);
            assert_ne!(g, original, "{e:?} changed nothing");
            let redo = inverse.apply(&mut g);
            assert_eq!(g, original, "undoing {e:?}");
            redo.apply(&mut g);
            assert_ne!(g, original);
        }
    }

    #[test]
    fn stale_edits_change_nothing() {
        let mut g = Graph::new("t");
        let before = g.clone();
        assert!(Edit::RemoveEdge { index: 9 }.apply(&mut g).is_empty());
        assert!(Edit::RemoveNode { id: "ghost".into() }.apply(&mut g).is_empty());
        assert_eq!(g, before);
    }
}
