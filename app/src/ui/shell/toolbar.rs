//! The header: the graph's name and the editing commands, each button's tooltip and name
//! from the command table.

use leptos::prelude::*;

use switchyard_ipc::commands::CommandId;

use crate::actions::commands::{can_act, carry_out};
use crate::model::editing::layout::Direction;
use crate::state::{App, Theme, use_app};
use crate::ui::shell::icons::{Icon, icon};

#[component]
pub fn Toolbar() -> impl IntoView {
    let app = use_app();
    let App { doc, ui, platform, .. } = app;
    let flavour = platform.get().flavour();
    let graph_name = move || doc.editor.with(|e| e.document().display_name().to_string());
    // Auto layout keeps the way the graph opened flows (a top-down template stays top down),
    // until the person picks another.
    Effect::new(move |_| {
        doc.current.track();
        ui.layout_dir.set(doc.flow.get_untracked());
    });
    let act = move |id: CommandId| move |_| carry_out(app, id);
    let snap = move || doc.editor.with(|e| e.snap_to_grid);
    let has_files = platform.get().has_files();
    // A command's button: its name and its tooltip (what it does, with its keys here).
    let name = |id: CommandId| id.command().button_name();
    let tip = move |id: CommandId| id.command().tooltip(flavour);
    // Open… and Save as… keep their dots: they ask where.
    let full = |id: CommandId| id.command().name();
    view! {
        <header class="toolbar" class:has-files=has_files>
            <button class="narrow-only icon-button" aria-label="Library" title="Nodes, graphs and templates"
                aria-controls="library" aria-expanded=move || ui.library_open.get().to_string()
                on:click=move |_| ui.library_open.update(|o| *o = !*o)>"☰"</button>
            <h1 class="brand"><span class="logo" aria-hidden="true">"⇶"</span><span class="brand-name">"Switchyard"</span></h1>
            <div class="graph-name" title="The open graph">{graph_name}</div>
            <div class="tool-group" role="group" aria-label="File">
                <button on:click=act(CommandId::New) title=tip(CommandId::New) aria-label=name(CommandId::New)>{icon(Icon::New)}<span class="label">{name(CommandId::New)}</span></button>
                <button class="collapse-1360" on:click=act(CommandId::Import) title=tip(CommandId::Import) aria-label=name(CommandId::Import)>
                    {icon(Icon::Import)}<span class="label">{name(CommandId::Import)}</span>
                </button>
                {has_files.then(|| view! {
                    <button class="collapse-1360" on:click=act(CommandId::Open) title=tip(CommandId::Open) aria-label=full(CommandId::Open)>
                        {icon(Icon::Open)}<span class="label">{full(CommandId::Open)}</span>
                    </button>
                    <button class="collapse-1360" on:click=act(CommandId::SaveAs) title=tip(CommandId::SaveAs) aria-label=full(CommandId::SaveAs)>
                        {icon(Icon::SaveAs)}<span class="label">{full(CommandId::SaveAs)}</span>
                    </button>
                })}
                <button class="collapse-1360" on:click=act(CommandId::Export) title=tip(CommandId::Export) aria-label=name(CommandId::Export)>{icon(Icon::Export)}<span class="label">{name(CommandId::Export)}</span></button>
                <button class="collapse-1500" on:click=act(CommandId::Mermaid) title=tip(CommandId::Mermaid) aria-label=name(CommandId::Mermaid)>{icon(Icon::Mermaid)}<span class="label">{name(CommandId::Mermaid)}</span></button>
                <button class="collapse-1500" on:click=act(CommandId::Share) title=tip(CommandId::Share) aria-label=name(CommandId::Share)>{icon(Icon::Share)}<span class="label">{name(CommandId::Share)}</span></button>
            </div>
            <div class="tool-group" role="group" aria-label="Edit">
                <button class="collapse-1500" on:click=act(CommandId::Undo) disabled=move || !can_act(app, CommandId::Undo) title=tip(CommandId::Undo) aria-label=name(CommandId::Undo)>
                    {icon(Icon::Undo)}<span class="label">{name(CommandId::Undo)}</span>
                </button>
                <button class="collapse-1500" on:click=act(CommandId::Redo) disabled=move || !can_act(app, CommandId::Redo) title=tip(CommandId::Redo) aria-label=name(CommandId::Redo)>
                    {icon(Icon::Redo)}<span class="label">{name(CommandId::Redo)}</span>
                </button>
            </div>
            <div class="tool-group" role="group" aria-label="View">
                <button class="icon-only" on:click=act(CommandId::ZoomIn) title=tip(CommandId::ZoomIn) aria-label=name(CommandId::ZoomIn)>{icon(Icon::ZoomIn)}</button>
                <button class="icon-only" on:click=act(CommandId::ZoomOut) title=tip(CommandId::ZoomOut) aria-label=name(CommandId::ZoomOut)>{icon(Icon::ZoomOut)}</button>
                <button class="collapse-1360" on:click=act(CommandId::FitView) title=tip(CommandId::FitView) aria-label=name(CommandId::FitView)>
                    {icon(Icon::FitView)}<span class="label">{name(CommandId::FitView)}</span>
                </button>
                <button class="collapse-1360" on:click=act(CommandId::AutoLayout) title=tip(CommandId::AutoLayout) aria-label=name(CommandId::AutoLayout)>
                    {icon(Icon::AutoLayout)}<span class="label">{name(CommandId::AutoLayout)}</span>
                </button>
                <select aria-label="Layout direction" title="Layout direction"
                    prop:value=move || if ui.layout_dir.get() == Direction::TopDown { "td" } else { "lr" }
                    on:change=move |ev| {
                    ui.layout_dir.set(if event_target_value(&ev) == "td" { Direction::TopDown } else { Direction::LeftToRight });
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
            <div class="tool-group" role="group" aria-label="Testing">
                <button class="collapse-1360" on:click=act(CommandId::Tests) title=tip(CommandId::Tests) aria-label=name(CommandId::Tests)
                    aria-pressed=move || app.tests.open.get().to_string()>
                    {icon(Icon::Tests)}<span class="label">{name(CommandId::Tests)}</span>
                </button>
            </div>
            <div class="tool-group" role="group" aria-label="Help">
                <button class="icon-button" on:click=act(CommandId::Find) title=tip(CommandId::Find) aria-label=name(CommandId::Find)>"⌕"</button>
                <button class="icon-button" on:click=act(CommandId::Palette) title=tip(CommandId::Palette) aria-label=name(CommandId::Palette)>"⌘"</button>
                <button class="icon-button" on:click=act(CommandId::Theme) title=tip(CommandId::Theme)
                    aria-label=move || if ui.theme.get() == Theme::Dark { "Light theme" } else { "Dark theme" }>
                    {move || if ui.theme.get() == Theme::Dark { "☀" } else { "☾" }}
                </button>
                <button class="icon-button" on:click=act(CommandId::Settings) title=tip(CommandId::Settings) aria-label=name(CommandId::Settings)>"⚙"</button>
                <button class="icon-button" on:click=act(CommandId::Shortcuts) title=tip(CommandId::Shortcuts) aria-label=name(CommandId::Shortcuts)>"?"</button>
            </div>
        </header>
    }
}
