//! `--authoring`: tools for coding agents that write graphs (validate a document, run it with
//! mock models only, print a JSON Schema or a Mermaid flowchart) and the format reference as
//! a resource. Plain JSON in and out; the server glue lists and calls them.

use engine::document::Provider;
use engine::{Graph, Run, Status};
use serde_json::{Value, json};
use tokio::sync::oneshot;

use super::Reply;

/// The format reference, as the repository documents it.
const FORMAT_MD: &str = include_str!("../../../docs/format.md");
const FORMAT_URI: &str = "switchyard://docs/format.md";

const DOCUMENT: &str = "A switchyard/graph@1 document: the JSON object, or its text.";

/// The authoring tools as `tools/list` shows them.
pub fn listings() -> Vec<Value> {
    let document = json!({"description": DOCUMENT});
    vec![
        json!({"name": "switchyard_validate", "title": "Validate a Switchyard graph",
            "description": "Checks a graph document; returns its diagnostics (severity, path, message). `valid` is false when any is an error.",
            "inputSchema": {"type": "object", "properties": {"document": document}, "required": ["document"]}}),
        json!({"name": "switchyard_run", "title": "Run a Switchyard graph with mock models",
            "description": "Runs a graph document whose llm nodes all use the mock provider (real providers and stdio MCP servers are refused) and returns its run record without the steps.",
            "inputSchema": {"type": "object", "properties": {"document": document,
                "input": {"type": "object", "description": "The run's input."}}, "required": ["document"]}}),
        json!({"name": "switchyard_schema", "title": "A Switchyard JSON Schema",
            "description": "The JSON Schema of graph documents (`graph`) or of run records (`run`).",
            "inputSchema": {"type": "object", "properties": {"which": {"type": "string", "enum": ["graph", "run"]}}, "required": ["which"]}}),
        json!({"name": "switchyard_mermaid", "title": "A Switchyard graph as Mermaid",
            "description": "The graph as a Mermaid flowchart.",
            "inputSchema": {"type": "object", "properties": {"document": document}, "required": ["document"]}}),
    ]
}

/// Calls authoring tool `name`; `None` when there is no such tool.
pub async fn call(name: &str, input: Value) -> Option<Reply> {
    Some(match name {
        "switchyard_validate" => with_document(&input, validate),
        "switchyard_mermaid" => with_document(&input, |g| Reply::Text(engine::to_mermaid(&g))),
        "switchyard_schema" => schema(input.get("which").and_then(Value::as_str).unwrap_or_default()),
        "switchyard_run" => match document(&input) {
            Ok(graph) => run_mock(graph, input.get("input").cloned().unwrap_or_else(|| json!({}))).await,
            Err(e) => Reply::Error(e),
        },
        _ => return None,
    })
}

/// The resources `resources/list` shows.
pub fn resources() -> Vec<Value> {
    vec![json!({"uri": FORMAT_URI, "name": "format.md", "title": "The switchyard/graph@1 format",
        "mimeType": "text/markdown", "size": FORMAT_MD.len()})]
}

/// The contents of resource `uri`.
pub fn read(uri: &str) -> Option<Value> {
    (uri == FORMAT_URI).then(|| json!({"uri": FORMAT_URI, "mimeType": "text/markdown", "text": FORMAT_MD}))
}

/// The `document` argument parsed strictly, as `switchyard validate` reads a file.
fn document(input: &Value) -> Result<Graph, String> {
    let text = match input.get("document") {
        Some(Value::String(text)) => text.clone(),
        Some(v @ Value::Object(_)) => v.to_string(),
        Some(_) => return Err("`document` must be a graph document (a JSON object) or its text".into()),
        None => return Err("`document` is missing".into()),
    };
    engine::parse_graph(&text).map_err(|e| format!("document: {e}"))
}

fn with_document(input: &Value, f: impl FnOnce(Graph) -> Reply) -> Reply {
    match document(input) {
        Ok(graph) => f(graph),
        Err(e) => Reply::Error(e),
    }
}

fn validate(graph: Graph) -> Reply {
    let diagnostics = engine::validate(&graph);
    let valid = !diagnostics.iter().any(engine::Diagnostic::is_error);
    Reply::Value(json!({"valid": valid, "diagnostics": diagnostics}))
}

