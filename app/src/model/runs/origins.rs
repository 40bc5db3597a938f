//! The origins a graph's requests would reach, for asking before a run of a graph from
//! elsewhere sends anything to an origin the person has not used: each `llm` node's
//! `base_url`, each `http` node's `url`, each HTTP tool's `url` and each MCP server's `url`,
//! in embedded subgraphs too. A templated URL whose `scheme://host[:port]` is written out
//! has that origin; one whose origin is computed is "an address computed at run time".
//!
//! An MCP server started as a program is asked about too, where programs can start (the
//! desktop app): its whole command line (program, arguments, the names of the variables
//! set), approved once per line (format.md §8).

use engine::document::Provider;
use engine::host::{McpEndpoint, Origin};
use engine::{Graph, NodeKind};

/// Somewhere a run would send a request, or a program it would start.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Contact {
    /// An MCP server's program, as its whole command line
    /// ([`switchyard_ipc::mcp::command_line`]): `MEMORY_FILE_PATH=m.json node srv/index.js`.
    Program(String),
    /// A known origin: `https://api.example.com`.
    Origin(String),
    /// An address put together while the graph runs.
    Computed,
}

impl std::fmt::Display for Contact {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Contact::Program(line) | Contact::Origin(line) => f.write_str(line),
            Contact::Computed => f.write_str("an address computed at run time"),
        }
    }
}

/// What a preference entry for [`Contact::Computed`] looks like for one graph: computed
/// addresses are approved per graph, origins for every graph.
pub fn computed_entry(graph_id: &str) -> String {
    format!("computed:{graph_id}")
}

/// The origin of `url`, when its `scheme://host[:port]` is literal (a `{{ }}` template may
/// follow it); [`Contact::Computed`] otherwise.
pub fn contact_of(url: &str) -> Contact {
    let url = url.trim();
    let authority_end =
        url.split_once("://").map(|(scheme, rest)| scheme.len() + 3 + rest.find(['/', '?', '#']).unwrap_or(rest.len()));
    let literal = match (authority_end, url.find("{{")) {
        (Some(end), Some(t)) => t >= end,
        (Some(_), None) => true,
        (None, _) => false,
    };
    let head = &url[..authority_end.unwrap_or(0)];
    match Origin::of(head).filter(|_| literal) {
        Some(o) => Contact::Origin(o.to_string()),
        None => Contact::Computed,
    }
}

/// Every place the graph's `llm` (with a `base_url`) and `http` nodes and HTTP tools would send requests,
/// and its MCP servers (a URL's origin, or a program's whole command line), once each,
/// origins first in order. An `llm` node without `base_url` goes where the person's own
/// settings say, and is not listed.
pub fn contacts(graph: &Graph) -> Vec<Contact> {
    let mut out = Vec::new();
    collect(graph, &mut out);
    out.sort();
    out.dedup();
    out
}

/// The command line a person approves for `endpoint` (a program), or its URL's contact.
pub fn mcp_contact(endpoint: &McpEndpoint) -> Contact {
    match endpoint {
        McpEndpoint::Stdio { env, .. } => Contact::Program(switchyard_ipc::mcp::command_line(
            &endpoint.describe(),
            env.iter().map(|(n, v)| (n.as_str(), v.as_str())),
        )),
        McpEndpoint::Http { url, .. } => contact_of(url),
    }
}

fn collect(graph: &Graph, out: &mut Vec<Contact>) {
    out.extend(engine::plan::mcp_endpoints(graph).iter().map(|(_, e)| mcp_contact(e)));
    let tools = graph.tools.iter().flat_map(|t| t.values());
    out.extend(tools.filter_map(|t| t.run.http.as_ref()).map(|h| contact_of(&h.url)));
    for node in &graph.nodes {
        match node.kind {
            NodeKind::Llm => {
                if let Some(m) = &node.model
                    && matches!(m.provider, Provider::Openai | Provider::Anthropic)
                    && let Some(base) = m.base_url.as_deref().filter(|b| !b.trim().is_empty())
                {
                    out.push(contact_of(base));
                }
            }
            NodeKind::Http => {
                if let Some(url) = &node.url {
                    out.push(contact_of(url));
                }
            }
            _ => {}
        }
        if let Some(inner) = &node.graph {
            collect(inner, out);
        }
    }
}

/// The contacts of `graph` not in `known` (origins used before, and `computed:<graph id>`
/// for a graph whose computed addresses were approved), nor programs among `commands` (the
/// command lines approved; `None` where programs cannot start, so none is asked about).
pub fn unknown(contacts: &[Contact], known: &[String], commands: Option<&[String]>, graph_id: &str) -> Vec<Contact> {
    contacts
        .iter()
        .filter(|c| match c {
            Contact::Program(line) => commands.is_some_and(|approved| !approved.contains(line)),
            Contact::Origin(o) => !known.contains(o),
            Contact::Computed => !known.contains(&computed_entry(graph_id)),
        })
        .cloned()
        .collect()
}

/// The origin entries to remember once the person runs anyway (programs are kept apart:
/// [`command_lines`]).
pub fn entries_for(contacts: &[Contact], graph_id: &str) -> Vec<String> {
    contacts
        .iter()
        .filter_map(|c| match c {
            Contact::Program(_) => None,
            Contact::Origin(o) => Some(o.clone()),
            Contact::Computed => Some(computed_entry(graph_id)),
        })
        .collect()
}

