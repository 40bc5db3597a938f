//! How a run stops and goes on from the command line (format.md §4, human; format.md §4, end; cli.md): a human form
//! answered with `--answer '{"node": {...}}'`, a bad form answer refused with exit 2 naming
//! node and field, an end with `outcome: failed` exiting 1, and `--break-before` /
//! `--break-after` stopping the run (exit 3) until `resume` goes on.

mod binary;

use binary::sy;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

fn fixture(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests").join("fixtures").join(name).to_string_lossy().into_owned()
}

fn save(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write a temporary file");
    path.to_string_lossy().into_owned()
}

fn ran(record: &Value) -> Vec<Value> {
    record["steps"].as_array().expect("steps").iter().map(|s| s["ran"].clone()).collect()
}

/// Runs `review_form.json` until its form waits, and saves the record as RUN.json.
fn waiting_form(dir: &Path) -> String {
    let out = sy(&["run", &fixture("review_form.json"), "--input", r#"{"request": "a laptop"}"#]);
    out.record(3);
    save(dir, "RUN.json", &out.stdout)
}

#[test]
fn a_waiting_form_lists_its_fields_with_the_default_evaluated() {
    let out = sy(&["run", &fixture("review_form.json"), "--input", r#"{"request": "a laptop"}"#]);
    let record = out.record(3);
    assert_eq!(record["status"], "interrupted");
    assert_eq!(
        record["waiting"],
        json!([{ "node": "review", "prompt": "Approve a laptop?", "fields": {
            "decision": { "type": "string", "options": ["approve", "reject"], "required": true, "label": "Decision" },
            "comment": { "type": "string", "required": false, "label": "Comment", "default": "no comment on a laptop" }
        } }])
    );
    // The form keeps the document's field order, as an editor shows it.
    let form = &out.stdout[out.stdout.find("\"waiting\"").expect("a waiting list")..];
    assert!(form.find("\"decision\"") < form.find("\"comment\""), "{}", out.describe());
}

#[test]
fn a_form_answered_with_answer_writes_each_field_and_routes_by_route_by() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let run = waiting_form(dir.path());
    let answer = r#"{"review": {"decision": "approve", "comment": "fine"}}"#;
    let record = sy(&["resume", &run, "--graph", &fixture("review_form.json"), "--answer", answer]).record(0);
    assert_eq!(record["status"], "completed");
    assert_eq!(record["state"]["decision"], "approve");
    assert_eq!(record["state"]["comment"], "fine");
    assert_eq!(record["state"]["outcome"], "approved: fine");
    assert_eq!(ran(&record), [json!(["review"]), json!(["approved"])]);
}

#[test]
fn an_optional_field_left_out_takes_the_default_the_form_showed() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let run = waiting_form(dir.path());
    let answer = r#"{"review": {"decision": "approve"}}"#;
    let record = sy(&["resume", &run, "--graph", &fixture("review_form.json"), "--answer", answer]).record(0);
    assert_eq!(record["state"]["comment"], "no comment on a laptop");
    assert_eq!(record["state"]["outcome"], "approved: no comment on a laptop");
}

#[test]
fn a_bad_form_answer_is_bad_input_naming_node_and_field_and_leaves_the_run_file_alone() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let run = waiting_form(dir.path());
    let before = std::fs::read(&run).expect("read RUN.json");
    let cases: [(&str, &[&str]); 5] = [
        (
            r#"{"review": {"decision": "approve", "comment": 5}}"#,
            &["answer.review.comment", "expected string, got integer (5)"],
        ),
        (
            r#"{"review": {"decision": "maybe"}}"#,
            &["answer.review.decision", "must be one of approve, reject", "maybe"],
        ),
        (r#"{"review": {"comment": "fine"}}"#, &["answer.review.decision", "required field (Decision) missing"]),
        (r#"{"review": {"decision": "approve", "colour": "red"}}"#, &["answer.review.colour", "no field `colour`"]),
        (r#"{"review": "approve"}"#, &["answer.review", "JSON object of its fields (decision, comment)"]),
    ];
    for (answer, needles) in cases {
        sy(&["resume", &run, "--graph", &fixture("review_form.json"), "--answer", answer]).assert_bad_input(needles);
        assert_eq!(std::fs::read(&run).expect("read RUN.json"), before, "RUN.json changed after {answer}");
    }
}

#[test]
fn an_end_with_outcome_failed_fails_the_run_with_its_message_and_exits_1() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let run = waiting_form(dir.path());
    let answer = r#"{"review": {"decision": "reject", "comment": "too dear"}}"#;
    let out = sy(&["resume", &run, "--graph", &fixture("review_form.json"), "--answer", answer]);
    let record = out.record(1);
    assert_eq!(record["status"], "failed");
    assert_eq!(record["error"], json!({ "node": "rejected", "kind": "ended", "message": "rejected: too dear" }));
    assert_eq!(record["next"], json!([]));
    // Resuming an ended run does not bring it back: it is still failed, for the same reason.
    let ended = save(dir.path(), "ENDED.json", &out.stdout);
    let again = sy(&["resume", &ended, "--graph", &fixture("review_form.json")]).record(1);
    assert_eq!(again["error"], record["error"]);
    assert_eq!(again["step"], record["step"]);
}

#[test]
fn a_failing_end_stops_a_branch_running_beside_it() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let graph = save(
        dir.path(),
        "g.json",
        r#"{ "format": "switchyard/graph@1", "name": "Two branches",
          "state": { "n": { "type": "integer", "reducer": "add" } },
          "nodes": [ { "id": "start", "kind": "start" },
            { "id": "a", "kind": "set", "set": { "n": "1" } },
            { "id": "b", "kind": "set", "set": { "n": "10" } },
            { "id": "b2", "kind": "set", "set": { "n": "100" } },
            { "id": "stop", "kind": "end", "outcome": "failed", "message": "n was {{ state.n }}" },
            { "id": "end", "kind": "end" } ],
          "edges": [ { "from": "start", "to": "a" }, { "from": "start", "to": "b" },
            { "from": "a", "to": "stop" }, { "from": "b", "to": "b2" }, { "from": "b2", "to": "end" } ] }"#,
    );
    let record = sy(&["run", &graph]).record(1);
    assert_eq!(record["error"], json!({ "node": "stop", "kind": "ended", "message": "n was 11" }));
    assert_eq!(ran(&record), [json!(["a", "b"])], "b2 must not run after the run ended");
    assert_eq!(record["state"]["n"], 11);
}

#[test]
fn break_before_stops_before_the_node_and_resume_runs_it() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let out = sy(&["run", &fixture("linear.json"), "--break-before", "shout"]);
    let record = out.record(3);
    assert_eq!(record["status"], "interrupted");
    assert_eq!(record["waiting"], json!([{ "node": "shout", "breakpoint": "before" }]));
    assert_eq!(record["next"], json!(["shout"]));
    assert_eq!(ran(&record), [json!(["greet"])]);
    assert_eq!(record["state"]["greeting"], "hello world");
    // Resuming with the same breakpoint passes it rather than stopping there again.
    let stopped = save(dir.path(), "RUN.json", &out.stdout);
    let done = sy(&["resume", &stopped, "--graph", &fixture("linear.json"), "--break-before", "shout"]).record(0);
    assert_eq!(done["status"], "completed");
    assert_eq!(ran(&done), [json!(["greet"]), json!(["shout"])]);
    assert_eq!(done["state"]["greeting"], "HELLO WORLD");
}

