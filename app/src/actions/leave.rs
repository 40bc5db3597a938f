//! Leaving a graph whose work could not be saved: the person was asked
//! ([`DocState::leaving`]) and answers by keeping a copy elsewhere (Export in the browser,
//! Save As… on the desktop) and going on, discarding the work and going on, or cancelling.

use leptos::prelude::*;

use super::document::{create_graph_now, load_into};
use super::exchange::{download_document, open_imported};
use super::files::save_as_then;
use crate::platform::PlatformRef;
use crate::state::{App, DocState, Leave};

/// Whether the platform saves elsewhere with Save As… (else with Export).
pub fn saves_as(platform: PlatformRef) -> bool {
    platform.get().has_files()
}

/// Keeps a copy of the open graph elsewhere, then does what was waiting.
pub fn keep_copy_and_go(app: App) {
    let App { platform, .. } = app;
    if saves_as(platform) {
        save_as_then(app, move || go_on(app));
    } else {
        download_document(app);
        go_on(app);
    }
}

/// Drops the unsaved work and does what was waiting.
pub fn discard_and_go(app: App) {
    go_on(app);
}

/// Stays on the open graph, its work as it is.
pub fn stay(doc: DocState) {
    doc.leaving.set(None);
}

fn go_on(app: App) {
    let App { doc, alerts, .. } = app;
    let Some(next) = doc.leaving.get_untracked() else { return };
    doc.leaving.set(None);
    doc.storage_failed.set(false);
    match next {
        Leave::Load { id, graph, note } => {
            load_into(app, id, *graph);
            if let Some(n) = note {
                alerts.info(n);
            }
        }
        Leave::Create(from) => create_graph_now(app, from.map(|g| *g)),
        Leave::Import { text, origin } => match engine::parse_graph(&text) {
            Ok(graph) => open_imported(app, graph, &origin),
            Err(e) => alerts.error(format!("Could not import {origin}: {e}. Nothing was changed.")),
        },
    }
}
