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

use std::collections::BTreeMap;
use std::sync::atomic::Ordering;

// ---------------------------------------------------------------------------------------------
// 001 step engine
// ---------------------------------------------------------------------------------------------

const STEP_ENGINE: &str = "001-step-engine.json";

/// The most readings one run takes (the template's own check; its step limit leaves room for them).
const MAX_READINGS: usize = 1000;

/// `switchyard run` keeping every step's state (`--full-states`), so that the status map can be
/// compared with what happened at every checkpoint.
fn run_full(dir: &Path, input: &Value, code: i32) -> Stage {
    let input = input.to_string();
    let out = sy(&["run", &template(STEP_ENGINE), "--full-states", "--input", &input]);
    out.assert_code(code);
    let n = SAVED.fetch_add(1, Ordering::Relaxed);
    let file = write(dir, &format!("full-{n}.json"), &out.stdout);
    Stage { record: out.json(), file }
}

/// `switchyard resume … --answer` keeping every step's state.
fn resume_full(dir: &Path, previous: &Stage, answer: &Value, code: i32) -> Stage {
    let answer = answer.to_string();
    let out = sy(&["resume", &previous.file, "--graph", &template(STEP_ENGINE), "--full-states", "--answer", &answer]);
    out.assert_code(code);
    let n = SAVED.fetch_add(1, Ordering::Relaxed);
    let file = write(dir, &format!("full-{n}.json"), &out.stdout);
    Stage { record: out.json(), file }
}

/// Each step's status (`state.workflow`) against the record, checkpoint by checkpoint:
/// - `last_executed` is the last step the node ran at (null before it ran);
/// - a step about to run (in `next`) is active, pending or awaiting_input; any other is complete or
///   error, and only a step that ran has an entry that says so;
/// - error exactly when the step failed (its message in `error`), or when `check_input` refused the input.
///
/// Two entries are written by the step after: a failed step's (by the node on its error edge, its own
/// update being dropped) and the operator's (a human node writes only the answer). At the checkpoint
/// right after such a step its entry is left as it was; the next checkpoint must show it right.
fn assert_status_map_follows_the_record(r: &Value) {
    let mut last_run: BTreeMap<String, u64> = BTreeMap::new();
    let mut failed: BTreeMap<String, Value> = BTreeMap::new();
    let mut before: Option<Value> = None;
    for s in r["steps"].as_array().expect("steps") {
        let k = s["step"].as_u64().expect("step number");
        let ran = strs(&s["ran"]);
        let errors = s["errors"].as_object().cloned().unwrap_or_default();
        for n in &ran {
            last_run.insert((*n).to_string(), k);
            match errors.get(*n) {
                Some(e) => failed.insert((*n).to_string(), e["message"].clone()),
                None => failed.remove(*n),
            };
        }
        let next = strs(&s["next"]);
        let w = s["state"]["workflow"].as_object().unwrap_or_else(|| panic!("step {k} keeps its state"));
        let lagging: Vec<&str> =
            ran.iter().copied().filter(|n| errors.contains_key(*n) || *n == "ask_operator").collect();
        for (id, e) in w {
            if lagging.contains(&id.as_str()) {
                assert_eq!(Some(e), before.as_ref().and_then(|b| b.get(id)), "step {k}: {id} is recorded a step later");
                continue;
            }
            let status = text(&e["status"]);
            assert_eq!(
                e["last_executed"],
                last_run.get(id).map_or(Value::Null, |s| json!(s)),
                "step {k}: {id} last_executed\n{e}"
            );
            if next.contains(&id.as_str()) {
                assert!(
                    ["active", "pending", "awaiting_input"].contains(&status),
                    "step {k}: {id} is about to run: {e}"
                );
            } else {
                // Pending: it ran and found an input missing; it runs again when the input is handed over.
                assert!(["complete", "error", "pending"].contains(&status), "step {k}: {id} is not about to run: {e}");
                assert!(last_run.contains_key(id), "step {k}: {id} never ran: {e}");
            }
            if r["status"] == "completed" && next.is_empty() {
                assert!(["complete", "error"].contains(&status), "the run is over: {id} {e}");
            }
            let refused = id == "check_input" && s["state"]["problem"] != "";
            assert_eq!(status == "error", failed.contains_key(id) || refused, "step {k}: {id}: {e}");
            match failed.get(id) {
                Some(message) => assert_eq!(&e["error"], message, "step {k}: {id} keeps the engine's message"),
                None if refused => assert_eq!(e["error"], s["state"]["problem"], "step {k}"),
                None => assert_eq!(e["error"], "", "step {k}: {id}"),
            }
        }
        for n in last_run.keys().filter(|n| !lagging.contains(&n.as_str())) {
            assert!(w.contains_key(n), "step {k}: {n} ran but has no entry");
        }
        for n in &next {
            // What a lagging step starts is marked by nobody: the failed step's update is dropped (so the
            // node on its error edge starts unmarked), and the human step writes only the answer.
            let started_by_lagging = (*n == "lookup_failed" && lagging.contains(&"enrich"))
                || (*n == "notify" && lagging.contains(&"ask_operator"));
            assert!(w.contains_key(*n) || started_by_lagging, "step {k}: {n} is about to run but has no entry");
        }
        before = Some(s["state"]["workflow"].clone());
    }
}

