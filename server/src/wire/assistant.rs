//! Assistants on the wire: the `Assistant` object, the graph view and the JSON Schemas of
//! the state.

use engine::document::{FieldType, NodeKind};
use serde_json::{Map, Value, json};

use crate::graphs::LoadedGraph;

/// The `Assistant` object of a loaded graph; `created_at` is when the server loaded it.
pub fn assistant(g: &LoadedGraph, created_at: &str) -> Value {
    json!({
        "assistant_id": g.assistant_id,
        "graph_id": g.graph_id,
        "name": g.graph_id,
        "description": g.description,
        "config": {},
        "context": {},
        "metadata": {"created_by": "system", "graph_hash": g.graph_hash},
        "version": 1,
        "created_at": created_at,
        "updated_at": created_at,
    })
}

/// `get_graph`: nodes (notes left out, `start` as `__start__`, ends as `__end__`) and edges,
/// conditional where a condition or label chooses them.
pub fn graph_view(g: &LoadedGraph) -> Value {
    let name = |id: &str| -> String {
        match g.graph.node(id).map(|n| n.kind) {
            Some(NodeKind::Start) => "__start__".into(),
            Some(NodeKind::End) => "__end__".into(),
            _ => id.to_string(),
        }
    };
    let mut nodes: Vec<Value> = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for n in g.graph.nodes.iter().filter(|n| n.kind != NodeKind::Note) {
        let id = name(&n.id);
        if seen.insert(id.clone()) {
            nodes
                .push(json!({"id": id, "type": "runnable", "data": {"id": ["switchyard", n.kind.name()], "name": id}}));
        }
    }
    let edges: Vec<Value> = g
        .graph
        .edges
        .iter()
        .map(|e| {
            let conditional = e.when.is_some() || e.label.is_some() || e.map.is_some();
            json!({"source": name(&e.from), "target": name(&e.to), "conditional": conditional})
        })
        .collect();
    json!({"nodes": nodes, "edges": edges})
}

/// `get_schemas`: the state as JSON Schema; the input schema marks start's `required`.
pub fn schemas(g: &LoadedGraph) -> Value {
    let mut properties = Map::new();
    for (name, field) in g.graph.state.iter().flatten() {
        let mut schema = field_schema(field.ty);
        if let (Some(d), Value::Object(s)) = (&field.description, &mut schema) {
            s.insert("description".into(), json!(d));
        }
        properties.insert(name.clone(), schema);
    }
    let required: Vec<String> =
        g.graph.nodes.iter().find(|n| n.kind == NodeKind::Start).and_then(|n| n.required.clone()).unwrap_or_default();
    let state = json!({"title": g.graph_id, "type": "object", "properties": properties});
    let mut input = state.clone();
    input["required"] = json!(required);
    json!({
        "graph_id": g.graph_id,
        "input_schema": input,
        "output_schema": state,
        "state_schema": state,
        "config_schema": {"title": "Configurable", "type": "object", "properties": {}},
        "context_schema": null,
    })
}

fn field_schema(ty: FieldType) -> Value {
    match ty {
        FieldType::String => json!({"type": "string"}),
        FieldType::Number => json!({"type": "number"}),
        FieldType::Integer => json!({"type": "integer"}),
        FieldType::Boolean => json!({"type": "boolean"}),
        FieldType::List => json!({"type": "array"}),
        FieldType::Object => json!({"type": "object"}),
        FieldType::Any => json!({}),
        FieldType::Messages => json!({
            "type": "array",
            "items": {"type": "object", "properties": {
                "type": {"type": "string"}, "role": {"type": "string"}, "content": {}, "id": {"type": "string"}
            }}
        }),
    }
}
