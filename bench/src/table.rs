//! The printed figures: each case's phases natively and in wasm side by side, the whole CLI
//! and LangGraph, the native allocation counts, and the probes.

use std::fmt::Write;

use crate::figures::{CaseFigures, Side};

/// Per node execution, microseconds, for the whole CLI and for LangGraph, by case key; the
/// CLI with trace export off and on.
#[derive(Debug, Default)]
pub struct Outside {
    pub cli: Vec<(String, f64)>,
    pub langgraph: Vec<(String, f64)>,
    pub export: Vec<Export>,
}

/// One case as a CLI process with OpenTelemetry export off and on (to a local collector that
/// accepts everything).
#[derive(Debug, Clone)]
pub struct Export {
    pub key: String,
    /// µs per node, no collector configured.
    pub off_us: f64,
    /// µs per node, every span sent.
    pub on_us: f64,
    /// OTLP bytes and requests the collector received per run.
    pub kb_per_run: f64,
    pub requests_per_run: f64,
    /// The process's warning, if it gave one (spans dropped…).
    pub warning: Option<String>,
}

impl Outside {
    fn cli(&self, key: &str) -> Option<f64> {
        self.cli.iter().find(|(k, _)| k == key).map(|(_, v)| *v)
    }
    fn langgraph(&self, key: &str) -> Option<f64> {
        self.langgraph.iter().find(|(k, _)| k == key).map(|(_, v)| *v)
    }
}

/// The whole report as text.
pub fn render(native: &Side, wasm: Option<&Side>, outside: &Outside) -> String {
    let mut out = String::new();
    phases(&mut out, native, wasm);
    growth(&mut out, native, wasm);
    if !outside.cli.is_empty() || !outside.langgraph.is_empty() {
        whole(&mut out, native, outside);
    }
    if !outside.export.is_empty() {
        export(&mut out, native, &outside.export);
    }
    allocations(&mut out, native);
    probes(&mut out, native, wasm);
    out
}

fn find<'a>(side: Option<&'a Side>, key: &str) -> Option<&'a CaseFigures> {
    side?.cases.iter().find(|c| c.key == key && c.failed.is_none())
}

fn num(v: Option<f64>, decimals: usize) -> String {
    v.map_or_else(|| "-".into(), |v| format!("{v:.decimals$}"))
}

fn ratio(a: Option<f64>, b: Option<f64>) -> String {
    match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => format!("{:.1}x", a / b),
        _ => "-".into(),
    }
}

fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 10 << 20 => format!("{:.0} MB", b as f64 / 1048576.0),
        b if b >= 1 << 20 => format!("{:.1} MB", b as f64 / 1048576.0),
        b => format!("{:.0} KB", b as f64 / 1024.0),
    }
}

fn phases(out: &mut String, native: &Side, wasm: Option<&Side>) {
    let _ = writeln!(
        out,
        "Whole pipelines in process (medians): load = parse + validate/compile + hash; run = the executor, \
         every step recorded; record = the run record to JSON bytes. native | wasm (Node)."
    );
    let _ = writeln!(
        out,
        "{:<40} {:>6} {:>17} {:>15} {:>17} {:>8} {:>22}",
        "", "nodes", "load µs", "run µs/node", "record µs", "record", "pipeline µs/node"
    );
    let _ = writeln!(
        out,
        "{:<40} {:>6} {:>8} {:>8} {:>7} {:>7} {:>8} {:>8} {:>8} {:>7} {:>7} {:>6}",
        "case", "", "native", "wasm", "native", "wasm", "native", "wasm", "", "native", "wasm", "wasm/n"
    );
    for n in &native.cases {
        if let Some(why) = &n.failed {
            let _ = writeln!(out, "{:<40} failed natively: {why}", n.name);
            continue;
        }
        let w = find(wasm, &n.key);
        let wasm_pipeline = w.map(|w| w.per_node(w.total_us));
        let _ = writeln!(
            out,
            "{:<40} {:>6} {:>8.0} {:>8} {:>7.2} {:>7} {:>8.0} {:>8} {:>8} {:>7.2} {:>7} {:>6}",
            n.name,
            n.node_runs,
            n.load_us,
            num(w.map(|w| w.load_us), 0),
            n.per_node(n.run_us),
            num(w.map(|w| w.per_node(w.run_us)), 2),
            n.record_us,
            num(w.map(|w| w.record_us), 0),
            size(n.record_bytes),
            n.per_node(n.total_us),
            num(wasm_pipeline, 2),
            ratio(wasm_pipeline, Some(n.per_node(n.total_us))),
        );
        if let Some(why) = wasm.and_then(|s| s.cases.iter().find(|c| c.key == n.key)).and_then(|c| c.failed.as_ref()) {
            let _ = writeln!(out, "{:<40} wasm: {why}", "");
        }
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "Load, phase by phase (µs, native | wasm):");
    for n in native.cases.iter().filter(|n| n.failed.is_none()) {
        let w = find(wasm, &n.key);
        let _ = writeln!(
            out,
            "  {:<38} parse {:>7.0} | {:<7} compile {:>7.0} | {:<7} hash {:>6.0} | {}",
            n.name,
            n.parse_us,
            num(w.map(|w| w.parse_us), 0),
            n.compile_us,
            num(w.map(|w| w.compile_us), 0),
            n.hash_us,
            num(w.map(|w| w.hash_us), 0),
        );
    }
    let _ = writeln!(out);
}

