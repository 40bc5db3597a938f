//! The editor's actions, natively: the real action functions over the real state, on a fake
//! platform (graphs, runs and preferences in memory; runs on the engine's offline host, in
//! the caller as the page runs them when no worker starts). Each test is a flow a person
//! goes through, checked by what they would see: the graph shown, the alerts, the run's
//! status and step, the run history.

mod fake;

use app::actions::{document, exchange, leave, run};
use app::model::runs::origins::Contact;
use app::state::App;
use engine::Graph;
use engine::run::{Breakpoint, Status};
use fake::{Fake, alerts, settle, start};
use leptos::prelude::*;

fn graph(json: &str) -> Graph {
    engine::parse_graph(json).expect("the test's graph reads")
}

/// start → a → b → c → end, each adding to `n`.
fn counter() -> Graph {
    graph(
        r#"{
        "format": "switchyard/graph@1",
        "name": "Counter",
        "state": { "n": { "type": "integer", "reducer": "add" } },
        "nodes": [
          { "id": "start", "kind": "start" },
          { "id": "a", "kind": "set", "set": { "n": "1" } },
          { "id": "b", "kind": "set", "set": { "n": "10" } },
          { "id": "c", "kind": "set", "set": { "n": "100" } },
          { "id": "end", "kind": "end" }
        ],
        "edges": [ { "from": "start", "to": "a" }, { "from": "a", "to": "b" },
                   { "from": "b", "to": "c" }, { "from": "c", "to": "end" } ]
    }"#,
    )
}

fn shown_name(app: App) -> String {
    app.doc.editor.with_untracked(|e| e.document().display_name().to_string())
}

fn shown_status(app: App) -> Option<(Status, u64)> {
    app.run.view.with_untracked(|v| v.as_ref().map(|v| (v.record.status, v.record.step)))
}

fn state_n(app: App) -> Option<i64> {
    app.run.view.with_untracked(|v| v.as_ref().and_then(|v| v.record.state.get("n").and_then(|n| n.as_i64())))
}

const IMPORTED: &str = r#"{ "format": "switchyard/graph@1", "name": "Imported",
  "nodes": [ { "id": "start", "kind": "start" }, { "id": "end", "kind": "end" } ],
  "edges": [ { "from": "start", "to": "end" } ] }"#;

#[test]
fn import_opens_a_new_graph_and_leaving_it_keeps_it_for_the_next_load() {
    let fake = Fake::with_graphs(&[("counter", counter())]);
    let (app, _owner) = start(&fake, "counter");

    assert!(exchange::import_text(app, IMPORTED, "the pasted text"));
    assert_eq!(shown_name(app), "Imported");
    assert!(alerts(app).contains(&"Imported “Imported” from the pasted text".to_string()), "{:?}", alerts(app));
    let imported = app.doc.current.get_untracked();
    assert_ne!(imported.to_string(), "counter");
    // What was typed in a field was committed before the graph was left.
    assert!(fake.drafts_committed.get() >= 1);

    // Leave it for the first graph, then load it again: it comes back as it was, from storage.
    let mut end = app.doc.editor.with_untracked(|e| e.document().nodes[1].clone());
    end.label = Some("Done".into());
    app.doc.edit(|e| e.update_node("end", end)).expect("the end node takes a label");
    document::open_graph(app, &app::model::storage::doc_id::DocId::Library("counter".into()));
    assert_eq!(shown_name(app), "Counter");
    document::open_graph(app, &imported);
    assert_eq!(shown_name(app), "Imported");
    let label = app.doc.editor.with_untracked(|e| e.document().nodes[1].label.clone());
    assert_eq!(label.as_deref(), Some("Done"));
    // Both graphs are in the library.
    assert_eq!(app.doc.library.with_untracked(|l| l.entries.len()), 2);
}

