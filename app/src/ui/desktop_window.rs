//! Desktop-only behaviour: the window title (file name and an unsaved marker), noticing
//! files changed by other programs when the window regains focus, Open… and Save As….

use leptos::ev;
use leptos::prelude::*;
use serde::Deserialize;
use serde_json::json;

use super::app::load_into;
use super::desktop;
use super::store::{Dialog, Store};

pub fn install(store: Store) {
    Effect::new(move |_| {
        let name = store.editor.with(|e| e.document().display_name().to_string());
        let unsaved = store.editor.with(crate::model::editor::Editor::revision) != store.saved_revision.get();
        let file = store.current.get();
        let file = file.rsplit('/').next().unwrap_or(&file).to_string();
        let title = format!("{}{name} — {file} — Switchyard", if unsaved { "• " } else { "" });
        document().set_title(&title);
        desktop::set_title(title);
    });
    let _ = window_event_listener(ev::focus, move |_| {
        let file = store.current.get_untracked();
        wasm_bindgen_futures::spawn_local(async move {
            if let Some(text) = desktop::changed_on_disk(&file).await
                && store.current.get_untracked() == file
            {
                store.dialog.set(Some(Dialog::FileChanged(text)));
            }
        });
    });
}

/// Opens a graph file the user picks anywhere; it is then saved back to that file.
pub fn open_file(store: Store) {
    #[derive(Deserialize)]
    struct Picked {
        path: String,
        text: String,
    }
    wasm_bindgen_futures::spawn_local(async move {
        match desktop::invoke::<Option<Picked>>("open_file", json!({})).await {
            Ok(Some(p)) => match engine::parse_graph(&p.text) {
                Ok(graph) => {
                    super::app::save_now(store);
                    load_into(store, p.path.clone(), super::library_panel::with_default_layout(graph));
                    store.info(format!("Opened {}", p.path));
                }
                Err(e) => store.error(format!("Could not open {}: {e}. Nothing was changed.", p.path)),
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
    wasm_bindgen_futures::spawn_local(async move {
        match desktop::invoke::<Option<String>>("save_file_as", json!({"suggested": suggested, "text": text})).await {
            Ok(Some(path)) => {
                store.current.set(path.clone());
                store.saved_revision.set(store.editor.with_untracked(crate::model::editor::Editor::revision));
                store.info(format!("Saved as {path}"));
            }
            Ok(None) => {}
            Err(why) => store.error(format!("Could not save: {why}. Your work is kept in this window.")),
        }
    });
}
