//! The desktop app's native menus: each item the editor carries out arrives as a
//! [`switchyard_ipc::MENU_EVENT`] naming a [`CommandId`], and is carried out as its keys, its
//! button or the palette would ([`super::commands::carry_out`]). The menu's shortcut keys
//! reach the menu before the page, so Undo, Cut, Copy, Paste and Select All act on the text
//! field that has focus, if one has, through the web view's own editing commands.

use leptos::ev;
use leptos::prelude::*;
use switchyard_ipc::MENU_EVENT;
use switchyard_ipc::commands::{CommandId, Menu, Scope};
use switchyard_ipc::menu::text_edit;
use wasm_bindgen::JsCast;

use super::commands;
use super::keyboard::typing_in_field;
use crate::state::App;

/// Listens for the app's menu events (none come in the browser, which has no native menus).
pub fn install(t: App) {
    let _ = window_event_listener(ev::Custom::<web_sys::CustomEvent>::new(MENU_EVENT), move |event| {
        let detail = event.dyn_ref::<web_sys::CustomEvent>().and_then(|e| e.detail().as_string());
        if let Some(command) = detail.as_deref().and_then(CommandId::from_id) {
            carry_out(t, command);
        }
    });
}

/// Does what the menu item of `command` asks.
pub fn carry_out(t: App, command: CommandId) {
    if let Some(edit) = text_edit(command)
        && typing_in_field()
    {
        t.platform.get().edit_text(edit);
        return;
    }
    // The menu's keys never reach the page: what is typed in a field is committed here.
    super::drafts::commit_focused(t.platform);
    // A dialog open over the editor takes menu commands that edit the graph no further; the
    // File menu's and those that open a dialog of their own still act.
    let c = command.command();
    let over_dialogs = c.menu == Menu::File || c.scope == Scope::Anywhere;
    if t.ui.dialog.with_untracked(Option::is_some) && !over_dialogs {
        return;
    }
    commands::carry_out(t, command);
}
