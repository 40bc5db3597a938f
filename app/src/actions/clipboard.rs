//! Copy and paste of nodes: the system clipboard, and the editor's own last copy in local
//! storage for when the clipboard cannot be read (or another tab pastes it).

use leptos::prelude::*;

use crate::model::clipboard;
use crate::model::import_cap::check_size;
use crate::platform::PlatformRef;
use crate::state::{Alerts, DocState};

/// Also kept in local storage, so a copy in one tab can be pasted in another even where
/// the system clipboard is not readable.
const CLIPBOARD_KEY: &str = "switchyard.clipboard";

/// The editor's own last copy (kept in local storage).
pub fn own_copy() -> Option<String> {
    use gloo_storage::Storage;
    gloo_storage::LocalStorage::raw().get_item(CLIPBOARD_KEY).ok().flatten()
}

pub fn paste_text(doc: DocState, alerts: Alerts, text: &str) {
    if let Err(why) = check_size("the pasted text", text.len() as u64) {
        return alerts.error(format!("Nothing pasted: {why}"));
    }
    match clipboard::read(text) {
        Ok(fragment) => {
            let ids = doc.edit(|e| e.paste(&fragment, 40.0));
            alerts.info(format!("Pasted {} node{}", ids.len(), if ids.len() == 1 { "" } else { "s" }));
        }
        Err(why) => alerts.error(format!("Nothing pasted: {why}")),
    }
}

pub fn copy_selection(doc: DocState, alerts: Alerts) {
    let Some(fragment) = doc.editor.with_untracked(|e| e.copy()) else { return };
    let text = serde_json::to_string_pretty(&fragment).unwrap_or_default();
    {
        use gloo_storage::Storage;
        let _ = gloo_storage::LocalStorage::raw().set_item(CLIPBOARD_KEY, &text);
    }
    let _ = window().navigator().clipboard().write_text(&text);
    alerts.info(format!("Copied {} node{}", fragment.nodes.len(), if fragment.nodes.len() == 1 { "" } else { "s" }));
}

/// Nodes from the system clipboard, else the editor's own last copy (for when the clipboard
/// cannot be read).
pub fn paste_from_clipboard(doc: DocState, alerts: Alerts, platform: PlatformRef) {
    let read = platform.get().read_clipboard();
    wasm_bindgen_futures::spawn_local(async move {
        let text = match read.await {
            Ok(text) => text.filter(|t| !t.trim().is_empty()).or_else(own_copy),
            Err(why) => return alerts.error(format!("Nothing pasted: {why}")),
        };
        match text {
            Some(text) => paste_text(doc, alerts, &text),
            None => alerts.error("Nothing to paste: the clipboard is empty"),
        }
    });
}
