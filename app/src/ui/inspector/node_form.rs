//! The form for one node (format.md §4): id, label and description, the fields of its kind,
//! then the common fields under "Advanced", and Duplicate / Delete. Only the fields that
//! apply to the node's kind are shown; fields it carries that do not apply are listed with a
//! button to remove them.

use std::sync::Arc;

use engine::Node;
use engine::document::{Join, NodeKind, OnError, Parse, Retry};
use indexmap::IndexMap;
use leptos::context::Provider;
use leptos::prelude::*;
use serde_json::Value;

use crate::model::editing::map_edge::item_names;
use crate::model::editing::palette;
use crate::model::editing::selection::Selection;
use crate::model::editing::state_fields::messages_fields;
use crate::state::{use_alerts, use_doc};
use crate::ui::fields::{
    Check, CheckboxField, CodeField, JsonField, KvField, ListField, NumberField, ScopeNames, SelectField, TextField,
    Validator, options, templates_in_json,
};
use crate::ui::inspector::breakpoint_toggles::BreakpointToggles;
use crate::ui::inspector::definitions::SubgraphFields;
use crate::ui::inspector::human::{EndFields, HumanFields};
use crate::ui::inspector::llm_form::LlmFields;
use crate::ui::inspector::node_edges::NodeEdges;
use crate::ui::inspector::node_edit::{NodeEdit, STATE_LIST, as_u64, non_empty, parse_name, parse_value, trimmed};
use crate::ui::inspector::tools::MessagesFieldSelect;

// Closure parameter types written in `view!` without angle brackets, which it cannot parse.
type Strings = Vec<String>;
type Map = IndexMap<String, String>;
type OptNum = Option<f64>;
type OptJson = Option<Value>;

#[component]
pub fn NodeForm(id: String) -> impl IntoView {
    let doc = use_doc();
    let alerts = use_alerts();
    let node_id = id.clone();
    let node = Memo::new(move |_| doc.editor.with(|e| e.graph().node(&id).cloned()));
    let kind = Memo::new(move |_| node.with(|n| n.as_ref().map(|n| n.kind)));
    let ed = NodeEdit { doc, alerts, node };
    // A node run by map edges sees its item and `index` in every expression and template.
    // (Given through a `Provider`, which scopes it to this form: a context provided from the
    // component's body would outlive the form, and its memo with it.)
    let item_scope = Memo::new(move |_| doc.editor.with(|e| item_names(e.graph(), &node_id)));
    let state_names = Memo::new(move |_| {
        doc.editor.with(|e| e.graph().state.as_ref().map(|s| s.keys().cloned().collect::<Vec<_>>()).unwrap_or_default())
    });
    let head = move || {
        kind.get().map(|k| {
            let info = palette::info(k);
            view! {
                <header class="form-head" style=format!("--kind: var({})", info.color_var)>
                    <span class="node-icon" aria-hidden="true">{info.icon}</span>
                    <h2>{move || node.with(|n| n.as_ref().map(|n| n.title().to_string()).unwrap_or_default())}</h2>
                    <span class="kind-tag">{info.title}</span>
                </header>
            }
        })
    };
    let selected_only = move |e: &mut crate::model::editing::editor::Editor| {
        if let Some(n) = node.get_untracked() {
            e.selection = Selection::only_node(&n.id);
        }
    };
    let duplicate = move |_| {
        doc.edit(|e| {
            selected_only(e);
            e.duplicate();
        });
    };
    let delete = move |_| {
        doc.edit(|e| {
            selected_only(e);
            e.delete_selection();
        });
    };
    view! {
        <Provider value=ScopeNames(item_scope.into())>
        <section class="form node-form">
            {head}
            <datalist id=STATE_LIST>
                {move || state_names.get().into_iter().map(|n| view! { <option value=n></option> }).collect_view()}
            </datalist>
            <TextField label="Id" value=ed.get(|n| n.id.clone())
                on_commit=move |v: String| ed.update(|n| n.id = v.trim().to_string())
                hint="Letters, digits, _ and -. Renaming keeps its edges."/>
            <TextField label="Label" value=ed.get(|n| n.label.clone().unwrap_or_default())
                on_commit=move |v: String| ed.update(|n| n.label = non_empty(v))
                placeholder=node.with_untracked(|n| n.as_ref().map(|n| n.id.clone()).unwrap_or_default())/>
            <TextField label="Description" multiline=true rows=2u32 value=ed.get(|n| n.description.clone().unwrap_or_default())
                on_commit=move |v: String| ed.update(|n| n.description = non_empty(v))/>
            {move || kind.get().map(|k| kind_fields(ed, k))}
            <BreakpointToggles id=ed.get(|n| n.id.clone())
                runs=Signal::derive(move || kind.get().is_some_and(|k| !matches!(k, NodeKind::Start | NodeKind::End | NodeKind::Note)))/>
            {move || kind.get().map(|k| advanced(ed, k))}
            <StrayFields ed=ed/>
            <NodeEdges id=ed.get(|n| n.id.clone())/>
            <div class="row-actions form-actions">
                <button type="button" on:click=duplicate>"Duplicate"</button>
                <button type="button" class="danger" on:click=delete>"Delete"</button>
            </div>
        </section>
        </Provider>
    }
}

