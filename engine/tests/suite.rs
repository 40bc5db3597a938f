//! Tests built from runs (`engine::suite`): every template's run made into a case passes on
//! the unchanged template, and edits that change what a run does fail the right cases,
//! naming where; evaluators, datasets and the suite's own errors.

mod support;

use engine::suite::{
    Case, CaseFailure, Evaluator, GraphRef, ReplayMode, SuiteError, case_from_record, check_case, parse_dataset,
    parse_suite, prepare, run_case, summarize,
};
use engine::{OfflineHost, RunRecord};
use serde_json::{Value, json};
use support::*;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

/// The cases of every template run, by template file: the run's record made into a case.
fn template_cases() -> Vec<(&'static str, Case, RunRecord)> {
    let host = OfflineHost::new();
    template_runs()
        .into_iter()
        .enumerate()
        .map(|(k, t)| {
            let graph = graph_of(&template_text(t.file));
            let record = run_with(plan_of(&graph), &t.input, &t.answers, &host);
            (t.file, case_from_record(&record, &format!("run {k}")), record)
        })
        .collect()
}

/// The suite of the template `file`'s cases, written out and read back.
fn suite_for(file: &str, cases: &[(&'static str, Case, RunRecord)]) -> engine::suite::Suite {
    let graph = graph_of(&template_text(file));
    let mine = cases.iter().filter(|(f, ..)| *f == file).map(|(_, c, _)| c.clone()).collect();
    through_json(&suite_of(&graph, mine))
}

#[test]
fn every_template_run_becomes_a_case_that_passes_on_the_unchanged_template() {
    let cases = template_cases();
    let mut files: Vec<&str> = cases.iter().map(|(f, ..)| *f).collect();
    files.dedup();
    assert_eq!(files.len(), 8, "every template has a run");
    for file in files {
        let suite = suite_for(file, &cases);
        let graph = graph_of(&template_text(file));
        for c in &suite.cases {
            assert!(check_case(c, &plan_of(&graph)).is_empty(), "{file}: {:?}", check_case(c, &plan_of(&graph)));
        }
        for r in run_suite(&suite, &graph) {
            assert!(r.passed, "{file} {}: {}", r.name, failures(&r));
            assert!(!r.record.replies.is_empty() || file.starts_with("001"), "{file}: the run replays its calls");
        }
    }
}

#[test]
fn a_case_holds_the_answers_replies_and_baseline_of_its_run() {
    let cases = template_cases();
    let (_, case, record) = cases.iter().find(|(f, ..)| *f == "003-approval.json").expect("an approval run");
    assert_eq!(case.answers.len(), 1);
    assert_eq!(case.answers[0].node, "get_approval");
    assert_eq!(record.answers.len(), 1);
    assert_eq!(case.expect, vec!["status == \"completed\"".to_string()]);
    let baseline = case.baseline.as_ref().expect("a baseline");
    assert!(baseline.replies.is_empty() && baseline.answers.is_empty());
    assert!(baseline.steps.iter().flatten().all(|s| s.details.is_empty()));
    // The mock model's turn is on the tape, with the rendered prompt in its request.
    let turn = case.replies.iter().find(|r| r.node == "approved_action").expect("the model's turn");
    let prompt = turn.request["messages"][0]["content"].as_str().unwrap_or_default();
    assert!(prompt.contains("two days off"), "{prompt}");
}

#[test]
fn a_changed_router_condition_fails_the_cases_that_took_that_route_naming_the_step() {
    let cases = template_cases();
    let text = template_text("003-approval.json");
    let graph = edited(&text, |g| {
        let route = node_mut(g, "check_approval")["route"]
            .as_str()
            .expect("as the test set it up")
            .replace("d == \"approve\" ||", "d == \"approval\" ||");
        node_mut(g, "check_approval")["route"] = json!(route);
    });
    let results = run_suite(&suite_for("003-approval.json", &cases), &graph);
    let (approve, reject) = (&results[0], &results[1]);
    assert!(reject.passed, "{}", failures(reject));
    assert!(!approve.passed);
    let baseline = cases.iter().find(|(f, ..)| *f == "003-approval.json").expect("as the test set it up").2.clone();
    let routed = baseline
        .steps
        .as_ref()
        .expect("as the test set it up")
        .iter()
        .find(|s| s.ran.contains(&"check_approval".to_string()))
        .expect("as the test set it up");
    assert_eq!(approve.first_difference, Some(routed.step));
    let ended = approve.failures.iter().find(|f| matches!(f, CaseFailure::Ended { .. })).expect("ended unlike");
    assert!(ended.to_string().contains(&format!("step {}", routed.step)), "{ended}");
}

#[test]
fn a_changed_prompt_word_fails_naming_the_node_and_the_path_in_its_model_request() {
    let cases = template_cases();
    let text = template_text("003-approval.json");
    let graph = edited(&text, |g| {
        let n = node_mut(g, "approved_action");
        n["prompt"] = json!(n["prompt"].as_str().expect("as the test set it up").replace("Carry out", "Perform"));
    });
    let results = run_suite(&suite_for("003-approval.json", &cases), &graph);
    assert!(results[1].passed, "the rejection never asks that node: {}", failures(&results[1]));
    let replay = results[0].failures.iter().find_map(|f| match f {
        CaseFailure::Replay { node, message, .. } => Some((node.clone(), message.clone())),
        _ => None,
    });
    let (node, message) = replay.expect("a replay failure");
    assert_eq!(node, "approved_action");
    assert!(message.contains("the model request changed at /messages/0/content"), "{message}");
    assert!(message.contains("Carry out") && message.contains("Perform"), "{message}");
    // The node failed as a model call does.
    assert_eq!(results[0].record.status, engine::Status::Failed);
}

#[test]
fn a_changed_tool_script_fails_at_the_model_call_that_reads_its_result() {
    let cases = template_cases();
    let text = template_text("005-tool-agent.json");
    let graph = edited(&text, |g| {
        let s = g["tools"]["weather"]["run"]["script"]
            .as_str()
            .expect("as the test set it up")
            .replace("temp_c: 14", "temp_c: 15");
        g["tools"]["weather"]["run"]["script"] = json!(s);
    });
    let results = run_suite(&suite_for("005-tool-agent.json", &cases), &graph);
    let r = &results[0];
    assert!(!r.passed);
    let message = failures(r);
    assert!(message.contains("node `agent`: the model request changed at /messages/"), "{message}");
    assert!(r.first_difference.is_some(), "{message}");
}

#[test]
fn a_note_or_a_layout_change_fails_no_case() {
    let cases = template_cases();
    let mut files: Vec<&str> = cases.iter().map(|(f, ..)| *f).collect();
    files.dedup();
    for file in files {
        let graph = edited(&template_text(file), |g| {
            g["nodes"]
                .as_array_mut()
                .expect("as the test set it up")
                .push(json!({"id": "memo_added", "kind": "note", "text": "checked"}));
            if let Some(layout) = g["layout"].as_object_mut() {
                for pos in layout.values_mut() {
                    if let Some(x) = pos.get("x").and_then(Value::as_f64) {
                        pos["x"] = json!(x + 40.0);
                    }
                }
            }
        });
        let suite = suite_for(file, &cases);
        assert!(prepared(&suite, &graph).graph_changed(), "{file}: the note changes the graph's hash");
        for r in run_suite(&suite, &graph) {
            assert!(r.passed, "{file} {}: {}", r.name, failures(&r));
        }
    }
}

#[test]
fn a_reply_or_answer_for_a_node_that_is_gone_is_named_and_fails_the_case() {
    let cases = template_cases();
    let text = template_text("003-approval.json");
    let mut suite = suite_for("003-approval.json", &cases);
    suite.cases[0].replies[0].node = "approved_action_old".into();
    suite.cases[0].answers[0].node = "ask_old".into();
    let graph = graph_of(&text);
    let problems = check_case(&suite.cases[0], &plan_of(&graph));
    let text_of: Vec<String> = problems.iter().map(ToString::to_string).collect();
    assert!(
        text_of.iter().any(|p| p.starts_with("replies[0].node") && p.contains("`approved_action_old`")),
        "{text_of:?}"
    );
    assert!(text_of.iter().any(|p| p.starts_with("answers[0].node") && p.contains("`ask_old`")), "{text_of:?}");
    let results = run_suite(&suite, &graph);
    assert!(!results[0].passed);
    assert!(
        results[0]
            .failures
            .iter()
            .any(|f| matches!(f, CaseFailure::Case { message } if message.contains("approved_action_old")))
    );
    assert!(results[1].passed, "{}", failures(&results[1]));
}

#[test]
fn a_suite_for_another_graph_is_refused_by_name() {
    let cases = template_cases();
    let suite = suite_for("003-approval.json", &cases);
    let other = graph_of(&template_text("005-tool-agent.json"));
    let e = prepare(&suite, &other, &|_| Err("none".into())).expect_err("another graph");
    assert!(matches!(&e, SuiteError::OtherGraph { suite_for, .. } if suite_for == "Approval workflow"));
    assert_eq!(e.to_string(), "the suite is for another graph: \"Approval workflow\", not \"Tool-calling agent\"");
}

const DOUBLER: &str = r#"{
  "format": "switchyard/graph@1", "name": "Doubler",
  "state": { "n": { "type": "number" }, "doubled": { "type": "number" } },
  "nodes": [ { "id": "start", "kind": "start" },
             { "id": "double", "kind": "set", "set": { "doubled": "state.n * 2" } },
             { "id": "end", "kind": "end" } ],
  "edges": [ { "from": "start", "to": "double" }, { "from": "double", "to": "end" } ]
}"#;

/// A judge that scores 1 when the output doubled the input, and fails on n = 2.
const JUDGE: &str = r#"{
  "format": "switchyard/graph@1", "name": "Judge",
  "state": { "input": { "type": "object" }, "output": { "type": "object" }, "score": { "type": "number" },
             "comment": { "type": "string" } },
  "nodes": [ { "id": "start", "kind": "start" },
             { "id": "judge", "kind": "set", "set": {
                 "score": "if state.input.n == 2 { throw \"cannot judge 2\" } else if state.output.doubled == state.input.n * 2 { 1.0 } else { 0.0 }",
                 "comment": "\"checked \" + state.input.n" } },
             { "id": "end", "kind": "end" } ],
  "edges": [ { "from": "start", "to": "judge" }, { "from": "judge", "to": "end" } ]
}"#;

