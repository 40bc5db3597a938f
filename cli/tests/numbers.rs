//! Numbers at the edges, from the command line: an integer past 64 bits given with
//! `--input` is bad input naming the field; an `add` that overflows an integer field, or a sum
//! a float cannot hold, fails the run with a `type` error naming node and field, the state as
//! the last good step left it (never a float, never `null`); and the validator refuses human
//! options that lead nowhere or that their field cannot hold.

mod binary;

use std::path::Path;

use binary::sy;
use serde_json::{Value, json};

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary directory")
}

fn save(dir: &Path, name: &str, doc: &Value) -> String {
    let path = dir.join(name);
    std::fs::write(&path, doc.to_string()).expect("write a temporary file");
    path.to_string_lossy().into_owned()
}

/// start → each node of `sets` in turn → end, over `state`.
fn chain(state: Value, sets: &[(&str, Value)]) -> Value {
    let mut nodes = vec![json!({"id": "start", "kind": "start"})];
    let mut edges = Vec::new();
    let mut from = "start";
    for (id, set) in sets {
        nodes.push(json!({"id": id, "kind": "set", "set": set}));
        edges.push(json!({"from": from, "to": id}));
        from = id;
    }
    nodes.push(json!({"id": "end", "kind": "end"}));
    edges.push(json!({"from": from, "to": "end"}));
    json!({"format": "switchyard/graph@1", "state": state, "nodes": nodes, "edges": edges})
}

#[test]
fn input_past_64_bits_for_an_integer_field_is_bad_input() {
    let dir = tmp();
    let graph = save(dir.path(), "g.json", &chain(json!({"count": {"type": "integer"}}), &[]));
    sy(&["run", &graph, "--input", r#"{"count": 9223372036854775808}"#]).assert_bad_input(&[
        "input.count",
        "9223372036854775808 is above the largest integer",
        "9223372036854775807",
    ]);
    sy(&["run", &graph, "--input", r#"{"count": -9223372036854775809}"#]).assert_bad_input(&[
        "input.count",
        "below the smallest integer",
        "-9223372036854775808",
    ]);
    // The largest integer itself is fine, and stays an integer.
    let record = sy(&["run", &graph, "--input", r#"{"count": 9223372036854775807}"#]).record(0);
    assert_eq!(record["state"]["count"], json!(i64::MAX));
}

#[test]
fn add_overflowing_an_integer_field_fails_the_run_naming_node_and_field() {
    let dir = tmp();
    let state = json!({"count": {"type": "integer", "reducer": "add"}});
    let sets = [("big", json!({"count": "9223372036854775000"})), ("more", json!({"count": "1000"}))];
    let graph = save(dir.path(), "g.json", &chain(state, &sets));
    let record = sy(&["run", &graph]).record(1);
    assert_eq!(record["status"], "failed");
    assert_eq!(record["error"]["kind"], "type");
    assert_eq!(record["error"]["node"], "more");
    let message = record["error"]["message"].as_str().expect("a message");
    assert!(message.contains("node `more` wrote `count`: `add` overflows"), "{message}");
    // The state is the last good step's, an integer, not 9.223372036854776e18.
    assert_eq!(record["state"]["count"], json!(9_223_372_036_854_775_000_i64));
}

#[test]
fn a_sum_past_what_a_float_holds_is_a_type_error_not_null() {
    let dir = tmp();
    let state = json!({"total": {"type": "number", "reducer": "add"}});
    let sets = [("first", json!({"total": "1.5e308"})), ("second", json!({"total": "1.5e308"}))];
    let graph = save(dir.path(), "g.json", &chain(state, &sets));
    let record = sy(&["run", &graph]).record(1);
    assert_eq!((record["status"].clone(), record["error"]["kind"].clone()), (json!("failed"), json!("type")));
    assert_eq!(record["error"]["node"], "second");
    assert!(record["error"]["message"].as_str().is_some_and(|m| m.contains("not a finite number")), "{record}");
    assert_eq!(record["state"]["total"], json!(1.5e308));
}

#[test]
fn validate_refuses_an_option_without_an_edge_and_options_into_a_number() {
    let dir = tmp();
    let graph = json!({
        "format": "switchyard/graph@1",
        "state": {"score": {"type": "number"}},
        "nodes": [
            {"id": "start", "kind": "start"},
            {"id": "ask", "kind": "human", "writes": "score", "options": ["low", "high"]},
            {"id": "end", "kind": "end"}
        ],
        "edges": [{"from": "start", "to": "ask"}, {"from": "ask", "to": "end", "label": "low"}]
    });
    let out = sy(&["validate", &save(dir.path(), "g.json", &graph)]);
    out.assert_code(2);
    let lines: Vec<&str> = out.stdout.lines().collect();
    for want in [
        "error nodes[1].options[1]: no edge out of `ask` is labelled `high` and it has no `default` edge",
        "error nodes[1].writes: the answer is one of `options`, a string, but the state field `score` is of type number",
    ] {
        assert!(lines.iter().any(|l| l.starts_with(want)), "missing {want:?}\n{}", out.describe());
    }
}
