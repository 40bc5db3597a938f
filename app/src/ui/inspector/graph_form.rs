//! The graph's own settings: name, description, limits (format.md §6), state fields (format.md §3)
//! and tools (format.md §4 (llm, tools) and §8, in `tools::ToolsSection`); the document's MCP servers (in
//! `mcp::McpSection`); at the top, the document's definitions
//! (format.md §9, in `definitions::DefinitionsSection`). Every change is one edit.

use std::sync::Arc;

use engine::Graph;
use engine::document::{FieldType, Limits, StateField};
use indexmap::IndexMap;
use leptos::prelude::*;
use serde_json::Value;

use crate::model::editing::edit::Meta;
use crate::model::editing::editor::ScopeStep;
use crate::model::editing::state_fields::{self, REDUCERS, TYPES};
use crate::state::{Alerts, DocState, use_alerts, use_doc};
use crate::ui::fields::{
    JsonInput, NumberField, NumberInput, SelectInput, SourceInput, TextField, Validator, focus_later, fresh_name,
    options,
};
use crate::ui::inspector::definitions::DefinitionsSection;
use crate::ui::inspector::mcp::McpSection;
use crate::ui::inspector::tools::ToolsSection;

type OptNum = Option<f64>;
type OptJson = Option<Value>;

/// The graph's settings: read as signals, written through `set_meta`.
#[derive(Clone, Copy)]
struct MetaEdit {
    doc: DocState,
    alerts: Alerts,
    meta: Memo<Meta>,
}

impl MetaEdit {
    fn get<T>(self, f: impl Fn(&Meta) -> T + Send + Sync + 'static) -> Signal<T>
    where
        T: Clone + PartialEq + Send + Sync + 'static,
    {
        let meta = self.meta;
        Memo::new(move |_| meta.with(&f)).into()
    }

    fn update(self, f: impl FnOnce(&mut Meta)) {
        let mut m = self.meta.get_untracked();
        f(&mut m);
        self.doc.edit(|e| e.set_meta(m));
    }

    /// Changes the state field at `index`.
    fn field(self, index: usize, f: impl FnOnce(&mut StateField)) {
        self.update(|m| {
            if let Some((_, sf)) = m.state.as_mut().and_then(|s| s.get_index_mut(index)) {
                f(sf);
            }
        });
    }
}

#[component]
pub fn GraphForm() -> impl IntoView {
    let doc = use_doc();
    let alerts = use_alerts();
    let me = MetaEdit { doc, alerts, meta: Memo::new(move |_| doc.editor.with(|e| Meta::of(e.graph()))) };
    let defaults = Graph::new("").effective_limits();
    let limit =
        move |label: &'static str, default: u64, get: fn(&Limits) -> Option<u64>, set: fn(&mut Limits, Option<u64>)| {
            view! {
                <NumberField label=label integer=true min=1.0 placeholder=default.to_string()
                    value=me.get(move |m| m.limits.as_ref().and_then(get).map(|v| v as f64))
                    on_commit=move |v: OptNum| me.update(|m| {
                        let mut l = m.limits.take().unwrap_or_default();
                        set(&mut l, v.map(|v| v as u64));
                        m.limits = (l != Limits::default()).then_some(l);
                    })/>
            }
        };
    let count = Memo::new(move |_| me.meta.with(|m| m.state.as_ref().map_or(0, IndexMap::len)));
    // The document's definitions are managed from the document's form; a definition opened
    // on the canvas says so in the heading.
    let at_top = Memo::new(move |_| doc.scope.with(Vec::is_empty));
    let heading = Memo::new(move |_| match doc.scope.with(|s| s.last().cloned()) {
        Some(ScopeStep::Definition(name)) => format!("Definition {name}"),
        Some(ScopeStep::Node(id)) => format!("Subgraph {id}"),
        None => "Graph".to_string(),
    });
    let add_field = move |_| {
        me.update(|m| {
            let s = m.state.get_or_insert_with(IndexMap::new);
            let name = fresh_name("field", |n| s.contains_key(n));
            s.insert(
                name,
                StateField {
                    ty: FieldType::String,
                    reducer: None,
                    default: None,
                    max_items: None,
                    evict: None,
                    description: None,
                },
            );
        });
        focus_later(".state-card:last-child .state-name".into());
    };
    view! {
        <section class="form graph-form">
            <header class="form-head">
                <h2>{move || heading.get()}</h2>
            </header>
            <TextField label="Name" value=me.get(|m| m.name.clone().unwrap_or_default()) placeholder="Untitled"
                on_commit=move |v: String| me.update(|m| m.name = (!v.trim().is_empty()).then_some(v))/>
            <TextField label="Description" multiline=true rows=2u32
                value=me.get(|m| m.description.clone().unwrap_or_default())
                on_commit=move |v: String| me.update(|m| m.description = (!v.trim().is_empty()).then_some(v))/>
            <fieldset class="field group">
                <legend>"Limits"</legend>
                <span class="hint">"Empty: the default, shown in grey."</span>
                <div class="grid-2">
                    {limit("Max steps", defaults.max_steps, |l| l.max_steps, |l, v| l.max_steps = v)}
                    {limit("Max ops", defaults.max_ops, |l| l.max_ops, |l, v| l.max_ops = v)}
                    {limit("Run timeout (ms)", defaults.run_timeout_ms, |l| l.run_timeout_ms, |l, v| l.run_timeout_ms = v)}
                    {limit("Node timeout (ms)", defaults.node_timeout_ms, |l| l.node_timeout_ms, |l, v| l.node_timeout_ms = v)}
                    {limit("Max state bytes", defaults.max_state_bytes, |l| l.max_state_bytes, |l, v| l.max_state_bytes = v)}
                </div>
            </fieldset>
            <fieldset class="field group state-fields">
                <legend>"State fields"</legend>
                {move || (count.get() == 0).then(|| view! {
                    <span class="hint">"None declared: every key is free-form and replaced on write."</span>
                })}
                <div class="state-list">
                    <For each=move || 0..count.get() key=|i| *i children=move |i| view! { <StateFieldCard me=me index=i/> }/>
                </div>
                <div class="row-actions">
                    <button type="button" class="small" on:click=add_field>"Add state field"</button>
                </div>
            </fieldset>
            <ToolsSection/>
            {move || at_top.get().then(|| view! { <McpSection/> })}
            {move || at_top.get().then(|| view! { <DefinitionsSection/> })}
        </section>
    }
}

