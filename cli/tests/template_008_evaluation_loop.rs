//! The 008 evaluation loop template, run through the real `switchyard` binary with inputs a
//! person might type: each test names the rule it protects, checked against a rubric written
//! here independently of the graph.
//!
//! The rules: a writer drafts, a judge scores the draft by a rubric (0.2 for any answer, 0.3
//! for an example, 0.3 for a summary line, 0.2 for 25 words or more) and names the first thing
//! missing; a draft at or above the pass score is accepted; otherwise the writer revises it by
//! the feedback, until `max_rounds` drafts (never more than 10, at least one) have been judged,
//! when the best-scoring draft (the earliest on a tie) is kept.

mod binary;
mod template_run;

use serde_json::{Value, json};
use template_run::*;

const LOOP: &str = "008-evaluation-loop.json";

/// The rubric, as a person reading the template's description would apply it.
fn rubric(draft: &str) -> (f64, &'static str) {
    let lower = draft.to_lowercase();
    let example = lower.contains("for example");
    let summary = lower.contains("in short");
    let long = draft.split(' ').filter(|w| !w.is_empty()).count() >= 25;
    let score = 0.2 + if example { 0.3 } else { 0.0 } + if summary { 0.3 } else { 0.0 } + if long { 0.2 } else { 0.0 };
    let missing = if !example {
        "add an example"
    } else if !summary {
        "add a summary line"
    } else if !long {
        "add more detail"
    } else {
        "none"
    };
    ((score * 100.0_f64).round() / 100.0, missing)
}

/// Every draft the writer made and the verdict the judge gave it, in order.
fn rounds(record: &Value) -> Vec<(String, Value)> {
    let mut drafts = Vec::new();
    let mut out = Vec::new();
    for step in record["steps"].as_array().expect("steps") {
        if let Some(d) = step["updates"]["write"]["draft"].as_str() {
            drafts.push(d.to_string());
        }
        if let Some(review) = step["updates"]["judge"].get("review") {
            out.push((drafts.last().expect("a draft before its review").clone(), review.clone()));
        }
    }
    out
}

fn run_loop(input: Value) -> Value {
    let dir = tmp();
    let stage = run(dir.path(), LOOP, &input, 0);
    assert_eq!(stage.record["status"], "completed", "{input}");
    stage.record
}

/// Inputs a person might type: short, empty, long, with the rubric's words in them, in other
/// scripts, with odd pass scores and round counts.
fn inputs() -> Vec<Value> {
    let tasks = [
        "Explain unit tests",
        "",
        "   ",
        "Give an example, for example of a recipe",
        "In short, what is a graph?",
        "Explain why a long task description with many words in it already reaches the length the rubric asks for without help",
        "Écris un résumé — 説明してください",
    ];
    let mut out = Vec::new();
    for (i, task) in tasks.iter().enumerate() {
        out.push(json!({"task": task}));
        let pass = [0.0, 0.5, 0.75, 0.8, 0.95, 1.0, 1.5][i % 7];
        let max = [1, 2, 3, 5, 0, -3, 100][(i + 3) % 7];
        out.push(json!({"task": task, "pass_score": pass, "max_rounds": max}));
    }
    // A pass score no draft reaches, with more rounds than the cap.
    out.push(json!({"task": "Explain unit tests", "pass_score": 1.5, "max_rounds": 100}));
    out
}

#[test]
fn the_judge_scores_every_draft_by_the_rubric_and_names_what_is_missing() {
    for input in inputs() {
        let record = run_loop(input.clone());
        let rounds = rounds(&record);
        assert!(!rounds.is_empty(), "{input}: at least one draft is judged");
        for (draft, review) in &rounds {
            let (score, missing) = rubric(draft);
            assert_eq!(review["score"].as_f64(), Some(score), "{input}: score of {draft:?}");
            assert_eq!(review["feedback"], missing, "{input}: feedback on {draft:?}");
        }
        let scores: Vec<f64> = rounds.iter().map(|(_, r)| r["score"].as_f64().expect("a score")).collect();
        assert_eq!(record["state"]["scores"], json!(scores), "{input}: every score is kept in order");
        assert_eq!(record["state"]["round"].as_f64(), Some(rounds.len() as f64), "{input}: rounds counted");
    }
}

#[test]
fn a_draft_at_the_pass_score_is_accepted_and_the_loop_stops_at_max_rounds() {
    for input in inputs() {
        let record = run_loop(input.clone());
        let rounds = rounds(&record);
        let pass = input["pass_score"].as_f64().unwrap_or(0.8);
        let max = input["max_rounds"].as_i64().unwrap_or(3).clamp(1, 10) as usize;
        let first_pass = rounds.iter().position(|(_, r)| r["score"].as_f64().expect("a score") >= pass);
        let s = &record["state"];
        match first_pass {
            Some(i) if i < max => {
                assert_eq!(rounds.len(), i + 1, "{input}: stops at the first passing draft");
                assert_eq!(s["final_status"], "accepted", "{input}");
                assert_eq!(s["final_result"], json!(rounds[i].0), "{input}: the accepted draft is the result");
            }
            _ => {
                assert_eq!(rounds.len(), max, "{input}: as many drafts as max_rounds allows");
                assert_eq!(s["final_status"], "best_effort", "{input}");
                let best = rounds
                    .iter()
                    .enumerate()
                    .fold(None::<(usize, f64)>, |best, (i, (_, r))| {
                        let score = r["score"].as_f64().expect("a score");
                        match best {
                            Some((_, b)) if b >= score => best,
                            _ => Some((i, score)),
                        }
                    })
                    .expect("a draft");
                assert_eq!(s["final_result"], json!(rounds[best.0].0), "{input}: the best draft, earliest on a tie");
                assert_eq!(s["best"]["round"].as_f64(), Some(best.0 as f64 + 1.0), "{input}");
            }
        }
    }
}

#[test]
fn the_writer_revises_by_the_feedback_it_was_given() {
    let record = run_loop(json!({"task": "Explain unit tests", "pass_score": 1.0, "max_rounds": 6}));
    let rounds = rounds(&record);
    assert_eq!(rounds.len(), 4, "example, summary and detail are added one round each, then it passes");
    for pair in rounds.windows(2) {
        let (before, review) = &pair[0];
        let (after, _) = &pair[1];
        assert!(after.starts_with(before.as_str()), "a revision keeps the previous draft");
        let added = after[before.len()..].to_lowercase();
        let asked = review["feedback"].as_str().expect("feedback");
        let expected = match asked {
            "add an example" => "for example",
            "add a summary line" => "in short",
            "add more detail" => "in more detail",
            other => panic!("unexpected feedback {other}"),
        };
        assert!(added.contains(expected), "feedback `{asked}` leads to `{expected}` in {added:?}");
    }
}
