//! Requests and graphs from untrusted hands on a real Restate server (README, Untrusted graphs in the editor): a run request
//! cannot bring a record of its own, of two answers to one wait exactly one is taken, a fork is
//! reported only when it exists, retries are bounded, and no state or input is too large for
//! the run to end and its record to read back.

mod support;

use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::approval_graph;
use support::fake_openai::FakeOpenAi;
use support::restate::Restate;

fn text(out: &std::process::Output) -> (String, String) {
    (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Waits until `GraphRun/{id}/status` answers with `status` (the run's `status` field).
fn wait_for(restate: &Restate, id: &str, status: &str) -> Value {
    let since = Instant::now();
    loop {
        let (code, summary) = restate.post_empty(&format!("/GraphRun/{id}/status"));
        if code == 200 && summary["status"] == status {
            return summary;
        }
        assert!(since.elapsed() < Duration::from_secs(60), "{id} never became {status}: {code} {summary}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A run of the approval graph, waiting for its answer.
fn waiting_run(restate: &Restate, model: &FakeOpenAi, id: &str) {
    let body = json!({ "graph": approval_graph(&model.base_url()), "input": { "request": "ship it" } });
    let (code, reply) = restate.post(&format!("/GraphRun/{id}/run/send"), &body);
    assert!(code < 300, "{code} {reply}");
    wait_for(restate, id, "interrupted");
}

const COUNTER: &str = r#"{
  "format": "switchyard/graph@1", "name": "Counter",
  "state": { "n": { "type": "integer", "reducer": "add" } },
  "nodes": [ { "id": "start", "kind": "start" }, { "id": "inc", "kind": "set", "set": { "n": "1" } },
             { "id": "end", "kind": "end" } ],
  "edges": [ { "from": "start", "to": "inc" }, { "from": "inc", "to": "inc", "when": "state.n < 3" },
             { "from": "inc", "to": "end", "when": "state.n >= 3" } ]
}"#;

#[test]
fn a_run_request_that_brings_a_record_to_fork_is_refused() {
    let restate = Restate::start();
    let graph: Value = serde_json::from_str(COUNTER).expect("graph");
    // 40 copies of the whole state, each doubling it: what once grew the service to gigabytes.
    let mut patch = vec![json!({"op": "add", "path": "/blob", "value": "x".repeat(1000)})];
    patch.extend((0..40).map(|i| json!({"op": "copy", "from": "", "path": format!("/c{i}")})));
    let record = json!({
        "format": "switchyard/run@1", "run_id": "r", "graph": "Counter", "status": "completed",
        "input": {}, "state": {}, "step": 1, "next": [], "waiting": [], "error": null,
        "steps": [{ "step": 1, "ran": ["inc"], "updates": {}, "errors": {}, "patch": patch,
                    "state": null, "next": [], "duration_ms": 0 }]
    });
    let body = json!({ "graph": graph, "fork": { "record": record, "from_step": 1 } });
    let (code, reply) = restate.post("/GraphRun/hostile/run", &body);
    assert_eq!(code, 400, "{reply}");
    assert!(reply["message"].as_str().is_some_and(|m| m.starts_with("fork.record: ")), "{reply}");

    // The service is up and runs the next request.
    let (code, reply) = restate.post("/GraphRun/after/run", &json!({ "graph": graph }));
    assert_eq!(code, 200, "{reply}");
    assert_eq!(reply["state"]["n"], 3);
}

#[test]
fn of_two_answers_to_one_wait_one_is_taken_and_the_other_refused() {
    let model = FakeOpenAi::start();
    let restate = Arc::new(Restate::start());
    for round in 0..3 {
        let id = format!("answered-{round}");
        waiting_run(&restate, &model, &id);
        let barrier = Arc::new(Barrier::new(2));
        let answers = ["approve", "reject"].map(|a| {
            let (restate, barrier, id) = (restate.clone(), barrier.clone(), id.clone());
            std::thread::spawn(move || {
                barrier.wait();
                (a, restate.post(&format!("/GraphRun/{id}/answer"), &json!({ "approve": a })))
            })
        });
        let replies: Vec<_> = answers.into_iter().map(|t| t.join().expect("answered")).collect();
        let taken: Vec<_> = replies.iter().filter(|(_, (code, _))| *code == 200).collect();
        assert_eq!(taken.len(), 1, "exactly one answer is taken: {replies:?}");
        let (refused, (code, reply)) = replies.iter().find(|(_, (code, _))| *code != 200).expect("one refused");
        assert_eq!(*code, 409, "{refused}: {reply}");
        assert!(reply["message"].as_str().is_some_and(|m| m.contains("another answer to this wait")), "{reply}");
        let done = wait_for(&restate, &id, "completed");
        assert_eq!(done["state"]["decision"], taken[0].0, "the run went on with the answer that was taken");
    }
}

#[test]
fn a_fork_into_a_used_id_is_refused_and_of_two_forks_into_one_id_one_exists() {
    let model = FakeOpenAi::start();
    let restate = Arc::new(Restate::start());
    waiting_run(&restate, &model, "original");

    // The id of a refused submission.
    let (code, reply) = restate.post("/GraphRun/refused-1/run", &json!({ "graph": { "nodes": 3 } }));
    assert_eq!(code, 422, "{reply}");
    let out = restate.cli(&["fork", "original", "--from-step", "1", "--id", "refused-1"]);
    assert_eq!(out.status.code(), Some(2), "{:?}", text(&out));
    assert!(text(&out).1.contains("a run with the id refused-1 exists already"), "{:?}", text(&out));
    // Its status is the refusal, which keeps the id.
    let (code, reply) = restate.post_empty("/GraphRun/refused-1/status");
    assert_eq!(code, 422, "{reply}");
    assert_eq!(reply["message"], "at nodes: expected a list, found the number `3`");

    // Two forks at once into one id: one is reported, and it exists; the other is refused.
    for round in 0..3 {
        let id = format!("twin-{round}");
        let barrier = Arc::new(Barrier::new(2));
        let forks: Vec<_> = (0..2)
            .map(|_| {
                let (restate, barrier, id) = (restate.clone(), barrier.clone(), id.clone());
                std::thread::spawn(move || {
                    barrier.wait();
                    restate.cli(&["fork", "original", "--from-step", "1", "--id", &id])
                })
            })
            .collect();
        let outs: Vec<_> = forks.into_iter().map(|t| t.join().expect("forked")).collect();
        let codes: Vec<_> = outs.iter().map(|o| o.status.code()).collect();
        assert_eq!(
            codes.iter().filter(|c| **c == Some(0)).count(),
            1,
            "{:?}",
            outs.iter().map(text).collect::<Vec<_>>()
        );
        assert!(codes.contains(&Some(2)), "{codes:?}");
        let forked = wait_for(&restate, &id, "interrupted");
        assert_eq!(forked["forked_from"]["run_id"], "original");
    }
}

#[test]
fn a_fork_request_pairing_a_run_with_another_graph_is_refused() {
    let model = FakeOpenAi::start();
    let restate = Restate::start();
    waiting_run(&restate, &model, "original");
    let other: Value = serde_json::from_str(COUNTER).expect("graph");
    let body = json!({ "graph": other, "fork": { "run_id": "original", "from_step": 1 } });
    let (code, reply) = restate.post("/GraphRun/paired/run", &body);
    assert_eq!(code, 400, "{reply}");
    let message = reply["message"].as_str().unwrap_or_default();
    assert!(message.contains("the run original ran the graph “Drafted reply”"), "{reply}");

    // With that run's own graph, a request forks it as the `fork` handler would; a ticket it
    // makes up names nothing the run completes, and the run goes on.
    let body = json!({ "graph": approval_graph(&model.base_url()),
                       "fork": { "run_id": "original", "from_step": 1, "started": "made-up" } });
    let (code, reply) = restate.post("/GraphRun/by-hand/run/send", &body);
    assert!(code < 300, "{code} {reply}");
    let forked = wait_for(&restate, "by-hand", "interrupted");
    assert_eq!(forked["forked_from"]["run_id"], "original");
}

#[test]
fn a_served_retry_is_held_to_ten_attempts_with_a_back_off() {
    let restate = Restate::start();
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("port").local_addr().expect("addr").port();
    // A million attempts without a pause: once 1,732 journal entries in 3 s, and counting.
    let graph = json!({
        "format": "switchyard/graph@1", "name": "Lookup",
        "state": { "reply": { "type": "any", "default": null } },
        "nodes": [ { "id": "start", "kind": "start" },
                   { "id": "fetch", "kind": "http", "method": "GET", "url": format!("http://127.0.0.1:{closed}/x"),
                     "writes": "reply", "retry": { "attempts": 1_000_000, "backoff_ms": 0 } },
                   { "id": "end", "kind": "end" } ],
        "edges": [ { "from": "start", "to": "fetch" }, { "from": "fetch", "to": "end" } ]
    });
    let (code, reply) = restate.post("/GraphRun/retried/run/send", &json!({ "graph": graph }));
    assert!(code < 300, "{code} {reply}");
    let failed = wait_for(&restate, "retried", "failed");
    assert!(failed["error"]["message"].as_str().is_some_and(|m| m.contains("10 attempts")), "{failed}");
    let (_, record) = restate.post_empty("/GraphRun/retried/record");
    assert_eq!(record["steps"][0]["details"]["fetch"]["attempts"], 10, "{record}");
}

/// A graph whose script sets `big` to `bytes` characters, asking for a state of 64 MiB.
fn growing(bytes: usize) -> Value {
    json!({
        "format": "switchyard/graph@1", "name": "Grows",
        "state": { "big": { "type": "any", "default": null } },
        "nodes": [ { "id": "start", "kind": "start" },
                   { "id": "grow", "kind": "script", "script": format!("let s = \"\"; s.pad({bytes}, \"x\"); #{{ big: s }}") },
                   { "id": "end", "kind": "end" } ],
        "edges": [ { "from": "start", "to": "grow" }, { "from": "grow", "to": "end" } ],
        "limits": { "max_state_bytes": 67_108_864u64 }
    })
}

#[test]
fn large_states_and_inputs_stop_or_are_refused_by_name_and_records_read_back() {
    let restate = Restate::start();
    // An input too large for a served run is refused before it starts.
    let body = json!({ "graph": growing(1), "input": { "text": "x".repeat(3 << 20) } });
    let (code, reply) = restate.post("/GraphRun/big-input/run", &body);
    assert_eq!(code, 413, "{reply}");
    assert!(reply["message"].as_str().is_some_and(|m| m.starts_with("input: ")), "{reply}");
    // So is a graph document.
    let mut huge = growing(1);
    huge["description"] = json!("x".repeat(3 << 20));
    let (code, reply) = restate.post("/GraphRun/big-graph/run", &json!({ "graph": huge }));
    assert_eq!(code, 413, "{reply}");
    assert!(reply["message"].as_str().is_some_and(|m| m.starts_with("graph: ")), "{reply}");

    // A state of 10 MiB: once retried for ever at step 0; now the run stops with the
    // engine's named error, and its record reads back.
    let (code, reply) = restate.post("/GraphRun/big-state/run/send", &json!({ "graph": growing(10 << 20) }));
    assert!(code < 300, "{code} {reply}");
    let failed = wait_for(&restate, "big-state", "failed");
    assert_eq!(failed["error"]["kind"], "state_size", "{failed}");
    assert!(failed["error"]["message"].as_str().is_some_and(|m| m.contains("max_state_bytes (2097152)")), "{failed}");
    let (code, record) = restate.post_empty("/GraphRun/big-state/record");
    assert_eq!(code, 200, "{record}");

    // Just under the served ceiling: the run completes and its record (the state five times
    // over) reads back whole.
    let near = (2 << 20) - 1024;
    let (code, reply) = restate.post("/GraphRun/near/run", &json!({ "graph": growing(near) }));
    assert_eq!(code, 200, "{}", reply["message"]);
    assert_eq!(reply["status"], "completed");
    let (code, record) = restate.post_empty("/GraphRun/near/record");
    assert_eq!(code, 200, "{}", record["message"]);
    assert_eq!(record["state"]["big"].as_str().map(str::len), Some(near));
    // And a fork of it, which reads that record back to start.
    let out = restate.cli(&["fork", "near", "--from-step", "1", "--id", "near-fork"]);
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    wait_for(&restate, "near-fork", "completed");
}
