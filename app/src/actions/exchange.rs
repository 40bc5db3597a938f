//! Documents in and out: importing a graph document from a file or from pasted text (one
//! that cannot be read is reported with where it is wrong, and nothing changes), exporting
//! it as a file or as Mermaid text on the clipboard, and share links carrying the compressed
//! document in the URL fragment.

use leptos::prelude::*;
use web_sys::File;

use engine::Graph;

use super::document::{load_into, may_leave, with_default_layout};
use crate::model::runs::run_import::is_run_record;
use crate::model::storage::export::export_text;
use crate::model::storage::import_cap::check_size;
use crate::model::storage::share;
use crate::state::{App, Dialog, DocState, Leave};

/// Reads `text` as a graph document and opens it as a new graph in the library (after
/// saving the current one, or asking first when that fails); a run record goes into the open
/// graph's run history instead ([`super::run_import`]). Text over the import size limit is
/// refused with its size. Whether it was read.
pub fn import_text(app: App, text: &str, origin: &str) -> bool {
    let App { alerts, .. } = app;
    if let Err(why) = check_size(origin, text.len() as u64) {
        alerts.error(format!("Could not import: {why}. Nothing was changed."));
        return false;
    }
    if is_run_record(text) {
        return super::run_import::import_run(app, text, origin);
    }
    match engine::parse_graph(text) {
        Ok(graph) => {
            let next = Leave::Import { text: text.to_string(), origin: origin.to_string() };
            if may_leave(app, next) {
                open_imported(app, graph, origin);
            }
            true
        }
        Err(e) => {
            alerts.error(format!("Could not import {origin}: {e}. Nothing was changed."));
            false
        }
    }
}

/// Opens an imported graph as a new graph of the library, leaving the current one as it is.
pub fn open_imported(app: App, graph: Graph, origin: &str) {
    let App { doc, alerts, platform, .. } = app;
    let graph = with_default_layout(graph);
    let name = doc.library.with_untracked(|l| l.unique_name(graph.display_name()));
    let mut graph = graph;
    graph.name = Some(name.clone());
    let id = doc.library.with_untracked(|l| platform.get().new_id(l, &name));
    load_into(app, id, graph);
    let problems = doc.diagnostics.with_untracked(|d| d.iter().filter(|x| x.is_error()).count());
    if problems > 0 {
        alerts.info(format!("Imported “{name}” from {origin}, with {problems} problem(s) to fix (see the Inspector)"));
    } else {
        alerts.info(format!("Imported “{name}” from {origin}"));
    }
}

/// Reads a file chosen or dropped by the user, then imports it; a file over the import size
/// limit is refused unread.
pub fn import_file(app: App, file: File) {
    let name = file.name();
    if let Err(why) = check_size(&format!("“{name}”"), file.size() as u64) {
        app.alerts.error(format!("Could not import: {why}. Nothing was changed."));
        return;
    }
    let reading = app.platform.get().read_file(file);
    leptos::task::spawn_local(async move {
        match reading.await {
            Some(text) => {
                import_text(app, &text, &format!("“{name}”"));
            }
            None => app.alerts.error("Could not read that file. Nothing was changed."),
        }
    });
}

/// Export: a copy of the document where the person says (a save dialog on the desktop; the
/// browser's download). The open graph stays where it is saved.
pub fn export_document(app: App) {
    let App { doc, alerts, platform, .. } = app;
    if !platform.get().has_files() {
        return download_document(app);
    }
    let (file, text) = export_file(doc);
    let saving = platform.get().save_file_as(file, text);
    leptos::task::spawn_local(async move {
        match saving.await {
            Ok(Some(id)) => alerts.info(format!("Exported a copy to {id}")),
            Ok(None) => {}
            Err(why) => alerts.error(format!("Could not export: {why}")),
        }
    });
}

/// Downloads the open graph's document (pretty, stable key order, naming its JSON Schema):
/// the browser's Export.
pub fn download_document(app: App) {
    let App { doc, alerts, .. } = app;
    let (file, text) = export_file(doc);
    if app.platform.get().download(&file, &text, "application/json").is_err() {
        alerts.error("The browser refused the download.");
    }
}

/// The exported document's file name (from the graph's name) and text.
fn export_file(doc: DocState) -> (String, String) {
    doc.editor.with_untracked(|e| (format!("{}.json", slug(e.document().display_name())), export_text(e.document())))
}

pub fn copy_mermaid(app: App) {
    let App { doc, alerts, .. } = app;
    let text = doc.editor.with_untracked(|e| engine::to_mermaid(e.document()));
    app.platform.get().write_clipboard(&text);
    alerts.info("Copied the Mermaid flowchart to the clipboard");
}

fn slug(name: &str) -> String {
    let s: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
    let s = s.trim_matches('-').to_string();
    if s.is_empty() { "graph".into() } else { s }
}

/// Builds the link for the open graph and shows it (and copies it).
pub fn open_share(app: App) {
    let App { doc, ui, .. } = app;
    let text = doc.editor.with_untracked(|e| e.document().to_pretty_json());
    let platform = app.platform.get();
    let link = format!("{}#{}", platform.address(), share::encode(&text));
    platform.write_clipboard(&link);
    ui.dialog.set(Some(Dialog::Share(link)));
}

/// If the page was opened from a share link, imports the graph it carries.
pub fn import_from_location(app: App) {
    let App { alerts, platform, .. } = app;
    let Some(result) = share::decode(&platform.get().fragment()) else { return };
    // Drop the fragment so a reload does not import it again.
    platform.get().drop_fragment();
    match result {
        Ok(text) => {
            import_text(app, &text, "the shared link");
        }
        Err(why) => alerts.error(format!("Could not open the shared link: {why}. Nothing was changed.")),
    }
}
