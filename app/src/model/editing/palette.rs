//! What the editor knows about each node kind: its name in the palette, colour, icon, the
//! node it starts as, and a one-line summary of a node's configuration for the canvas.

use engine::document::{ModelConfig, NodeKind, Provider};
use engine::{Graph, Node};
use indexmap::IndexMap;
use serde_json::json;

/// Palette entry for one kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KindInfo {
    pub kind: NodeKind,
    /// Capitalised name: the palette button is `Add <title>`.
    pub title: &'static str,
    /// A single glyph drawn on the node.
    pub icon: &'static str,
    /// CSS custom property holding the kind's colour (`--kind-router`).
    pub color_var: &'static str,
    pub blurb: &'static str,
}

pub const KINDS: [KindInfo; 11] = [
    KindInfo {
        kind: NodeKind::Start,
        title: "Start",
        icon: "▶",
        color_var: "--kind-start",
        blurb: "Entry point; lists the input keys a run needs",
    },
    KindInfo {
        kind: NodeKind::End,
        title: "End",
        icon: "■",
        color_var: "--kind-end",
        blurb: "Ends the branch that reaches it",
    },
    KindInfo {
        kind: NodeKind::Set,
        title: "Set",
        icon: "=",
        color_var: "--kind-set",
        blurb: "Writes expressions to state fields",
    },
    KindInfo {
        kind: NodeKind::Script,
        title: "Script",
        icon: "ƒ",
        color_var: "--kind-script",
        blurb: "Rhai code returning a map of updates",
    },
    KindInfo {
        kind: NodeKind::Router,
        title: "Router",
        icon: "◆",
        color_var: "--kind-router",
        blurb: "Chooses out-edges by label",
    },
    KindInfo {
        kind: NodeKind::Human,
        title: "Human",
        icon: "☺",
        color_var: "--kind-human",
        blurb: "Pauses until a person answers",
    },
    KindInfo { kind: NodeKind::Llm, title: "LLM", icon: "✦", color_var: "--kind-llm", blurb: "Calls a chat model" },
    KindInfo {
        kind: NodeKind::Http,
        title: "HTTP",
        icon: "⇄",
        color_var: "--kind-http",
        blurb: "Makes an HTTP request",
    },
    KindInfo {
        kind: NodeKind::Subgraph,
        title: "Subgraph",
        icon: "⊞",
        color_var: "--kind-subgraph",
        blurb: "Runs an embedded graph as one node",
    },
    KindInfo {
        kind: NodeKind::Tools,
        title: "Tools",
        icon: "⚒",
        color_var: "--kind-tools",
        blurb: "Runs the tool calls of the last model message",
    },
    KindInfo {
        kind: NodeKind::Note,
        title: "Note",
        icon: "✎",
        color_var: "--kind-note",
        blurb: "A comment on the canvas; never runs",
    },
];

pub fn info(kind: NodeKind) -> &'static KindInfo {
    KINDS.iter().find(|k| k.kind == kind).unwrap_or(&KINDS[2])
}

/// A fresh id for a node of `kind`: `router`, `router_2`, … whichever is free.
pub fn fresh_id(graph: &Graph, kind: NodeKind) -> String {
    fresh_id_from(graph, kind.name())
}

/// A fresh id based on `base`.
pub fn fresh_id_from(graph: &Graph, base: &str) -> String {
    let base: String = base.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-').take(56).collect();
    let base = if base.is_empty() { "node".to_string() } else { base };
    crate::model::editing::names::fresh_name(&base, |id| graph.nodes.iter().any(|n| n.id == id))
}

/// The node a palette button adds: a working example of its kind, so the canvas shows
/// something meaningful and the validator has nothing to complain about but its edges.
pub fn new_node(graph: &Graph, kind: NodeKind) -> Node {
    let id = fresh_id(graph, kind);
    let mut n = Node::new(&id, kind);
    n.label = Some(info(kind).title.to_string());
    match kind {
        NodeKind::Start => n.required = Some(vec![]),
        NodeKind::Set => {
            n.set = Some(IndexMap::from([("status".to_string(), "\"ready\"".to_string())]));
        }
        NodeKind::Script => n.script = Some("#{ }".into()),
        NodeKind::Router => n.route = Some("if state.status == \"ready\" { \"yes\" } else { \"no\" }".into()),
        NodeKind::Human => {
            n.prompt = Some("Approve {{ state.request ?? \"this\" }}?".into());
            n.writes = Some("decision".into());
            n.options = Some(vec!["approve".into(), "reject".into()]);
        }
        NodeKind::Llm => {
            n.prompt = Some("Summarise: {{ state.request ?? \"\" }}".into());
            n.writes = Some("summary".into());
            n.model = Some(ModelConfig {
                provider: Provider::Mock,
                model: None,
                base_url: None,
                temperature: None,
                max_tokens: None,
                responses: Some(vec![json!("A short summary.")]),
            });
        }
        NodeKind::Http => {
            n.method = Some("GET".into());
            n.url = Some("https://example.com/api".into());
            n.writes = Some("response".into());
        }
        NodeKind::Subgraph => {
            let mut inner = Graph::new("Subgraph");
            inner.name = Some(format!("{id} graph"));
            n.graph = Some(Box::new(inner));
        }
        NodeKind::Tools => n.messages = Some("messages".into()),
        NodeKind::Note => n.text = Some("A note".into()),
        NodeKind::End => {}
    }
    n
}

