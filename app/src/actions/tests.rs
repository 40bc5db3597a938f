//! The graph's tests (README, Tests and evaluations): its suite read when the graph opens and saved after each
//! change, a run made a test (Save as test), cases deleted, every case run with its recorded
//! replies (Run tests) or checked on the edited graph (Check against saved runs), a failing
//! case compared with its saved run, suites imported and exported, datasets run, and Stop.
//! Cases run in a worker of their own, one request each, so the page keeps drawing.

use std::rc::Rc;

use engine::host::Host;
use engine::suite::{Case, Suite, case_from_record};
use leptos::prelude::*;
use leptos::task::spawn_local;

use super::compare;
use super::run::refused;
use crate::model::runs::run_service::{Refusal, Reply, Request};
use crate::model::runs::suite_panel::{
    self, Outcome, Pass, add_case, for_the_page, import_dataset, import_suite, read_stored, remove_case, stored_text,
    suggested_name,
};
use crate::model::storage::doc_id::DocId;
use crate::runner::Stopped;
use crate::state::{App, TestsState, tests::Progress};
use engine::run::Status;

/// Reads the open graph's suite whenever another graph opens.
pub fn install(app: App) {
    Effect::new(move |_| {
        app.doc.current.track();
        load(app);
    });
}

/// Reads the open graph's suite from storage, and says what could not be read.
pub fn load(app: App) {
    let App { doc, tests, platform, alerts, .. } = app;
    let id = doc.current.get_untracked();
    clear_outcomes(tests);
    tests.suite.set(None);
    tests.graph.set(Some(id.clone()));
    let stored = platform.get().load_suite(&id);
    spawn_local(async move {
        let text = stored.await;
        // Another graph opened meanwhile: its own load fills the panel.
        if tests.graph.get_untracked().as_ref() != Some(&id) {
            return;
        }
        let text = match text {
            Ok(t) => t,
            Err(why) => {
                alerts.error(format!("Could not read this graph's tests: {why}."));
                None
            }
        };
        let (text, seeded) = match text {
            Some(t) => (Some(t), false),
            None => match take_seed(tests, &id) {
                Some(t) => (Some(t), true),
                None => (None, false),
            },
        };
        let graph = doc.editor.with_untracked(|e| e.document().clone());
        let stored = read_stored(text.as_deref(), &graph);
        for p in &stored.problems {
            alerts.error(p.clone());
        }
        tests.unreadable.set(stored.unreadable);
        tests.damaged.set(stored.damaged);
        tests.unsaved.set(false);
        tests.suite.set(Some(stored.suite));
        if seeded {
            save(app, id);
        }
    });
}

/// Gives the new graph `id` the suite `text` (a gallery template's), stored when the graph's
/// tests are first read.
pub fn give_suite(app: App, id: &DocId, text: String) {
    app.tests.seed.set_value(Some((id.clone(), text)));
}

/// The seed suite, when it is for `id`.
fn take_seed(tests: TestsState, id: &DocId) -> Option<String> {
    let seed = tests.seed.get_value().filter(|(seed_id, _)| seed_id == id)?;
    tests.seed.set_value(None);
    Some(seed.1)
}

fn clear_outcomes(tests: TestsState) {
    tests.outcomes.set(Default::default());
    tests.dataset.set(Vec::new());
    tests.notes.set(Vec::new());
}

/// Keeps the suite in storage; a failed save says so and the suite stays in memory.
fn save(app: App, id: DocId) {
    let App { tests, platform, alerts, .. } = app;
    if let Some(why) = tests.damaged.get_untracked() {
        alerts.error(format!(
            "This graph's stored tests could not be read ({why}), so nothing is saved over them: import a suite to replace them."
        ));
        return;
    }
    let Some(text) =
        tests.suite.with_untracked(|s| s.as_ref().map(|s| stored_text(s, &tests.unreadable.get_untracked())))
    else {
        return;
    };
    let saving = platform.get().save_suite(&id, text);
    spawn_local(async move {
        match saving.await {
            Ok(()) => tests.unsaved.set(false),
            Err(why) => {
                tests.unsaved.set(true);
                alerts.error(format!("Could not save the tests: {why}. They stay here until the page closes."));
            }
        }
    });
}

/// Changes the suite (once it is read) and saves it.
fn change(app: App, f: impl FnOnce(&mut Suite)) {
    let id = app.doc.current.get_untracked();
    if app.tests.graph.get_untracked().as_ref() != Some(&id) || app.tests.suite.with_untracked(Option::is_none) {
        app.alerts.error("This graph's tests are still being read; try again in a moment.");
        return;
    }
    app.tests.suite.update(|s| {
        if let Some(s) = s.as_mut() {
            f(s);
        }
    });
    save(app, id);
}

/// Opens or closes the Tests panel.
pub fn toggle_panel(app: App) {
    let open = !app.tests.open.get_untracked();
    app.tests.open.set(open);
    if open {
        app.platform.get().focus("#tests-panel h2");
    }
}

