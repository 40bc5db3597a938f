//! `switchyard mcp`: Switchyard graphs served as MCP tools (SPEC §5 `mcp`, cli.md).
//!
//! | module | what it holds |
//! |---|---|
//! | `tools` | a graph as a tool: name, title, description, input and output schemas |
//! | `call` | one call's run on its own thread, and the events it sends: steps, questions, the end |
//! | `stop` | the host a call's run uses: the CLI's, its waits ending once the call is cancelled |
//! | `elicit` | a waiting node's form as an elicitation's requested schema, and the answer back |
//! | `authoring` | `--authoring`: validate, run with mock models, schema, Mermaid; the format reference |
//! | `server` | the rmcp server handler: tools listed and called, progress, elicitation, cancellation |
//! | `http` | `--listen`: Streamable HTTP at `/mcp`, Host and Origin checked |
//!
//! rmcp types stay in `server` and `http`; the rest is plain code over JSON.

pub mod authoring;
pub mod call;
pub mod elicit;
pub mod http;
pub mod server;
pub mod stop;
pub mod tools;

use serde_json::{Map, Value, json};

/// What a tool call answers, before it becomes a `CallToolResult`.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// A run's final state: structured content, and the same JSON as text.
    State(Map<String, Value>),
    /// A structured value that is not a state (the authoring tools).
    Value(Value),
    /// Plain text (the authoring tools' Mermaid).
    Text(String),
    /// `isError`, with this message.
    Error(String),
}

impl Reply {
    /// The result as MCP's `CallToolResult` JSON.
    pub fn to_json(&self) -> Value {
        match self {
            Reply::State(state) => structured(Value::Object(state.clone())),
            Reply::Value(v) => structured(v.clone()),
            Reply::Text(text) => json!({"content": [{"type": "text", "text": text}], "isError": false}),
            Reply::Error(message) => json!({"content": [{"type": "text", "text": message}], "isError": true}),
        }
    }
}

fn structured(v: Value) -> Value {
    let text = serde_json::to_string(&v).unwrap_or_default();
    json!({"content": [{"type": "text", "text": text}], "structuredContent": v, "isError": false})
}