/// The fields of the node's own kind.
fn kind_fields(ed: NodeEdit, kind: NodeKind) -> AnyView {
    match kind {
        NodeKind::Start => view! {
            <ListField label="Required inputs" items=ed.get(|n| n.required.clone().unwrap_or_default())
                on_commit=move |v: Strings| ed.update(|n| n.required = (!v.is_empty()).then_some(v))
                item_noun="Required input" fresh_item="input" list=STATE_LIST
                empty_text="Nothing required: a run may start with any input."
                hint="Input keys a run must be given."/>
        }
        .into_any(),
        NodeKind::End => view! { <EndFields ed=ed/> }.into_any(),
        NodeKind::Set => view! {
            <KvField label="Set" entries=ed.get(|n| n.set.clone().unwrap_or_default())
                on_commit=move |m: Map| ed.update(|n| n.set = Some(m))
                key_noun="Field" value_noun="Expression" check=Check::Expr(&[]) fresh_key="field" key_list=STATE_LIST
                hint="Each expression's value is written to its state field."/>
        }
        .into_any(),
        NodeKind::Script => view! {
            <CodeField check=Check::Expr(&[]) label="Script" multiline=true rows=8u32 indents=true value=ed.get(|n| n.script.clone().unwrap_or_default())
                on_commit=move |v: String| ed.update(|n| n.script = Some(v))
                hint="Rhai code evaluating to a map of updates, like #{ count: state.count + 1 }, or () for none."/>
        }
        .into_any(),
        NodeKind::Router => view! {
            <CodeField check=Check::Expr(&[]) label="Route" multiline=true rows=3u32 value=ed.get(|n| n.route.clone().unwrap_or_default())
                on_commit=move |v: String| ed.update(|n| n.route = Some(v))
                hint="Gives a label (or a list of labels): the out-edges with that label are followed; `default` catches the rest."/>
            <OutLabels ed=ed/>
        }
        .into_any(),
        NodeKind::Human => view! { <HumanFields ed=ed/> }.into_any(),
        NodeKind::Llm => view! { <LlmFields ed=ed/> }.into_any(),
        NodeKind::Http => http_fields(ed),
        NodeKind::Subgraph => view! { <SubgraphFields ed=ed/> }.into_any(),
        NodeKind::Tools => {
            let fields = Signal::derive(move || ed.doc.editor.with(|e| messages_fields(e.graph())));
            view! {
                <MessagesFieldSelect fields=fields value=ed.get(|n| n.messages.clone().unwrap_or_default())
                    on_commit=move |v: String| ed.update(|n| n.messages = trimmed(&v))/>
            }
            .into_any()
        }
        NodeKind::Note => view! {
            <TextField label="Text" multiline=true rows=5u32 value=ed.get(|n| n.text.clone().unwrap_or_default())
                on_commit=move |v: String| ed.update(|n| n.text = Some(v))/>
        }
        .into_any(),
    }
}

/// The labels on a router's out-edges, so the route expression can be checked against them.
#[component]
fn OutLabels(ed: NodeEdit) -> impl IntoView {
    let labels = Memo::new(move |_| {
        let Some(id) = ed.node.with(|n| n.as_ref().map(|n| n.id.clone())) else { return Vec::new() };
        ed.doc.editor.with(|e| {
            e.graph()
                .edges
                .iter()
                .filter(|x| x.from == id)
                .map(|x| x.label.clone().unwrap_or_else(|| "(no label)".into()))
                .collect::<Vec<_>>()
        })
    });
    view! {
        <p class="hint out-labels">
            {move || {
                let l = labels.get();
                if l.is_empty() { "No out-edges yet.".to_string() } else { format!("Out-edge labels: {}", l.join(", ")) }
            }}
        </p>
    }
}

