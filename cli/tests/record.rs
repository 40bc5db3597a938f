//! `run` and `resume` driven step by step: `--record FILE` (the record kept on disk after
//! every step, surviving a SIGKILL), `--events`, `resume` refusing a changed graph, undeclared
//! input keys and `--strict`, and the progress line (only on a terminal).
//!
//! Slow runs step through an `http` node calling a local test server that answers after a
//! delay, so that a step takes real time.

mod binary;
mod support;

use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use binary::{Out, sy};
use serde_json::{Value, json};
use support::{Reply, SCRUBBED_ENV, Server};

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary directory")
}

fn write(dir: &Path, name: &str, doc: &Value) -> String {
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_string_pretty(doc).expect("serializes")).expect("write a file");
    path.to_string_lossy().into_owned()
}

fn read_json(path: &str) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path} is not JSON ({e}):\n{text}"))
}

/// `tick` adds 1 to `n` each step until `n` reaches `until`; `max_steps` as given.
fn counter(until: u64, max_steps: u64) -> Value {
    json!({
        "format": "switchyard/graph@1",
        "name": "Counter",
        "state": { "n": { "type": "integer", "reducer": "add", "default": 0 } },
        "nodes": [
            { "id": "start", "kind": "start" },
            { "id": "tick", "kind": "set", "set": { "n": "1" } },
            { "id": "end", "kind": "end" }
        ],
        "edges": [
            { "from": "start", "to": "tick" },
            { "from": "tick", "to": "tick", "when": format!("state.n < {until}") },
            { "from": "tick", "to": "end", "when": format!("state.n >= {until}") }
        ],
        "limits": { "max_steps": max_steps }
    })
}

/// `fetch` (a GET to `state.base`, slow when the server is) then `count`, `rounds` times:
/// `2 * rounds` steps, half of them waiting for the server.
fn slow_loop(rounds: u64) -> Value {
    json!({
        "format": "switchyard/graph@1",
        "name": "Slow loop",
        "state": {
            "base": { "type": "string" },
            "n": { "type": "integer", "reducer": "add", "default": 0 },
            "reply": { "type": "any" }
        },
        "nodes": [
            { "id": "start", "kind": "start" },
            { "id": "fetch", "kind": "http", "url": "{{ state.base }}/page", "writes": "reply" },
            { "id": "count", "kind": "set", "set": { "n": "1" } },
            { "id": "end", "kind": "end" }
        ],
        "edges": [
            { "from": "start", "to": "fetch" },
            { "from": "fetch", "to": "count" },
            { "from": "count", "to": "fetch", "when": format!("state.n < {rounds}") },
            { "from": "count", "to": "end", "when": format!("state.n >= {rounds}") }
        ]
    })
}

/// A server answering every request after `ms` milliseconds.
fn slow_server(ms: u64) -> Server {
    Server::always(Reply::json(200, &json!({ "ok": true })).delayed(ms))
}

/// Starts `switchyard ARGS` without waiting for it; stdout and stderr piped.
fn spawn(args: &[&str]) -> Child {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_switchyard"));
    cmd.args(args).stdout(Stdio::piped()).stderr(Stdio::piped());
    for var in SCRUBBED_ENV {
        cmd.env_remove(var);
    }
    cmd.spawn().expect("the switchyard binary starts")
}

/// Waits for `child` and collects what it printed.
fn finish(mut child: Child, what: &str) -> Out {
    let (mut stdout, mut stderr) = (String::new(), String::new());
    child.stdout.take().expect("piped").read_to_string(&mut stdout).expect("stdout reads");
    child.stderr.take().expect("piped").read_to_string(&mut stderr).expect("stderr reads");
    let status = child.wait().expect("the binary ends");
    Out { code: status.code().expect("not killed by a signal"), stdout, stderr, what: what.into() }
}

/// Polls the record file until it holds at least `steps` steps; returns it.
fn wait_for_steps(path: &str, steps: usize) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        // The file is replaced atomically: whenever it exists, it is a whole record.
        if let Ok(text) = std::fs::read_to_string(path) {
            let rec: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("a partial record ({e}):\n{text}"));
            if rec["steps"].as_array().is_some_and(|s| s.len() >= steps) {
                return rec;
            }
        }
        assert!(Instant::now() < deadline, "{path} never showed {steps} steps");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Each step's `ran`, in order.
fn ran(rec: &Value) -> Vec<Value> {
    rec["steps"].as_array().expect("steps").iter().map(|s| s["ran"].clone()).collect()
}

// ---------------------------------------------------------------------------------------------
// --record
// ---------------------------------------------------------------------------------------------

