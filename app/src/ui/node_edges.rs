//! [`NodeEdges`]: the edges into and out of the node being edited, each a button that
//! opens it in the inspector: the keyboard's way to an edge's form (its label, condition,
//! map), as clicking its curve is the mouse's.

use leptos::prelude::*;

use super::fields::focus_first;
use crate::state::use_doc;

/// One button per edge touching node `id`, named `Edge <from> → <to>` and then its label and
/// whether it maps or has a condition (`Edge plan → write · map`).
#[component]
pub fn NodeEdges(#[prop(into)] id: Signal<String>) -> impl IntoView {
    let doc = use_doc();
    let edges = Memo::new(move |_| {
        let id = id.get();
        doc.editor.with(|e| {
            e.graph()
                .edges
                .iter()
                .enumerate()
                .filter(|(_, x)| x.from == id || x.to == id)
                .map(|(i, x)| {
                    let note = [
                        x.label.clone(),
                        x.map.as_ref().map(|_| "map".to_string()),
                        x.when.as_ref().map(|_| "when".to_string()),
                    ]
                    .into_iter()
                    .flatten()
                    .collect::<Vec<_>>()
                    .join(", ");
                    (i, format!("{} → {}", x.from, x.to), note)
                })
                .collect::<Vec<_>>()
        })
    });
    let open = move |index: usize| {
        doc.edit(|e| {
            e.selection.clear();
            e.selection.edges.insert(index);
        });
        focus_first(".edge-form select".into());
    };
    move || {
        let list = edges.get();
        (!list.is_empty()).then(|| {
            view! {
                <div class="node-edges" role="group" aria-label="Edges">
                    <span class="node-edges-head">"Edges"</span>
                    {list.into_iter().map(|(index, ends, note)| {
                        let note = if note.is_empty() { note } else { format!(" · {note}") };
                        let name = format!("Edge {ends}{note}");
                        view! {
                            <button type="button" class="chip edge-chip" aria-label=name
                                on:click=move |_| open(index)>
                                {ends}
                                <span class="edge-note">{note}</span>
                            </button>
                        }
                    }).collect_view()}
                </div>
            }
        })
    }
}