fn doubler_cases() -> Vec<Case> {
    let graph = graph_of(DOUBLER);
    let host = OfflineHost::new();
    (1..=3)
        .map(|n| {
            let record = run_with(plan_of(&graph), &json!({"n": n}), &[], &host);
            let mut case = case_from_record(&record, &format!("n = {n}"));
            case.reference = Some(json!({"doubled": n * 2}));
            case
        })
        .collect()
}

#[test]
fn an_evaluator_graph_that_fails_fails_its_case_by_name_and_the_others_run() {
    let graph = graph_of(DOUBLER);
    let mut suite = suite_of(&graph, doubler_cases());
    suite.evaluators = vec![
        Evaluator {
            name: "exact".into(),
            expression: Some("output.doubled == reference.doubled".into()),
            graph: None,
            threshold: Some(1.0),
        },
        Evaluator {
            name: "judge".into(),
            expression: None,
            graph: Some(GraphRef::Path("judge.json".into())),
            threshold: None,
        },
    ];
    let suite = through_json(&suite);
    let load = |p: &str| if p == "judge.json" { Ok(JUDGE.to_string()) } else { Err(format!("no {p}")) };
    let prepared = prepare(&suite, &graph, &load).expect("prepares");
    let host = OfflineHost::new();
    let plan = plan_of(&graph);
    let results: Vec<_> = suite
        .cases
        .iter()
        .map(|c| pollster::block_on(run_case(plan.clone(), c, &prepared, ReplayMode::Replay, &host)))
        .collect();
    assert!(results[0].passed && results[2].passed, "{} / {}", failures(&results[0]), failures(&results[2]));
    assert!(!results[1].passed);
    let f = results[1].failures.iter().find(|f| matches!(f, CaseFailure::Evaluator { name, .. } if name == "judge"));
    let f = f.expect("the judge is named").to_string();
    assert!(f.starts_with("evaluator `judge`:") && f.contains("cannot judge 2"), "{f}");
    assert_eq!(results[0].scores[1].comment.as_deref(), Some("checked 1"));
    let summary = summarize(&results, &suite);
    assert_eq!((summary.passed, summary.failed), (2, 1));
    let judge = &summary.evaluators[1];
    assert_eq!((judge.name.as_str(), judge.mean, judge.errors), ("judge", Some(1.0), 1));
    assert!((summary.evaluators[0].pass_rate - 1.0).abs() < 1e-9);
}

