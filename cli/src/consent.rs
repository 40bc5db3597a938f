//! Consent to start the programs a graph names as MCP servers (format.md §2.11, §8): a shared
//! document must not run code the person did not choose. `--allow-command PROGRAM`
//! (repeatable) and `SWITCHYARD_ALLOWED_COMMANDS` (comma-separated) list the programs, matched
//! exactly as the document writes them; before a run starts, every stdio server a tool of the
//! graph (or of its definitions) uses is checked, and a program not listed is bad input
//! (exit 2) naming the server, its whole command line and how to allow it. Nothing has
//! started by then; the host checks again when it spawns.

use engine::Plan;
use net::mcp::{AllowedCommands, refusal};

use crate::input::BadInput;

/// The programs allowed: the environment's and the flags'.
pub fn allowed(flags: &[String]) -> AllowedCommands {
    let mut allowed = AllowedCommands::from_env();
    allowed.allow(flags);
    allowed
}

/// Every stdio server the plan's tools use (its definitions' too) is allowed; else the
/// refusal, naming each server not allowed by its JSON path in the document at `path`.
pub fn check(plan: &Plan, path: &str, allowed: &AllowedCommands) -> Result<(), BadInput> {
    let refused: Vec<String> = plan
        .mcp_endpoints()
        .iter()
        .filter(|(_, endpoint)| !allowed.allows_endpoint(endpoint))
        .map(|(at, endpoint)| format!("{at}: {}", refusal(endpoint)))
        .collect();
    if refused.is_empty() { Ok(()) } else { Err(BadInput::new(format!("{path}: {}", refused.join("; ")))) }
}
