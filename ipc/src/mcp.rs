//! The command line a person approves before an MCP server's program starts (format.md
//! §2.11, §8): the program and its arguments as a shell would read them, and the names of
//! the variables the document sets (their values may be long or private, and the names say
//! what is passed). The editor asks with it, the app keeps it, and the app checks it again
//! before it starts anything.

/// The line for a program `described` as the engine's `McpEndpoint::describe` writes it
/// (`node /srv/index.js`), given the environment variables the document sets:
/// `node /srv/index.js (env MEMORY_FILE_PATH, TEAM)`.
pub fn command_line<S: AsRef<str>>(described: &str, env_names: impl IntoIterator<Item = S>) -> String {
    let mut names: Vec<String> = env_names.into_iter().map(|n| n.as_ref().to_string()).collect();
    names.sort();
    names.dedup();
    if names.is_empty() { described.to_string() } else { format!("{described} (env {})", names.join(", ")) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_names_the_environment_in_a_stable_order() {
        assert_eq!(command_line("node s.js", Vec::<String>::new()), "node s.js");
        assert_eq!(command_line("node s.js", ["TEAM", "MEMORY_FILE_PATH"]), "node s.js (env MEMORY_FILE_PATH, TEAM)");
        assert_ne!(command_line("node s.js", ["A"]), command_line("node s.js", ["B"]));
    }
}
