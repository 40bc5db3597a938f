//! The keyboard: each command's keys (from the command table) carried out, Escape, and the
//! page's paste events.

use leptos::ev;
use leptos::prelude::*;
use web_sys::{ClipboardEvent, KeyboardEvent};

use wasm_bindgen::JsCast;

use super::clipboard::{own_copy, paste_text};
use super::commands;
use crate::state::{App, Dialog};
use switchyard_ipc::commands::{CommandId, Press, Scope, command_for};

/// Keys and gestures of the canvas that are not commands (the commands' keys are in the
/// command table), for the Help dialog.
pub const GESTURES: &[(&str, &str)] = &[
    ("Tab, then arrows", "Move between nodes on the canvas (connected nodes first)"),
    ("Alt+arrows", "Move the selected nodes"),
    ("Enter", "Edit the node in focus"),
    ("Shift+F10 / Menu key", "Open the menu of the node in focus (breakpoints, delete…)"),
    ("Escape", "Close the dialog, or clear the selection"),
    ("Shift+drag", "Select with a marquee"),
    ("Drag the background", "Pan"),
    ("Wheel", "Zoom around the pointer"),
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

/// A key press: Escape closes what is open; a command's key carries the command out where
/// its scope lets it (the command table says which keys are whose, per platform).
fn on_key(t: App, ev: &KeyboardEvent) {
    let App { doc, ui, .. } = t;
    // A dialog's own keys (the palette's Escape, Enter and arrows) went no further.
    if ev.cancel_bubble() {
        return;
    }
    let dialog_open = ui.dialog.with_untracked(Option::is_some);
    if ev.key() == "Escape" {
        if ui.dialog.with_untracked(|d| d == &Some(Dialog::Palette)) {
            // The palette closes itself, giving the focus back where it was.
        } else if dialog_open {
            ui.dialog.set(None);
        } else if ui.library_open.get_untracked() {
            ui.library_open.set(false);
        } else {
            doc.edit(|e| e.selection.clear());
        }
        return;
    }
    let press = Press { key: ev.key(), ctrl: ev.ctrl_key() || ev.meta_key(), shift: ev.shift_key(), alt: ev.alt_key() };
    let Some(command) = command_for(t.platform.get().flavour(), &press) else { return };
    let acts = match command.command().scope {
        Scope::Anywhere => true,
        Scope::Editor => !dialog_open,
        Scope::Canvas => !dialog_open && !typing_in_field(),
    };
    if !acts {
        return;
    }
    match command {
        // The paste event that follows carries it out, with the clipboard's text.
        CommandId::Paste => return,
        // The page's own copy goes on too (text selected on the page).
        CommandId::Copy | CommandId::Cut => {}
        _ => ev.prevent_default(),
    }
    commands::carry_out(t, command);
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