/// The statuses in the map, by step id.
fn statuses(r: &Value) -> Vec<(String, String)> {
    r["state"]["workflow"]
        .as_object()
        .expect("workflow")
        .iter()
        .map(|(k, v)| (k.clone(), text(&v["status"]).to_string()))
        .collect()
}

fn readings(r: &Value) -> Vec<f64> {
    r["outputs"]["measure"]
        .as_array()
        .expect("history")
        .iter()
        .map(|o| o["reading"].as_f64().unwrap_or(f64::NAN))
        .collect()
}

/// Seed: outputs history (last 5, read by position), a step awaiting user input, an error in one
/// branch while the other continues; and the per-step status map follows every step of the run.
#[test]
fn step_engine_escalated_run_keeps_history_waits_for_input_and_tracks_every_step() {
    let dir = tmp();
    let first = run_full(dir.path(), &json!({"readings": [12, 15, 18, 21, 24, 27]}), 3);
    let r = &first.record;
    assert_eq!(r["status"], "interrupted");
    assert_eq!(r["next"], json!(["ask_operator", "wrap_up"]));
    assert_eq!(
        r["waiting"][0]["prompt"],
        "Alert (warning): the newest reading is 27; the last 5 readings [15,18,21,24,27] average 21.0; the \
         threshold is 20. What should the on-call engineer do? (Any text; an empty answer is fine.)"
    );
    assert!(r["waiting"][0]["options"].is_null(), "a free answer has no options");
    // Measure ran once per reading; its history keeps the last five, read by position.
    assert_eq!(times_ran(r, "measure"), 6);
    assert_eq!(readings(r), [15.0, 18.0, 21.0, 24.0, 27.0]);
    let s = &r["state"];
    assert_eq!(s["window"], json!([15, 18, 21, 24, 27]));
    assert_eq!(
        [&s["latest"], &s["previous"], &s["oldest"], &s["change"]],
        [&json!(27), &json!(24), &json!(15), &json!(3)]
    );
    assert_eq!(
        (s["average"].clone(), s["rising"].clone(), s["above"].clone()),
        (json!(21.0), json!(true), json!(true))
    );
    assert_eq!(s["verdict"], "escalate");
    assert_eq!(s["final_status"], "awaiting_input");
    // The lookup failed in the same step as `escalate`, which went on.
    assert_eq!(ran(r)[9], ["enrich", "escalate"]);
    assert!(text(&r["errors"]["enrich"]).contains("context lookup failed"));
    let w = &s["workflow"];
    assert_eq!(w["enrich"]["status"], "error", "the failure shows before the operator answers");
    assert_eq!(w["enrich"]["last_executed"], 10, "the step it ran at");
    assert_eq!(w["ask_operator"]["status"], "awaiting_input");
    assert_eq!(w["wrap_up"]["status"], "active");
    assert_status_map_follows_the_record(r);

    let done = resume_full(dir.path(), &first, &json!({"ask_operator": "Page the plant engineer"}), 0).record;
    assert_eq!(done["status"], "completed");
    assert_eq!(ran(&done)[11..], [vec!["ask_operator", "wrap_up"], vec!["notify"], vec!["wrap_up"]]);
    let w = &done["state"]["workflow"];
    assert_eq!(w["ask_operator"], json!({"status": "complete", "error": "", "last_executed": 12}));
    assert_eq!(done["steps"][11]["state"]["workflow"]["wrap_up"]["status"], "pending", "the alert was not in yet");
    assert_eq!(w["wrap_up"], json!({"status": "complete", "error": "", "last_executed": 14}));
    assert!(text(&w["enrich"]["error"]).contains("context lookup failed"));
    assert_status_map_follows_the_record(&done);
    let s = &done["state"];
    assert_eq!(s["final_status"], "complete_with_errors");
    let result = text(&s["final_result"]);
    assert!(
        result.starts_with(
            "ALERT (warning): latest 27 (was 24), average 21.0 of the last 5, threshold 20. Operator: Page the plant engineer."
        ),
        "{result}"
    );
    assert!(result.contains("No context: node `enrich`, field `script`: context lookup failed"), "{result}");
}

