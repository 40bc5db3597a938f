//! `ToolRunField`: how a tool call runs (format.md §4 (llm, tools) and §8): a Rhai script, an HTTP request whose
//! templates see the call's `args`, one of the document's definitions (format.md §9), or a
//! tool of one of the document's MCP servers.

use engine::document::{ToolHttp, ToolMcp, ToolRun};
use indexmap::IndexMap;
use leptos::prelude::*;
use serde_json::Value;

use crate::model::editing::definitions;
use crate::model::editing::tools::RunKind;
use crate::state::use_doc;
use crate::ui::fields::{Check, JsonInput, KvField, SelectInput, SourceInput, options, templates_in_json};

type Map = IndexMap<String, String>;
type OptJson = Option<Value>;

/// What a tool's script and templates may use besides the usual names.
const ARGS: &[&str] = &["args"];

const METHODS: [&str; 7] = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

/// The script's text box, the request's method, URL, headers and body, the definition
/// (`Definition of tool search`), or the MCP server and its tool (`MCP server of tool
/// search`, `MCP tool of tool search`). Accessible names
/// end with the tool's name: `Script of tool search`, `Method of tool search`, `URL of tool
/// search`, `Body of tool search`, `Body text of tool search`, `Body JSON of tool search`.
#[component]
pub fn ToolRunField(
    /// The tool's name, for accessible names.
    #[prop(into)]
    name: Signal<String>,
    #[prop(into)] run: Signal<ToolRun>,
    #[prop(into)] on_commit: Callback<ToolRun>,
) -> impl IntoView {
    let kind = Memo::new(move |_| run.with(RunKind::of));
    move || match kind.get() {
        RunKind::Script => script(name, run, on_commit).into_any(),
        RunKind::Http => http(name, run, on_commit).into_any(),
        RunKind::Definition => definition(name, run, on_commit).into_any(),
        RunKind::Mcp => mcp(name, run, on_commit).into_any(),
    }
}

/// Which of the document's MCP servers runs the call, and the server's name for the tool
/// (empty: the graph tool's own name).
fn mcp(name: Signal<String>, run: Signal<ToolRun>, on_commit: Callback<ToolRun>) -> impl IntoView {
    let doc = use_doc();
    let servers = Signal::derive(move || {
        doc.editor.with(|e| {
            e.document().mcp_servers.iter().flat_map(|s| s.keys()).map(|n| (n.clone(), n.clone())).collect::<Vec<_>>()
        })
    });
    let current =
        Memo::new(move |_| run.with(|r| r.mcp.clone()).unwrap_or(ToolMcp { server: String::new(), tool: None }));
    let change = move |f: &dyn Fn(&mut ToolMcp)| {
        let mut m = current.get_untracked();
        f(&mut m);
        on_commit.run(ToolRun { mcp: Some(m), ..ToolRun::default() });
    };
    view! {
        <div class="grid-2">
            <label class="field">
                <span>"MCP server"</span>
                <SelectInput aria_label=aria(name, "MCP server") options=servers
                    value=Signal::derive(move || current.with(|m| m.server.clone()))
                    on_commit=move |v: String| change(&|m| m.server = v.clone())/>
            </label>
            <label class="field">
                <span>"Server's tool"</span>
                <SourceInput class="mono" aria_label=aria(name, "MCP tool") optional=true
                    placeholder="the same name as this tool"
                    value=Signal::derive(move || current.with(|m| m.tool.clone().unwrap_or_default()))
                    on_commit=move |v: String| change(&|m| m.tool = (!v.trim().is_empty()).then(|| v.trim().to_string()))/>
            </label>
        </div>
        <span class="hint">
            {move || if servers.with(Vec::is_empty) {
                "The graph has no MCP servers yet: add one in the graph's inspector, under MCP servers."
            } else {
                "The call's arguments go to the server's tool; its text is the result. Empty tool: the same name as this one."
            }}
        </span>
    }
}

fn aria(name: Signal<String>, what: &'static str) -> Signal<String> {
    Signal::derive(move || format!("{what} of tool {}", name.get()))
}

fn script(name: Signal<String>, run: Signal<ToolRun>, on_commit: Callback<ToolRun>) -> impl IntoView {
    view! {
        <label class="field">
            <span>"Script"</span>
            <SourceInput aria_label=aria(name, "Script") multiline=true rows=3u32 indents=true check=Check::Expr(ARGS)
                value=Signal::derive(move || run.with(|r| r.script.clone().unwrap_or_default()))
                on_commit=move |v: String| on_commit.run(ToolRun { script: Some(v), ..ToolRun::default() })/>
            <span class="hint">"Rhai with args, state and input in scope; its value is the result."</span>
        </label>
    }
}

