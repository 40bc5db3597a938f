//! The header: the graph's name and the editing commands.

use leptos::prelude::*;

use super::icons::{Icon, icon};
use crate::actions::{document, exchange, files, settings};
use crate::model::layout::Direction;
use crate::platform::use_platform;
use crate::state::{Dialog, Theme, use_app, use_doc, use_ui, use_view};

#[component]
pub fn Toolbar() -> impl IntoView {
    let app = use_app();
    let doc = use_doc();
    let view = use_view();
    let ui = use_ui();
    let platform = use_platform();
    let name = move || doc.editor.with(|e| e.document().display_name().to_string());
    let can_undo = move || doc.editor.with(|e| e.can_undo());
    let can_redo = move || doc.editor.with(|e| e.can_redo());
    let layout_dir = RwSignal::new(Direction::LeftToRight);
    // Auto layout keeps the way the graph opened flows (a top-down template stays top down),
    // until the person picks another.
    Effect::new(move |_| {
        doc.current.track();
        layout_dir.set(doc.flow.get_untracked());
    });
    let new_graph = move |_| document::create_graph(app, None);
    let export = move |_| exchange::export_document(app);
    let mermaid = move |_| exchange::copy_mermaid(app);
    let share = move |_| exchange::open_share(app);
    let toggle_theme = move |_| settings::toggle_theme(app);
    let snap = move || doc.editor.with(|e| e.snap_to_grid);
    let has_files = platform.get().has_files();
    view! {
        <header class="toolbar" class:has-files=has_files>
            <button class="narrow-only icon-button" aria-label="Library" title="Nodes, graphs and templates"
                aria-controls="library" aria-expanded=move || ui.library_open.get().to_string()
                on:click=move |_| ui.library_open.update(|o| *o = !*o)>"☰"</button>
            <h1 class="brand"><span class="logo" aria-hidden="true">"⇶"</span><span class="brand-name">"Switchyard"</span></h1>
            <div class="graph-name" title="The open graph">{name}</div>
            <div class="tool-group" role="group" aria-label="File">
                <button on:click=new_graph title="New graph" aria-label="New">{icon(Icon::New)}<span class="label">"New"</span></button>
                <button class="collapse-1360" on:click=move |_| ui.dialog.set(Some(Dialog::Import)) title="Import a graph document" aria-label="Import">
                    {icon(Icon::Import)}<span class="label">"Import"</span>
                </button>
                {has_files.then(|| view! {
                    <button class="collapse-1360" on:click=move |_| files::open_file(app) title="Open a graph file anywhere" aria-label="Open…">
                        {icon(Icon::Open)}<span class="label">"Open…"</span>
                    </button>
                    <button class="collapse-1360" on:click=move |_| files::save_as(app) title="Save the graph to a file anywhere" aria-label="Save As…">
                        {icon(Icon::SaveAs)}<span class="label">"Save As…"</span>
                    </button>
                })}
                <button class="collapse-1360" on:click=export title="Export a copy of the graph document" aria-label="Export">{icon(Icon::Export)}<span class="label">"Export"</span></button>
                <button class="collapse-1500" on:click=mermaid title="Copy a Mermaid flowchart" aria-label="Mermaid">{icon(Icon::Mermaid)}<span class="label">"Mermaid"</span></button>
                <button class="collapse-1500" on:click=share title="Make a link that opens this graph" aria-label="Share">{icon(Icon::Share)}<span class="label">"Share"</span></button>
            </div>
            <div class="tool-group" role="group" aria-label="Edit">
                <button class="collapse-1500" on:click=move |_| { doc.edit(|e| e.undo()); } disabled=move || !can_undo() title="Undo (Ctrl+Z)" aria-label="Undo">
                    {icon(Icon::Undo)}<span class="label">"Undo"</span>
                </button>
                <button class="collapse-1500" on:click=move |_| { doc.edit(|e| e.redo()); } disabled=move || !can_redo() title="Redo (Ctrl+Shift+Z)" aria-label="Redo">
                    {icon(Icon::Redo)}<span class="label">"Redo"</span>
                </button>
            </div>
            <div class="tool-group" role="group" aria-label="View">
                <button class="icon-only" on:click=move |_| view.zoom_by(1.25) title="Zoom in (+)" aria-label="Zoom in">{icon(Icon::ZoomIn)}</button>
                <button class="icon-only" on:click=move |_| view.zoom_by(0.8) title="Zoom out (-)" aria-label="Zoom out">{icon(Icon::ZoomOut)}</button>
                <button class="collapse-1360" on:click=move |_| view.fit_view(&doc) title="Show the graph, as large as it stays readable (F)" aria-label="Fit view">
                    {icon(Icon::FitView)}<span class="label">"Fit view"</span>
                </button>
                <button class="collapse-1360" on:click=move |_| { doc.edit(|e| e.auto_layout(layout_dir.get_untracked())); view.fit_view(&doc); } title="Arrange nodes in layers" aria-label="Auto layout">
                    {icon(Icon::AutoLayout)}<span class="label">"Auto layout"</span>
                </button>
                <select aria-label="Layout direction" title="Layout direction"
                    prop:value=move || if layout_dir.get() == Direction::TopDown { "td" } else { "lr" }
                    on:change=move |ev| {
                    layout_dir.set(if event_target_value(&ev) == "td" { Direction::TopDown } else { Direction::LeftToRight });
                }>
                    <option value="lr">"Left to right"</option>
                    <option value="td">"Top down"</option>
                </select>
                <label class="toggle" title="Snap moved nodes to the grid">
                    <input type="checkbox" aria-label="Snap to grid" prop:checked=snap on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        doc.editor.update(|e| e.snap_to_grid = on);
                    }/>
                    "Snap"
                </label>
            </div>
            <div class="spacer"></div>
            <div class="tool-group" role="group" aria-label="Help">
                <button class="icon-button" on:click=move |_| ui.dialog.set(Some(Dialog::Search)) title="Find a node (Ctrl+K)" aria-label="Search">"⌕"</button>
                <button class="icon-button" on:click=toggle_theme title="Switch between light and dark"
                    aria-label=move || if ui.theme.get() == Theme::Dark { "Light theme" } else { "Dark theme" }>
                    {move || if ui.theme.get() == Theme::Dark { "☀" } else { "☾" }}
                </button>
                <button class="icon-button" on:click=move |_| ui.dialog.set(Some(Dialog::Settings)) title="Model and API settings" aria-label="Settings">"⚙"</button>
                <button class="icon-button" on:click=move |_| ui.dialog.set(Some(Dialog::Help)) title="Keyboard shortcuts (?)" aria-label="Help">"?"</button>
            </div>
        </header>
    }
}
