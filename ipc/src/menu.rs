//! The desktop app's native menus: what each item asks the editor to do. The app names each
//! item by [`MenuAction::id`]; when one is chosen it dispatches [`MENU_EVENT`] in the editor's
//! window with that id as the event's `detail`, and the editor does what its toolbar or run
//! panel does for the same command. Items the app handles itself (Open Recent, the format
//! reference, About) never reach the editor.

use serde::{Deserialize, Serialize};

/// The DOM event (a `CustomEvent` whose `detail` is a [`MenuAction::id`]) for a menu item the
/// editor carries out.
pub const MENU_EVENT: &str = "switchyard-menu";

/// A menu item the editor carries out, named on the wire by [`MenuAction::id`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MenuAction {
    New,
    Open,
    Save,
    SaveAs,
    Export,
    Close,
    Undo,
    Redo,
    Cut,
    Copy,
    Paste,
    SelectAll,
    Run,
    Step,
    Back,
    Continue,
    Reset,
}

impl MenuAction {
    pub const ALL: [MenuAction; 17] = [
        MenuAction::New,
        MenuAction::Open,
        MenuAction::Save,
        MenuAction::SaveAs,
        MenuAction::Export,
        MenuAction::Close,
        MenuAction::Undo,
        MenuAction::Redo,
        MenuAction::Cut,
        MenuAction::Copy,
        MenuAction::Paste,
        MenuAction::SelectAll,
        MenuAction::Run,
        MenuAction::Step,
        MenuAction::Back,
        MenuAction::Continue,
        MenuAction::Reset,
    ];

    /// The menu item's id, and the event's detail.
    pub fn id(self) -> &'static str {
        match self {
            MenuAction::New => "file.new",
            MenuAction::Open => "file.open",
            MenuAction::Save => "file.save",
            MenuAction::SaveAs => "file.save_as",
            MenuAction::Export => "file.export",
            MenuAction::Close => "file.close",
            MenuAction::Undo => "edit.undo",
            MenuAction::Redo => "edit.redo",
            MenuAction::Cut => "edit.cut",
            MenuAction::Copy => "edit.copy",
            MenuAction::Paste => "edit.paste",
            MenuAction::SelectAll => "edit.select_all",
            MenuAction::Run => "run.run",
            MenuAction::Step => "run.step",
            MenuAction::Back => "run.back",
            MenuAction::Continue => "run.continue",
            MenuAction::Reset => "run.reset",
        }
    }

    pub fn from_id(id: &str) -> Option<MenuAction> {
        MenuAction::ALL.into_iter().find(|a| a.id() == id)
    }

    /// The same command for text, when focus is in a text field: the native menu's shortcut
    /// keys reach the menu before the page, so the field's own undo, copy… go through it.
    pub fn text_edit(self) -> Option<TextEdit> {
        match self {
            MenuAction::Undo => Some(TextEdit::Undo),
            MenuAction::Redo => Some(TextEdit::Redo),
            MenuAction::Cut => Some(TextEdit::Cut),
            MenuAction::Copy => Some(TextEdit::Copy),
            MenuAction::Paste => Some(TextEdit::Paste),
            MenuAction::SelectAll => Some(TextEdit::SelectAll),
            _ => None,
        }
    }
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
    fn every_action_is_found_by_its_id_and_ids_differ() {
        for action in MenuAction::ALL {
            assert_eq!(MenuAction::from_id(action.id()), Some(action));
        }
        let mut ids: Vec<_> = MenuAction::ALL.iter().map(|a| a.id()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), MenuAction::ALL.len());
        assert_eq!(MenuAction::from_id("file.quit"), None);
    }
}
