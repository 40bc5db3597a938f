//! `switchyard test`, `test add` and `diff` through the real binary: runs of a template made
//! into cases and replayed, planted edits caught (a router's condition, a prompt), harmless
//! edits passed (a note, the layout), two versions side by side, JUnit, `--jobs`, a model
//! call recorded against a local OpenAI-compatible server and replayed with the server gone,
//! `--live`, and every kind of bad input answered with exit 2 and one line, never a panic.

mod binary;
mod support;
mod template_run;

use std::path::Path;
use std::process::Command;

use binary::{Out, sy};
use serde_json::{Value, json};
use support::{Reply, SCRUBBED_ENV, Server};
use template_run::{Stage, read_template, resume, run, template, tmp, write};

const APPROVAL: &str = "003-approval.json";

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// The approval template copied into `dir` as `approval.json` (its suite is
/// `approval.tests.json`, found beside it).
fn approval_in(dir: &Path) -> String {
    write(dir, "approval.json", serde_json::to_string_pretty(&read_template(APPROVAL)).expect("JSON"))
}

/// A finished run of the approval template: asked for `request`, answered `decision`; the
/// record saved in `dir` under `name`.
fn approval_run(dir: &Path, request: &str, decision: &str, name: &str) -> String {
    let first: Stage = run(dir, APPROVAL, &json!({"request": request, "requester": "Dana"}), 3);
    let done = resume(dir, APPROVAL, &first, &json!({"get_approval": {"decision": decision}}), 0);
    write(dir, name, serde_json::to_string_pretty(&done.record).expect("JSON"))
}

/// `test add RUN --suite SUITE --name NAME`, expecting exit 0.
fn add(dir: &Path, run: &str, name: &str) -> Out {
    let suite = dir.join("approval.tests.json");
    let out = sy(&["test", "add", run, "--suite", &suite.to_string_lossy(), "--name", name]);
    out.assert_code(0);
    out
}

/// A suite of the approval template with an approved and a rejected case.
fn approval_suite(dir: &Path) -> String {
    approval_in(dir);
    let approve = approval_run(dir, "a new laptop", "approve", "approve.json");
    let reject = approval_run(dir, "a boat", "reject", "reject.json");
    add(dir, &approve, "approve");
    add(dir, &reject, "reject");
    dir.join("approval.tests.json").to_string_lossy().into_owned()
}

/// The approval template with `edit` applied to its JSON, written as `name` in `dir`.
fn edited(dir: &Path, name: &str, edit: impl FnOnce(&mut Value)) -> String {
    let mut g = read_template(APPROVAL);
    edit(&mut g);
    write(dir, name, serde_json::to_string_pretty(&g).expect("JSON"))
}

/// The router no longer takes `approve` (only `approved`): an approved request now halts.
fn planted_router_change(g: &mut Value) {
    let nodes = g["nodes"].as_array_mut().expect("nodes");
    let router = nodes.iter_mut().find(|n| n["id"] == "check_approval").expect("the router");
    let route = router["route"].as_str().expect("a route").replace("d == \"approve\" ||", "d == \"approve!\" ||");
    router["route"] = json!(route);
}

fn read_json(path: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("readable")).expect("JSON")
}

fn save_json(path: &str, value: &Value) {
    std::fs::write(path, serde_json::to_string_pretty(value).expect("JSON")).expect("writable");
}

fn no_panic(out: &Out) {
    assert!(!out.stderr.contains("panicked"), "{}", out.describe());
    assert!(!out.stderr.contains("internal error"), "{}", out.describe());
}

/// The line of stdout about case `name`.
fn case_line<'a>(out: &'a Out, name: &str) -> &'a str {
    out.stdout
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some(name))
        .unwrap_or_else(|| panic!("no line for case {name}\n{}", out.describe()))
}

// ---------------------------------------------------------------------------------------------
// run → test add → test
// ---------------------------------------------------------------------------------------------