/// Whether the run shown can become a test: it finished, or waits for an answer.
pub fn can_save_run(app: App) -> bool {
    app.run.view.with(|v| {
        v.as_ref().is_some_and(|v| !matches!(v.record.status, Status::Running))
            && app.run.parents.with(Vec::is_empty)
            && !app.run.busy.get()
    })
}

/// Asks the name for a test made from the run shown, suggesting one from its input.
pub fn ask_name(app: App) {
    if !can_save_run(app) {
        app.alerts.error("Only a run that finished or waits for an answer can become a test.");
        return;
    }
    let input = app.run.view.with_untracked(|v| v.as_ref().map(|v| v.record.input.clone())).unwrap_or_default();
    app.tests.naming.set(Some(suggested_name(&input)));
    app.platform.get().focus("#save-test-name");
}

pub fn cancel_name(app: App) {
    app.tests.naming.set(None);
    app.platform.get().focus(SAVE_BUTTON);
}

/// The run panel's Save as test, where the focus goes back once the name was given or not.
const SAVE_BUTTON: &str = ".save-test button";

/// Makes the run shown a test named `name` (its input, answers, replies and how it ended).
pub fn save_as_test(app: App, name: &str) {
    let Some(record) = app.run.view.with_untracked(|v| v.as_ref().map(|v| v.complete_record())) else { return };
    app.tests.naming.set(None);
    let case = case_from_record(&record, name.trim());
    let mut added = String::new();
    change(app, |s| added = add_case(s, case));
    if !added.is_empty() {
        app.alerts.info(format!("Saved the test “{added}”"));
    }
    app.platform.get().focus(SAVE_BUTTON);
}

pub fn delete_case(app: App, name: &str) {
    change(app, |s| {
        remove_case(s, name);
    });
    app.tests.outcomes.update(|o| {
        o.remove(name);
    });
}

/// Runs every case with its recorded replies: pass or fail.
pub fn run_tests(app: App) {
    run_suite(app, Pass::Run);
}

/// Runs every case on the graph as edited: whether each still ends as its saved run did.
pub fn check_against_saved_runs(app: App) {
    run_suite(app, Pass::Check);
}

fn run_suite(app: App, pass: Pass) {
    let Some(suite) = app.tests.suite.get_untracked() else { return };
    if suite.cases.is_empty() {
        app.alerts.info("This graph has no tests yet: run it, then Save as test.");
        return;
    }
    let cases = suite.cases.clone();
    spawn_local(async move {
        let outcomes = run_cases(app, pass, &suite, cases, false).await;
        let failed = outcomes.iter().filter(|o| !o.passed).count();
        let total = outcomes.len();
        let what = if pass == Pass::Check { "still end the same" } else { "pass" };
        app.alerts.info(format!("{} of {total} tests {what}", total - failed));
    });
}

/// Reads a suite file in place of the graph's suite; a broken one changes nothing.
pub fn import_tests(app: App, text: &str, file: &str) {
    let graph = app.doc.editor.with_untracked(|e| e.document().clone());
    match import_suite(text, &graph) {
        Ok(suite) => {
            let n = suite.cases.len();
            app.tests.damaged.set(None);
            app.tests.unreadable.set(Vec::new());
            clear_outcomes(app.tests);
            change(app, |s| *s = suite);
            app.alerts.info(format!("Imported {} from {file}", engine_words(n)));
        }
        Err(why) => {
            app.alerts.error(format!("The tests in {file} were not imported: {why}. The tests are as they were."))
        }
    }
}

fn engine_words(n: usize) -> String {
    crate::model::editing::words::count(n as u64, "test")
}

/// What a chosen file is read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileUse {
    /// A `switchyard/tests@1` suite, in place of the graph's.
    Suite,
    /// A JSON Lines dataset, run.
    Dataset,
}

/// Reads a chosen file and imports it as `what`.
pub fn import_file(app: App, file: web_sys::File, what: FileUse) {
    let name = format!("“{}”", file.name());
    let reading = app.platform.get().read_file(file);
    spawn_local(async move {
        match (reading.await, what) {
            (Some(text), FileUse::Suite) => import_tests(app, &text, &name),
            (Some(text), FileUse::Dataset) => run_dataset(app, &text, &name),
            (None, _) => app.alerts.error(format!("Could not read {name}. Nothing was changed.")),
        }
    });
}

/// Offers the suite as a `.tests.json` file.
pub fn export_tests(app: App) {
    let Some(text) =
        app.tests.suite.with_untracked(|s| s.as_ref().map(|s| stored_text(s, &app.tests.unreadable.get_untracked())))
    else {
        return;
    };
    let stem = app.doc.editor.with_untracked(|e| engine::Graph::file_stem(e.document().display_name()));
    if let Err(why) = app.platform.get().download(&format!("{stem}.tests.json"), &text, "application/json") {
        app.alerts.error(format!("Could not export the tests: {why}"));
    }
}

