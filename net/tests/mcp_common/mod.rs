//! What the MCP transport tests share: exchanges written out, replies read, and the real
//! servers found through `cli/tests/mcp_support`.
#![allow(dead_code, unused_imports, reason = "each test file uses its own part")]

#[path = "../../../cli/tests/mcp_support/mod.rs"]
pub mod mcp_support;

use engine::host::{McpEnd, McpEndpoint, McpExchange, McpReply};
use net::mcp::{AllowedCommands, McpPolicy, McpTokens};
use serde_json::{Value, json};

/// Generous for a busy machine; the tests never wait this long when things work.
pub const PATIENCE_MS: u64 = 60_000;

/// A policy allowing `programs`, with no token.
pub fn allowing(programs: &[&str]) -> McpPolicy {
    McpPolicy::open(AllowedCommands::of(programs.iter().copied()), McpTokens::new())
}

/// `initialize` with id 1.
pub fn initialize() -> String {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "switchyard-tests", "version": "0.0.0"}}})
    .to_string()
}

pub fn initialized() -> String {
    json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string()
}

pub fn request(id: u64, method: &str, params: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

/// `tools/call` of `tool` with `arguments`, its id as progress token.
pub fn call(id: u64, tool: &str, arguments: Value) -> String {
    request(id, "tools/call", json!({"name": tool, "arguments": arguments, "_meta": {"progressToken": id}}))
}

/// An exchange sending `send` to `endpoint`, awaiting `awaits`.
pub fn exchange(endpoint: &McpEndpoint, send: Vec<String>, awaits: Option<u64>) -> McpExchange {
    McpExchange {
        server: "ev".into(),
        endpoint: endpoint.clone(),
        connection: None,
        session_id: None,
        protocol_version: None,
        send,
        awaits,
        timeout_ms: PATIENCE_MS,
        max_bytes: 10 * 1024 * 1024,
    }
}

/// The next exchange of the session `reply` belongs to.
pub fn then(endpoint: &McpEndpoint, reply: &McpReply, send: Vec<String>, awaits: Option<u64>) -> McpExchange {
    McpExchange {
        connection: reply.connection.clone(),
        session_id: reply.session_id.clone(),
        protocol_version: Some("2025-11-25".into()),
        ..exchange(endpoint, send, awaits)
    }
}

/// The messages received, parsed.
pub fn messages(reply: &McpReply) -> Vec<Value> {
    reply.received.iter().map(|m| serde_json::from_str(m).expect("received messages are JSON")).collect()
}

/// The awaited response's `result`, once the exchange was answered.
pub fn result(reply: &McpReply) -> Value {
    assert_eq!(reply.end, McpEnd::Answered, "{reply:?}");
    let last = messages(reply).pop().expect("the response");
    last["result"].clone()
}

/// The text items of a `tools/call` result, joined.
pub fn text(result: &Value) -> String {
    result["content"]
        .as_array()
        .expect("content")
        .iter()
        .filter_map(|c| c["text"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Notifications received with `method`.
pub fn notifications<'a>(all: &'a [Value], method: &str) -> Vec<&'a Value> {
    all.iter().filter(|m| m["method"] == method && m.get("id").is_none()).collect()
}

/// A value unique to this test, for telling its processes from others'.
pub fn marker(name: &str) -> String {
    format!("{name}-{}-{:?}", std::process::id(), std::time::Instant::now())
}

pub use mcp_support::{asker_py, processes_with};

/// tests/mcp/asker.py over Streamable HTTP on a free port.
pub fn asker_http() -> mcp_support::Server {
    mcp_support::Server::asker_http()
}
