//! The command line a person approves before an MCP server's program starts (format.md
//! §2.11, §8): the variables the document sets, with their values, then the program and its
//! arguments, as a shell would read them (`MEMORY_FILE_PATH=/tmp/m.json node /srv/index.js`).
//! A value is part of what is approved: the same program with another value is another line.
//! The editor asks with it, the app keeps it, and the app checks it again before it starts
//! anything.

/// The line for a program `described` as the engine's `McpEndpoint::describe` writes it
/// (`node /srv/index.js`), given the environment variables the document sets, in a stable
/// order: `MEMORY_FILE_PATH=/tmp/m.json node /srv/index.js`.
pub fn command_line<N: AsRef<str>, V: AsRef<str>>(described: &str, env: impl IntoIterator<Item = (N, V)>) -> String {
    let mut vars: Vec<String> =
        env.into_iter().map(|(n, v)| format!("{}={}", n.as_ref(), shell_word(v.as_ref()))).collect();
    vars.sort();
    vars.dedup();
    vars.push(described.to_string());
    vars.join(" ")
}

/// `text` as one shell word: as it is when it needs no quoting, else in single quotes.
fn shell_word(text: &str) -> String {
    let plain = !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || "-_./:=@%+,".contains(c));
    if plain { text.to_string() } else { format!("'{}'", text.replace('\'', "'\\''")) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_holds_the_environment_with_its_values_in_a_stable_order() {
        assert_eq!(command_line("node s.js", Vec::<(String, String)>::new()), "node s.js");
        assert_eq!(
            command_line("node s.js", [("TEAM", "a b"), ("MEMORY_FILE_PATH", "/tmp/m.json")]),
            "MEMORY_FILE_PATH=/tmp/m.json TEAM='a b' node s.js"
        );
        assert_ne!(command_line("node s.js", [("A", "1")]), command_line("node s.js", [("A", "2")]));
        assert_ne!(command_line("node s.js", [("A", "1")]), command_line("node s.js", [("B", "1")]));
    }
}
