//! Reads of state fields a graph does not declare. Reading a field that is not there gives
//! `()` without an error (format.md §7), so a misspelled `state.decison` would quietly read as
//! nothing. When the graph declares its state, each field an expression or template reads by
//! name (found in its compiled code, `script::reads`) that the graph does not know gets a
//! warning, with the name it was probably meant to be. A graph without `state` is free-form:
//! nothing to warn about.
//!
//! Known keys are the declared fields, and the keys the graph itself brings in: start's
//! `required`, and what its nodes write (`set`, `writes`, a form's `fields`, a subgraph's
//! `outputs`, `pinned`, the map keys of a `script` node). An undeclared key a node writes has
//! its warning where it is written, so its reads get none: one stray key, one warning. The
//! keys a script's maps name count as written too, though they get no warning of their own
//! (what a script returns is only known when it runs): a read of one is more likely meant
//! than misspelled.

use std::collections::BTreeSet;

use crate::document::{Graph, NodeKind};
use crate::plan::input_keys::nearest;
use crate::plan::{DEFAULT_ITEM_NAME, INDEX_NAME};
use crate::script::Scripting;

/// The state keys of a graph that declares its state.
#[derive(Debug, Clone, Default)]
pub struct KnownKeys {
    /// The declared fields, in document order (the first of equally close names is
    /// suggested), and as a set.
    declared: Vec<String>,
    declared_set: BTreeSet<String>,
    /// Keys the graph brings in without declaring them.
    others: BTreeSet<String>,
}

/// A state field read by name that the graph neither declares nor writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UndeclaredRead {
    pub name: String,
    /// The known key whose name is closest, when one is close enough to be a typo.
    pub did_you_mean: Option<String>,
}

impl UndeclaredRead {
    /// What the warning says: ``reads `state.decison`, which the graph does not declare;
    /// did you mean `decision`?``
    pub fn message(&self) -> String {
        let read = read_text(&self.name);
        match &self.did_you_mean {
            Some(name) => format!("reads `{read}`, which the graph does not declare; did you mean `{name}`?"),
            None => format!(
                "reads `{read}`, which the graph does not declare and no node writes: it is `()` unless the run's input gives it"
            ),
        }
    }
}

/// How the read is written: `state.name`, or `state["a name"]` for a key that is not a name.
fn read_text(name: &str) -> String {
    let plain = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if plain { format!("state.{name}") } else { format!("state[{}]", serde_json::Value::from(name)) }
}

impl KnownKeys {
    /// The keys `graph` knows, when it declares its state; `None` for a graph without `state`,
    /// whose keys are all free-form. `s` compiles the `script` nodes, for the keys of their
    /// maps (a script that does not compile adds none).
    pub fn of(graph: &Graph, s: &Scripting) -> Option<KnownKeys> {
        let state = graph.state.as_ref()?;
        let declared: Vec<String> = state.keys().cloned().collect();
        let mut others = BTreeSet::new();
        // Every map item's name, so that a script in any map target compiles.
        let mut names: Vec<&str> = graph
            .edges
            .iter()
            .filter(|e| e.map.is_some())
            .map(|e| e.as_name.as_deref().unwrap_or(DEFAULT_ITEM_NAME))
            .collect();
        if !names.is_empty() {
            names.push(INDEX_NAME);
        }
        for n in &graph.nodes {
            others.extend(n.required.iter().flatten().cloned());
            others.extend(n.set.iter().flat_map(|m| m.keys().cloned()));
            others.extend(n.writes.iter().cloned());
            others.extend(n.fields.iter().flat_map(|m| m.keys().cloned()));
            others.extend(n.pinned.iter().flat_map(|m| m.keys().cloned()));
            if n.kind == NodeKind::Subgraph {
                others.extend(n.outputs.iter().flat_map(|m| m.keys().cloned()));
            }
            if n.kind == NodeKind::Script
                && let Some(src) = &n.script
                && let Ok(e) = s.compile(src, &names)
            {
                others.extend(e.built_keys());
            }
        }
        others.retain(|k| !state.contains_key(k));
        let declared_set = declared.iter().cloned().collect();
        Some(KnownKeys { declared, declared_set, others })
    }

    /// Whether `key` is a declared field or a key the graph brings in.
    pub fn knows(&self, key: &str) -> bool {
        self.others.contains(key) || self.declared_set.contains(key)
    }

