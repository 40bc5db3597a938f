//! Integration tests for the `switchyard` command line (cli.md), run against the real
//! binary. They check what a user sees: the exit code, the record printed on stdout (parsed as
//! JSON), and the one line on stderr that says what is wrong and where.
//!
//! Graph fixtures live in `tests/fixtures/`; broken documents are written inline so that the
//! defect each test is about is visible next to it.

mod binary;

use binary::{Out, sy, sy_in};
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn fixture(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests").join("fixtures").join(name).to_string_lossy().into_owned()
}

fn write(dir: &Path, name: &str, contents: impl AsRef<[u8]>) -> String {
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("write a temporary file");
    path.to_string_lossy().into_owned()
}

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary directory")
}

/// Bad input: exit code 2, nothing on stdout, exactly one line on stderr that holds every
/// `needle`, and no sign of a panic.
fn assert_bad_input(out: &Out, needles: &[&str]) -> String {
    out.assert_code(2);
    assert!(out.stdout.trim().is_empty(), "bad input must print nothing on stdout\n{}", out.describe());
    let lines: Vec<&str> = out.stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "bad input must give exactly one line on stderr\n{}", out.describe());
    for forbidden in ["panicked", "RUST_BACKTRACE", "stack backtrace", "internal error"] {
        assert!(!out.stderr.contains(forbidden), "stderr shows a panic ({forbidden:?})\n{}", out.describe());
    }
    for needle in needles {
        assert!(out.stderr.contains(needle), "stderr should mention {needle:?}\n{}", out.describe());
    }
    lines[0].to_string()
}

/// Finds `line L, column C` in a message and returns (L, C).
fn line_and_column(message: &str) -> Option<(usize, usize)> {
    let at = message.find("line ")?;
    let rest = &message[at + "line ".len()..];
    let (line, rest) = rest.split_once(", column ")?;
    let column: String = rest.chars().take_while(char::is_ascii_digit).collect();
    Some((line.parse().ok()?, column.parse().ok()?))
}

fn assert_line(out: &Out, line: usize) {
    let (l, _c) = line_and_column(&out.stderr)
        .unwrap_or_else(|| panic!("stderr should give `line L, column C`\n{}", out.describe()));
    assert_eq!(l, line, "wrong line in the message\n{}", out.describe());
}

/// A record with what legitimately differs between two runs taken out: the run id (and the
/// trace ids derived from it) and the steps' durations and wall-clock times.
fn comparable(mut record: Value) -> Value {
    let obj = record.as_object_mut().expect("a record is a JSON object");
    for key in ["run_id", "trace_id", "traces"] {
        obj.remove(key);
    }
    if let Some(Value::Array(steps)) = obj.get_mut("steps") {
        for s in steps {
            let step = s.as_object_mut().expect("a step is a JSON object");
            for key in ["duration_ms", "started_ms", "timings"] {
                step.remove(key);
            }
        }
    }
    record
}

