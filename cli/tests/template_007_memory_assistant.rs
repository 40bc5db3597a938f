//! The 007 memory assistant template, run through the real `switchyard` binary against the
//! official MCP memory server: each test names the rule it protects.
//!
//! The template starts the server with `npx -y @modelcontextprotocol/server-memory@2026.8.31`
//! (the registry, at run time). Here the same version, installed in tests/mcp, is started with
//! `node` instead, and its memory file is a temporary one: the graph is the template with only
//! `mcp_servers.memory` changed, so every rule tested is the template's own.
//!
//! The rules (docs/templates/007-memory-assistant.md): “Remember (that) …” files a fact under
//! its subject, and filing it again says it was known; a question reads back every fact filed
//! about the subject, in any case, in a later run (the server keeps them); a subject with
//! nothing filed, or an unclear message, is said plainly; starting the program needs the
//! person's consent.

mod binary;
mod mcp_support;
mod template_run;

use std::path::Path;

use binary::sy;
use serde_json::{Value, json};
use template_run::{read_template, template, tmp, write};

const MEMORY: &str = "007-memory-assistant.json";

/// The template, its server started from the local copy with memory kept in `dir`.
fn local_graph(dir: &Path) -> String {
    let mut g = read_template(MEMORY);
    assert_eq!(
        g["mcp_servers"]["memory"]["args"],
        json!(["-y", "@modelcontextprotocol/server-memory@2026.8.31"]),
        "the template runs the version tests/mcp pins"
    );
    let memory_file = dir.join("memory.jsonl").to_string_lossy().into_owned();
    g["mcp_servers"]["memory"] = json!({
        "command": "node",
        "args": [mcp_support::server_js("memory")],
        "env": {"MEMORY_FILE_PATH": memory_file},
    });
    write(dir, "memory-assistant.json", g.to_string())
}

/// One message, answered: the run's record.
fn say(graph: &str, message: &str) -> Value {
    let input = json!({ "message": message }).to_string();
    let out = sy(&["run", graph, "--allow-command", "node", "--summary", "--input", &input]);
    out.assert_code(0);
    let record = out.json();
    assert_eq!(record["status"], "completed", "{}", out.describe());
    record
}

fn answer(record: &Value) -> (&str, &str) {
    let s = &record["state"];
    assert_eq!(s["answer"], s["final_result"]);
    (s["final_status"].as_str().unwrap_or_default(), s["answer"].as_str().unwrap_or_default())
}

/// The memory server's tools the assistant called, in order.
fn calls(record: &Value) -> Vec<String> {
    let messages = record["state"]["messages"].as_array().expect("a transcript");
    messages
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| m["name"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn a_fact_filed_in_one_run_is_read_back_in_a_later_one() {
    let dir = tmp();
    let graph = local_graph(dir.path());
    let filed = say(&graph, "Remember that Ada likes green tea");
    assert_eq!(answer(&filed), ("filed", "Noted: Ada likes green tea."));
    assert_eq!(calls(&filed), ["create_entities", "add_observations"]);
    let again = say(&graph, "remember that Ada likes green tea.");
    assert_eq!(answer(&again), ("known", "I knew that already: Ada likes green tea."));
    say(&graph, "Note Ada plays chess");
    let found = say(&graph, "What do you know about ada?");
    assert_eq!(answer(&found), ("found", "What I know about Ada: likes green tea; plays chess."));
    assert_eq!(calls(&found), ["open_nodes"]);
    let kept = std::fs::read_to_string(dir.path().join("memory.jsonl")).expect("the server kept its memory");
    assert!(kept.contains("\"name\":\"Ada\"") && kept.contains("plays chess"), "{kept}");
}

#[test]
fn nothing_filed_and_an_unclear_message_are_said_plainly() {
    let dir = tmp();
    let graph = local_graph(dir.path());
    let unknown = say(&graph, "Who is Grace?");
    assert_eq!(answer(&unknown), ("not_found", "I have nothing filed about Grace."));
    let unclear = say(&graph, "Hello there");
    assert_eq!(answer(&unclear).0, "unclear");
    assert!(answer(&unclear).1.contains("Remember that Ada likes green tea"));
    assert!(calls(&unclear).is_empty(), "an unclear message calls no tool");
    assert_eq!(answer(&say(&graph, "Remember Bob")).0, "unclear", "a subject with no fact files nothing");
}

#[test]
fn the_template_starts_npx_only_with_consent() {
    let out = sy(&["run", &template(MEMORY), "--input", &json!({"message": "Who is Ada?"}).to_string()]);
    out.assert_code(2);
    assert!(out.stderr.contains("npx") && out.stderr.contains("--allow-command"), "{}", out.describe());
}