#[test]
fn an_import_that_cannot_save_the_open_graph_asks_first_and_discarding_goes_on() {
    let fake = Fake::with_graphs(&[("counter", counter())]);
    let (app, _owner) = start(&fake, "counter");
    fake.full.set(true);

    assert!(exchange::import_text(app, IMPORTED, "the pasted text"));
    // The open graph could not be saved: it stays, and the person is asked.
    assert_eq!(shown_name(app), "Counter");
    assert!(app.doc.leaving.with_untracked(Option::is_some));
    assert!(alerts(app).iter().any(|a| a.starts_with("Could not save “Counter”")), "{:?}", alerts(app));

    // Keeping a copy downloads the graph (the browser's Export), then the import goes on.
    leave::keep_copy_and_go(app);
    let downloads = fake.downloads.borrow().clone();
    assert_eq!(downloads.len(), 1);
    assert_eq!(downloads[0].0, "counter.json");
    assert!(graph(&downloads[0].1).nodes.iter().any(|n| n.id == "b"));
    assert_eq!(shown_name(app), "Imported");
    assert!(app.doc.leaving.with_untracked(Option::is_none));
}

#[test]
fn garbled_text_imports_nothing_and_says_where() {
    let fake = Fake::with_graphs(&[("counter", counter())]);
    let (app, _owner) = start(&fake, "counter");
    assert!(!exchange::import_text(app, "{ \"format\": ", "the pasted text"));
    assert_eq!(shown_name(app), "Counter");
    assert!(alerts(app).iter().any(|a| a.starts_with("Could not import the pasted text")), "{:?}", alerts(app));
}

#[test]
fn a_run_stops_at_a_breakpoint_steps_on_finishes_and_lands_in_the_history() {
    let fake = Fake::with_graphs(&[("counter", counter())]);
    let (app, _owner) = start(&fake, "counter");
    app::actions::breakpoints::set(app, "b", Breakpoint::Before, true);
    // Kept with the graph's preferences.
    assert!(fake.preferences.borrow().values().any(|v| v.contains('b')));

    run::start(app);
    settle();
    // Stopped before `b`, after `a` ran.
    assert_eq!(shown_status(app), Some((Status::Interrupted, 1)));
    assert_eq!(state_n(app), Some(1));
    assert!(!app.run.playing.get_untracked());

    // Step: `b` runs, and the run stops there (one step at a time).
    run::step(app);
    settle();
    assert_eq!(shown_status(app), Some((Status::Running, 2)));
    assert_eq!(state_n(app), Some(11));

    // Back shows the step before; Continue plays to the end.
    run::back(app.run);
    assert_eq!(app.run.view.with_untracked(|v| v.as_ref().map(|v| v.displayed)), Some(1));
    run::play(app);
    settle();
    assert_eq!(shown_status(app), Some((Status::Completed, 3)));
    assert_eq!(state_n(app), Some(111));

    // The finished run is saved with the graph and listed in its history.
    let history = app.run.history.get_untracked();
    assert_eq!(history.len(), 1);
    assert_eq!(history[0].status, Status::Completed);
    assert_eq!(history[0].steps, 3);
    let saved = fake.saved_runs("counter");
    assert_eq!(saved.len(), 1);
    assert_eq!(saved[0].record.status, Status::Completed);

    // Reset takes it off display; the history opens it again.
    run::reset(app);
    assert_eq!(shown_status(app), None);
    let id = history[0].run_id.clone();
    run::open_saved(app, &id);
    settle();
    assert_eq!(shown_status(app), Some((Status::Completed, 3)));
}

#[test]
fn a_run_of_an_earlier_version_is_forked_anyway_against_the_graph_as_it_is_now() {
    let fake = Fake::with_graphs(&[("counter", counter())]);
    let (app, _owner) = start(&fake, "counter");
    run::start(app);
    settle();
    assert_eq!(shown_status(app), Some((Status::Completed, 3)));
    let first = app.run.view.with_untracked(|v| v.as_ref().map(|v| v.record.run_id.clone())).unwrap();
    assert!(!app.run.version.with_untracked(|v| v.is_earlier()));

    // The graph changes under the run shown: `c` now adds 1000.
    let mut c = app.doc.editor.with_untracked(|e| e.document().nodes.iter().find(|n| n.id == "c").cloned()).unwrap();
    c.set.as_mut().unwrap().insert("n".into(), "1000".into());
    app.doc.edit(|e| e.update_node("c", c)).expect("`c` takes the new value");
    assert!(app.run.version.with_untracked(|v| v.is_earlier()));
    // Not run on as it is: Step does nothing.
    run::step(app);
    settle();
    assert_eq!(shown_status(app).map(|s| s.1), Some(3));

    // Fork anyway from step 1 (after `a`): a new run of the graph as it is now.
    run::show_step(app.run, 1);
    run::fork_anyway(app);
    settle();
    let forked = app.run.view.with_untracked(|v| v.as_ref().map(|v| v.record.run_id.clone())).unwrap();
    assert_ne!(forked, first);
    assert_eq!(shown_status(app), Some((Status::Completed, 3)));
    assert_eq!(state_n(app), Some(1011));
    assert!(!app.run.version.with_untracked(|v| v.is_earlier()));
    assert!(
        alerts(app).iter().any(|a| a.starts_with(&format!("Forked a new run from step 1 of {first}"))),
        "{:?}",
        alerts(app)
    );
    // Both runs are in the history, the fork newest.
    let history = app.run.history.get_untracked();
    assert_eq!(history.len(), 2);
    assert_eq!(history[0].run_id, forked);
    assert!(history[0].forked_from.as_deref().is_some_and(|f| f.starts_with(&first)));
}

