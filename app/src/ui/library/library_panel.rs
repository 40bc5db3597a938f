//! The library: saved graphs (open, rename, duplicate, delete) and the template gallery.

use leptos::prelude::*;

use crate::actions::document::{self, create_graph, open_graph};
use crate::model::storage::doc_id::DocId;
use crate::state::{use_app, use_doc};

/// The seed templates, shipped with the editor.
pub const TEMPLATES: [(&str, &str); 9] = [
    ("000-task-loop", include_str!("../../../../templates/000-task-loop.json")),
    ("001-step-engine", include_str!("../../../../templates/001-step-engine.json")),
    ("002-agent-graph", include_str!("../../../../templates/002-agent-graph.json")),
    ("003-approval", include_str!("../../../../templates/003-approval.json")),
    ("004-linear-orchestrator", include_str!("../../../../templates/004-linear-orchestrator.json")),
    ("005-tool-agent", include_str!("../../../../templates/005-tool-agent.json")),
    ("006-map-reduce", include_str!("../../../../templates/006-map-reduce.json")),
    ("007-memory-assistant", include_str!("../../../../templates/007-memory-assistant.json")),
    ("008-evaluation-loop", include_str!("../../../../templates/008-evaluation-loop.json")),
];

#[component]
pub fn LibraryPanel() -> impl IntoView {
    let app = use_app();
    let doc = use_doc();
    let renaming = RwSignal::new(None::<String>);
    let entries = move || doc.library.get().entries;
    let rename = move |id: String, name: String| {
        renaming.set(None);
        document::rename_graph(app, &id, &name);
    };
    let duplicate = move |id: String| document::duplicate_graph(app, &id);
    let delete = move |id: String| document::ask_delete_graph(app, &id);

    let templates = TEMPLATES
        .iter()
        .filter_map(|(key, text)| engine::parse_graph(text).ok().map(|g| (*key, g)))
        .map(|(key, g)| {
            let name = g.display_name().to_string();
            let description = g.description.clone().unwrap_or_default();
            let nodes = g.nodes.len();
            let about = format!("template-about-{key}");
            // The button's name is its visible text ("Open template" is there for screen
            // readers only); the rest of the card describes it, and a click anywhere on the
            // card lands on the button (its ::after covers the card).
            view! {
                <li class="template template-card">
                    <button class="template-open" data-template=key aria-describedby=about.clone()
                        on:click=move |_| create_graph(app, Some(g.clone()))>
                        <span class="visually-hidden">"Open template "</span>
                        <span class="template-name">{name.clone()}</span>
                    </button>
                    <span id=about>
                        <span class="template-meta">{format!("{nodes} nodes")}</span>
                        <span class="visually-hidden">". "</span>
                        <span class="template-desc">{crate::model::editing::palette::shorten(&description, 110)}</span>
                    </span>
                </li>
            }
        })
        .collect_view();

    view! {
        <section class="library" aria-label="Graphs">
            <div class="section-head">
                <h2>"Graphs"</h2>
                <button class="small" on:click=move |_| create_graph(app, None) aria-label="New graph">"+ New"</button>
            </div>
            <ul class="graph-list">
                <For each=entries key=|e| (e.id.clone(), e.name.clone()) let:entry>
                    {
                        let id = entry.id.clone();
                        let (id_open, id_ren, id_dup, id_del, id_cur) = (id.clone(), id.clone(), id.clone(), id.clone(), id.clone());
                        let id_edit = id.clone();
                        let is_current = move || doc.current.with(|c| c.library_id() == Some(id_cur.as_str()));
                        let name = entry.name.clone();
                        view! {
                            <li class="graph-item" class:current=is_current data-graph-id=id.clone()>
                                {move || if renaming.get().as_deref() == Some(id_edit.as_str()) {
                                    let id_commit = id_ren.clone();
                                    view! {
                                        <input class="rename" aria-label="Graph name" value=name.clone() autofocus
                                            on:change=move |ev| rename(id_commit.clone(), event_target_value(&ev))
                                            on:blur=move |_| renaming.set(None)/>
                                    }.into_any()
                                } else {
                                    let id_open = id_open.clone();
                                    view! {
                                        <button class="graph-open" on:click=move |_| open_graph(app, &DocId::Library(id_open.clone()))>{name.clone()}</button>
                                    }.into_any()
                                }}
                                <span class="graph-actions">
                                    <button class="icon" title="Rename" aria-label=format!("Rename {}", entry.name)
                                        on:click={ let id = id.clone(); move |_| renaming.set(Some(id.clone())) }>"✎"</button>
                                    <button class="icon" title="Duplicate" aria-label=format!("Duplicate {}", entry.name)
                                        on:click={ let id = id_dup.clone(); move |_| duplicate(id.clone()) }>"❐"</button>
                                    <button class="icon" title="Delete" aria-label=format!("Delete {}", entry.name)
                                        on:click={ let id = id_del.clone(); move |_| delete(id.clone()) }>"✕"</button>
                                </span>
                            </li>
                        }
                    }
                </For>
            </ul>
            <h2>"Templates"</h2>
            <ul class="template-list">{templates}</ul>
        </section>
    }
}
