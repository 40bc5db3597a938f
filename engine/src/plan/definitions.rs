//! Definitions (format.md §9): graphs named at the top of the document, which `subgraph` nodes
//! and tools run by name with `use`.
//!
//! Each definition is compiled once, into one [`Plan`] every user shares. A definition may use
//! others, in any order, but not itself, directly or through others (through embedded graphs
//! and tools too): such a cycle is an error naming it. Definitions are compiled so that the
//! ones a definition uses come first; a use of a definition that is in a cycle, or that has
//! errors of its own, compiles to nothing without a further error, since those errors are
//! already reported.
//!
//! Only the top-level document holds definitions: an embedded graph or a definition that
//! brings its own `definitions` is an error, so a name always means the same graph wherever
//! it is used.

use std::collections::BTreeSet;
use std::rc::Rc;

use crate::document::{GRAPH_FORMAT, Graph, NodeKind};
use crate::plan::check::Checker;
use crate::plan::compile::compile_at;
use crate::plan::graph::valid_id;
use crate::plan::types::{Definitions, Found, McpServers, Plan};

/// How far the depth-first walk over the uses has got with a definition.
#[derive(Clone, Copy, PartialEq)]
enum Mark {
    New,
    /// On the walk's path: meeting it again closes a cycle.
    Open,
    Done,
}

/// The walk over the definitions' uses: the order they compile in, and the cycles met.
struct Walk {
    /// For each definition (by position), the positions of the definitions it uses.
    uses: Vec<Vec<usize>>,
    marks: Vec<Mark>,
    path: Vec<usize>,
    order: Vec<usize>,
    cycles: Vec<Vec<usize>>,
}

impl Checker {
    /// Checks the top-level document's definitions and compiles each one, its diagnostics
    /// reported under `definitions.<name>`.
    pub(super) fn check_definitions(&mut self, graph: &Graph, mcp: Rc<McpServers>) -> Definitions {
        let Some(defs) = graph.definitions.as_ref() else { return Definitions::named(Vec::new(), mcp) };
        let mut out = Definitions::named(defs.keys().cloned().collect(), mcp);
        for name in defs.keys().filter(|n| !valid_id(n)) {
            let message = format!("`{name}` is not a valid definition name: use 1 to 64 letters, digits, `_` or `-`");
            self.error(format!("definitions.{name}"), message, None, None);
        }
        let walk = Walk::run(graph);
        for cycle in &walk.cycles {
            let names: Vec<&str> = cycle.iter().map(|&k| defs.get_index(k).map_or("", |(n, _)| n.as_str())).collect();
            let message = format!("definitions form a cycle: {} → {}", names.join(" → "), names[0]);
            self.error(format!("definitions.{}", names[0]), message, None, None);
        }
        self.unused_definitions(graph, &walk);
        for k in walk.order {
            let (name, def) = defs.get_index(k).expect("walked positions are the definitions'");
            if let Some(plan) = self.definition(name, def, &out) {
                out.add(name, Rc::new(plan));
            }
        }
        out
    }

    /// Warns about each definition that neither the graph nor another definition uses.
    fn unused_definitions(&mut self, graph: &Graph, walk: &Walk) {
        let Some(defs) = graph.definitions.as_ref() else { return };
        let mut used = BTreeSet::new();
        uses_of(graph, &mut used);
        for (k, name) in defs.keys().enumerate() {
            if !used.contains(name.as_str()) && !walk.uses.iter().any(|u| u.contains(&k)) {
                let message = format!("no node or tool uses `{name}`");
                self.warn(format!("definitions.{name}"), message, None, None);
            }
        }
    }