#[test]
fn a_run_made_into_a_case_passes_on_the_unchanged_template() {
    let dir = tmp();
    let suite = approval_suite(dir.path());
    let s = read_json(&suite);
    assert_eq!(s["format"], "switchyard/tests@1");
    assert_eq!(s["graph"]["path"], "approval.json", "the graph found beside the suite, relative: {s:#}");
    assert_eq!(s["graph"]["name"], "Approval workflow");
    assert!(s["graph"]["hash"].is_string(), "{s:#}");
    let case = &s["cases"][0];
    assert_eq!(case["name"], "approve");
    assert_eq!(case["input"]["request"], "a new laptop");
    assert_eq!(case["answers"][0]["node"], "get_approval", "{case:#}");
    assert_eq!(case["replies"][0]["node"], "approved_action", "the mock model's turn is on the tape: {case:#}");
    assert_eq!(case["replies"][0]["kind"], "model");
    assert!(case["baseline"].is_object(), "{case:#}");

    let out = sy(&["test", &suite]);
    out.assert_code(0);
    assert!(case_line(&out, "approve").starts_with("ok "), "{}", out.describe());
    assert!(case_line(&out, "reject").starts_with("ok "), "{}", out.describe());
    assert!(out.stdout.contains("2 passed, 0 failed"), "{}", out.describe());
    assert!(out.stderr.is_empty(), "no progress bar when stderr is not a terminal\n{}", out.describe());
}

#[test]
fn adding_a_case_again_is_nothing_to_do_and_a_taken_name_is_refused() {
    let dir = tmp();
    let suite = approval_suite(dir.path());
    let approve = dir.path().join("approve.json").to_string_lossy().into_owned();
    let again = sy(&["test", "add", &approve, "--suite", &suite, "--name", "approve"]);
    again.assert_code(0);
    assert!(again.stdout.contains("already"), "{}", again.describe());
    let reject = dir.path().join("reject.json").to_string_lossy().into_owned();
    let taken = sy(&["test", "add", &reject, "--suite", &suite, "--name", "approve"]);
    taken.assert_bad_input(&["approval.tests.json", "already a case named \"approve\""]);
    assert_eq!(read_json(&suite)["cases"].as_array().map(Vec::len), Some(2), "the suite is unchanged");
    // Without --name, the case is named after the record's file.
    let declined = dir.path().join("declined.json");
    std::fs::copy(&reject, &declined).expect("a copy");
    let named = sy(&["test", "add", &declined.to_string_lossy(), "--suite", &suite]);
    named.assert_code(0);
    assert_eq!(read_json(&suite)["cases"][2]["name"], "declined");
}

#[test]
fn a_planted_router_change_fails_naming_the_first_differing_step() {
    let dir = tmp();
    let suite = approval_suite(dir.path());
    let changed = edited(dir.path(), "changed.json", planted_router_change);
    let out = sy(&["test", &suite, "--graph", &changed]);
    out.assert_code(1);
    no_panic(&out);
    assert!(out.stdout.contains("has changed since"), "the changed hash is noted\n{}", out.describe());
    assert!(case_line(&out, "approve").starts_with("FAIL"), "{}", out.describe());
    assert!(case_line(&out, "reject").starts_with("ok "), "{}", out.describe());
    let failures: Vec<&str> = out.stdout.lines().filter(|l| l.starts_with("     ")).collect();
    assert!(failures.iter().any(|l| l.contains("step 2")), "the first differing step is named\n{}", out.describe());
    assert!(out.stdout.contains("1 passed, 1 failed"), "{}", out.describe());
}

#[test]
fn a_note_or_a_layout_change_fails_nothing() {
    let dir = tmp();
    let suite = approval_suite(dir.path());
    let moved = edited(dir.path(), "moved.json", |g| {
        g["layout"]["get_approval"] = json!({"x": 999, "y": 999});
        g["nodes"]
            .as_array_mut()
            .expect("nodes")
            .push(json!({"id": "memo", "kind": "note", "text": "Ask Finance first."}));
    });
    let out = sy(&["test", &suite, "--graph", &moved]);
    out.assert_code(0);
    assert!(out.stdout.contains("2 passed, 0 failed"), "{}", out.describe());
}

// ---------------------------------------------------------------------------------------------
// Two graphs
// ---------------------------------------------------------------------------------------------

