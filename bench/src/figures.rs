//! What one side (native or wasm) measured, as JSON: the wasm side prints it from Node and
//! the native side reads it to print both in one table.

use serde::{Deserialize, Serialize};

/// One case's figures: medians over the repetitions, in microseconds.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct CaseFigures {
    pub key: String,
    pub name: String,
    pub reps: usize,
    /// Node executions in one run (instances of a mapped node and a subgraph's nodes count).
    pub node_runs: u64,
    pub steps: u64,
    /// Load, phase by phase: parsing the text, validating and compiling, the graph's hash.
    pub parse_us: f64,
    pub compile_us: f64,
    pub hash_us: f64,
    pub load_us: f64,
    /// The executor from `Run::start` to the run's end, every step recorded.
    pub run_us: f64,
    /// The run record serialized to JSON bytes (compact, as the CLI writes steps).
    pub record_us: f64,
    pub record_bytes: u64,
    /// The whole pipeline (median of the sums, not the sum of the medians).
    pub total_us: f64,
    /// Heap allocations per node execution in the run phase, where counted.
    pub run_allocs_per_node: Option<f64>,
    /// Heap allocations of the load and record phases, where counted.
    pub load_allocs: Option<u64>,
    pub record_allocs: Option<u64>,
    /// Heap bytes the finished run holds per step, where counted.
    pub retained_per_step: Option<u64>,
    /// Mean step duration (µs) over the first and the last tenth of the run: whether a
    /// step costs more as the run gets longer.
    pub step_us_first: f64,
    pub step_us_last: f64,
    /// Why the case could not be measured (a trap in wasm, for instance).
    pub failed: Option<String>,
}

impl CaseFigures {
    pub fn per_node(&self, us: f64) -> f64 {
        us / self.node_runs.max(1) as f64
    }
}

/// A single cost, timed alone.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Probe {
    pub name: String,
    /// What `value` measures ("ns per call", "µs"...).
    pub unit: String,
    pub value: f64,
}

/// Everything one side measured.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Side {
    pub cases: Vec<CaseFigures>,
    pub probes: Vec<Probe>,
}