    /// One definition compiled as a subgraph of the document, with the definitions compiled
    /// before it; its diagnostics are passed on under its path.
    fn definition(&mut self, name: &str, def: &Graph, defs: &Definitions) -> Option<Plan> {
        let base = format!("definitions.{name}");
        if def.format != GRAPH_FORMAT {
            self.error(format!("{base}.format"), format!("expected \"{GRAPH_FORMAT}\""), None, None);
        }
        let compiled = compile_at(def, 1, defs);
        for d in compiled.diagnostics {
            let path = if d.path.is_empty() { base.clone() } else { format!("{base}.{}", d.path) };
            // The node a diagnostic names is the definition's, not one of the document's.
            self.push(d.severity, path, format!("in definition `{name}`: {}", d.message), None, None);
        }
        compiled.plan
    }

    /// A `use` of definition `name`, found at `path`: its shared plan; `None` when there is
    /// none to run (an unknown name is reported here).
    pub(super) fn use_definition(
        &mut self,
        defs: &Definitions,
        name: &str,
        path: String,
        node: Option<&str>,
    ) -> Option<Rc<Plan>> {
        match defs.find(name) {
            Found::Plan(plan) => Some(plan),
            Found::Broken => None,
            Found::Unknown => {
                self.error(path, format!("no definition is named `{name}` ({})", defs.known()), node, None);
                None
            }
        }
    }

    /// A nested graph (embedded, or a definition) with its own `definitions`: an error, since
    /// names are the top-level document's.
    pub(super) fn nested_definitions(&mut self, graph: &Graph) {
        if let Some(defs) = graph.definitions.as_ref().filter(|d| !d.is_empty()) {
            let names: Vec<String> = defs.keys().map(|n| format!("`{n}`")).collect();
            let message = format!(
                "only the top-level document holds definitions; move {} there (a nested graph uses the top-level ones by name)",
                names.join(", ")
            );
            self.error("definitions".into(), message, None, None);
        }
    }
}

impl Walk {
    /// Walks every definition's uses, in document order.
    fn run(graph: &Graph) -> Walk {
        let defs = graph.definitions.as_ref().expect("only called with definitions");
        let uses = defs
            .values()
            .map(|d| {
                let mut names = BTreeSet::new();
                uses_of(d, &mut names);
                names.into_iter().filter_map(|n| defs.get_index_of(n)).collect()
            })
            .collect();
        let mut walk =
            Walk { uses, marks: vec![Mark::New; defs.len()], path: Vec::new(), order: Vec::new(), cycles: Vec::new() };
        for k in 0..defs.len() {
            walk.visit(k);
        }
        walk
    }

    /// Visits definition `k`: the ones it uses first, then `k` itself joins the order.
    fn visit(&mut self, k: usize) {
        match self.marks[k] {
            Mark::Done => return,
            Mark::Open => {
                let from = self.path.iter().position(|&p| p == k).unwrap_or(0);
                self.cycles.push(self.path[from..].to_vec());
                return;
            }
            Mark::New => {}
        }
        self.marks[k] = Mark::Open;
        self.path.push(k);
        for j in self.uses[k].clone() {
            self.visit(j);
        }
        self.path.pop();
        self.marks[k] = Mark::Done;
        self.order.push(k);
    }
}

