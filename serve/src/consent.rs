//! The programs served graphs may start as MCP servers (format.md §2.11, §8): set once when
//! the service starts (`--allow-command`, `SWITCHYARD_ALLOWED_COMMANDS`), checked before a run
//! starts and again by the host when it spawns.

use std::sync::OnceLock;

use net::mcp::AllowedCommands;

static ALLOWED: OnceLock<AllowedCommands> = OnceLock::new();

/// Sets the programs served graphs may start as MCP servers, once, before the first run.
pub fn set_allowed_commands(allowed: AllowedCommands) {
    let _ = ALLOWED.set(allowed);
}

/// The programs allowed: as set, else none.
pub fn allowed_commands() -> &'static AllowedCommands {
    ALLOWED.get_or_init(AllowedCommands::none)
}
