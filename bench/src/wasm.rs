//! The wasm32 entry points bench/wasm.mjs calls in Node: the same cases and probes as the
//! native binary, timed with `performance.now()`, results as JSON text.

use wasm_bindgen::prelude::wasm_bindgen;

use crate::figures::CaseFigures;
use crate::{Meter, cases, pipeline, probes};

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = performance)]
    fn now() -> f64;
}

struct NodeMeter;

impl Meter for NodeMeter {
    fn now_us(&self) -> f64 {
        now() * 1000.0
    }
}

/// The keys of the cases `filters` (a JSON array of words) select, as a JSON array.
#[wasm_bindgen]
pub fn case_keys(filters: &str) -> String {
    let filters: Vec<String> = serde_json::from_str(filters).unwrap_or_default();
    let keys: Vec<&str> = cases::all().iter().filter(|c| c.selected(&filters)).map(|c| c.key).collect();
    serde_json::to_string(&keys).unwrap_or_default()
}

/// One case's [`CaseFigures`] as JSON (with `failed` set when it could not run).
#[wasm_bindgen]
pub fn run_case(key: &str, quick: bool) -> String {
    let all = cases::all();
    let figures = match all.iter().find(|c| c.key == key) {
        Some(case) => pipeline::measure(case, &NodeMeter, quick).unwrap_or_else(|e| CaseFigures {
            key: key.into(),
            name: case.name.into(),
            failed: Some(e),
            ..Default::default()
        }),
        None => CaseFigures { key: key.into(), failed: Some("no such case".into()), ..Default::default() },
    };
    serde_json::to_string(&figures).unwrap_or_default()
}

/// The probes' figures as JSON.
#[wasm_bindgen]
pub fn run_probes() -> String {
    let chain = cases::all().into_iter().next().map(|c| c.graph).unwrap_or_default();
    serde_json::to_string(&probes::all(&NodeMeter, &chain)).unwrap_or_default()
}

/// The instance's linear memory in bytes: after a trap, tells running out of memory (wasm32
/// addresses 4 GB at most) from a panic.
#[wasm_bindgen]
pub fn memory_bytes() -> f64 {
    (core::arch::wasm32::memory_size::<0>() * 65536) as f64
}
