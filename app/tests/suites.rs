//! The Tests panel's actions, natively, on the fake platform (README, Tests): a run saved as a
//! test, the tests run with their recorded replies, an edit checked against saved runs, the
//! suite kept with the graph and read back, imports and datasets, and storage failures. Each
//! test is checked by what a person would see: the cases and their status, the alerts, what
//! is stored.

// Shared with the other flows; not every helper is used here.
#[allow(dead_code)]
mod fake;

use app::actions::{run, tests};
use app::model::runs::suite_panel::Pass;
use app::state::App;
use engine::Graph;
use engine::run::Status;
use fake::{Fake, alerts, settle, start};
use leptos::prelude::*;

/// start → ask (a human node) → route (a router on the answer) → yes | no → end; `n` counts.
fn approval() -> Graph {
    engine::parse_graph(
        r#"{
        "format": "switchyard/graph@1",
        "name": "Approval",
        "state": { "n": { "type": "integer", "reducer": "add" }, "decision": { "type": "string" } },
        "nodes": [
          { "id": "start", "kind": "start" },
          { "id": "count", "kind": "set", "set": { "n": "1" } },
          { "id": "ask", "kind": "human", "prompt": "Approve?", "writes": "decision" },
          { "id": "route", "kind": "router", "route": "if state.decision == \"approve\" { \"yes\" } else { \"no\" }" },
          { "id": "yes", "kind": "set", "set": { "n": "10" } },
          { "id": "no", "kind": "set", "set": { "n": "100" } },
          { "id": "end", "kind": "end" }
        ],
        "edges": [ { "from": "start", "to": "count" }, { "from": "count", "to": "ask" }, { "from": "ask", "to": "route" },
                   { "from": "route", "to": "yes", "label": "yes" }, { "from": "route", "to": "no", "label": "no" },
                   { "from": "yes", "to": "end" }, { "from": "no", "to": "end" } ]
    }"#,
    )
    .expect("the test's graph reads")
}

fn shown_status(app: App) -> Option<Status> {
    app.run.view.with_untracked(|v| v.as_ref().map(|v| v.record.status))
}

/// Runs the graph with `input`, answers `answer`, and waits for the end.
fn run_and_answer(app: App, input: &str, answer: &str) {
    app.run.input.set(input.to_string());
    run::start(app);
    settle();
    assert_eq!(shown_status(app), Some(Status::Interrupted), "{:?}", alerts(app));
    run::answer(app, "ask", serde_json::json!(answer));
    settle();
    assert_eq!(shown_status(app), Some(Status::Completed), "{:?}", alerts(app));
}

fn case_names(app: App) -> Vec<String> {
    app.tests
        .suite
        .with_untracked(|s| s.as_ref().map(|s| s.cases.iter().map(|c| c.name.clone()).collect()))
        .unwrap_or_default()
}

fn verdict(app: App, name: &str) -> Option<(Pass, bool, Option<String>)> {
    app.tests.outcomes.with_untracked(|o| o.get(name).map(|o| (o.pass, o.passed, o.reason.clone())))
}

fn ready(fake: &std::rc::Rc<Fake>) -> (App, Owner) {
    let (app, owner) = start(fake, "approval");
    tests::load(app);
    settle();
    (app, owner)
}

