//! Document actions: starting the editor on the graph last open, opening, creating, saving
//! (and saving shortly after each change), renaming, duplicating and deleting graphs of the
//! library, and reloading a file changed on disk.

use engine::Graph;
use leptos::prelude::*;

use crate::model::editing::editor::Editor;
use crate::model::editing::geometry::View;
use crate::model::editing::layout::Direction;
use crate::model::storage::doc_id::DocId;
use crate::model::storage::shipped_suites;
use crate::state::{App, Dialog, Leave};

/// The graph a first visit starts with.
pub fn starter_graph() -> Graph {
    let mut g = Graph::new("My first workflow");
    if let Some(layout) = g.layout.as_mut() {
        layout.nodes.clear();
    }
    g
}

/// Gives every node a position (by auto layout) when the document has none.
pub fn with_default_layout(mut graph: Graph) -> Graph {
    let missing = graph.nodes.iter().any(|n| graph.layout.as_ref().is_none_or(|l| !l.nodes.contains_key(&n.id)));
    if missing && !graph.nodes.is_empty() {
        let mut ed = crate::model::editing::editor::Editor::new(graph);
        ed.auto_layout(Direction::LeftToRight);
        graph = ed.graph().clone();
    }
    graph
}

/// Saves the open graph shortly after each change. A failed save keeps the work in memory
/// and says so.
pub fn autosave(app: App) {
    let App { doc, .. } = app;
    let saved_revision = doc.saved_revision;
    // Each change waits its turn; only the last one's wait ends in a save.
    let latest = StoredValue::new(0u64);
    Effect::new(move |_| {
        let revision = doc.editor.with(Editor::revision);
        doc.current.track();
        if revision == saved_revision.get_untracked() {
            return;
        }
        latest.update_value(|n| *n += 1);
        let this = latest.get_value();
        let wait = app.platform.get().sleep(400);
        leptos::task::spawn_local(async move {
            wait.await;
            if latest.try_get_value() == Some(this) && save_now(app) {
                saved_revision.set(doc.editor.with_untracked(Editor::revision));
            }
        });
    });
    // Keep the pan and zoom when the tab closes; warn when the work cannot be kept.
    app.platform.get().on_page_leave(Box::new(move || {
        super::drafts::commit_focused(app.platform);
        save_now(app)
    }));
}

/// Writes the open graph and the library index now. Returns whether it worked.
pub fn save_now(app: App) -> bool {
    let App { doc, view, alerts, platform, .. } = app;
    let viewport = view.view.get_untracked();
    doc.editor.update_untracked(|e| e.set_viewport(viewport));
    let id = doc.current.get_untracked();
    let graph = doc.editor.with_untracked(|e| e.document().clone());
    let platform = platform.get();
    let result = platform.save_graph(&id, &graph).and_then(|()| {
        // A file opened from elsewhere on the desktop is not part of the library.
        let Some(lib_id) = id.library_id() else { return Ok(()) };
        let mut ok = Ok(());
        doc.library.update(|lib| {
            lib.touch(lib_id, graph.display_name(), platform.now());
            ok = platform.save_library(lib);
        });
        ok
    });
    platform.set_preference("current", &id.to_string());
    doc.storage_failed.set(result.is_err());
    match result {
        Ok(()) => true,
        Err(why) => {
            alerts.error(format!(
                "Could not save “{}”: {why}. Your work is kept in this tab; export it to keep a copy.",
                graph.display_name()
            ));
            false
        }
    }
}

/// Saves the open graph before it is replaced by `next`; when that fails, keeps it and asks
/// the person first ([`DocState::leaving`]). Whether to go on now.
pub fn may_leave(app: App, next: Leave) -> bool {
    let App { doc, .. } = app;
    super::drafts::commit_focused(app.platform);
    if save_now(app) {
        true
    } else {
        doc.leaving.set(Some(next));
        false
    }
}

/// Opens another saved graph (after saving the current one).
pub fn open_graph(app: App, id: &DocId) {
    let App { doc, alerts, platform, .. } = app;
    if doc.current.with_untracked(|c| c == id) {
        return;
    }
    match platform.get().load_graph(id) {
        Ok(g) => {
            let next = Leave::Load { id: id.clone(), graph: Box::new(g.clone()), note: None };
            if may_leave(app, next) {
                load_into(app, id.clone(), g);
            }
        }
        Err(why) => alerts.error(format!("Could not open that graph: {why}")),
    }
}

/// Makes `graph` the open graph under storage id `id`.
pub fn load_into(app: App, id: DocId, graph: Graph) {
    let App { doc, view, .. } = app;
    let viewport = graph.layout.as_ref().and_then(|l| l.viewport.clone());
    doc.editor.set(Editor::new(graph));
    doc.saved_revision.set(0);
    doc.current.set(id);
    match viewport {
        Some(v) => view.view.set(View::from(&v)),
        None => view.fit_view(&doc),
    }
    save_now(app);
}

