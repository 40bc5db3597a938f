//! Graphs calling tools of real MCP servers (format.md §2.11) with the CLI: the reference
//! `server-everything` from tests/mcp over stdio and over Streamable HTTP, a mock model making
//! the tool calls. Nothing here fakes the protocol.

mod binary;
mod mcp_support;

use std::path::Path;
use std::process::Command;

use binary::Out;
use mcp_support::{Server, server_js};
use serde_json::{Value, json};

/// Runs `switchyard ARGS` in `dir` with a provider key in the environment (which must never
/// reach a server) and `node` allowed.
fn switchyard(dir: &Path, args: &[&str]) -> Out {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_switchyard"));
    cmd.args(args)
        .current_dir(dir)
        .env("RUST_BACKTRACE", "1")
        .env("OPENAI_API_KEY", "sk-must-not-leak")
        .env("SWITCHYARD_ALLOWED_COMMANDS", "node,sh");
    let out = cmd.output().expect("the switchyard binary runs");
    Out {
        code: out.status.code().expect("exited"),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        what: format!("switchyard {}", args.join(" ")),
    }
}

/// An agent graph on server `server`: its mock model calls `calls` (`[tool, arguments]`) at
/// once, reads the results and ends. `tools` are the graph's tools.
fn agent(server: Value, tools: Value, calls: &[(&str, Value)], tools_node: Value) -> Value {
    let offered: Vec<&String> = tools.as_object().expect("tools").keys().collect();
    let calls: Vec<Value> = calls.iter().map(|(n, a)| json!({"name": n, "arguments": a})).collect();
    let mut node = json!({"id": "tools", "kind": "tools", "messages": "messages"});
    node.as_object_mut().expect("node").extend(tools_node.as_object().expect("fields").clone());
    json!({
        "format": "switchyard/graph@1",
        "name": "mcp agent",
        "state": {"messages": {"type": "messages"}},
        "mcp_servers": {"ev": server},
        "tools": tools,
        "nodes": [
            {"id": "start", "kind": "start"},
            {"id": "agent", "kind": "llm", "messages": "state.messages", "tools": offered, "writes": "messages",
             "model": {"provider": "mock", "responses": [{"content": "", "tool_calls": calls}, "done"]}},
            node,
            {"id": "end", "kind": "end"}
        ],
        "edges": [
            {"from": "start", "to": "agent"},
            {"from": "agent", "to": "tools", "when": "has_tool_calls(state.messages)"},
            {"from": "agent", "to": "end", "when": "!has_tool_calls(state.messages)"},
            {"from": "tools", "to": "agent"}
        ]
    })
}

fn stdio_server() -> Value {
    json!({"command": "node", "args": [server_js("everything"), "stdio"], "env": {"MARK": "x"}})
}

fn mcp(tool: &str) -> Value {
    json!({"run": {"mcp": {"server": "ev", "tool": tool}}})
}

