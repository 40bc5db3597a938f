//! The CLI's host with real MCP servers (format.md §2.11, §8): what it keeps from a server
//! (the environment a child gets, the tokens an HTTP server gets) and what it leaves behind
//! (no child after the run). The tools' results themselves are the engine's, tested in
//! `cli/tests/mcp_client.rs` and the engine's replays.

mod binary;
mod mcp_support;

use std::process::Command;

use binary::Out;
use mcp_support::{Server, processes_with, server_js};
use serde_json::{Value, json};

/// An agent whose mock model calls `calls` (`[tool, arguments]`) at once, then ends; each
/// tool of `tools` runs `[server, server's tool]`.
fn agent(servers: Value, tools: &[(&str, &str, &str)], calls: &[(&str, Value)]) -> Value {
    let tool_defs: serde_json::Map<String, Value> = tools
        .iter()
        .map(|(name, server, tool)| (name.to_string(), json!({"run": {"mcp": {"server": server, "tool": tool}}})))
        .collect();
    let calls: Vec<Value> = calls.iter().map(|(name, args)| json!({"name": name, "arguments": args})).collect();
    json!({
        "format": "switchyard/graph@1",
        "name": "mcp-host",
        "state": {"messages": {"type": "messages"}},
        "mcp_servers": servers,
        "tools": tool_defs,
        "nodes": [
            {"id": "start", "kind": "start"},
            {"id": "agent", "kind": "llm", "messages": "state.messages",
             "tools": tools.iter().map(|t| t.0).collect::<Vec<_>>(), "writes": "messages",
             "model": {"provider": "mock", "responses": [{"content": "", "tool_calls": calls}, "done"]}},
            {"id": "tools", "kind": "tools", "messages": "messages"},
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

/// Runs `graph` with `switchyard run … ARGS`, the environment given added to this one.
fn run(graph: &Value, args: &[&str], env: &[(&str, &str)]) -> Out {
    let dir = tempfile::Builder::new().prefix("mcp-host").tempdir().expect("a temporary folder");
    let path = dir.path().join("graph.json");
    std::fs::write(&path, graph.to_string()).expect("written");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_switchyard"));
    cmd.arg("run").arg(&path).args(args).args(["--input", r#"{"messages": "go"}"#]);
    cmd.env_remove("SWITCHYARD_ALLOWED_COMMANDS").env_remove("SWITCHYARD_MCP_TOKENS_FILE");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("the switchyard binary runs");
    Out {
        code: out.status.code().expect("exited"),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        what: format!("switchyard run {graph} {}", args.join(" ")),
    }
}

/// The tool messages of a record, in order.
fn tool_messages(record: &Value) -> Vec<String> {
    record["state"]["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| m["content"].as_str().expect("text").to_string())
        .collect()
}

#[test]
fn a_stdio_server_gets_no_key_and_is_gone_after_the_run() {
    let mark = format!("cli-{}-{:?}", std::process::id(), std::time::Instant::now());
    let servers = json!({"ev": {"command": "node", "args": [server_js("everything"), "stdio"], "env": {"MARK": mark}}});
    let graph = agent(
        servers,
        &[("echo", "ev", "echo"), ("env", "ev", "get-env")],
        &[("echo", json!({"message": "hi"})), ("env", json!({}))],
    );
    let key = "sk-test-never-in-a-child-0123456789";
    let out = run(&graph, &["--allow-command", "node"], &[("OPENAI_API_KEY", key), ("ANTHROPIC_API_KEY", key)]);
    let record = out.record(0);
    let messages = tool_messages(&record);
    assert_eq!(messages[0], "Echo: hi", "{}", out.describe());
    let env: serde_json::Map<String, Value> = serde_json::from_str(&messages[1]).expect("get-env gives JSON");
    let allowed = ["PATH", "HOME", "LANG", "TERM", "USER", "MARK"];
    assert!(env.keys().all(|k| allowed.contains(&k.as_str())), "only the minimal environment: {env:?}");
    assert_eq!(env.get("MARK").and_then(Value::as_str), Some(mark.as_str()));
    assert!(!out.stdout.contains(key) && !messages[1].contains(key));
    assert!(processes_with("MARK", &mark).is_empty(), "the server ended with the run");
}

#[test]
fn a_token_goes_only_to_the_origin_it_is_for() {
    let (a, b) = (Server::asker_http(), Server::asker_http());
    let servers = json!({"a": {"url": a.url()}, "b": {"url": b.url()}});
    let graph = agent(
        servers,
        &[("who_a", "a", "whoami"), ("who_b", "b", "whoami")],
        &[("who_a", json!({})), ("who_b", json!({}))],
    );
    let token = "tok-only-for-a-0123456789";
    let tokens = format!("http://127.0.0.1:{}={token}", a.port);
    let out = run(&graph, &[], &[("SWITCHYARD_MCP_TOKENS", tokens.as_str())]);
    let record = out.record(0);
    // A got it (and echoed it: the record keeps it removed); B got none. (The Python SDK
    // gives a tool's text as structured content too, which makes the tool message.)
    let want = [r#"{"result":"Bearer [api key removed]"}"#, r#"{"result":"(none)"}"#];
    assert_eq!(tool_messages(&record), want, "{}", out.describe());
    assert!(!out.stdout.contains(token) && !out.stderr.contains(token));
}

#[test]
fn a_tokens_file_is_read_and_one_others_can_read_is_warned_about() {
    let a = Server::asker_http();
    let graph = agent(json!({"a": {"url": a.url()}}), &[("who", "a", "whoami")], &[("who", json!({}))]);
    let dir = tempfile::Builder::new().prefix("mcp-tokens").tempdir().expect("a temporary folder");
    let file = dir.path().join("tokens.json");
    let token = "tok-from-the-file-0123456789";
    std::fs::write(&file, json!({ format!("http://127.0.0.1:{}", a.port): token }).to_string()).expect("written");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    }
    let path = file.to_string_lossy().into_owned();
    let out = run(&graph, &[], &[("SWITCHYARD_MCP_TOKENS_FILE", path.as_str())]);
    let record = out.record(0);
    assert_eq!(tool_messages(&record), [r#"{"result":"Bearer [api key removed]"}"#], "{}", out.describe());
    #[cfg(unix)]
    assert!(out.stderr.contains("can be read by other users; `chmod 600` it"), "{}", out.describe());
    assert!(!out.stdout.contains(token) && !out.stderr.contains(token));
}