/// Seed: conditions combined with and/or on the paths. The rule: alert when the newest reading is
/// at or past the threshold, OR the average of the last 5 is past it AND rising; a spike (1.5 ×)
/// makes the alert critical; otherwise all is calm.
#[test]
fn step_engine_decision_rule_holds_for_every_combination() {
    let dir = tmp();
    // (readings, threshold, escalates, level)
    let cases: [(Value, f64, bool, &str); 13] = [
        (json!([12, 15, 18, 21, 24, 27]), 20.0, true, "warning"), // above, rising
        (json!([25, 24, 23, 22, 21]), 20.0, true, "warning"),     // all above, falling
        (json!([30, 30, 30]), 20.0, true, "critical"),            // above, flat, spike
        (json!([50, 40]), 20.0, true, "critical"),                // spike while falling
        (json!([5, 5, 31]), 20.0, true, "critical"),              // a spike alone, low average
        (json!([20]), 20.0, true, "warning"),                     // exactly at the threshold
        (json!([10, 30, 30, 19]), 20.0, true, "warning"),         // under, but high average and rising
        (json!([40, 10]), 20.0, false, ""),                       // under, high average but falling back
        (json!([3, 4, 2, 5]), 20.0, false, ""),                   // under, low average, rising
        (json!([9, 5]), 20.0, false, ""),                         // under, low average, falling
        (json!([19.9]), 20.0, false, ""),                         // just under
        (json!([100, 1, 1, 1, 1, 1]), 20.0, false, ""),           // the old spike left the last 5
        (json!([0.5, 0.9]), 0.75, true, "warning"),               // fractions, own threshold
    ];
    for (list, threshold, escalates, level) in cases {
        let input = json!({"readings": list, "threshold": threshold, "context_available": true});
        let r = run_full(dir.path(), &input, if escalates { 3 } else { 0 }).record;
        let s = &r["state"];
        let (latest, average) = (s["latest"].as_f64().unwrap(), s["average"].as_f64().unwrap());
        assert_eq!(s["above"], latest >= threshold, "{list}");
        assert_eq!(s["high_avg"], average >= threshold, "{list}");
        assert_eq!(s["spike"], latest >= 1.5 * threshold, "{list}");
        let rule = latest >= threshold || average >= threshold && s["rising"] == true;
        assert_eq!(rule, escalates, "{list}: the table agrees with the rule");
        assert_eq!(s["verdict"], if escalates { "escalate" } else { "calm" }, "{list}");
        assert_eq!(times_ran(&r, "escalate") == 1, escalates, "{list}");
        assert_eq!(times_ran(&r, "log_calm") == 1, !escalates, "{list}");
        if escalates {
            assert_eq!(s["level"], level, "{list}");
            assert_eq!(r["waiting"][0]["node"], "ask_operator", "{list}");
            assert!(text(&r["waiting"][0]["prompt"]).starts_with(&format!("Alert ({level})")), "{list}");
        } else {
            assert_eq!(s["final_status"], "complete", "{list}");
            assert!(text(&s["final_result"]).starts_with("All calm: latest "), "{list}");
        }
        assert_status_map_follows_the_record(&r);
    }
}

