//! The graph shapes measured: those the issue compares with LangGraph (a chain, a loop, a
//! fan-out joined), a map edge, a loop whose state grows every step (the record's size), and
//! the heavier features (a bounded memory with eviction, a subgraph per step).

use serde_json::{Value, json};

/// One workload: a graph document as the user's file holds it, and the run's input.
pub struct Case {
    /// The word `./dev bench WORD` selects it by.
    pub key: &'static str,
    pub name: &'static str,
    pub graph: String,
    pub input: Value,
    /// Repetitions for the figures, and with `--quick`. A case of more than 3 also runs once
    /// untimed first.
    pub reps: usize,
    pub quick_reps: usize,
}

impl Case {
    pub fn reps(&self, quick: bool) -> usize {
        if quick { self.quick_reps } else { self.reps }
    }

    /// Whether `filters` (words from the command line) select this case; none selects all.
    pub fn selected(&self, filters: &[String]) -> bool {
        filters.is_empty() || filters.iter().any(|f| self.key.contains(f.as_str()) || self.name.contains(f.as_str()))
    }
}

/// Every case, in the table's order.
pub fn all() -> Vec<Case> {
    vec![
        case("chain", "chain of 1,000 set nodes", chain(1000), json!({}), 15, 3),
        case("loop", "loop of 10,000 steps", counting_loop(10_000, false), json!({}), 15, 3),
        case("fanout", "fan-out 100 + join: all", fan_out(100), json!({}), 51, 5),
        case("map", "map over 1,000 items", map_over(), json!({"items": (0..1000).collect::<Vec<_>>()}), 31, 5),
        case("append", "loop of 20,000 steps appending", counting_loop(20_000, true), json!({}), 3, 1),
        case("memory", "loop with 50-entry memory, 1,000 it.", memory_loop(1000), json!({}), 15, 3),
        case("subgraph", "subgraph (3 nodes) in a loop, 1,000 it.", subgraph_loop(1000), json!({}), 7, 1),
    ]
}

/// The smallest graph, whose CLI run is subtracted from every case's (process start, I/O).
pub fn empty_graph() -> String {
    doc(json!({}), vec![node("start", "start"), node("end", "end")], vec![edge("start", "end")], json!({}))
}

fn case(key: &'static str, name: &'static str, graph: String, input: Value, reps: usize, quick: usize) -> Case {
    Case { key, name, graph, input, reps, quick_reps: quick }
}

fn doc(state: Value, nodes: Vec<Value>, edges: Vec<Value>, limits: Value) -> String {
    json!({"format": "switchyard/graph@1", "state": state, "nodes": nodes, "edges": edges, "limits": limits})
        .to_string()
}

fn node(id: &str, kind: &str) -> Value {
    json!({"id": id, "kind": kind})
}

fn set(id: &str, set: Value) -> Value {
    json!({"id": id, "kind": "set", "set": set})
}

fn edge(from: &str, to: &str) -> Value {
    json!({"from": from, "to": to})
}

fn when(from: &str, to: &str, condition: String) -> Value {
    json!({"from": from, "to": to, "when": condition})
}

/// `n` set nodes in a row, each adding 1 to a number.
fn chain(n: usize) -> String {
    let ids: Vec<String> = (0..n).map(|i| format!("s{i}")).collect();
    let mut nodes = vec![node("start", "start")];
    nodes.extend(ids.iter().map(|id| set(id, json!({"n": "state.n + 1"}))));
    nodes.push(node("end", "end"));
    let mut order = vec!["start"];
    order.extend(ids.iter().map(String::as_str));
    order.push("end");
    let edges = order.windows(2).map(|w| edge(w[0], w[1])).collect();
    doc(json!({"n": {"type": "number", "default": 0}}), nodes, edges, json!({"max_steps": n + 10}))
}