#[test]
fn two_graphs_side_by_side_with_the_mean_difference() {
    let dir = tmp();
    let suite = approval_suite(dir.path());
    let mut s = read_json(&suite);
    s["evaluators"] = json!([{ "name": "acted", "expression": "if output.action_result != \"\" { 1.0 } else { 0.0 }", "threshold": 0 }]);
    save_json(&suite, &s);
    let original = dir.path().join("approval.json").to_string_lossy().into_owned();
    let changed = edited(dir.path(), "changed.json", planted_router_change);

    let out = sy(&["test", &suite, "--graph", &original, "--graph", &changed]);
    out.assert_code(1);
    no_panic(&out);
    let header = out.stdout.lines().find(|l| l.starts_with("case")).unwrap_or_else(|| panic!("{}", out.describe()));
    for column in ["A", "B", "steps A", "steps B", "acted A", "acted B"] {
        assert!(header.contains(column), "column {column}\n{}", out.describe());
    }
    let approve = out.stdout.lines().find(|l| l.starts_with("approve")).expect("a row for approve");
    let cells: Vec<&str> = approve.split_whitespace().collect();
    assert_eq!(&cells[1..3], ["ok", "FAIL"], "{}", out.describe());
    assert!(out.stdout.contains("    B: "), "B's failure under its row\n{}", out.describe());
    assert!(out.stdout.contains("acted: mean A 0.50, B 0.00, difference (B − A) -0.50"), "{}", out.describe());

    // Both the same: exit 0.
    let same = sy(&["test", &suite, "--graph", &original, "--graph", &original]);
    same.assert_code(0);
    let json = sy(&["test", &suite, "--graph", &original, "--graph", &changed, "--json"]);
    json.assert_code(1);
    let v = json.json();
    assert_eq!(v["a"]["summary"]["passed"], 2, "{v:#}");
    assert_eq!(v["b"]["summary"]["failed"], 1, "{v:#}");
    assert_eq!(v["differences"][0]["evaluator"], "acted");
}

// ---------------------------------------------------------------------------------------------
// JUnit, --jobs, --json
// ---------------------------------------------------------------------------------------------

/// The elements of an XML document, by name, with their attributes, in document order.
fn xml_elements(xml: &str) -> Vec<(String, Vec<(String, String)>)> {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut found = Vec::new();
    loop {
        match reader.read_event() {
            Ok(Event::Start(e) | Event::Empty(e)) => {
                let name = String::from_utf8_lossy(e.name().as_ref()).into_owned();
                let attrs = e
                    .attributes()
                    .map(|a| {
                        let a = a.expect("a well-formed attribute");
                        let value = a
                            .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                            .expect("an attribute value")
                            .into_owned();
                        (String::from_utf8_lossy(a.key.as_ref()).into_owned(), value)
                    })
                    .collect();
                found.push((name, attrs));
            }
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(e) => panic!("the JUnit file is not well-formed XML: {e}\n{xml}"),
        }
    }
    found
}

fn attr<'a>(attrs: &'a [(String, String)], name: &str) -> Option<&'a str> {
    attrs.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

#[test]
fn junit_has_a_testcase_a_case_and_the_failures() {
    let dir = tmp();
    let suite = approval_suite(dir.path());
    let mut s = read_json(&suite);
    s["evaluators"] = json!([{ "name": "short", "expression": "if steps < 20 { 1 } else { 0 }" }]);
    save_json(&suite, &s);
    let changed = edited(dir.path(), "changed.json", planted_router_change);
    let report = dir.path().join("junit.xml");
    let out = sy(&["test", &suite, "--graph", &changed, "--junit", &report.to_string_lossy()]);
    out.assert_code(1);
    let xml = std::fs::read_to_string(&report).expect("the JUnit file is written");
    let elements = xml_elements(&xml);
    let cases: Vec<_> = elements.iter().filter(|(n, _)| n == "testcase").collect();
    assert_eq!(cases.len(), 2, "{xml}");
    assert_eq!(attr(&cases[0].1, "name"), Some("approve"), "{xml}");
    let failures: Vec<_> = elements.iter().filter(|(n, _)| n == "failure").collect();
    assert_eq!(failures.len(), 1, "{xml}");
    assert!(attr(&failures[0].1, "message").is_some_and(|m| m.contains("step")), "{xml}");
    let properties: Vec<_> = elements.iter().filter(|(n, _)| n == "property").collect();
    assert!(
        properties.iter().any(|(_, a)| attr(a, "name") == Some("score.short") && attr(a, "value") == Some("1.00")),
        "{xml}"
    );
    let suites: Vec<_> = elements.iter().filter(|(n, _)| n == "testsuite").collect();
    assert_eq!(attr(&suites[0].1, "tests"), Some("2"), "{xml}");
    assert_eq!(attr(&suites[0].1, "failures"), Some("1"), "{xml}");
}

