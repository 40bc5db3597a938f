//! Compiling: one walk over the document that reports every problem (the validator's
//! list) and, when none is an error, builds the [`Plan`].

use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;
use std::sync::Arc;

use crate::diagnostic::Diagnostic;
use crate::document::{Graph, Join};
use crate::plan::INDEX_NAME;
use crate::plan::check::{Checker, NodeAt};
use crate::plan::graph::{Ids, out_edges};
use crate::plan::map::item_names;
use crate::plan::reads::KnownKeys;
use crate::plan::types::{Compiled, Definitions, MapEdge, McpServers, Op, Plan, PlanEdge, PlanNode};
use crate::script::{Expr, Scripting};
use crate::state::Schema;

/// Compiles the top-level document: its definitions first, then the graph, which may use
/// them.
pub(super) fn compile_document(graph: &Graph) -> Compiled {
    let mut c = Checker::new();
    let servers = Rc::new(c.check_mcp_servers(graph));
    let defs = c.check_definitions(graph, servers.clone());
    compile_with(c, graph, 0, &defs, &servers)
}

/// Compiles `graph`, found `depth` subgraphs deep (a definition is one deep), whose `use`s
/// name the document's `defs`.
pub(super) fn compile_at(graph: &Graph, depth: usize, defs: &Definitions) -> Compiled {
    let mut c = Checker::new();
    c.nested_definitions(graph);
    let servers = c.nested_mcp_servers(graph, &defs.mcp);
    compile_with(c, graph, depth, defs, &servers)
}

/// Compiles `graph` with checker `c`, which may hold diagnostics already; its tools use
/// `servers`.
fn compile_with(mut c: Checker, graph: &Graph, depth: usize, defs: &Definitions, servers: &McpServers) -> Compiled {
    let limits = graph.effective_limits();
    let scripting = Scripting::new(&limits);
    c.check_limits(graph);
    c.check_state(graph);
    let schema = Schema::from_graph(graph);
    c.known = KnownKeys::of(graph, &scripting);
    let ids = c.check_ids(graph);
    let starts = c.check_start(graph);
    c.check_edges(graph, &ids);
    let out = out_edges(graph, &ids);
    let tools = c.check_tools(graph, &scripting, defs, servers);
    let item_names = item_names(graph, &ids);

    let mut ops: Vec<Option<Op>> = Vec::with_capacity(graph.nodes.len());
    for (i, n) in graph.nodes.iter().enumerate() {
        let at =
            NodeAt { graph, schema: &schema, scripting: &scripting, i, n, out: &out[i], depth, tools: &tools, defs };
        // A map target's expressions see its items' names and `index` too.
        c.in_scope = item_names[i].iter().map(|n| n.to_string()).collect();
        if !c.in_scope.is_empty() {
            c.in_scope.push(INDEX_NAME.to_string());
        }
        ops.push(c.node(&at));
        c.in_scope.clear();
    }
    let mut edges: Vec<EdgeExprs> = Vec::with_capacity(graph.edges.len());
    for (j, e) in graph.edges.iter().enumerate() {
        let when = e.when.as_ref().and_then(|w| c.expr(&scripting, w, format!("edges[{j}].when"), None, Some(j), &[]));
        let map = c.map_edge(graph, &ids, &scripting, j);
        edges.push(EdgeExprs { when, map });
    }
    for (i, n) in graph.nodes.iter().enumerate() {
        c.labels(graph, n, &out[i]);
    }
    c.reachability(graph, &ids, &out);

    let mut diagnostics = c.diags;
    // Stable: errors first, then warnings, each in the order found.
    diagnostics.sort_by_key(|d| d.severity);
    if diagnostics.iter().any(Diagnostic::is_error) {
        return Compiled { plan: None, diagnostics };
    }
    let nodes = plan_nodes(graph, &ids, &out, ops, edges, item_names);
    let by_id: HashMap<String, usize> =
        nodes.iter().flatten().enumerate().map(|(p, n)| (n.id.to_string(), p)).collect();
    // Without errors there is exactly one start node, and every node has its op.
    let (Some(nodes), Some(&start)) = (nodes, by_id.get(graph.nodes[starts[0]].id.as_str())) else {
        return Compiled { plan: None, diagnostics };
    };
    Compiled {
        plan: Some(Plan {
            graph: graph.clone(),
            nodes,
            by_id,
            start,
            schema,
            limits,
            scripting,
            hash: Default::default(),
        }),
        diagnostics,
    }
}

/// An edge's compiled expressions.
struct EdgeExprs {
    when: Option<Expr>,
    map: Option<MapEdge>,
}

/// The plan's nodes, sorted by id, with their ops, their out-edges (targets as plan
/// indices), their predecessors and the joins they feed.
fn plan_nodes(
    graph: &Graph,
    ids: &Ids<'_>,
    out: &[Vec<usize>],
    mut ops: Vec<Option<Op>>,
    mut edges: Vec<EdgeExprs>,
    mut item_names: Vec<Vec<Arc<str>>>,
) -> Option<Vec<PlanNode>> {
    let mut order: Vec<usize> = (0..graph.nodes.len()).collect();
    order.sort_by(|&a, &b| graph.nodes[a].id.cmp(&graph.nodes[b].id));
    let mut doc_to_plan = vec![0; graph.nodes.len()];
    for (p, &d) in order.iter().enumerate() {
        doc_to_plan[d] = p;
    }
    let mut nodes: Vec<PlanNode> = Vec::with_capacity(order.len());
    for &d in &order {
        let n = &graph.nodes[d];
        let edges = out[d]
            .iter()
            .map(|&j| {
                let e = &graph.edges[j];
                PlanEdge {
                    index: j,
                    to: doc_to_plan[ids[e.to.as_str()]],
                    label: e.label.clone(),
                    when: edges[j].when.take(),
                    map: edges[j].map.take(),
                }
            })
            .collect();
        nodes.push(PlanNode {
            id: Arc::from(n.id.as_str()),
            kind: n.kind,
            join_all: n.join == Some(Join::All),
            on_error: n.on_error.unwrap_or_default(),
            disabled: n.is_disabled(),
            pinned: n.pinned.clone().map(Arc::new),
            timeout_ms: n.timeout_ms,
            retry: n.retry.clone(),
            op: ops[d].take()?,
            out: edges,
            preds: Vec::new(),
            feeds_joins: Vec::new(),
            item_names: std::mem::take(&mut item_names[d]),
        });
    }
    link_joins(&mut nodes);
    Some(nodes)
}

/// Fills in each node's predecessors and the `join: all` nodes it feeds.
fn link_joins(nodes: &mut [PlanNode]) {
    let mut preds: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); nodes.len()];
    for (p, node) in nodes.iter().enumerate() {
        for e in &node.out {
            preds[e.to].insert(p);
        }
    }
    for (p, set) in preds.into_iter().enumerate() {
        nodes[p].preds = set.into_iter().collect();
    }
    for j in 0..nodes.len() {
        if nodes[j].join_all {
            for k in nodes[j].preds.clone() {
                nodes[k].feeds_joins.push(j);
            }
        }
    }
}
