//! Records in linear size (format.md §11): every step carries its patch, and its full state only on
//! the first step, the last, and where the patches since the previous snapshot add up to the
//! state's size; `--full-states` writes every step's state; records of either form resume.

mod binary;

use std::path::Path;

use binary::sy;
use engine::record::StepDoc;
use serde_json::{Map, Value, json};

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary directory")
}

fn write(dir: &Path, name: &str, doc: &Value) -> String {
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_string(doc).expect("serializes")).expect("write a file");
    path.to_string_lossy().into_owned()
}

/// A loop that appends one number per step until `n` reaches `until`.
fn append_loop(until: u64) -> Value {
    json!({
        "format": "switchyard/graph@1",
        "name": "appender",
        "state": { "n": { "type": "integer" }, "items": { "type": "list", "reducer": "append" } },
        "nodes": [
            { "id": "start", "kind": "start" },
            { "id": "tick", "kind": "set", "set": { "n": "state.n + 1", "items": "state.n" } },
            { "id": "end", "kind": "end" }
        ],
        "edges": [
            { "from": "start", "to": "tick" },
            { "from": "tick", "to": "tick", "when": format!("state.n < {until}") },
            { "from": "tick", "to": "end", "when": format!("state.n >= {until}") }
        ],
        "limits": { "max_steps": until + 1 }
    })
}

fn steps(rec: &Value) -> &Vec<Value> {
    rec["steps"].as_array().expect("the record has its steps")
}

/// The record without what differs between two runs (ids, trace ids, durations, wall-clock
/// times) nor the steps' states.
fn without_states(rec: &Value) -> Value {
    let mut rec = rec.clone();
    for key in ["run_id", "trace_id", "traces"] {
        rec[key] = Value::Null;
    }
    for s in rec["steps"].as_array_mut().into_iter().flatten() {
        s["duration_ms"] = Value::Null;
        let step = s.as_object_mut().expect("a step is an object");
        for key in ["state", "started_ms", "timings"] {
            step.remove(key);
        }
    }
    rec
}

/// The steps (numbers) that must carry their state by the rule, worked out from the states
/// of the full form: the first, the last, and each step where the compact patches since the
/// previous snapshot reach the size of the compact state.
fn snapshot_steps(full: &Value) -> Vec<u64> {
    let steps = steps(full);
    let mut since = 0;
    let mut out = Vec::new();
    for (k, s) in steps.iter().enumerate() {
        since += serde_json::to_string(&s["patch"]).expect("serializes").len();
        let by_rule = k == 0 || since >= serde_json::to_string(&s["state"]).expect("serializes").len();
        if by_rule {
            since = 0;
        }
        if by_rule || k + 1 == steps.len() {
            out.push(k as u64 + 1);
        }
    }
    out
}

#[test]
fn the_default_record_keeps_snapshots_where_the_rule_puts_them_and_every_state_rebuilds() {
    let dir = tmp();
    let graph = write(dir.path(), "g.json", &append_loop(300));
    let rec = sy(&["run", &graph]).record(0);
    let full = sy(&["run", &graph, "--full-states"]).record(0);

    assert!(steps(&full).iter().all(|s| s["state"].is_object()), "--full-states gives every step its state");
    assert_eq!(without_states(&rec), without_states(&full), "the forms differ only in the steps' states");

    let with_state: Vec<u64> =
        steps(&rec).iter().filter(|s| s.get("state").is_some()).map(|s| s["step"].as_u64().unwrap_or(0)).collect();
    let want = snapshot_steps(&full);
    assert_eq!(with_state, want);
    assert!(want.len() < 100, "most of the 300 steps carry no state: {}", want.len());

    // Each step's state, rebuilt from the nearest snapshot, is the one --full-states wrote.
    let docs: Vec<StepDoc> = serde_json::from_value(rec["steps"].clone()).expect("the steps read");
    for (k, s) in steps(&full).iter().enumerate() {
        let rebuilt = engine::record::snapshots::state_after(&Map::new(), &docs, k + 1).expect("rebuilds");
        assert_eq!(Value::Object(rebuilt), s["state"], "step {}", k + 1);
    }
}

#[test]
fn the_record_grows_with_the_steps_not_with_steps_times_state() {
    let dir = tmp();
    let size = |until: u64| {
        let graph = write(dir.path(), &format!("g{until}.json"), &append_loop(until));
        let out = sy(&["run", &graph]);
        out.assert_code(0);
        out.stdout.len() as f64
    };
    let (small, large) = (size(1000), size(4000));
    // Four times the steps: about four times the record (it was sixteen with a state per step).
    assert!(large / small < 5.0, "1,000 steps: {small} bytes; 4,000 steps: {large} bytes");
    let full = sy(&["run", &write(dir.path(), "f.json", &append_loop(4000)), "--full-states"]);
    assert!(full.stdout.len() as f64 > 5.0 * large, "--full-states: {} bytes", full.stdout.len());
}

#[test]
fn the_record_file_follows_the_form_and_ends_equal_to_stdout() {
    let dir = tmp();
    let graph = write(dir.path(), "g.json", &append_loop(120));
    for form in [None, Some("--full-states")] {
        let file = dir.path().join("run.json").to_string_lossy().into_owned();
        let mut args = vec!["run", &graph, "--record", &file];
        args.extend(form);
        let out = sy(&args);
        out.assert_code(0);
        assert_eq!(std::fs::read_to_string(&file).expect("the file exists"), out.stdout, "{form:?}");
    }
}

#[test]
fn an_old_full_state_record_and_a_snapshot_record_resume_and_fork_alike() {
    let dir = tmp();
    let graph = write(dir.path(), "g.json", &append_loop(200));
    // Both forms of a run stopped half way (at the step limit), then run on further.
    let limited = |extra: &[&str]| {
        let mut doc = append_loop(200);
        doc["limits"]["max_steps"] = json!(150);
        let g = write(dir.path(), "limited.json", &doc);
        let mut args = vec!["run", g.as_str()];
        args.extend(extra);
        write(dir.path(), &format!("rec{}.json", extra.len()), &sy(&args).record(4))
    };
    let (old, new) = (limited(&["--full-states"]), limited(&[]));
    let mut finished = Vec::new();
    for rec in [&old, &new] {
        let out = sy(&["resume", rec, "--graph", &graph, "--allow-changed-graph"]).record(0);
        assert_eq!(out["state"]["n"], 200);
        assert_eq!(steps(&out).len(), 200);
        finished.push(without_states(&out));
        // A fork from a step in between starts from its state, rebuilt.
        let fork = sy(&["resume", rec, "--graph", &graph, "--allow-changed-graph", "--from-step", "77"]).record(0);
        assert_eq!(fork["forked_from"]["step"], 77);
        assert_eq!(fork["state"]["items"], json!((0..200).collect::<Vec<u64>>()));
    }
    assert_eq!(finished[0], finished[1]);
}
