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

/// The editor, on the platform chosen at start-up (`platform::start`, which also reports
/// what it could not read as `preload_problems`).
#[component]
pub fn App(platform: Rc<dyn Platform>, #[prop(optional)] preload_problems: Vec<String>) -> impl IntoView {
    startup::start(platform, preload_problems);

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