fn schema(which: &str) -> Reply {
    match which {
        "graph" => Reply::Value(engine::schema::graph_schema()),
        "run" => Reply::Value(engine::schema::run_schema()),
        other => Reply::Error(format!("`which` must be `graph` or `run`, not `{other}`")),
    }
}

/// Why a document may not run here: a real model provider or a stdio MCP server anywhere in
/// it (embedded subgraphs and definitions included).
pub fn not_mock_only(graph: &Graph, at: &str) -> Option<String> {
    for (name, server) in graph.mcp_servers.iter().flatten() {
        if let Some(command) = &server.command {
            return Some(format!(
                "{at}mcp_servers.{name}: starts the program `{command}`; switchyard_run starts no programs"
            ));
        }
    }
    for (i, node) in graph.nodes.iter().enumerate() {
        if let Some(model) = node.model.as_ref().filter(|m| m.provider != Provider::Mock) {
            return Some(format!(
                "{at}nodes[{i}] (`{}`): provider `{}`; switchyard_run runs mock models only",
                node.id,
                model.provider.name()
            ));
        }
        if let Some(inner) = node.graph.as_deref()
            && let Some(why) = not_mock_only(inner, &format!("{at}nodes[{i}].graph."))
        {
            return Some(why);
        }
    }
    graph.definitions.iter().flatten().find_map(|(name, g)| not_mock_only(g, &format!("{at}definitions.{name}.")))
}

/// Runs `graph` to its end on a run thread; the record without its steps.
async fn run_mock(graph: Graph, input: Value) -> Reply {
    if let Some(why) = not_mock_only(&graph, "") {
        return Reply::Error(why);
    }
    if engine::validate(&graph).iter().any(engine::Diagnostic::is_error) {
        return validate(graph);
    }
    let (tx, rx) = oneshot::channel();
    let spawned = engine::stack::spawn_run_thread("switchyard-mcp-authoring", move || {
        let _ = tx.send(record_of(graph, input));
    });
    if let Err(e) = spawned {
        return Reply::Error(format!("cannot start the run's thread: {e}"));
    }
    rx.await.unwrap_or_else(|_| Reply::Error("the run's thread ended without a result".into()))
}

fn record_of(graph: Graph, input: Value) -> Reply {
    let Some(plan) = engine::compile(&graph).plan else { return Reply::Error("the graph is not valid".into()) };
    let host = engine::OfflineHost::new();
    let mut run = match Run::start(std::rc::Rc::new(plan), input, &host) {
        Ok(run) => run,
        Err(e) => return Reply::Error(format!("input: {e}")),
    };
    pollster::block_on(run.run(&host));
    let record = serde_json::to_value(run.record(false)).unwrap_or_default();
    match run.status() {
        Status::Completed | Status::Interrupted => Reply::Value(record),
        _ => Reply::Error(format!(
            "the run ended {}: {}",
            run.status().name(),
            run.error().map(|e| e.message.clone()).unwrap_or_default()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(text: &str) -> Graph {
        engine::parse_graph(text).unwrap()
    }

    #[test]
    fn real_providers_and_programs_are_refused() {
        let g = graph(
            r#"{"format":"switchyard/graph@1","nodes":[{"id":"start","kind":"start"},
            {"id":"ask","kind":"llm","model":{"provider":"openai","model":"x"},"prompt":"hi"},{"id":"end","kind":"end"}],
            "edges":[{"from":"start","to":"ask"},{"from":"ask","to":"end"}]}"#,
        );
        assert_eq!(
            not_mock_only(&g, "").unwrap(),
            "nodes[1] (`ask`): provider `openai`; switchyard_run runs mock models only"
        );
        let g = graph(
            r#"{"format":"switchyard/graph@1","mcp_servers":{"fs":{"command":"npx","args":["x"]}},
            "nodes":[{"id":"start","kind":"start"},{"id":"end","kind":"end"}],"edges":[{"from":"start","to":"end"}]}"#,
        );
        assert!(not_mock_only(&g, "").unwrap().starts_with("mcp_servers.fs: starts the program `npx`"));
    }

    #[test]
    fn the_format_reference_is_a_resource() {
        let r = read(FORMAT_URI).unwrap();
        assert!(r["text"].as_str().unwrap().contains("switchyard/graph@1"));
        assert!(read("switchyard://nope").is_none());
    }
}
