//! Consent to start MCP servers (format.md §2.11, §8): a graph naming a program the person did
//! not allow is refused before its run, saying which server, the whole command line and how
//! to allow it, and the program never starts.

mod binary;

use std::path::Path;
use std::process::Command;

use binary::Out;
use serde_json::{Value, json};

/// A graph whose server `fs` would create `flag` if it ever started; its tool `touch` uses
/// it (no node calls the tool: consent is asked for every server a tool may reach).
fn graph(flag: &Path) -> Value {
    json!({
        "format": "switchyard/graph@1",
        "name": "consent",
        "mcp_servers": {
            "web": {"url": "http://127.0.0.1:9/mcp"},
            "fs": {"command": "sh", "args": ["-c", format!("touch {}", flag.display()), "a b"]},
            "unused": {"command": "never-asked-about"}
        },
        "tools": {
            "touch": {"run": {"mcp": {"server": "fs"}}},
            "fetch": {"run": {"mcp": {"server": "web"}}}
        },
        "nodes": [{"id": "start", "kind": "start"}, {"id": "end", "kind": "end"}],
        "edges": [{"from": "start", "to": "end"}]
    })
}

/// Runs `switchyard ARGS` in `dir` with `SWITCHYARD_ALLOWED_COMMANDS` set to `allowed`
/// (unset when `None`).
fn switchyard(dir: &Path, args: &[&str], allowed: Option<&str>) -> Out {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_switchyard"));
    cmd.args(args).current_dir(dir).env("RUST_BACKTRACE", "1").env_remove("SWITCHYARD_ALLOWED_COMMANDS");
    if let Some(list) = allowed {
        cmd.env("SWITCHYARD_ALLOWED_COMMANDS", list);
    }
    let out = cmd.output().expect("the switchyard binary runs");
    Out {
        code: out.status.code().expect("exited"),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        what: format!("switchyard {} (SWITCHYARD_ALLOWED_COMMANDS={allowed:?})", args.join(" ")),
    }
}

fn setup(name: &str, doc: impl FnOnce(&Path) -> Value) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::Builder::new().prefix(name).tempdir().expect("a temporary folder");
    let flag = dir.path().join("started");
    std::fs::write(dir.path().join("graph.json"), doc(&flag).to_string()).expect("written");
    (dir, flag)
}

#[test]
fn a_program_not_allowed_is_refused_before_the_run_and_never_starts() {
    let (dir, flag) = setup("consent", graph);
    let out = switchyard(dir.path(), &["run", "graph.json"], None);
    out.assert_bad_input(&[
        "graph.json: mcp_servers.fs: starting `sh -c 'touch ",
        "/started' 'a b'` needs consent: pass --allow-command sh (or add it to SWITCHYARD_ALLOWED_COMMANDS)",
    ]);
    assert!(!out.stderr.contains("mcp_servers.web"), "an HTTP server needs no consent\n{}", out.describe());
    assert!(!out.stderr.contains("never-asked-about"), "a server no tool uses never starts\n{}", out.describe());
    // Another program allowed, or the same written otherwise, is not consent.
    let out = switchyard(dir.path(), &["run", "graph.json", "--allow-command", "/bin/sh"], Some("node, npx"));
    out.assert_bad_input(&["--allow-command sh"]);
    assert!(!flag.exists(), "the program never ran");
}

#[test]
fn the_flag_or_the_variable_allows_it() {
    let (dir, _flag) = setup("consent-ok", graph);
    switchyard(dir.path(), &["run", "graph.json", "--allow-command", "sh", "--summary"], None).record(0);
    switchyard(dir.path(), &["run", "graph.json", "--summary"], Some("node,sh")).record(0);
}

#[test]
fn servers_used_by_definitions_need_consent_too() {
    let (dir, _flag) = setup("consent-defs", |flag| {
        let mut doc = graph(flag);
        doc["tools"] = json!({});
        doc["definitions"] = json!({"inner": {
            "format": "switchyard/graph@1",
            "tools": {"touch": {"run": {"mcp": {"server": "fs"}}}},
            "nodes": [{"id": "start", "kind": "start"}, {"id": "end", "kind": "end"}],
            "edges": [{"from": "start", "to": "end"}]
        }});
        doc
    });
    let out = switchyard(dir.path(), &["run", "graph.json"], None);
    out.assert_bad_input(&["graph.json: mcp_servers.fs: starting `sh -c"]);
}

#[test]
fn resume_asks_for_consent_as_run_does() {
    let (dir, flag) = setup("consent-resume", graph);
    let out = switchyard(dir.path(), &["run", "graph.json", "--allow-command", "sh", "--record", "run.json"], None);
    out.assert_code(0);
    let out = switchyard(dir.path(), &["resume", "run.json", "--graph", "graph.json", "--from-step", "0"], None);
    out.assert_bad_input(&["mcp_servers.fs", "--allow-command sh"]);
    switchyard(dir.path(), &["resume", "run.json", "--graph", "graph.json", "--from-step", "0"], Some("sh")).record(0);
    assert!(!flag.exists(), "no tool called the server, so it never started");
}
