//! What the template tests share: running a template through the real `switchyard` binary the
//! way a user would (`run` with an input, then `resume … --answer` for every question) and
//! reading the record it printed.

#![allow(dead_code, reason = "each test file uses the part it needs")]

use crate::binary::sy;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

pub const TEMPLATES: [&str; 9] = [
    "000-task-loop.json",
    "001-step-engine.json",
    "002-agent-graph.json",
    "003-approval.json",
    "004-linear-orchestrator.json",
    "005-tool-agent.json",
    "006-map-reduce.json",
    "007-memory-assistant.json",
    "008-evaluation-loop.json",
];

pub fn template(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join("templates").join(name).to_string_lossy().into_owned()
}

pub fn read_template(name: &str) -> Value {
    let text = std::fs::read_to_string(template(name)).expect("the template is readable");
    serde_json::from_str(&text).expect("the template is JSON")
}

pub fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary directory")
}

pub fn write(dir: &Path, name: &str, contents: impl AsRef<[u8]>) -> String {
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("write a temporary file");
    path.to_string_lossy().into_owned()
}

/// Numbers the saved records so that no stage overwrites another.
pub static SAVED: AtomicUsize = AtomicUsize::new(1);

/// One stage of a run: the record it printed and where that record was saved.
pub struct Stage {
    pub record: Value,
    pub file: String,
}

/// `switchyard run TEMPLATE --input INPUT`, expecting exit `code`.
pub fn run(dir: &Path, name: &str, input: &Value, code: i32) -> Stage {
    let input = input.to_string();
    let out = sy(&["run", &template(name), "--input", &input]);
    out.assert_code(code);
    let file = write(dir, "run-0.json", &out.stdout);
    Stage { record: out.json(), file }
}

/// `switchyard resume PREVIOUS --graph TEMPLATE --answer ANSWER`, expecting exit `code`.
pub fn resume(dir: &Path, name: &str, previous: &Stage, answer: &Value, code: i32) -> Stage {
    let answer = answer.to_string();
    let out = sy(&["resume", &previous.file, "--graph", &template(name), "--answer", &answer]);
    out.assert_code(code);
    let n = SAVED.fetch_add(1, Ordering::Relaxed);
    let file = write(dir, &format!("run-{n}.json"), &out.stdout);
    Stage { record: out.json(), file }
}

/// Which nodes ran at each step.
pub fn ran(record: &Value) -> Vec<Vec<String>> {
    record["steps"]
        .as_array()
        .expect("the record has steps")
        .iter()
        .map(|s| {
            s["ran"]
                .as_array()
                .expect("ran is a list")
                .iter()
                .map(|v| v.as_str().unwrap_or_default().to_string())
                .collect()
        })
        .collect()
}

/// How many steps ran `node`.
pub fn times_ran(record: &Value, node: &str) -> usize {
    ran(record).iter().filter(|step| step.iter().any(|n| n == node)).count()
}

pub fn strs(v: &Value) -> Vec<&str> {
    v.as_array().expect("a list").iter().map(|s| s.as_str().expect("a string")).collect()
}

pub fn text(v: &Value) -> &str {
    v.as_str().unwrap_or_else(|| panic!("expected a string, got {v}"))
}
