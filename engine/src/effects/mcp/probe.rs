//! What an editor's Connect button shows: a server's name, version, protocol version and
//! tools, from a session opened and closed at once.

use serde::Serialize;
use serde_json::Value;

use super::session::{endpoint_as_given, open};
use crate::document::McpServer;
use crate::host::Host;

/// How long each exchange of a probe may take.
const PROBE_TIMEOUT_MS: u64 = 30_000;

/// A server as it presents itself.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Listing {
    /// The server's own name (`serverInfo.name`), e.g. `mcp-servers/everything`.
    pub server_name: String,
    pub server_title: Option<String>,
    pub server_version: String,
    pub protocol_version: String,
    pub tools: Vec<ListedTool>,
}

/// A tool in a server's listing, as a graph tool would be made from it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ListedTool {
    pub name: String,
    pub description: Option<String>,
    /// Its `inputSchema`, without `$schema`: what a graph tool's `parameters` would be.
    pub input_schema: Value,
}

/// Connects to `server` (named `name` in the document), lists its tools and closes the
/// session. Header values are used as written (a template in one is an error: it is
/// rendered only when a run starts). The error says what went wrong, naming the server.
pub async fn mcp_probe(host: &dyn Host, name: &str, server: &McpServer) -> Result<Listing, String> {
    let endpoint = endpoint_as_given(name, server)?;
    let link = open(host, name, endpoint, PROBE_TIMEOUT_MS).await.map_err(|f| f.reason)?;
    host.mcp_close(&link.endpoint, link.connection.as_deref(), link.session_id.as_deref()).await;
    Ok(Listing {
        server_name: link.info.name.clone(),
        server_title: link.info.title.clone(),
        server_version: link.info.version.clone(),
        protocol_version: link.version.clone(),
        tools: link
            .tools
            .iter()
            .map(|t| ListedTool {
                name: t.name.clone(),
                description: t.description.clone(),
                input_schema: t.parameters(),
            })
            .collect(),
    })
}
