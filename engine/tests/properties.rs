//! Property tests: what must hold for every document and every run, not just the corpus.
#![cfg(not(target_arch = "wasm32"))]

use std::rc::Rc;

use engine::state::{FieldSpec, Schema, State};
use engine::{OfflineHost, Run, Status, compile, parse_graph};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

fn id() -> impl Strategy<Value = String> {
    "[a-z][a-z0-9_-]{0,6}"
}

fn small_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i32>().prop_map(Value::from),
        "[ -~]{0,8}".prop_map(Value::from),
    ];
    leaf.prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            prop::collection::btree_map("[a-z]{1,4}", inner, 0..3).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Arbitrary documents: not necessarily valid graphs, but well-formed JSON of the format.
fn document() -> impl Strategy<Value = Value> {
    let state_field = (
        prop::sample::select(vec!["string", "number", "integer", "boolean", "list", "object", "any"]),
        prop::option::of(prop::sample::select(vec!["replace", "append", "add", "merge"])),
        prop::option::of(1u64..100),
        prop::option::of("[ -~]{0,10}"),
    )
        .prop_map(|(ty, reducer, max, desc)| {
            let mut f = json!({ "type": ty });
            if let Some(r) = reducer {
                f["reducer"] = json!(r);
            }
            if let Some(m) = max {
                f["max_items"] = json!(m);
            }
            if let Some(d) = desc {
                f["description"] = json!(d);
            }
            f
        });
    let node = (
        id(),
        prop::sample::select(vec!["start", "end", "set", "script", "router", "human", "note"]),
        prop::option::of("[ -~]{0,12}"),
        prop::option::of(prop::sample::select(vec!["any", "all"])),
        prop::option::of(any::<bool>()),
        prop::option::of(prop::collection::btree_map("[a-z]{1,5}", "[a-z0-9 +.]{1,10}", 0..3)),
        prop::option::of(prop::collection::btree_map("[a-z]{1,5}", small_value(), 0..2)),
    )
        .prop_map(|(id, kind, label, join, disabled, set, pinned)| {
            let mut n = json!({ "id": id, "kind": kind });
            if let Some(l) = label {
                n["label"] = json!(l);
            }
            if let Some(j) = join {
                n["join"] = json!(j);
            }
            if let Some(d) = disabled {
                n["disabled"] = json!(d);
            }
            if let Some(s) = set {
                n["set"] = json!(s);
            }
            if let Some(p) = pinned {
                n["pinned"] = json!(p);
            }
            n
        });
    let edge = (id(), id(), prop::option::of("[a-z]{1,6}"), prop::option::of("[a-z. <>=0-9]{1,12}")).prop_map(
        |(from, to, label, when)| {
            let mut e = json!({ "from": from, "to": to });
            if let Some(l) = label {
                e["label"] = json!(l);
            }
            if let Some(w) = when {
                e["when"] = json!(w);
            }
            e
        },
    );
    (
        prop::option::of("[ -~]{0,16}"),
        prop::option::of(prop::collection::btree_map("[a-z]{1,6}", state_field, 0..4)),
        prop::collection::vec(node, 0..6),
        prop::collection::vec(edge, 0..6),
        prop::option::of(1u64..50),
        prop::option::of(prop::collection::btree_map(id(), (-500i32..500, -500i32..500), 0..4)),
    )
        .prop_map(|(name, state, nodes, edges, max_steps, layout)| {
            let mut g = json!({ "format": "switchyard/graph@1", "nodes": nodes, "edges": edges });
            if let Some(n) = name {
                g["name"] = json!(n);
            }
            if let Some(s) = state {
                g["state"] = json!(s);
            }
            if let Some(m) = max_steps {
                g["limits"] = json!({ "max_steps": m });
            }
            if let Some(l) = layout {
                let mut m = Map::new();
                for (k, (x, y)) in l {
                    m.insert(k, json!({"x": x, "y": y}));
                }
                m.insert("viewport".into(), json!({"x": 1.5, "y": -2, "zoom": 0.75}));
                g["layout"] = Value::Object(m);
            }
            g
        })
}

