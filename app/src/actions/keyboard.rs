//! Keyboard shortcuts, and paste from the system clipboard.

use leptos::ev;
use leptos::prelude::*;
use web_sys::{ClipboardEvent, KeyboardEvent};

use wasm_bindgen::JsCast;

use super::{navigation, run};
use crate::model::clipboard;
use crate::model::import_cap::check_size;
use crate::platform::PlatformRef;
use crate::state::{App, Dialog};

/// Every shortcut, for the help panel.
pub const SHORTCUTS: &[(&str, &str)] = &[
    ("Delete / Backspace", "Delete the selection"),
    ("Ctrl+Z", "Undo"),
    ("Ctrl+Shift+Z / Ctrl+Y", "Redo"),
    ("Ctrl+C", "Copy the selected nodes"),
    ("Ctrl+V", "Paste nodes (also from another tab)"),
    ("Ctrl+D", "Duplicate the selection"),
    ("Ctrl+A", "Select every node"),
    ("Ctrl+K", "Find a node"),
    ("Tab, then arrows", "Move between nodes on the canvas (connected nodes first)"),
    ("Alt+arrows", "Move the selected nodes"),
    ("Enter", "Edit the node in focus"),
    ("F5 / Ctrl+Enter", "Run"),
    ("F10", "Step"),
    ("F9", "Back one step"),
    ("F8", "Continue, or pause a run that plays"),
    ("Shift+F5", "Reset the run"),
    ("F", "Fit the view to the graph"),
    ("+ / -", "Zoom in / out"),
    ("Shift+drag", "Select with a marquee"),
    ("Drag the background", "Pan"),
    ("Wheel", "Zoom around the pointer"),
    ("Escape", "Close the dialog, or clear the selection"),
    ("?", "Show this help"),
];

pub fn install(t: App) {
    let _ = window_event_listener(ev::keydown, move |ev: KeyboardEvent| on_key(t, &ev));
    let _ = window_event_listener(ev::paste, move |ev: ClipboardEvent| {
        if typing_in_field() {
            return;
        }
        let text = ev.clipboard_data().and_then(|d| d.get_data("text/plain").ok()).filter(|t| !t.trim().is_empty());
        let text = text.or_else(|| own_copy(t.platform));
        if let Some(text) = text {
            ev.prevent_default();
            paste_text(t, &text);
        }
    });
}

/// The editor's own last copy (kept in local storage).
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

/// The run commands' keys, as the desktop app's Run menu has them (F5 would reload the page:
/// the editor takes it while it has focus), and Ctrl+Enter, which works in the Input too.
fn run_key(t: App, ev: &KeyboardEvent) -> bool {
    let App { run: ctl, .. } = t;
    let ctrl = ev.ctrl_key() || ev.meta_key();
    match (ev.key().as_str(), ev.shift_key(), ctrl) {
        ("F5", false, false) | ("Enter", false, true) => {
            navigation::leave_to(t, 0);
            run::start(t);
        }
        ("F5", true, false) => run::reset(t),
        ("F10", false, false) => run::step(t),
        ("F9", false, false) => run::back(ctl),
        ("F8", false, false) if ctl.playing.get_untracked() || ctl.busy.get_untracked() => run::pause(ctl),
        ("F8", false, false) => run::play(t),
        _ => return false,
    }
    true
}

fn on_key(t: App, ev: &KeyboardEvent) {
    let App { doc, view, ui, .. } = t;
    let key = ev.key();
    let ctrl = ev.ctrl_key() || ev.meta_key();
    if ui.dialog.get_untracked().is_none() && run_key(t, ev) {
        ev.prevent_default();
        return;
    }
    if key == "Escape" {
        if ui.dialog.get_untracked().is_some() {
            ui.dialog.set(None);
        } else if ui.library_open.get_untracked() {
            ui.library_open.set(false);
        } else {
            doc.edit(|e| e.selection.clear());
        }
        return;
    }
    if ctrl && key.eq_ignore_ascii_case("k") {
        ev.prevent_default();
        ui.dialog.set(Some(Dialog::Search));
        return;
    }
    if typing_in_field() || ui.dialog.get_untracked().is_some() {
        return;
    }
    match (ctrl, ev.shift_key(), key.as_str()) {
        (false, _, "Delete" | "Backspace") => {
            ev.prevent_default();
            let on_node = t.platform.get().node_has_focus();
            doc.edit(|e| e.delete_selection());
            // The node that had focus is gone: the canvas takes it, not the page.
            if on_node {
                navigation::focus_canvas(t.platform);
            }
        }
        (true, false, "z" | "Z") => {
            ev.prevent_default();
            doc.edit(|e| e.undo());
        }
        (true, true, "z" | "Z") | (true, _, "y" | "Y") => {
            ev.prevent_default();
            doc.edit(|e| e.redo());
        }
        (true, _, "c" | "C") => copy_selection(t),
        (true, _, "d" | "D") => {
            ev.prevent_default();
            doc.edit(|e| e.duplicate());
        }
        (true, _, "a" | "A") => {
            ev.prevent_default();
            navigation::select_all(doc);
        }
        (false, _, "f" | "F") => view.fit_view(&doc),
        (false, _, "+" | "=") => view.zoom_by(1.25),
        (false, _, "-" | "_") => view.zoom_by(0.8),
        (false, _, "?") => ui.dialog.set(Some(Dialog::Help)),
        _ => {}
    }
}

/// Whether keyboard focus is in a text field (shortcuts then belong to the field).
pub fn typing_in_field() -> bool {
    document()
        .active_element()
        .map(|el| {
            let tag = el.tag_name().to_ascii_lowercase();
            tag == "input"
                || tag == "textarea"
                || tag == "select"
                || el.dyn_ref::<web_sys::HtmlElement>().is_some_and(|h| h.is_content_editable())
        })
        .unwrap_or(false)
}
