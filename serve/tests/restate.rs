//! `switchyard serve` on a real Restate server (no mock of Restate), driven by the CLI's client
//! commands as a person would, against a fake model server that counts its calls.

mod support;

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::fake_openai::FakeOpenAi;
use support::restate::{Restate, bin};
use support::{approval_graph, comparable};

fn text(out: &std::process::Output) -> (String, String) {
    (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

fn write_graph(dir: &std::path::Path, graph: &Value) -> String {
    let path = dir.join("graph.json");
    std::fs::write(&path, serde_json::to_string_pretty(graph).expect("graph")).expect("graph written");
    path.to_string_lossy().into_owned()
}

/// Submits a run, returning its id.
fn submit(restate: &Restate, graph: &str, input: &Value) -> String {
    let out = restate.cli(&["submit", graph, "--input", &input.to_string()]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "submit failed: {stderr}");
    stdout.trim().to_string()
}

/// Waits until `switchyard status` exits with `code`; the summary it printed.
fn wait_status(restate: &Restate, run_id: &str, code: i32) -> Value {
    let since = Instant::now();
    loop {
        let out = restate.cli(&["status", run_id]);
        if out.status.code() == Some(code) {
            return serde_json::from_slice(&out.stdout).expect("status prints JSON");
        }
        assert!(since.elapsed() < Duration::from_secs(60), "{run_id} never reached exit {code}: {:?}", text(&out));
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The record `switchyard record` prints, as JSON, and its exit code.
fn record(restate: &Restate, run_id: &str) -> (Value, i32) {
    let out = restate.cli(&["record", run_id]);
    let record = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("record: {e}: {:?}", text(&out)));
    (record, out.status.code().unwrap_or(-1))
}

/// The CLI's own record of the same run: `run`, then `resume --answer` when given.
fn cli_record(dir: &std::path::Path, graph: &str, input: &Value, answer: Option<&Value>) -> Value {
    let first = std::process::Command::new(bin("switchyard"))
        .args(["run", graph, "--input", &input.to_string()])
        .output()
        .expect("switchyard run");
    let Some(answer) = answer else { return serde_json::from_slice(&first.stdout).expect("record") };
    let path = dir.join("cli-run.json");
    std::fs::write(&path, &first.stdout).expect("record written");
    let out = std::process::Command::new(bin("switchyard"))
        .args(["resume", &path.to_string_lossy(), "--graph", graph, "--answer", &answer.to_string()])
        .output()
        .expect("switchyard resume");
    serde_json::from_slice(&out.stdout).expect("record")
}

#[test]
fn a_served_run_waits_for_its_answer_and_ends_with_the_clis_record() {
    let model = FakeOpenAi::start();
    let restate = Restate::start();
    let dir = tempfile::tempdir().expect("dir");
    let graph = write_graph(dir.path(), &approval_graph(&model.base_url()));
    let input = json!({ "request": "Move the launch to Friday" });

    let id = submit(&restate, &graph, &input);
    let waiting = wait_status(&restate, &id, 3);
    assert_eq!(waiting["waiting"][0]["node"], "approve");
    assert_eq!(waiting["state"]["draft"], FakeOpenAi::reply_to("Write a reply to: Move the launch to Friday"));

    // Wrong answers are refused with the CLI's words, and change nothing.
    let out = restate.cli(&["answer", &id, "--answer", r#"{"approve": "maybe"}"#]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).1.contains("answer.approve: must be one of approve, reject"), "{:?}", text(&out));
    let out = restate.cli(&["answer", &id, "--answer", r#"{"publish": "approve"}"#]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).1.contains("`publish` is not waiting for an answer (waiting: approve)"), "{:?}", text(&out));
    assert_eq!(wait_status(&restate, &id, 3)["step"], waiting["step"]);

    let answer = json!({ "approve": "approve" });
    let out = restate.cli(&["answer", &id, "--answer", &answer.to_string()]);
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    let done = wait_status(&restate, &id, 0);
    assert_eq!(done["state"]["published"], true);
    // Answering again: nothing waits.
    let out = restate.cli(&["answer", &id, "--answer", &answer.to_string()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).1.contains("the run is not waiting for an answer (status: completed"), "{:?}", text(&out));

    let (served, code) = record(&restate, &id);
    assert_eq!(code, 0);
    assert_eq!(served["run_id"], id.as_str());
    assert_eq!(model.total_calls(), 1, "one model call for one llm step");

    // A fork from after the draft waits again, reusing the draft: no new model call.
    let out = restate.cli(&["fork", &id, "--from-step", "1", "--set", r#"{"request": "edited"}"#, "--id", "the-fork"]);
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    let fork = text(&out).0.trim().to_string();
    let forked = wait_status(&restate, &fork, 3);
    assert_eq!(forked["state"]["request"], "edited");
    assert_eq!(forked["forked_from"]["run_id"], id.as_str());
    let out = restate.cli(&["answer", &fork, "--answer", r#"{"approve": "reject"}"#]);
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    assert_eq!(wait_status(&restate, &fork, 0)["state"]["published"], false);
    assert_eq!(model.total_calls(), 1, "the fork reused the original's model reply");
    assert_eq!(fork, "the-fork");
    let out = restate.cli(&["fork", &id, "--from-step", "9"]);
    assert_eq!(out.status.code(), Some(2), "{:?}", text(&out));
    let out = restate.cli(&["fork", &id, "--from-step", "1", "--id", "the-fork"]);
    assert_eq!(out.status.code(), Some(2), "{:?}", text(&out));
    assert!(text(&out).1.contains("a run with the id the-fork exists already"), "{:?}", text(&out));

    let cli = cli_record(dir.path(), &graph, &input, Some(&answer));
    assert_eq!(comparable(&served), comparable(&cli), "the served record is the CLI's");
}

#[test]
fn bad_graphs_inputs_and_ids_are_refused_with_the_clis_message() {
    let restate = Restate::start();
    let dir = tempfile::tempdir().expect("dir");
    let bad = write_graph(
        dir.path(),
        &json!({ "format": "switchyard/graph@1", "nodes": [{ "id": "a", "kind": "bogus" }], "edges": [] }),
    );
    let out = restate.cli(&["submit", &bad]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out).1.contains(&format!("{bad}: at nodes[0].kind: `bogus` is not allowed here")),
        "{:?}",
        text(&out)
    );
    let invalid = write_graph(
        dir.path(),
        &json!({ "format": "switchyard/graph@1", "nodes": [{ "id": "a", "kind": "set" }], "edges": [] }),
    );
    let out = restate.cli(&["submit", &invalid]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).1.starts_with(&format!("switchyard: {invalid}: invalid graph: ")), "{:?}", text(&out));

    let model = FakeOpenAi::start();
    let graph = write_graph(dir.path(), &approval_graph(&model.base_url()));
    let out = restate.cli(&["submit", &graph, "--input", r#"{"request": 5}"#]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).1.contains("--input: input.request: expected string, got integer (5)"), "{:?}", text(&out));
    let out = restate.cli(&["submit", &graph]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).1.contains("input.request: required by the start node `start` but missing"), "{:?}", text(&out));

    // Straight to the ingress: a graph is refused with 422 and the message, and the workflow
    // has ended (its output is the refusal, not "still running").
    let (status, reply) = restate.post("/GraphRun/direct-1/run", &json!({ "graph": { "nodes": 3 } }));
    assert_eq!(status, 422, "{reply}");
    assert_eq!(reply["message"], "at nodes: expected a list, found the number `3`");
    let (status, reply) = restate.get("/restate/workflow/GraphRun/direct-1/output");
    assert_eq!(status, 422, "{reply}");
    let out = restate.cli(&["status", "direct-1"]);
    assert_eq!(out.status.code(), Some(2));
    // The refused run's id stays taken while Restate keeps the ended workflow: its status is
    // the refusal.
    assert!(text(&out).1.contains("at nodes: expected a list, found the number `3`"), "{:?}", text(&out));

    let out = restate.cli(&["submit", &graph, "--id", "twice", "--input", r#"{"request": "a"}"#]);
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    let out = restate.cli(&["submit", &graph, "--id", "twice", "--input", r#"{"request": "a"}"#]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).1.contains("a run with the id twice exists already"), "{:?}", text(&out));
    let out = restate.cli(&["submit", &graph, "--id", "a/b"]);
    assert_eq!(out.status.code(), Some(2));

    // A graph sent once runs again by its hash.
    let summary = wait_status(&restate, "twice", 3);
    let hash = summary["graph_hash"].as_str().expect("hash").to_string();
    let out = restate.cli(&["submit", "--graph-hash", &hash, "--input", r#"{"request": "b"}"#]);
    assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    let again = wait_status(&restate, text(&out).0.trim(), 3);
    assert_eq!(again["graph_hash"], hash.as_str());
    let out = restate.cli(&["submit", "--graph-hash", "0000", "--input", "{}"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).1.contains("no graph is registered as 0000"), "{:?}", text(&out));

    let out = restate.cli(&["status", "no-such-run"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_killed_service_replays_its_runs_without_repeating_a_model_call() {
    let model = FakeOpenAi::start();
    let mut restate = Restate::start();
    let dir = tempfile::tempdir().expect("dir");
    let graph = write_graph(dir.path(), &approval_graph(&model.base_url()));
    let ids: Vec<String> =
        (0..12).map(|i| submit(&restate, &graph, &json!({ "request": format!("request {i}") }))).collect();
    for id in &ids {
        wait_status(&restate, id, 3);
    }
    // Answer half, and kill the service while those runs wait for their slow webhook.
    model.set_hook_delay_ms(1500);
    for id in ids.iter().step_by(2) {
        let out = restate.cli(&["answer", id, "--answer", r#"{"approve": "approve"}"#]);
        assert_eq!(out.status.code(), Some(0), "{:?}", text(&out));
    }
    restate.kill_service();
    let caught = model.hooks().len();
    assert!(caught > 0, "the kill came before any webhook call: nothing was in flight");
    std::thread::sleep(Duration::from_millis(500));
    model.set_hook_delay_ms(0);
    restate.start_service();
    for (i, id) in ids.iter().enumerate() {
        wait_status(&restate, id, if i % 2 == 0 { 0 } else { 3 });
    }
    // Each prompt was sent once, although every run was replayed by the new service. A
    // webhook call in flight at the kill may be sent again (its reply never reached the
    // journal), but under the key it was first sent with.
    for (prompt, calls) in model.calls() {
        assert_eq!(calls, 1, "{prompt}: the service sent it again");
    }
    assert_eq!(model.calls().len(), ids.len());
    assert_eq!(model.hooks().len(), ids.len() / 2, "one webhook body per answered run");
    for (body, keys) in model.hook_keys() {
        assert!(keys.iter().all(|k| !k.is_empty() && k == &keys[0]), "{body}: sent again under another key: {keys:?}");
    }
    for (i, id) in ids.iter().enumerate() {
        let input = json!({ "request": format!("request {i}") });
        let answer = (i % 2 == 0).then(|| json!({ "approve": "approve" }));
        let (served, _) = record(&restate, id);
        let expected = cli_record(dir.path(), &graph, &input, answer.as_ref());
        assert_eq!(comparable(&served), comparable(&expected), "run {i}");
    }
}

#[test]
fn limits_and_failures_end_a_served_run_as_they_end_the_clis() {
    let restate = Restate::start();
    let dir = tempfile::tempdir().expect("dir");
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("port").local_addr().expect("addr").port();
    let cases = [
        // A loop stopped by max_steps: limit_reached, exit 4.
        (
            json!({
                "format": "switchyard/graph@1", "name": "Counter",
                "state": { "n": { "type": "number", "reducer": "add", "default": 0 } },
                "nodes": [ { "id": "start", "kind": "start" }, { "id": "inc", "kind": "set", "set": { "n": "1" } }, { "id": "end", "kind": "end" } ],
                "edges": [ { "from": "start", "to": "inc" }, { "from": "inc", "to": "inc", "when": "state.n < 100" }, { "from": "inc", "to": "end", "when": "state.n >= 100" } ],
                "limits": { "max_steps": 12 }
            }),
            4,
        ),
        // An HTTP call to a closed port, retried once after a back-off: failed, exit 1.
        (
            json!({
                "format": "switchyard/graph@1", "name": "Lookup",
                "state": { "reply": { "type": "any", "default": null } },
                "nodes": [ { "id": "start", "kind": "start" },
                           { "id": "fetch", "kind": "http", "method": "GET", "url": format!("http://127.0.0.1:{closed}/x"), "writes": "reply",
                             "retry": { "attempts": 2, "backoff_ms": 50 } },
                           { "id": "end", "kind": "end" } ],
                "edges": [ { "from": "start", "to": "fetch" }, { "from": "fetch", "to": "end" } ]
            }),
            1,
        ),
    ];
    for (graph, code) in cases {
        let path = write_graph(dir.path(), &graph);
        let id = submit(&restate, &path, &json!({}));
        wait_status(&restate, &id, code);
        let (served, exit) = record(&restate, &id);
        assert_eq!(exit, code);
        let cli = cli_record(dir.path(), &path, &json!({}), None);
        assert_eq!(comparable(&served), comparable(&cli), "{}", graph["name"]);
    }
}
