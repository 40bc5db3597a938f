//! [`McpSection`]: the graph's MCP servers (`mcp_servers`), in the graph's own form.

use indexmap::IndexMap;
use leptos::prelude::*;

use crate::model::editing::mcp_servers;
use crate::state::use_doc;
use crate::ui::inspector::mcp::mcp_server_card::McpServerCard;

/// The graph's MCP servers, one card each in the document's order, and a form adding one:
/// by URL (Streamable HTTP) or by command line (a program speaking MCP over stdio). A wrong
/// URL or an empty command is said under the field.
///
/// Accessible names: `Add MCP server by` (the choice), `Server URL` or `Server command line`,
/// the button `Add server`.
#[component]
pub fn McpSection() -> impl IntoView {
    let doc = use_doc();
    let names = Memo::new(move |_| {
        doc.editor.with(|e| e.document().mcp_servers.iter().flat_map(IndexMap::keys).cloned().collect::<Vec<_>>())
    });
    let by_command = RwSignal::new(false);
    let typed = RwSignal::new(String::new());
    let problem = RwSignal::new(None::<String>);
    let add = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let text = typed.get_untracked();
        let server = if by_command.get_untracked() {
            let mut words = text.split_whitespace().map(str::to_string);
            let command = words.next().unwrap_or_default();
            mcp_servers::by_command(&command, words.collect(), IndexMap::new())
        } else {
            mcp_servers::by_url(&text)
        };
        match server {
            Ok(server) => {
                doc.edit(|e| {
                    let (edit, _) = mcp_servers::add(e.document(), server);
                    e.apply_to_document(edit);
                });
                typed.set(String::new());
                problem.set(None);
            }
            Err(why) => problem.set(Some(why.to_string())),
        }
    };
    let kind_changed = move |ev: leptos::ev::Event| {
        by_command.set(event_target_value(&ev) == "command");
        problem.set(None);
    };
    view! {
        <fieldset class="field group mcp-section">
            <legend>"MCP servers"</legend>
            {move || if names.with(Vec::is_empty) {
                view! { <span class="hint">"No MCP servers: add one by URL or by command, Connect to see its tools, then Add tools so an LLM node's model may call them."</span> }.into_any()
            } else {
                view! { <span class="hint">"Servers whose tools the graph's tools run. Connect lists a server's tools; Add tools makes graph tools of them."</span> }.into_any()
            }}
            <ul class="mcp-server-list" aria-label="MCP servers">
                <For each=move || names.get() key=|n| n.clone() children=move |name| view! { <McpServerCard name=name/> }/>
            </ul>
            <form class="mcp-add" on:submit=add>
                <select aria-label="Add MCP server by" on:change=kind_changed>
                    <option value="url" selected=move || !by_command.get()>"URL"</option>
                    <option value="command" selected=move || by_command.get()>"Command"</option>
                </select>
                <input type="text" class="mono" spellcheck="false"
                    aria-label=move || if by_command.get() { "Server command line" } else { "Server URL" }
                    aria-invalid=move || problem.with(Option::is_some).to_string()
                    placeholder=move || if by_command.get() { "npx -y @modelcontextprotocol/server-memory" } else { "http://localhost:3001/mcp" }
                    prop:value=move || typed.get()
                    on:input=move |ev| typed.set(event_target_value(&ev))/>
                <button type="submit" class="small">"Add server"</button>
            </form>
            {move || problem.get().map(|p| view! { <p class="check bad" role="status">{p}</p> })}
            {move || by_command.get().then(|| view! {
                <span class="hint">"The program starts only in the desktop app or the CLI, for a command line the person allowed. Arguments are split at spaces; edit them one by one on the card."</span>
            })}
        </fieldset>
    }
}
