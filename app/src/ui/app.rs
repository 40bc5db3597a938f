//! The whole editor: starts the document actions on the chosen platform and lays out the
//! panels.

use std::rc::Rc;

use leptos::prelude::*;

use super::alerts::Alerts;
use super::canvas::Canvas;
use super::dialogs::Dialogs;
use super::inspector::Inspector;
use super::library_panel::LibraryPanel;
use super::origins_dialog::OriginsDialog;
use super::palette_bar::PaletteBar;
use super::run_panel::RunPanel;
use super::run_splitter::RunSplitter;
use super::toolbar::Toolbar;
use super::unsaved_dialog::UnsavedDialog;
use crate::actions::startup;
use crate::platform::Platform;
use crate::state::use_ui;

/// Whether a click in the library chose something (a node to add, a graph or template to
/// open): the library, open over the canvas in a narrow window, then gets out of the way.
fn chose_from_library(ev: &web_sys::MouseEvent) -> bool {
    use wasm_bindgen::JsCast;
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|el| el.closest(".palette-item, .graph-open, .template-open").ok().flatten())
        .is_some()
}

/// The editor, on the platform chosen at start-up (`platform::start`, which also reports
/// what it could not read as `preload_problems`).
#[component]
pub fn App(platform: Rc<dyn Platform>, #[prop(optional)] preload_problems: Vec<String>) -> impl IntoView {
    startup::start(platform, preload_problems);
    let ui = use_ui();

    view! {
        <div class="app">
            <Toolbar/>
            <div class="workspace">
                // In a narrow window the library opens over the canvas (the toolbar's Library).
                <aside class="sidebar left" class:open=move || ui.library_open.get() role="region" aria-label="Library" id="library"
                    on:click=move |ev| if chose_from_library(&ev) { ui.library_open.set(false) }>
                    <PaletteBar/>
                    <LibraryPanel/>
                </aside>
                <main class="stage">
                    <Canvas/>
                    <RunSplitter/>
                    <RunPanel/>
                </main>
                <Inspector/>
            </div>
            <Alerts/>
            <Dialogs/>
            <UnsavedDialog/>
            <OriginsDialog/>
        </div>
    }
}