    /// Each of `reads` that the graph does not know, with the known key it probably meant.
    pub fn undeclared(&self, reads: &[String]) -> Vec<UndeclaredRead> {
        reads
            .iter()
            .filter(|r| !self.knows(r))
            .map(|r| UndeclaredRead {
                name: r.clone(),
                did_you_mean: nearest(r, self.declared.iter().chain(&self.others).map(String::as_str)),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_graph;

    fn known(doc: &str) -> Option<KnownKeys> {
        let g = parse_graph(doc).expect("parses");
        KnownKeys::of(&g, &Scripting::new(&g.effective_limits()))
    }

    #[test]
    fn a_graph_without_state_knows_no_keys_to_check() {
        assert!(known(r#"{"format":"switchyard/graph@1","nodes":[{"id":"start","kind":"start"}]}"#).is_none());
    }

    #[test]
    fn declared_written_and_required_keys_are_known() {
        let k = known(
            r#"{"format":"switchyard/graph@1","state":{"decision":{"type":"string"}},
            "nodes":[{"id":"start","kind":"start","required":["topic"]},
              {"id":"a","kind":"set","set":{"note":"1"}},
              {"id":"s","kind":"script","script":"if item > 0 { #{ built: 1 } } else { () }"},
              {"id":"h","kind":"human","writes":"answer"},
              {"id":"p","kind":"set","set":{},"pinned":{"pin":1}}],
            "edges":[{"from":"start","to":"s","map":"[1]"}]}"#,
        )
        .expect("declares state");
        for key in ["decision", "topic", "note", "built", "answer", "pin"] {
            assert!(k.knows(key), "{key}");
        }
        let found = k.undeclared(&["decison".into(), "decision".into(), "colour".into()]);
        assert_eq!(
            found,
            [
                UndeclaredRead { name: "decison".into(), did_you_mean: Some("decision".into()) },
                UndeclaredRead { name: "colour".into(), did_you_mean: None },
            ]
        );
        assert_eq!(
            found[0].message(),
            "reads `state.decison`, which the graph does not declare; did you mean `decision`?"
        );
        assert!(
            found[1].message().starts_with("reads `state.colour`, which the graph does not declare and no node writes")
        );
        let odd = UndeclaredRead { name: "a b".into(), did_you_mean: None };
        assert!(odd.message().starts_with(r#"reads `state["a b"]`"#), "{}", odd.message());
    }

    #[test]
    fn every_kind_of_expression_and_template_is_checked() {
        let g = parse_graph(
            r#"{"format":"switchyard/graph@1","state":{"topic":{"type":"string"},"items":{"type":"list"},
              "chat":{"type":"messages"},"out":{"type":"any"}},
            "tools":{"look":{"run":{"script":"args.q + state.topc"}}},
            "nodes":[{"id":"start","kind":"start"},
              {"id":"fetch","kind":"http","url":"https://example.com/{{ state.topik }}",
               "body":{"q":"{{ state.itemz }}"},"writes":"out"},
              {"id":"each","kind":"set","set":{"out":"item + state.colour"}},
              {"id":"ask","kind":"llm","prompt":"{{ state.topic }}","writes":"chat","tools":["look"],
               "model":{"provider":"mock","responses":[{"when":"state.caht.len() > 0","reply":"hi"}]}},
              {"id":"sub","kind":"subgraph","inputs":{"q":"state.topic_"},"outputs":{"out":"result.a"},
               "graph":{"format":"switchyard/graph@1","state":{"q":{"type":"string"}},
                 "nodes":[{"id":"start","kind":"start"},{"id":"x","kind":"router","route":"state.qq"},
                   {"id":"end","kind":"end"}],
                 "edges":[{"from":"start","to":"x"},{"from":"x","to":"end","label":"default"}]}},
              {"id":"end","kind":"end"}],
            "edges":[{"from":"start","to":"fetch"},{"from":"fetch","to":"each","map":"state.itmes"},
              {"from":"each","to":"ask"},{"from":"ask","to":"sub"},{"from":"sub","to":"end"}]}"#,
        )
        .expect("parses");
        let found: Vec<String> = crate::plan::validate(&g).iter().map(ToString::to_string).collect();
        let joined = found.join("\n");
        for needle in [
            "warning tools.look.run.script: reads `state.topc`, which the graph does not declare; did you mean `topic`?",
            "warning nodes[1].url: reads `state.topik`",
            "warning nodes[1].body.q: reads `state.itemz`, which the graph does not declare; did you mean `items`?",
            "warning nodes[2].set.out: reads `state.colour`, which the graph does not declare and no node writes",
            "warning nodes[3].model.responses[0].when: reads `state.caht`, which the graph does not declare; did you mean `chat`?",
            "warning nodes[4].inputs.q: reads `state.topic_`",
            "warning nodes[4].graph.nodes[1].route: in subgraph `sub`: reads `state.qq`, which the graph does not declare; did you mean `q`?",
            "warning edges[1].map: reads `state.itmes`, which the graph does not declare; did you mean `items`?",
        ] {
            assert!(joined.contains(needle), "missing {needle:?} in\n{joined}");
        }
        // `result.a` in the outputs, `item` and `state.topic` are not undeclared reads.
        assert_eq!(found.iter().filter(|l| l.contains("reads `")).count(), 8, "{joined}");
    }
}
