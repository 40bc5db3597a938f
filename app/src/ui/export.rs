//! Exporting: the document as a file, and the graph as Mermaid text on the clipboard.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::store::Store;

/// Downloads the open graph's document (pretty, stable key order).
pub fn download_document(store: Store) {
    let (name, text) =
        store.editor.with_untracked(|e| (e.document().display_name().to_string(), e.document().to_pretty_json()));
    let file = format!("{}.json", slug(&name));
    if download(&file, &text, "application/json").is_err() {
        store.error("The browser refused the download.");
    }
}

pub fn copy_mermaid(store: Store) {
    let text = store.editor.with_untracked(|e| engine::to_mermaid(e.document()));
    let _ = window().navigator().clipboard().write_text(&text);
    store.info("Copied the Mermaid flowchart to the clipboard");
}

fn slug(name: &str) -> String {
    let s: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
    let s = s.trim_matches('-').to_string();
    if s.is_empty() { "graph".into() } else { s }
}

fn download(file: &str, text: &str, mime: &str) -> Result<(), wasm_bindgen::JsValue> {
    let parts = js_sys::Array::of1(&text.into());
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    let a: web_sys::HtmlAnchorElement = document().create_element("a")?.dyn_into()?;
    a.set_href(&url);
    a.set_download(file);
    a.click();
    web_sys::Url::revoke_object_url(&url)?;
    Ok(())
}
