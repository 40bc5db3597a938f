//! The 001 step engine template, run through the real `switchyard` binary with the inputs a person would
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
// 001 step engine
// ---------------------------------------------------------------------------------------------

const STEP_ENGINE: &str = "001-step-engine.json";

#[test]
fn step_engine_escalates_waits_for_the_operator_and_survives_the_failed_branch() {
    let dir = tmp();
    let first = run(dir.path(), STEP_ENGINE, &json!({"readings": [12, 15, 18, 21, 24, 27]}), 3);
    let r = &first.record;
    assert_eq!(r["status"], "interrupted");
    assert_eq!(r["next"], json!(["ask_operator"]));
    assert_eq!(
        r["waiting"][0]["prompt"],
        "Readings [15,18,21,24,27] average 21.0 against a threshold of 20. What should the on-call engineer do?"
    );
    assert!(r["waiting"][0]["options"].is_null(), "a free answer has no options");
    // The measure step ran six times; its history keeps the last five.
    assert_eq!(times_ran(r, "measure"), 6);
    let history: Vec<i64> = r["outputs"]["measure"]
        .as_array()
        .expect("history")
        .iter()
        .map(|o| o["reading"].as_i64().unwrap_or(-1))
        .collect();
    assert_eq!(history, [15, 18, 21, 24, 27]);
    let s = &r["state"];
    assert_eq!(s["window"], json!([15, 18, 21, 24, 27]));
    assert_eq!((s["latest"].clone(), s["previous"].clone(), s["change"].clone()), (json!(27), json!(24), json!(3)));
    assert_eq!(s["average"], 21.0);
    assert_eq!(s["rising"], true);
    assert_eq!(s["verdict"], "escalate");
    // The lookup failed in the same step as `escalate`, which went on.
    assert_eq!(ran(r)[7], ["enrich", "escalate"]);
    assert!(text(&r["steps"][7]["errors"]["enrich"]["message"]).contains("context lookup failed"));
    assert!(text(&r["errors"]["enrich"]).contains("context lookup failed"));
    // Each step's status: the operator's step awaits input; the lookup's error is not recorded yet.
    let w = &r["state"]["workflow"];
    assert_eq!(w["measure"], json!({"status": "complete", "error": "", "last_executed": 6}));
    assert_eq!(w["ask_operator"]["status"], "awaiting_input");
    assert_eq!(w["enrich"]["status"], "active");

    let done = resume(dir.path(), STEP_ENGINE, &first, &json!({"ask_operator": "Page the plant engineer"}), 0).record;
    assert_eq!(done["status"], "completed");
    assert_eq!(ran(&done)[8..], [["ask_operator"], ["notify"], ["close"]]);
    let w = &done["state"]["workflow"];
    assert_eq!(w["ask_operator"], json!({"status": "complete", "error": "", "last_executed": 10}));
    assert_eq!(w["enrich"]["status"], "error");
    assert_eq!(w["enrich"]["last_executed"], 8, "it ran alongside the decision");
    assert!(text(&w["enrich"]["error"]).contains("context lookup failed"));
    let s = &done["state"];
    assert_eq!(s["operator_note"], "Page the plant engineer");
    let message = text(&s["message"]);
    assert!(
        message.starts_with("ALERT: average 21.0, latest 27 (was 24). Operator: Page the plant engineer."),
        "{message}"
    );
    assert!(message.contains("context lookup failed"), "{message}");
    assert_eq!(s["context_note"], "", "the failed branch never went on");
    assert_eq!(times_ran(&done, "attach"), 0);
}

#[test]
fn step_engine_calm_readings_finish_without_a_question() {
    let dir = tmp();
    let r = run(dir.path(), STEP_ENGINE, &json!({"readings": [3, 4, 2, 5]}), 0).record;
    let s = &r["state"];
    assert_eq!(r["status"], "completed");
    assert_eq!(s["verdict"], "calm");
    assert_eq!(s["message"], "All calm: average 3.5, latest 5");
    assert_eq!(s["window"], json!([3, 4, 2, 5]));
    assert_eq!(ran(&r)[5..], [vec!["enrich", "log_calm"], vec!["close"]]);
    assert!(text(&r["errors"]["enrich"]).contains("context lookup failed"));
    let w = &r["state"]["workflow"];
    let statuses: Vec<(&str, &str)> =
        w.as_object().expect("workflow").iter().map(|(k, v)| (k.as_str(), text(&v["status"]))).collect();
    assert_eq!(
        statuses,
        [("assess", "complete"), ("enrich", "error"), ("log_calm", "complete"), ("measure", "complete")]
    );
    assert_eq!(times_ran(&r, "ask_operator"), 0);
}

#[test]
fn step_engine_or_condition_escalates_on_a_spike_alone() {
    // Average 13.67 is under the threshold, but the latest reading is at least 1.5 × 20.
    let dir = tmp();
    let r = run(dir.path(), STEP_ENGINE, &json!({"readings": [5, 5, 31]}), 3).record;
    assert_eq!(r["state"]["verdict"], "escalate");
    // A high average that is falling, with no spike: neither side of the || holds.
    let r = run(dir.path(), STEP_ENGINE, &json!({"readings": [40, 10], "threshold": 20}), 0).record;
    assert_eq!(r["state"]["average"], 25.0);
    assert_eq!(r["state"]["rising"], false);
    assert_eq!(r["state"]["verdict"], "calm");
}

#[test]
fn step_engine_lookup_that_works_runs_its_own_branch() {
    let dir = tmp();
    let r = run(dir.path(), STEP_ENGINE, &json!({"readings": [3, 4, 2, 5], "context_available": true}), 0).record;
    assert_eq!(r["status"], "completed");
    assert_eq!(r["errors"], json!({}));
    assert_eq!(r["state"]["context_note"], "Context for plant-3, owned by on-call team");
    assert_eq!(ran(&r)[5..], [vec!["enrich", "log_calm"], vec!["attach", "close"]]);
    assert_eq!(r["state"]["workflow"]["enrich"]["status"], "complete");
    assert_eq!(r["state"]["workflow"]["attach"]["status"], "complete");
}
