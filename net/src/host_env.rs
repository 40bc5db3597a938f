//! What a native host takes from its environment, read once: the model keys (bound to their
//! origins) and the MCP policy (the programs allowed, the tokens for HTTP servers, the keys
//! kept out of what servers send back). The CLI's host and `switchyard server`'s both start
//! from it.

use std::sync::Arc;

use engine::host::KeyRing;

use crate::mcp::{AllowedCommands, McpPolicy, McpTokens};
use crate::reach::Reach;

/// Keys, MCP policy and reach for a host.
pub struct HostEnv {
    pub keys: KeyRing,
    pub mcp: Arc<McpPolicy>,
    /// The addresses HTTP requests (and MCP servers over HTTP) may connect to.
    pub reach: Arc<Reach>,
}

impl HostEnv {
    /// The environment's keys and MCP tokens, stdio MCP servers only for `allowed`; with the
    /// warnings to show (entries of `SWITCHYARD_TRUSTED_ORIGINS` that are not origins, a tokens
    /// file others may read…).
    pub fn from_env(allowed: AllowedCommands) -> (HostEnv, Vec<String>) {
        let (keys, bad) = crate::keys_from_env();
        let mut warnings: Vec<String> = bad
            .into_iter()
            .map(|item| {
                format!("{}: `{item}` is not an origin (scheme://host[:port]); ignored", crate::TRUSTED_ORIGINS_VAR)
            })
            .collect();
        let (tokens, token_warnings) = McpTokens::from_env();
        warnings.extend(token_warnings);
        let mut mcp = McpPolicy::open(allowed, tokens);
        mcp.secrets = keys.keys().map(str::to_string).collect();
        (HostEnv { keys, mcp: Arc::new(mcp), reach: Arc::new(Reach::open()) }, warnings)
    }

    /// The same, connecting only where `reach` allows (a server's graphs are untrusted).
    pub fn within(self, reach: Arc<Reach>) -> HostEnv {
        let mcp = McpPolicy { reach: reach.clone(), ..(*self.mcp).clone() };
        HostEnv { keys: self.keys, mcp: Arc::new(mcp), reach }
    }
}