/// Which of the document's definitions the tool runs.
fn definition(name: Signal<String>, run: Signal<ToolRun>, on_commit: Callback<ToolRun>) -> impl IntoView {
    let doc = use_doc();
    let names = Signal::derive(move || {
        doc.editor.with(|e| definitions::names(e.document())).into_iter().map(|n| (n.clone(), n)).collect::<Vec<_>>()
    });
    view! {
        <label class="field">
            <span>"Definition"</span>
            <SelectInput aria_label=aria(name, "Definition") options=names
                value=Signal::derive(move || run.with(|r| r.use_def.clone().unwrap_or_default()))
                on_commit=move |v: String| on_commit.run(ToolRun { use_def: Some(v), ..ToolRun::default() })/>
            <span class="hint">
                {move || if names.with(Vec::is_empty) {
                    "The graph has no definitions yet: add one in the graph's inspector, under Definitions."
                } else {
                    "The call's arguments are the definition's input; its final state is the result."
                }}
            </span>
        </label>
    }
}

fn http(name: Signal<String>, run: Signal<ToolRun>, on_commit: Callback<ToolRun>) -> impl IntoView {
    let doc = use_doc();
    let req = Memo::new(move |_| {
        run.with(|r| r.http.clone()).unwrap_or(ToolHttp { method: None, url: String::new(), headers: None, body: None })
    });
    let change = move |f: &dyn Fn(&mut ToolHttp)| {
        let mut h = req.get_untracked();
        f(&mut h);
        on_commit.run(ToolRun { http: Some(h), ..ToolRun::default() });
    };
    let body_mode = Memo::new(move |_| {
        req.with(|h| match &h.body {
            None => "none",
            Some(Value::String(_)) => "text",
            Some(_) => "json",
        })
        .to_string()
    });
    let set_mode = move |mode: String| {
        change(&|h| {
            h.body = match (mode.as_str(), h.body.take()) {
                ("none", _) => None,
                ("text", Some(Value::String(s))) => Some(Value::String(s)),
                ("text", _) => Some(Value::String(String::new())),
                (_, Some(v)) if !v.is_string() => Some(v),
                _ => Some(Value::Object(Default::default())),
            };
        });
    };
    let methods: Vec<(String, String)> = METHODS.iter().map(|m| (m.to_string(), m.to_string())).collect();
    let validator = templates_in_json(doc, Check::TemplateWith(ARGS));
    view! {
        <div class="grid-method">
            <label class="field">
                <span>"Method"</span>
                <SelectInput aria_label=aria(name, "Method") options=methods
                    value=Signal::derive(move || req.with(|h| h.method.clone().unwrap_or_else(|| "GET".into())))
                    on_commit=move |v: String| change(&|h| h.method = Some(v.clone()))/>
            </label>
            <label class="field">
                <span>"URL"</span>
                <SourceInput aria_label=aria(name, "URL") check=Check::TemplateWith(ARGS)
                    placeholder="https://example.com/api?q={{ args.query }}"
                    value=Signal::derive(move || req.with(|h| h.url.clone()))
                    on_commit=move |v: String| change(&|h| h.url = v.trim().to_string())/>
            </label>
        </div>
        <KvField label="Headers" entries=Signal::derive(move || req.with(|h| h.headers.clone().unwrap_or_default()))
            on_commit=move |m: Map| change(&|h| h.headers = (!m.is_empty()).then(|| m.clone()))
            key_noun="Header" value_noun="Value" check=Check::TemplateWith(ARGS) fresh_key="X-Header"
            hint="Values are templates; args is in scope."/>
        <label class="field">
            <span>"Body"</span>
            <SelectInput aria_label=aria(name, "Body")
                options=options(&[("none", "none"), ("text", "text (template)"), ("json", "JSON")])
                value=body_mode on_commit=set_mode/>
        </label>
        {move || match body_mode.get().as_str() {
            "text" => Some(view! {
                <label class="field">
                    <span>"Body text"</span>
                    <SourceInput aria_label=aria(name, "Body text") multiline=true rows=3u32 check=Check::TemplateWith(ARGS)
                        value=Signal::derive(move || req.with(|h| h.body.as_ref().and_then(Value::as_str).unwrap_or_default().to_string()))
                        on_commit=move |v: String| change(&|h| h.body = Some(Value::String(v.clone())))/>
                </label>
            }.into_any()),
            "json" => Some(view! {
                <label class="field">
                    <span>"Body JSON"</span>
                    <JsonInput aria_label=aria(name, "Body JSON") rows=4u32 validate=validator.clone()
                        value=Signal::derive(move || req.with(|h| h.body.clone().filter(|b| !b.is_string())))
                        on_commit=move |v: OptJson| change(&|h| h.body = v.clone())/>
                    <span class="hint">"Strings may hold {{ }} templates with args."</span>
                </label>
            }.into_any()),
            _ => None,
        }}
    }
}