/// The command lines among `contacts`, to remember as approved.
pub fn command_lines(contacts: &[Contact]) -> Vec<String> {
    contacts
        .iter()
        .filter_map(|c| match c {
            Contact::Program(line) => Some(line.clone()),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_origins_are_read_templates_after_them_allowed() {
        let o = |s: &str| Contact::Origin(s.into());
        assert_eq!(contact_of("https://API.example.com/v1"), o("https://api.example.com"));
        assert_eq!(contact_of("http://api.test/items/{{ state.name }}"), o("http://api.test"));
        assert_eq!(contact_of("http://api.test:8080?q={{ state.q }}"), o("http://api.test:8080"));
        assert_eq!(contact_of("http://api.test"), o("http://api.test"));
        assert_eq!(contact_of("{{ state.url }}"), Contact::Computed);
        assert_eq!(contact_of("https://{{ state.host }}/x"), Contact::Computed);
        assert_eq!(contact_of("https://api.{{ state.tld }}/x"), Contact::Computed);
        assert_eq!(contact_of("https://a.test@b.test/"), Contact::Computed);
        assert_eq!(Contact::Computed.to_string(), "an address computed at run time");
    }

    #[test]
    fn a_graphs_contacts_include_subgraphs_and_http_tools_and_skip_default_models() {
        let g = engine::parse_graph(
            r#"{"format":"switchyard/graph@1",
                "tools":{"t":{"run":{"http":{"url":"https://tool.test/q?x={{ args.x }}"}}},"u":{"run":{"script":"1"}}},
                "nodes":[
                {"id":"start","kind":"start"},
                {"id":"a","kind":"llm","prompt":"x","writes":"r","model":{"provider":"openai","base_url":"http://models.test/v1"}},
                {"id":"b","kind":"llm","prompt":"x","writes":"r","model":{"provider":"openai"}},
                {"id":"m","kind":"llm","prompt":"x","writes":"r","model":{"provider":"mock","base_url":"http://mock.test"}},
                {"id":"n","kind":"llm","prompt":"x","writes":"r","model":{"provider":"anthropic","base_url":"http://claude.test"}},
                {"id":"c","kind":"http","method":"GET","url":"{{ state.u }}","writes":"r"},
                {"id":"s","kind":"subgraph","graph":{"format":"switchyard/graph@1","nodes":[
                    {"id":"start","kind":"start"},
                    {"id":"d","kind":"http","method":"GET","url":"http://api.test/{{ state.x }}","writes":"r"},
                    {"id":"end","kind":"end"}],"edges":[]}},
                {"id":"end","kind":"end"}],"edges":[]}"#,
        )
        .expect("the graph reads");
        let all = contacts(&g);
        assert_eq!(
            all,
            vec![
                Contact::Origin("http://api.test".into()),
                Contact::Origin("http://claude.test".into()),
                Contact::Origin("http://models.test".into()),
                Contact::Origin("https://tool.test".into()),
                Contact::Computed
            ]
        );
        let known = vec!["http://api.test".to_string()];
        assert_eq!(
            unknown(&all, &known, None, "g1"),
            vec![
                Contact::Origin("http://claude.test".into()),
                Contact::Origin("http://models.test".into()),
                Contact::Origin("https://tool.test".into()),
                Contact::Computed
            ]
        );
        let known = [known, entries_for(&all, "g1")].concat();
        assert!(unknown(&all, &known, None, "g1").is_empty());
        assert_eq!(unknown(&all, &known, None, "g2"), vec![Contact::Computed]);
    }

    const MEMORY_GRAPH: &str = r#"{"format":"switchyard/graph@1",
        "mcp_servers":{
            "memory":{"command":"node","args":["mcp/server memory/index.js"],"env":{"MEMORY_FILE_PATH":"m.json"}},
            "everything":{"url":"http://127.0.0.1:3001/mcp"},
            "unused":{"command":"rm","args":["-rf","/"]}},
        "tools":{"create_entities":{"run":{"mcp":{"server":"memory"}}},"echo":{"run":{"mcp":{"server":"everything"}}}},
        "nodes":[{"id":"start","kind":"start"},{"id":"end","kind":"end"}],"edges":[]}"#;

    #[test]
    fn an_mcp_program_is_asked_about_by_its_whole_command_line_where_programs_start() {
        let g = engine::parse_graph(MEMORY_GRAPH).expect("the graph reads");
        let line = "MEMORY_FILE_PATH=m.json node 'mcp/server memory/index.js'";
        let all = contacts(&g);
        assert_eq!(all, vec![Contact::Program(line.into()), Contact::Origin("http://127.0.0.1:3001".into())]);
        // In the desktop app: both asked about, the line as the person reads it.
        assert_eq!(unknown(&all, &[], Some(&[]), "g1"), all);
        assert_eq!(all[0].to_string(), line);
        // Approved: the origin kept with the origins, the line apart; a second run asks nothing.
        assert_eq!(entries_for(&all, "g1"), vec!["http://127.0.0.1:3001".to_string()]);
        assert_eq!(command_lines(&all), vec![line.to_string()]);
        assert!(unknown(&all, &entries_for(&all, "g1"), Some(&command_lines(&all)), "g1").is_empty());
        // Another line for the same program is asked about again.
        let other = vec!["node 'mcp/server memory/index.js'".to_string()];
        assert_eq!(unknown(&all, &entries_for(&all, "g1"), Some(&other), "g1"), vec![all[0].clone()]);
        // In a web page programs cannot start: not asked (the run says where it can).
        assert_eq!(unknown(&all, &[], None, "g1"), vec![all[1].clone()]);
    }
}
