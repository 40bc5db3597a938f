//! The form for one edge (format.md §5, map edges too): its ends, label, condition, map and item name, id,
//! and Delete.

use engine::Edge;
use engine::document::{NodeKind, OnError};
use leptos::prelude::*;

use crate::model::editing::map_edge::check_item_name;
use crate::state::{use_alerts, use_doc};
use crate::ui::fields::{Check, CodeField, SelectField, TextField};

const LABEL_LIST: &str = "inspector-edge-labels";

/// The string literals a route expression can give: its literals, except those compared with
/// `==` or `!=` (`state.decision == "approve"` tests a value, it does not name a label).
fn route_literals(src: &str) -> Vec<String> {
    let chars: Vec<char> = src.chars().collect();
    let compared = |text: &str| text.ends_with("==") || text.ends_with("!=");
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '"' {
            i += 1;
            continue;
        }
        let start = i;
        let mut lit = String::new();
        i += 1;
        let mut closed = false;
        while i < chars.len() {
            match chars[i] {
                '\\' => {
                    if let Some(c) = chars.get(i + 1) {
                        lit.push(*c);
                    }
                    i += 2;
                    continue;
                }
                '"' => {
                    closed = true;
                    break;
                }
                c => lit.push(c),
            }
            i += 1;
        }
        i += 1;
        let before: String = chars[..start].iter().collect();
        let rest: String = chars[i.min(chars.len())..].iter().collect();
        let rest = rest.trim_start();
        let after_compared = rest.starts_with("==") || rest.starts_with("!=");
        if closed
            && !lit.is_empty()
            && lit.len() <= 64
            && !lit.contains('\n')
            && !compared(before.trim_end())
            && !after_compared
        {
            out.push(lit);
        }
    }
    out
}

