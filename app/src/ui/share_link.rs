//! Share links: the compressed document in the URL fragment.

use leptos::prelude::*;

use super::store::{Dialog, Store};
use crate::model::share;

/// Builds the link for the open graph and shows it (and copies it).
pub fn open_share(store: Store) {
    let doc = store.editor.with_untracked(|e| e.document().to_pretty_json());
    let loc = window().location();
    let base = format!("{}{}", loc.origin().unwrap_or_default(), loc.pathname().unwrap_or_default());
    let link = format!("{base}#{}", share::encode(&doc));
    let _ = window().navigator().clipboard().write_text(&link);
    store.dialog.set(Some(Dialog::Share(link)));
}

/// If the page was opened from a share link, imports the graph it carries.
pub fn import_from_location(store: Store) {
    let Ok(hash) = window().location().hash() else { return };
    let Some(result) = share::decode(&hash) else { return };
    // Drop the fragment so a reload does not import it again.
    if let Ok(history) = window().history() {
        let path = window().location().pathname().unwrap_or_default();
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&path));
    }
    match result {
        Ok(doc) => {
            super::import::import_text(store, &doc, "the shared link");
        }
        Err(why) => store.error(format!("Could not open the shared link: {why}. Nothing was changed.")),
    }
}
