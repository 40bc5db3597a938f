//! A record is untrusted input (README, Untrusted graphs in the editor): `resume` of a record whose patches would blow the
//! state up ends with an error naming the step and the operation, within a small memory
//! budget, instead of exhausting the machine.

use std::process::Command;

use serde_json::{Value, json};

const GRAPH: &str = r#"{
  "format": "switchyard/graph@1",
  "state": { "n": { "type": "integer", "reducer": "add" } },
  "nodes": [ { "id": "start", "kind": "start" },
             { "id": "inc", "kind": "set", "set": { "n": "1" } },
             { "id": "end", "kind": "end" } ],
  "edges": [ { "from": "start", "to": "inc" },
             { "from": "inc", "to": "inc", "when": "state.n < 3" },
             { "from": "inc", "to": "end", "when": "state.n >= 3" } ]
}"#;

/// `switchyard` with `args`, its address space held to 1 GiB (so that a blow-up fails fast
/// rather than taking the machine): exit code, stdout, stderr.
fn switchyard(args: &[&str]) -> (i32, String, String) {
    let bin = env!("CARGO_BIN_EXE_switchyard");
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 1048576 && exec \"$@\"")
        .arg("sh")
        .arg(bin)
        .args(args)
        .output()
        .expect("the binary runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

#[test]
fn resuming_a_record_whose_copies_double_the_state_ends_with_an_error_naming_the_operation() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let graph = dir.path().join("graph.json");
    std::fs::write(&graph, GRAPH).expect("write the graph");
    let graph = graph.display().to_string();
    let (code, stdout, stderr) = switchyard(&["run", &graph]);
    assert_eq!(code, 0, "{stderr}");
    let mut record: Value = serde_json::from_str(&stdout).expect("a record");

    // About 2 KB of patch: 40 copies of the whole state, each doubling it (a terabyte in all).
    let mut ops = vec![json!({"op": "add", "path": "/blob", "value": "x".repeat(1000)})];
    ops.extend((0..40).map(|i| json!({"op": "copy", "from": "", "path": format!("/c{i}")})));
    record["steps"][1]["patch"] = Value::Array(ops);
    let file = dir.path().join("run.json");
    std::fs::write(&file, record.to_string()).expect("write the record");

    let (code, _, stderr) = switchyard(&["resume", &file.display().to_string(), "--graph", &graph]);
    assert!(!stderr.contains("memory allocation") && !stderr.contains("panicked"), "{stderr}");
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("steps[1].patch: operation '/"), "{stderr}");
    assert!(stderr.contains("(`copy` to '/c") && stderr.contains("would grow the state to"), "{stderr}");
}
