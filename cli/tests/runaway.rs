//! Graphs written to outrun their limits (README, Untrusted graphs in the editor): a script value nested thousands of levels
//! deep, a JSON Schema that takes exponential time, quadratic reducers. Each must end its run
//! with a named error (or complete) within the run's time limit, with a record, and never take
//! the process down. Each test runs the real binary.

use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// Runs `graph` through `sh`, after `ulimit -s <stack_kib>` when given; exit code, the record
/// on stdout, stderr and how long it took.
fn run(graph: &Value, input: Option<&Value>, stack_kib: Option<u32>) -> (i32, String, String, Duration) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("graph.json");
    std::fs::write(&path, graph.to_string()).expect("write the graph");
    let limit = stack_kib.map_or(String::new(), |k| format!("ulimit -s {k}; "));
    let mut cmd = Command::new("sh");
    cmd.arg("-c").arg(format!("{limit}exec \"$0\" \"$@\"")).arg(env!("CARGO_BIN_EXE_switchyard"));
    cmd.args(["run", &path.display().to_string()]);
    if let Some(input) = input {
        let file = dir.path().join("input.json");
        std::fs::write(&file, input.to_string()).expect("write the input");
        cmd.args(["--input", &format!("@{}", file.display())]);
    }
    let t0 = Instant::now();
    let out = cmd.output().expect("the binary runs");
    let took = t0.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("overflowed its stack"), "{stderr}");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned(), stderr, took)
}

fn linear(node: Value, extra: Value) -> Value {
    let id = node["id"].as_str().expect("an id").to_string();
    let mut graph = json!({
        "format": "switchyard/graph@1",
        "nodes": [ { "id": "start", "kind": "start" }, node, { "id": "end", "kind": "end" } ],
        "edges": [ { "from": "start", "to": id }, { "from": id, "to": "end" } ]
    });
    for (k, v) in extra.as_object().expect("an object") {
        graph[k] = v.clone();
    }
    graph
}

fn record(stdout: &str, stderr: &str) -> Value {
    serde_json::from_str(stdout).unwrap_or_else(|e| panic!("no record ({e}): {stderr}"))
}

#[test]
fn a_script_value_nested_thousands_deep_fails_its_run_whatever_the_stack_limit() {
    // 4,000 levels needed about 3 MiB of stack: with `ulimit -s 1024` the process aborted
    // ("overflowed its stack", no record). The run now has a stack of its own.
    let script = "let x = []; for i in 0..4000 { x = [x]; } #{ v: x }";
    let graph = linear(json!({ "id": "s", "kind": "script", "script": script }), json!({}));
    let (code, stdout, stderr, _) = run(&graph, None, Some(1024));
    assert_eq!(code, 1, "{stderr}");
    let record = record(&stdout, &stderr);
    assert_eq!(record["status"], "failed");
    let message = record["error"]["message"].as_str().expect("a message");
    assert!(message.contains("the value is nested more than 128 levels deep"), "{message}");
}

/// An `llm` node whose mock reply is a list nested `depth` deep, checked against a schema
/// whose two `oneOf` branches both refer back to it: 2^depth checks.
fn exponential_schema_graph(depth: usize, limits: Value) -> Value {
    let reply = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    let node = json!({
        "id": "ask", "kind": "llm", "prompt": "a list", "writes": "out",
        "output_schema": { "oneOf": [ { "items": { "$ref": "#" } }, { "items": { "$ref": "#" } } ] },
        "model": { "provider": "mock", "responses": [reply] }
    });
    linear(node, json!({ "state": { "out": { "type": "any" } }, "limits": limits }))
}

