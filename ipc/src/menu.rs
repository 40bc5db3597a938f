//! The desktop app's native menus: built from the editor's [`commands`](crate::commands)
//! table, each item named by its [`CommandId::id`]. When one is chosen the app dispatches
//! [`MENU_EVENT`] in the editor's window with that id as the event's `detail`, and the editor
//! carries the command out. Items the app handles itself (Open Recent, the format reference,
//! About) never reach the editor.

use serde::{Deserialize, Serialize};

use crate::commands::CommandId;

/// The DOM event (a `CustomEvent` whose `detail` is a [`CommandId::id`]) for a menu item the
/// editor carries out.
pub const MENU_EVENT: &str = "switchyard-menu";

/// The same command for text, when focus is in a text field: the native menu's shortcut keys
/// reach the menu before the page, so the field's own undo, copy… go through it.
pub fn text_edit(command: CommandId) -> Option<TextEdit> {
    match command {
        CommandId::Undo => Some(TextEdit::Undo),
        CommandId::Redo => Some(TextEdit::Redo),
        CommandId::Cut => Some(TextEdit::Cut),
        CommandId::Copy => Some(TextEdit::Copy),
        CommandId::Paste => Some(TextEdit::Paste),
        CommandId::SelectAll => Some(TextEdit::SelectAll),
        _ => None,
    }
}

/// One item of the native menus as the desktop app built them (for its end-to-end test to
/// compare with the command palette).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MenuEntry {
    /// The menu's title, without its mnemonic (`File`).
    pub menu: String,
    /// The item's id: a [`CommandId::id`] for the editor's commands.
    pub id: String,
    /// The item's text, `&` before its mnemonic.
    pub text: String,
    /// The accelerator, as Tauri reads it (`CmdOrCtrl+S`).
    pub accelerator: Option<String>,
}

/// An editing command the web view carries out natively in the focused text field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TextEdit {
    Undo,
    Redo,
    Cut,
    Copy,
    Paste,
    SelectAll,
}

impl TextEdit {
    /// WebKit's name for the command.
    pub fn webkit_name(self) -> &'static str {
        match self {
            TextEdit::Undo => "Undo",
            TextEdit::Redo => "Redo",
            TextEdit::Cut => "Cut",
            TextEdit::Copy => "Copy",
            TextEdit::Paste => "Paste",
            TextEdit::SelectAll => "SelectAll",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_editing_commands_have_their_text_edit() {
        assert_eq!(text_edit(CommandId::Cut), Some(TextEdit::Cut));
        assert_eq!(text_edit(CommandId::SelectAll), Some(TextEdit::SelectAll));
        assert_eq!(text_edit(CommandId::Run), None);
    }
}
