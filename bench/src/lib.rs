//! `./dev bench`: Switchyard's pipelines measured as a user runs them, natively and with the
//! engine compiled to wasm32 and run in Node. One case is a graph document (text) and its
//! input, measured in three phases: load (parse, validate and compile, the graph's hash),
//! run (the executor to the end, every step recorded) and record (the run record as JSON
//! bytes, compact as the CLI writes its steps). The same code runs on both targets; only the clock and
//! the allocation counter are passed in ([`Meter`]).
//!
//! | module | what |
//! | --- | --- |
//! | [`cases`] | the graph shapes measured (chain, loop, fan-out, map, append, memory, subgraph) |
//! | [`pipeline`] | one case measured phase by phase, repeated, medians |
//! | [`probes`] | single costs (clock, allocation, JSON, Rhai) that explain a wasm/native ratio |
//! | [`figures`] | the results, as JSON between the wasm side and the table |
//! | [`table`] | the printed table: native, wasm, their ratio, the CLI and LangGraph |
//! | `wasm` | the wasm32 entry points Node calls (bench/wasm.mjs) |

pub mod cases;
pub mod figures;
pub mod pipeline;
pub mod probes;
pub mod table;
#[cfg(target_arch = "wasm32")]
mod wasm;

/// What the harness reads from its platform.
pub trait Meter {
    /// Microseconds on a monotonic clock with any origin.
    fn now_us(&self) -> f64;
    /// Starts or stops counting allocations. Counting costs two atomic additions per
    /// allocation, so the timed repetitions run without it and one more repetition counts.
    fn count_allocations(&self, _on: bool) {}
    /// Heap allocations counted so far, where counted (natively).
    fn allocations(&self) -> Option<u64> {
        None
    }
    /// Heap bytes held now, where counted.
    fn live_bytes(&self) -> Option<u64> {
        None
    }
}

/// Median of `values` (the mean of the middle two for an even count); 0 when empty.
pub fn median(values: &[f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let mid = v.len() / 2;
    if v.len() % 2 == 1 { v[mid] } else { (v[mid - 1] + v[mid]) / 2.0 }
}