/// Valid, runnable graphs: a start, a pool of set/script/router/human nodes over a counter
/// and a list, random edges among them (routers' edges labelled), an end.
fn runnable_graph() -> impl Strategy<Value = Value> {
    let kinds = prop::collection::vec(0u8..5, 1..7);
    let edges = prop::collection::vec((0usize..8, 0usize..8, 0u8..4), 0..14);
    (kinds, edges, 1u64..30).prop_map(|(kinds, extra, max_steps)| {
        let n = kinds.len();
        let name = |i: usize| format!("n{i}");
        let mut nodes = vec![json!({"id": "start", "kind": "start"}), json!({"id": "end", "kind": "end"})];
        for (i, k) in kinds.iter().enumerate() {
            nodes.push(match k {
                0 => json!({"id": name(i), "kind": "set", "set": {"count": "state.count + 1", "log": "step"}}),
                1 => json!({"id": name(i), "kind": "script", "script": "if state.count % 2 == 0 { #{ log: \"even\" } } else { () }"}),
                2 => json!({"id": name(i), "kind": "router", "route": "if state.count > 3 { \"high\" } else { \"low\" }"}),
                3 => json!({"id": name(i), "kind": "human", "prompt": "count is {{ state.count }}", "writes": "answer"}),
                _ => json!({"id": name(i), "kind": "set", "set": {"log": "[step, step]"}, "join": "all"}),
            });
        }
        let mut edges = vec![json!({"from": "start", "to": name(0)})];
        let is_router = |i: usize| kinds[i] == 2;
        let mut labels_used = std::collections::BTreeSet::new();
        for (a, b, c) in extra {
            let (a, b) = (a % n, b % (n + 1));
            let to = if b == n { "end".to_string() } else { name(b) };
            if is_router(a) {
                let label = ["low", "high", "default", "low"][c as usize];
                if labels_used.insert((a, label)) {
                    edges.push(json!({"from": name(a), "to": to, "label": label}));
                }
            } else if c == 0 {
                edges.push(json!({"from": name(a), "to": to, "when": "state.count < 6"}));
            } else {
                edges.push(json!({"from": name(a), "to": to}));
            }
        }
        json!({
            "format": "switchyard/graph@1",
            "state": {
                "count": {"type": "integer"},
                "log": {"type": "list", "reducer": "append", "max_items": 7},
                "answer": {"type": "any"}
            },
            "nodes": nodes, "edges": edges,
            "limits": {"max_steps": max_steps}
        })
    })
}

