//! Small helpers for adding a row, shared by [`ListEditor`](crate::ui::fields::list_editor::ListEditor) and the
//! forms' own lists (the graph's state fields): a unique element id, a name not yet taken,
//! and focusing the new row.

use std::sync::atomic::{AtomicUsize, Ordering};

use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// A unique suffix for element ids (datalists, groups).
pub fn unique_id(prefix: &str) -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(1);
    format!("{prefix}-{}", NEXT.fetch_add(1, Ordering::Relaxed))
}

pub use crate::model::editing::names::fresh_name;

/// After a row was added, focuses the input matching `selector` and selects its text.
pub fn focus_later(selector: String) {
    request_animation_frame(move || {
        if let Some(el) = document().query_selector(&selector).ok().flatten()
            && let Ok(input) = el.dyn_into::<web_sys::HtmlInputElement>()
        {
            let _ = input.focus();
            input.select();
        }
    });
}

/// After the inspector changed what it shows, focuses the first element matching `selector`
/// (a select, a button…), so a keyboard user carries on from there.
pub fn focus_first(selector: String) {
    request_animation_frame(move || {
        if let Some(el) = document().query_selector(&selector).ok().flatten()
            && let Ok(el) = el.dyn_into::<web_sys::HtmlElement>()
        {
            let _ = el.focus();
        }
    });
}

/// Scrolls `list` so that `row` shows, moving it as little as needed (a listbox's active row
/// kept in view: the command palette's, Compare runs' steps).
pub fn scroll_to_show(list: &web_sys::HtmlElement, row: &web_sys::HtmlElement) {
    let (top, bottom) = (row.offset_top(), row.offset_top() + row.offset_height());
    let (seen_top, height) = (list.scroll_top(), list.client_height());
    if top < seen_top {
        list.set_scroll_top(top);
    } else if bottom > seen_top + height {
        list.set_scroll_top(bottom - height);
    }
}