#[test]
fn a_run_saved_as_a_test_passes_then_an_edit_to_the_router_fails_it_and_a_move_does_not() {
    let fake = Fake::with_graphs(&[("approval", approval())]);
    let (app, _owner) = ready(&fake);
    run_and_answer(app, r#"{"request": "a new laptop"}"#, "approve");

    tests::ask_name(app);
    assert_eq!(app.tests.naming.get_untracked().as_deref(), Some("request: a new laptop"));
    tests::save_as_test(app, "laptop approved");
    settle();
    assert_eq!(case_names(app), ["laptop approved"]);
    assert!(
        fake.suites.borrow().get("approval").is_some_and(|t| t.contains("laptop approved")),
        "stored with the graph"
    );

    tests::run_tests(app);
    settle();
    assert_eq!(verdict(app, "laptop approved"), Some((Pass::Run, true, None)), "{:?}", alerts(app));

    // The router's condition changes: the same answer now takes the other branch.
    let mut route = app.doc.editor.with_untracked(|e| e.document().node("route").cloned().unwrap());
    let text = serde_json::to_string(&route).unwrap().replace("== \\\"approve\\\"", "== \\\"approved\\\"");
    route = serde_json::from_str(&text).unwrap();
    app.doc.edit(|e| e.update_node("route", route)).unwrap();
    tests::check_against_saved_runs(app);
    settle();
    let (pass, passed, reason) = verdict(app, "laptop approved").unwrap();
    assert_eq!((pass, passed), (Pass::Check, false));
    let reason = reason.unwrap();
    assert!(reason.contains("step"), "the failure names the first differing step: {reason}");
    assert!(app.tests.outcomes.with_untracked(|o| o["laptop approved"].first_difference.is_some()));
    // Compare opens for it (the comparison's own view is another part's).
    tests::compare_case(app, "laptop approved");
    assert!(!alerts(app).iter().any(|a| a.contains("no saved run")), "{:?}", alerts(app));

    // Undone, and a node moved instead: it still ends the same.
    app.doc.edit(|e| e.undo());
    app.doc.edit(|e| e.move_nodes(&[("yes".into(), app::model::editing::geometry::Point { x: 900.0, y: 40.0 })]));
    tests::check_against_saved_runs(app);
    settle();
    assert_eq!(verdict(app, "laptop approved"), Some((Pass::Check, true, None)), "{:?}", alerts(app));
}

#[test]
fn the_suite_comes_back_with_the_graph_and_a_case_is_deleted() {
    let fake = Fake::with_graphs(&[("approval", approval())]);
    {
        let (app, _owner) = ready(&fake);
        run_and_answer(app, r#"{"request": "chairs"}"#, "reject");
        tests::save_as_test(app, "chairs");
        tests::save_as_test(app, "chairs");
        settle();
        assert_eq!(case_names(app), ["chairs", "chairs (2)"]);
    }
    let (app, _owner) = ready(&fake);
    assert_eq!(case_names(app), ["chairs", "chairs (2)"], "read back after a reload");
    tests::delete_case(app, "chairs");
    settle();
    let (again, _o) = ready(&fake);
    assert_eq!(case_names(again), ["chairs (2)"]);
}

#[test]
fn a_broken_suite_file_changes_nothing_and_says_where() {
    let fake = Fake::with_graphs(&[("approval", approval())]);
    let (app, _owner) = ready(&fake);
    run_and_answer(app, r#"{"request": "x"}"#, "approve");
    tests::save_as_test(app, "kept");
    settle();
    let broken =
        r#"{"format": "switchyard/tests@1", "graph": {"name": "Approval"}, "cases": [{"name": "a", "inptu": {}}]}"#;
    tests::import_tests(app, broken, "“bad.tests.json”");
    settle();
    let said = alerts(app);
    assert!(said.iter().any(|a| a.contains("“bad.tests.json” were not imported") && a.contains("cases")), "{said:?}");
    assert_eq!(case_names(app), ["kept"]);

    let other = r#"{"format": "switchyard/tests@1", "graph": {"name": "Other"}, "cases": []}"#;
    tests::import_tests(app, other, "“other.tests.json”");
    assert!(alerts(app).iter().any(|a| a.contains("another graph")), "{:?}", alerts(app));
    assert_eq!(case_names(app), ["kept"]);

    let good = r#"{"format": "switchyard/tests@1", "graph": {"name": "Approval"}, "cases": [{"name": "fresh", "answers": [{"node": "ask", "value": "approve"}], "expect": ["state.n == 11"]}]}"#;
    tests::import_tests(app, good, "“good.tests.json”");
    settle();
    assert_eq!(case_names(app), ["fresh"]);
    tests::run_tests(app);
    settle();
    assert_eq!(verdict(app, "fresh").map(|v| v.1), Some(true), "{:?}", alerts(app));
}

#[test]
fn a_dataset_is_scored_by_the_evaluators_and_a_bad_line_is_named() {
    let fake = Fake::with_graphs(&[("approval", approval())]);
    let suite = r#"{"format": "switchyard/tests@1", "graph": {"name": "Approval"}, "cases": [],
        "evaluators": [{"name": "approved", "expression": "output.decision == reference", "threshold": 1}]}"#;
    fake.suites.borrow_mut().insert("approval".into(), suite.into());
    let (app, _owner) = ready(&fake);

    tests::run_dataset(app, "{\"input\": {}}\n{\"input\": 5}\n", "“rows.jsonl”");
    settle();
    assert!(
        alerts(app).iter().any(|a| a.contains("“rows.jsonl” was not run") && a.contains("line 2")),
        "{:?}",
        alerts(app)
    );
    assert!(app.tests.dataset.with_untracked(Vec::is_empty));

    let rows = [
        r#"{"name": "yes", "input": {}, "answers": [{"node": "ask", "value": "approve"}], "reference": "approve"}"#,
        r#"{"name": "no", "input": {}, "answers": [{"node": "ask", "value": "reject"}], "reference": "approve"}"#,
    ]
    .join("\n");
    tests::run_dataset(app, &rows, "“rows.jsonl”");
    settle();
    let rows = app.tests.dataset.get_untracked();
    assert_eq!(rows.len(), 2, "{:?}", alerts(app));
    assert_eq!(rows[0].scores[0].score, Some(1.0));
    assert_eq!(rows[1].scores[0].score, Some(0.0));
    let means = tests::means(app.tests, true);
    assert_eq!(means[0].mean, Some(0.5));
    assert_eq!((means[0].passed, means[0].scored), (1, 2));
    assert!(app.tests.progress.get_untracked().is_none(), "the pass is over");
}

#[test]
fn stored_tests_that_do_not_read_are_reported_and_never_saved_over() {
    let fake = Fake::with_graphs(&[("approval", approval())]);
    fake.suites.borrow_mut().insert("approval".into(), "{ not a suite".into());
    let (app, _owner) = ready(&fake);
    assert!(alerts(app).iter().any(|a| a.contains("stored tests could not be read")), "{:?}", alerts(app));
    run_and_answer(app, "{}", "approve");
    tests::save_as_test(app, "new");
    settle();
    assert_eq!(fake.suites.borrow()["approval"], "{ not a suite", "left as it was");
}

#[test]
fn a_failed_save_says_so_and_keeps_the_test_in_memory() {
    let fake = Fake::with_graphs(&[("approval", approval())]);
    let (app, _owner) = ready(&fake);
    run_and_answer(app, "{}", "approve");
    fake.full.set(true);
    tests::save_as_test(app, "kept in memory");
    settle();
    assert!(alerts(app).iter().any(|a| a.contains("Could not save the tests")), "{:?}", alerts(app));
    assert_eq!(case_names(app), ["kept in memory"]);
    assert!(app.tests.unsaved.get_untracked());
}
