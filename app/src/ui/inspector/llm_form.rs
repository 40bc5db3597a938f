//! The fields of an `llm` node (format.md §4; format.md §4 (llm, tools) and §8): prompt and system, earlier messages, where
//! the reply goes and how it is read, the graph's tools it may call, an output schema, and
//! the model (provider, name, URL, temperature, max tokens, a mock's responses).

use std::sync::Arc;

use engine::document::{ModelConfig, Parse, Provider};
use leptos::prelude::*;
use serde_json::Value;

use crate::model::editing::tools;
use crate::ui::fields::{Check, CodeField, JsonField, NumberField, SelectField, TextField, Validator, options};
use crate::ui::inspector::node_edit::{NodeEdit, STATE_LIST, non_empty, parse_name, parse_value, trimmed};
use crate::ui::inspector::tools::{MockResponses, ToolPicker};

type OptNum = Option<f64>;
type OptJson = Option<Value>;
type Values = Vec<Value>;

const PROVIDERS: [(Provider, &str); 3] = [
    (Provider::Mock, "mock (offline, canned responses)"),
    (Provider::Openai, "openai (OpenAI-compatible API)"),
    (Provider::Anthropic, "anthropic (Messages API)"),
];

/// What a new model starts as: the offline mock.
fn new_model() -> ModelConfig {
    ModelConfig {
        provider: Provider::Mock,
        model: None,
        base_url: None,
        temperature: None,
        max_tokens: None,
        responses: None,
    }
}

/// An output schema is a JSON Schema: an object (or `true`/`false`).
fn schema_validator() -> Validator {
    Arc::new(|v: &Value| match v {
        Value::Object(m) => {
            let props = m.get("properties").and_then(Value::as_object).map_or(0, |p| p.len());
            Ok(format!(
                "✓ JSON Schema ({props} propert{}); the reply is read as JSON",
                if props == 1 { "y" } else { "ies" }
            ))
        }
        Value::Bool(_) => Ok("✓ JSON Schema".into()),
        _ => Err("✗ give a JSON Schema object, like {\"type\": \"object\", \"properties\": {…}}".into()),
    })
}

