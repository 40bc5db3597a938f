//! Copy and paste of nodes: the system clipboard, and the editor's own last copy (kept by the
//! platform) for when the clipboard cannot be read, or another tab pastes it.

use leptos::prelude::*;

use crate::model::editing::clipboard;
use crate::model::storage::import_cap::check_size;
use crate::platform::PlatformRef;
use crate::state::App;

/// The editor's own last copy.
pub fn own_copy(platform: PlatformRef) -> Option<String> {
    platform.get().own_copy()
}

pub fn paste_text(app: App, text: &str) {
    let App { doc, alerts, .. } = app;
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

pub fn copy_selection(app: App) {
    let App { doc, alerts, .. } = app;
    let Some(fragment) = doc.editor.with_untracked(|e| e.copy()) else { return };
    let text = serde_json::to_string_pretty(&fragment).unwrap_or_default();
    let platform = app.platform.get();
    platform.keep_own_copy(&text);
    platform.write_clipboard(&text);
    alerts.info(format!("Copied {} node{}", fragment.nodes.len(), if fragment.nodes.len() == 1 { "" } else { "s" }));
}

/// Nodes from the system clipboard, else the editor's own last copy (for when the clipboard
/// cannot be read).
pub fn paste_from_clipboard(app: App) {
    let read = app.platform.get().read_clipboard();
    leptos::task::spawn_local(async move {
        let text = match read.await {
            Ok(text) => text.filter(|t| !t.trim().is_empty()).or_else(|| own_copy(app.platform)),
            Err(why) => return app.alerts.error(format!("Nothing pasted: {why}")),
        };
        match text {
            Some(text) => paste_text(app, &text),
            None => app.alerts.error("Nothing to paste: the clipboard is empty"),
        }
    });
}
