//! `McpListing`: what a server's Connect found.

use engine::ListedTool;
use leptos::prelude::*;
use serde_json::Value;

use crate::actions::mcp::{self, Probe};
use crate::state::use_app;

/// Nothing before Connect; then `Connecting…` (role status); the error whole (role alert);
/// or the server as it presents itself (name, version, protocol) with its tools, each with
/// its description and parameters, and `Add tools` (accessible name `Add tools from MCP
/// server NAME`).
#[component]
pub fn McpListing(name: String, probe: RwSignal<Probe>) -> impl IntoView {
    let app = use_app();
    let name = StoredValue::new(name);
    move || match probe.get() {
        Probe::NotConnected => None,
        Probe::Connecting => Some(view! { <p class="mcp-status" role="status">"Connecting…"</p> }.into_any()),
        Probe::Failed(why) => Some(view! { <p class="check bad mcp-error" role="alert">{why}</p> }.into_any()),
        Probe::Listed(listing) => {
            let who = match &listing.server_title {
                Some(title) if *title != listing.server_name => format!("{title} ({})", listing.server_name),
                _ => listing.server_name.clone(),
            };
            let facts = format!(
                "version {}, protocol {}, {} tool{}",
                listing.server_version,
                listing.protocol_version,
                listing.tools.len(),
                if listing.tools.len() == 1 { "" } else { "s" }
            );
            let tools = listing.tools.clone();
            let add = move |_| {
                if let Probe::Listed(l) = probe.get_untracked() {
                    mcp::add_tools(app, &name.get_value(), &l);
                }
            };
            Some(view! {
                <div class="mcp-listing" role="status" aria-label=format!("Tools of MCP server {}", name.get_value())>
                    <p class="mcp-who"><strong class="mono">{who}</strong>" "<span class="muted">{facts}</span></p>
                    <ul class="mcp-tools">
                        {tools.into_iter().map(tool_row).collect_view()}
                    </ul>
                    <div class="row-actions">
                        <button type="button" class="small" on:click=add
                            aria-label=format!("Add tools from MCP server {}", name.get_value())>"Add tools"</button>
                    </div>
                </div>
            }.into_any())
        }
    }
}

/// One listed tool: its name, description and parameters (`name: type`, required ones marked `*`).
fn tool_row(tool: ListedTool) -> impl IntoView {
    let params = parameters(&tool.input_schema);
    view! {
        <li class="mcp-tool">
            <span class="mcp-tool-name mono">{tool.name}</span>
            {tool.description.map(|d| view! { <span class="mcp-tool-description">{d}</span> })}
            {(!params.is_empty()).then(|| view! { <span class="mcp-tool-params mono">{params}</span> })}
        </li>
    }
}

/// `message: string*, count: integer`: the schema's properties with their types.
fn parameters(schema: &Value) -> String {
    let required: Vec<&str> =
        schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
    schema
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(k, v)| {
            let ty = v.get("type").and_then(Value::as_str).unwrap_or("any");
            let mark = if required.contains(&k.as_str()) { "*" } else { "" };
            format!("{k}: {ty}{mark}")
        })
        .collect::<Vec<_>>()
        .join(", ")
}