/// One node looping on itself through a conditional edge for `steps` steps; with `append`,
/// each step also appends the counter to a list, so the state grows by one number a step.
fn counting_loop(steps: usize, append: bool) -> String {
    let mut state = json!({"n": {"type": "number", "default": 0}});
    let mut update = json!({"n": "state.n + 1"});
    if append {
        state["items"] = json!({"type": "list", "default": [], "reducer": "append"});
        update["items"] = json!("state.n");
    }
    let nodes = vec![node("start", "start"), set("tick", update), node("end", "end")];
    let edges = vec![
        edge("start", "tick"),
        when("tick", "tick", format!("state.n < {steps}")),
        when("tick", "end", format!("state.n >= {steps}")),
    ];
    doc(state, nodes, edges, json!({"max_steps": steps + 10, "run_timeout_ms": 3_600_000}))
}

/// One node fanning out to `width` branches, joined by a `join: all` node.
fn fan_out(width: usize) -> String {
    let mut nodes = vec![node("start", "start"), set("split", json!({"n": "0"}))];
    let mut edges = vec![edge("start", "split")];
    for i in 0..width {
        let id = format!("b{i}");
        nodes.push(set(&id, json!({"total": "1"})));
        edges.push(edge("split", &id));
        edges.push(edge(&id, "join"));
    }
    nodes.push(json!({"id": "join", "kind": "set", "join": "all", "set": {"n": "state.total"}}));
    nodes.push(node("end", "end"));
    edges.push(edge("join", "end"));
    let state = json!({
        "n": {"type": "number", "default": 0},
        "total": {"type": "number", "default": 0, "reducer": "add"}
    });
    doc(state, nodes, edges, json!({}))
}

/// A map edge out of start running a `set` node once per item of the input's `items`, each
/// appending its item to a list.
fn map_over() -> String {
    let state = json!({"items": {"type": "list", "reducer": "append"}, "out": {"type": "list", "reducer": "append"}});
    let nodes = vec![node("start", "start"), set("work", json!({"out": "item"})), node("end", "end")];
    let edges = vec![json!({"from": "start", "to": "work", "map": "input.items"}), edge("work", "end")];
    doc(state, nodes, edges, json!({"max_fanout": 1000}))
}

/// A loop of `iterations` rounds whose node appends an entry to a 50-item working memory
/// (evicting the least important) and reads it back.
fn memory_loop(iterations: usize) -> String {
    let state = json!({
        "count": {"type": "integer"},
        "memory": {"type": "list", "reducer": "append", "max_items": 50, "evict": "lowest:importance"},
        "best": {"type": "number"}
    });
    let nodes = vec![
        node("start", "start"),
        set(
            "think",
            json!({
                "count": "state.count + 1",
                "memory": "#{ kind: \"thought\", text: `step ${step}`, importance: (step * 7 % 10) / 10.0 }"
            }),
        ),
        set("recall", json!({"best": "state.memory[-1].importance + state.memory.len()"})),
        node("end", "end"),
    ];
    let edges = vec![
        edge("start", "think"),
        edge("think", "recall"),
        when("recall", "think", format!("state.count < {iterations}")),
        when("recall", "end", format!("state.count >= {iterations}")),
    ];
    doc(state, nodes, edges, json!({"max_steps": 2 * iterations + 10}))
}

/// A loop of `iterations` rounds, each running a 3-node subgraph.
fn subgraph_loop(iterations: usize) -> String {
    let child = json!({
        "format": "switchyard/graph@1",
        "state": {"x": {"type": "integer"}},
        "nodes": [
            node("start", "start"),
            set("a", json!({"x": "state.x + 1"})),
            set("b", json!({"x": "state.x * 2"})),
            set("c", json!({"x": "state.x - 1"})),
            node("end", "end")
        ],
        "edges": [edge("start", "a"), edge("a", "b"), edge("b", "c"), edge("c", "end")]
    });
    let state = json!({"count": {"type": "integer"}, "total": {"type": "integer", "reducer": "add"}});
    let nodes = vec![
        node("start", "start"),
        json!({"id": "sub", "kind": "subgraph", "graph": child, "inputs": {"x": "state.count"},
               "outputs": {"total": "result.x", "count": "state.count + 1"}}),
        node("end", "end"),
    ];
    let edges = vec![
        edge("start", "sub"),
        when("sub", "sub", format!("state.count < {iterations}")),
        when("sub", "end", format!("state.count >= {iterations}")),
    ];
    doc(state, nodes, edges, json!({"max_steps": iterations + 10}))
}
