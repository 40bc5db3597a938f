//! The run's input as the editor handles it: suggested from what the graph needs, and the
//! required keys a person left empty (the engine takes `""` as present, as the spec says; a
//! person who leaves a required box empty has forgotten it).

use serde_json::{Map, Value};

/// An input prefilled from the start node's required keys and the declared state.
pub fn suggested(graph: &engine::Graph) -> String {
    let mut m = Map::new();
    let required: Vec<String> = graph
        .nodes
        .iter()
        .find(|n| n.kind == engine::NodeKind::Start)
        .and_then(|n| n.required.clone())
        .unwrap_or_default();
    for key in &required {
        let value = graph
            .state
            .as_ref()
            .and_then(|s| s.get(key))
            .map(|f| f.default.clone().unwrap_or_else(|| f.ty.zero()))
            .unwrap_or(Value::String(String::new()));
        m.insert(key.clone(), value);
    }
    // One line: the Input box is one row high (it can be resized).
    serde_json::to_string(&Value::Object(m)).unwrap_or_else(|_| "{}".into())
}

/// The start node's required keys that `input` holds empty: `null`, `""` (or only spaces),
/// `[]` or `{}`.
pub fn empty_required(graph: &engine::Graph, input: &Value) -> Vec<String> {
    let Some(start) = graph.nodes.iter().find(|n| n.kind == engine::NodeKind::Start) else { return Vec::new() };
    let empty = |v: &Value| match v {
        Value::Null => true,
        Value::String(s) => s.trim().is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        _ => false,
    };
    start.required.iter().flatten().filter(|k| input.get(k.as_str()).is_some_and(empty)).cloned().collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn graph() -> engine::Graph {
        engine::parse_graph(
            r#"{"format": "switchyard/graph@1", "state": {"request": {"type": "string"}, "n": {"type": "integer"}},
                "nodes": [{"id": "start", "kind": "start", "required": ["request", "n"]}, {"id": "end", "kind": "end"}],
                "edges": [{"from": "start", "to": "end"}]}"#,
        )
        .expect("graph")
    }

    #[test]
    fn the_suggested_input_holds_each_required_key() {
        assert_eq!(suggested(&graph()), r#"{"n":0,"request":""}"#);
    }

    #[test]
    fn empty_required_keys_are_named_and_filled_ones_are_not() {
        let g = graph();
        assert_eq!(empty_required(&g, &json!({"request": "  ", "n": 0})), ["request"]);
        assert_eq!(empty_required(&g, &json!({"request": "Plan a trip", "n": 0})), Vec::<String>::new());
        // A missing key is the engine's to refuse, with its own message.
        assert_eq!(empty_required(&g, &json!({})), Vec::<String>::new());
    }
}