#[component]
pub fn LlmFields(ed: NodeEdit) -> impl IntoView {
    let model = move |f: &dyn Fn(&mut ModelConfig)| ed.update(|n| f(n.model.get_or_insert_with(new_model)));
    let provider = ed.get(|n| n.model.as_ref().map(|m| m.provider.name()).unwrap_or_default().to_string());
    let provider_options = Signal::derive(move || {
        let mut o: Vec<(String, String)> =
            PROVIDERS.iter().map(|(p, text)| (p.name().to_string(), text.to_string())).collect();
        if provider.with(String::is_empty) {
            o.insert(0, (String::new(), "— choose —".into()));
        }
        o
    });
    let set_provider = move |v: String| {
        let Some(p) = PROVIDERS.iter().map(|(p, _)| *p).find(|p| p.name() == v) else { return };
        model(&|m| {
            m.provider = p;
            if p != Provider::Mock {
                // Canned responses mean nothing to a real model.
                m.responses = None;
            }
        });
    };
    let has_messages = ed.get(|n| n.messages.is_some());
    let has_schema = ed.get(|n| n.output_schema.is_some());
    let graph_tools = Memo::new(move |_| {
        let node = ed.node.get();
        ed.doc.editor.with(|e| node.map(|n| tools::choices(e.graph(), &n)).unwrap_or_default())
    });
    let offered = ed.get(|n| n.tools.clone().unwrap_or_default());
    let toggle = move |(name, on): (String, bool)| {
        let Some(n) = ed.node.get_untracked() else { return };
        let changed = ed.doc.editor.with_untracked(|e| tools::offer(e.graph(), &n, &name, on));
        ed.update(|n| *n = changed);
    };
    let tool_names = Signal::derive(move || graph_tools.with(|t| t.iter().map(|(n, _)| n.clone()).collect()));
    view! {
        <CodeField check=Check::Template label="Prompt" multiline=true rows=4u32 optional=has_messages.get_untracked()
            value=ed.get(|n| n.prompt.clone().unwrap_or_default())
            on_commit=move |v: String| ed.update(|n| {
                n.prompt = if n.messages.is_some() { non_empty(v) } else { Some(v) };
            })
            hint="Optional when earlier messages are given."/>
        <CodeField check=Check::Template label="System" multiline=true optional=true rows=2u32
            value=ed.get(|n| n.system.clone().unwrap_or_default())
            on_commit=move |v: String| ed.update(|n| n.system = non_empty(v))
            placeholder="Optional system message"/>
        <CodeField check=Check::Expr(&[]) label="Messages" optional=true value=ed.get(|n| n.messages.clone().unwrap_or_default())
            on_commit=move |v: String| ed.update(|n| n.messages = trimmed(&v))
            placeholder="state.messages"
            hint="The earlier messages, sent after the system message and before the prompt."/>
        <div class="grid-2">
            <TextField label="Writes" list=STATE_LIST value=ed.get(|n| n.writes.clone().unwrap_or_default())
                on_commit=move |v: String| ed.update(|n| n.writes = trimmed(&v))
                hint="A messages field gets the whole reply, tool calls included."/>
            {move || if has_schema.get() {
                view! { <p class="hint parse-note">"Parse: json (an output schema is set)."</p> }.into_any()
            } else {
                view! {
                    <SelectField label="Parse" options=options(&[("text", "text (default)"), ("json", "json")])
                        value=ed.get(|n| parse_name(n.parse, Parse::Text))
                        on_commit=move |v: String| ed.update(|n| n.parse = parse_value(&v, Parse::Text))/>
                }.into_any()
            }}
        </div>
        <ToolPicker choices=graph_tools offered=offered on_toggle=toggle/>
        <JsonField label="Output schema" optional=true rows=3u32 validate=schema_validator()
            value=ed.get(|n| n.output_schema.clone())
            on_commit=move |v: OptJson| ed.update(|n| n.output_schema = v)
            placeholder="{ \"type\": \"object\", \"properties\": { … } }"
            hint="The reply must be JSON matching this schema. Empty: any reply."/>
        <fieldset class="field group">
            <legend>"Model"</legend>
            <SelectField label="Provider" options=provider_options value=provider on_commit=set_provider/>
            <div class="grid-2">
                <TextField label="Model name"
                    placeholder=if provider.get_untracked() == "anthropic" { "claude-sonnet-4-5" } else { "gpt-4o-mini" }
                    value=ed.get(|n| n.model.as_ref().and_then(|m| m.model.clone()).unwrap_or_default())
                    on_commit=move |v: String| model(&|m| m.model = trimmed(&v))/>
                <NumberField label="Temperature" min=0.0 max=2.0 placeholder="model default"
                    value=ed.get(|n| n.model.as_ref().and_then(|m| m.temperature))
                    on_commit=move |v: OptNum| model(&|m| m.temperature = v)/>
            </div>
            {move || model_endpoint(ed, provider.get())}
            {move || (provider.get() == "mock").then(|| view! {
                <MockResponses tools=tool_names
                    value=ed.get(|n| n.model.as_ref().and_then(|m| m.responses.clone()).unwrap_or_default())
                    on_commit=move |v: Values| model(&|m| m.responses = (!v.is_empty()).then(|| v.clone()))/>
            })}
            <p class="hint">"API keys come from the app's settings or the environment, never from the graph."</p>
        </fieldset>
    }
}

/// Where a real model is reached (base URL) and, for Anthropic, the reply's token budget.
fn model_endpoint(ed: NodeEdit, provider: String) -> Option<AnyView> {
    let model = move |f: &dyn Fn(&mut ModelConfig)| ed.update(|n| f(n.model.get_or_insert_with(new_model)));
    let (placeholder, hint) = match provider.as_str() {
        "anthropic" => ("https://api.anthropic.com", "Anthropic's Messages API, or a server speaking it."),
        "openai" => ("https://api.openai.com/v1", "Any OpenAI-compatible server: Ollama, llama.cpp, vLLM…"),
        _ => return None,
    };
    let max_tokens = (provider == "anthropic").then(|| {
        view! {
            <NumberField label="Max tokens" integer=true min=1.0 placeholder="1024"
                value=ed.get(|n| n.model.as_ref().and_then(|m| m.max_tokens).map(|v| v as f64))
                on_commit=move |v: OptNum| model(&|m| m.max_tokens = v.map(|v| v as u64))
                hint="The longest reply, in tokens."/>
        }
    });
    Some(
        view! {
            <TextField label="Base URL" placeholder=placeholder
                value=ed.get(|n| n.model.as_ref().and_then(|m| m.base_url.clone()).unwrap_or_default())
                on_commit=move |v: String| model(&|m| m.base_url = trimmed(&v))
                hint=hint/>
            {max_tokens}
        }
        .into_any(),
    )
}
