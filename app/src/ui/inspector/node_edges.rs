//! [`NodeEdges`]: the edges into and out of the node being edited, each a button that
//! opens it in the inspector: the keyboard's way to an edge's form (its label, condition,
//! map), as clicking its curve is the mouse's; and [`ConnectTo`], the keyboard's way to draw
//! a new edge from it.

use leptos::prelude::*;

use crate::model::editing::selection::connect_targets;
use crate::state::{use_alerts, use_doc};
use crate::ui::fields::focus_first;

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
    let list = move || {
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
    };
    view! {
        {list}
        <ConnectTo id=id/>
    }
}

/// A list of the nodes this one may lead to and a `Connect` button: drawing an edge without
/// a pointer. The new edge is selected, so its form opens.
#[component]
fn ConnectTo(#[prop(into)] id: Signal<String>) -> impl IntoView {
    let doc = use_doc();
    let alerts = use_alerts();
    let targets = Memo::new(move |_| {
        let id = id.get();
        doc.editor.with(|e| connect_targets(e.graph(), &id))
    });
    let chosen = RwSignal::new(String::new());
    let connect = move |_| {
        let from = id.get_untracked();
        let to = chosen.get_untracked();
        let to = if to.is_empty() { targets.with_untracked(|t| t.first().cloned()).unwrap_or_default() } else { to };
        if to.is_empty() {
            return;
        }
        if let Err(why) = doc.edit(|e| e.connect(&from, &to)) {
            alerts.error(format!("Cannot connect {from} → {to}: {why}"));
        } else {
            chosen.set(String::new());
            focus_first(".edge-form select".into());
        }
    };
    move || {
        let list = targets.get();
        (!list.is_empty()).then(|| {
            view! {
                <div class="connect-to" role="group" aria-label="Connect">
                    <select aria-label="Connect to" on:change=move |ev| chosen.set(event_target_value(&ev))>
                        {list.into_iter().map(|t| {
                            let (value, shown) = (t.clone(), t.clone());
                            view! { <option value=value selected=move || chosen.get() == t>{shown}</option> }
                        }).collect_view()}
                    </select>
                    <button type="button" on:click=connect>"Connect"</button>
                </div>
            }
        })
    }
}