fn run_of(doc: &Value) -> Option<Run> {
    let graph = parse_graph(&doc.to_string()).expect("generated graphs parse");
    let plan = compile(&graph).plan?;
    let host = OfflineHost::new();
    let mut run = Run::start(Rc::new(plan), json!({}), &host).expect("empty input is fine");
    pollster::block_on(run.run(&host));
    Some(run)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    /// Reading a document and writing it again loses nothing, and the export is stable.
    #[test]
    fn documents_round_trip(doc in document()) {
        let text = doc.to_string();
        let graph = parse_graph(&text).expect("generated documents are well-formed");
        let pretty = graph.to_pretty_json();
        let again = parse_graph(&pretty).expect("exports parse");
        prop_assert_eq!(&again, &graph);
        prop_assert_eq!(again.to_pretty_json(), pretty);
        let as_value: Value = serde_json::from_str(&graph.to_pretty_json()).expect("json");
        prop_assert_eq!(as_value, doc);
    }

    /// Every runnable graph stops with a status, within max_steps.
    #[test]
    fn runs_end_within_max_steps(doc in runnable_graph()) {
        let Some(run) = run_of(&doc) else { return Ok(()) };
        let max = doc["limits"]["max_steps"].as_u64().unwrap_or(24);
        prop_assert_ne!(run.status(), Status::Running);
        prop_assert!(run.step_count() <= max, "{} steps > max_steps {max}", run.step_count());
        if run.status() == Status::LimitReached {
            prop_assert_eq!(run.step_count(), max);
        }
        let log = run.state_json()["log"].as_array().map_or(0, Vec::len);
        prop_assert!(log <= 7, "append with max_items 7 holds {log} items");
    }

    /// A fork, with or without an edit, never changes the run it comes from.
    #[test]
    fn forks_leave_the_source_alone(doc in runnable_graph(), at in 0u64..30, bump in -5i64..5) {
        let Some(run) = run_of(&doc) else { return Ok(()) };
        let before = serde_json::to_string(&run.record(true)).expect("json");
        let host = OfflineHost::new();
        let step = at % (run.step_count() + 1);
        let set = (bump != 0).then(|| json!({"count": bump}).as_object().cloned().unwrap_or_default());
        if let Ok(mut fork) = run.fork(step, set, &host) {
            pollster::block_on(fork.run(&host));
            let _ = fork.answer("n0", json!("yes"));
            pollster::block_on(fork.run(&host));
        }
        prop_assert_eq!(serde_json::to_string(&run.record(true)).expect("json"), before);
    }

    /// `append` with max_items N never holds more than N items, whatever is appended, and
    /// its patches replay exactly.
    #[test]
    fn bounded_lists_stay_bounded(
        n in 1usize..8,
        lowest in any::<bool>(),
        updates in prop::collection::vec(prop::collection::vec((0i32..10, any::<bool>()), 0..5), 1..20),
    ) {
        let evict = if lowest { "lowest:importance" } else { "oldest" };
        let graph = parse_graph(&json!({
            "format": "switchyard/graph@1", "nodes": [],
            "state": {"mem": {"type": "list", "reducer": "append", "max_items": n, "evict": evict}}
        }).to_string()).expect("parses");
        let schema = Schema::from_graph(&graph);
        prop_assert!(schema.spec("mem") != &FieldSpec::free());
        let mut state = State::initial(&schema);
        for batch in updates {
            let items: Vec<Value> = batch.iter().map(|(imp, as_obj)| {
                if *as_obj { json!({"importance": imp}) } else { json!(imp) }
            }).collect();
            let before = Value::Object(state.to_json());
            let mut patch = Vec::new();
            let mut update = Map::new();
            update.insert("mem".into(), Value::Array(items));
            prop_assert!(state.apply(&schema, &update, &mut patch).is_ok(), "append takes any update");
            let len = state.get("mem").and_then(|v| v.as_array().map(Vec::len)).unwrap_or(0);
            prop_assert!(len <= n, "{len} items with max_items {n}");
            let mut replay = before;
            json_patch::patch(&mut replay, &patch).expect("patch applies");
            prop_assert_eq!(replay, Value::Object(state.to_json()));
        }
    }

    /// `add` on an integer field gives the exact sum while it fits in 64 bits, and an error
    /// naming the field past that: never a float, and a refused sum leaves the field as it was.
    #[test]
    fn integer_sums_are_exact_or_refused(values in prop::collection::vec(any::<i64>(), 1..6)) {
        let graph = parse_graph(&json!({
            "format": "switchyard/graph@1", "nodes": [],
            "state": {"n": {"type": "integer", "reducer": "add"}}
        }).to_string()).expect("parses");
        let schema = Schema::from_graph(&graph);
        let mut state = State::initial(&schema);
        let mut exact: i128 = 0;
        for v in values {
            let before = state.get("n");
            let mut update = Map::new();
            update.insert("n".into(), json!(v));
            let result = state.apply(&schema, &update, &mut Vec::new());
            exact += i128::from(v);
            match i64::try_from(exact) {
                Ok(sum) => {
                    prop_assert!(result.is_ok());
                    prop_assert_eq!(state.get("n"), Some(json!(sum)));
                }
                Err(_) => {
                    let e = result.expect_err("an overflow is refused");
                    prop_assert_eq!(e.field, "n");
                    prop_assert!(e.message.contains("overflows"), "{}", e.message);
                    prop_assert_eq!(state.get("n"), before);
                    break;
                }
            }
        }
    }
}
