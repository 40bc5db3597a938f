//! `McpServerCard`: one of the graph's MCP servers.

use engine::document::McpServer;
use indexmap::IndexMap;
use leptos::prelude::*;

use crate::actions::mcp::{self, Probe};
use crate::model::editing::mcp_servers;
use crate::state::{use_alerts, use_app, use_doc};
use crate::ui::fields::{KvField, ListField, SourceInput};
use crate::ui::inspector::mcp::mcp_listing::McpListing;

type Map = IndexMap<String, String>;

/// Server `name`: its name (renaming follows into the tools that run on it), its URL, or its
/// command with arguments and environment, Connect with what it found, and remove (which
/// takes the server's tools along, and says so in its title).
///
/// Accessible names end with the server's name: `Name of MCP server memory`, `URL of MCP
/// server memory`, `Command of MCP server memory`, `Connect to MCP server memory`, `Remove
/// MCP server memory`.
#[component]
pub fn McpServerCard(name: String) -> impl IntoView {
    let app = use_app();
    let doc = use_doc();
    let alerts = use_alerts();
    let name = StoredValue::new(name);
    let server = Memo::new(move |_| {
        doc.editor.with(|e| e.document().mcp_servers.as_ref().and_then(|s| s.get(&name.get_value())).cloned())
    });
    let tool_count =
        Memo::new(move |_| doc.editor.with(|e| mcp_servers::tools_of(e.document(), &name.get_value()).len()));
    let probe = RwSignal::new(Probe::NotConnected);
    let label = move |what: &str| format!("{what} MCP server {}", name.get_value());
    let update = move |f: &dyn Fn(&mut McpServer)| {
        doc.edit(|e| {
            if let Some(edit) = mcp_servers::update(e.document(), &name.get_value(), f) {
                e.apply_to_document(edit);
            }
        });
        // What Connect showed may no longer be that server.
        probe.set(Probe::NotConnected);
    };
    let rename = move |new: String| {
        let old = name.get_value();
        let result = doc.edit(|e| {
            mcp_servers::rename(e.document(), &old, &new).map(|edit| edit.map(|edit| e.apply_to_document(edit)))
        });
        if let Err(why) = result {
            alerts.error(why.to_string());
        }
    };
    let remove = move |_| {
        doc.edit(|e| {
            if let Some(edit) = mcp_servers::remove(e.document(), &name.get_value()) {
                e.apply_to_document(edit);
            }
        });
    };
    let connect = move |_| mcp::connect(app, name.get_value(), probe);
    let text = move |f: fn(&McpServer) -> Option<String>| {
        Signal::derive(move || server.with(|s| s.as_ref().and_then(f).unwrap_or_default()))
    };
    let set_command = move |v: String| {
        if !v.trim().is_empty() {
            update(&|s| s.command = Some(v.trim().to_string()));
        }
    };
    let set_args = move |v: Vec<String>| update(&|s| s.args = (!v.is_empty()).then(|| v.clone()));
    let set_env = move |m: Map| update(&|s| s.env = (!m.is_empty()).then(|| m.clone()));
    let set_headers = move |m: Map| update(&|s| s.headers = (!m.is_empty()).then(|| m.clone()));
    let set_url = move |v: String| match mcp_servers::by_url(&v) {
        Ok(s) => update(&|old| old.url = s.url.clone()),
        Err(why) => alerts.error(why.to_string()),
    };
    let args = Signal::derive(move || server.with(|s| s.as_ref().and_then(|s| s.args.clone()).unwrap_or_default()));
    let env = Signal::derive(move || server.with(|s| s.as_ref().and_then(|s| s.env.clone()).unwrap_or_default()));
    let headers =
        Signal::derive(move || server.with(|s| s.as_ref().and_then(|s| s.headers.clone()).unwrap_or_default()));
    let is_command = Memo::new(move |_| server.with(|s| s.as_ref().is_some_and(|s| s.command.is_some())));
    view! {
        <li class="mcp-server-card">
            <div class="mcp-server-body" role="group" aria-label=format!("MCP server {}", name.get_value())>
                <div class="mcp-server-line">
                    <SourceInput class="mcp-server-name" aria_label=label("Name of")
                        value=Signal::derive(move || name.get_value()) on_commit=rename/>
                    <button type="button" class="small" aria-label=label("Connect to")
                        disabled=move || probe.with(|p| *p == Probe::Connecting)
                        title="Open a session, list the server's tools, and close it"
                        on:click=connect>"Connect"</button>
                    <button type="button" class="icon remove"
                        title=move || match tool_count.get() {
                            0 => "Remove".to_string(),
                            1 => "Remove, with the tool that runs on it".to_string(),
                            n => format!("Remove, with the {n} tools that run on it"),
                        }
                        aria-label=label("Remove") on:click=remove>"×"</button>
                </div>
                {move || if is_command.get() {
                    view! {
                        <label class="field">
                            <span>"Command"</span>
                            <SourceInput class="mono" aria_label=label("Command of") value=text(|s| s.command.clone())
                                on_commit=set_command/>
                        </label>
                        <ListField label="Arguments" item_noun="Argument" fresh_item=""
                            items=args on_commit=set_args
                            empty_text="No arguments"/>
                        <KvField label="Environment" key_noun="Variable" value_noun="Value" fresh_key="NAME"
                            entries=env on_commit=set_env
                            hint="Given to the program as written; nothing else of the host's environment but PATH, HOME, LANG, TERM and USER reaches it."/>
                    }.into_any()
                } else {
                    view! {
                        <label class="field">
                            <span>"URL"</span>
                            <SourceInput class="mono" aria_label=label("URL of") value=text(|s| s.url.clone())
                                placeholder="http://localhost:3001/mcp" on_commit=set_url/>
                        </label>
                        <KvField label="Headers" key_noun="Header" value_noun="Value" fresh_key="X-Header"
                            entries=headers on_commit=set_headers
                            hint="No credentials here: a token comes from the keys kept for the URL's origin."/>
                    }.into_any()
                }}
                <McpListing name=name.get_value() probe=probe/>
            </div>
        </li>
    }
}
