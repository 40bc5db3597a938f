//! Executor benchmark: the workloads a LangGraph user would compare with, each recorded in
//! full (a checkpoint and a patch every step). Prints microseconds per node execution, and
//! whether the cost of a step grows as the run gets longer; and for a map edge over 1,000
//! items (LangGraph's `Send`), microseconds per instance in the step that runs them.
//!
//! Run: `cargo bench -p engine --bench executor` (add `-- quick` for fewer repetitions, and
//! any other word to run only the workloads whose name holds it: `-- quick map`).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::hint::black_box;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use engine::host::{Host, HttpFailure, HttpRequest, HttpResponse, LocalBoxFuture};
use engine::{Plan, Run, Status, compile, parse_graph};
use serde_json::{Value, json};

/// Counts heap allocations, to report them per node execution.
struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
static LIVE_BYTES: AtomicU64 = AtomicU64::new(0);

// SAFETY: forwards every call to the system allocator unchanged.
#[allow(unsafe_code, reason = "a global allocator wrapper is unsafe by definition")]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        LIVE_BYTES.fetch_add(layout.size() as u64, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE_BYTES.fetch_sub(layout.size() as u64, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        LIVE_BYTES.fetch_add(new_size as u64, Ordering::Relaxed);
        LIVE_BYTES.fetch_sub(layout.size() as u64, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// A host with a real clock and no network.
struct BenchHost {
    origin: Instant,
    ids: Cell<u64>,
}

impl Host for BenchHost {
    fn now_ms(&self) -> f64 {
        self.origin.elapsed().as_secs_f64() * 1000.0
    }
    fn new_run_id(&self) -> String {
        self.ids.set(self.ids.get() + 1);
        format!("bench-{}", self.ids.get())
    }
    fn http(&self, _: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, HttpFailure>> {
        Box::pin(async { Err(HttpFailure { message: "no network".into(), timed_out: false }) })
    }
    fn sleep(&self, _: u64) -> LocalBoxFuture<'_, ()> {
        Box::pin(async {})
    }
}

/// The map workload's name in the table.
const MAP_CASE: &str = "map over 1,000 items (set → append)";

fn plan(doc: Value) -> Rc<Plan> {
    let graph = parse_graph(&doc.to_string()).expect("bench graph parses");
    let compiled = compile(&graph);
    Rc::new(compiled.plan.unwrap_or_else(|| panic!("bench graph invalid: {:?}", compiled.diagnostics)))
}

fn state_decl() -> Value {
    json!({
        "count": { "type": "integer" },
        "items": { "type": "list", "reducer": "append" }
    })
}

/// `n` set nodes in a row, each adding 1 to a counter and appending to a list.
fn chain(n: usize) -> Rc<Plan> {
    let mut nodes = vec![json!({"id": "start", "kind": "start"})];
    let mut edges = vec![];
    for i in 0..n {
        nodes.push(
            json!({"id": format!("n{i:05}"), "kind": "set", "set": {"count": "state.count + 1", "items": "step"}}),
        );
        let from = if i == 0 { "start".to_string() } else { format!("n{:05}", i - 1) };
        edges.push(json!({"from": from, "to": format!("n{i:05}")}));
    }
    nodes.push(json!({"id": "end", "kind": "end"}));
    edges.push(json!({"from": format!("n{:05}", n - 1), "to": "end"}));
    plan(json!({
        "format": "switchyard/graph@1", "state": state_decl(), "nodes": nodes, "edges": edges,
        "limits": {"max_steps": n + 10}
    }))
}

/// Two nodes in a loop closed by a conditional edge, for `iterations` rounds.
fn two_node_loop(iterations: usize) -> Rc<Plan> {
    plan(json!({
        "format": "switchyard/graph@1", "state": state_decl(),
        "nodes": [
            {"id": "start", "kind": "start"},
            {"id": "a", "kind": "set", "set": {"count": "state.count + 1"}},
            {"id": "b", "kind": "set", "set": {"items": "step"}},
            {"id": "end", "kind": "end"}
        ],
        "edges": [
            {"from": "start", "to": "a"}, {"from": "a", "to": "b"},
            {"from": "b", "to": "a", "when": format!("state.count < {iterations}")},
            {"from": "b", "to": "end", "when": format!("state.count >= {iterations}")}
        ],
        "limits": {"max_steps": 2 * iterations + 10}
    }))
}

/// One node fanning out to `width` workers, joined by a `join: all` node.
fn fan_out(width: usize) -> Rc<Plan> {
    let mut nodes = vec![
        json!({"id": "start", "kind": "start"}),
        json!({"id": "fan", "kind": "set", "set": {"count": "0"}}),
        json!({"id": "join", "kind": "set", "join": "all", "set": {"count": "state.items.len()"}}),
        json!({"id": "end", "kind": "end"}),
    ];
    let mut edges = vec![json!({"from": "start", "to": "fan"}), json!({"from": "join", "to": "end"})];
    for i in 0..width {
        let id = format!("w{i:03}");
        nodes.push(json!({"id": id, "kind": "set", "set": {"items": format!("{i}")}}));
        edges.push(json!({"from": "fan", "to": id}));
        edges.push(json!({"from": id, "to": "join"}));
    }
    plan(json!({"format": "switchyard/graph@1", "state": state_decl(), "nodes": nodes, "edges": edges}))
}

/// A map edge out of start running a `set` node once per item of the input's `items`,
/// each appending its item to a list.
fn map_over(n: usize) -> Rc<Plan> {
    plan(json!({
        "format": "switchyard/graph@1", "state": state_decl(),
        "nodes": [
            {"id": "start", "kind": "start"},
            {"id": "work", "kind": "set", "set": {"items": "item"}},
            {"id": "end", "kind": "end"}
        ],
        "edges": [
            {"from": "start", "to": "work", "map": "input.items"},
            {"from": "work", "to": "end"}
        ],
        "limits": {"max_fanout": n}
    }))
}

/// The input [`map_over`] maps over: `n` numbers.
fn map_input(n: usize) -> Value {
    json!({ "items": (0..n).collect::<Vec<_>>() })
}

/// A loop of `iterations` rounds whose node appends an entry to a 50-item working memory
/// (evicting the least important) and reads it back.
fn memory_loop(iterations: usize) -> Rc<Plan> {
    plan(json!({
        "format": "switchyard/graph@1",
        "state": {
            "count": { "type": "integer" },
            "memory": { "type": "list", "reducer": "append", "max_items": 50, "evict": "lowest:importance" },
            "best": { "type": "number" }
        },
        "nodes": [
            {"id": "start", "kind": "start"},
            {"id": "think", "kind": "set", "set": {
                "count": "state.count + 1",
                "memory": "#{ kind: \"thought\", text: `step ${step}`, importance: (step * 7 % 10) / 10.0 }"
            }},
            {"id": "recall", "kind": "set", "set": { "best": "state.memory[-1].importance + state.memory.len()" }},
            {"id": "end", "kind": "end"}
        ],
        "edges": [
            {"from": "start", "to": "think"}, {"from": "think", "to": "recall"},
            {"from": "recall", "to": "think", "when": format!("state.count < {iterations}")},
            {"from": "recall", "to": "end", "when": format!("state.count >= {iterations}")}
        ],
        "limits": {"max_steps": 2 * iterations + 10}
    }))
}

/// A loop of `iterations` rounds, each running a 3-node subgraph.
fn subgraph_loop(iterations: usize) -> Rc<Plan> {
    let child = json!({
        "format": "switchyard/graph@1",
        "state": { "x": { "type": "integer" } },
        "nodes": [
            {"id": "start", "kind": "start"},
            {"id": "a", "kind": "set", "set": {"x": "state.x + 1"}},
            {"id": "b", "kind": "set", "set": {"x": "state.x * 2"}},
            {"id": "c", "kind": "set", "set": {"x": "state.x - 1"}},
            {"id": "end", "kind": "end"}
        ],
        "edges": [
            {"from": "start", "to": "a"}, {"from": "a", "to": "b"}, {"from": "b", "to": "c"}, {"from": "c", "to": "end"}
        ]
    });
    plan(json!({
        "format": "switchyard/graph@1",
        "state": { "count": { "type": "integer" }, "total": { "type": "integer", "reducer": "add" } },
        "nodes": [
            {"id": "start", "kind": "start"},
            {"id": "sub", "kind": "subgraph", "graph": child, "inputs": {"x": "state.count"}, "outputs": {"total": "result.x", "count": "state.count + 1"}},
            {"id": "end", "kind": "end"}
        ],
        "edges": [
            {"from": "start", "to": "sub"},
            {"from": "sub", "to": "sub", "when": format!("state.count < {iterations}")},
            {"from": "sub", "to": "end", "when": format!("state.count >= {iterations}")}
        ],
        "limits": {"max_steps": iterations + 10}
    }))
}

struct Measured {
    best_ms: f64,
    allocations: u64,
    /// Heap bytes the finished run holds (its whole record).
    retained: u64,
    node_runs: u64,
    steps: u64,
    run: Run,
}

fn measure(plan: &Rc<Plan>, input: &Value, reps: usize, host: &BenchHost) -> Measured {
    let mut best = f64::INFINITY;
    let mut last = None;
    let mut allocations = 0;
    let mut retained = 0;
    for _ in 0..reps {
        drop(last.take());
        let a0 = ALLOCATIONS.load(Ordering::Relaxed);
        let b0 = LIVE_BYTES.load(Ordering::Relaxed);
        let t = Instant::now();
        let mut run = Run::start(plan.clone(), input.clone(), host).expect("input accepted");
        pollster::block_on(run.run(host));
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        allocations = ALLOCATIONS.load(Ordering::Relaxed) - a0;
        retained = LIVE_BYTES.load(Ordering::Relaxed).saturating_sub(b0);
        assert_eq!(run.status(), Status::Completed, "{:?}", run.error());
        best = best.min(ms);
        last = Some(black_box(run));
    }
    let run = last.expect("at least one repetition");
    let node_runs = run.steps().iter().map(|s| s.ran.len() as u64 + nested_runs(s)).sum();
    Measured { best_ms: best, allocations, retained, node_runs, steps: run.step_count(), run }
}

/// Node executions inside a step's subgraphs (from their nested records).
fn nested_runs(step: &engine::run::StepRecord) -> u64 {
    step.details
        .iter()
        .filter_map(|(_, d)| d["subgraph"]["steps"].as_array())
        .map(|steps| steps.iter().map(|s| s["ran"].as_array().map_or(0, |r| r.len() as u64)).sum::<u64>())
        .sum()
}

/// Mean step duration over the first and the last tenth of the run.
fn drift(run: &Run) -> (f64, f64) {
    let d: Vec<f64> = run.steps().iter().map(|s| s.duration_ms).collect();
    let k = (d.len() / 10).max(1);
    let mean = |s: &[f64]| s.iter().sum::<f64>() / s.len() as f64 * 1000.0;
    (mean(&d[..k]), mean(&d[d.len() - k..]))
}

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    let filters: Vec<String> = std::env::args().skip(1).filter(|a| a != "quick" && !a.starts_with('-')).collect();
    let host = BenchHost { origin: Instant::now(), ids: Cell::new(0) };
    let reps = |n: usize| if quick { 1 } else { n };
    let none = json!({});
    let items = map_input(1000);
    let cases: Vec<(&str, Rc<Plan>, &Value, usize)> = vec![
        ("chain of 100 set nodes", chain(100), &none, reps(200)),
        ("chain of 1,000 set nodes", chain(1000), &none, reps(50)),
        ("2-node loop, 1,000 iterations", two_node_loop(1000), &none, reps(50)),
        ("2-node loop, 10,000 iterations", two_node_loop(10_000), &none, reps(15)),
        ("fan-out 100 + join: all", fan_out(100), &none, reps(200)),
        ("loop with 50-entry memory, 1,000 it.", memory_loop(1000), &none, reps(30)),
        ("subgraph (3 nodes) in a loop, 1,000 it.", subgraph_loop(1000), &none, reps(10)),
        // A run takes about a millisecond: best of 10 even when quick, so that one slow
        // first run does not stand for the figure.
        (MAP_CASE, map_over(1000), &items, reps(100).max(10)),
    ];
    println!("Switchyard executor benchmark: best of 15-200 runs each, the full run record kept");
    println!(
        "{:<40} {:>7} {:>7} {:>9} {:>12} {:>12} {:>11} {:>24}",
        "workload",
        "steps",
        "nodes",
        "run ms",
        "µs per node",
        "allocs/node",
        "B per step",
        "µs per step, first→last 10%"
    );
    let mut per_instance = None;
    for (name, plan, input, n) in cases {
        if !filters.is_empty() && !filters.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        let m = measure(&plan, input, n, &host);
        if name == MAP_CASE {
            per_instance = Some(m.best_ms * 1000.0 / m.node_runs as f64);
        }
        let (first, last) = drift(&m.run);
        println!(
            "{:<40} {:>7} {:>7} {:>9.2} {:>12.2} {:>12.1} {:>11} {:>13.2} → {:<9.2}",
            name,
            m.steps,
            m.node_runs,
            m.best_ms,
            m.best_ms * 1000.0 / m.node_runs as f64,
            m.allocations as f64 / m.node_runs as f64,
            m.retained / m.steps.max(1),
            first,
            last
        );
    }
    if let Some(us) = per_instance {
        // The whole run (routing the map, running the instances, applying their updates,
        // keeping the record) divided by the instances.
        println!("map over 1,000 items: {us:.2} µs per instance (the executor's budget: about 2)");
    }
}
