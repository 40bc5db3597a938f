//! Nothing typed is lost: what is being typed in a field is committed before anything else
//! can take the field away.
//!
//! Fields keep what is typed as a draft and commit it on `change`, so one edit is one step of
//! undo. The browser fires `change` only when the field loses focus, and that comes *after*
//! the press that moved it: a press on another node has by then replaced the inspector's
//! form, and the draft went with it. So the editor listens before all of its own handlers
//! (the capture phase, on the window) and has the focused field commit first when the person
//! presses anywhere outside it, presses Escape or a shortcut, or leaves the page. A field
//! with a draft says so with `data-draft`; the commit is its own change handler, run by a
//! `change` event sent to it.

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;

/// The focused text field (an input, a textarea or a select), if any.
fn focused_field() -> Option<web_sys::HtmlElement> {
    let el = document().active_element()?;
    let tag = el.tag_name().to_ascii_lowercase();
    if !matches!(tag.as_str(), "input" | "textarea" | "select") {
        return None;
    }
    el.dyn_into().ok()
}

/// The focused field holding a draft, if any.
fn field_with_draft() -> Option<web_sys::HtmlElement> {
    focused_field().filter(|el| el.has_attribute("data-draft"))
}

/// Commits the draft of the focused field, if it has one, as leaving the field would.
pub(super) fn commit_focused() {
    let Some(el) = field_with_draft() else { return };
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    if let Ok(ev) = web_sys::Event::new_with_event_init_dict("change", &init) {
        let _ = el.dispatch_event(&ev);
    }
}

/// Whether `key` with Ctrl (or ⌘) belongs to the text field itself rather than the editor.
fn text_editing_key(key: &str) -> bool {
    matches!(
        key.to_ascii_lowercase().as_str(),
        "z" | "y" | "a" | "c" | "v" | "x" | "arrowleft" | "arrowright" | "home" | "end"
    )
}

/// A press outside the focused field commits it.
fn on_pointer_down(ev: &web_sys::Event) {
    let Some(field) = field_with_draft() else { return };
    let inside = ev.target().and_then(|t| t.dyn_into::<web_sys::Node>().ok()).is_some_and(|t| field.contains(Some(&t)));
    if !inside {
        commit_focused();
    }
}

/// Escape commits the field and leaves it; a shortcut commits the field first, so it acts on
/// what was typed.
fn on_key_down(ev: &web_sys::Event) {
    let Some(ev) = ev.dyn_ref::<web_sys::KeyboardEvent>() else { return };
    let Some(field) = focused_field() else { return };
    let key = ev.key();
    let shortcut = ((ev.ctrl_key() || ev.meta_key()) && !text_editing_key(&key))
        || (key.len() > 1 && key.starts_with('F') && key[1..].chars().all(|c| c.is_ascii_digit()));
    if key == "Escape" {
        // Escape keeps what was typed and leaves the field, then does what it does elsewhere
        // (closes the dialog, or clears the selection).
        commit_focused();
        if field.closest("[role=dialog]").ok().flatten().is_none() {
            let _ = field.blur();
        }
    } else if shortcut {
        commit_focused();
    }
}

/// Installs the listeners, once, for the life of the page.
pub(super) fn install() {
    let window = window();
    for (name, handler) in [("pointerdown", on_pointer_down as fn(&web_sys::Event)), ("keydown", on_key_down)] {
        let listener = Closure::<dyn Fn(web_sys::Event)>::new(move |ev: web_sys::Event| handler(&ev));
        let _ = window.add_event_listener_with_callback_and_bool(name, listener.as_ref().unchecked_ref(), true);
        // The listener lives as long as the page.
        listener.forget();
    }
}
