//! The origins a graph's requests would reach, for asking before a run of a graph from
//! elsewhere sends anything to an origin the person has not used: each `llm` node's
//! `base_url`, each `http` node's `url` and each HTTP tool's `url`, in embedded subgraphs too. A templated URL whose
//! `scheme://host[:port]` is written out has that origin; one whose origin is computed is
//! "an address computed at run time".

use engine::document::Provider;
use engine::host::Origin;
use engine::{Graph, NodeKind};

/// Somewhere a run would send a request.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Contact {
    /// A known origin: `https://api.example.com`.
    Origin(String),
    /// An address put together while the graph runs.
    Computed,
}

impl std::fmt::Display for Contact {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Contact::Origin(o) => f.write_str(o),
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
/// once each, origins first in order. An `llm` node without `base_url` goes where the
/// person's own settings say, and is not listed.
pub fn contacts(graph: &Graph) -> Vec<Contact> {
    let mut out = Vec::new();
    collect(graph, &mut out);
    out.sort();
    out.dedup();
    out
}

fn collect(graph: &Graph, out: &mut Vec<Contact>) {
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
/// for a graph whose computed addresses were approved).
pub fn unknown(contacts: &[Contact], known: &[String], graph_id: &str) -> Vec<Contact> {
    contacts
        .iter()
        .filter(|c| match c {
            Contact::Origin(o) => !known.contains(o),
            Contact::Computed => !known.contains(&computed_entry(graph_id)),
        })
        .cloned()
        .collect()
}

/// What to remember once the person runs anyway.
pub fn entries_for(contacts: &[Contact], graph_id: &str) -> Vec<String> {
    contacts
        .iter()
        .map(|c| match c {
            Contact::Origin(o) => o.clone(),
            Contact::Computed => computed_entry(graph_id),
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
            unknown(&all, &known, "g1"),
            vec![
                Contact::Origin("http://claude.test".into()),
                Contact::Origin("http://models.test".into()),
                Contact::Origin("https://tool.test".into()),
                Contact::Computed
            ]
        );
        let known = [known, entries_for(&all, "g1")].concat();
        assert!(unknown(&all, &known, "g1").is_empty());
        assert_eq!(unknown(&all, &known, "g2"), vec![Contact::Computed]);
    }
}
