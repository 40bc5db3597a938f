//! Definitions (format.md §9) through the real `switchyard` binary: a graph that runs one
//! definition from two nodes, `validate` on a cycle of uses, and `mermaid` naming what a node
//! uses.

mod binary;

use binary::sy;
use std::path::Path;

use serde_json::{Value, json};

fn write(dir: &Path, name: &str, doc: &Value) -> String {
    let path = dir.join(name);
    std::fs::write(&path, doc.to_string()).expect("the file is written");
    path.to_string_lossy().into_owned()
}

/// A definition that counts the words of `text` and prefixes them with `prefix`.
fn counter() -> Value {
    json!({
        "format": "switchyard/graph@1",
        "state": { "text": { "type": "string" }, "prefix": { "type": "string" }, "summary": { "type": "string" } },
        "nodes": [
            { "id": "start", "kind": "start", "required": ["text", "prefix"] },
            { "id": "count", "kind": "set",
              "set": { "summary": "state.prefix + \": \" + state.text.split(\" \").len() + \" words\"" } },
            { "id": "end", "kind": "end" }
        ],
        "edges": [ { "from": "start", "to": "count" }, { "from": "count", "to": "end" } ]
    })
}

/// A graph running `counter` twice in a row, on the title then on the body.
fn twice() -> Value {
    json!({
        "format": "switchyard/graph@1",
        "name": "count twice",
        "state": {
            "title": { "type": "string" }, "body": { "type": "string" },
            "report": { "type": "list", "reducer": "append" }
        },
        "definitions": { "counter": counter() },
        "nodes": [
            { "id": "start", "kind": "start", "required": ["title", "body"] },
            { "id": "title_words", "kind": "subgraph", "use": "counter",
              "inputs": { "text": "state.title", "prefix": "\"title\"" }, "outputs": { "report": "result.summary" } },
            { "id": "body_words", "kind": "subgraph", "use": "counter",
              "inputs": { "text": "state.body", "prefix": "\"body\"" }, "outputs": { "report": "result.summary" } },
            { "id": "end", "kind": "end" }
        ],
        "edges": [
            { "from": "start", "to": "title_words" }, { "from": "title_words", "to": "body_words" },
            { "from": "body_words", "to": "end" }
        ]
    })
}