/// Readable ends: missing, empty or malformed input (any type, nulls, strings, wrong case, too many
/// readings, a bad threshold or switch) ends the run `failed` with final_status `error`, the reason in
/// final_result, and `check_input` marked error in the status map; nothing is measured.
#[test]
fn step_engine_empty_or_malformed_input_ends_with_a_readable_error() {
    let dir = tmp();
    let too_many: Vec<i64> = (0..=MAX_READINGS as i64).collect();
    let cases: [(Value, &str); 15] = [
        (json!({}), "no readings were given: send a list of numbers"),
        (
            json!({"Readings": [30, 31]}),
            "the input takes readings, threshold and context_available (in lower case), not Readings",
        ),
        (json!({"readings": [1, 2], "round": 5}), "not round"),
        (json!({"readings": null}), "no readings were given"),
        (json!({"readings": []}), "the readings list is empty"),
        (json!({"readings": "12, 15, 18"}), "readings must be a list of numbers, got \"12, 15, 18\""),
        (json!({"readings": 12}), "readings must be a list of numbers, got 12"),
        (json!({"readings": {"a": 1}}), "readings must be a list of numbers, got {\"a\":1}"),
        (json!({"readings": [1, null, 3]}), "reading 2 is null, not a number"),
        (json!({"readings": [1, 2, "3"]}), "reading 3 is \"3\", not a number (numbers are written without quotes"),
        (json!({"readings": [[1], 2]}), "reading 1 is [1], not a number"),
        (json!({"readings": too_many}), "at most 1000 readings can be checked in one run, got 1001"),
        (
            json!({"readings": [1], "threshold": "20"}),
            "the threshold must be a number above 0 and at most 1e12, got \"20\"",
        ),
        (json!({"readings": [1], "threshold": 0}), "the threshold must be a number above 0 and at most 1e12, got 0"),
        (json!({"readings": [1], "context_available": "YES"}), "context_available must be true or false"),
    ];
    for (input, expected) in cases {
        let r = run(dir.path(), STEP_ENGINE, &input, 1).record;
        let s = &r["state"];
        assert_eq!(r["status"], "failed", "{input}");
        assert_eq!(s["final_status"], "error", "{input}");
        let result = text(&s["final_result"]);
        assert!(result.contains(expected), "{input}: {result}");
        assert_eq!(r["error"], json!({"node": "input_rejected", "kind": "ended", "message": result}), "{input}");
        assert_eq!(s["workflow"], json!({"check_input": {"status": "error", "error": result, "last_executed": 1}}));
        assert_eq!(ran(&r), [["check_input"]], "{input}: nothing is measured");
        assert_status_map_follows_the_record(&r);
    }
}

/// Limits: one measure round per reading for any length up to 1000 (the template's check, which its
/// step limit leaves room for), the history still keeping only the last 5.
#[test]
fn step_engine_long_lists_are_measured_in_full_within_the_step_limit() {
    let dir = tmp();
    let max_steps = read_template(STEP_ENGINE)["limits"]["max_steps"].as_u64().expect("a step limit");
    assert!(max_steps >= MAX_READINGS as u64 + 9, "1000 readings and the longest tail of steps fit");
    for n in [30usize, 100] {
        let list: Vec<usize> = (0..n).map(|i| i % 7).collect();
        let r = run(dir.path(), STEP_ENGINE, &json!({"readings": list}), 0).record;
        assert_eq!(r["status"], "completed", "{n}");
        assert_eq!(times_ran(&r, "measure"), n);
        assert_eq!(r["state"]["round"], n);
        assert_eq!(readings(&r).len(), 5, "only the last 5 outputs are kept");
        assert_eq!(r["state"]["window"], json!(list[n - 5..]));
        assert_eq!(r["state"]["final_status"], "complete_with_errors");
    }
    // The longest list, rising to the threshold: it escalates and finishes once answered.
    let list: Vec<usize> = (0..MAX_READINGS).map(|i| i / 50 + 1).collect();
    let first = run(dir.path(), STEP_ENGINE, &json!({"readings": list}), 3);
    assert_eq!(times_ran(&first.record, "measure"), MAX_READINGS);
    assert_eq!(first.record["state"]["window"], json!([20, 20, 20, 20, 20]));
    assert_eq!(first.record["state"]["verdict"], "escalate");
    let done = resume(dir.path(), STEP_ENGINE, &first, &json!({"ask_operator": "ok"}), 0).record;
    assert_eq!(done["status"], "completed");
    assert!(done["step"].as_u64().unwrap() <= max_steps);
    assert_eq!(done["state"]["final_status"], "complete_with_errors");
}

