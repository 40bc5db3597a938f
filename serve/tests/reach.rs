//! What a served graph may reach (README, Untrusted graphs in the editor), on a real Restate server: never the server's own
//! admin API or ingress, which read every run's record; no loopback or private address unless
//! the operator allows it; and what the operator allows, it reaches.

mod support;

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::fake_openai::FakeOpenAi;
use support::restate::{Restate, ServeReach};

/// A graph whose `http` nodes call `admin_query` (the admin API's SQL endpoint, with a query
/// that reads every run's state), `ingress_record` (another run's record through the ingress)
/// and `hook` (a server the operator may allow), side by side, each error recorded and the
/// others going on.
fn probing_graph(admin: &str, ingress: &str, other_run: &str, hook: &str) -> Value {
    let http = |id: &str, method: &str, url: String, body: Value| {
        let mut node = json!({ "id": id, "kind": "http", "method": method, "url": url,
                               "writes": id, "timeout_ms": 10000, "on_error": "continue" });
        if !body.is_null() {
            node["body"] = body;
        }
        node
    };
    json!({
        "format": "switchyard/graph@1",
        "name": "Probe",
        "state": {
            "admin_query": { "type": "any", "default": null },
            "ingress_record": { "type": "any", "default": null },
            "hook": { "type": "any", "default": null }
        },
        "nodes": [
            { "id": "start", "kind": "start" },
            http("admin_query", "POST", format!("{admin}/query"), json!({ "query": "SELECT * FROM state" })),
            http("ingress_record", "POST", format!("{ingress}/GraphRun/{other_run}/record"), Value::Null),
            http("hook", "POST", hook.to_string(), json!({ "probe": "reached" })),
            { "id": "end", "kind": "end" }
        ],
        "edges": [
            { "from": "start", "to": "admin_query" },
            { "from": "start", "to": "ingress_record" },
            { "from": "start", "to": "hook" },
            { "from": "admin_query", "to": "end" },
            { "from": "ingress_record", "to": "end" },
            { "from": "hook", "to": "end" }
        ]
    })
}

/// A run holding a secret in its state, waiting for a person.
fn secret_run(restate: &Restate) -> String {
    let graph = json!({
        "format": "switchyard/graph@1",
        "name": "Holds a secret",
        "state": { "secret": { "type": "string" }, "ok": { "type": "string", "default": "" } },
        "nodes": [
            { "id": "start", "kind": "start", "required": ["secret"] },
            { "id": "ask", "kind": "human", "prompt": "ok?", "writes": "ok" },
            { "id": "end", "kind": "end" }
        ],
        "edges": [{ "from": "start", "to": "ask" }, { "from": "ask", "to": "end" }]
    });
    let (status, _) = restate.post(
        "/GraphRun/secret-run/run/send",
        &json!({ "graph": graph, "input": { "secret": "the-other-runs-secret" } }),
    );
    assert!(status < 300, "submitting the secret run: HTTP {status}");
    wait_record(restate, "secret-run", |r| r["status"] == "interrupted");
    "secret-run".into()
}

/// Submits the probing graph and waits for its record to end.
fn probe(restate: &Restate, hook: &str) -> Value {
    let other = secret_run(restate);
    let graph = probing_graph(&restate.admin, &restate.ingress, &other, hook);
    let (status, _) = restate.post("/GraphRun/probe/run/send", &json!({ "graph": graph }));
    assert!(status < 300, "submitting the probe: HTTP {status}");
    wait_record(restate, "probe", |r| r["status"] == "completed")
}

fn wait_record(restate: &Restate, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    let since = Instant::now();
    loop {
        let (status, record) = restate.post_empty(&format!("/GraphRun/{id}/record"));
        if status == 200 && done(&record) {
            return record;
        }
        assert!(since.elapsed() < Duration::from_secs(90), "{id} did not end: HTTP {status} {record}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn error_of(record: &Value, node: &str) -> String {
    record["errors"][node].as_str().unwrap_or_default().to_string()
}

#[test]
fn a_served_graph_reaches_no_loopback_address_by_default() {
    let hook = FakeOpenAi::start();
    let restate = Restate::start_with(ServeReach::Defaults);
    let record = probe(&restate, &format!("{}/hook", hook.base_url()));
    let text = record.to_string();
    assert!(!text.contains("the-other-runs-secret"), "another run's state leaked: {text}");
    for node in ["admin_query", "ingress_record", "hook"] {
        assert_eq!(record["state"][node], Value::Null, "{node} got a reply");
        let message = error_of(&record, node);
        assert!(message.contains("is a loopback or private address"), "{node}: {message}");
        assert!(message.contains("SWITCHYARD_ALLOWED_ADDRESSES"), "{node}: {message}");
    }
    assert!(hook.hooks().is_empty(), "the loopback server was called: {:?}", hook.hooks());
}

#[test]
fn an_allowed_loopback_server_is_reached_and_the_restate_servers_ports_are_not() {
    let hook = FakeOpenAi::start();
    // `--allow 127.0.0.1` opens every loopback port; `--deny` names the server's.
    let restate = Restate::start_with(ServeReach::LoopbackButRestate);
    let record = probe(&restate, &format!("{}/hook", hook.base_url()));
    let text = record.to_string();
    assert!(!text.contains("the-other-runs-secret"), "another run's state leaked: {text}");
    for node in ["admin_query", "ingress_record"] {
        assert_eq!(record["state"][node], Value::Null, "{node} got a reply");
        let message = error_of(&record, node);
        assert!(message.contains("is denied to served graphs"), "{node}: {message} in {record}");
    }
    assert_eq!(record["state"]["hook"], json!({ "received": true }));
    assert_eq!(hook.hooks().values().sum::<u32>(), 1);
}