/// The record-size figure of the issue: the growing loop's record and total time.
fn growth(out: &mut String, native: &Side, wasm: Option<&Side>) {
    let Some(n) = native.cases.iter().find(|c| c.key == "append" && c.failed.is_none()) else { return };
    let w = find(wasm, "append");
    let _ = writeln!(
        out,
        "{}: record {:.1} MB, whole pipeline {:.2} s natively, {} s in wasm (aim: under 10 MB and 2 s)\n",
        n.name,
        n.record_bytes as f64 / 1e6,
        n.total_us / 1e6,
        num(w.map(|w| w.total_us / 1e6), 2),
    );
}

fn whole(out: &mut String, native: &Side, outside: &Outside) {
    let _ = writeln!(
        out,
        "Whole CLI (release `switchyard run` of the case minus one of an empty graph, medians of alternating runs) \
         and LangGraph (build + compile + invoke with a checkpointer, in a warm Python process), µs per node:"
    );
    let _ = writeln!(out, "{:<40} {:>10} {:>12} {:>14}", "case", "CLI", "LangGraph", "LangGraph/CLI");
    for n in native.cases.iter().filter(|n| n.failed.is_none()) {
        let (cli, lg) = (outside.cli(&n.key), outside.langgraph(&n.key));
        if cli.is_none() && lg.is_none() {
            continue;
        }
        let _ = writeln!(out, "{:<40} {:>10} {:>12} {:>14}", n.name, num(cli, 2), num(lg, 1), ratio(lg, cli));
    }
    let _ = writeln!(out);
}

fn export(out: &mut String, native: &Side, figures: &[Export]) {
    let _ = writeln!(
        out,
        "Trace export (release `switchyard run` minus an empty graph's run, medians of alternating runs; on = \
         OTEL_EXPORTER_OTLP_ENDPOINT at a local collector that accepts everything), µs per node:"
    );
    let _ =
        writeln!(out, "{:<40} {:>8} {:>8} {:>10} {:>12} {:>9}", "case", "off", "on", "cost", "OTLP KB/run", "requests");
    for f in figures {
        let name = native.cases.iter().find(|c| c.key == f.key).map_or(f.key.as_str(), |c| c.name.as_str());
        let _ = writeln!(
            out,
            "{:<40} {:>8.2} {:>8.2} {:>10.2} {:>12.0} {:>9.0}",
            name,
            f.off_us,
            f.on_us,
            f.on_us - f.off_us,
            f.kb_per_run,
            f.requests_per_run
        );
        if let Some(w) = &f.warning {
            let _ = writeln!(out, "{:<40} {w}", "");
        }
    }
    let _ = writeln!(out);
}

fn allocations(out: &mut String, native: &Side) {
    if native.cases.iter().all(|c| c.run_allocs_per_node.is_none()) {
        return;
    }
    let _ = writeln!(out, "Native detail: heap allocations, bytes the finished run holds, step cost over the run:");
    let _ = writeln!(
        out,
        "{:<40} {:>12} {:>12} {:>13} {:>11} {:>26}",
        "case", "load allocs", "run allocs/n", "record allocs", "B per step", "µs per step, first→last 10%"
    );
    for n in native.cases.iter().filter(|n| n.failed.is_none()) {
        let _ = writeln!(
            out,
            "{:<40} {:>12} {:>12} {:>13} {:>11} {:>15.2} → {:<9.2}",
            n.name,
            num(n.load_allocs.map(|a| a as f64), 0),
            num(n.run_allocs_per_node, 1),
            num(n.record_allocs.map(|a| a as f64), 0),
            num(n.retained_per_step.map(|a| a as f64), 0),
            n.step_us_first,
            n.step_us_last,
        );
    }
    let _ = writeln!(out);
}

fn probes(out: &mut String, native: &Side, wasm: Option<&Side>) {
    if native.probes.is_empty() {
        return;
    }
    let _ = writeln!(out, "Probes (single costs, medians):");
    let _ = writeln!(out, "{:<50} {:>12} {:>10} {:>10} {:>7}", "probe", "unit", "native", "wasm", "wasm/n");
    for p in &native.probes {
        let w = wasm.and_then(|s| s.probes.iter().find(|q| q.name == p.name)).map(|q| q.value);
        let _ = writeln!(
            out,
            "{:<50} {:>12} {:>10.2} {:>10} {:>7}",
            p.name,
            p.unit,
            p.value,
            num(w, 2),
            ratio(w, Some(p.value))
        );
    }
}
