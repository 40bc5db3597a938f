//! Single costs timed alone, to tell what makes a case slower in wasm than natively: the
//! clock, the allocator (dlmalloc in wasm32, the system's natively), serde_json both ways,
//! SHA-256 (the graph's hash), and Rhai compiling and evaluating an expression.

use std::hint::black_box;

use serde_json::Value;
use sha2::Digest;

use crate::figures::Probe;
use crate::{Meter, median};

/// Each probe's figure is the median of this many timings.
const ROUNDS: usize = 7;

/// Every probe; `graph` is a large document's text (the chain's) for the JSON probes.
pub fn all(meter: &dyn Meter, graph: &str) -> Vec<Probe> {
    let value: Value = serde_json::from_str(graph).unwrap_or_default();
    vec![
        probe(meter, "clock read", "ns per read", 10_000, 1e3, &|| {
            black_box(meter.now_us());
        }),
        probe(meter, "allocation: 48-byte box, made and freed", "ns each", 10_000, 1e3, &|| {
            black_box(Box::new([0u64; 6]));
        }),
        probe(meter, "allocation: 1,000 boxes held, then freed", "ns per box", 1, 1.0, &|| {
            let boxes: Vec<Box<[u64; 6]>> = (0..1000).map(|i| Box::new([i; 6])).collect();
            black_box(boxes);
        }),
        probe(meter, "allocation: a Vec grown to 100,000 numbers", "µs", 1, 1.0, &|| {
            let mut v = Vec::new();
            v.extend((0..100_000u64).map(black_box));
            black_box(v);
        }),
        probe(meter, "serde_json: parse the chain's document to a Value", "µs", 1, 1.0, &|| {
            black_box(serde_json::from_str::<Value>(graph).ok());
        }),
        probe(meter, "serde_json: that Value to pretty bytes", "µs", 1, 1.0, &|| {
            black_box(serde_json::to_vec_pretty(&value).ok());
        }),
        probe(meter, "SHA-256 of the chain's document", "µs", 1, 1.0, &|| {
            black_box(sha2::Sha256::digest(graph.as_bytes()));
        }),
        rhai_compile(meter),
        rhai_eval(meter),
    ]
}

/// Times `f` run `n` times, `ROUNDS` times over: the median, in µs per call times `scale`
/// (1e3 for nanoseconds; a call over 1,000 items times 1 is nanoseconds per item).
fn probe(meter: &dyn Meter, name: &str, unit: &str, n: usize, scale: f64, f: &dyn Fn()) -> Probe {
    let rounds: Vec<f64> = (0..ROUNDS)
        .map(|_| {
            let t = meter.now_us();
            for _ in 0..n {
                f();
            }
            (meter.now_us() - t) / n as f64
        })
        .collect();
    Probe { name: name.into(), unit: unit.into(), value: median(&rounds) * scale }
}

/// An engine set up as the sandbox's is not needed to see the language's own cost.
fn rhai_engine() -> rhai::Engine {
    let mut engine = rhai::Engine::new_raw();
    engine.set_max_operations(100_000);
    engine
}

fn rhai_compile(meter: &dyn Meter) -> Probe {
    let engine = rhai_engine();
    probe(meter, "Rhai: compile `state.n + 1`", "µs", 100, 1.0, &|| {
        black_box(engine.compile_expression("state.n + 1").ok());
    })
}

fn rhai_eval(meter: &dyn Meter) -> Probe {
    let engine = rhai_engine();
    let ast = engine.compile_expression("state.n + 1").ok();
    let mut state = rhai::Map::new();
    state.insert("n".into(), rhai::Dynamic::from_int(41));
    probe(meter, "Rhai: evaluate it (a map in scope)", "ns", 1000, 1e3, &|| {
        let Some(ast) = &ast else { return };
        let mut scope = rhai::Scope::new();
        scope.push("state", state.clone());
        black_box(engine.eval_ast_with_scope::<rhai::Dynamic>(&mut scope, ast).ok());
    })
}
