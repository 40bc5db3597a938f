//! The header: the graph's name and the editing commands.

use leptos::prelude::*;

use crate::actions::{document, exchange, files, settings};
use crate::model::layout::Direction;
use crate::state::{Dialog, Theme, use_store};

#[component]
pub fn Toolbar() -> impl IntoView {
    let store = use_store();
    let name = move || store.editor.with(|e| e.document().display_name().to_string());
    let can_undo = move || store.editor.with(|e| e.can_undo());
    let can_redo = move || store.editor.with(|e| e.can_redo());
    let layout_dir = RwSignal::new(Direction::LeftToRight);
    let new_graph = move |_| document::create_graph(store, None);
    let export = move |_| exchange::download_document(store);
    let mermaid = move |_| exchange::copy_mermaid(store);
    let share = move |_| exchange::open_share(store);
    let toggle_theme = move |_| settings::toggle_theme(store);
    let snap = move || store.editor.with(|e| e.snap_to_grid);
    view! {
        <header class="toolbar">
            <div class="brand"><span class="logo" aria-hidden="true">"⇶"</span>" Switchyard"</div>
            <div class="graph-name" title="The open graph">{name}</div>
            <div class="tool-group" role="group" aria-label="File">
                <button on:click=new_graph title="New graph">"New"</button>
                <button on:click=move |_| store.dialog.set(Some(Dialog::Import)) title="Import a graph document">"Import"</button>
                {store.platform.get().has_files().then(|| view! {
                    <button on:click=move |_| files::open_file(store) title="Open a graph file anywhere">"Open…"</button>
                    <button on:click=move |_| files::save_as(store) title="Save the graph to a file anywhere">"Save As…"</button>
                })}
                <button on:click=export title="Download the graph document">"Export"</button>
                <button on:click=mermaid title="Copy a Mermaid flowchart">"Mermaid"</button>
                <button on:click=share title="Make a link that opens this graph">"Share"</button>
            </div>
            <div class="tool-group" role="group" aria-label="Edit">
                <button on:click=move |_| { store.edit(|e| e.undo()); } disabled=move || !can_undo() title="Undo (Ctrl+Z)">"Undo"</button>
                <button on:click=move |_| { store.edit(|e| e.redo()); } disabled=move || !can_redo() title="Redo (Ctrl+Shift+Z)">"Redo"</button>
            </div>
            <div class="tool-group" role="group" aria-label="View">
                <button on:click=move |_| store.zoom_by(1.25) title="Zoom in (+)">"Zoom in"</button>
                <button on:click=move |_| store.zoom_by(0.8) title="Zoom out (-)">"Zoom out"</button>
                <button on:click=move |_| store.fit_view() title="Show every node (F)">"Fit view"</button>
                <button on:click=move |_| { store.edit(|e| e.auto_layout(layout_dir.get_untracked())); store.fit_view(); } title="Arrange nodes in layers">"Auto layout"</button>
                <select aria-label="Layout direction" on:change=move |ev| {
                    layout_dir.set(if event_target_value(&ev) == "td" { Direction::TopDown } else { Direction::LeftToRight });
                }>
                    <option value="lr">"Left to right"</option>
                    <option value="td">"Top down"</option>
                </select>
                <label class="toggle" title="Snap moved nodes to the grid">
                    <input type="checkbox" prop:checked=snap on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        store.editor.update(|e| e.snap_to_grid = on);
                    }/>
                    "Snap"
                </label>
            </div>
            <div class="spacer"></div>
            <div class="tool-group" role="group" aria-label="Help">
                <button class="icon-button" on:click=move |_| store.dialog.set(Some(Dialog::Search)) title="Find a node (Ctrl+K)" aria-label="Search">"⌕"</button>
                <button class="icon-button" on:click=toggle_theme title="Switch between light and dark"
                    aria-label=move || if store.theme.get() == Theme::Dark { "Light theme" } else { "Dark theme" }>
                    {move || if store.theme.get() == Theme::Dark { "☀" } else { "☾" }}
                </button>
                <button class="icon-button" on:click=move |_| store.dialog.set(Some(Dialog::Settings)) title="Model and API settings" aria-label="Settings">"⚙"</button>
                <button class="icon-button" on:click=move |_| store.dialog.set(Some(Dialog::Help)) title="Keyboard shortcuts (?)" aria-label="Help">"?"</button>
            </div>
        </header>
    }
}