fn http_fields(ed: NodeEdit) -> AnyView {
    const METHODS: [&str; 7] = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];
    let body_mode = ed.get(|n| {
        match &n.body {
            None => "none",
            Some(Value::String(_)) => "text",
            Some(_) => "json",
        }
        .to_string()
    });
    let set_mode = move |mode: String| {
        ed.update(|n| {
            n.body = match (mode.as_str(), n.body.take()) {
                ("none", _) => None,
                ("text", Some(Value::String(s))) => Some(Value::String(s)),
                ("text", Some(v)) => Some(Value::String(serde_json::to_string_pretty(&v).unwrap_or_default())),
                ("text", None) => Some(Value::String(String::new())),
                (_, Some(Value::String(s))) => Some(
                    serde_json::from_str::<Value>(&s)
                        .ok()
                        .filter(|v| !v.is_string())
                        .unwrap_or_else(|| Value::Object(Default::default())),
                ),
                (_, Some(v)) => Some(v),
                (_, None) => Some(Value::Object(Default::default())),
            };
        });
    };
    let validator = templates_in_json(ed.doc, Check::Template);
    let methods: Vec<(String, String)> = METHODS.iter().map(|m| (m.to_string(), m.to_string())).collect();
    view! {
        <div class="grid-method">
            <SelectField label="Method" options=methods
                value=ed.get(|n| n.method.clone().unwrap_or_else(|| "GET".into()))
                on_commit=move |v: String| ed.update(|n| n.method = Some(v))/>
            <CodeField check=Check::Template label="URL" value=ed.get(|n| n.url.clone().unwrap_or_default())
                on_commit=move |v: String| ed.update(|n| n.url = Some(v.trim().to_string()))
                placeholder="https://example.com/api/{{ state.id }}"/>
        </div>
        <KvField label="Headers" entries=ed.get(|n| n.headers.clone().unwrap_or_default())
            on_commit=move |m: Map| ed.update(|n| n.headers = (!m.is_empty()).then_some(m))
            key_noun="Header" value_noun="Value" check=Check::Template fresh_key="X-Header"
            hint="Values are templates."/>
        <SelectField label="Body" options=options(&[("none", "none"), ("text", "text (template)"), ("json", "JSON")])
            value=body_mode on_commit=set_mode/>
        {move || match body_mode.get().as_str() {
            "text" => Some(view! {
                <CodeField check=Check::Template label="Body text" multiline=true rows=4u32
                    value=ed.get(|n| n.body.as_ref().and_then(Value::as_str).map(str::to_string).unwrap_or_default())
                    on_commit=move |v: String| ed.update(|n| n.body = Some(Value::String(v)))/>
            }.into_any()),
            "json" => Some(view! {
                <JsonField label="Body JSON" rows=5u32 validate=validator.clone()
                    value=ed.get(|n| n.body.clone().filter(|b| !b.is_string()))
                    on_commit=move |v: OptJson| ed.update(|n| n.body = v)
                    hint="Strings may hold {{ }} templates."/>
            }.into_any()),
            _ => None,
        }}
        <div class="grid-2">
            <TextField label="Writes" list=STATE_LIST value=ed.get(|n| n.writes.clone().unwrap_or_default())
                on_commit=move |v: String| ed.update(|n| n.writes = trimmed(&v))/>
            <SelectField label="Parse" options=options(&[("json", "json (default)"), ("text", "text")])
                value=ed.get(|n| parse_name(n.parse, Parse::Json))
                on_commit=move |v: String| ed.update(|n| n.parse = parse_value(&v, Parse::Json))/>
        </div>
    }
    .into_any()
}

