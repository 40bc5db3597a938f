//! The MCP calls of a `tools` step, read from the step's details as the run panel shows them:
//! which server and tool, the arguments, the result or the error, how long it took, the
//! progress the server reported and the log messages it sent.

use serde_json::Value;

/// One call of a tool that runs on an MCP server.
#[derive(Debug, Clone, PartialEq)]
pub struct McpCallView {
    /// The graph tool the model called.
    pub name: String,
    pub server: String,
    /// The server's name for the tool.
    pub tool: String,
    pub arguments: Value,
    /// The result's text (or its structured content, as JSON), or the error.
    pub result: String,
    pub is_error: bool,
    pub duration_ms: Option<f64>,
    /// `1/3`, `2/3 copying`…: each progress notification, in order.
    pub progress: Vec<String>,
    /// `info: text`: each log message, in order.
    pub logs: Vec<String>,
}

/// The MCP calls in a `tools` node's details (`{"calls": […]}`), in the order of the model's
/// calls; calls that ran no MCP tool are left out.
pub fn mcp_calls(details: &Value) -> Vec<McpCallView> {
    let calls = details.get("calls").and_then(Value::as_array);
    calls.into_iter().flatten().filter_map(call_view).collect()
}

fn call_view(c: &Value) -> Option<McpCallView> {
    let server = c.get("server")?.as_str()?.to_string();
    let text = |k: &str| c.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
    let is_error = c.get("is_error").and_then(Value::as_bool).unwrap_or(false) || c.get("error").is_some();
    let result = match c.get("error").or_else(|| c.get("result")) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => String::new(),
        Some(v) => serde_json::to_string_pretty(v).unwrap_or_default(),
    };
    Some(McpCallView {
        name: text("name"),
        server,
        tool: text("tool"),
        arguments: c.get("arguments").cloned().unwrap_or(Value::Null),
        result,
        is_error,
        duration_ms: c.get("duration_ms").and_then(Value::as_f64),
        progress: notes(c, "progress", progress_line),
        logs: notes(c, "logs", log_line),
    })
}

fn notes(c: &Value, key: &str, line: fn(&Value) -> String) -> Vec<String> {
    c.get(key).and_then(Value::as_array).into_iter().flatten().map(line).collect()
}

/// `2/3 copying`, or `2` without a total.
fn progress_line(p: &Value) -> String {
    let num = |k: &str| p.get(k).and_then(Value::as_f64).map(|n| n.to_string());
    let mut s = num("progress").unwrap_or_else(|| "?".into());
    if let Some(total) = num("total") {
        s = format!("{s}/{total}");
    }
    if let Some(m) = p.get("message").and_then(Value::as_str) {
        s = format!("{s} {m}");
    }
    s
}

/// `info (logger): text`; data that is not text is shown as JSON.
fn log_line(l: &Value) -> String {
    let level = l.get("level").and_then(Value::as_str).unwrap_or("log");
    let data = match l.get("data") {
        Some(Value::String(s)) => s.clone(),
        Some(v) => v.to_string(),
        None => String::new(),
    };
    match l.get("logger").and_then(Value::as_str) {
        Some(logger) => format!("{level} ({logger}): {data}"),
        None => format!("{level}: {data}"),
    }
}

/// A duration as people read it: `9 ms`, `1.01 s`.
pub fn duration_text(ms: f64) -> String {
    if ms < 1000.0 { format!("{} ms", ms.round()) } else { format!("{:.2} s", ms / 1000.0) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A `tools` step's details from a run of server-everything 2026.8.31 (stdio) with the CLI.
    fn captured() -> Value {
        json!({"calls": [
            {"arguments": {"message": "hello"}, "duration_ms": 3.8653869999999984, "id": "call_agent_2_1", "is_error": false, "name": "echo", "protocol_version": "2025-11-25", "result": "Echo: hello", "server": "everything", "tool": "echo"},
            {"arguments": {"duration": 1, "steps": 3}, "duration_ms": 1008.6854979999999, "id": "call_agent_2_2", "is_error": false, "name": "slow", "progress": [{"progress": 1, "total": 3}, {"progress": 2, "total": 3}, {"progress": 3, "total": 3}], "protocol_version": "2025-11-25", "result": "Long running operation completed. Duration: 1 seconds, Steps: 3.", "server": "everything", "tool": "trigger-long-running-operation"},
            {"arguments": {"x": 1}, "duration_ms": 0.1, "id": "c3", "name": "clock", "result": "12:00"}
        ]})
    }

    #[test]
    fn each_mcp_call_shows_server_tool_arguments_result_duration_and_progress() {
        let calls = mcp_calls(&captured());
        assert_eq!(calls.len(), 2, "a script tool's call is not an MCP call");
        let echo = &calls[0];
        assert_eq!((echo.name.as_str(), echo.server.as_str(), echo.tool.as_str()), ("echo", "everything", "echo"));
        assert_eq!(echo.arguments, json!({"message": "hello"}));
        assert_eq!(echo.result, "Echo: hello");
        assert!(!echo.is_error);
        assert_eq!(duration_text(echo.duration_ms.unwrap()), "4 ms");
        let slow = &calls[1];
        assert_eq!(slow.tool, "trigger-long-running-operation");
        assert_eq!(slow.progress, ["1/3", "2/3", "3/3"]);
        assert_eq!(duration_text(slow.duration_ms.unwrap()), "1.01 s");
    }

    #[test]
    fn a_failed_call_shows_the_error_whole_and_logs_read_as_lines() {
        let reason = "tool `echo` of MCP server `everything` changed since the graph was designed (its inputSchema differs from the tool's `parameters`); add it again from the server, or leave `parameters` out to take the server's";
        let details = json!({"calls": [{"arguments": {"message": "hello"}, "duration_ms": 442.7, "error": reason, "id": "c", "is_error": true, "name": "echo", "result": reason, "server": "everything", "tool": "echo",
            "logs": [{"level": "info", "logger": "everything", "data": "Info-level message"}, {"level": "debug", "data": {"n": 1}}],
            "progress": [{"progress": 0.5, "message": "half"}]}]});
        let call = &mcp_calls(&details)[0];
        assert!(call.is_error);
        assert_eq!(call.result, reason);
        assert_eq!(call.logs, ["info (everything): Info-level message", "debug: {\"n\":1}"]);
        assert_eq!(call.progress, ["0.5 half"]);
        assert!(mcp_calls(&json!({"calls": [], "note": "no tool calls"})).is_empty());
        assert!(mcp_calls(&json!("not details")).is_empty());
    }
}
