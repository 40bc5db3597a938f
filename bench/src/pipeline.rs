//! One case measured as a user runs it: load, run, record, each timed apart with the
//! [`Meter`]'s clock, repeated, medians kept.

use std::cell::Cell;
use std::future::Future;
use std::pin::pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use engine::host::{Host, HttpFailure, HttpRequest, HttpResponse, LocalBoxFuture};
use engine::run::StepRecord;
use engine::{Run, Status, compile, parse_graph};

use crate::cases::Case;
use crate::figures::CaseFigures;
use crate::{Meter, median};

/// A host with the meter's clock and no network.
struct BenchHost<'a> {
    meter: &'a dyn Meter,
    ids: Cell<u64>,
}

impl Host for BenchHost<'_> {
    fn now_ms(&self) -> f64 {
        self.meter.now_us() / 1000.0
    }
    fn new_run_id(&self) -> String {
        self.ids.set(self.ids.get() + 1);
        format!("bench-{}", self.ids.get())
    }
    fn http(&self, _: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, HttpFailure>> {
        Box::pin(async { Err(HttpFailure { message: "the benchmark has no network".into(), timed_out: false }) })
    }
    fn sleep(&self, _: u64) -> LocalBoxFuture<'_, ()> {
        Box::pin(async {})
    }
}

/// Polls `future` to its end. The bench host's futures are ready at once, so this never
/// waits; a plain loop keeps the same code valid in wasm32, which cannot block a thread.
fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(out) = future.as_mut().poll(&mut cx) {
            return out;
        }
    }
}

/// One repetition's timings (µs) and allocation counts.
struct Once {
    parse: f64,
    compile: f64,
    hash: f64,
    run: f64,
    record: f64,
    record_bytes: u64,
    allocs: [Option<u64>; 3],
    retained: Option<u64>,
}

impl Once {
    fn load(&self) -> f64 {
        self.parse + self.compile + self.hash
    }
    fn total(&self) -> f64 {
        self.load() + self.run + self.record
    }
}

/// Measures `case` `case.reps(quick)` times; `Err` says why it could not run.
pub fn measure(case: &Case, meter: &dyn Meter, quick: bool) -> Result<CaseFigures, String> {
    let host = BenchHost { meter, ids: Cell::new(0) };
    let mut times = Vec::new();
    let mut last: Option<Run> = None;
    // One repetition untimed first, unless the case is heavy: the first pipeline in a process
    // pays for cold caches and page faults natively, and for baseline-compiled code in wasm.
    if case.reps > 3 {
        last = Some(once(case, meter, &host)?.1);
    }
    for _ in 0..case.reps(quick).max(1) {
        // The previous run is dropped before timing the next, outside the timings.
        drop(last.take());
        let (once, run) = once(case, meter, &host)?;
        times.push(once);
        last = Some(run);
    }
    // One more repetition, untimed, counting allocations (where the meter can).
    drop(last.take());
    meter.count_allocations(true);
    let counted = once(case, meter, &host);
    meter.count_allocations(false);
    let (counted, run) = counted?;
    let pick = |f: &dyn Fn(&Once) -> f64| median(&times.iter().map(f).collect::<Vec<_>>());
    let node_runs = node_runs(run.steps());
    let (step_us_first, step_us_last) = drift(run.steps());
    Ok(CaseFigures {
        key: case.key.into(),
        name: case.name.into(),
        reps: times.len(),
        node_runs,
        steps: run.step_count(),
        parse_us: pick(&|o| o.parse),
        compile_us: pick(&|o| o.compile),
        hash_us: pick(&|o| o.hash),
        load_us: pick(&Once::load),
        run_us: pick(&|o| o.run),
        record_us: pick(&|o| o.record),
        record_bytes: counted.record_bytes,
        total_us: pick(&Once::total),
        run_allocs_per_node: counted.allocs[1].map(|a| a as f64 / node_runs.max(1) as f64),
        load_allocs: counted.allocs[0],
        record_allocs: counted.allocs[2],
        retained_per_step: counted.retained.map(|b| b / run.step_count().max(1)),
        step_us_first,
        step_us_last,
        failed: None,
    })
}

/// The pipeline once: the graph's text to a plan, the run to its end, the record to bytes.
fn once(case: &Case, meter: &dyn Meter, host: &BenchHost) -> Result<(Once, Run), String> {
    let allocs = || meter.allocations();
    let (a0, held0, t0) = (allocs(), meter.live_bytes(), meter.now_us());
    let graph = parse_graph(&case.graph).map_err(|e| format!("{}: {e}", case.key))?;
    let t1 = meter.now_us();
    let compiled = compile(&graph);
    let plan = compiled.plan.ok_or_else(|| format!("{}: invalid graph: {:?}", case.key, compiled.diagnostics))?;
    let t2 = meter.now_us();
    // The hash is computed once per plan, when the record first needs it: the CLI's load.
    std::hint::black_box(plan.graph_hash());
    let (t3, a1) = (meter.now_us(), allocs());
    let mut run = Run::start(Rc::new(plan), case.input.clone(), host).map_err(|e| format!("{}: {e:?}", case.key))?;
    block_on(run.run(host));
    let (t4, a2, held) = (meter.now_us(), allocs(), meter.live_bytes());
    if run.status() != Status::Completed {
        return Err(format!("{}: the run ended {:?}: {:?}", case.key, run.status(), run.error()));
    }
    // Compact JSON: the CLI prints the same steps one compact line each under a pretty head
    // (cli/src/record_text.rs), within a few bytes a step of this.
    let bytes = serde_json::to_vec(&run.record(true)).map_err(|e| e.to_string())?;
    let (t5, a3) = (meter.now_us(), allocs());
    let once = Once {
        parse: t1 - t0,
        compile: t2 - t1,
        hash: t3 - t2,
        run: t4 - t3,
        record: t5 - t4,
        record_bytes: bytes.len() as u64,
        allocs: [delta(a0, a1), delta(a1, a2), delta(a2, a3)],
        // Wrapping: frees of blocks made before counting started push the count below zero.
        retained: held.zip(held0).map(|(h, h0)| (h.wrapping_sub(h0) as i64).max(0) as u64),
    };
    drop(std::hint::black_box(bytes));
    Ok((once, run))
}

fn delta(from: Option<u64>, to: Option<u64>) -> Option<u64> {
    Some(to?.saturating_sub(from?))
}

/// Node executions, a subgraph's own nodes included (from its nested record).
fn node_runs(steps: &[StepRecord]) -> u64 {
    steps.iter().map(|s| s.ran.len() as u64 + nested_runs(s)).sum()
}

fn nested_runs(step: &StepRecord) -> u64 {
    step.details
        .iter()
        .filter_map(|(_, d)| d["subgraph"]["steps"].as_array())
        .map(|steps| steps.iter().map(|s| s["ran"].as_array().map_or(0, |r| r.len() as u64)).sum::<u64>())
        .sum()
}

/// Mean step duration (µs) over the first and the last tenth of the run.
fn drift(steps: &[StepRecord]) -> (f64, f64) {
    if steps.is_empty() {
        return (0.0, 0.0);
    }
    let d: Vec<f64> = steps.iter().map(|s| s.duration_ms).collect();
    let k = (d.len() / 10).max(1);
    let mean = |s: &[f64]| s.iter().sum::<f64>() / s.len() as f64 * 1000.0;
    (mean(&d[..k]), mean(&d[d.len() - k..]))
}
