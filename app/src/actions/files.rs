//! The window and files anywhere: the window title (on the desktop, the file name and an
//! unsaved marker), noticing files changed by other programs when the window regains focus,
//! Open… and Save As… (where the platform has files).

use super::document::{load_into, may_leave, with_default_layout};
use crate::model::storage::doc_id::DocId;
use crate::state::{App, Dialog, Leave};
use leptos::prelude::*;

/// The window title, and noticing changes on disk when the window regains focus.
pub fn install(app: App) {
    let App { doc, ui, platform, .. } = app;
    Effect::new(move |_| {
        let name = doc.editor.with(|e| e.document().display_name().to_string());
        // A save that failed later (the desktop writes in the background) leaves it unsaved too.
        let unsaved = doc.editor.with(crate::model::editing::editor::Editor::revision) != doc.saved_revision.get()
            || doc.storage_failed.get();
        let platform = platform.get();
        let title = doc.current.with(|id| platform.title(&name, id, unsaved));
        platform.set_title(&title);
    });
    if !platform.get().has_files() {
        return;
    }
    platform.get().on_focus(Box::new(move || {
        let file = doc.current.get_untracked();
        let check = platform.get().changed_on_disk(&file);
        leptos::task::spawn_local(async move {
            if let Some(text) = check.await
                && doc.current.get_untracked() == file
            {
                ui.dialog.set(Some(Dialog::FileChanged(text)));
            }
        });
    }));
}

/// Opens a graph file the user picks anywhere; it is then saved back to that file.
pub fn open_file(app: App) {
    let App { alerts, platform, .. } = app;
    let picked = platform.get().open_file();
    leptos::task::spawn_local(async move {
        match picked.await {
            Ok(Some((id, text))) => open_text(app, id, &text),
            Ok(None) => {}
            Err(why) => alerts.error(format!("Could not open a file: {why}")),
        }
    });
}

/// Opens the files given to the app from outside (its command line, a second launch): now,
/// when the app says a second launch handed some over, and whenever the window gains focus.
pub fn open_given_files(app: App) {
    let App { alerts, platform, .. } = app;
    if !platform.get().has_files() {
        return;
    }
    let take = move || {
        let given = platform.get().take_opened();
        leptos::task::spawn_local(async move {
            for (id, text) in given.await {
                match text {
                    Ok(text) => open_text(app, id, &text),
                    Err(why) => alerts.error(format!("Could not open {id}: {why}. Nothing was changed.")),
                }
            }
        });
    };
    take();
    platform.get().on_focus(Box::new(take));
    platform.get().on_files_given(Box::new(take));
}

/// Shows the graph in `text`, read from the file `id`, which later saves go to; text that is
/// not a graph opens nothing and says why.
fn open_text(app: App, id: DocId, text: &str) {
    let App { alerts, .. } = app;
    match engine::parse_graph(text) {
        Ok(graph) => {
            let graph = with_default_layout(graph);
            let note = format!("Opened {id}");
            let next = Leave::Load { id: id.clone(), graph: Box::new(graph.clone()), note: Some(note.clone()) };
            if may_leave(app, next) {
                load_into(app, id, graph);
                alerts.info(note);
            }
        }
        Err(e) => alerts.error(format!("Could not open {id}: {e}. Nothing was changed.")),
    }
}

/// Saves the open graph to a file the user picks; later saves go there.
pub fn save_as(app: App) {
    save_as_then(app, || {});
}

/// [`save_as`], then `then` once it is saved.
pub fn save_as_then(app: App, then: impl FnOnce() + 'static) {
    let App { doc, alerts, platform, .. } = app;
    let (name, text) =
        doc.editor.with_untracked(|e| (e.document().display_name().to_string(), e.document().to_pretty_json()));
    let suggested = doc.library.with_untracked(|l| l.fresh_file_name(&name));
    let saving = platform.get().save_file_as(suggested, text);
    leptos::task::spawn_local(async move {
        match saving.await {
            Ok(Some(id)) => {
                doc.current.set(id.clone());
                doc.saved_revision.set(doc.editor.with_untracked(crate::model::editing::editor::Editor::revision));
                doc.storage_failed.set(false);
                alerts.info(format!("Saved as {id}"));
                then();
            }
            Ok(None) => {}
            Err(why) => alerts.error(format!("Could not save: {why}. Your work is kept in this window.")),
        }
    });
}
