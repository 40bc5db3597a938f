//! Consent to start the programs a graph names as MCP servers (format.md §2.11, §8): a shared
//! document must not run code the person did not choose. `--allow-command PROGRAM`
//! (repeatable) and `SWITCHYARD_ALLOWED_COMMANDS` (comma-separated) list the programs, matched
//! exactly as the document writes them; before a run starts, every stdio server of the graph
//! and of its definitions is checked, and a program not listed is bad input (exit 2) naming
//! the server, its whole command line and how to allow it. Nothing has started by then; the
//! host checks again when it spawns.

use engine::document::Graph;
use engine::host::McpEndpoint;
use net::mcp::{AllowedCommands, refusal};

use crate::input::BadInput;

/// The programs allowed: the environment's and the flags'.
pub fn allowed(flags: &[String]) -> AllowedCommands {
    let mut allowed = AllowedCommands::from_env();
    allowed.allow(flags);
    allowed
}

/// Every stdio server of `graph` (and its definitions) is allowed; else the refusal, naming
/// each server not allowed by its JSON path in the document at `path`.
pub fn check(graph: &Graph, path: &str, allowed: &AllowedCommands) -> Result<(), BadInput> {
    let mut servers = Vec::new();
    stdio_servers(graph, "", &mut servers);
    let refused: Vec<String> = servers
        .iter()
        .filter(|(_, endpoint)| !allowed.allows_endpoint(endpoint))
        .map(|(at, endpoint)| format!("{at}: {}", refusal(endpoint)))
        .collect();
    if refused.is_empty() { Ok(()) } else { Err(BadInput::new(format!("{path}: {}", refused.join("; ")))) }
}

/// The stdio servers of `graph` and its definitions, each with its JSON path.
fn stdio_servers(graph: &Graph, prefix: &str, out: &mut Vec<(String, McpEndpoint)>) {
    for (name, server) in graph.mcp_servers.iter().flatten() {
        if let Some(program) = &server.command {
            let endpoint = McpEndpoint::Stdio {
                program: program.clone(),
                args: server.args.clone().unwrap_or_default(),
                env: server.env.iter().flatten().map(|(k, v)| (k.clone(), v.clone())).collect(),
            };
            out.push((format!("{prefix}mcp_servers.{name}"), endpoint));
        }
    }
    for (name, definition) in graph.definitions.iter().flatten() {
        stdio_servers(definition, &format!("{prefix}definitions.{name}."), out);
    }
}