/// What does not depend on timing or run ids: name, verdict, failures, scores, state, steps.
fn stable(results: &Value) -> Vec<Value> {
    results
        .as_array()
        .expect("results")
        .iter()
        .map(|r| json!([r["name"], r["passed"], r["failures"], r["scores"], r["record"]["state"], r["record"]["step"]]))
        .collect()
}

#[test]
fn two_jobs_give_what_one_gives() {
    let dir = tmp();
    let suite = approval_suite(dir.path());
    // More cases than threads: the dataset's rows too.
    let rows: String = (0..6)
        .map(|i| format!("{}\n", json!({"name": format!("row {i}"), "input": {"request": format!("item {i}")}})))
        .collect();
    write(dir.path(), "rows.jsonl", rows);
    let rows = dir.path().join("rows.jsonl").to_string_lossy().into_owned();
    let changed = edited(dir.path(), "changed.json", planted_router_change);
    let one = sy(&["test", &suite, "--graph", &changed, "--dataset", &rows, "--json", "--jobs", "1"]);
    let two = sy(&["test", &suite, "--graph", &changed, "--dataset", &rows, "--json", "--jobs", "2"]);
    one.assert_code(1);
    two.assert_code(1);
    let (one, two) = (one.json(), two.json());
    assert_eq!(one["results"].as_array().map(Vec::len), Some(8));
    assert_eq!(stable(&one["results"]), stable(&two["results"]));
    assert_eq!(one["summary"], two["summary"]);
}

// ---------------------------------------------------------------------------------------------
// A model call: recorded, replayed with the server gone, a changed prompt named, --live
// ---------------------------------------------------------------------------------------------

const KEY: &str = "sk-test-4b1d-replay";

