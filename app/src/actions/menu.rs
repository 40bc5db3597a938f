//! The desktop app's native menus: each item the editor carries out arrives as a
//! [`switchyard_ipc::MENU_EVENT`] naming a [`MenuAction`], and does what the toolbar, the run
//! panel or the keyboard does for the same command. The menu's shortcut keys reach the menu
//! before the page, so Undo, Cut, Copy, Paste and Select All act on the text field that has
//! focus, if one has, through the web view's own editing commands.

use leptos::ev;
use leptos::prelude::*;
use switchyard_ipc::{MENU_EVENT, MenuAction};
use wasm_bindgen::JsCast;

use super::keyboard::{copy_selection, paste_text, typing_in_field};
use super::{document, exchange, files, navigation, run};
use crate::state::App;

/// Listens for the app's menu events (none come in the browser, which has no native menus).
pub fn install(targets: App) {
    let _ = window_event_listener(ev::Custom::<web_sys::CustomEvent>::new(MENU_EVENT), move |event| {
        let detail = event.dyn_ref::<web_sys::CustomEvent>().and_then(|e| e.detail().as_string());
        if let Some(action) = detail.as_deref().and_then(MenuAction::from_id) {
            carry_out(targets, action);
        }
    });
}

/// Does what `action` asks.
pub fn carry_out(t: App, action: MenuAction) {
    if let Some(edit) = action.text_edit()
        && typing_in_field()
    {
        t.platform.get().edit_text(edit);
        return;
    }
    // The menu's keys never reach the page: what is typed in a field is committed here.
    super::drafts::commit_focused(t.platform);
    // A dialog open over the editor takes menu commands that edit the graph no further.
    let dialog_open = t.ui.dialog.get_untracked().is_some();
    match action {
        MenuAction::New => document::create_graph(t, None),
        MenuAction::Open => files::open_file(t),
        MenuAction::Save => save(t),
        MenuAction::SaveAs => files::save_as(t),
        MenuAction::Export => exchange::export_document(t),
        MenuAction::Close => close(t),
        _ if dialog_open => {}
        MenuAction::Undo => {
            t.doc.edit(|e| e.undo());
        }
        MenuAction::Redo => {
            t.doc.edit(|e| e.redo());
        }
        MenuAction::Cut => {
            copy_selection(t);
            t.doc.edit(|e| e.delete_selection());
        }
        MenuAction::Copy => copy_selection(t),
        MenuAction::Paste => paste_from_clipboard(t),
        MenuAction::SelectAll => navigation::select_all(t.doc),
        MenuAction::Run => {
            navigation::leave_to(t, 0);
            run::start(t);
        }
        MenuAction::Step => run::step(t),
        MenuAction::Back => run::back(t.run),
        MenuAction::Continue => run::play(t),
        MenuAction::Reset => run::reset(t),
    }
}

/// Saves now (autosave would shortly), and says so.
fn save(t: App) {
    if document::save_now(t) {
        t.doc.saved_revision.set(t.doc.editor.with_untracked(crate::model::editor::Editor::revision));
        let name = t.doc.current.with_untracked(ToString::to_string);
        t.alerts.info(format!("Saved {name}"));
    }
}

/// Saves, then closes the window; a save that fails keeps the window open (its message says
/// why, and the work is still there).
fn close(t: App) {
    if document::save_now(t) {
        t.platform.get().close_window();
    }
}

/// Nodes from the system clipboard, else the editor's own last copy (for when the clipboard
/// cannot be read).
fn paste_from_clipboard(t: App) {
    let read = t.platform.get().read_clipboard();
    leptos::task::spawn_local(async move {
        let text = match read.await {
            Ok(text) => text.filter(|t| !t.trim().is_empty()).or_else(|| super::keyboard::own_copy(t.platform)),
            Err(why) => return t.alerts.error(format!("Nothing pasted: {why}")),
        };
        match text {
            Some(text) => paste_text(t, &text),
            None => t.alerts.error("Nothing to paste: the clipboard is empty"),
        }
    });
}
