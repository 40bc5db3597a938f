//! The library: saved graphs (open, rename, duplicate, delete) and the template gallery.

use leptos::prelude::*;

use engine::Graph;

use super::app::{load_into, open_graph, save_now, starter_graph};
use super::store::{Store, use_store};
use crate::model::doc_id::DocId;
use crate::model::layout::Direction;

/// The seed templates, shipped with the editor.
pub const TEMPLATES: [(&str, &str); 5] = [
    ("000-task-loop", include_str!("../../../templates/000-task-loop.json")),
    ("001-step-engine", include_str!("../../../templates/001-step-engine.json")),
    ("002-agent-graph", include_str!("../../../templates/002-agent-graph.json")),
    ("003-approval", include_str!("../../../templates/003-approval.json")),
    ("004-linear-orchestrator", include_str!("../../../templates/004-linear-orchestrator.json")),
];

/// Gives every node a position (by auto layout) when the document has none.
pub fn with_default_layout(mut graph: Graph) -> Graph {
    let missing = graph.nodes.iter().any(|n| graph.layout.as_ref().is_none_or(|l| !l.nodes.contains_key(&n.id)));
    if missing && !graph.nodes.is_empty() {
        let mut ed = crate::model::editor::Editor::new(graph);
        ed.auto_layout(Direction::LeftToRight);
        graph = ed.graph().clone();
    }
    graph
}

/// Creates and opens a new graph: a copy of `from`, or a start and an end.
pub fn create_graph(store: Store, from: Option<Graph>) {
    save_now(store);
    let graph = with_default_layout(from.unwrap_or_else(starter_graph));
    let name = store.library.with_untracked(|l| l.unique_name(graph.display_name()));
    let mut graph = graph;
    graph.name = Some(name.clone());
    let id = store.library.with_untracked(|l| store.platform.get().new_id(l, &name));
    load_into(store, id, graph);
}

#[component]
pub fn LibraryPanel() -> impl IntoView {
    let store = use_store();
    let renaming = RwSignal::new(None::<String>);
    let entries = move || store.library.get().entries;
    let rename = move |id: String, name: String| {
        let name = name.trim().to_string();
        renaming.set(None);
        if name.is_empty() {
            return;
        }
        let doc = DocId::Library(id.clone());
        let platform = store.platform.get();
        if store.current.get_untracked() == doc {
            let mut meta = store.editor.with_untracked(|e| crate::model::edit::Meta::of(e.document()));
            meta.name = Some(name.clone());
            store.edit(|e| e.set_document_meta(meta));
        } else if let Ok(mut g) = platform.load_graph(&doc) {
            g.name = Some(name.clone());
            if let Err(why) = platform.save_graph(&doc, &g) {
                store.error(format!("Could not rename: {why}"));
                return;
            }
        }
        store.library.update(|l| l.rename(&id, &name));
        let _ = store.library.with_untracked(|l| platform.save_library(l));
    };
    let duplicate = move |id: String| {
        let doc = DocId::Library(id);
        let graph = if store.current.get_untracked() == doc {
            Ok(store.editor.with_untracked(|e| e.document().clone()))
        } else {
            store.platform.get().load_graph(&doc)
        };
        match graph {
            Ok(g) => create_graph(store, Some(g)),
            Err(why) => store.error(format!("Could not duplicate: {why}")),
        }
    };
    let delete = move |id: String| {
        let name = store.library.with_untracked(|l| l.get(&id).map(|e| e.name.clone())).unwrap_or_default();
        let ok = window().confirm_with_message(&format!("Delete “{name}”? This cannot be undone.")).unwrap_or(false);
        if !ok {
            return;
        }
        let platform = store.platform.get();
        let doc = DocId::Library(id.clone());
        platform.delete_graph(&doc);
        store.library.update(|l| l.remove(&id));
        let _ = store.library.with_untracked(|l| platform.save_library(l));
        if store.current.get_untracked() == doc {
            let next = store.library.with_untracked(|l| l.entries.first().map(|e| DocId::Library(e.id.clone())));
            match next.and_then(|n| platform.load_graph(&n).ok().map(|g| (n, g))) {
                Some((n, g)) => load_into(store, n, g),
                None => create_graph(store, None),
            }
        }
    };

    let templates = TEMPLATES
        .iter()
        .filter_map(|(key, text)| engine::parse_graph(text).ok().map(|g| (*key, g)))
        .map(|(key, g)| {
            let name = g.display_name().to_string();
            let description = g.description.clone().unwrap_or_default();
            let nodes = g.nodes.len();
            view! {
                <li class="template">
                    <button class="template-card" data-template=key on:click=move |_| create_graph(store, Some(g.clone()))
                        aria-label=format!("Open template {name}")>
                        <span class="template-name">{name.clone()}</span>
                        <span class="template-meta">{format!("{nodes} nodes")}</span>
                        <span class="template-desc">{crate::model::palette::shorten(&description, 110)}</span>
                    </button>
                </li>
            }
        })
        .collect_view();

    view! {
        <section class="library" aria-label="Graphs">
            <div class="section-head">
                <h2>"Graphs"</h2>
                <button class="small" on:click=move |_| create_graph(store, None) aria-label="New graph">"+ New"</button>
            </div>
            <ul class="graph-list">
                <For each=entries key=|e| (e.id.clone(), e.name.clone()) let:entry>
                    {
                        let id = entry.id.clone();
                        let (id_open, id_ren, id_dup, id_del, id_cur) = (id.clone(), id.clone(), id.clone(), id.clone(), id.clone());
                        let id_edit = id.clone();
                        let is_current = move || store.current.with(|c| c.library_id() == Some(id_cur.as_str()));
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
                                        <button class="graph-open" on:click=move |_| open_graph(store, &DocId::Library(id_open.clone()))>{name.clone()}</button>
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
