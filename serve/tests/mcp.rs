//! A served graph calling a real MCP server (the reference memory server from tests/mcp, over
//! stdio) on a real Restate server: each exchange is a journaled step, so a service killed
//! while the run waits for a person, then started again, replays what the server said and
//! never sends a finished call again; the run goes on with a new session.

#[path = "../../cli/tests/mcp_support/mod.rs"]
mod mcp_support;
mod support;

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::restate::{Restate, ServeReach};

/// An assistant that files a person in the memory server, waits for an approval, then adds
/// an observation about them; `file` is where the server keeps its graph.
fn memory_graph(file: &str) -> Value {
    let create =
        json!({"entities": [{"name": "Ada", "entityType": "person", "observations": ["wrote the first program"]}]});
    let observe = json!({"observations": [{"entityName": "Ada", "contents": ["born in 1815"]}]});
    let agent = |id: &str, tool: &str, arguments: &Value| {
        json!({"id": id, "kind": "llm", "messages": "state.messages", "tools": [tool], "writes": "messages",
               "model": {"provider": "mock", "responses": [{"content": "", "tool_calls": [{"name": tool, "arguments": arguments}]}]}})
    };
    json!({
        "format": "switchyard/graph@1",
        "name": "Remembers people",
        "state": {"messages": {"type": "messages"}, "ok": {"type": "string", "default": ""}},
        "mcp_servers": {"memory": {"command": "node", "args": [mcp_support::server_js("memory")],
                                   "env": {"MEMORY_FILE_PATH": file}}},
        "tools": {"create_entities": {"run": {"mcp": {"server": "memory"}}},
                  "add_observations": {"run": {"mcp": {"server": "memory"}}}},
        "nodes": [
            {"id": "start", "kind": "start"},
            agent("file_person", "create_entities", &create),
            {"id": "save", "kind": "tools", "messages": "messages", "on_error": "fail"},
            {"id": "ask", "kind": "human", "prompt": "Add what you know?", "writes": "ok"},
            agent("add_fact", "add_observations", &observe),
            {"id": "save_fact", "kind": "tools", "messages": "messages", "on_error": "fail"},
            {"id": "end", "kind": "end"}
        ],
        "edges": [
            {"from": "start", "to": "file_person"}, {"from": "file_person", "to": "save"},
            {"from": "save", "to": "ask"}, {"from": "ask", "to": "add_fact"},
            {"from": "add_fact", "to": "save_fact"}, {"from": "save_fact", "to": "end"}
        ]
    })
}

/// Waits until the run's record says `status`.
fn wait_for(restate: &Restate, run: &str, status: &str) -> Value {
    let since = Instant::now();
    loop {
        let (code, record) = restate.post_empty(&format!("/GraphRun/{run}/record"));
        if code == 200 && record["status"] == status {
            return record;
        }
        assert!(since.elapsed() < Duration::from_secs(120), "the run did not reach {status}: HTTP {code} {record}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The names of the run's journaled MCP exchanges, in order.
fn mcp_entries(restate: &Restate, run: &str) -> Vec<String> {
    let rows = restate.query(&format!(
        "SELECT j.name FROM sys_journal j JOIN sys_invocation i ON j.id = i.id \
         WHERE i.target_service_key = '{run}' AND i.target_handler_name = 'run' ORDER BY j.index"
    ));
    rows.iter().filter_map(|r| r["name"].as_str()).filter(|n| n.starts_with("mcp ")).map(str::to_string).collect()
}

#[test]
fn a_restarted_service_never_repeats_a_finished_mcp_call() {
    let dir = tempfile::tempdir().expect("a folder");
    let file = dir.path().join("memory.jsonl").to_string_lossy().into_owned();
    let mut restate =
        Restate::start_with_env(ServeReach::LoopbackButRestate, &[("SWITCHYARD_ALLOWED_COMMANDS", "node")]);
    let input = json!({"messages": "Remember Ada Lovelace"});
    let (code, body) =
        restate.post("/GraphRun/mcp-memory/run/send", &json!({"graph": memory_graph(&file), "input": input}));
    assert!(code < 300, "submitting: HTTP {code} {body}");
    let waiting = wait_for(&restate, "mcp-memory", "interrupted");
    let before = mcp_entries(&restate, "mcp-memory");
    assert!(before.iter().any(|n| n.ends_with(" memory tools/call")), "a journaled call: {before:?}\n{waiting}");

    restate.kill_service();
    restate.start_service();
    let out = restate.cli(&["answer", "mcp-memory", "--answer", r#"{"ask": "yes"}"#]);
    assert!(out.status.success(), "answering: {}", String::from_utf8_lossy(&out.stderr));
    let record = wait_for(&restate, "mcp-memory", "completed");

    let entries = mcp_entries(&restate, "mcp-memory");
    let calls = entries.iter().filter(|n| n.ends_with(" memory tools/call")).count();
    assert_eq!(calls, 2, "one call before the wait, one after, none repeated: {entries:?}");
    let opened = entries.iter().filter(|n| n.ends_with(" memory initialize")).count();
    assert_eq!(opened, 2, "the session ended with the wait; a new one after it: {entries:?}");
    // What the server keeps: the person, with the observation made before the restart and
    // the one made after it, once each.
    let kept = std::fs::read_to_string(&file).expect("the memory file");
    let people: Vec<Value> =
        kept.lines().filter_map(|l| serde_json::from_str::<Value>(l).ok()).filter(|e| e["type"] == "entity").collect();
    assert_eq!(people.len(), 1, "{kept}");
    assert_eq!(people[0]["observations"], json!(["wrote the first program", "born in 1815"]), "{kept}");
    let tool_messages: Vec<&Value> =
        record["state"]["messages"].as_array().expect("messages").iter().filter(|m| m["role"] == "tool").collect();
    assert_eq!(tool_messages.len(), 2, "{record}");
    assert!(!tool_messages.iter().any(|m| m["content"].as_str().unwrap_or("").starts_with("error:")), "{record}");
}

#[test]
fn a_served_graph_starts_no_program_the_operator_did_not_allow() {
    let dir = tempfile::tempdir().expect("a folder");
    let marker = dir.path().join("started");
    let restate = Restate::start();
    let mut graph = memory_graph(&dir.path().join("m.jsonl").to_string_lossy());
    graph["mcp_servers"]["memory"] = json!({"command": "sh", "args": ["-c", format!("touch {}", marker.display())]});
    let (code, body) = restate.post("/GraphRun/mcp-refused/run", &json!({"graph": graph}));
    assert_eq!(code, 422, "{body}");
    let message = body.to_string();
    assert!(message.contains("mcp_servers.memory") && message.contains("--allow-command sh"), "{message}");
    assert!(!marker.exists(), "the program was started");
}
