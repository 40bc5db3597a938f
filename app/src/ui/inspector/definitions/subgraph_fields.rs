//! [`SubgraphFields`]: what a `subgraph` node runs (an embedded graph, or one of the
//! document's definitions, format.md §9), and its inputs and outputs.

use std::sync::Arc;

use indexmap::IndexMap;
use leptos::prelude::*;
use serde_json::Value;

use crate::actions::navigation;
use crate::model::editing::definitions;
use crate::state::use_app;
use crate::ui::fields::{Check, JsonField, KvField, SelectField, Validator};
use crate::ui::inspector::node_edit::{NodeEdit, STATE_LIST};

type Map = IndexMap<String, String>;
type OptJson = Option<Value>;

/// The value of the `Definition` select for an embedded graph.
const EMBEDDED: &str = "";

/// `Definition`: a select of `(embedded graph)` and the document's definitions (choosing one
/// sets `use` and drops the embedded graph; going back embeds a copy of the definition) and
/// `Edit definition` (opens it on the canvas), then
/// the inputs and outputs, and the embedded graph's JSON with `Make reusable`, which turns it
/// into a new definition this node uses.
#[component]
pub fn SubgraphFields(ed: NodeEdit) -> impl IntoView {
    let app = use_app();
    let doc = ed.doc;
    let names = Memo::new(move |_| doc.editor.with(|e| definitions::names(e.document())));
    let choices = Signal::derive(move || {
        let mut all = vec![(EMBEDDED.to_string(), "(embedded graph)".to_string())];
        all.extend(names.get().into_iter().map(|n| (n.clone(), n)));
        all
    });
    let using = ed.get(|n| if n.graph.is_none() { n.use_def.clone().unwrap_or_default() } else { String::new() });
    let choose = move |v: String| {
        let doc_graph = doc.editor.with_untracked(|e| e.document().clone());
        ed.update(|n| {
            *n = if v == EMBEDDED { definitions::embed(&doc_graph, n) } else { definitions::use_definition(n, &v) };
        });
    };
    let make_reusable = move |_| {
        let Some(id) = ed.node.with_untracked(|n| n.as_ref().map(|n| n.id.clone())) else { return };
        match doc.edit(|e| e.make_reusable(&id)) {
            Ok(name) => ed
                .alerts
                .info(format!("The graph of `{id}` is now definition `{name}`, listed in the graph's inspector")),
            Err(why) => ed.alerts.error(why),
        }
    };
    let hint = Signal::derive(move || {
        if names.with(Vec::is_empty) {
            "Runs its own embedded graph. To run one graph in several places, make it reusable, or add definitions in the graph's inspector (click the canvas background).".to_string()
        } else {
            "Its own embedded graph, or one of the graph's definitions (shared: editing it changes every use)."
                .to_string()
        }
    });
    let open = move |_| navigation::open_definition(app, &using.get_untracked());
    view! {
        <SelectField label="Definition" options=choices value=using on_commit=choose hint=hint.get_untracked()/>
        {move || (!using.with(String::is_empty)).then(|| view! {
            <div class="row-actions">
                <button type="button" class="small" on:click=open
                    aria-label=move || format!("Edit definition {}", using.get())>"Edit definition"</button>
            </div>
        })}
        <KvField label="Inputs" entries=ed.get(|n| n.inputs.clone().unwrap_or_default())
            on_commit=move |m: Map| ed.update(|n| n.inputs = (!m.is_empty()).then_some(m))
            key_noun="Input" value_noun="Expression" check=Check::Expr(&[]) fresh_key="field"
            hint="The subgraph's input: its field ← an expression over this graph's state."/>
        <KvField label="Outputs" entries=ed.get(|n| n.outputs.clone().unwrap_or_default())
            on_commit=move |m: Map| ed.update(|n| n.outputs = (!m.is_empty()).then_some(m))
            key_noun="Output" value_noun="Expression" check=Check::Expr(&["result"]) fresh_key="field"
            key_list=STATE_LIST
            hint="This graph's field ← an expression over `result`, the subgraph's final state."/>
        {move || using.with(String::is_empty).then(|| view! {
            <JsonField label="Graph" rows=10u32 validate=graph_validator()
                value=ed.get(|n| n.graph.as_ref().and_then(|g| serde_json::to_value(g).ok()))
                shown=ed.get(|n| n.graph.as_ref().map(|g| g.to_pretty_json()).unwrap_or_default())
                on_commit=move |v: OptJson| {
                    if let Some(g) = v.and_then(|v| engine::parse::graph_from_value(v).ok()) {
                        ed.update(|n| n.graph = Some(Box::new(g)));
                    }
                }
                hint="The embedded graph document; it is checked before it is kept."/>
            <div class="row-actions">
                <button type="button" class="small" on:click=make_reusable
                    title="Move this graph into the graph's definitions, used by this node">"Make reusable"</button>
            </div>
        })}
    }
}

/// An embedded graph's JSON: a graph document, its size and its errors counted.
fn graph_validator() -> Validator {
    Arc::new(|v: &Value| {
        engine::parse::graph_from_value(v.clone())
            .map(|g| {
                let problems = engine::validate(&g).iter().filter(|d| d.is_error()).count();
                let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
                let mut text =
                    format!("✓ a graph of {} and {}", plural(g.nodes.len(), "node"), plural(g.edges.len(), "edge"));
                if problems > 0 {
                    text.push_str(&format!(
                        " ({problems} error{} listed under Problems)",
                        if problems == 1 { "" } else { "s" }
                    ));
                }
                text
            })
            .map_err(|e| format!("✗ {e}"))
    })
}
