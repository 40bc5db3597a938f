//! Document actions: starting the editor on the graph last open, opening, creating, saving
//! (and saving shortly after each change), renaming, duplicating and deleting graphs of the
//! library, and reloading a file changed on disk.

use engine::Graph;
use leptos::ev;
use leptos::prelude::*;

use crate::model::doc_id::DocId;
use crate::model::editor::Editor;
use crate::model::geometry::View;
use crate::model::layout::Direction;
use crate::state::Store;

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
        let mut ed = crate::model::editor::Editor::new(graph);
        ed.auto_layout(Direction::LeftToRight);
        graph = ed.graph().clone();
    }
    graph
}

/// Saves the open graph shortly after each change. A failed save keeps the work in memory
/// and says so.
pub fn autosave(store: Store) {
    let saved_revision = store.saved_revision;
    let pending = StoredValue::new(None::<TimeoutHandle>);
    Effect::new(move |_| {
        let revision = store.editor.with(Editor::revision);
        store.current.track();
        if revision == saved_revision.get_untracked() {
            return;
        }
        if let Some(h) = pending.get_value() {
            h.clear();
        }
        let handle = set_timeout_with_handle(
            move || {
                if save_now(store) {
                    saved_revision.set(store.editor.with_untracked(Editor::revision));
                }
            },
            std::time::Duration::from_millis(400),
        )
        .ok();
        pending.set_value(handle);
    });
    // Keep the pan and zoom when the tab closes.
    let _ = window_event_listener(ev::beforeunload, move |_| {
        save_now(store);
    });
}

/// Writes the open graph and the library index now. Returns whether it worked.
pub fn save_now(store: Store) -> bool {
    let view = store.view.get_untracked();
    store.editor.update_untracked(|e| e.set_viewport(view));
    let id = store.current.get_untracked();
    let graph = store.editor.with_untracked(|e| e.document().clone());
    let platform = store.platform.get();
    let result = platform.save_graph(&id, &graph).and_then(|()| {
        // A file opened from elsewhere on the desktop is not part of the library.
        let Some(lib_id) = id.library_id() else { return Ok(()) };
        let mut ok = Ok(());
        store.library.update(|lib| {
            lib.touch(lib_id, graph.display_name(), platform.now());
            ok = platform.save_library(lib);
        });
        ok
    });
    platform.set_preference("current", &id.to_string());
    match result {
        Ok(()) => true,
        Err(why) => {
            store.error(format!(
                "Could not save “{}”: {why}. Your work is kept in this tab; export it to keep a copy.",
                graph.display_name()
            ));
            false
        }
    }
}

/// Opens another saved graph (after saving the current one).
pub fn open_graph(store: Store, id: &DocId) {
    if store.current.with_untracked(|c| c == id) {
        return;
    }
    save_now(store);
    match store.platform.get().load_graph(id) {
        Ok(g) => load_into(store, id.clone(), g),
        Err(why) => store.error(format!("Could not open that graph: {why}")),
    }
}

/// Makes `graph` the open graph under storage id `id`.
pub fn load_into(store: Store, id: DocId, graph: Graph) {
    let viewport = graph.layout.as_ref().and_then(|l| l.viewport.clone());
    store.editor.set(Editor::new(graph));
    store.saved_revision.set(0);
    store.current.set(id);
    match viewport {
        Some(v) => store.view.set(View::from(&v)),
        None => store.fit_view(),
    }
    save_now(store);
}

/// Creates and opens a new graph: a copy of `from`, or a start and an end.
pub fn create_graph(store: Store, from: Option<Graph>) {
    save_now(store);
    let graph = with_default_layout(from.unwrap_or_else(starter_graph));
    let name = store.library.with_untracked(|l| l.unique_name(graph.display_name()));
    let mut graph = graph;
    graph.name = Some(name.clone());
    let id = store.library.with_untracked(|l| store.platform.get().new_id(l, &name));
    load_into(store, id, graph);
}

/// Renames library graph `id` (the open one through its document, so Undo covers it).
pub fn rename_graph(store: Store, id: &str, name: &str) {
    let name = name.trim().to_string();
    if name.is_empty() {
        return;
    }
    let doc = DocId::Library(id.to_string());
    let platform = store.platform.get();
    if store.current.get_untracked() == doc {
        let mut meta = store.editor.with_untracked(|e| crate::model::edit::Meta::of(e.document()));
        meta.name = Some(name.clone());
        store.edit(|e| e.set_document_meta(meta));
    } else if let Ok(mut g) = platform.load_graph(&doc) {
        g.name = Some(name.clone());
        if let Err(why) = platform.save_graph(&doc, &g) {
            store.error(format!("Could not rename: {why}"));
            return;
        }
    }
    store.library.update(|l| l.rename(id, &name));
    let _ = store.library.with_untracked(|l| platform.save_library(l));
}

/// Opens a copy of library graph `id` as a new graph.
pub fn duplicate_graph(store: Store, id: &str) {
    let doc = DocId::Library(id.to_string());
    let graph = if store.current.get_untracked() == doc {
        Ok(store.editor.with_untracked(|e| e.document().clone()))
    } else {
        store.platform.get().load_graph(&doc)
    };
    match graph {
        Ok(g) => create_graph(store, Some(g)),
        Err(why) => store.error(format!("Could not duplicate: {why}")),
    }
}

/// Deletes library graph `id` once the user confirms; the open one is replaced by the newest
/// left (or a new graph).
pub fn delete_graph(store: Store, id: &str) {
    let name = store.library.with_untracked(|l| l.get(id).map(|e| e.name.clone())).unwrap_or_default();
    let ok = window().confirm_with_message(&format!("Delete “{name}”? This cannot be undone.")).unwrap_or(false);
    if !ok {
        return;
    }
    let platform = store.platform.get();
    let doc = DocId::Library(id.to_string());
    platform.delete_graph(&doc);
    store.library.update(|l| l.remove(id));
    let _ = store.library.with_untracked(|l| platform.save_library(l));
    if store.current.get_untracked() == doc {
        let next = store.library.with_untracked(|l| l.entries.first().map(|e| DocId::Library(e.id.clone())));
        match next.and_then(|n| platform.load_graph(&n).ok().map(|g| (n, g))) {
            Some((n, g)) => load_into(store, n, g),
            None => create_graph(store, None),
        }
    }
}

/// Replaces the open graph with `text`, its file's new version on disk (Undo brings ours back).
pub fn reload_from_disk(store: Store, text: &str) {
    match engine::parse_graph(text) {
        Ok(g) => {
            let id = store.current.get_untracked();
            store.edit(|e| e.replace_graph(g));
            store.saved_revision.set(store.editor.with_untracked(Editor::revision));
            store.info(format!("Reloaded {id} from disk (Undo brings your version back)"));
        }
        Err(e) => store.error(format!("The file on disk cannot be read: {e}. Your version is kept.")),
    }
}