#[test]
fn a_run_that_would_reach_a_new_origin_asks_first_and_remembers_the_answer() {
    let fetcher = graph(
        r#"{ "format": "switchyard/graph@1", "name": "Fetcher",
        "state": { "data": { "type": "any" } },
        "nodes": [ { "id": "start", "kind": "start" },
                   { "id": "fetch", "kind": "http", "url": "https://api.example.com/data", "writes": "data" },
                   { "id": "end", "kind": "end" } ],
        "edges": [ { "from": "start", "to": "fetch" }, { "from": "fetch", "to": "end" } ] }"#,
    );
    let fake = Fake::with_graphs(&[("fetcher", fetcher)]);
    let (app, _owner) = start(&fake, "fetcher");

    run::start(app);
    settle();
    // Nothing ran: the person is asked about the origin first.
    assert_eq!(shown_status(app), None);
    assert_eq!(app.run.new_origins.get_untracked(), Some(vec![Contact::Origin("https://api.example.com".into())]));

    // Cancel: nothing runs, nothing is remembered, and the next Run asks again.
    run::cancel_start(app.run);
    assert_eq!(app.run.new_origins.get_untracked(), None);
    assert_eq!(shown_status(app), None);
    run::start(app);
    assert!(app.run.new_origins.get_untracked().is_some());

    // Run anyway: the run goes (and fails here, where there is no network), and the origin
    // is remembered.
    run::run_anyway(app);
    settle();
    assert_eq!(shown_status(app).map(|s| s.0), Some(Status::Failed));
    assert!(alerts(app).iter().any(|a| a.contains("no network")), "{:?}", alerts(app));
    assert!(fake.preference_has("approved_origins", "https://api.example.com"));

    // The next run does not ask.
    run::start(app);
    settle();
    assert_eq!(app.run.new_origins.get_untracked(), None);
    assert_eq!(app.run.history.get_untracked().len(), 2);
}

#[test]
fn an_edit_is_saved_shortly_after_and_a_failed_save_says_so() {
    let fake = Fake::with_graphs(&[("counter", counter())]);
    let (app, _owner) = start(&fake, "counter");
    document::autosave(app);
    settle();

    let mut a = app.doc.editor.with_untracked(|e| e.document().nodes[1].clone());
    a.label = Some("First".into());
    app.doc.edit(|e| e.update_node("a", a.clone())).expect("`a` takes a label");
    settle();
    let stored = fake.graphs.borrow()["counter"].clone();
    assert_eq!(stored.nodes[1].label.as_deref(), Some("First"));
    assert!(!app.doc.storage_failed.get_untracked());

    // Storage refuses: the work stays in the editor, and the person is told.
    fake.full.set(true);
    a.label = Some("Second".into());
    app.doc.edit(|e| e.update_node("a", a)).expect("`a` takes a label");
    settle();
    assert_eq!(fake.graphs.borrow()["counter"].nodes[1].label.as_deref(), Some("First"));
    assert!(app.doc.storage_failed.get_untracked());
    assert!(alerts(app).iter().any(|m| m.starts_with("Could not save “Counter”")), "{:?}", alerts(app));
    // Closing the page now asks first; once storage works again, it saves and goes.
    assert!(!fake.close_page());
    fake.full.set(false);
    assert!(fake.close_page());
    assert_eq!(fake.graphs.borrow()["counter"].nodes[1].label.as_deref(), Some("Second"));
}