/// One state field: name, type and remove on the first line, then reducer and default,
/// max_items and evict (for `append` fields), and a description.
///
/// Accessible names end with the field's name: `Name of count`, `Type of count`, `Reducer of
/// count`, `Default of count`, `Max items of count`, `Evict of count`, `Evict key of count`,
/// `Description of count`, `Remove state field count`.
#[component]
fn StateFieldCard(me: MetaEdit, index: usize) -> impl IntoView {
    let name =
        me.get(move |m| m.state.as_ref().and_then(|s| s.get_index(index)).map(|(k, _)| k.clone()).unwrap_or_default());
    let field = me.get(move |m| m.state.as_ref().and_then(|s| s.get_index(index)).map(|(_, f)| f.clone()));
    let aria = move |what: &'static str| Signal::derive(move || format!("{what} of {}", name.get()));
    let rename = move |new: String| {
        let new = new.trim().to_string();
        let old = name.get_untracked();
        if new == old {
            return;
        }
        let taken = me.meta.with_untracked(|m| m.state.as_ref().is_some_and(|s| s.contains_key(&new)));
        if new.is_empty() {
            me.alerts.error("A state field needs a name");
        } else if taken {
            me.alerts.error(format!("There is already a state field `{new}`"));
        } else {
            me.update(|m| {
                if let Some(s) = m.state.take() {
                    m.state =
                        Some(s.into_iter().map(|(k, f)| if k == old { (new.clone(), f) } else { (k, f) }).collect());
                }
            });
        }
    };
    let remove = move |_| {
        let old = name.get_untracked();
        me.update(|m| {
            if let Some(s) = &mut m.state {
                s.shift_remove(&old);
                if s.is_empty() {
                    m.state = None;
                }
            }
        });
    };
    let type_options: Vec<(String, String)> =
        TYPES.iter().map(|t| (t.name().to_string(), t.name().to_string())).collect();
    let field_type = Memo::new(move |_| field.with(|f| f.as_ref().map_or(FieldType::String, |f| f.ty)));
    let reducer_options = Signal::derive(move || {
        state_fields::reducers_for(field_type.get())
            .iter()
            .map(|r| (r.name().to_string(), r.name().to_string()))
            .collect::<Vec<_>>()
    });
    let ty = Signal::derive(move || field.with(|f| f.as_ref().map(|f| f.ty.name().to_string()).unwrap_or_default()));
    let reducer = Signal::derive(move || {
        field.with(|f| f.as_ref().map(|f| state_fields::reducer_of(f).name().to_string()).unwrap_or_default())
    });
    // Appending lists and transcripts can be capped; only lists evict by a key.
    let appends = Memo::new(move |_| {
        field.with(|f| {
            f.as_ref().is_some_and(|f| {
                matches!(
                    state_fields::reducer_of(f),
                    engine::document::Reducer::Append | engine::document::Reducer::Messages
                ) || f.max_items.is_some()
                    || f.evict.is_some()
            })
        })
    });
    let transcript = Memo::new(move |_| field_type.get() == FieldType::Messages);
    let evict = Signal::derive(move || field.with(|f| f.as_ref().and_then(|f| f.evict.clone())));
    let evict_mode = Signal::derive(move || match evict.get() {
        None => String::new(),
        Some(e) if e == "oldest" => String::new(),
        Some(e) if e.starts_with("lowest:") => "lowest".into(),
        Some(e) => e,
    });
    let default_valid: Validator = Arc::new(move |v: &Value| {
        let Some(ty) = field.with_untracked(|f| f.as_ref().map(|f| f.ty)) else { return Ok(String::new()) };
        engine::state::check_type(ty, v).map(|_| String::new()).map_err(|e| format!("✗ {e}"))
    });
    view! {
        <div class="state-card" role="group" aria-label=move || format!("State field {}", name.get())>
            <div class="state-line">
                <SourceInput class="state-name" aria_label=aria("Name") value=name on_commit=rename/>
                <SelectInput aria_label=aria("Type") options=type_options value=ty
                    on_commit=move |v: String| {
                        if let Some(t) = TYPES.iter().copied().find(|t| t.name() == v) {
                            me.field(index, |f| state_fields::set_type(f, t));
                        }
                    }/>
                <button type="button" class="icon remove" title="Remove"
                    aria-label=move || format!("Remove state field {}", name.get()) on:click=remove>"×"</button>
            </div>
            <div class="grid-2">
                <label class="field">
                    <span>"Reducer"</span>
                    <SelectInput aria_label=aria("Reducer") options=reducer_options value=reducer
                        on_commit=move |v: String| {
                            let r = REDUCERS.iter().copied().find(|r| r.name() == v).unwrap_or_default();
                            me.field(index, |f| state_fields::set_reducer(f, r));
                        }/>
                </label>
                <label class="field">
                    <span>"Default"</span>
                    <JsonInput aria_label=aria("Default") single_line=true optional=true validate=default_valid
                        placeholder="by type"
                        value=Signal::derive(move || field.with(|f| f.as_ref().and_then(|f| f.default.clone())))
                        on_commit=move |v: OptJson| me.field(index, |f| f.default = v)/>
                </label>
            </div>
            {move || appends.get().then(|| view! {
                <div class="grid-2">
                    <label class="field">
                        <span>"Max items"</span>
                        <NumberInput aria_label=aria("Max items") integer=true min=1.0 placeholder="no limit"
                            value=Signal::derive(move || field.with(|f| f.as_ref().and_then(|f| f.max_items).map(|v| v as f64)))
                            on_commit=move |v: OptNum| me.field(index, |f| f.max_items = v.map(|v| v as u64))/>
                    </label>
                    {move || if transcript.get() {
                        view! { <span class="hint">"A leading system message is always kept."</span> }.into_any()
                    } else {
                        view! {
                            <label class="field">
                                <span>"Evict"</span>
                                <SelectInput aria_label=aria("Evict")
                                    options=options(&[("", "oldest (default)"), ("lowest", "lowest by key")])
                                    value=evict_mode
                                    on_commit=move |v: String| me.field(index, |f| {
                                        f.evict = match v.as_str() {
                                            "" => None,
                                            "lowest" => {
                                                let key = f.evict.as_deref().and_then(|e| e.strip_prefix("lowest:")).unwrap_or("importance");
                                                Some(format!("lowest:{key}"))
                                            }
                                            other => Some(other.to_string()),
                                        };
                                    })/>
                            </label>
                        }.into_any()
                    }}
                </div>
                {move || (evict_mode.get() == "lowest").then(|| view! {
                    <label class="field">
                        <span>"Evict key"</span>
                        <SourceInput aria_label=aria("Evict key") placeholder="importance"
                            value=Signal::derive(move || evict.get().and_then(|e| e.strip_prefix("lowest:").map(str::to_string)).unwrap_or_default())
                            on_commit=move |v: String| me.field(index, |f| f.evict = Some(format!("lowest:{}", v.trim())))/>
                        <span class="hint">"Items whose key is lowest are dropped first (oldest first among ties)."</span>
                    </label>
                })}
            })}
            <label class="field">
                <span>"Description"</span>
                <SourceInput aria_label=aria("Description") placeholder="optional"
                    value=Signal::derive(move || field.with(|f| f.as_ref().and_then(|f| f.description.clone()).unwrap_or_default()))
                    on_commit=move |v: String| me.field(index, |f| f.description = (!v.trim().is_empty()).then_some(v))/>
            </label>
        </div>
    }
}