#[component]
pub fn EdgeForm(index: usize) -> impl IntoView {
    let doc = use_doc();
    let alerts = use_alerts();
    let edge = Memo::new(move |_| doc.editor.with(|e| e.graph().edges.get(index).cloned()));
    let get =
        move |f: fn(&Edge) -> String| Signal::derive(move || edge.with(|e| e.as_ref().map(f).unwrap_or_default()));
    let update = move |f: &dyn Fn(&mut Edge)| {
        if let Some(mut e) = edge.get_untracked() {
            f(&mut e);
            doc.edit(|ed| ed.update_edge(index, e));
        }
    };
    // Node ids that can be a source (not end or note) and a target (not start or note).
    let ends = Memo::new(move |_| {
        doc.editor.with(|e| {
            let nodes = &e.graph().nodes;
            let pick = |skip: NodeKind| -> Vec<(String, String)> {
                nodes
                    .iter()
                    .filter(|n| n.kind != skip && n.kind != NodeKind::Note)
                    .map(|n| {
                        let text = if n.title() == n.id { n.id.clone() } else { format!("{} ({})", n.id, n.title()) };
                        (n.id.clone(), text)
                    })
                    .collect()
            };
            (pick(NodeKind::End), pick(NodeKind::Start))
        })
    });
    let reconnect = move |from: String, to: String| {
        if let Err(why) = doc.edit(|e| e.reconnect(index, &from, &to)) {
            alerts.error(why);
        }
    };
    let set_from = move |v: String| {
        if let Some(e) = edge.get_untracked() {
            reconnect(v, e.to);
        }
    };
    let set_to = move |v: String| {
        if let Some(e) = edge.get_untracked() {
            reconnect(e.from, v);
        }
    };
    // What the source chooses by: a human's options, a router's labels (on its other edges
    // and as strings in its route), `default`, and `error` when the source routes errors.
    let source = Memo::new(move |_| {
        let from = edge.with(|e| e.as_ref().map(|e| e.from.clone()))?;
        doc.editor.with(|e| e.graph().node(&from).cloned())
    });
    let suggestions = Memo::new(move |_| {
        let Some(n) = source.get() else { return Vec::new() };
        let mut out: Vec<String> = Vec::new();
        match n.kind {
            NodeKind::Human => out.extend(n.options.clone().unwrap_or_default()),
            NodeKind::Router => {
                doc.editor.with(|e| {
                    out.extend(e.graph().edges.iter().filter(|x| x.from == n.id).filter_map(|x| x.label.clone()));
                });
                out.extend(route_literals(n.route.as_deref().unwrap_or_default()));
            }
            _ => {}
        }
        if n.kind == NodeKind::Router || (n.kind == NodeKind::Human && n.options.is_some()) {
            out.push("default".into());
        }
        if n.on_error == Some(OnError::Route) {
            out.push("error".into());
        }
        let mut seen = std::collections::HashSet::new();
        out.retain(|l| seen.insert(l.clone()));
        out
    });
    let label_hint = move || match source.with(|s| s.as_ref().map(|n| (n.kind, n.options.is_some()))) {
        Some((NodeKind::Router, _)) => "Followed when the route gives this label; `default` catches the rest.",
        Some((NodeKind::Human, true)) => "Followed when the answer is this option.",
        _ => "Shown on the canvas. An edge labelled `error` is followed when the source fails (on_error: route).",
    };
    let mapped = Memo::new(move |_| edge.with(|e| e.as_ref().is_some_and(|e| e.map.is_some())));
    let set_as = move |v: String| {
        let v = v.trim().to_string();
        if v.is_empty() || v == "item" {
            update(&|e| e.as_name = None);
        } else if let Err(why) = check_item_name(&v) {
            alerts.error(format!("As: {why}"));
        } else {
            update(&|e| e.as_name = Some(v.clone()));
        }
    };
    let title = move || edge.with(|e| e.as_ref().map(|e| format!("{} → {}", e.from, e.to)).unwrap_or_default());
    let delete = move |_| {
        doc.edit(|e| {
            e.selection.clear();
            e.selection.edges.insert(index);
            e.delete_selection();
        });
    };
    view! {
        <section class="form edge-form">
            <header class="form-head">
                <span class="node-icon edge-icon" aria-hidden="true">"→"</span>
                <h2>{title}</h2>
                <span class="kind-tag">"Edge"</span>
            </header>
            <SelectField label="From" options=Signal::derive(move || ends.get().0) value=get(|e| e.from.clone())
                on_commit=set_from/>
            <SelectField label="To" options=Signal::derive(move || ends.get().1) value=get(|e| e.to.clone())
                on_commit=set_to/>
            <datalist id=LABEL_LIST>
                {move || suggestions.get().into_iter().map(|l| view! { <option value=l></option> }).collect_view()}
            </datalist>
            <label class="field">
                <span>"Label"</span>
                <crate::ui::fields::SourceInput aria_label="Label" list=LABEL_LIST value=get(|e| e.label.clone().unwrap_or_default())
                    on_commit=move |v: String| {
                        let v = v.trim().to_string();
                        update(&|e| e.label = (!v.is_empty()).then(|| v.clone()));
                    }/>
                <span class="hint">{label_hint}</span>
            </label>
            {move || {
                let s = suggestions.get();
                (!s.is_empty()).then(|| view! {
                    <span class="chips">
                        {s.into_iter().map(|l| {
                            let pick = l.clone();
                            let name = format!("Use label {l}");
                            view! {
                                <button type="button" class="chip" aria-label=name
                                    on:click=move |_| update(&|e| e.label = Some(pick.clone()))>{l}</button>
                            }
                        }).collect_view()}
                    </span>
                })
            }}
            <CodeField check=Check::Expr(&[]) label="When" optional=true value=get(|e| e.when.clone().unwrap_or_default())
                on_commit=move |v: String| update(&|e| e.when = (!v.trim().is_empty()).then(|| v.clone()))
                placeholder="always"
                hint="Followed only when this is true after the step. Empty: always."/>
            <CodeField check=Check::Expr(&[]) label="Map" optional=true value=get(|e| e.map.clone().unwrap_or_default())
                on_commit=move |v: String| update(&|e| {
                    e.map = (!v.trim().is_empty()).then(|| v.clone());
                    if e.map.is_none() {
                        e.as_name = None;
                    }
                })
                placeholder="not mapped"
                hint="An expression giving a list: the target runs once per item, all at once in the next step."/>
            {move || mapped.get().then(|| view! {
                <TextField label="As" value=get(|e| e.as_name.clone().unwrap_or_default()) placeholder="item"
                    on_commit=set_as
                    hint="The item's name in the target's expressions (with `index`). Empty: item."/>
            })}
            <TextField label="Id" value=get(|e| e.id.clone().unwrap_or_default()) placeholder="optional"
                on_commit=move |v: String| update(&|e| e.id = (!v.trim().is_empty()).then(|| v.trim().to_string()))/>
            <div class="row-actions form-actions">
                <button type="button" class="danger" on:click=delete>"Delete"</button>
            </div>
        </section>
    }
}
