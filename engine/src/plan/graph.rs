//! Checks of the graph as a whole (format.md §2): limits, state fields, node ids, the start node,
//! edge endpoints, edge labels and reachability.

use std::collections::{BTreeMap, HashMap, VecDeque};

use crate::document::{EffectiveLimits, Graph, Node, NodeKind, OnError, Reducer};
use crate::plan::check::Checker;
use crate::state::{Evict, FieldSpec, check_type};

/// Node id → index in the document's `nodes` (the first node with the id).
pub(super) type Ids<'g> = HashMap<&'g str, usize>;

/// Whether `id` is a valid node id: 1 to 64 ASCII letters, digits, `_` or `-`.
pub fn valid_id(id: &str) -> bool {
    (1..=64).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// For each node (by document index), the indices of the edges leaving it.
pub(super) fn out_edges(graph: &Graph, ids: &Ids<'_>) -> Vec<Vec<usize>> {
    let mut out_by_node: Vec<Vec<usize>> = vec![Vec::new(); graph.nodes.len()];
    for (j, e) in graph.edges.iter().enumerate() {
        if let Some(&i) = ids.get(e.from.as_str()) {
            out_by_node[i].push(j);
        }
    }
    out_by_node
}

impl Checker {
    /// Ids: well-formed and unique. Returns where each id is first found.
    pub(super) fn check_ids<'g>(&mut self, graph: &'g Graph) -> Ids<'g> {
        let mut first_seen: Ids<'g> = HashMap::new();
        for (i, n) in graph.nodes.iter().enumerate() {
            if !valid_id(&n.id) {
                self.error(
                    format!("nodes[{i}].id"),
                    format!("`{}` is not a valid id: use 1 to 64 letters, digits, `_` or `-`", n.id),
                    Some(&n.id),
                    None,
                );
            }
            if let Some(prev) = first_seen.insert(&n.id, i) {
                self.error(
                    format!("nodes[{i}].id"),
                    format!("duplicate node id `{}` (also nodes[{prev}])", n.id),
                    Some(&n.id),
                    None,
                );
                first_seen.insert(&n.id, prev);
            }
        }
        first_seen
    }

    /// Exactly one `start` node. Returns the document indices of the start nodes.
    pub(super) fn check_start(&mut self, graph: &Graph) -> Vec<usize> {
        let starts: Vec<usize> =
            graph.nodes.iter().enumerate().filter(|(_, n)| n.kind == NodeKind::Start).map(|(i, _)| i).collect();
        match starts.len() {
            0 => self.error("nodes".into(), "the graph needs exactly one `start` node; it has none".into(), None, None),
            1 => {}
            k => {
                for &i in &starts[1..] {
                    self.error(
                        format!("nodes[{i}]"),
                        format!("the graph needs exactly one `start` node; it has {k}"),
                        Some(&graph.nodes[i].id),
                        None,
                    );
                }
            }
        }
        starts
    }

    /// Edges: unique ids, and endpoints that exist and make sense.
    pub(super) fn check_edges(&mut self, graph: &Graph, ids: &Ids<'_>) {
        let kind_of = |id: &str| ids.get(id).map(|&i| graph.nodes[i].kind);
        let mut edge_ids: HashMap<&str, usize> = HashMap::new();
        for (j, e) in graph.edges.iter().enumerate() {
            if let Some(id) = &e.id
                && let Some(prev) = edge_ids.insert(id, j)
            {
                self.error(
                    format!("edges[{j}].id"),
                    format!("duplicate edge id `{id}` (also edges[{prev}])"),
                    None,
                    Some(j),
                );
            }
            let from = match kind_of(&e.from) {
                None => Some(format!("no node has the id `{}`", e.from)),
                Some(NodeKind::End) => Some(format!("`{}` is an end node; nothing can follow it", e.from)),
                Some(NodeKind::Note) => Some(format!("`{}` is a note; notes have no edges", e.from)),
                _ => None,
            };
            if let Some(message) = from {
                let node = kind_of(&e.from).map(|_| e.from.as_str());
                self.error(format!("edges[{j}].from"), message, node, Some(j));
            }
            let to = match kind_of(&e.to) {
                None => Some(format!("no node has the id `{}`", e.to)),
                Some(NodeKind::Start) => Some(format!("`{}` is the start node; no edge may lead into it", e.to)),
                Some(NodeKind::Note) => Some(format!("`{}` is a note; notes have no edges", e.to)),
                _ => None,
            };
            if let Some(message) = to {
                let node = kind_of(&e.to).map(|_| e.to.as_str());
                self.error(format!("edges[{j}].to"), message, node, Some(j));
            }
        }
    }

    /// Limits: none may be 0.
    pub(super) fn check_limits(&mut self, graph: &Graph) {
        let Some(l) = &graph.limits else { return };
        for (name, value) in l.named() {
            let ceiling = EffectiveLimits::ceiling(name).unwrap_or(u64::MAX);
            match value {
                Some(0) => self.error(format!("limits.{name}"), "must be at least 1".into(), None, None),
                Some(v) if v > ceiling => self.warn(
                    format!("limits.{name}"),
                    format!("{v} is over this host's ceiling; {ceiling} is used instead"),
                    None,
                    None,
                ),
                _ => {}
            }
        }
    }

    /// State fields: reducers that fit their types, defaults of the right type, sensible
    /// `max_items` and `evict`.
    pub(super) fn check_state(&mut self, graph: &Graph) {
        for (name, f) in graph.state.iter().flatten() {
            let path = format!("state.{name}");
            let reducer = f.reducer.unwrap_or(FieldSpec::default_reducer(f.ty));
            if !reducer.fits(f.ty) {
                self.error(
                    format!("{path}.reducer"),
                    format!("`{}` does not work on a field of type {}", reducer.name(), f.ty.name()),
                    None,
                    None,
                );
            }
            if let Some(d) = &f.default
                && let Err(e) = check_type(f.ty, d)
            {
                self.error(format!("{path}.default"), e, None, None);
            }
            if let Some(m) = f.max_items {
                if !matches!(reducer, Reducer::Append | Reducer::Messages) {
                    self.error(
                        format!("{path}.max_items"),
                        "only `append` and `messages` fields can have max_items".into(),
                        None,
                        None,
                    );
                } else if m == 0 {
                    self.error(format!("{path}.max_items"), "must be at least 1".into(), None, None);
                }
            }
            if let Some(ev) = &f.evict {
                if reducer == Reducer::Messages {
                    let message = "a `messages` field keeps its newest messages (and a leading system message); it takes no `evict`";
                    self.error(format!("{path}.evict"), message.into(), None, None);
                } else if Evict::parse(ev).is_none() {
                    self.error(
                        format!("{path}.evict"),
                        format!("`{ev}` is not `oldest` or `lowest:<key>`"),
                        None,
                        None,
                    );
                } else if f.max_items.is_none() {
                    self.warn(format!("{path}.evict"), "has no effect without max_items".into(), None, None);
                }
            }
        }
    }

    /// Label rules for the edges leaving node `n`.
    pub(super) fn labels(&mut self, graph: &Graph, n: &Node, out: &[usize]) {
        let id = Some(n.id.as_str());
        let options = human_route_options(n);
        let selects = n.kind == NodeKind::Router
            || (n.kind == NodeKind::Human && (options.is_some() || (n.route_by.is_some() && n.fields.is_some())));
        let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
        for &j in out {
            let e = &graph.edges[j];
            let label = e.label.as_deref().filter(|l| !l.is_empty());
            if selects {
                match label {
                    None => self.error(
                        format!("edges[{j}].label"),
                        format!(
                            "edges out of {} `{}` need a label: it chooses edges by label",
                            if n.kind == NodeKind::Router { "router" } else { "human node" },
                            n.id
                        ),
                        id,
                        Some(j),
                    ),
                    Some(l) => {
                        if let Some(prev) = seen.insert(l, j) {
                            self.error(
                                format!("edges[{j}].label"),
                                format!("`{}` has two edges labelled `{l}` (also edges[{prev}])", n.id),
                                id,
                                Some(j),
                            );
                        }
                        if let Some(opts) = options
                            && !opts.iter().any(|o| o == l)
                            && l != "default"
                            && l != "error"
                        {
                            self.warn(
                                format!("edges[{j}].label"),
                                match &n.route_by {
                                    Some(by) => format!(
                                        "`{l}` is not one of the options of `{}`'s field `{by}` (route_by), so this edge is never taken",
                                        n.id
                                    ),
                                    None => format!("`{l}` is not one of `{}`'s options, so this edge is never taken", n.id),
                                },
                                id,
                                Some(j),
                            );
                        }
                    }
                }
            }
            if label == Some("error") && n.on_error != Some(OnError::Route) {
                self.warn(
                    format!("edges[{j}].label"),
                    format!("an `error` edge is followed only when `{}` has on_error: route", n.id),
                    id,
                    Some(j),
                );
            }
        }
    }

    /// Warns about nodes that no path from start reaches.
    pub(super) fn reachability(&mut self, graph: &Graph, ids: &Ids<'_>, out: &[Vec<usize>]) {
        let Some(start) = graph.nodes.iter().position(|n| n.kind == NodeKind::Start) else {
            return;
        };
        let mut seen = vec![false; graph.nodes.len()];
        seen[start] = true;
        let mut queue = VecDeque::from([start]);
        while let Some(i) = queue.pop_front() {
            for &j in &out[i] {
                if let Some(&t) = ids.get(graph.edges[j].to.as_str())
                    && !seen[t]
                {
                    seen[t] = true;
                    queue.push_back(t);
                }
            }
        }
        for (i, n) in graph.nodes.iter().enumerate() {
            if !seen[i] && n.kind != NodeKind::Note && ids.get(n.id.as_str()) == Some(&i) {
                self.warn(format!("nodes[{i}]"), format!("`{}` is unreachable from start", n.id), Some(&n.id), None);
            }
        }
    }
}

/// The options a human node's answer routes by: its `options`, or those of the form field
/// its `route_by` names.
fn human_route_options(n: &Node) -> Option<&[String]> {
    if n.kind != NodeKind::Human {
        return None;
    }
    match (&n.route_by, &n.fields) {
        (Some(by), Some(fields)) => fields.get(by).and_then(|f| f.options.as_deref()),
        _ => n.options.as_deref(),
    }
}