#[test]
fn break_after_stops_after_the_step_and_resume_goes_on() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let out = sy(&["run", &fixture("linear.json"), "--break-after", "greet,shout"]);
    let record = out.record(3);
    assert_eq!(record["waiting"], json!([{ "node": "greet", "breakpoint": "after" }]));
    assert_eq!(record["step"], 1);
    let stopped = save(dir.path(), "RUN.json", &out.stdout);
    // `shout` is the last node: the run completes rather than stopping after it.
    let done = sy(&["resume", &stopped, "--graph", &fixture("linear.json"), "--break-after", "greet,shout"]).record(0);
    assert_eq!(ran(&done), [json!(["greet"]), json!(["shout"])]);
}

#[test]
fn a_breakpoint_after_a_form_stops_once_it_is_answered() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let run = waiting_form(dir.path());
    let answer = r#"{"review": {"decision": "approve"}}"#;
    let out =
        sy(&["resume", &run, "--graph", &fixture("review_form.json"), "--answer", answer, "--break-after", "review"]);
    let record = out.record(3);
    assert_eq!(record["waiting"], json!([{ "node": "review", "breakpoint": "after" }]));
    assert_eq!(record["next"], json!(["approved"]));
    let stopped = save(dir.path(), "AFTER.json", &out.stdout);
    let done = sy(&["resume", &stopped, "--graph", &fixture("review_form.json")]).record(0);
    assert_eq!(done["state"]["outcome"], "approved: no comment on a laptop");
}

#[test]
fn a_breakpoint_on_a_node_the_graph_lacks_is_bad_input_naming_it() {
    sy(&["run", &fixture("linear.json"), "--break-before", "greet,shuot"])
        .assert_bad_input(&["--break-before", "shuot"]);
    sy(&["run", &fixture("linear.json"), "--break-after", "end"]).assert_bad_input(&["--break-after", "`end`"]);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let run = waiting_form(dir.path());
    sy(&["resume", &run, "--graph", &fixture("review_form.json"), "--break-after", "nope"])
        .assert_bad_input(&["--break-after", "nope"]);
}