#[test]
fn a_definition_used_by_two_nodes_runs_once_for_each_with_its_own_input() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let graph = write(dir.path(), "twice.json", &twice());
    let out = sy(&["run", &graph, "--input", r#"{"title": "Short title", "body": "a body of five words"}"#]);
    out.assert_code(0);
    let record = out.json();
    assert_eq!(record["status"], "completed", "{}", out.describe());
    assert_eq!(record["state"]["report"], json!(["title: 2 words", "body: 5 words"]), "{}", out.describe());
    // Each node's own run of the definition is kept in its step's details.
    let steps = record["steps"].as_array().expect("the record holds its steps");
    let child = |k: usize, node: &str| steps[k]["details"][node]["subgraph"]["state"]["text"].clone();
    assert_eq!(child(0, "title_words"), "Short title");
    assert_eq!(child(1, "body_words"), "a body of five words");
}

#[test]
fn a_missing_required_input_of_the_definition_fails_the_node_that_uses_it() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut doc = twice();
    doc["nodes"][2]["inputs"] = json!({ "text": "state.body" });
    let graph = write(dir.path(), "twice.json", &doc);
    let out = sy(&["run", &graph, "--input", r#"{"title": "t", "body": "b"}"#]);
    out.assert_code(1);
    let record = out.json();
    assert_eq!(record["status"], "failed", "{}", out.describe());
    assert_eq!(record["error"]["node"], "body_words", "{}", out.describe());
    let message = record["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("input.prefix"), "{message}");
}

#[test]
fn validate_exits_2_on_a_cycle_of_definitions_and_names_it() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let uses = |name: &str| {
        json!({
            "format": "switchyard/graph@1",
            "nodes": [
                { "id": "start", "kind": "start" },
                { "id": "call", "kind": "subgraph", "use": name },
                { "id": "end", "kind": "end" }
            ],
            "edges": [ { "from": "start", "to": "call" }, { "from": "call", "to": "end" } ]
        })
    };
    let mut doc = twice();
    doc["definitions"] = json!({ "counter": counter(), "ping": uses("pong"), "pong": uses("ping") });
    let graph = write(dir.path(), "cycle.json", &doc);
    let out = sy(&["validate", &graph]);
    out.assert_code(2);
    assert!(
        out.stdout.lines().any(|l| l == "error definitions.ping: definitions form a cycle: ping → pong → ping"),
        "{}",
        out.describe()
    );
    // It does not run either.
    let run = sy(&["run", &graph, "--input", r#"{"title": "t", "body": "b"}"#]);
    run.assert_code(2);
    assert!(run.stderr.contains("definitions form a cycle"), "{}", run.describe());
}

#[test]
fn mermaid_names_the_definition_a_node_uses() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let graph = write(dir.path(), "twice.json", &twice());
    let out = sy(&["mermaid", &graph]);
    out.assert_code(0);
    assert!(out.stdout.contains(r#"n_title_words[["title_words (uses counter)"]]"#), "{}", out.describe());
    assert!(out.stdout.contains(r#"n_body_words[["body_words (uses counter)"]]"#), "{}", out.describe());
}

#[test]
fn a_person_answers_a_definition_used_twice_once_for_each_use() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let approve = json!({
        "format": "switchyard/graph@1",
        "state": { "item": { "type": "string" }, "answer": { "type": "string" } },
        "nodes": [
            { "id": "start", "kind": "start", "required": ["item"] },
            { "id": "ask", "kind": "human", "prompt": "Buy {{ state.item }}?", "writes": "answer",
              "options": ["yes", "no"] },
            { "id": "end", "kind": "end" }
        ],
        "edges": [
            { "from": "start", "to": "ask" },
            { "from": "ask", "to": "end", "label": "yes" }, { "from": "ask", "to": "end", "label": "no" }
        ]
    });
    let doc = json!({
        "format": "switchyard/graph@1",
        "state": { "first": { "type": "string" }, "second": { "type": "string" } },
        "definitions": { "approve": approve },
        "nodes": [
            { "id": "start", "kind": "start" },
            { "id": "one", "kind": "subgraph", "use": "approve",
              "inputs": { "item": "\"a laptop\"" }, "outputs": { "first": "result.answer" } },
            { "id": "two", "kind": "subgraph", "use": "approve",
              "inputs": { "item": "\"a desk\"" }, "outputs": { "second": "result.answer" } },
            { "id": "end", "kind": "end" }
        ],
        "edges": [ { "from": "start", "to": "one" }, { "from": "one", "to": "two" }, { "from": "two", "to": "end" } ]
    });
    let graph = write(dir.path(), "buy.json", &doc);
    let run = sy(&["run", &graph]);
    run.assert_code(3);
    assert_eq!(run.json()["waiting"][0]["prompt"], "Buy a laptop?", "{}", run.describe());
    let saved = dir.path().join("run1.json");
    std::fs::write(&saved, &run.stdout).expect("the record is saved");
    let saved = saved.to_string_lossy().into_owned();

    let next = sy(&["resume", &saved, "--graph", &graph, "--answer", r#"{"one": "yes"}"#]);
    next.assert_code(3);
    assert_eq!(next.json()["waiting"][0]["node"], "two", "{}", next.describe());
    assert_eq!(next.json()["waiting"][0]["prompt"], "Buy a desk?", "{}", next.describe());
    let saved2 = dir.path().join("run2.json");
    std::fs::write(&saved2, &next.stdout).expect("the record is saved");

    let last = sy(&["resume", &saved2.to_string_lossy(), "--graph", &graph, "--answer", r#"{"two": "no"}"#]);
    last.assert_code(0);
    let record = last.json();
    assert_eq!(record["status"], "completed", "{}", last.describe());
    assert_eq!(record["state"], json!({ "first": "yes", "second": "no" }), "{}", last.describe());
}