fn sy_env(args: &[&str], env: &[(&str, &str)]) -> Out {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_switchyard"));
    cmd.args(args).env("RUST_BACKTRACE", "1");
    for var in SCRUBBED_ENV {
        cmd.env_remove(var);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("the switchyard binary runs");
    Out {
        code: out.status.code().expect("an exit code"),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        what: format!("switchyard {}", args.join(" ")),
    }
}

fn completion(content: &str) -> Value {
    json!({
        "id": "chatcmpl-1", "object": "chat.completion", "model": "gpt-test",
        "choices": [ { "index": 0, "message": { "role": "assistant", "content": content }, "finish_reason": "stop" } ],
        "usage": { "prompt_tokens": 9, "completion_tokens": 2, "total_tokens": 11 }
    })
}

fn translate_graph(base_url: &str, prompt: &str) -> Value {
    json!({
        "format": "switchyard/graph@1",
        "name": "Translate",
        "state": { "text": { "type": "string" }, "answer": { "type": "string" } },
        "nodes": [
            { "id": "start", "kind": "start" },
            { "id": "ask", "kind": "llm", "prompt": prompt, "writes": "answer",
              "model": { "provider": "openai", "base_url": base_url, "model": "gpt-test" } },
            { "id": "end", "kind": "end" }
        ],
        "edges": [ { "from": "start", "to": "ask" }, { "from": "ask", "to": "end" } ]
    })
}

#[test]
fn a_model_call_is_replayed_with_the_server_gone_and_a_changed_prompt_is_named() {
    let server = Server::always(Reply::json(200, &completion("Bonjour")));
    let base = format!("{}/v1", server.url());
    let trusted = server.url();
    let env = [("SWITCHYARD_OPENAI_API_KEY", KEY), ("SWITCHYARD_TRUSTED_ORIGINS", trusted.as_str())];
    let dir = tmp();
    let graph = write(
        dir.path(),
        "translate.json",
        translate_graph(&base, "Translate to French: {{ state.text }}").to_string(),
    );
    let recorded = sy_env(&["run", &graph, "--input", r#"{"text": "hello"}"#], &env);
    recorded.assert_code(0);
    let run = write(dir.path(), "hello.json", &recorded.stdout);
    let suite = dir.path().join("translate.tests.json").to_string_lossy().into_owned();
    sy_env(&["test", "add", &run, "--suite", &suite], &[]).assert_code(0);
    let text = std::fs::read_to_string(&suite).expect("the suite");
    assert!(!text.contains(KEY), "the key never reaches the suite");
    assert_eq!(server.requests().len(), 1);

    // --live calls the server again.
    let live = sy_env(&["test", &suite, "--live"], &env);
    live.assert_code(0);
    assert_eq!(server.requests().len(), 2, "--live called the provider\n{}", live.describe());

    // Replayed with the server gone (and no key).
    drop(server);
    let replayed = sy_env(&["test", &suite], &[]);
    replayed.assert_code(0);
    assert!(replayed.stdout.contains("1 passed, 0 failed"), "{}", replayed.describe());

    // A word of the prompt changed: the request differs from the recorded one.
    write(dir.path(), "translate.json", translate_graph(&base, "Translate to German: {{ state.text }}").to_string());
    let changed = sy_env(&["test", &suite], &[]);
    changed.assert_code(1);
    no_panic(&changed);
    let failure =
        changed.stdout.lines().find(|l| l.starts_with("     ")).unwrap_or_else(|| panic!("{}", changed.describe()));
    assert!(failure.contains("`ask`"), "the node is named\n{}", changed.describe());
    assert!(failure.contains("German"), "what changed is shown\n{}", changed.describe());
}

// ---------------------------------------------------------------------------------------------
// diff
// ---------------------------------------------------------------------------------------------

#[test]
fn diff_names_the_first_differing_step_then_each_step_with_its_state_difference() {
    let dir = tmp();
    let approve = approval_run(dir.path(), "a new laptop", "approve", "approve.json");
    let reject = approval_run(dir.path(), "a boat", "reject", "reject.json");
    let graph = template(APPROVAL);

    let out = sy(&["diff", &approve, &reject, "--graph", &graph]);
    out.assert_code(1);
    no_panic(&out);
    let first = out.stdout.lines().next().unwrap_or_default();
    assert!(first.starts_with("first difference: step 1"), "the inputs differ from the start\n{}", out.describe());
    assert!(out.stdout.contains("ran: [approved_action] vs [rejected_action]"), "{}", out.describe());
    assert!(
        out.stdout.contains("edges taken: [check_approval → approved_action] vs [check_approval → rejected_action]"),
        "{}",
        out.describe()
    );
    assert!(out.stdout.contains(r#"{"op":"replace","path":"/request","value":"a boat"}"#), "{}", out.describe());

    // Without the graph, edges go by index.
    let by_index = sy(&["diff", &approve, &reject]);
    by_index.assert_code(1);
    assert!(by_index.stdout.contains("edges taken: [#2] vs [#3]"), "{}", by_index.describe());

    let same = sy(&["diff", &approve, &approve]);
    same.assert_code(0);
    assert!(same.stdout.contains("the runs are the same"), "{}", same.describe());

    let json = sy(&["diff", &approve, &reject, "--json"]);
    json.assert_code(1);
    assert_eq!(json.json()["first"], 1, "{}", json.describe());
}

// ---------------------------------------------------------------------------------------------
// Bad input
// ---------------------------------------------------------------------------------------------

#[test]
fn an_unreadable_or_malformed_suite_is_bad_input_with_where() {
    let dir = tmp();
    let missing = dir.path().join("nowhere.tests.json").to_string_lossy().into_owned();
    sy(&["test", &missing]).assert_bad_input(&["nowhere.tests.json", "no such file"]);
    sy(&["test"]).assert_bad_input(&["<FILE>"]);
    sy(&["test", "add", &missing]).assert_bad_input(&["--suite"]);
    sy(&["test", &missing, "--jobs", "0"]).assert_bad_input(&["--jobs"]);

    let broken = write(
        dir.path(),
        "broken.tests.json",
        "{\n  \"format\": \"switchyard/tests@1\",\n  \"graph\": {\"name\": \"x\"},\n  \"casez\": []\n}\n",
    );
    sy(&["test", &broken]).assert_bad_input(&["broken.tests.json", "line 4", "column", "casez"]);

    let not_json = write(dir.path(), "cut.tests.json", "{\"format\": \"switchyard/tests@1\", \"cases\": [");
    sy(&["test", &not_json]).assert_bad_input(&["cut.tests.json", "line 1"]);

    let run = write(dir.path(), "run.json", "{\"format\": \"switchyard/run@1\"");
    sy(&["test", "add", &run, "--suite", &missing]).assert_bad_input(&["run.json"]);
    sy(&["diff", &run, &missing]).assert_bad_input(&["run.json"]);
}

#[test]
fn a_suite_for_another_graph_is_bad_input() {
    let dir = tmp();
    let suite = approval_suite(dir.path());
    let other = template("002-agent-graph.json");
    let out = sy(&["test", &suite, "--graph", &other]);
    out.assert_bad_input(&["approval.tests.json", "another graph", "Approval workflow"]);
}

#[test]
fn a_case_whose_reply_names_a_node_that_is_gone_fails_and_the_others_run() {
    let dir = tmp();
    let suite = approval_suite(dir.path());
    let mut s = read_json(&suite);
    s["cases"][0]["replies"][0]["node"] = json!("vanished");
    save_json(&suite, &s);
    let out = sy(&["test", &suite]);
    out.assert_code(1);
    no_panic(&out);
    assert!(case_line(&out, "approve").starts_with("FAIL"), "{}", out.describe());
    assert!(case_line(&out, "reject").starts_with("ok "), "{}", out.describe());
    assert!(out.stdout.contains("vanished"), "the node is named\n{}", out.describe());
}

#[test]
fn a_bad_dataset_line_is_bad_input_naming_the_line() {
    let dir = tmp();
    let suite = approval_suite(dir.path());
    let rows = write(dir.path(), "rows.jsonl", "{\"input\": {\"request\": \"pens\"}}\n{\"input\": 5}\n");
    sy(&["test", &suite, "--dataset", &rows]).assert_bad_input(&["rows.jsonl", "line 2"]);
    let missing = dir.path().join("none.jsonl").to_string_lossy().into_owned();
    sy(&["test", &suite, "--dataset", &missing]).assert_bad_input(&["none.jsonl"]);
}

#[test]
fn a_run_of_another_graph_or_a_summary_is_not_added() {
    let dir = tmp();
    let suite = approval_suite(dir.path());
    let other = sy(&["run", &template("002-agent-graph.json"), "--input", r#"{"task": "plan a trip"}"#]);
    let other_run = write(dir.path(), "other.json", &other.stdout);
    sy(&["test", "add", &other_run, "--suite", &suite]).assert_bad_input(&["approval.tests.json", "Approval workflow"]);
    let summary = sy(&["run", &template("002-agent-graph.json"), "--input", r#"{"task": "plan a trip"}"#, "--summary"]);
    let summary_run = write(dir.path(), "summary.json", &summary.stdout);
    let fresh = dir.path().join("fresh.tests.json").to_string_lossy().into_owned();
    sy(&["test", "add", &summary_run, "--suite", &fresh]).assert_bad_input(&["summary"]);
}

#[test]
fn schema_tests_prints_the_suite_schema() {
    let out = sy(&["schema", "tests"]);
    out.assert_code(0);
    let schema = out.json();
    assert_eq!(schema["$id"], "urn:switchyard:tests@1", "{schema:#}");
    let kept = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../schema/tests.schema.json"))
        .expect("the repository keeps schema/tests.schema.json");
    assert_eq!(out.stdout, kept, "the printed schema is the one the repository keeps");
}