#[test]
fn the_record_file_ends_equal_to_the_printed_record() {
    let dir = tmp();
    let graph = write(dir.path(), "g.json", &counter(5, 100));
    let file = dir.path().join("run.json").to_string_lossy().into_owned();
    let out = sy(&["run", &graph, "--record", &file]);
    out.assert_code(0);
    assert_eq!(std::fs::read_to_string(&file).expect("the file exists"), out.stdout, "{}", out.describe());
    assert!(out.stderr.is_empty(), "nothing on stderr\n{}", out.describe());
    let rec = read_json(&file);
    assert_eq!(rec["status"], "completed");
    assert_eq!(rec["steps"].as_array().map(Vec::len), Some(5));
    // No temporary file is left beside it.
    let names: Vec<_> = std::fs::read_dir(dir.path()).expect("lists").map(|e| e.expect("entry").file_name()).collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

#[test]
fn with_summary_the_file_still_holds_every_step() {
    let dir = tmp();
    let graph = write(dir.path(), "g.json", &counter(3, 100));
    let file = dir.path().join("run.json").to_string_lossy().into_owned();
    let rec = sy(&["run", &graph, "--summary", "--record", &file]).record(0);
    assert!(rec.get("steps").is_none(), "stdout is the summary: {rec:#}");
    assert_eq!(read_json(&file)["steps"].as_array().map(Vec::len), Some(3));
}

#[test]
fn a_record_file_that_cannot_be_written_is_bad_input_before_anything_runs() {
    let dir = tmp();
    let server = slow_server(0);
    let graph = write(dir.path(), "g.json", &slow_loop(1));
    let input = json!({ "base": server.url() }).to_string();
    let file = dir.path().join("no such dir").join("run.json").to_string_lossy().into_owned();
    let out = sy(&["run", &graph, "--input", &input, "--record", &file]);
    out.assert_bad_input(&["--record", &file, "cannot write"]);
    assert!(server.requests().is_empty(), "nothing ran: {:?}", server.requests());
}

#[test]
fn a_write_failing_mid_run_is_one_warning_the_run_goes_on_and_exits_1() {
    let dir = tmp();
    let server = slow_server(150);
    let graph = write(dir.path(), "g.json", &slow_loop(3));
    let input = json!({ "base": server.url() }).to_string();
    let file = dir.path().join("run.json").to_string_lossy().into_owned();
    let child = spawn(&["run", &graph, "--input", &input, "--record", &file]);
    // After step 2 (`count`) the next step waits 150 ms for the server: time to swap.
    wait_for_steps(&file, 2);
    // A non-empty directory where the file was: renaming over it fails from now on. (Tried
    // again if a write renamed a new file in between.)
    while {
        let _ = std::fs::remove_file(&file);
        std::fs::create_dir(&file).is_err()
    } {}
    std::fs::write(Path::new(&file).join("keep"), "x").expect("a file inside");
    let out = finish(child, "run --record (replaced by a directory)");
    out.assert_code(1);
    assert_eq!(out.json()["status"], "completed", "the run went on\n{}", out.describe());
    assert_eq!(out.stderr.lines().count(), 1, "one warning\n{}", out.describe());
    assert!(out.stderr.starts_with("switchyard: warning: --record "), "{}", out.describe());
    assert!(out.stderr.contains(&file) && out.stderr.contains("the run goes on"), "{}", out.describe());
}

#[test]
fn a_killed_run_leaves_a_running_record_that_resume_finishes_like_an_uninterrupted_run() {
    let dir = tmp();
    let server = slow_server(100);
    let graph = write(dir.path(), "g.json", &slow_loop(4));
    let input = json!({ "base": server.url() }).to_string();
    let file = dir.path().join("run.json").to_string_lossy().into_owned();

    let mut child = spawn(&["run", &graph, "--input", &input, "--record", &file]);
    wait_for_steps(&file, 3);
    child.kill().expect("SIGKILL");
    let _ = child.wait();

    let rec = read_json(&file);
    assert_eq!(rec["format"], "switchyard/run@1");
    assert_eq!(rec["status"], "running", "{rec:#}");
    let steps = rec["steps"].as_array().expect("steps");
    assert!(steps.len() >= 3 && steps.len() < 8, "{rec:#}");
    assert_eq!(rec["step"], steps.len());
    for (k, s) in steps.iter().enumerate() {
        assert_eq!(s["step"], k + 1);
    }
    assert_eq!(rec["next"], steps.last().expect("a step")["next"]);

    let resumed = sy(&["resume", &file, "--graph", &graph, "--record", &file]).record(0);
    let whole = sy(&["run", &graph, "--input", &input]).record(0);
    assert_eq!(resumed["status"], "completed");
    assert_eq!(resumed["state"], whole["state"]);
    assert_eq!(resumed["step"], whole["step"]);
    assert_eq!(ran(&resumed), ran(&whole));
    assert_eq!(resumed["run_id"], rec["run_id"], "the same run, continued");
    assert_eq!(read_json(&file)["status"], "completed", "the file was continued in place");
}

// ---------------------------------------------------------------------------------------------
// --events
// ---------------------------------------------------------------------------------------------

#[test]
fn events_are_one_json_line_per_finished_step() {
    let dir = tmp();
    let graph = write(dir.path(), "g.json", &counter(100, 3));
    let out = sy(&["run", &graph, "--events"]);
    let rec = out.record(4);
    let lines: Vec<Value> = out
        .stderr
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}\n{}", out.describe())))
        .collect();
    assert_eq!(lines.len(), 3, "{}", out.describe());
    for (k, line) in lines.iter().enumerate() {
        let keys: Vec<&String> = line.as_object().expect("an object").keys().collect();
        assert_eq!(keys, ["duration_ms", "next", "ran", "status", "step"], "{line}");
        assert_eq!(line["step"], k + 1);
        assert_eq!(line["ran"], json!(["tick"]));
        assert_eq!(line["next"], json!(["tick"]));
        assert!(line["duration_ms"].as_f64().is_some_and(|d| d >= 0.0), "{line}");
        assert_eq!(line["duration_ms"], rec["steps"][k]["duration_ms"]);
    }
    let statuses: Vec<&Value> = lines.iter().map(|l| &l["status"]).collect();
    assert_eq!(statuses, [&json!("running"), &json!("running"), &json!("limit_reached")]);
}

