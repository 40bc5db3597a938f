//! The loaded graphs: one assistant each (`graph_id` = the graph's name, the assistant id
//! LangGraph's uuid5 of it), read and checked once at start.

use std::path::Path;

use engine::document::{FieldType, NodeKind};
use engine::{Graph, compile};
use serde_json::Value;
use uuid::Uuid;

use crate::domain::AssistantId;

/// The namespace LangGraph derives a graph's default assistant id from (uuid5 of the graph
/// id), so the same graph gets the same id on both servers.
const ASSISTANT_NAMESPACE: Uuid = Uuid::from_u128(0x6ba7b821_9dad_11d1_80b4_00c04fd430c8);

/// One loaded graph.
#[derive(Debug, Clone)]
pub struct LoadedGraph {
    pub assistant_id: AssistantId,
    pub graph_id: String,
    pub description: Option<String>,
    /// The document as given: each run compiles it on its own thread (a plan is not `Send`).
    pub document: Value,
    pub graph: Graph,
    /// The state fields holding messages (converted to LangChain's form on the wire).
    pub message_fields: Vec<String>,
    pub graph_hash: String,
}

impl LoadedGraph {
    /// Whether `id` names this graph: its assistant id or its graph id.
    pub fn answers_to(&self, id: &str) -> bool {
        self.assistant_id.as_str() == id || self.graph_id == id
    }

    /// Node ids a breakpoint may name, in document order (`"*"` stands for them).
    pub fn node_ids(&self) -> Vec<String> {
        let skip = |k: NodeKind| matches!(k, NodeKind::Start | NodeKind::End | NodeKind::Note);
        self.graph.nodes.iter().filter(|n| !skip(n.kind)).map(|n| n.id.clone()).collect()
    }
}

/// A graph that cannot be served, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError(pub String);

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LoadError {}

/// The loaded graphs, by name.
#[derive(Debug, Clone, Default)]
pub struct Graphs {
    pub list: Vec<LoadedGraph>,
}

impl Graphs {
    /// Reads and checks each file; names must be unique among them.
    pub fn load(paths: &[impl AsRef<Path>]) -> Result<Graphs, LoadError> {
        let mut graphs = Graphs::default();
        for path in paths {
            let path = path.as_ref();
            let text = std::fs::read_to_string(path).map_err(|e| LoadError(format!("{}: {e}", path.display())))?;
            let document: Value =
                serde_json::from_str(&text).map_err(|e| LoadError(format!("{}: {e}", path.display())))?;
            let loaded = load_document(document).map_err(|e| LoadError(format!("{}: {e}", path.display())))?;
            graphs.add(loaded)?;
        }
        Ok(graphs)
    }

    /// Adds a graph, refusing a second graph of the same name.
    pub fn add(&mut self, graph: LoadedGraph) -> Result<(), LoadError> {
        if self.list.iter().any(|g| g.graph_id == graph.graph_id) {
            return Err(LoadError(format!(
                "two graphs are named `{}`; graph ids must be unique (rename one with its `name`)",
                graph.graph_id
            )));
        }
        self.list.push(graph);
        Ok(())
    }

    /// The graph an assistant id or graph id names.
    pub fn find(&self, id: &str) -> Option<&LoadedGraph> {
        self.list.iter().find(|g| g.answers_to(id))
    }
}

/// One graph document read and compiled; its name becomes its graph id (its file stem when it
/// has none).
pub fn load_document(document: Value) -> Result<LoadedGraph, LoadError> {
    let graph = engine::parse::graph_from_value(document.clone()).map_err(|e| LoadError(e.to_string()))?;
    let compiled = compile(&graph);
    let Some(plan) = compiled.plan else {
        let first = compiled.diagnostics.iter().find(|d| d.is_error());
        let why = first.map(|d| format!("{}: {}", d.path, d.message)).unwrap_or_default();
        return Err(LoadError(format!("invalid graph: {why}")));
    };
    let graph_id = graph.display_name().to_string();
    let message_fields = graph
        .state
        .iter()
        .flatten()
        .filter(|(_, f)| f.ty == FieldType::Messages)
        .map(|(name, _)| name.clone())
        .collect();
    Ok(LoadedGraph {
        assistant_id: AssistantId(Uuid::new_v5(&ASSISTANT_NAMESPACE, graph_id.as_bytes()).to_string()),
        description: graph.description.clone(),
        graph_id,
        document,
        message_fields,
        graph_hash: plan.graph_hash().hash.clone(),
        graph,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assistant_ids_follow_langgraphs_recipe() {
        // LangGraph's default assistant of graph `simple`.
        let id = Uuid::new_v5(&ASSISTANT_NAMESPACE, b"simple").to_string();
        assert_eq!(id, "5e0f6b46-d00f-5af4-87dc-ea2105ff526d");
    }
}