/// The common fields of nodes that run (not start, end or note).
fn advanced(ed: NodeEdit, kind: NodeKind) -> Option<AnyView> {
    if matches!(kind, NodeKind::Start | NodeKind::End | NodeKind::Note) {
        return None;
    }
    let node_timeout = ed.limits().node_timeout_ms;
    let attempts = ed.get(|n| n.retry.as_ref().map(|r| f64::from(r.attempts)));
    let pinned_valid: Validator = Arc::new(|v: &Value| match v {
        Value::Object(m) => Ok(format!(
            "✓ pinned: this update ({} field{}) is used instead of running the node",
            m.len(),
            if m.len() == 1 { "" } else { "s" }
        )),
        _ => Err("✗ give a JSON object of updates, like {\"summary\": \"…\"}".into()),
    });
    let effectful = kind.is_effectful().then(|| {
        view! {
            <div class="grid-2">
                <NumberField label="Timeout (ms)" integer=true min=1.0 placeholder=node_timeout.to_string()
                    value=ed.get(|n| n.timeout_ms.map(|v| v as f64))
                    on_commit=move |v: OptNum| ed.update(|n| n.timeout_ms = as_u64(v))/>
                <NumberField label="Retry attempts" integer=true min=1.0 placeholder="1" value=attempts
                    on_commit=move |v: OptNum| ed.update(|n| {
                        n.retry = v.map(|a| Retry {
                            attempts: a.clamp(1.0, f64::from(u32::MAX)) as u32,
                            backoff_ms: n.retry.as_ref().and_then(|r| r.backoff_ms),
                        });
                    })/>
                <NumberField label="Retry backoff (ms)" integer=true min=0.0 placeholder="0"
                    disabled=Signal::derive(move || attempts.with(Option::is_none))
                    value=ed.get(|n| n.retry.as_ref().and_then(|r| r.backoff_ms).map(|v| v as f64))
                    on_commit=move |v: OptNum| ed.update(|n| {
                        if let Some(r) = &mut n.retry {
                            r.backoff_ms = as_u64(v);
                        }
                    })/>
            </div>
        }
    });
    Some(
        view! {
            <details class="advanced" open>
                <summary>"Advanced"</summary>
                <div class="form">
                    <div class="grid-2">
                        <SelectField label="Join" options=options(&[("any", "any (default)"), ("all", "all")])
                            value=ed.get(|n| if n.join == Some(Join::All) { "all".into() } else { "any".to_string() })
                            on_commit=move |v: String| ed.update(|n| n.join = (v == "all").then_some(Join::All))
                            hint="all: wait for every predecessor."/>
                        <SelectField label="On error"
                            options=options(&[("fail", "fail (default)"), ("continue", "continue"), ("route", "route")])
                            value=ed.get(|n| match n.on_error.unwrap_or_default() {
                                OnError::Fail => "fail".to_string(),
                                OnError::Continue => "continue".into(),
                                OnError::Route => "route".into(),
                            })
                            on_commit=move |v: String| ed.update(|n| n.on_error = match v.as_str() {
                                "continue" => Some(OnError::Continue),
                                "route" => Some(OnError::Route),
                                _ => None,
                            })
                            hint="route: follow the edge labelled error."/>
                    </div>
                    <CheckboxField label="Disabled" value=ed.get(Node::is_disabled)
                        on_commit=move |v: bool| ed.update(|n| n.disabled = v.then_some(true))
                        hint="Bypassed: writes nothing, follows its unconditional out-edges."/>
                    {effectful}
                    <JsonField label="Pinned" optional=true rows=2u32 validate=pinned_valid
                        value=ed.get(|n| n.pinned.clone().map(Value::Object))
                        on_commit=move |v: OptJson| ed.update(|n| n.pinned = match v {
                            Some(Value::Object(m)) => Some(m),
                            _ => None,
                        })
                        placeholder="{ \"field\": \"value\" }"
                        hint="An update used instead of running the node. Empty: the node runs."/>
                </div>
            </details>
        }
        .into_any(),
    )
}

/// Fields the node carries that its kind does not use (from an imported document, say), as
/// the engine's field table has them ([`Node::stray_fields`]), with a button to remove them.
#[component]
fn StrayFields(ed: NodeEdit) -> impl IntoView {
    let stray = ed.get(Node::stray_fields);
    let clear = move |_| {
        let fields = stray.get_untracked();
        ed.update(|n| fields.iter().for_each(|&f| n.clear(f)));
    };
    move || {
        let fields = stray.get();
        (!fields.is_empty()).then(|| {
            let kind = ed.node.with_untracked(|n| n.as_ref().map(|n| n.kind.name()).unwrap_or_default());
            let names = fields.iter().map(|f| f.name()).collect::<Vec<_>>().join(", ");
            view! {
                <div class="stray" role="note">
                    <span>{format!("Not used by a {kind} node: {names}.")}</span>
                    <button type="button" class="small" on:click=clear>"Remove them"</button>
                </div>
            }
        })
    }
}
