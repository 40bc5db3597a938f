//! How much of the machine a wide step takes (README, Untrusted graphs in the editor): the requests of a fan-out share a
//! bounded set of threads, and a model's tool calls count against `max_fanout` as a map edge's
//! instances do.

mod support;

use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};
use support::{Reply, Server};

/// Threads of process `pid` now (Linux: its `/proc` entry), or `None` once it has exited.
fn threads_of(pid: u32) -> Option<usize> {
    std::fs::read_dir(format!("/proc/{pid}/task")).ok().map(Iterator::count)
}

#[test]
fn a_fan_out_of_400_requests_runs_on_a_bounded_number_of_threads() {
    // Each reply takes 200 ms, so requests are in flight together and, before the bound,
    // each held a thread, and each timeout another one for the node's whole 180 s.
    let server = Server::always(Reply::json(200, &json!({"ok": true})).delayed(200));
    let graph = json!({
        "format": "switchyard/graph@1",
        "state": { "items": { "type": "list" }, "replies": { "type": "list", "reducer": "append" } },
        "nodes": [
            { "id": "start", "kind": "start" },
            { "id": "fetch", "kind": "http", "method": "GET", "url": format!("{}/item/{{{{ item }}}}", server.url()),
              "writes": "replies" },
            { "id": "end", "kind": "end" }
        ],
        "edges": [
            { "from": "start", "to": "fetch", "map": "state.items", "as": "item" },
            { "from": "fetch", "to": "end" }
        ]
    });
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("wide.json");
    std::fs::write(&path, graph.to_string()).expect("write the graph");
    let input = json!({ "items": (0..400).collect::<Vec<_>>() }).to_string();
    let child = Command::new(env!("CARGO_BIN_EXE_switchyard"))
        .args(["run", &path.display().to_string(), "--input", &input])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let pid = child.id();
    let watcher = std::thread::spawn(move || {
        let mut most = 0;
        while let Some(n) = threads_of(pid) {
            most = most.max(n);
            std::thread::sleep(Duration::from_millis(5));
        }
        most
    });
    let out = child.wait_with_output().expect("the run ends");
    let most = watcher.join().expect("the watcher");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let record: Value = serde_json::from_slice(&out.stdout).expect("a record");
    assert_eq!(record["state"]["replies"].as_array().map(Vec::len), Some(400), "every request answered");
    assert_eq!(server.requests().len(), 400);
    // 32 request threads, each with at most one short-lived thread of the HTTP client's
    // resolver, the timer, the run's thread and main. Unbounded, it was over 800: a thread per
    // request and another per timeout, asleep for the node's whole 180 s.
    assert!(most <= 2 * 32 + 4, "the run had {most} threads at once");
}

#[test]
fn tool_calls_over_max_fanout_fail_the_tools_node_with_a_limit_error() {
    let calls: Vec<Value> = (0..5).map(|i| json!({ "name": "echo", "arguments": { "n": i } })).collect();
    let graph = json!({
        "format": "switchyard/graph@1",
        "limits": { "max_fanout": 3 },
        "state": { "messages": { "type": "messages" } },
        "tools": {
            "echo": { "description": "Gives its argument back.",
                      "parameters": { "type": "object", "properties": { "n": { "type": "integer" } } },
                      "run": { "script": "args.n" } }
        },
        "nodes": [
            { "id": "start", "kind": "start" },
            { "id": "agent", "kind": "llm", "prompt": "go", "writes": "messages",
              "model": { "provider": "mock", "responses": [ { "tool_calls": calls } ] } },
            { "id": "tools", "kind": "tools", "messages": "messages" },
            { "id": "end", "kind": "end" }
        ],
        "edges": [
            { "from": "start", "to": "agent" }, { "from": "agent", "to": "tools" }, { "from": "tools", "to": "end" }
        ]
    });
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("calls.json");
    std::fs::write(&path, graph.to_string()).expect("write the graph");
    let out = Command::new(env!("CARGO_BIN_EXE_switchyard"))
        .args(["run", &path.display().to_string()])
        .output()
        .expect("the binary runs");
    let record: Value = serde_json::from_slice(&out.stdout).expect("a record");
    assert_eq!(out.status.code(), Some(1), "{record}");
    assert_eq!(record["error"]["node"], "tools", "{record}");
    assert_eq!(record["error"]["kind"], "limit", "{record}");
    let message = record["error"]["message"].as_str().expect("a message");
    assert!(message.contains("5 tool calls") && message.contains("max_fanout (3"), "{message}");
}
