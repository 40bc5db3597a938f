//! Served graphs written to outrun their limits (README, Untrusted graphs in the editor), on a real Restate server: each such
//! run must end with its own named error while the service goes on running other runs.

mod support;

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::restate::Restate;

fn linear(name: &str, node: Value) -> Value {
    let id = node["id"].as_str().expect("an id").to_string();
    json!({
        "format": "switchyard/graph@1", "name": name,
        "nodes": [ { "id": "start", "kind": "start" }, node, { "id": "end", "kind": "end" } ],
        "edges": [ { "from": "start", "to": id }, { "from": id, "to": "end" } ]
    })
}

/// Submits `graph` (written to `dir` as `file`) with `input`; the run's id.
fn submit(restate: &Restate, dir: &std::path::Path, file: &str, graph: &Value, input: &Value) -> String {
    let path = dir.join(file);
    std::fs::write(&path, graph.to_string()).expect("graph written");
    let out = restate.cli(&["submit", &path.to_string_lossy(), "--input", &input.to_string()]);
    assert_eq!(out.status.code(), Some(0), "submit: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// Waits until `switchyard status` exits with `code`; the summary it printed.
fn wait_status(restate: &Restate, run_id: &str, code: i32) -> Value {
    let since = Instant::now();
    loop {
        let out = restate.cli(&["status", run_id]);
        if out.status.code() == Some(code) {
            return serde_json::from_slice(&out.stdout).expect("status prints JSON");
        }
        let seen = (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned());
        assert!(since.elapsed() < Duration::from_secs(120), "{run_id} never reached exit {code}: {seen:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The message of the error a finished run's summary holds.
fn error_message(summary: &Value) -> &str {
    summary["error"]["message"].as_str().unwrap_or_else(|| panic!("no error message: {summary}"))
}

#[test]
fn served_runs_that_would_outrun_their_limits_fail_with_their_errors_and_the_service_goes_on() {
    let restate = Restate::start();
    let dir = tempfile::tempdir().expect("dir");
    // The engine's thread had the default 2 MiB stack: 5,000 levels overflowed it and
    // aborted the service, and Restate's retries of the run aborted it again and again.
    let deep = linear(
        "Deep",
        json!({ "id": "s", "kind": "script", "script": "let x = []; for i in 0..5000 { x = [x]; } #{ v: x }" }),
    );
    let deep_id = submit(&restate, dir.path(), "deep.json", &deep, &json!({}));
    // 2^40 checks: the check spun a service thread forever (a served run's clock does not
    // advance while it computes, so no deadline could stop it).
    let reply = format!("{}{}", "[".repeat(40), "]".repeat(40));
    let mut costly = linear(
        "Costly schema",
        json!({ "id": "ask", "kind": "llm", "prompt": "a list", "writes": "out",
                "output_schema": { "oneOf": [ { "items": { "$ref": "#" } }, { "items": { "$ref": "#" } } ] },
                "model": { "provider": "mock", "responses": [reply] } }),
    );
    costly["state"] = json!({ "out": { "type": "any" } });
    let costly_id = submit(&restate, dir.path(), "costly.json", &costly, &json!({}));

    let summary = wait_status(&restate, &deep_id, 1);
    assert!(error_message(&summary).contains("the value is nested more than 128 levels deep"), "{summary}");
    let summary = wait_status(&restate, &costly_id, 1);
    let ceiling = engine::json_schema::MAX_WORK;
    assert!(error_message(&summary).contains(&format!("took more than {ceiling} steps")), "{summary}");

    let fine = json!({
        "format": "switchyard/graph@1", "name": "Fine",
        "state": { "n": { "type": "number", "default": 0 } },
        "nodes": [ { "id": "start", "kind": "start" }, { "id": "set", "kind": "set", "set": { "n": "41 + 1" } },
                   { "id": "end", "kind": "end" } ],
        "edges": [ { "from": "start", "to": "set" }, { "from": "set", "to": "end" } ]
    });
    let fine_id = submit(&restate, dir.path(), "fine.json", &fine, &json!({}));
    let summary = wait_status(&restate, &fine_id, 0);
    assert_eq!(summary["state"]["n"], 42, "{summary}");
}
