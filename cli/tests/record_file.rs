//! `--record FILE` on a hostile or careless file system: a link planted where the temporary
//! file used to go is not followed, FILE keeps its permissions (a new one is private), and
//! FILE naming one of the run's inputs is refused before anything runs.
#![cfg(unix)]

mod binary;

use std::fs;
use std::io::Write;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::Path;
use std::process::{Command, Stdio};

use binary::sy;
use serde_json::{Value, json};

fn graph() -> Value {
    json!({
        "format": "switchyard/graph@1",
        "name": "Once",
        "state": { "n": { "type": "integer", "default": 0 } },
        "nodes": [
            { "id": "start", "kind": "start" },
            { "id": "tick", "kind": "set", "set": { "n": "1" } },
            { "id": "end", "kind": "end" }
        ],
        "edges": [ { "from": "start", "to": "tick" }, { "from": "tick", "to": "end" } ]
    })
}

fn write_graph(dir: &Path) -> String {
    let path = dir.join("graph.json");
    fs::write(&path, serde_json::to_string_pretty(&graph()).expect("serializes")).expect("write the graph");
    path.to_string_lossy().into_owned()
}

fn mode(path: &Path) -> u32 {
    fs::metadata(path).expect("the record exists").permissions().mode() & 0o777
}

fn status_of(path: &Path) -> Value {
    let text = fs::read_to_string(path).expect("the record reads");
    serde_json::from_str::<Value>(&text).expect("the record is JSON")["status"].clone()
}

/// The CLI used to write FILE's temporary file at `.FILE.<pid>.tmp`, opened without
/// refusing links: a link planted there (the pid is known once the process starts) made it
/// write the record through the link. The run here waits on a FIFO for its input, which
/// leaves the time to plant the link before the first write.
#[test]
fn a_link_planted_at_the_old_temporary_name_is_not_followed() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let graph = write_graph(dir.path());
    let fifo = dir.path().join("input.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", fifo.display());
    let victim = dir.path().join("victim.txt");
    fs::write(&victim, "precious").expect("write the victim");
    let record = dir.path().join("rec.json");

    let child = Command::new(env!("CARGO_BIN_EXE_switchyard"))
        .args(["run", &graph, "--input"])
        .arg(format!("@{}", fifo.display()))
        .arg("--record")
        .arg(&record)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the switchyard binary starts");
    symlink(&victim, dir.path().join(format!(".rec.json.{}.tmp", child.id()))).expect("plant the link");
    // Opening the FIFO for writing waits until the run opens it to read its input.
    fs::OpenOptions::new().write(true).open(&fifo).and_then(|mut f| f.write_all(b"{}")).expect("give the input");
    let out = child.wait_with_output().expect("the run ends");

    assert_eq!(out.status.code(), Some(0), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(fs::read_to_string(&victim).expect("the victim reads"), "precious", "the link was followed");
    assert!(fs::symlink_metadata(&record).expect("the record exists").is_file(), "FILE is a plain file");
    assert_eq!(status_of(&record), "completed");
}

#[test]
fn a_private_record_stays_private_and_a_new_one_is_private() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let graph = write_graph(dir.path());

    let kept = dir.path().join("kept.json");
    fs::write(&kept, "{}").expect("write the old record");
    fs::set_permissions(&kept, fs::Permissions::from_mode(0o600)).expect("chmod 600");
    sy(&["run", &graph, "--record", kept.to_str().expect("UTF-8 path")]).assert_code(0);
    assert_eq!(status_of(&kept), "completed");
    assert_eq!(mode(&kept), 0o600, "a 0600 record stays 0600");

    let shared = dir.path().join("shared.json");
    fs::write(&shared, "{}").expect("write the old record");
    fs::set_permissions(&shared, fs::Permissions::from_mode(0o640)).expect("chmod 640");
    sy(&["run", &graph, "--record", shared.to_str().expect("UTF-8 path")]).assert_code(0);
    assert_eq!(mode(&shared), 0o640, "FILE keeps the permissions it had");

    let new = dir.path().join("new.json");
    sy(&["run", &graph, "--record", new.to_str().expect("UTF-8 path")]).assert_code(0);
    assert_eq!(mode(&new), 0o600, "a new record is readable by its owner only");
}

#[test]
fn a_record_naming_the_graph_is_refused_and_the_graph_kept() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let graph = write_graph(dir.path());
    let before = fs::read(&graph).expect("the graph reads");

    sy(&["run", &graph, "--record", &graph]).assert_bad_input(&["--record", "the graph"]);
    // The same file by another name: a link to it, or a path through `..`.
    let link = dir.path().join("link.json");
    symlink(&graph, &link).expect("link to the graph");
    sy(&["run", &graph, "--record", link.to_str().expect("UTF-8 path")]).assert_bad_input(&["the graph"]);
    let dotted = dir.path().join("..").join(dir.path().file_name().expect("a name")).join("graph.json");
    sy(&["run", &graph, "--record", dotted.to_str().expect("UTF-8 path")]).assert_bad_input(&["the graph"]);
    sy(&["resume", &graph, "--graph", &graph, "--record", &graph]).assert_bad_input(&["the graph"]);

    assert_eq!(fs::read(&graph).expect("the graph reads"), before, "the graph is unchanged");
    assert!(fs::symlink_metadata(&link).expect("the link exists").file_type().is_symlink());
}

#[test]
fn a_record_naming_an_input_file_is_refused() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let graph = write_graph(dir.path());
    let input = dir.path().join("input.json");
    fs::write(&input, "{}").expect("write the input");
    let at_input = format!("@{}", input.display());

    sy(&["run", &graph, "--input", &at_input, "--record", input.to_str().expect("UTF-8 path")])
        .assert_bad_input(&["--record", "--input"]);
    assert_eq!(fs::read_to_string(&input).expect("the input reads"), "{}");
}
