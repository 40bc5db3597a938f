//! The graph's MCP servers, from the graph inspector: Connect (a session opened with the
//! platform's host, the server's tools listed, the session closed) and Add tools (graph tools
//! made from what Connect listed).

use engine::Listing;
use leptos::prelude::*;

use crate::model::editing::mcp_servers;
use crate::state::App;

/// Where a server's Connect stands, as the inspector shows it.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Probe {
    #[default]
    NotConnected,
    Connecting,
    Listed(Listing),
    /// The error as the engine gave it (naming the server; the server's own words kept).
    Failed(String),
}

/// Connects to the document's server `name` with the platform's host and puts what it said
/// in `out`: its listing, or the error whole.
pub fn connect(app: App, name: String, out: RwSignal<Probe>) {
    let server =
        app.doc.editor.with_untracked(|e| e.document().mcp_servers.as_ref().and_then(|s| s.get(&name)).cloned());
    let Some(server) = server else {
        out.set(Probe::Failed(format!("The graph has no MCP server `{name}`")));
        return;
    };
    out.set(Probe::Connecting);
    let host = app.platform.get().host();
    leptos::task::spawn_local(async move {
        let probed = engine::mcp_probe(host.as_ref(), &name, &server).await;
        out.set(match probed {
            Ok(listing) => Probe::Listed(listing),
            Err(why) => Probe::Failed(why),
        });
    });
}

/// Adds graph tools for every tool of `listing` that no graph tool runs yet on server `name`,
/// as one step of undo, and says which.
pub fn add_tools(app: App, name: &str, listing: &Listing) {
    let added = app.doc.edit(|e| {
        // Servers, like the tools made here, belong to the top-level document.
        let (edit, added) = mcp_servers::add_tools(e.document(), name, &listing.tools);
        if let Some(edit) = edit {
            e.apply_to_document(edit);
        }
        added
    });
    if added.is_empty() {
        app.alerts.info(format!("The graph already has a tool for each tool of `{name}`"));
    } else {
        let n = added.len();
        app.alerts.info(format!(
            "Added {n} tool{} from `{name}`: {}. Tick them in an LLM node's Tools so its model may call them.",
            if n == 1 { "" } else { "s" },
            added.join(", ")
        ));
    }
}