/// Runs the rows of a JSON Lines dataset (mock models, or live when asked) and scores them
/// with the suite's evaluators; a line that does not read is named and nothing runs.
pub fn run_dataset(app: App, text: &str, file: &str) {
    let cases = match import_dataset(text) {
        Ok(c) => c,
        Err(why) => {
            app.alerts.error(format!("The dataset {file} was not run: {why}"));
            return;
        }
    };
    let Some(suite) = app.tests.suite.get_untracked() else { return };
    let live = app.tests.live.get_untracked();
    app.tests.dataset.set(Vec::new());
    spawn_local(async move {
        let outcomes = run_cases(app, Pass::Dataset, &suite, cases, live).await;
        app.alerts
            .info(format!("Ran {} of the dataset", crate::model::editing::words::count(outcomes.len() as u64, "row")));
    });
}

/// Stops the pass under way: the case running ends at once, the others do not start.
pub fn stop(app: App) {
    if app.tests.progress.with_untracked(Option::is_none) {
        return;
    }
    app.tests.stopping.set_value(true);
    app.tests.engine.with_value(crate::runner::RunEngine::stop);
}

/// Opens the comparison of a failing case's saved run and the run it made now.
pub fn compare_case(app: App, name: &str) {
    let baseline = app.tests.suite.with_untracked(|s| {
        s.as_ref().and_then(|s| s.cases.iter().find(|c| c.name == name)).and_then(|c| c.baseline.clone())
    });
    let now = app.tests.outcomes.with_untracked(|o| o.get(name).and_then(|o| o.record.clone()));
    match (baseline, now) {
        (Some(a), Some(b)) => compare::open(app, a, *b, ["Saved run".into(), "Edited graph".into()]),
        (None, _) => app.alerts.error(format!("The test “{name}” has no saved run to compare with.")),
        (_, None) => app.alerts.error(format!("The test “{name}” made no run to compare.")),
    }
}

/// Runs `cases` of `suite` in the tests' worker, one request each, showing progress and each
/// outcome as it lands; stops early when Stop is pressed. Returns the outcomes.
async fn run_cases(app: App, pass: Pass, suite: &Suite, cases: Vec<Case>, live: bool) -> Vec<Outcome> {
    let tests = app.tests;
    if tests.progress.with_untracked(Option::is_some) {
        app.alerts.error("Tests are already running: wait for them, or press Stop.");
        return Vec::new();
    }
    let what = match pass {
        Pass::Run => "Running tests",
        Pass::Check => "Checking against saved runs",
        Pass::Dataset => "Running the dataset",
    };
    tests.stopping.set_value(false);
    tests.progress.set(Some(Progress { what, done: 0, total: cases.len() }));
    let (runnable, notes) = for_the_page(suite);
    tests.notes.set(notes);
    let graph = app.doc.editor.with_untracked(|e| e.document().clone());
    let mut outcomes = Vec::new();
    match call(app, Request::PrepareCases { graph: Box::new(graph), suite: Box::new(runnable) }).await {
        Ok(Reply::Prepared) => {}
        Ok(other) => {
            refused(app.alerts, other);
            tests.progress.set(None);
            return outcomes;
        }
        Err(Stopped) => {
            tests.progress.set(None);
            return outcomes;
        }
    }
    for (i, case) in cases.into_iter().enumerate() {
        if tests.stopping.get_value() {
            break;
        }
        let name = case.name.clone();
        let outcome = match call(app, Request::RunCase { case: Box::new(case), live }).await {
            Ok(Reply::Case(result)) => Outcome::of(*result, pass),
            Ok(Reply::Refused(why)) => Outcome::refused(&name, pass, refusal_text(&why)),
            Ok(_) => continue,
            Err(Stopped) => break,
        };
        show(tests, &outcome);
        outcomes.push(outcome);
        tests.progress.set(Some(Progress {
            what,
            done: i + 1,
            total: tests.progress.with_untracked(|p| p.as_ref().map_or(0, |p| p.total)),
        }));
    }
    if tests.stopping.get_value() {
        app.alerts
            .info(format!("Stopped after {}", crate::model::editing::words::count(outcomes.len() as u64, "case")));
    }
    tests.progress.set(None);
    outcomes
}

/// Puts `outcome` where the panel shows it.
fn show(tests: TestsState, outcome: &Outcome) {
    if outcome.pass == Pass::Dataset {
        tests.dataset.update(|d| d.push(outcome.clone()));
    } else {
        tests.outcomes.update(|o| {
            o.insert(outcome.name.clone(), outcome.clone());
        });
    }
}

fn refusal_text(why: &Refusal) -> String {
    match why {
        Refusal::Suite { message } => message.clone(),
        Refusal::Graph { first, .. } => format!("the graph has problems: {first}"),
        other => format!("{other:?}"),
    }
}

/// Sends `request` to the tests' worker, serving its effects with the platform's host.
async fn call(app: App, request: Request) -> Result<Reply, Stopped> {
    let platform = app.platform.get();
    let host: Rc<dyn Host> = Rc::from(platform.host());
    let engine = app.tests.engine.get_value();
    engine.call(request, platform.key_origins(), host).await
}

/// The evaluators' means over the outcomes shown for `pass`.
pub fn means(tests: TestsState, dataset: bool) -> Vec<suite_panel::Mean> {
    if dataset {
        tests.dataset.with(|d| suite_panel::means(d.iter()))
    } else {
        tests.outcomes.with(|o| suite_panel::means(o.values()))
    }
}
