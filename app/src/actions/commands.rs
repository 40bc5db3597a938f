//! The editor's commands carried out: [`carry_out`] is the one place each
//! [`CommandId`] of the command table (`switchyard_ipc::commands`) does its work, whether a key,
//! a native menu item, a toolbar button or the command palette asked; [`can_act`] says whether
//! one can do anything now (the palette shows the others disabled).

use leptos::prelude::*;
use switchyard_ipc::commands::CommandId;

use super::clipboard::{copy_selection, paste_from_clipboard};
use super::{document, exchange, files, navigation, run, settings, tests};
use crate::model::editing::editor::Editor;
use crate::state::{App, Dialog};

/// Does what `command` asks, now.
pub fn carry_out(t: App, command: CommandId) {
    let App { doc, view, run: ctl, ui, .. } = t;
    match command {
        CommandId::New => document::create_graph(t, None),
        CommandId::Open => files::open_file(t),
        CommandId::Import => ui.dialog.set(Some(Dialog::Import)),
        CommandId::Save => save(t),
        CommandId::SaveAs => files::save_as(t),
        CommandId::Export => exchange::export_document(t),
        CommandId::Mermaid => exchange::copy_mermaid(t),
        CommandId::Share => exchange::open_share(t),
        CommandId::Close => close(t),
        CommandId::Undo => {
            doc.edit(|e| e.undo());
        }
        CommandId::Redo => {
            doc.edit(|e| e.redo());
        }
        CommandId::Cut => {
            copy_selection(t);
            delete_selection(t);
        }
        CommandId::Copy => copy_selection(t),
        CommandId::Paste => paste_from_clipboard(t),
        CommandId::Duplicate => {
            doc.edit(|e| e.duplicate());
        }
        CommandId::Delete => delete_selection(t),
        CommandId::SelectAll => navigation::select_all(doc),
        CommandId::Find => ui.dialog.set(Some(Dialog::Search)),
        CommandId::Settings => ui.dialog.set(Some(Dialog::Settings)),
        CommandId::ZoomIn => view.zoom_by(1.25),
        CommandId::ZoomOut => view.zoom_by(0.8),
        CommandId::FitView => view.fit_view(&doc),
        CommandId::AutoLayout => {
            let direction = ui.layout_dir.get_untracked();
            doc.edit(|e| e.auto_layout(direction));
            view.fit_view(&doc);
        }
        CommandId::Theme => settings::toggle_theme(t),
        CommandId::Run => {
            // A run is of the whole document, shown from the top.
            navigation::leave_to(t, 0);
            run::start(t);
        }
        CommandId::Step => run::step(t),
        CommandId::Back => run::back(ctl),
        CommandId::Continue if ctl.playing.get_untracked() || ctl.busy.get_untracked() => run::pause(ctl),
        CommandId::Continue => run::play(t),
        CommandId::Pause => run::pause(ctl),
        CommandId::Reset => run::reset(t),
        CommandId::Tests => tests::toggle_panel(t),
        CommandId::SaveAsTest => tests::ask_name(t),
        CommandId::RunTests => tests::run_tests(t),
        CommandId::CheckTests => tests::check_against_saved_runs(t),
        // The palette's own keys close it again.
        CommandId::Palette if ui.dialog.with_untracked(|d| d == &Some(Dialog::Palette)) => ui.dialog.set(None),
        CommandId::Palette => ui.dialog.set(Some(Dialog::Palette)),
        CommandId::Shortcuts => ui.dialog.set(Some(Dialog::Help)),
    }
}

/// Whether `command` can do anything now, as the toolbar and the run panel enable their
/// buttons (tracked: a view calling it updates).
pub fn can_act(t: App, command: CommandId) -> bool {
    let App { doc, run: ctl, .. } = t;
    let has_view = || ctl.view.with(Option::is_some);
    let selected = || doc.editor.with(|e| !e.selection.is_empty());
    match command {
        CommandId::Undo => doc.editor.with(Editor::can_undo),
        CommandId::Redo => doc.editor.with(Editor::can_redo),
        CommandId::Cut | CommandId::Copy | CommandId::Duplicate | CommandId::Delete => selected(),
        CommandId::Back => ctl.view.with(|v| v.as_ref().is_some_and(|v| v.displayed > 0)),
        CommandId::Step => has_view() && !ctl.busy.get(),
        CommandId::Continue | CommandId::Reset => has_view(),
        CommandId::Pause => ctl.playing.get() || ctl.busy.get(),
        CommandId::SaveAsTest => tests::can_save_run(t),
        CommandId::RunTests | CommandId::CheckTests => {
            !t.tests.busy() && t.tests.suite.with(|s| s.as_ref().is_some_and(|s| !s.cases.is_empty()))
        }
        _ => true,
    }
}

/// Deletes the selection; when the node that had focus goes with it, the canvas takes the
/// focus, not the page.
fn delete_selection(t: App) {
    let on_node = t.platform.get().node_has_focus();
    t.doc.edit(|e| e.delete_selection());
    if on_node {
        navigation::focus_canvas(t.platform);
    }
}

/// Saves now (autosave would shortly), and says so.
fn save(t: App) {
    if document::save_now(t) {
        t.doc.saved_revision.set(t.doc.editor.with_untracked(Editor::revision));
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
