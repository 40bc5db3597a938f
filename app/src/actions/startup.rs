//! Starting the editor: the graph to open first, the view it opens at, and wiring the
//! document, window, theme, keyboard and share-link actions.

use std::rc::Rc;

use engine::Graph;
use leptos::prelude::*;

use super::document;
use crate::model::editing::editor::Editor;
use crate::model::editing::geometry::View;
use crate::model::storage::doc_id::DocId;
use crate::model::storage::library::Library;
use crate::platform::{Platform, PlatformRef};
use crate::state::{App, provide_all};

/// Starts the editor on `platform`: reads the library, opens the graph last open (or a new
/// one), reports `problems` and what could not be read, and wires autosave, the window title,
/// the keyboard and share links. Provides the platform and each part of the state as
/// contexts for the components.
pub fn start(platform: Rc<dyn Platform>, problems: Vec<String>) {
    let platform = PlatformRef::new(platform);
    provide_context(platform);
    let (mut library, mut all_problems) = platform.get().load_library();
    all_problems.extend(problems);
    let (current, graph) = open_initial(platform, &mut library);
    let is_new = current.library_id().is_some_and(|id| library.get(id).is_none());
    let app = provide_all(Editor::new(graph), current, library, platform);
    let crate::state::App { doc, alerts, .. } = app;
    for p in all_problems {
        alerts.error(p);
    }
    platform.get().on_background_error(Box::new(move |m| {
        doc.storage_failed.set(true);
        alerts.error(m);
    }));
    super::files::install(app);
    super::settings::init_theme(app);
    super::panels::init(app);
    init_view(app);
    document::autosave(app);
    super::drafts::install(platform);
    super::follow::install(app);
    super::keyboard::install(app);
    super::exchange::import_from_location(app);
    if is_new {
        document::save_now(app);
    }
    super::files::open_given_files(app);
    super::menu::install(app);
    super::tests::install(app);
    warm_run_worker(app.run);
}

/// Starts the run worker once the editor has drawn and the page is idle, so its module loads
/// while the person looks at the graph: not competing with opening a large graph, and not
/// after they press Run (which starts it at once if it has not started yet).
fn warm_run_worker(run: crate::state::RunCtl) {
    set_timeout(
        move || {
            request_idle_callback(move || run.engine.with_value(crate::runner::RunEngine::warm));
        },
        std::time::Duration::from_millis(1500),
    );
}

/// The graph to open first: the last one open, else the newest, else a new starter graph.
fn open_initial(platform: PlatformRef, library: &mut Library) -> (DocId, Graph) {
    let platform = platform.get();
    let wanted = platform.preference("current").map(|id| DocId::parse(&id));
    let candidates = wanted.into_iter().chain(library.entries.iter().map(|e| DocId::Library(e.id.clone())));
    for id in candidates.collect::<Vec<_>>() {
        if let Ok(g) = platform.load_graph(&id) {
            return (id, g);
        }
    }
    let graph = document::with_default_layout(document::starter_graph());
    let id = platform.new_id(library, graph.display_name());
    (id, graph)
}

/// Starts at the document's saved viewport, or fits the graph once the canvas has a size.
fn init_view(app: App) {
    let App { doc, view, .. } = app;
    let saved = doc.editor.with_untracked(|e| e.graph().layout.as_ref().and_then(|l| l.viewport.clone()));
    match saved {
        Some(v) => view.view.set(View::from(&v)),
        None => {
            // A first fit with the canvas size guessed, so a large graph is first built at
            // the zoom it is shown at (plain boxes from far out), then the exact fit when the
            // canvas reports its size.
            view.fit_view(&doc);
            view.fit_when_measured.set_value(true);
        }
    }
    view.settle();
}