/// The names `graph` uses: its `subgraph` nodes' and tools' `use`, and those of the graphs it
/// embeds.
fn uses_of<'g>(graph: &'g Graph, names: &mut BTreeSet<&'g str>) {
    for n in graph.nodes.iter().filter(|n| n.kind == NodeKind::Subgraph) {
        if let Some(name) = &n.use_def {
            names.insert(name);
        }
        if let Some(inner) = &n.graph {
            uses_of(inner, names);
        }
    }
    for tool in graph.tools.iter().flat_map(|t| t.values()) {
        if let Some(name) = &tool.run.use_def {
            names.insert(name);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use crate::parse::parse_graph;
    use crate::plan::{Op, Plan, compile, validate};

    fn errors(defs: &str, nodes: &str) -> Vec<String> {
        diags(defs, nodes).into_iter().filter(|d| d.starts_with("error")).collect()
    }

    fn diags(defs: &str, nodes: &str) -> Vec<String> {
        let text = format!(
            r#"{{"format":"switchyard/graph@1","definitions":{defs},
            "nodes":[{{"id":"start","kind":"start"}},{nodes}{{"id":"end","kind":"end"}}],
            "edges":[{{"from":"start","to":"end"}}]}}"#
        );
        validate(&parse_graph(&text).unwrap()).iter().map(ToString::to_string).collect()
    }

    fn def(uses: &[&str]) -> String {
        let nodes: String = uses
            .iter()
            .enumerate()
            .map(|(i, u)| format!(r#"{{"id":"u{i}","kind":"subgraph","use":"{u}"}},"#))
            .collect();
        let edges: Vec<String> = (0..uses.len())
            .map(|i| format!(r#"{{"from":"start","to":"u{i}"}},{{"from":"u{i}","to":"end"}}"#))
            .collect();
        let edges = if edges.is_empty() { r#"{"from":"start","to":"end"}"#.to_string() } else { edges.join(",") };
        format!(
            r#"{{"format":"switchyard/graph@1","nodes":[{{"id":"start","kind":"start"}},{nodes}{{"id":"end","kind":"end"}}],"edges":[{edges}]}}"#
        )
    }

    #[test]
    fn a_cycle_is_named_once_from_where_the_walk_meets_it() {
        let d = errors(&format!(r#"{{"a":{},"b":{},"c":{}}}"#, def(&["b"]), def(&["c"]), def(&["a"])), "");
        assert_eq!(d, vec!["error definitions.a: definitions form a cycle: a → b → c → a"], "{d:?}");
        let d = errors(&format!(r#"{{"self":{}}}"#, def(&["self"])), "");
        assert_eq!(d, vec!["error definitions.self: definitions form a cycle: self → self"], "{d:?}");
    }

    #[test]
    fn every_use_shares_the_definitions_one_plan() {
        let text = format!(
            r#"{{"format":"switchyard/graph@1","definitions":{{"leaf":{},"mid":{}}},
            "nodes":[{{"id":"start","kind":"start"}},{{"id":"a","kind":"subgraph","use":"leaf"}},
              {{"id":"b","kind":"subgraph","use":"mid"}},{{"id":"end","kind":"end"}}],
            "edges":[{{"from":"start","to":"a"}},{{"from":"a","to":"b"}},{{"from":"b","to":"end"}}]}}"#,
            def(&[]),
            def(&["leaf"])
        );
        let plan = compile(&parse_graph(&text).unwrap()).plan.expect("valid");
        let sub = |plan: &Plan, id: &str| match &plan.node(plan.index(id).unwrap()).op {
            Op::Subgraph(op) => op.plan.clone(),
            other => panic!("{id} is {other:?}"),
        };
        let (a, b) = (sub(&plan, "a"), sub(&plan, "b"));
        // `mid` runs `leaf` through its own node: the same plan as the graph's `a` runs.
        assert!(Rc::ptr_eq(&a, &sub(&b, "u0")));
    }

    #[test]
    fn definitions_may_use_one_another_in_any_order() {
        let d = diags(&format!(r#"{{"top":{},"leaf":{}}}"#, def(&["leaf"]), def(&[])), "");
        assert_eq!(d, vec!["warning definitions.top: no node or tool uses `top`"], "{d:?}");
    }

    #[test]
    fn an_unknown_name_lists_the_known_ones() {
        let d = errors(&format!(r#"{{"a":{},"b":{}}}"#, def(&["zz"]), def(&[])), "");
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(
            d[0].starts_with("error definitions.a.nodes[1].use: in definition `a`: no definition is named `zz` (the definitions are `a`, `b`)"),
            "{d:?}"
        );
    }

    #[test]
    fn nested_definitions_are_refused() {
        let inner = def(&[]).replacen('{', &format!(r#"{{"definitions":{{"x":{}}},"#, def(&[])), 1);
        let d = errors(&format!(r#"{{"a":{inner}}}"#), "");
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(d[0].starts_with("error definitions.a.definitions: in definition `a`: only the top-level document holds definitions; move `x` there"), "{d:?}");
    }
}
