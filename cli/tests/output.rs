//! Stdout that cannot be written: a reader that closes the pipe early, a full disk, a closed
//! descriptor. None of them may look like a crash (exit 101, "internal error"), and none may
//! exit 0 without the record having been written.

#![cfg(unix)]

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::json;

/// A graph whose record is far larger than a pipe's buffer, so that writing it blocks until
/// the reader goes away.
fn big_record_graph(dir: &Path) -> String {
    let graph = json!({
        "format": "switchyard/graph@1",
        "state": { "text": { "type": "string" } },
        "nodes": [
            { "id": "start", "kind": "start" },
            { "id": "grow", "kind": "set", "set": { "text": "let t = \"x\"; t.pad(300000, \"y\"); t" } },
            { "id": "end", "kind": "end" }
        ],
        "edges": [ { "from": "start", "to": "grow" }, { "from": "grow", "to": "end" } ]
    });
    let path = dir.join("big.json");
    std::fs::write(&path, graph.to_string()).expect("test setup");
    path.display().to_string()
}

fn stderr_of(child: std::process::Child) -> (i32, String) {
    let out = child.wait_with_output().expect("test setup");
    (out.status.code().expect("exited, not killed"), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn a_reader_that_closes_the_pipe_early_ends_the_run_quietly() {
    let dir = tempfile::tempdir().expect("test setup");
    let graph = big_record_graph(dir.path());
    let mut child = Command::new(env!("CARGO_BIN_EXE_switchyard"))
        .args(["run", &graph])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("test setup");
    // `| head -c1`: read one byte, then close the pipe.
    let mut stdout = child.stdout.take().expect("test setup");
    let mut one = [0u8; 1];
    stdout.read_exact(&mut one).expect("test setup");
    drop(stdout);
    let (code, stderr) = stderr_of(child);
    assert_eq!(code, 0, "the run completed, so it exits 0; stderr: {stderr}");
    assert_eq!(stderr, "", "a closed pipe is no error worth a message");
}

#[test]
fn a_full_disk_is_one_line_and_a_non_zero_exit() {
    if !Path::new("/dev/full").exists() {
        return;
    }
    let dir = tempfile::tempdir().expect("test setup");
    let graph = big_record_graph(dir.path());
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").expect("test setup");
    let child = Command::new(env!("CARGO_BIN_EXE_switchyard"))
        .args(["run", &graph])
        .stdout(Stdio::from(full))
        .stderr(Stdio::piped())
        .spawn()
        .expect("test setup");
    let (code, stderr) = stderr_of(child);
    assert_eq!(code, 1, "stderr: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    assert!(stderr.starts_with("switchyard: cannot write the output: "), "{stderr}");
    assert!(!stderr.contains("internal error"), "{stderr}");
}

#[test]
fn a_closed_stdout_is_one_line_and_a_non_zero_exit() {
    let dir = tempfile::tempdir().expect("test setup");
    let graph = big_record_graph(dir.path());
    // `switchyard run big.json >&-`
    let child = Command::new("sh")
        .args(["-c", "exec \"$0\" run \"$1\" >&-", env!("CARGO_BIN_EXE_switchyard"), &graph])
        .stderr(Stdio::piped())
        .spawn()
        .expect("test setup");
    let (code, stderr) = stderr_of(child);
    assert_ne!(code, 0, "the record was not written; stderr: {stderr}");
    assert_ne!(code, 101, "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    assert!(stderr.contains("stdout is not open"), "{stderr}");
}

#[test]
fn a_dev_null_chosen_on_purpose_is_not_a_closed_stdout() {
    // Python's `subprocess.DEVNULL` and Node's `stdio: "ignore"` give /dev/null opened
    // read-write, as Rust's runtime does for a closed stdout: the run must still go ahead.
    let dir = tempfile::tempdir().expect("test setup");
    let graph = big_record_graph(dir.path());
    let null = std::fs::OpenOptions::new().read(true).write(true).open("/dev/null").expect("test setup");
    let child = Command::new(env!("CARGO_BIN_EXE_switchyard"))
        .args(["run", &graph])
        .stdout(Stdio::from(null))
        .stderr(Stdio::piped())
        .spawn()
        .expect("test setup");
    let (code, stderr) = stderr_of(child);
    assert_eq!(code, 0, "stderr: {stderr}");
    assert_eq!(stderr, "");
}

#[test]
fn validate_and_mermaid_handle_a_full_disk_too() {
    if !Path::new("/dev/full").exists() {
        return;
    }
    let dir = tempfile::tempdir().expect("test setup");
    let graph = big_record_graph(dir.path());
    for cmd in ["mermaid", "validate"] {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").expect("test setup");
        let child = Command::new(env!("CARGO_BIN_EXE_switchyard"))
            .args([cmd, &graph, "--json"].into_iter().take(if cmd == "validate" { 3 } else { 2 }))
            .stdout(Stdio::from(full))
            .stderr(Stdio::piped())
            .spawn()
            .expect("test setup");
        let (code, stderr) = stderr_of(child);
        assert_eq!(code, 1, "{cmd}: {stderr}");
        assert!(!stderr.contains("internal error"), "{cmd}: {stderr}");
    }
}
