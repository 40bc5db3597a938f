//! The whole editor: starts the document actions on the chosen platform and lays out the
//! panels.

use std::rc::Rc;

use leptos::prelude::*;

use crate::actions::startup;
use crate::platform::Platform;
use crate::state::{use_tests, use_ui};
use crate::ui::canvas::Canvas;
use crate::ui::dialogs::host::Dialogs;
use crate::ui::dialogs::origins_dialog::OriginsDialog;
use crate::ui::dialogs::unsaved_dialog::UnsavedDialog;
use crate::ui::inspector::panel::Inspector;
use crate::ui::library::library_panel::LibraryPanel;
use crate::ui::library::palette_bar::PaletteBar;
use crate::ui::run_panel::panel::RunPanel;
use crate::ui::run_panel::run_splitter::RunSplitter;
use crate::ui::shell::alerts::Alerts;
use crate::ui::shell::toolbar::Toolbar;
use crate::ui::tests_panel::panel::TestsPanel;

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
    let tests = use_tests();

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
                // The Tests panel takes the inspector's place while it is open.
                <Show when=move || tests.open.get() fallback=|| view! { <Inspector/> }>
                    <TestsPanel/>
                </Show>
            </div>
            <Alerts/>
            <Dialogs/>
            <UnsavedDialog/>
            <OriginsDialog/>
        </div>
    }
}
