//! The app's reactive state, split by concern: each part is a `Copy` struct of signals and
//! memos, provided as a context of its own, so a component takes only what it uses
//! (`use_doc()`, `use_view()`, `use_run()`, `use_ui()`, `use_alerts()`). Memos that need two
//! parts take both when built, in [`provide_all`].
//!
//! | module | what it holds |
//! |---|---|
//! | (this file) | [`provide_all`]: builds every part and provides each as a context, and the [`App`] handle over them all |
//! | [`app`] | [`App`]: one handle on every part and the platform, what actions take |
//! | [`doc`] | [`DocState`]: the editor (document, selection, undo), the library, which document is open and when it was saved, and memos derived from the document (node ids and index, boxes, diagnostics, node and edge problems, flow, selection, subgraph path) |
//! | [`view`] | [`ViewState`]: pan and zoom, the canvas size, drags, the wire and marquee in progress, the `far` memo, and fit, centre and zoom |
//! | [`marks`] | [`marks::Marks`]: each node's and edge's mark for the run on display (status, running, instances; taken), one signal each, set only when it changes |
//! | [`run`] | [`RunCtl`]: the run on display, the playback controls, whether the run is of the graph on the canvas, and whether it was made with an earlier version of the document |
//! | [`trace_draft`] | [`trace_draft::TraceDraft`]: the settings dialog's Traces fields while it is open, and the setting as read |
//! | [`tests`] | [`TestsState`]: the Tests panel: the open graph's suite, the outcomes of the last passes, a dataset's rows, the pass under way and the worker cases run in |
//! | [`ui`] | [`UiState`]: the theme, the dialog open, the run panel's height and the minimap |
//! | [`alerts`] | [`Alerts`]: the messages for the user |

pub mod alerts;
pub mod app;
pub mod doc;
pub mod marks;
pub mod run;
pub mod tests;
pub mod trace_draft;
pub mod ui;
pub mod view;

pub use alerts::{Alert, AlertKind, Alerts, use_alerts};
pub use app::{App, use_app};
pub use doc::{DocState, Leave, NodeProblems, use_doc};
pub use run::{Live, RunCtl, use_run};
pub use tests::{TestsState, use_tests};
pub use ui::{Dialog, Theme, UiState, use_ui};
pub use view::{FAR_NODES, FAR_ZOOM, ViewState, Wire, use_view};

use leptos::prelude::*;

use crate::model::editing::editor::Editor;
use crate::model::storage::doc_id::DocId;
use crate::model::storage::library::Library;
use crate::platform::PlatformRef;

/// Builds the state for `editor` (document `current` of `library`) on `platform`, provides
/// each part as its own context and the [`App`] handle over them, and returns the handle.
pub fn provide_all(editor: Editor, current: DocId, library: Library, platform: PlatformRef) -> App {
    let doc = DocState::new(editor, current, library);
    let view = ViewState::new(doc.node_ids);
    let run = RunCtl::new(doc.scope, doc.hash);
    let ui = UiState::new();
    let alerts = Alerts::new();
    let tests = TestsState::new();
    provide_context(doc);
    provide_context(view);
    provide_context(run);
    provide_context(ui);
    provide_context(alerts);
    provide_context(tests);
    let app = App { doc, view, run, ui, alerts, tests, platform };
    provide_context(app);
    app
}