#[test]
fn events_on_resume_cover_only_the_new_steps() {
    let dir = tmp();
    let graph = write(dir.path(), "g.json", &counter(4, 100));
    let rec = sy(&["run", &graph, "--break-after", "tick"]).record(3);
    let file = write(dir.path(), "run.json", &rec);
    let out = sy(&["resume", &file, "--graph", &graph, "--events"]);
    out.record(0);
    let steps: Vec<u64> = out
        .stderr
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("JSON")["step"].as_u64().expect("a number"))
        .collect();
    assert_eq!(steps, [2, 3, 4], "{}", out.describe());
}

// ---------------------------------------------------------------------------------------------
// resume and a changed graph
// ---------------------------------------------------------------------------------------------

#[test]
fn resume_refuses_a_changed_graph_naming_the_change_unless_allowed() {
    let dir = tmp();
    let graph = write(dir.path(), "g.json", &counter(100, 2));
    let rec = sy(&["run", &graph]).record(4);
    let file = write(dir.path(), "run.json", &rec);
    let mut changed = counter(100, 5);
    changed["nodes"][1]["description"] = json!("counts");
    write(dir.path(), "g.json", &changed);

    let out = sy(&["resume", &file, "--graph", &graph]);
    out.assert_bad_input(&[
        "the graph changed",
        "node `tick` changed",
        "the graph's `limits` changed",
        "--allow-changed-graph",
    ]);

    let out = sy(&["resume", &file, "--graph", &graph, "--allow-changed-graph"]);
    let resumed = out.record(4);
    assert_eq!(resumed["state"]["n"], 5, "it ran on to the new limit\n{}", out.describe());
    let fresh = sy(&["run", &graph]).record(4);
    assert_eq!(resumed["graph_hash"], fresh["graph_hash"], "the new record carries the new graph's hash");
    assert_ne!(resumed["graph_hash"], rec["graph_hash"]);
}

#[test]
fn resume_of_an_unchanged_graph_moved_around_is_accepted() {
    let dir = tmp();
    let graph = write(dir.path(), "g.json", &counter(100, 2));
    let rec = sy(&["run", &graph]).record(4);
    let file = write(dir.path(), "run.json", &rec);
    let mut moved = counter(100, 2);
    moved["layout"] = json!({ "tick": { "x": 10, "y": 20 } });
    write(dir.path(), "g.json", &moved);
    let out = sy(&["resume", &file, "--graph", &graph]);
    assert_ne!(out.code, 2, "{}", out.describe());
}

#[test]
fn a_record_without_a_graph_hash_is_resumed_whatever_the_graph() {
    let dir = tmp();
    let graph = write(dir.path(), "g.json", &counter(100, 2));
    let mut rec = sy(&["run", &graph]).record(4);
    let obj = rec.as_object_mut().expect("an object");
    obj.remove("graph_hash");
    obj.remove("graph_parts");
    let file = write(dir.path(), "run.json", &rec);
    write(dir.path(), "g.json", &counter(100, 4));
    let resumed = sy(&["resume", &file, "--graph", &graph]).record(4);
    assert_eq!(resumed["state"]["n"], 4);
}

