//! The whole editor: loads the library, opens a graph, lays out the panels, and wires
//! autosave and keyboard shortcuts.

use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use engine::Graph;

use super::alerts::Alerts;
use super::canvas::Canvas;
use super::dialogs::Dialogs;
use super::inspector::Inspector;
use super::keyboard;
use super::library_panel::LibraryPanel;
use super::palette_bar::PaletteBar;
use super::run_panel::RunPanel;
use super::store::{Store, Theme};
use super::toolbar::Toolbar;
use std::rc::Rc;

use crate::model::doc_id::DocId;
use crate::model::editor::Editor;
use crate::model::geometry::View;
use crate::model::library::Library;
use crate::platform::{Platform, PlatformRef};

/// The graph a first visit starts with.
pub fn starter_graph() -> Graph {
    let mut g = Graph::new("My first workflow");
    if let Some(layout) = g.layout.as_mut() {
        layout.nodes.clear();
    }
    g
}

/// The editor, on the platform chosen at start-up (`platform::start`, which also reports
/// what it could not read as `preload_problems`).
#[component]
pub fn App(platform: Rc<dyn Platform>, #[prop(optional)] preload_problems: Vec<String>) -> impl IntoView {
    let platform = PlatformRef::new(platform);
    provide_context(platform);
    let (mut library, mut problems) = platform.get().load_library();
    problems.extend(preload_problems);
    let (current, graph) = open_initial(platform, &mut library);
    let is_new = current.library_id().is_some_and(|id| library.get(id).is_none());
    let store = Store::new(Editor::new(graph), current, library, platform);
    provide_context(store);
    for p in problems {
        store.error(p);
    }
    platform.get().on_background_error(Box::new(move |m| store.error(m)));
    super::desktop_window::install(store);
    init_theme(store);
    init_view(store);
    autosave(store);
    keyboard::install(store);
    super::share_link::import_from_location(store);
    if is_new {
        save_now(store);
    }

    view! {
        <div class="app">
            <Toolbar/>
            <div class="workspace">
                <aside class="sidebar left" role="region" aria-label="Library">
                    <PaletteBar/>
                    <LibraryPanel/>
                </aside>
                <main class="stage">
                    <Canvas/>
                    <RunPanel/>
                </main>
                <Inspector/>
            </div>
            <Alerts/>
            <Dialogs/>
        </div>
    }
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
    let graph = super::library_panel::with_default_layout(starter_graph());
    let id = platform.new_id(library, graph.display_name());
    (id, graph)
}

fn init_theme(store: Store) {
    let dark_preferred =
        window().match_media("(prefers-color-scheme: dark)").ok().flatten().is_some_and(|m| m.matches());
    let theme = match store.platform.get().preference("theme").as_deref() {
        Some("dark") => Theme::Dark,
        Some("light") => Theme::Light,
        _ if dark_preferred => Theme::Dark,
        _ => Theme::Light,
    };
    store.theme.set(theme);
    Effect::new(move |_| {
        let name = match store.theme.get() {
            Theme::Dark => "dark",
            Theme::Light => "light",
        };
        if let Some(root) = document().document_element() {
            let _ = root.set_attribute("data-theme", name);
        }
    });
}

/// Starts at the document's saved viewport, or fits the graph once the canvas has a size.
fn init_view(store: Store) {
    let saved = store.editor.with_untracked(|e| e.graph().layout.as_ref().and_then(|l| l.viewport.clone()));
    match saved {
        Some(v) => store.view.set(View::from(&v)),
        None => {
            // A first fit with the canvas size guessed, so a large graph is first built at
            // the zoom it is shown at (plain boxes from far out), then the exact fit.
            store.fit_view();
            request_animation_frame(move || store.fit_view());
        }
    }
}

/// Saves the open graph shortly after each change. A failed save keeps the work in memory
/// and says so.
fn autosave(store: Store) {
    let saved_revision = store.saved_revision;
    let pending = StoredValue::new(None::<TimeoutHandle>);
    Effect::new(move |_| {
        let revision = store.editor.with(Editor::revision);
        store.current.track();
        if revision == saved_revision.get_untracked() {
            return;
        }
        if let Some(h) = pending.get_value() {
            h.clear();
        }
        let handle = set_timeout_with_handle(
            move || {
                if save_now(store) {
                    saved_revision.set(store.editor.with_untracked(Editor::revision));
                }
            },
            std::time::Duration::from_millis(400),
        )
        .ok();
        pending.set_value(handle);
    });
    // Keep the pan and zoom when the tab closes.
    let _ = window_event_listener(ev::beforeunload, move |_| {
        save_now(store);
    });
}

/// Writes the open graph and the library index now. Returns whether it worked.
pub fn save_now(store: Store) -> bool {
    let view = store.view.get_untracked();
    store.editor.update_untracked(|e| e.set_viewport(view));
    let id = store.current.get_untracked();
    let graph = store.editor.with_untracked(|e| e.document().clone());
    let platform = store.platform.get();
    let result = platform.save_graph(&id, &graph).and_then(|()| {
        // A file opened from elsewhere on the desktop is not part of the library.
        let Some(lib_id) = id.library_id() else { return Ok(()) };
        let mut ok = Ok(());
        store.library.update(|lib| {
            lib.touch(lib_id, graph.display_name(), platform.now());
            ok = platform.save_library(lib);
        });
        ok
    });
    platform.set_preference("current", &id.to_string());
    match result {
        Ok(()) => true,
        Err(why) => {
            store.error(format!(
                "Could not save “{}”: {why}. Your work is kept in this tab; export it to keep a copy.",
                graph.display_name()
            ));
            false
        }
    }
}

/// Opens another saved graph (after saving the current one).
pub fn open_graph(store: Store, id: &DocId) {
    if store.current.with_untracked(|c| c == id) {
        return;
    }
    save_now(store);
    match store.platform.get().load_graph(id) {
        Ok(g) => load_into(store, id.clone(), g),
        Err(why) => store.error(format!("Could not open that graph: {why}")),
    }
}

/// Makes `graph` the open graph under storage id `id`.
pub fn load_into(store: Store, id: DocId, graph: Graph) {
    let viewport = graph.layout.as_ref().and_then(|l| l.viewport.clone());
    store.editor.set(Editor::new(graph));
    store.saved_revision.set(0);
    store.current.set(id);
    match viewport {
        Some(v) => store.view.set(View::from(&v)),
        None => store.fit_view(),
    }
    save_now(store);
}

/// Whether keyboard focus is in a text field (shortcuts then belong to the field).
pub fn typing_in_field() -> bool {
    document()
        .active_element()
        .map(|el| {
            let tag = el.tag_name().to_ascii_lowercase();
            tag == "input"
                || tag == "textarea"
                || tag == "select"
                || el.dyn_ref::<web_sys::HtmlElement>().is_some_and(|h| h.is_content_editable())
        })
        .unwrap_or(false)
}
