//! The inspector: a form for the selected node or edge, or for the graph itself, and the
//! list of problems the validator found.

use leptos::prelude::*;

use crate::actions::navigation;
use crate::state::{use_app, use_doc};
use crate::ui::inspector::edge_form::EdgeForm;
use crate::ui::inspector::graph_form::GraphForm;
use crate::ui::inspector::node_form::NodeForm;

#[component]
pub fn Inspector() -> impl IntoView {
    let doc = use_doc();
    let selected_node = Memo::new(move |_| {
        doc.editor.with(|e| {
            if e.selection.nodes.len() == 1 && e.selection.edges.is_empty() {
                e.selection.nodes.first().cloned()
            } else {
                None
            }
        })
    });
    let selected_edge = Memo::new(move |_| {
        doc.editor.with(|e| {
            if e.selection.edges.len() == 1 && e.selection.nodes.is_empty() {
                e.selection.edges.first().copied()
            } else {
                None
            }
        })
    });
    let many = Memo::new(move |_| doc.editor.with(|e| e.selection.nodes.len() + e.selection.edges.len()));
    // Another node or edge shows its form from the top, not where the last one was scrolled.
    let panel = NodeRef::<leptos::html::Aside>::new();
    Effect::new(move |_| {
        selected_node.track();
        selected_edge.track();
        if let Some(el) = panel.get_untracked() {
            el.set_scroll_top(0);
        }
    });
    view! {
        <aside class="sidebar right inspector" role="region" aria-label="Inspector" node_ref=panel>
            {move || {
                if let Some(id) = selected_node.get() {
                    view! { <NodeForm id=id/> }.into_any()
                } else if let Some(index) = selected_edge.get() {
                    view! { <EdgeForm index=index/> }.into_any()
                } else if many.get() > 1 {
                    view! {
                        <section class="form">
                            <h2>{move || format!("{} items selected", many.get())}</h2>
                            <div class="row-actions">
                                <button on:click=move |_| { doc.edit(|e| e.duplicate()); }>"Duplicate"</button>
                                <button class="danger" on:click=move |_| doc.edit(|e| e.delete_selection())>"Delete"</button>
                            </div>
                        </section>
                    }.into_any()
                } else {
                    view! { <GraphForm/> }.into_any()
                }
            }}
            <Problems/>
        </aside>
    }
}

/// The validator's findings; clicking one selects the node or edge concerned.
#[component]
fn Problems() -> impl IntoView {
    let app = use_app();
    let doc = use_doc();
    let list = move || doc.diagnostics.get();
    view! {
        <section class="problems" aria-label="Problems">
            <h2>{move || { let n = list().len(); if n == 0 { "No problems".to_string() } else { format!("Problems ({n})") } }}</h2>
            <ul>
                {move || list().iter().map(|d| {
                    let (node, edge) = (d.node.clone(), d.edge);
                    let pick = move |_| navigation::select_problem(app, node.as_deref(), edge);
                    view! {
                        <li class="problem" class:error=d.is_error() data-path=d.path.clone()>
                            <button class="problem-button" on:click=pick>
                                <span class="problem-sev">{if d.is_error() { "Error" } else { "Warning" }}</span>
                                <span class="problem-path">{d.path.clone()}</span>
                                <span class="problem-text">{d.message.clone()}</span>
                            </button>
                        </li>
                    }
                }).collect_view()}
            </ul>
        </section>
    }
}