/// Seed: a step awaiting user input takes any answer: text in any case, blank, empty. An answer
/// that is not text is refused (the run stays waiting and can be answered again).
#[test]
fn step_engine_operator_answer_may_be_any_text_or_empty() {
    let dir = tmp();
    let first = run(dir.path(), STEP_ENGINE, &json!({"readings": [5, 5, 31], "context_available": true}), 3);
    assert_eq!(first.record["state"]["level"], "critical");
    for (answer, shown) in [
        ("PAGE THE PLANT ENGINEER", "Operator: PAGE THE PLANT ENGINEER."),
        ("page the plant engineer", "Operator: page the plant engineer."),
        ("", "Operator: (no note)."),
        ("   ", "Operator:    ."),
        ("Stop line 3.\nCall Ana — ünïcode", "Operator: Stop line 3.\nCall Ana — ünïcode."),
    ] {
        let done = resume(dir.path(), STEP_ENGINE, &first, &json!({"ask_operator": answer}), 0).record;
        let s = &done["state"];
        assert_eq!(s["operator_note"], answer);
        assert_eq!(s["final_status"], "complete");
        let result = text(&s["final_result"]);
        assert!(result.starts_with("ALERT (critical): latest 31 (was 5), average 13.666"), "{result}");
        assert!(result.contains(shown), "{result}");
        assert!(result.ends_with("Context: site plant-3, owned by the on-call team."), "{result}");
        assert_eq!(s["workflow"]["ask_operator"]["status"], "complete");
    }
    let out = sy(&["resume", &first.file, "--graph", &template(STEP_ENGINE), "--answer", r#"{"ask_operator": 5}"#]);
    out.assert_bad_input(&["ask_operator", "expected string"]);
    let again = resume(dir.path(), STEP_ENGINE, &first, &json!({"ask_operator": "after all"}), 0).record;
    assert_eq!(again["state"]["operator_note"], "after all");
}

/// Seed: an error in one branch while another continues. The calm decision finishes; the failed
/// lookup is `error` in the status map (at the step it ran, with its message) and in the final
/// result; the closing step waits as `pending` until both branches are in.
#[test]
fn step_engine_failed_lookup_is_an_error_in_the_map_and_the_result_while_the_decision_finishes() {
    let dir = tmp();
    let r = run_full(dir.path(), &json!({"readings": [3, 4, 2, 5]}), 0).record;
    assert_eq!(r["status"], "completed");
    assert_eq!(ran(&r)[7..], [vec!["enrich", "log_calm"], vec!["lookup_failed", "wrap_up"], vec!["wrap_up"]]);
    assert_eq!(r["steps"][8]["state"]["workflow"]["wrap_up"]["status"], "pending", "the lookup was not in yet");
    let s = &r["state"];
    assert_eq!(s["verdict"], "calm");
    assert_eq!(s["message"], "All calm: latest 5 is under the threshold 20; average 3.5 of the last 4.");
    assert_eq!(
        statuses(&r),
        [
            ("assess", "complete"),
            ("check_input", "complete"),
            ("decide", "complete"),
            ("enrich", "error"),
            ("log_calm", "complete"),
            ("lookup_failed", "complete"),
            ("measure", "complete"),
            ("wrap_up", "complete"),
        ]
        .map(|(a, b)| (a.to_string(), b.to_string()))
    );
    assert_eq!(s["workflow"]["enrich"]["last_executed"], 8);
    assert_eq!(s["workflow"]["enrich"]["error"], r["errors"]["enrich"]);
    assert_eq!(s["final_status"], "complete_with_errors");
    assert!(text(&s["final_result"]).contains("No context: node `enrich`, field `script`: context lookup failed"));
    assert_eq!(times_ran(&r, "ask_operator"), 0);
    assert_status_map_follows_the_record(&r);
    // A falling-back average is calm, and says why.
    let r = run_full(dir.path(), &json!({"readings": [40, 10]}), 0).record;
    assert_eq!(
        r["state"]["message"],
        "All calm: latest 10 is under the threshold 20; average 25.0 of the last 2, over the threshold but falling back."
    );
    assert_status_map_follows_the_record(&r);
}

/// Seed: branches run side by side; when the lookup works its branch completes too, and the run is
/// `complete` with the context in the result. A single reading has no earlier one to compare with.
#[test]
fn step_engine_working_lookup_completes_both_branches() {
    let dir = tmp();
    let r = run_full(dir.path(), &json!({"readings": [7], "context_available": true}), 0).record;
    assert_eq!(r["status"], "completed");
    assert_eq!(r["errors"], json!({}));
    assert_eq!(
        ran(&r),
        [
            vec!["check_input"],
            vec!["measure"],
            vec!["assess"],
            vec!["decide"],
            vec!["enrich", "log_calm"],
            vec!["wrap_up"]
        ]
    );
    let s = &r["state"];
    assert_eq!(
        (s["latest"].clone(), s["previous"].clone(), s["change"].clone(), s["rising"].clone()),
        (json!(7), json!(7), json!(0), json!(false))
    );
    assert_eq!(s["context"], json!({"site": "plant-3", "owner": "on-call team"}));
    assert_eq!(s["final_status"], "complete");
    assert_eq!(
        s["final_result"],
        "All calm: latest 7 is under the threshold 20; average 7.0 of the last 1. Context: site plant-3, owned by the on-call team."
    );
    assert!(statuses(&r).iter().all(|(_, status)| status == "complete"), "{:?}", statuses(&r));
    assert_status_map_follows_the_record(&r);
}
