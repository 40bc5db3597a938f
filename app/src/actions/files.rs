//! The window and files anywhere: the window title (on the desktop, the file name and an
//! unsaved marker), noticing files changed by other programs when the window regains focus,
//! Open… and Save As… (where the platform has files).

use super::document::{load_into, save_now, with_default_layout};
use crate::state::{Dialog, Store};
use leptos::ev;
use leptos::prelude::*;

/// The window title, and noticing changes on disk when the window regains focus.
pub fn install(store: Store) {
    Effect::new(move |_| {
        let name = store.editor.with(|e| e.document().display_name().to_string());
        let unsaved = store.editor.with(crate::model::editor::Editor::revision) != store.saved_revision.get();
        let platform = store.platform.get();
        let title = store.current.with(|id| platform.title(&name, id, unsaved));
        platform.set_title(&title);
    });
    if !store.platform.get().has_files() {
        return;
    }
    let _ = window_event_listener(ev::focus, move |_| {
        let file = store.current.get_untracked();
        let check = store.platform.get().changed_on_disk(&file);
        wasm_bindgen_futures::spawn_local(async move {
            if let Some(text) = check.await
                && store.current.get_untracked() == file
            {
                store.dialog.set(Some(Dialog::FileChanged(text)));
            }
        });
    });
}

/// Opens a graph file the user picks anywhere; it is then saved back to that file.
pub fn open_file(store: Store) {
    let picked = store.platform.get().open_file();
    wasm_bindgen_futures::spawn_local(async move {
        match picked.await {
            Ok(Some((id, text))) => match engine::parse_graph(&text) {
                Ok(graph) => {
                    save_now(store);
                    load_into(store, id.clone(), with_default_layout(graph));
                    store.info(format!("Opened {id}"));
                }
                Err(e) => store.error(format!("Could not open {id}: {e}. Nothing was changed.")),
            },
            Ok(None) => {}
            Err(why) => store.error(format!("Could not open a file: {why}")),
        }
    });
}

/// Saves the open graph to a file the user picks; later saves go there.
pub fn save_as(store: Store) {
    let (name, text) =
        store.editor.with_untracked(|e| (e.document().display_name().to_string(), e.document().to_pretty_json()));
    let suggested = store.library.with_untracked(|l| l.fresh_file_name(&name));
    let saving = store.platform.get().save_file_as(suggested, text);
    wasm_bindgen_futures::spawn_local(async move {
        match saving.await {
            Ok(Some(id)) => {
                store.current.set(id.clone());
                store.saved_revision.set(store.editor.with_untracked(crate::model::editor::Editor::revision));
                store.info(format!("Saved as {id}"));
            }
            Ok(None) => {}
            Err(why) => store.error(format!("Could not save: {why}. Your work is kept in this window.")),
        }
    });
}
