//! The 006 map-reduce template, run through the real `switchyard` binary with the inputs a person would
//! try: each test names the seed's rule it protects.

mod binary;
mod template_run;

#[allow(unused_imports, reason = "not every file uses every helper")]
use binary::sy;
#[allow(unused_imports, reason = "not every file uses every helper")]
use serde_json::{Value, json};
#[allow(unused_imports, reason = "not every file uses every helper")]
use std::path::Path;
#[allow(unused_imports, reason = "not every file uses every helper")]
use template_run::*;

// ---------------------------------------------------------------------------------------------
// 006 map-reduce
// ---------------------------------------------------------------------------------------------

const MAP_REDUCE: &str = "006-map-reduce.json";

#[test]
fn map_reduce_summarizes_every_section_at_once_then_joins_them_in_order() {
    let dir = tmp();
    let doc = "Intro\n## Goals\nShip it by May. Keep it fast.\n## Risks\nServers may be slow. We cache.\n## Team\nThree people.";
    let r = run(dir.path(), MAP_REDUCE, &json!({"document": doc}), 0).record;
    assert_eq!(r["status"], "completed");
    assert_eq!(ran(&r), [vec!["split"], vec!["summarize[0]", "summarize[1]", "summarize[2]"], vec!["combine"]]);
    assert_eq!(
        strs(&r["state"]["summaries"]),
        ["Goals: Ship it by May", "Risks: Servers may be slow", "Team: Three people."]
    );
    assert_eq!(
        text(&r["state"]["report"]),
        "- Goals: Ship it by May\n- Risks: Servers may be slow\n- Team: Three people.\n"
    );
    // Each instance saw its own section in its prompt.
    let prompt = text(&r["steps"][1]["details"]["summarize[1]"]["prompt"]);
    assert!(prompt.contains("\"Risks\"") && prompt.contains("We cache."), "{prompt}");

    let two = run(dir.path(), MAP_REDUCE, &json!({"document": "## A\nOne. Two.\n## B\nThree."}), 0).record;
    assert_eq!(ran(&two)[1], ["summarize[0]", "summarize[1]"]);
}

#[test]
fn map_reduce_without_sections_runs_no_instance() {
    let dir = tmp();
    let r = run(dir.path(), MAP_REDUCE, &json!({"document": "just text"}), 0).record;
    assert_eq!(r["status"], "completed");
    assert_eq!(times_ran(&r, "combine"), 0);
    assert!(ran(&r).iter().flatten().all(|n| !n.starts_with("summarize")));
    assert_eq!(text(&r["state"]["report"]), "The document has no `## ` sections.");
}
