//! `ToolCard`: one of the graph's tools.

use std::sync::Arc;

use engine::document::{ToolDef, ToolRun};
use leptos::prelude::*;
use serde_json::Value;

use crate::model::editing::definitions;
use crate::model::editing::tools::{self, RunKind};
use crate::state::{use_alerts, use_doc};
use crate::ui::fields::{JsonInput, SelectInput, SourceInput, Validator, options};
use crate::ui::inspector::tools::tool_run_field::ToolRunField;

type OptJson = Option<Value>;

/// A tool's parameters: a JSON Schema for an object of arguments.
fn parameters_validator() -> Validator {
    Arc::new(|v: &Value| match v {
        Value::Object(m) if m.get("type").is_none_or(|t| t == "object") => {
            let props = m.get("properties").and_then(Value::as_object).map_or(0, |p| p.len());
            Ok(format!("✓ JSON Schema: {props} argument{}", if props == 1 { "" } else { "s" }))
        }
        Value::Object(_) => Err("✗ a tool's arguments are an object: use \"type\": \"object\"".into()),
        _ => Err("✗ give a JSON Schema object, like {\"type\": \"object\", \"properties\": {…}}".into()),
    })
}

/// The tool at `index` of the graph's tools: its name (renaming follows into the nodes that
/// offer it), description, parameters (checked JSON: a wrong draft is never saved), how it
/// runs, and a remove button.
///
/// Accessible names end with the tool's name: `Name of tool search`, `Description of tool
/// search`, `Parameters of tool search`, `Run of tool search`, `Remove tool search`, and
/// those of [`ToolRunField`].
#[component]
pub fn ToolCard(index: usize) -> impl IntoView {
    let doc = use_doc();
    let alerts = use_alerts();
    let entry = Memo::new(move |_| {
        doc.editor
            .with(|e| e.graph().tools.as_ref().and_then(|t| t.get_index(index)).map(|(k, d)| (k.clone(), d.clone())))
    });
    let name = Memo::new(move |_| entry.with(|e| e.as_ref().map(|(k, _)| k.clone()).unwrap_or_default()));
    let def = move |f: fn(&ToolDef) -> Option<String>| {
        Signal::derive(move || entry.with(|e| e.as_ref().and_then(|(_, d)| f(d)).unwrap_or_default()))
    };
    let aria = move |what: &'static str| Signal::derive(move || format!("{what} of tool {}", name.get()));
    let update = move |f: &dyn Fn(&mut ToolDef)| {
        let name = name.get_untracked();
        doc.edit(|e| {
            if let Some(edit) = tools::update(e.graph(), &name, f) {
                e.apply(edit);
            }
        });
    };
    let rename = move |new: String| {
        let old = name.get_untracked();
        let result = doc.edit(|e| tools::rename(e.graph(), &old, &new).map(|edit| edit.map(|edit| e.apply(edit))));
        if let Err(why) = result {
            alerts.error(why.to_string());
        }
    };
    let remove = move |_| {
        let old = name.get_untracked();
        doc.edit(|e| {
            if let Some(edit) = tools::remove(e.graph(), &old) {
                e.apply(edit);
            }
        });
    };
    let run = Signal::derive(move || entry.with(|e| e.as_ref().map(|(_, d)| d.run.clone()).unwrap_or_default()));
    let run_kind = Signal::derive(move || run.with(|r| RunKind::of(r).name().to_string()));
    view! {
        <div class="tool-card" role="group" aria-label=move || format!("Tool {}", name.get())>
            <div class="tool-line">
                <SourceInput class="tool-card-name" aria_label=aria("Name") value=name on_commit=rename/>
                <button type="button" class="icon remove" title="Remove"
                    aria-label=move || format!("Remove tool {}", name.get()) on:click=remove>"×"</button>
            </div>
            <label class="field">
                <span>"Description"</span>
                <SourceInput aria_label=aria("Description") multiline=true rows=2u32
                    placeholder="What it does, for the model"
                    value=def(|d| d.description.clone())
                    on_commit=move |v: String| update(&|d| d.description = (!v.trim().is_empty()).then(|| v.clone()))/>
            </label>
            <label class="field">
                <span>"Parameters"</span>
                <JsonInput aria_label=aria("Parameters") optional=true rows=6u32 validate=parameters_validator()
                    placeholder="{ \"type\": \"object\", \"properties\": {} }"
                    value=Signal::derive(move || entry.with(|e| e.as_ref().and_then(|(_, d)| d.parameters.clone())))
                    on_commit=move |v: OptJson| update(&|d| d.parameters = v.clone())/>
                <span class="hint">"A JSON Schema for the arguments; a call that does not match gets an error reply."</span>
            </label>
            <label class="field">
                <span>"Run"</span>
                <SelectInput aria_label=aria("Run") options=options(&[("script", "Script (Rhai)"), ("http", "HTTP request"), ("use", "Definition"), ("mcp", "MCP server")])
                    value=run_kind
                    on_commit=move |v: String| {
                        if let Some(k) = RunKind::from_name(&v) {
                            let first = doc.editor.with_untracked(|e| match k {
                                RunKind::Mcp => e.document().mcp_servers.as_ref().and_then(|s| s.keys().next().cloned()),
                                _ => definitions::names(e.document()).into_iter().next(),
                            });
                            update(&|d| tools::set_run_kind(d, k, first.as_deref()));
                        }
                    }/>
            </label>
            <ToolRunField name=name run=run on_commit=move |r: ToolRun| update(&|d| d.run = r.clone())/>
        </div>
    }
}