/// Creates and opens a new graph: a copy of `from`, or a start and an end (after saving the
/// current one).
pub fn create_graph(app: App, from: Option<Graph>) {
    if may_leave(app, Leave::Create(from.clone().map(Box::new))) {
        create_graph_now(app, from);
    }
}

/// Creates and opens a new graph, leaving the current one as it is.
pub fn create_graph_now(app: App, from: Option<Graph>) {
    let App { doc, platform, .. } = app;
    let graph = with_default_layout(from.unwrap_or_else(starter_graph));
    let name = doc.library.with_untracked(|l| l.unique_name(graph.display_name()));
    let shipped = shipped_suites::suite_for(&graph, &name);
    let mut graph = graph;
    graph.name = Some(name.clone());
    let id = doc.library.with_untracked(|l| platform.get().new_id(l, &name));
    if let Some(suite) = shipped {
        crate::actions::tests::give_suite(app, &id, suite);
    }
    load_into(app, id, graph);
}

/// Renames library graph `id` (the open one through its document, so Undo covers it).
pub fn rename_graph(app: App, id: &str, name: &str) {
    let App { doc, alerts, platform, .. } = app;
    let name = name.trim().to_string();
    if name.is_empty() {
        return;
    }
    let doc_id = DocId::Library(id.to_string());
    let platform = platform.get();
    if doc.current.get_untracked() == doc_id {
        let mut meta = doc.editor.with_untracked(|e| crate::model::editing::edit::Meta::of(e.document()));
        meta.name = Some(name.clone());
        doc.edit(|e| e.set_document_meta(meta));
    } else if let Ok(mut g) = platform.load_graph(&doc_id) {
        g.name = Some(name.clone());
        if let Err(why) = platform.save_graph(&doc_id, &g) {
            alerts.error(format!("Could not rename: {why}"));
            return;
        }
    }
    doc.library.update(|l| l.rename(id, &name));
    let _ = doc.library.with_untracked(|l| platform.save_library(l));
}

/// Opens a copy of library graph `id` as a new graph.
pub fn duplicate_graph(app: App, id: &str) {
    let App { doc, alerts, platform, .. } = app;
    let doc_id = DocId::Library(id.to_string());
    let graph = if doc.current.get_untracked() == doc_id {
        Ok(doc.editor.with_untracked(|e| e.document().clone()))
    } else {
        platform.get().load_graph(&doc_id)
    };
    match graph {
        Ok(g) => create_graph(app, Some(g)),
        Err(why) => alerts.error(format!("Could not duplicate: {why}")),
    }
}

/// Asks whether to delete library graph `id` (the editor's own dialog: a native `confirm()`
/// would freeze the page and cannot be styled or tested).
pub fn ask_delete_graph(app: App, id: &str) {
    let App { doc, ui, .. } = app;
    let name = doc.library.with_untracked(|l| l.get(id).map(|e| e.name.clone())).unwrap_or_default();
    ui.dialog.set(Some(Dialog::ConfirmDelete { id: id.to_string(), name }));
}

/// Deletes library graph `id` (the person said yes); the open one is replaced by the newest
/// left (or a new graph).
pub fn delete_graph(app: App, id: &str) {
    let App { doc, platform, .. } = app;
    let doc_id = DocId::Library(id.to_string());
    let next = {
        let platform = platform.get();
        platform.delete_graph(&doc_id);
        doc.library.update(|l| l.remove(id));
        let _ = doc.library.with_untracked(|l| platform.save_library(l));
        if doc.current.get_untracked() != doc_id {
            return;
        }
        let next = doc.library.with_untracked(|l| l.entries.first().map(|e| DocId::Library(e.id.clone())));
        next.and_then(|n| platform.load_graph(&n).ok().map(|g| (n, g)))
    };
    match next {
        Some((n, g)) => load_into(app, n, g),
        None => create_graph_now(app, None),
    }
}

/// Replaces the open graph with `text`, its file's new version on disk (Undo brings ours back).
pub fn reload_from_disk(app: App, text: &str) {
    let App { doc, alerts, .. } = app;
    match engine::parse_graph(text) {
        Ok(g) => {
            let id = doc.current.get_untracked();
            doc.edit(|e| e.replace_graph(g));
            doc.saved_revision.set(doc.editor.with_untracked(Editor::revision));
            alerts.info(format!("Reloaded {id} from disk (Undo brings your version back)"));
        }
        Err(e) => alerts.error(format!("The file on disk cannot be read: {e}. Your version is kept.")),
    }
}