#[test]
fn a_schema_that_takes_exponential_time_ends_at_the_runs_time_limit() {
    // This check never ended: `run_timeout_ms` was not looked at while a schema was checked.
    let graph = exponential_schema_graph(40, json!({ "run_timeout_ms": 1000 }));
    let (code, stdout, stderr, took) = run(&graph, None, None);
    assert_eq!(code, 1, "{stderr}");
    let record = record(&stdout, &stderr);
    assert_eq!(record["error"]["kind"], "timeout", "{}", record["error"]);
    let message = record["error"]["message"].as_str().expect("a message");
    assert!(message.contains("checking the reply against output_schema"), "{message}");
    assert!(message.contains("run_timeout_ms 1000"), "{message}");
    assert!(took < Duration::from_secs(30), "took {took:?}");
}

#[test]
fn a_schema_that_takes_exponential_time_ends_at_its_work_ceiling_without_a_time_limit() {
    let graph = exponential_schema_graph(40, json!({}));
    let (code, stdout, stderr, _) = run(&graph, None, None);
    assert_eq!(code, 1, "{stderr}");
    let record = record(&stdout, &stderr);
    assert_eq!(record["error"]["kind"], "llm", "{}", record["error"]);
    let message = record["error"]["message"].as_str().expect("a message");
    let ceiling = engine::json_schema::MAX_WORK;
    assert!(message.contains(&format!("took more than {ceiling} steps")), "{message}");
}

#[test]
fn unique_items_over_a_long_list_is_checked_within_the_runs_time_limit() {
    // Every pair of 100,000 items was compared: minutes, past `run_timeout_ms`.
    let list: Vec<String> = (0..100_000).map(|i| i.to_string()).collect();
    let node = json!({
        "id": "ask", "kind": "llm", "prompt": "numbers", "writes": "out",
        "output_schema": { "type": "array", "uniqueItems": true },
        "model": { "provider": "mock", "responses": [format!("[{}]", list.join(","))] }
    });
    let graph = linear(node, json!({ "state": { "out": { "type": "any" } }, "limits": { "run_timeout_ms": 20000 } }));
    let (code, stdout, stderr, took) = run(&graph, None, None);
    assert_eq!(code, 0, "{stderr}\n{}", &stdout[..stdout.len().min(2000)]);
    assert_eq!(record(&stdout, &stderr)["state"]["out"].as_array().map(Vec::len), Some(100_000));
    assert!(took < Duration::from_secs(20), "took {took:?}");
}

#[test]
fn a_messages_update_of_many_messages_completes_within_the_runs_time_limit() {
    // 30,000 messages given, then each replaced and then removed by id: every one was found
    // by scanning the list and the list copied at each change, minutes past the time limit.
    let n = 30_000;
    let id = |i: usize| format!("m{}", (i * 7) % n);
    let message = |i: usize, content: &str| json!({ "id": id(i), "role": "user", "content": content });
    let input = json!({
        "chat": (0..n).map(|i| message(i, "a")).collect::<Vec<_>>(),
        "replaced": (0..n).map(|i| message(i, "b")).collect::<Vec<_>>(),
        "removed": (0..n).map(|i| json!({ "remove": id(i) })).collect::<Vec<_>>(),
    });
    let graph = json!({
        "format": "switchyard/graph@1",
        "state": { "chat": { "type": "messages" }, "replaced": { "type": "any" }, "removed": { "type": "any" } },
        "limits": { "run_timeout_ms": 60000, "max_state_bytes": 16777216 },
        "nodes": [ { "id": "start", "kind": "start" },
                   { "id": "write", "kind": "script",
                     "script": "if step == 1 { #{ chat: state.replaced } } else { #{ chat: state.removed } }" },
                   { "id": "end", "kind": "end" } ],
        "edges": [ { "from": "start", "to": "write" },
                   { "from": "write", "to": "write", "when": "step < 2" },
                   { "from": "write", "to": "end", "when": "step >= 2" } ]
    });
    let (code, stdout, stderr, took) = run(&graph, Some(&input), None);
    let record = record(&stdout, &stderr);
    assert_eq!(code, 0, "{stderr}\n{}", record["error"]);
    assert_eq!(record["steps"].as_array().map(Vec::len), Some(2));
    assert_eq!(record["state"]["chat"], json!([]));
    assert!(took < Duration::from_secs(60), "took {took:?}");
}
