//! A graph as an MCP tool (SPEC §5 `mcp`): its name, title, description, and the input and
//! output schemas its state fields give. Plain JSON; the rmcp glue only wraps it.

use std::collections::HashMap;

use engine::document::{FieldType, StateField};
use engine::{Graph, NodeKind};
use serde_json::{Map, Value, json};

use crate::input::{BadInput, load_graph, plan_or_bad_input};

/// One served graph: the document (compiled again for each call, since a plan is not `Send`)
/// and the tool it is listed as.
#[derive(Debug, Clone)]
pub struct GraphTool {
    /// The file it was read from, for messages.
    pub path: String,
    pub graph: Graph,
    /// `[A-Za-z0-9_-]` only.
    pub name: String,
    /// The graph's name as written (or the file's stem).
    pub title: String,
    pub description: String,
    pub input_schema: Map<String, Value>,
    pub output_schema: Map<String, Value>,
}

impl GraphTool {
    /// The tool as `tools/list` shows it.
    pub fn listing(&self) -> Value {
        json!({
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "inputSchema": self.input_schema,
            "outputSchema": self.output_schema,
        })
    }
}

/// Reads and checks every graph; a file that cannot be read or is invalid, or two graphs with
/// the same tool name, is bad input naming the files.
pub fn load_all(paths: &[String]) -> Result<Vec<GraphTool>, BadInput> {
    let mut tools = Vec::with_capacity(paths.len());
    let mut by_name: HashMap<String, String> = HashMap::new();
    for path in paths {
        let graph = load_graph(path)?;
        plan_or_bad_input(path, &graph)?;
        let tool = graph_tool(path, graph);
        if let Some(first) = by_name.insert(tool.name.clone(), path.clone()) {
            return Err(BadInput::new(format!(
                "{path}: its tool name `{}` is also the name of {first}'s graph; rename one (the `name` field)",
                tool.name
            )));
        }
        tools.push(tool);
    }
    Ok(tools)
}

/// The tool of `graph`, read from `path`.
pub fn graph_tool(path: &str, graph: Graph) -> GraphTool {
    let title = graph.name.clone().filter(|n| !n.trim().is_empty()).unwrap_or_else(|| file_stem(path));
    let name = tool_name(&title);
    let description = graph
        .description
        .clone()
        .filter(|d| !d.trim().is_empty())
        .unwrap_or_else(|| format!("Runs the Switchyard graph «{title}»"));
    let (input_schema, output_schema) = schemas(&graph);
    GraphTool { path: path.to_string(), graph, name, title, description, input_schema, output_schema }
}

fn file_stem(path: &str) -> String {
    std::path::Path::new(path).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "graph".into())
}

/// The tool name for a graph name: characters outside `[A-Za-z0-9_-]` become `_`.
pub fn tool_name(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' }).collect()
}

/// `inputSchema` and `outputSchema`: objects whose properties are the state fields; the
/// input requires what start requires and takes no other keys.
pub fn schemas(graph: &Graph) -> (Map<String, Value>, Map<String, Value>) {
    let mut properties = Map::new();
    for (name, field) in graph.state.iter().flatten() {
        properties.insert(name.clone(), field_schema(field));
    }
    let required: Vec<Value> = start_required(graph).into_iter().map(Value::String).collect();
    let mut input = Map::new();
    input.insert("type".into(), "object".into());
    input.insert("properties".into(), Value::Object(properties.clone()));
    if !required.is_empty() {
        input.insert("required".into(), Value::Array(required));
    }
    input.insert("additionalProperties".into(), false.into());
    let mut output = Map::new();
    output.insert("type".into(), "object".into());
    output.insert("properties".into(), Value::Object(properties));
    (input, output)
}

fn start_required(graph: &Graph) -> Vec<String> {
    graph.nodes.iter().find(|n| n.kind == NodeKind::Start).and_then(|n| n.required.clone()).unwrap_or_default()
}

/// One state field as a JSON Schema property: its type, description and literal default.
fn field_schema(field: &StateField) -> Value {
    let mut schema = type_schema(field.ty);
    if let Some(d) = field.description.as_deref().filter(|d| !d.is_empty()) {
        schema.insert("description".into(), d.into());
    }
    if let Some(default) = &field.default {
        schema.insert("default".into(), default.clone());
    }
    Value::Object(schema)
}

/// The JSON Schema of a field type (`any` accepts every value).
pub fn type_schema(ty: FieldType) -> Map<String, Value> {
    let v = match ty {
        FieldType::String => json!({"type": "string"}),
        FieldType::Number => json!({"type": "number"}),
        FieldType::Integer => json!({"type": "integer"}),
        FieldType::Boolean => json!({"type": "boolean"}),
        FieldType::List => json!({"type": "array"}),
        FieldType::Object => json!({"type": "object"}),
        FieldType::Any => json!({}),
        FieldType::Messages => json!({"type": "array", "items": {"type": "object"}}),
    };
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(text: &str) -> Graph {
        engine::parse_graph(text).expect("a graph")
    }

    #[test]
    fn names_keep_only_safe_characters() {
        assert_eq!(tool_name("Approval workflow"), "Approval_workflow");
        assert_eq!(tool_name("a.b/c-d_e9"), "a_b_c-d_e9");
        assert_eq!(tool_name("café"), "caf_");
    }

    #[test]
    fn schemas_come_from_the_state_fields() {
        let g = graph(
            r#"{"format":"switchyard/graph@1","name":"Expense check",
            "state":{"amount":{"type":"number","description":"In euros."},
                     "who":{"type":"string","default":"me"},
                     "log":{"type":"messages"},"extra":{"type":"any"}},
            "nodes":[{"id":"start","kind":"start","required":["amount"]},{"id":"end","kind":"end"}],
            "edges":[{"from":"start","to":"end"}]}"#,
        );
        let tool = graph_tool("x/expense.json", g);
        assert_eq!(tool.name, "Expense_check");
        assert_eq!(tool.title, "Expense check");
        assert_eq!(tool.description, "Runs the Switchyard graph «Expense check»");
        assert_eq!(
            Value::Object(tool.input_schema),
            json!({"type":"object","properties":{
                "amount":{"type":"number","description":"In euros."},
                "who":{"type":"string","default":"me"},
                "log":{"type":"array","items":{"type":"object"}},
                "extra":{}},
              "required":["amount"],"additionalProperties":false})
        );
        assert_eq!(tool.output_schema["properties"]["amount"], json!({"type":"number","description":"In euros."}));
        assert!(tool.output_schema.get("required").is_none());
    }

    #[test]
    fn a_graph_without_a_name_takes_its_file_name() {
        let g = graph(
            r#"{"format":"switchyard/graph@1","nodes":[{"id":"start","kind":"start"},{"id":"end","kind":"end"}],
            "edges":[{"from":"start","to":"end"}]}"#,
        );
        let tool = graph_tool("dir/my graph.json", g);
        assert_eq!((tool.name.as_str(), tool.title.as_str()), ("my_graph", "my graph"));
    }
}