// ---------------------------------------------------------------------------------------------
// Undeclared input keys
// ---------------------------------------------------------------------------------------------

#[test]
fn undeclared_input_keys_are_warnings_and_strict_refuses_them() {
    let dir = tmp();
    let graph = write(dir.path(), "g.json", &counter(2, 100));
    let out = sy(&["run", &graph, "--input", r#"{"m": 5, "colour": "red"}"#]);
    let rec = out.record(0);
    assert_eq!(rec["state"]["colour"], "red", "the run went on with the key");
    let lines: Vec<&str> = out.stderr.lines().collect();
    assert_eq!(
        lines,
        [
            "switchyard: warning: input.colour: the graph declares no state field `colour` (it becomes a free-form field)",
            "switchyard: warning: input.m: the graph declares no state field `m` (did you mean `n`?)",
        ],
        "{}",
        out.describe()
    );

    let out = sy(&["run", &graph, "--input", r#"{"m": 5}"#, "--strict"]);
    out.assert_bad_input(&["input.m", "did you mean `n`?", "--strict"]);
    let out = sy(&["run", &graph, "--input", r#"{"n": 1}"#, "--strict"]);
    out.record(0);
}

#[test]
fn undeclared_set_keys_on_resume_are_warnings_and_strict_refuses_them() {
    let dir = tmp();
    let graph = write(dir.path(), "g.json", &counter(3, 100));
    let rec = sy(&["run", &graph]).record(0);
    let file = write(dir.path(), "run.json", &rec);
    let args = ["resume", &file, "--graph", &graph, "--from-step", "1", "--set", r#"{"nn": 1}"#];
    let out = sy(&args);
    out.record(0);
    assert_eq!(
        out.stderr.trim_end(),
        "switchyard: warning: --set: the graph declares no state field `nn` (did you mean `n`?)",
        "{}",
        out.describe()
    );
    let strict: Vec<&str> = args.iter().copied().chain(["--strict"]).collect();
    sy(&strict).assert_bad_input(&["--set", "`nn`", "--strict"]);
}

// ---------------------------------------------------------------------------------------------
// The progress line
// ---------------------------------------------------------------------------------------------

#[test]
fn a_slow_run_prints_nothing_extra_when_stderr_is_piped() {
    let dir = tmp();
    let server = slow_server(400);
    let graph = write(dir.path(), "g.json", &slow_loop(3));
    let input = json!({ "base": server.url() }).to_string();
    let t0 = Instant::now();
    let out = sy(&["run", &graph, "--input", &input]);
    assert!(t0.elapsed() > Duration::from_millis(1100), "the run took over a second");
    out.record(0);
    assert_eq!(out.stderr, "", "{}", out.describe());
}

/// Runs `switchyard ARGS` with a terminal (a pty from `script`) as stdin, stdout and stderr;
/// what the terminal showed. `None` when `script` is missing.
fn on_terminal(args: &[&str]) -> Option<String> {
    let bin = env!("CARGO_BIN_EXE_switchyard");
    let quoted: Vec<String> = std::iter::once(bin).chain(args.iter().copied()).map(|a| format!("'{a}'")).collect();
    let out =
        Command::new("script").args(["-qfec", &quoted.join(" "), "/dev/null"]).env("TERM", "xterm").output().ok()?;
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn a_slow_run_on_a_terminal_shows_the_progress_line_and_a_quick_one_does_not() {
    let dir = tmp();
    let server = slow_server(400);
    let graph = write(dir.path(), "g.json", &slow_loop(3));
    let input = json!({ "base": server.url() }).to_string();
    let Some(shown) = on_terminal(&["run", &graph, "--input", &input, "--summary", "--events"]) else {
        eprintln!("skipped: `script` is not installed");
        return;
    };
    assert!(shown.contains("1 node running (fetch)"), "{shown}");
    assert!(shown.contains("step 3") || shown.contains("step 4") || shown.contains("step 5"), "{shown}");
    assert!(shown.contains("\"status\": \"completed\""), "the record is still printed: {shown}");
    // Event lines are printed above the progress line, each whole on its own line (after the
    // progress line was erased).
    let events: Vec<u64> = shown
        .lines()
        .filter_map(|l| l.find("{\"duration_ms\"").map(|at| l[at..].trim_end()))
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap_or_else(|e| panic!("{e}: {l:?}"))["step"].as_u64().expect("step")
        })
        .collect();
    assert_eq!(events, [1, 2, 3, 4, 5, 6], "{shown}");

    let quick = write(dir.path(), "quick.json", &counter(3, 100));
    let shown = on_terminal(&["run", &quick, "--summary"]).expect("script ran before");
    assert!(!shown.contains("running ("), "{shown}");
}