/// One line about a node's configuration, shown under its label on the canvas.
pub fn summary(n: &Node) -> String {
    let text = match n.kind {
        NodeKind::Start => match n.required.as_deref() {
            Some([]) | None => "no required input".to_string(),
            Some(keys) => format!("needs {}", keys.join(", ")),
        },
        NodeKind::End if n.outcome == Some(engine::document::Outcome::Failed) => {
            format!("fails the run: {}", n.message.as_deref().unwrap_or("(no message)"))
        }
        NodeKind::End => "end of branch".into(),
        NodeKind::Set => {
            let fields: Vec<String> = n.set.iter().flatten().map(|(k, v)| format!("{k} = {v}")).collect();
            if fields.is_empty() { "writes nothing".into() } else { fields.join("; ") }
        }
        NodeKind::Script => n.script.clone().unwrap_or_default(),
        NodeKind::Router => format!("route: {}", n.route.as_deref().unwrap_or("?")),
        NodeKind::Human if n.fields.is_some() => {
            let names: Vec<&str> = n.fields.iter().flatten().map(|(k, _)| k.as_str()).collect();
            let route = n.route_by.as_deref().map(|r| format!(" · routes by {r}")).unwrap_or_default();
            format!("form: {}{route}", names.join(", "))
        }
        NodeKind::Human => {
            let to = n.writes.as_deref().unwrap_or("?");
            match &n.options {
                Some(o) => format!("{} → {to}", o.join(" / ")),
                None => format!("free answer → {to}"),
            }
        }
        NodeKind::Llm => {
            let provider = n.model.as_ref().map_or("?", |m| m.provider.name());
            let model = n.model.as_ref().and_then(|m| m.model.clone()).unwrap_or_default();
            format!(
                "{provider}{}{model} → {}",
                if model.is_empty() { "" } else { " " },
                n.writes.as_deref().unwrap_or("?")
            )
        }
        NodeKind::Http => format!(
            "{} {} → {}",
            n.method.as_deref().unwrap_or("GET"),
            n.url.as_deref().unwrap_or("?"),
            n.writes.as_deref().unwrap_or("?")
        ),
        NodeKind::Subgraph => match (&n.graph, &n.use_def) {
            (None, Some(name)) => format!("uses definition {name}"),
            (graph, _) => {
                let inner = graph.as_ref().map_or(0, |g| g.nodes.len());
                format!("{} · {inner} nodes", graph.as_ref().map_or("graph", |g| g.display_name()))
            }
        },
        NodeKind::Tools => format!("runs the tool calls in {}", n.messages.as_deref().unwrap_or("?")),
        NodeKind::Note => n.text.clone().unwrap_or_default(),
    };
    shorten(&text.replace('\n', " "), 60)
}

/// Cuts text to `max` characters, with an ellipsis.
pub fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        format!("{}…", text.chars().take(max.saturating_sub(1)).collect::<String>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_an_entry_and_a_valid_starting_node() {
        let g = Graph::new("t");
        for k in NodeKind::ALL {
            assert_eq!(info(k).kind, k);
            let n = new_node(&g, k);
            assert!(engine::plan::valid_id(&n.id));
            assert!(!summary(&n).is_empty());
        }
    }

    #[test]
    fn a_failing_end_and_a_form_say_so_on_the_canvas() {
        let mut end = Node::new("stop", NodeKind::End);
        assert_eq!(summary(&end), "end of branch");
        end.outcome = Some(engine::document::Outcome::Failed);
        end.message = Some("agent {{ state.agent }} failed".into());
        assert_eq!(summary(&end), "fails the run: agent {{ state.agent }} failed");
        let mut ask = Node::new("review", NodeKind::Human);
        let field = engine::document::FormField {
            ty: engine::document::FieldType::String,
            options: None,
            required: None,
            label: None,
            default: None,
        };
        ask.fields =
            Some([("decision".to_string(), field.clone()), ("comment".to_string(), field)].into_iter().collect());
        ask.route_by = Some("decision".into());
        assert_eq!(summary(&ask), "form: decision, comment · routes by decision");
    }

    #[test]
    fn ids_do_not_collide() {
        let mut g = Graph::new("t");
        let a = new_node(&g, NodeKind::Router);
        g.nodes.push(a.clone());
        let b = new_node(&g, NodeKind::Router);
        assert_eq!(a.id, "router");
        assert_eq!(b.id, "router_2");
        assert_eq!(fresh_id(&g, NodeKind::Start), "start_2");
    }
}
