//! Importing a graph document from a file or from pasted text. A document that cannot be
//! read is reported with where it is wrong, and nothing changes.

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{File, FileReader};

use super::app::{load_into, save_now};
use super::store::Store;

/// Reads `text` as a graph document and opens it as a new graph in the library.
pub fn import_text(store: Store, text: &str, origin: &str) -> bool {
    match engine::parse_graph(text) {
        Ok(graph) => {
            save_now(store);
            let graph = super::library_panel::with_default_layout(graph);
            let name = store.library.with_untracked(|l| l.unique_name(graph.display_name()));
            let mut graph = graph;
            graph.name = Some(name.clone());
            let id = store.library.with_untracked(|l| store.platform.get().new_id(l, &name));
            load_into(store, id, graph);
            let problems = store.diagnostics.with_untracked(|d| d.iter().filter(|x| x.is_error()).count());
            if problems > 0 {
                store.info(format!(
                    "Imported “{name}” from {origin}, with {problems} problem(s) to fix (see the Inspector)"
                ));
            } else {
                store.info(format!("Imported “{name}” from {origin}"));
            }
            true
        }
        Err(e) => {
            store.error(format!("Could not import {origin}: {e}. Nothing was changed."));
            false
        }
    }
}

/// Reads a file chosen or dropped by the user, then imports it.
pub fn import_file(store: Store, file: File) {
    let name = file.name();
    let Ok(reader) = FileReader::new() else { return };
    let r = reader.clone();
    let onload = Closure::once(move || {
        let text = r.result().ok().and_then(|v| v.as_string()).unwrap_or_default();
        import_text(store, &text, &format!("“{name}”"));
    });
    reader.set_onload(Some(onload.as_ref().unchecked_ref()));
    onload.forget();
    if reader.read_as_text(&file).is_err() {
        store.error("Could not read that file. Nothing was changed.");
    }
}
