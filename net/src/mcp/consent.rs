//! Which programs a person allowed a graph to start (format.md §2.11, §8): starting a process
//! named in a shared document is running code, so a stdio server starts only when its
//! program, exactly as the document writes it, is in the list. The CLI checks every server
//! before a run starts; the host checks again when it spawns.

use engine::host::McpEndpoint;

/// Programs, comma-separated, that graphs may start as MCP servers.
pub const ALLOWED_COMMANDS_VAR: &str = "SWITCHYARD_ALLOWED_COMMANDS";

/// The programs allowed, matched exactly as written (`npx` is not `/usr/bin/npx`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AllowedCommands {
    programs: Vec<String>,
}

impl AllowedCommands {
    /// Nothing allowed.
    pub fn none() -> AllowedCommands {
        AllowedCommands::default()
    }

    /// `programs` allowed (blank entries ignored).
    pub fn of<S: AsRef<str>>(programs: impl IntoIterator<Item = S>) -> AllowedCommands {
        let mut allowed = AllowedCommands::none();
        allowed.allow(programs);
        allowed
    }

    /// The programs of [`ALLOWED_COMMANDS_VAR`].
    pub fn from_env() -> AllowedCommands {
        let list = std::env::var(ALLOWED_COMMANDS_VAR).unwrap_or_default();
        AllowedCommands::of(list.split(','))
    }

    /// Allows `programs` too.
    pub fn allow<S: AsRef<str>>(&mut self, programs: impl IntoIterator<Item = S>) {
        for p in programs {
            let p = p.as_ref().trim();
            if !p.is_empty() && !self.programs.iter().any(|q| q == p) {
                self.programs.push(p.to_string());
            }
        }
    }

    /// Whether `program` may be started.
    pub fn allows(&self, program: &str) -> bool {
        self.programs.iter().any(|p| p == program)
    }

    /// Whether `endpoint` may be reached: an HTTP server always, a stdio one when its program
    /// is allowed.
    pub fn allows_endpoint(&self, endpoint: &McpEndpoint) -> bool {
        match endpoint {
            McpEndpoint::Stdio { program, .. } => self.allows(program),
            McpEndpoint::Http { .. } => true,
        }
    }
}

/// Why a stdio server was not started, and how to allow it: "starting `npx -y pkg /tmp`
/// needs consent: pass --allow-command npx (or add it to SWITCHYARD_ALLOWED_COMMANDS)".
pub fn refusal(endpoint: &McpEndpoint) -> String {
    let program = match endpoint {
        McpEndpoint::Stdio { program, .. } => program.as_str(),
        McpEndpoint::Http { .. } => "",
    };
    let shown = McpEndpoint::Stdio { program: program.to_string(), args: Vec::new(), env: Vec::new() }.describe();
    format!(
        "starting `{}` needs consent: pass --allow-command {shown} (or add it to {ALLOWED_COMMANDS_VAR})",
        endpoint.describe()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn programs_match_exactly_as_written() {
        let allowed = AllowedCommands::of(["npx", " node ", ""]);
        assert!(allowed.allows("npx") && allowed.allows("node"));
        assert!(!allowed.allows("/usr/bin/npx") && !allowed.allows("np") && !allowed.allows(""));
        let fs = McpEndpoint::Stdio {
            program: "uvx".into(),
            args: vec!["mcp-server-fetch".into(), "--dir".into(), "a b".into()],
            env: vec![],
        };
        assert!(!allowed.allows_endpoint(&fs));
        assert_eq!(
            refusal(&fs),
            "starting `uvx mcp-server-fetch --dir 'a b'` needs consent: pass --allow-command uvx \
             (or add it to SWITCHYARD_ALLOWED_COMMANDS)"
        );
        assert!(allowed.allows_endpoint(&McpEndpoint::Http { url: "http://x/mcp".into(), headers: vec![] }));
    }
}