/// Runs `graph` to its end; the record.
fn run(graph: &Value) -> Value {
    let dir = tempfile::Builder::new().prefix("mcp-client").tempdir().expect("a temporary folder");
    std::fs::write(dir.path().join("graph.json"), graph.to_string()).expect("written");
    switchyard(dir.path(), &["run", "graph.json", "--input", r#"{"messages": "go"}"#]).record(0)
}

/// The tool messages of a record, in order.
fn tool_messages(record: &Value) -> Vec<String> {
    let messages = record["state"]["messages"].as_array().expect("messages");
    messages.iter().filter(|m| m["role"] == "tool").map(|m| m["content"].as_str().expect("text").to_string()).collect()
}

/// The `tools` node's call details in the record's step `step`.
fn calls(record: &Value, step: usize) -> Vec<Value> {
    record["steps"][step - 1]["details"]["tools"]["calls"].as_array().expect("calls").clone()
}

/// The calls every transport must get right.
fn the_usual_calls(server: Value) {
    let tools = json!({
        "echo": mcp("echo"), "get-sum": mcp("get-sum"), "weather": mcp("get-structured-content"),
        "long": mcp("trigger-long-running-operation"), "image": mcp("get-tiny-image"),
        "nope": {"description": "A tool the server does not have.", "parameters": {"type": "object"},
                 "run": {"mcp": {"server": "ev"}}},
    });
    let record = run(&agent(
        server,
        tools,
        &[
            ("echo", json!({"message": "hi"})),
            ("get-sum", json!({"a": 2, "b": 40})),
            ("weather", json!({"location": "Chicago"})),
            ("long", json!({"duration": 1, "steps": 3})),
            ("image", json!({})),
            ("nope", json!({})),
        ],
        json!({}),
    ));
    let got = tool_messages(&record);
    assert_eq!(got[0], "Echo: hi");
    assert_eq!(got[1], "The sum of 2 and 40 is 42.");
    let weather: Value = serde_json::from_str(&got[2]).expect("structuredContent as JSON");
    assert!(weather["humidity"].as_f64().is_some(), "{weather}");
    assert!(got[3].starts_with("Long running operation completed"), "{}", got[3]);
    assert!(got[4].contains("[image image/png, ") && got[4].contains(" bytes]"), "{}", got[4]);
    assert_eq!(got[5], "error: MCP server `ev` lists no tool `nope`");
    let details = calls(&record, 2);
    assert_eq!(details[0]["server"], "ev");
    assert_eq!(details[0]["tool"], "echo");
    assert_eq!(details[0]["result"], "Echo: hi");
    assert_eq!(details[0]["is_error"], false);
    assert!(details[0]["duration_ms"].as_f64().is_some());
    assert_eq!(details[2]["result"], weather);
    let progress = details[3]["progress"].as_array().expect("progress in the details");
    assert_eq!(progress.len(), 3, "{progress:?}");
    assert_eq!(progress[2], json!({"progress": 3, "total": 3}));
    assert_eq!(details[5]["is_error"], true);
}

#[test]
fn a_graph_calls_tools_of_a_stdio_server() {
    the_usual_calls(stdio_server());
}

#[test]
fn a_graph_calls_tools_of_a_streamable_http_server() {
    let server = Server::everything_http();
    the_usual_calls(json!({"url": server.url(), "headers": {"X-Team": "blue"}}));
}

#[test]
fn a_stdio_server_sees_only_the_minimal_environment() {
    let record = run(&agent(stdio_server(), json!({"env": mcp("get-env")}), &[("env", json!({}))], json!({})));
    let env: Value = serde_json::from_str(&tool_messages(&record)[0]).expect("the server's environment as JSON");
    let names: Vec<&str> = env.as_object().expect("an object").keys().map(String::as_str).collect();
    assert!(names.iter().all(|n| ["PATH", "HOME", "LANG", "TERM", "USER", "MARK"].contains(n)), "{names:?}");
    assert_eq!(env["MARK"], "x");
    assert!(!tool_messages(&record)[0].contains("sk-must-not-leak"));
}

#[test]
fn a_call_past_the_nodes_timeout_fails_and_the_next_call_works() {
    let tools = json!({"long": mcp("trigger-long-running-operation"), "echo": mcp("echo")});
    // The operation would take a minute: a run that waited for it instead of cancelling it
    // shows in the elapsed time even on a busy machine, where starting the server is slow.
    let calls = [("long", json!({"duration": 60, "steps": 5})), ("echo", json!({"message": "after"}))];
    let started = std::time::Instant::now();
    let record = run(&agent(stdio_server(), tools, &calls, json!({"timeout_ms": 1500})));
    let got = tool_messages(&record);
    assert!(
        got[0].starts_with("error: tools/call `trigger-long-running-operation` on MCP server `ev` took longer than"),
        "{got:?}"
    );
    assert_eq!(got[1], "Echo: after");
    assert!(started.elapsed().as_secs() < 45, "the run did not wait for the cancelled call");
}

#[test]
fn a_server_that_writes_garbage_or_exits_is_a_tool_error_naming_it() {
    for (script, expect) in [
        ("echo hello; sleep 5", "error: MCP server `ev` wrote something that is not JSON-RPC: `hello`"),
        ("echo failing >&2; exit 3", "error: MCP server `ev` exited (code 3) before answering initialize: failing"),
    ] {
        let server = json!({"command": "sh", "args": ["-c", script]});
        let tools = json!({"echo": {"description": "Echoes.", "parameters": {"type": "object"}, "run": {"mcp": {"server": "ev"}}}});
        let record = run(&agent(server, tools, &[("echo", json!({"message": "x"}))], json!({})));
        let got = tool_messages(&record);
        assert!(got[0].starts_with(expect), "{got:?}");
    }
}

#[test]
fn validate_names_what_is_wrong_with_a_server() {
    let dir = tempfile::Builder::new().prefix("mcp-validate").tempdir().expect("a temporary folder");
    let graph = agent(
        json!({"url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer t", "Mcp-Session-Id": "x"}}),
        json!({"echo": {"run": {"mcp": {"server": "evv"}}}}),
        &[],
        json!({}),
    );
    std::fs::write(dir.path().join("graph.json"), graph.to_string()).expect("written");
    let out = switchyard(dir.path(), &["validate", "graph.json"]);
    assert_eq!(out.code, 2, "{}", out.describe());
    for needle in [
        "error mcp_servers.ev.headers.Authorization: `Authorization` carries a credential",
        "error mcp_servers.ev.headers.Mcp-Session-Id: `Mcp-Session-Id` is set by the MCP transport itself",
        "error tools.echo.run.mcp.server: no MCP server is named `evv` (did you mean `ev`?)",
    ] {
        assert!(out.stdout.contains(needle) || out.stderr.contains(needle), "{needle}\n{}", out.describe());
    }
}

#[test]
fn the_conformance_suites_client_scenarios_pass() {
    // Applicable: `initialize` and `tools_call`. Not applicable: `elicitation-sep1034-client-defaults`
    // (Switchyard's client offers no elicitation), `sse-retry` (its server answers protocol
    // version 2025-03-26, older than Switchyard accepts), `auth/*` (no OAuth: tokens come from
    // the host's keys).
    let suite = mcp_support::tools_dir().join("@modelcontextprotocol/conformance/dist/index.js");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/mcp/conformance-client.sh");
    for scenario in ["initialize", "tools_call"] {
        let dir = tempfile::Builder::new().prefix("mcp-conformance").tempdir().expect("a temporary folder");
        let out = Command::new(mcp_support::node22())
            .arg(&suite)
            .args(["client", "--command"])
            .arg(&script)
            .args(["--scenario", scenario])
            .current_dir(dir.path())
            .env("SWITCHYARD_BIN", env!("CARGO_BIN_EXE_switchyard"))
            .output()
            .expect("the conformance suite runs");
        // The suite reports on stderr.
        let report = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        let tail: String = report.chars().rev().take(3000).collect::<Vec<_>>().into_iter().rev().collect();
        assert!(out.status.success() && report.contains("OVERALL: PASSED"), "scenario {scenario}:\n{tail}");
    }
}