#[test]
fn expectations_are_checked_and_a_broken_one_is_named() {
    let graph = graph_of(DOUBLER);
    let mut cases = doubler_cases();
    cases[0].expect = vec![
        "state.doubled == 2".into(),
        "steps <= 3 && usage.input_tokens == 0 && input.n == 1".into(),
        "state.doubled == 3".into(),
        "state.doubled".into(),
        "state.doubled ==".into(),
    ];
    let results = run_suite(&suite_of(&graph, cases), &graph);
    let exprs: Vec<(String, String)> = results[0]
        .failures
        .iter()
        .filter_map(|f| match f {
            CaseFailure::Expect { expression, message } => Some((expression.clone(), message.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(exprs.len(), 3, "{exprs:?}");
    assert_eq!(exprs[0], ("state.doubled == 3".into(), "is false".into()));
    assert!(exprs[1].1.contains("not true or false"), "{exprs:?}");
    assert!(exprs[2].1.starts_with("does not compile"), "{exprs:?}");
    assert!(results[0].failures[0].to_string().starts_with("expect `state.doubled == 3`"));
}

#[test]
fn an_evaluator_expression_that_does_not_compile_is_named() {
    let graph = graph_of(DOUBLER);
    let mut suite = suite_of(&graph, doubler_cases());
    suite.evaluators.push(Evaluator {
        name: "broken".into(),
        expression: Some("output.doubled ==".into()),
        graph: None,
        threshold: None,
    });
    let e = prepare(&suite, &graph, &|_| Err("none".into())).expect_err("does not compile");
    assert!(e.to_string().starts_with("evaluator `broken`: `output.doubled ==` does not compile"), "{e}");
}

#[test]
fn datasets_become_cases_and_their_errors_name_the_line() {
    let cases = parse_dataset(
        "{\"input\": {\"n\": 1}, \"reference\": {\"doubled\": 2}}\n\n{\"input\": {\"n\": 5}, \"name\": \"five\"}\n",
    )
    .expect("reads");
    assert_eq!(cases.len(), 2);
    assert_eq!(cases[0].name, "dataset line 1");
    assert_eq!(cases[1].name, "five");
    assert!(cases[1].replies.is_empty() && cases[1].baseline.is_none());
    let e = parse_dataset("{\"input\": {}}\n{\"input\": {}, \"refrence\": 1}\n").expect_err("a typo");
    assert_eq!(e.line, 2);
    assert!(e.to_string().starts_with("dataset line 2: ") && e.to_string().contains("refrence"), "{e}");
    let e = parse_dataset("{\"input\": {}}\n{\"input\": \n").expect_err("broken JSON");
    assert_eq!(e.line, 2, "{e}");
    // A dataset case runs without replies (mock models run) and is scored.
    let graph = graph_of(DOUBLER);
    let results = run_suite(&suite_of(&graph, cases), &graph);
    assert!(results.iter().all(|r| r.passed), "{}", failures(&results[0]));
}

#[test]
fn suites_are_read_strictly_with_the_path_of_a_mistake() {
    let e = parse_suite(
        r#"{"format": "switchyard/tests@1", "graph": {"name": "g"}, "cases": [{"name": "a", "inputs": {}}]}"#,
    )
    .expect_err("a typo");
    assert_eq!(e.path, "cases[0].inputs", "{e}");
    let e = parse_suite(r#"{"format": "switchyard/tests@2", "graph": {"name": "g"}}"#).expect_err("wrong format");
    assert_eq!(e.path, "format");
    let e = parse_suite(r#"{"format": "switchyard/tests@1", "graph": {"name": "g"}, "evaluators": [{"name": "e"}]}"#)
        .expect_err("no expression");
    assert_eq!(e.path, "evaluators[0]");
    let e = parse_suite(
        r#"{"format": "switchyard/tests@1", "graph": {"name": "g"}, "evaluators": [{"name": "e", "graph": {"format": "switchyard/graph@1", "nodez": []}}]}"#,
    )
    .expect_err("a broken inline graph");
    assert!(e.path.starts_with("evaluators[0].graph") && e.message.contains("nodez"), "{e}");
    let e = parse_suite(
        r#"{"format": "switchyard/tests@1", "graph": {"name": "g"}, "cases": [{"name": "a"}, {"name": "a"}]}"#,
    )
    .expect_err("two cases named alike");
    assert_eq!(e.path, "cases[1].name");
    let ok = parse_suite(
        r#"{"format": "switchyard/tests@1", "graph": {"name": "g", "path": "g.json"}, "dataset": "d.jsonl"}"#,
    )
    .expect("a minimal suite");
    assert_eq!(ok.dataset.as_deref(), Some("d.jsonl"));
}

#[test]
fn calls_inside_subgraphs_are_named_by_their_path_and_a_change_there_is_named_so() {
    let cases = template_cases();
    let file = "004-linear-orchestrator.json";
    let suite = suite_for(file, &cases);
    let names: Vec<&str> = suite.cases[0].replies.iter().map(|r| r.node.as_str()).collect();
    assert!(names.contains(&"slot_1/work"), "{names:?}");
    let graph = edited(&template_text(file), |g| {
        let work = g["definitions"]["agent_slot"]["nodes"]
            .as_array_mut()
            .and_then(|ns| ns.iter_mut().find(|n| n["id"] == "work"))
            .expect("the agent's model node");
        work["prompt"] =
            json!(work["prompt"].as_str().expect("a prompt").replace("Collected so far", "Gathered so far"));
    });
    let results = run_suite(&suite, &graph);
    let message = failures(&results[0]);
    assert!(message.contains("node `slot_1/work`: the model request changed at /messages/0/content"), "{message}");
}
