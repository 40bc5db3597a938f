//! The web page the editor draws in, the same in a browser tab and in the desktop app's web
//! view: focus, the clipboard's writes, downloads, the page's address, the window's height
//! and colour scheme, timers, and reading a dropped file. The [`super::Platform`] trait's
//! defaults call these; a fake platform (the native tests) overrides them.

use engine::host::LocalBoxFuture;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Puts keyboard focus on the first element matching `selector` once the page has drawn.
pub fn focus_after_draw(selector: String) {
    request_animation_frame(move || {
        if let Some(el) = document().query_selector(&selector).ok().flatten()
            && let Ok(el) = el.dyn_into::<web_sys::HtmlElement>()
        {
            let _ = el.focus();
        }
    });
}

/// Scrolls the first element matching `selector` to its top once the page has drawn.
pub fn scroll_to_top_after_draw(selector: String) {
    request_animation_frame(move || {
        if let Some(el) = document().query_selector(&selector).ok().flatten() {
            el.set_scroll_top(0);
        }
    });
}

/// Whether the element with keyboard focus is a node on the canvas.
pub fn node_has_focus() -> bool {
    document().active_element().is_some_and(|el| el.has_attribute("data-node-id"))
}

/// Writes `text` to the system clipboard (best effort: the browser may refuse).
pub fn write_clipboard(text: &str) {
    let _ = window().navigator().clipboard().write_text(text);
}

/// The system clipboard's text, when the page may read it.
pub fn read_clipboard() -> LocalBoxFuture<'static, Result<Option<String>, String>> {
    let read = window().navigator().clipboard().read_text();
    Box::pin(async move { Ok(wasm_bindgen_futures::JsFuture::from(read).await.ok().and_then(|v| v.as_string())) })
}

/// The editor's own copy, kept in local storage so a copy in one tab pastes in another.
const OWN_COPY_KEY: &str = "switchyard.clipboard";

pub fn own_copy() -> Option<String> {
    use gloo_storage::Storage;
    gloo_storage::LocalStorage::raw().get_item(OWN_COPY_KEY).ok().flatten()
}

pub fn keep_own_copy(text: &str) {
    use gloo_storage::Storage;
    let _ = gloo_storage::LocalStorage::raw().set_item(OWN_COPY_KEY, text);
}

/// Offers `text` as a file called `file` for the browser to download.
pub fn download(file: &str, text: &str, mime: &str) -> Result<(), wasm_bindgen::JsValue> {
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

/// The page's address without its fragment (what a share link starts with).
pub fn address() -> String {
    let loc = window().location();
    format!("{}{}", loc.origin().unwrap_or_default(), loc.pathname().unwrap_or_default())
}

/// The address's fragment (`#…`, or empty).
pub fn fragment() -> String {
    window().location().hash().unwrap_or_default()
}

/// Drops the address's fragment, so a reload does not see it again.
pub fn drop_fragment() {
    if let Ok(history) = window().history() {
        let path = window().location().pathname().unwrap_or_default();
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&path));
    }
}

/// The window's inner height in CSS pixels.
pub fn window_height() -> f64 {
    window().inner_height().ok().and_then(|h| h.as_f64()).unwrap_or(900.0)
}

/// Whether the system asks for a dark colour scheme.
pub fn prefers_dark() -> bool {
    window().match_media("(prefers-color-scheme: dark)").ok().flatten().is_some_and(|m| m.matches())
}

/// Shows the page in theme `name` (the root element's `data-theme`).
pub fn show_theme(name: &str) {
    if let Some(root) = document().document_element() {
        let _ = root.set_attribute("data-theme", name);
    }
}

/// A future that is ready after `ms` milliseconds (0: after the page had a turn).
pub fn sleep(ms: u32) -> LocalBoxFuture<'static, ()> {
    Box::pin(gloo_timers::future::TimeoutFuture::new(ms))
}

/// Calls `f` whenever the window gains focus, for the life of the page.
pub fn on_window_focus(f: Box<dyn Fn()>) {
    let _ = window_event_listener(leptos::ev::focus, move |_| f());
}

/// Calls `f` whenever the desktop app says files were handed to it (a second launch).
pub fn on_files_given(f: Box<dyn Fn()>) {
    let _ = window_event_listener(
        leptos::ev::Custom::<leptos::ev::Event>::new(switchyard_ipc::FILES_GIVEN_EVENT),
        move |_| f(),
    );
}

/// Calls `keep` as the page is about to close; when it says the work could not be kept, the
/// browser asks the person whether to leave anyway.
pub fn on_page_leave(keep: Box<dyn Fn() -> bool>) {
    let _ = window_event_listener(leptos::ev::beforeunload, move |ev| {
        if !keep() {
            ev.prevent_default();
            ev.set_return_value("Your work could not be saved. Leave anyway?");
        }
    });
}

/// The text of a file the person chose or dropped.
pub fn read_file(file: web_sys::File) -> LocalBoxFuture<'static, Option<String>> {
    let text = file.text();
    Box::pin(async move { wasm_bindgen_futures::JsFuture::from(text).await.ok().and_then(|v| v.as_string()) })
}