/// Runs `approval.json` until it waits for `ask` and saves the record as RUN.json.
fn interrupted_run(dir: &Path) -> String {
    let out = sy(&["run", &fixture("approval.json"), "--input", r#"{"request": "laptop", "amount": 900}"#]);
    out.assert_code(3);
    write(dir, "RUN.json", &out.stdout)
}

/// Runs `linear.json` to completion (two steps) and saves the record as RUN.json.
fn completed_run(dir: &Path) -> String {
    let out = sy(&["run", &fixture("linear.json")]);
    out.assert_code(0);
    write(dir, "RUN.json", &out.stdout)
}

const VALID_MINIMAL: &str = r#"{
  "format": "switchyard/graph@1",
  "nodes": [
    { "id": "start", "kind": "start" },
    { "id": "end", "kind": "end" }
  ],
  "edges": [ { "from": "start", "to": "end" } ]
}"#;

// ---------------------------------------------------------------------------------------------
// Exit codes
// ---------------------------------------------------------------------------------------------

#[test]
fn run_of_a_graph_that_completes_exits_0() {
    let out = sy(&["run", &fixture("linear.json")]);
    out.assert_code(0);
    let rec = out.json();
    assert_eq!(rec["status"], "completed", "{}", out.describe());
    assert_eq!(rec["state"]["greeting"], "HELLO WORLD");
    assert_eq!(rec["error"], Value::Null);
    assert_eq!(rec["waiting"], json!([]));
}

#[test]
fn validate_of_a_valid_graph_exits_0_and_prints_nothing() {
    let out = sy(&["validate", &fixture("linear.json")]);
    out.assert_code(0);
    assert_eq!(out.stdout.trim(), "", "{}", out.describe());
    assert_eq!(out.stderr.trim(), "", "{}", out.describe());
}

#[test]
fn run_where_a_node_expression_throws_exits_1_with_the_error_in_the_record() {
    let out = sy(&["run", &fixture("throws.json")]);
    out.assert_code(1);
    let rec = out.json();
    assert_eq!(rec["status"], "failed", "{}", out.describe());
    assert_eq!(rec["error"]["node"], "explode");
    assert_eq!(rec["error"]["kind"], "expression");
    let message = rec["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("boom"), "error message: {message}");
    // The state is kept as of the last good step.
    assert_eq!(rec["state"]["x"], 41);
}

#[test]
fn run_that_reaches_a_human_node_exits_3_and_lists_the_rendered_prompt() {
    let out = sy(&["run", &fixture("approval.json"), "--input", r#"{"request": "laptop", "amount": 900}"#]);
    out.assert_code(3);
    let rec = out.json();
    assert_eq!(rec["status"], "interrupted", "{}", out.describe());
    assert_eq!(
        rec["waiting"],
        json!([{ "node": "ask", "prompt": "Approve laptop for 900?", "options": ["approve", "reject"] }])
    );
    assert_eq!(rec["next"], json!(["ask"]));
}

#[test]
fn run_of_an_endless_loop_stops_at_max_steps_and_exits_4() {
    let out = sy(&["run", &fixture("loop.json")]);
    out.assert_code(4);
    let rec = out.json();
    assert_eq!(rec["status"], "limit_reached", "{}", out.describe());
    assert_eq!(rec["step"], 3);
    assert_eq!(rec["steps"].as_array().map(Vec::len), Some(3));
    // State kept.
    assert_eq!(rec["state"]["n"], 3);
    assert_eq!(rec["next"], json!(["tick"]));
}

// ---------------------------------------------------------------------------------------------
// `run`: the record
// ---------------------------------------------------------------------------------------------

#[test]
fn run_prints_a_run_record_with_one_entry_per_step() {
    let out = sy(&["run", &fixture("linear.json")]);
    out.assert_code(0);
    let rec = out.json();
    assert_eq!(rec["format"], "switchyard/run@1");
    assert_eq!(rec["graph"], "Greeter");
    assert!(rec["run_id"].as_str().is_some_and(|s| !s.is_empty()));
    for key in ["status", "input", "state", "step", "next", "waiting", "error", "outputs"] {
        assert!(rec.get(key).is_some(), "record lacks `{key}`: {rec:#}");
    }
    let steps = rec["steps"].as_array().expect("`steps` is a list");
    assert_eq!(steps.len(), 2);
    assert_eq!(rec["step"], 2);
    assert_eq!(steps[0]["step"], 1);
    assert_eq!(steps[0]["ran"], json!(["greet"]));
    assert_eq!(steps[0]["next"], json!(["shout"]));
    assert_eq!(steps[1]["step"], 2);
    assert_eq!(steps[1]["ran"], json!(["shout"]));
    for s in steps {
        for key in ["updates", "errors", "patch", "state", "next", "duration_ms"] {
            assert!(s.get(key).is_some(), "step lacks `{key}`: {s:#}");
        }
        assert!(s["patch"].is_array(), "patch is a JSON Patch list: {s:#}");
    }
    assert_eq!(steps[1]["state"], rec["state"]);
    assert_eq!(steps[0]["updates"]["greet"], json!({ "greeting": "hello world", "count": 1 }));
}

#[test]
fn run_summary_leaves_the_steps_out_and_keeps_the_rest() {
    let full = sy(&["run", &fixture("linear.json")]);
    let summary = sy(&["run", &fixture("linear.json"), "--summary"]);
    summary.assert_code(0);
    let rec = summary.json();
    assert!(rec.get("steps").is_none(), "--summary must leave `steps` out\n{}", summary.describe());
    let mut full = comparable(full.json());
    full.as_object_mut().map(|o| o.remove("steps"));
    assert_eq!(comparable(rec), full);
}

#[test]
fn run_input_given_inline_seeds_the_state() {
    let out = sy(&["run", &fixture("linear.json"), "--input", r#"{"name": "Ada"}"#]);
    out.assert_code(0);
    let rec = out.json();
    assert_eq!(rec["input"], json!({ "name": "Ada" }));
    assert_eq!(rec["state"]["greeting"], "HELLO ADA");
}

#[test]
fn run_input_read_from_a_file_with_at_sign() {
    let dir = tmp();
    let file = write(dir.path(), "input.json", r#"{ "name": "Grace" }"#);
    let from_file = sy(&["run", &fixture("linear.json"), "--input", &format!("@{file}")]);
    from_file.assert_code(0);
    let rec = from_file.json();
    assert_eq!(rec["input"], json!({ "name": "Grace" }));
    assert_eq!(rec["state"]["greeting"], "HELLO GRACE");

    let inline = sy(&["run", &fixture("linear.json"), "--input", r#"{"name": "Grace"}"#]);
    assert_eq!(comparable(rec), comparable(inline.json()));
}

#[test]
fn run_input_from_a_relative_at_file() {
    let dir = tmp();
    write(dir.path(), "in.json", r#"{ "request": "chair" }"#);
    let out = sy_in(dir.path(), &["run", &fixture("approval.json"), "--input", "@in.json"]);
    out.assert_code(3);
    assert_eq!(out.json()["waiting"][0]["prompt"], "Approve chair for 0?");
}

// ---------------------------------------------------------------------------------------------
// Bad graph files: exit 2, one line on stderr saying where
// ---------------------------------------------------------------------------------------------

#[test]
fn nonexistent_graph_file_is_bad_input_for_every_command() {
    let dir = tmp();
    let run = write(dir.path(), "RUN.json", "{}");
    for args in [
        vec!["run", "no-such-graph.json"],
        vec!["validate", "no-such-graph.json"],
        vec!["validate", "no-such-graph.json", "--json"],
        vec!["mermaid", "no-such-graph.json"],
        vec!["resume", run.as_str(), "--graph", "no-such-graph.json"],
    ] {
        let out = sy_in(dir.path(), &args);
        assert_bad_input(&out, &["no-such-graph.json"]);
        assert!(out.stderr.contains("no such file"), "should say the file does not exist\n{}", out.describe());
    }
}

#[test]
fn graph_path_that_is_a_directory_is_bad_input() {
    let dir = tmp();
    std::fs::create_dir(dir.path().join("graphs")).expect("mkdir");
    let out = sy_in(dir.path(), &["run", "graphs"]);
    assert_bad_input(&out, &["graphs", "directory"]);
}

#[test]
fn non_utf8_graph_file_is_bad_input() {
    let dir = tmp();
    let path =
        write(dir.path(), "latin1.json", b"{\"format\": \"switchyard/graph@1\", \"name\": \"caf\xe9\", \"nodes\": []}");
    let out = sy(&["run", &path]);
    assert_bad_input(&out, &["latin1.json", "UTF-8"]);
}

#[test]
fn empty_graph_file_is_bad_input_with_a_position() {
    let dir = tmp();
    let path = write(dir.path(), "empty.json", "");
    let out = sy(&["run", &path]);
    assert_bad_input(&out, &["empty.json"]);
    assert_line(&out, 1);
}

#[test]
fn truncated_graph_json_reports_line_and_column() {
    let dir = tmp();
    let text = "{\n  \"format\": \"switchyard/graph@1\",\n  \"nodes\": [\n    {\"id\": \"start\", \"kind\": \"start\"";
    let path = write(dir.path(), "cut.json", text);
    let out = sy(&["run", &path]);
    let line = assert_bad_input(&out, &["cut.json"]);
    let (l, c) =
        line_and_column(&line).unwrap_or_else(|| panic!("stderr should give `line L, column C`\n{}", out.describe()));
    assert_eq!((l, c), (4, 35), "the position of the end of the text\n{}", out.describe());
    assert!(line.contains("truncated") || line.contains("end"), "{}", out.describe());
}

/// The message for truncated JSON names a JSON path; it must be a real path, not one with a
/// placeholder segment such as `nodes[0].?`.
#[test]
fn truncated_graph_json_shows_no_placeholder_path_segment() {
    let dir = tmp();
    let text = "{\n  \"format\": \"switchyard/graph@1\",\n  \"nodes\": [\n    {\"id\": \"start\", \"kind\": \"start\"";
    let path = write(dir.path(), "cut.json", text);
    let out = sy(&["run", &path]);
    let line = assert_bad_input(&out, &["cut.json"]);
    assert!(
        !line.contains(".?") && !line.contains("?:"),
        "the path in the message has a `?` placeholder segment\n{}",
        out.describe()
    );
}

#[test]
fn wrong_type_names_the_json_path() {
    let dir = tmp();
    let path = write(
        dir.path(),
        "limits.json",
        r#"{
  "format": "switchyard/graph@1",
  "nodes": [ { "id": "start", "kind": "start" } ],
  "limits": { "max_steps": "ten" }
}"#,
    );
    let out = sy(&["run", &path]);
    assert_bad_input(&out, &["limits.json", "limits.max_steps"]);
    assert_line(&out, 4);
}

#[test]
fn unknown_field_names_the_path_and_suggests_the_right_name() {
    let dir = tmp();
    let path = write(
        dir.path(),
        "typo.json",
        r#"{
  "format": "switchyard/graph@1",
  "nodes": [
    { "id": "start", "kind": "start" },
    { "id": "a", "kind": "set", "lable": "A", "set": {} }
  ]
}"#,
    );
    let out = sy(&["run", &path]);
    assert_bad_input(&out, &["typo.json", "nodes[1].lable", "did you mean", "label"]);
    assert_line(&out, 5);
}

#[test]
fn unknown_field_is_bad_input_for_validate_too() {
    let dir = tmp();
    let path = write(dir.path(), "typo.json", r#"{"format": "switchyard/graph@1", "nodes": [], "edgez": []}"#);
    let out = sy(&["validate", &path]);
    assert_bad_input(&out, &["typo.json", "edgez", "edges"]);
}

#[test]
fn wrong_format_string_is_bad_input_naming_format() {
    let dir = tmp();
    let path = write(dir.path(), "v2.json", r#"{"format": "switchyard/graph@2", "nodes": []}"#);
    let out = sy(&["run", &path]);
    assert_bad_input(&out, &["v2.json", "format", "switchyard/graph@1"]);
}

#[test]
fn edge_to_a_missing_node_is_bad_input_naming_the_edge_path() {
    let dir = tmp();
    let path = write(
        dir.path(),
        "ghost.json",
        r#"{
  "format": "switchyard/graph@1",
  "nodes": [ { "id": "start", "kind": "start" }, { "id": "end", "kind": "end" } ],
  "edges": [ { "from": "start", "to": "end" }, { "from": "start", "to": "ghost" } ]
}"#,
    );
    for cmd in ["run", "mermaid"] {
        let out = sy(&[cmd, &path]);
        assert_bad_input(&out, &["ghost.json", "edges[1].to", "ghost"]);
    }
}

#[test]
fn invalid_graph_with_several_errors_still_gives_one_line() {
    let out = sy(&["run", &fixture("invalid.json")]);
    assert_bad_input(&out, &["invalid.json", "nodes[2].id"]);
}

// ---------------------------------------------------------------------------------------------
// Bad --input
// ---------------------------------------------------------------------------------------------

#[test]
fn input_that_is_not_json_is_bad_input_with_a_position() {
    let out = sy(&["run", &fixture("linear.json"), "--input", "name=Ada"]);
    assert_bad_input(&out, &["--input"]);
    assert_line(&out, 1);
}

#[test]
fn input_with_truncated_json_is_bad_input_with_a_position() {
    let out = sy(&["run", &fixture("linear.json"), "--input", r#"{"name": "#]);
    assert_bad_input(&out, &["--input"]);
    assert_line(&out, 1);
}

#[test]
fn input_that_is_not_an_object_is_bad_input() {
    for input in ["[1, 2]", r#""Ada""#, "42", "null"] {
        let out = sy(&["run", &fixture("linear.json"), "--input", input]);
        assert_bad_input(&out, &["--input", "object"]);
    }
}

#[test]
fn input_missing_a_required_key_is_bad_input_naming_it() {
    let out = sy(&["run", &fixture("approval.json"), "--input", "{}"]);
    assert_bad_input(&out, &["--input", "input.request"]);
}

#[test]
fn input_without_any_input_flag_still_checks_required_keys() {
    let out = sy(&["run", &fixture("approval.json")]);
    assert_bad_input(&out, &["input.request"]);
}

#[test]
fn input_with_a_wrong_typed_value_for_a_declared_field_is_bad_input() {
    let out = sy(&["run", &fixture("approval.json"), "--input", r#"{"request": "laptop", "amount": "lots"}"#]);
    assert_bad_input(&out, &["--input", "input.amount", "number"]);
}

#[test]
fn input_at_a_missing_file_is_bad_input_naming_the_file() {
    let dir = tmp();
    let out = sy_in(dir.path(), &["run", &fixture("linear.json"), "--input", "@nowhere.json"]);
    assert_bad_input(&out, &["--input", "nowhere.json", "no such file"]);
}

#[test]
fn input_at_a_file_with_bad_json_names_the_file_and_position() {
    let dir = tmp();
    write(dir.path(), "in.json", "{\n  \"name\": \"Ada\",\n}\n");
    let out = sy_in(dir.path(), &["run", &fixture("linear.json"), "--input", "@in.json"]);
    assert_bad_input(&out, &["--input", "in.json"]);
    assert_line(&out, 3);
}

// ---------------------------------------------------------------------------------------------
// `resume`: continue and fork
// ---------------------------------------------------------------------------------------------

#[test]
fn resume_answering_the_waiting_human_runs_to_completion() {
    let dir = tmp();
    let run = interrupted_run(dir.path());
    let out = sy(&["resume", &run, "--graph", &fixture("approval.json"), "--answer", r#"{"ask": "approve"}"#]);
    out.assert_code(0);
    let rec = out.json();
    assert_eq!(rec["format"], "switchyard/run@1");
    assert_eq!(rec["status"], "completed", "{}", out.describe());
    assert_eq!(rec["state"]["decision"], "approve");
    assert_eq!(rec["state"]["outcome"], "done: laptop");
    assert_eq!(rec["waiting"], json!([]));
    let ran: Vec<&Value> = rec["steps"].as_array().expect("steps").iter().map(|s| &s["ran"]).collect();
    assert_eq!(ran, [&json!(["ask"]), &json!(["approved"])]);
}

#[test]
fn resume_answer_from_a_file_follows_the_chosen_option() {
    let dir = tmp();
    let run = interrupted_run(dir.path());
    let answer = write(dir.path(), "answer.json", r#"{ "ask": "reject" }"#);
    let out = sy(&["resume", &run, "--graph", &fixture("approval.json"), "--answer", &format!("@{answer}")]);
    out.assert_code(0);
    let rec = out.json();
    assert_eq!(rec["state"]["decision"], "reject");
    assert_eq!(rec["state"]["outcome"], "refused");
    assert!(rec["outputs"].get("approved").is_none(), "{rec:#}");
}

#[test]
fn resume_of_an_interrupted_run_without_answer_says_what_to_give() {
    let dir = tmp();
    let run = interrupted_run(dir.path());
    let out = sy(&["resume", &run, "--graph", &fixture("approval.json")]);
    assert_bad_input(&out, &["ask", "--answer"]);
}

#[test]
fn resume_answer_for_a_node_that_is_not_waiting_is_bad_input() {
    let dir = tmp();
    let run = interrupted_run(dir.path());
    let out = sy(&["resume", &run, "--graph", &fixture("approval.json"), "--answer", r#"{"approved": "yes"}"#]);
    assert_bad_input(&out, &["--answer", "approved", "ask"]);
}

#[test]
fn resume_answer_for_a_node_that_does_not_exist_is_bad_input() {
    let dir = tmp();
    let run = interrupted_run(dir.path());
    let out = sy(&["resume", &run, "--graph", &fixture("approval.json"), "--answer", r#"{"asky": "approve"}"#]);
    assert_bad_input(&out, &["--answer", "asky"]);
}

#[test]
fn resume_answer_outside_the_options_is_bad_input_listing_them() {
    let dir = tmp();
    let run = interrupted_run(dir.path());
    let out = sy(&["resume", &run, "--graph", &fixture("approval.json"), "--answer", r#"{"ask": "maybe"}"#]);
    assert_bad_input(&out, &["--answer", "ask", "approve", "reject", "maybe"]);
}

#[test]
fn resume_answer_that_is_not_an_object_is_bad_input() {
    let dir = tmp();
    let run = interrupted_run(dir.path());
    let out = sy(&["resume", &run, "--graph", &fixture("approval.json"), "--answer", r#""approve""#]);
    assert_bad_input(&out, &["--answer"]);
}

#[test]
fn fork_from_a_step_with_set_applies_the_edit_and_records_where_it_came_from() {
    let dir = tmp();
    let run = completed_run(dir.path());
    let original: Value =
        serde_json::from_str(&std::fs::read_to_string(&run).expect("read RUN.json")).expect("RUN.json is JSON");
    let out = sy(&[
        "resume",
        &run,
        "--graph",
        &fixture("linear.json"),
        "--from-step",
        "1",
        "--set",
        r#"{"greeting": "hi there", "count": 10}"#,
    ]);
    out.assert_code(0);
    let rec = out.json();
    assert_eq!(rec["status"], "completed", "{}", out.describe());
    // `shout` ran on the edited state; `count` went through its `add` reducer (1 + 10 + 1).
    assert_eq!(rec["state"]["greeting"], "HI THERE");
    assert_eq!(rec["state"]["count"], 12);
    assert_eq!(rec["forked_from"]["run_id"], original["run_id"]);
    assert_eq!(rec["forked_from"]["step"], 1);
    assert_ne!(rec["run_id"], original["run_id"], "a fork is a new run");
    // Step 1 is the original's; step 2 is new.
    let steps = rec["steps"].as_array().expect("steps");
    assert_eq!(steps.len(), 2);
    assert_eq!(
        comparable(json!({ "steps": [steps[0].clone()] })),
        comparable(json!({ "steps": [original["steps"][0].clone()] }))
    );
    assert_eq!(steps[1]["updates"]["shout"]["greeting"], "HI THERE");
}

#[test]
fn fork_from_step_0_reruns_from_the_start() {
    let dir = tmp();
    let run = completed_run(dir.path());
    let out =
        sy(&["resume", &run, "--graph", &fixture("linear.json"), "--from-step", "0", "--set", r#"{"name": "Lin"}"#]);
    out.assert_code(0);
    let rec = out.json();
    assert_eq!(rec["state"]["greeting"], "HELLO LIN");
    assert_eq!(rec["forked_from"]["step"], 0);
    assert_eq!(rec["step"], 2);
}

#[test]
fn fork_of_an_interrupted_run_can_answer_differently() {
    let dir = tmp();
    let run = interrupted_run(dir.path());
    let out = sy(&[
        "resume",
        &run,
        "--graph",
        &fixture("approval.json"),
        "--from-step",
        "0",
        "--set",
        r#"{"request": "desk"}"#,
        "--answer",
        r#"{"ask": "approve"}"#,
    ]);
    out.assert_code(0);
    let rec = out.json();
    assert_eq!(rec["state"]["outcome"], "done: desk");
    assert!(rec.get("forked_from").is_some_and(Value::is_object), "{rec:#}");
}

#[test]
fn fork_with_a_set_value_of_the_wrong_type_is_bad_input() {
    let dir = tmp();
    let run = completed_run(dir.path());
    let out =
        sy(&["resume", &run, "--graph", &fixture("linear.json"), "--from-step", "1", "--set", r#"{"count": "ten"}"#]);
    assert_bad_input(&out, &["count"]);
}

#[test]
fn set_without_from_step_is_bad_input() {
    let dir = tmp();
    let run = completed_run(dir.path());
    let out = sy(&["resume", &run, "--graph", &fixture("linear.json"), "--set", r#"{"count": 1}"#]);
    assert_bad_input(&out, &["--set", "--from-step"]);
}

#[test]
fn from_step_beyond_the_number_of_steps_is_bad_input() {
    let dir = tmp();
    let run = completed_run(dir.path());
    let out = sy(&["resume", &run, "--graph", &fixture("linear.json"), "--from-step", "3"]);
    assert_bad_input(&out, &["from", "2 steps", "3"]);
}

#[test]
fn resume_of_a_summary_record_says_the_full_record_is_needed() {
    let dir = tmp();
    let summary = sy(&["run", &fixture("linear.json"), "--summary"]);
    summary.assert_code(0);
    let run = write(dir.path(), "SUMMARY.json", &summary.stdout);
    for extra in [&[][..], &["--from-step", "1"][..]] {
        let mut args = vec!["resume", run.as_str(), "--graph"];
        let graph = fixture("linear.json");
        args.push(&graph);
        args.extend_from_slice(extra);
        let out = sy(&args);
        assert_bad_input(&out, &["SUMMARY.json", "summary", "full record"]);
    }
}

#[test]
fn resume_of_a_corrupt_run_file_reports_line_and_column() {
    let dir = tmp();
    let run = completed_run(dir.path());
    let text = std::fs::read_to_string(&run).expect("read RUN.json");
    // Cut the record off inside its `state`.
    let cut_at = text.find("\"state\"").expect("the record has a state") + 20;
    let corrupt = write(dir.path(), "CORRUPT.json", &text[..cut_at]);
    let out = sy(&["resume", &corrupt, "--graph", &fixture("linear.json")]);
    assert_bad_input(&out, &["CORRUPT.json"]);
    let line_no = text[..cut_at].lines().count();
    assert_line(&out, line_no);
}

#[test]
fn resume_of_a_file_that_is_not_a_run_record_is_bad_input() {
    let out = sy(&["resume", &fixture("linear.json"), "--graph", &fixture("linear.json")]);
    assert_bad_input(&out, &["linear.json"]);
}

#[test]
fn resume_with_a_graph_the_run_does_not_fit_is_bad_input() {
    let dir = tmp();
    let run = completed_run(dir.path());
    let out = sy(&["resume", &run, "--graph", &fixture("branches.json")]);
    assert_bad_input(&out, &["RUN.json", "belongs to the graph"]);
}

#[test]
fn resume_and_fork_never_modify_the_run_file() {
    let dir = tmp();
    let interrupted = interrupted_run(dir.path());
    let completed_dir = tmp();
    let completed = completed_run(completed_dir.path());
    let before_i = std::fs::read(&interrupted).expect("read");
    let before_c = std::fs::read(&completed).expect("read");
    let approval = fixture("approval.json");
    let linear = fixture("linear.json");
    let invocations: Vec<Vec<&str>> = vec![
        vec!["resume", &interrupted, "--graph", &approval, "--answer", r#"{"ask": "approve"}"#],
        vec!["resume", &interrupted, "--graph", &approval, "--answer", r#"{"ask": "maybe"}"#],
        vec!["resume", &interrupted, "--graph", &approval],
        vec!["resume", &interrupted, "--graph", &approval, "--from-step", "0", "--set", r#"{"request": "x"}"#],
        vec!["resume", &completed, "--graph", &linear],
        vec!["resume", &completed, "--graph", &linear, "--from-step", "1", "--set", r#"{"greeting": "yo"}"#],
        vec!["resume", &completed, "--graph", &linear, "--from-step", "0"],
        vec!["resume", &completed, "--graph", &linear, "--from-step", "9"],
    ];
    for args in invocations {
        let out = sy(&args);
        assert!([0, 2, 3].contains(&out.code), "unexpected exit code\n{}", out.describe());
        assert_eq!(std::fs::read(&interrupted).expect("read"), before_i, "RUN.json changed after `{}`", out.what);
        assert_eq!(std::fs::read(&completed).expect("read"), before_c, "RUN.json changed after `{}`", out.what);
    }
}

#[test]
fn resume_of_a_missing_run_file_is_bad_input() {
    let dir = tmp();
    let out = sy_in(dir.path(), &["resume", "NO-RUN.json", "--graph", &fixture("linear.json")]);
    assert_bad_input(&out, &["NO-RUN.json", "no such file"]);
}

// ---------------------------------------------------------------------------------------------
// `validate`
// ---------------------------------------------------------------------------------------------

/// Checks one line of `validate` output: `error|warning PATH: message`.
fn parse_diagnostic_line(line: &str) -> (String, String, String) {
    let (severity, rest) = line.split_once(' ').unwrap_or_else(|| panic!("not `severity PATH: message`: {line:?}"));
    assert!(severity == "error" || severity == "warning", "severity must be `error` or `warning`: {line:?}");
    let (path, message) = rest.split_once(": ").unwrap_or_else(|| panic!("not `severity PATH: message`: {line:?}"));
    assert!(!path.is_empty() && !path.contains(' '), "PATH must be one word: {line:?}");
    assert!(!message.trim().is_empty(), "empty message: {line:?}");
    (severity.into(), path.into(), message.into())
}

#[test]
fn validate_prints_one_diagnostic_a_line_and_exits_2_on_errors() {
    let out = sy(&["validate", &fixture("invalid.json")]);
    out.assert_code(2);
    let diags: Vec<_> = out.stdout.lines().map(parse_diagnostic_line).collect();
    assert!(diags.len() >= 3, "{}", out.describe());
    let errors: Vec<&str> = diags.iter().filter(|(s, _, _)| s == "error").map(|(_, p, _)| p.as_str()).collect();
    for path in ["nodes[2].id", "edges[1].to", "nodes[1].set.x"] {
        assert!(errors.contains(&path), "expected an error at {path}\n{}", out.describe());
    }
    let (_, _, message) = diags.iter().find(|(_, p, _)| p == "edges[1].to").expect("the edge error");
    assert!(message.contains("nowhere"), "{message}");
}

#[test]
fn validate_with_only_warnings_exits_0() {
    let out = sy(&["validate", &fixture("warnings.json")]);
    out.assert_code(0);
    let diags: Vec<_> = out.stdout.lines().map(parse_diagnostic_line).collect();
    assert!(!diags.is_empty(), "{}", out.describe());
    assert!(diags.iter().all(|(s, _, _)| s == "warning"), "{}", out.describe());
    assert!(
        diags.iter().any(|(_, p, m)| p == "nodes[1].set" && m.contains("scratch")),
        "the undeclared write is reported\n{}",
        out.describe()
    );
    assert!(
        diags.iter().any(|(_, p, m)| p == "nodes[2]" && m.contains("unreachable")),
        "the unreachable node is reported\n{}",
        out.describe()
    );
}

#[test]
fn a_graph_with_only_warnings_still_runs() {
    let out = sy(&["run", &fixture("warnings.json")]);
    out.assert_code(0);
    assert_eq!(out.json()["state"]["scratch"], "tmp");
}

#[test]
fn validate_json_prints_an_array_of_severity_path_message() {
    for (graph, code) in [("invalid.json", 2), ("warnings.json", 0)] {
        let text = sy(&["validate", &fixture(graph)]);
        let out = sy(&["validate", &fixture(graph), "--json"]);
        out.assert_code(code);
        let diags = out.json();
        let diags = diags.as_array().unwrap_or_else(|| panic!("--json must print an array\n{}", out.describe()));
        assert_eq!(diags.len(), text.stdout.lines().count(), "{}", out.describe());
        for (d, line) in diags.iter().zip(text.stdout.lines()) {
            let severity = d["severity"].as_str().expect("severity is a string");
            let path = d["path"].as_str().expect("path is a string");
            let message = d["message"].as_str().expect("message is a string");
            assert!(severity == "error" || severity == "warning", "{d}");
            // The same finding as the text form, in the same order.
            assert_eq!(format!("{severity} {path}: {message}"), line);
        }
    }
}

#[test]
fn validate_json_of_a_clean_graph_is_an_empty_array() {
    let out = sy(&["validate", &fixture("approval.json"), "--json"]);
    out.assert_code(0);
    assert_eq!(out.json(), json!([]));
}

#[test]
fn validate_of_unreadable_json_is_bad_input_on_stderr() {
    let dir = tmp();
    let path = write(dir.path(), "broken.json", "{\n  \"format\": \"switchyard/graph@1\",\n  nodes: []\n}");
    let out = sy(&["validate", &path, "--json"]);
    assert_bad_input(&out, &["broken.json"]);
    assert_line(&out, 3);
}

// ---------------------------------------------------------------------------------------------
// `mermaid`
// ---------------------------------------------------------------------------------------------

#[test]
fn mermaid_draws_a_flowchart_with_every_node_but_notes_and_the_edge_labels() {
    let out = sy(&["mermaid", &fixture("branches.json")]);
    out.assert_code(0);
    assert!(out.stdout.starts_with("flowchart"), "{}", out.describe());
    let graph: Value = serde_json::from_str(&std::fs::read_to_string(fixture("branches.json")).expect("read fixture"))
        .expect("fixture is JSON");
    for node in graph["nodes"].as_array().expect("nodes") {
        let id = node["id"].as_str().expect("id");
        if node["kind"] == "note" {
            assert!(!out.stdout.contains(id), "note `{id}` is drawn\n{}", out.describe());
            assert!(!out.stdout.contains("Two researchers"), "{}", out.describe());
        } else {
            assert!(out.stdout.contains(id), "node `{id}` is missing\n{}", out.describe());
            if let Some(label) = node["label"].as_str() {
                assert!(out.stdout.contains(label), "label `{label}` missing\n{}", out.describe());
            }
        }
    }
    for label in ["again_a", "again_b", "done"] {
        assert!(out.stdout.contains(label), "edge label `{label}` missing\n{}", out.describe());
    }
    let edges = graph["edges"].as_array().expect("edges").len();
    let arrows = out.stdout.lines().filter(|l| l.contains("-->") || l.contains("-.->")).count();
    assert_eq!(arrows, edges, "one arrow per edge\n{}", out.describe());
}

#[test]
fn mermaid_labels_human_option_edges() {
    let out = sy(&["mermaid", &fixture("approval.json")]);
    out.assert_code(0);
    assert!(out.stdout.starts_with("flowchart"));
    for text in ["ask", "approved", "rejected", "approve", "reject"] {
        assert!(out.stdout.contains(text), "`{text}` missing\n{}", out.describe());
    }
}

// ---------------------------------------------------------------------------------------------
// Determinism
// ---------------------------------------------------------------------------------------------

#[test]
fn the_same_graph_run_twice_gives_the_same_record_but_ids_and_durations() {
    for (graph, input) in [
        ("branches.json", "{}"),
        ("linear.json", r#"{"name": "Ada"}"#),
        ("throws.json", "{}"),
        ("loop.json", "{}"),
        ("approval.json", r#"{"request": "laptop"}"#),
    ] {
        let a = sy(&["run", &fixture(graph), "--input", input]);
        let b = sy(&["run", &fixture(graph), "--input", input]);
        assert_eq!(a.code, b.code, "{graph}");
        assert_eq!(
            comparable(a.json()),
            comparable(b.json()),
            "{graph}: records differ\n{}\n{}",
            a.describe(),
            b.describe()
        );
    }
}

#[test]
fn resuming_the_same_record_twice_gives_the_same_record_but_durations() {
    let dir = tmp();
    let run = interrupted_run(dir.path());
    let args = ["resume", run.as_str(), "--graph", &fixture("approval.json"), "--answer", r#"{"ask": "approve"}"#];
    let a = sy(&args);
    let b = sy(&args);
    a.assert_code(0);
    assert_eq!(comparable(a.json()), comparable(b.json()));
}

#[test]
fn a_parallel_join_and_loop_graph_runs_in_supersteps() {
    let out = sy(&["run", &fixture("branches.json")]);
    out.assert_code(0);
    let rec = out.json();
    let ran: Vec<Value> = rec["steps"].as_array().expect("steps").iter().map(|s| s["ran"].clone()).collect();
    assert_eq!(
        ran,
        vec![
            json!(["research_a", "research_b"]),
            json!(["merge"]),
            json!(["judge"]),
            json!(["research_a", "research_b"]),
            json!(["merge"]),
            json!(["judge"]),
            json!(["finish"]),
        ]
    );
    assert_eq!(rec["state"]["verdict"], "6 notes");
}

#[test]
fn minimal_start_to_end_graph_completes_with_no_steps() {
    let dir = tmp();
    let path = write(dir.path(), "min.json", VALID_MINIMAL);
    let out = sy(&["run", &path]);
    out.assert_code(0);
    let rec = out.json();
    assert_eq!(rec["status"], "completed");
    assert_eq!(rec["step"], 0);
    assert_eq!(rec["steps"], json!([]));
}

// ---------------------------------------------------------------------------------------------
// Untrusted documents and records (README, Untrusted graphs in the editor)
// ---------------------------------------------------------------------------------------------

#[test]
fn a_graph_written_as_a_list_is_bad_input() {
    let dir = tmp();
    for doc in ["[]", r#"["switchyard/graph@1", null, null, null, [], [], null, null]"#] {
        let graph = write(dir.path(), "list.json", doc);
        let line = assert_bad_input(&sy(&["run", &graph]), &["must be a JSON object"]);
        assert!(!line.contains("struct") && !line.contains("elements"), "{line}");
    }
}

#[test]
fn resume_refuses_a_tampered_record_naming_the_field() {
    let dir = tmp();
    let run = completed_run(dir.path());
    let mut rec: Value = serde_json::from_str(&std::fs::read_to_string(&run).expect("the record")).expect("JSON");
    // A negative duration would give the run its time back and switch its timeout off.
    rec["steps"][0]["duration_ms"] = json!(-1e15);
    let tampered = write(dir.path(), "tampered.json", rec.to_string());
    let out = sy(&["resume", &tampered, "--graph", &fixture("linear.json"), "--from-step", "1"]);
    assert_bad_input(&out, &["steps[0].duration_ms"]);
    rec["steps"][0]["duration_ms"] = json!(1);
    rec["steps"][0]["ran"] = json!(["end"]);
    let tampered = write(dir.path(), "tampered.json", rec.to_string());
    let out = sy(&["resume", &tampered, "--graph", &fixture("linear.json"), "--from-step", "1"]);
    assert_bad_input(&out, &["steps[0].ran[0]"]);
    let list = write(dir.path(), "list.json", "[]");
    let out = sy(&["resume", &list, "--graph", &fixture("linear.json")]);
    assert_bad_input(&out, &["must be a JSON object"]);
}
