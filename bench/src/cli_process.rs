//! The whole CLI as the issue measured it: a release `switchyard run` process of each case
//! minus one of an empty graph (process start, reading, writing), medians of alternating
//! runs, per node execution.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use switchyard_bench::cases::{Case, empty_graph};
use switchyard_bench::figures::CaseFigures;
use switchyard_bench::median;
use switchyard_bench::table::Export;

use crate::collector::Sink;

/// The cases the export figure is taken for (the issue's: the loop and the chain).
const EXPORT_CASES: [&str; 2] = ["loop", "chain"];

/// Runs of each case (and as many of the empty graph between them), at most.
const RUNS: usize = 15;

/// µs per node execution for each case that ran; a case whose process failed is left out
/// (and said on stderr).
pub fn measure(binary: &str, cases: &[&Case], figures: &[CaseFigures], quick: bool) -> Vec<(String, f64)> {
    let dir = std::env::temp_dir().join(format!("switchyard-bench-{}", std::process::id()));
    let result = measure_in(&dir, binary, cases, figures, quick);
    let _ = std::fs::remove_dir_all(&dir);
    result.unwrap_or_else(|e| {
        eprintln!("switchyard-bench: the CLI figure: {e}");
        Vec::new()
    })
}

fn measure_in(
    dir: &Path,
    binary: &str,
    cases: &[&Case],
    figures: &[CaseFigures],
    quick: bool,
) -> Result<Vec<(String, f64)>, String> {
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    let empty = write(dir, "empty.json", &empty_graph())?;
    let mut out = Vec::new();
    for case in cases {
        let Some(f) = figures.iter().find(|f| f.key == case.key && f.failed.is_none()) else { continue };
        eprintln!("CLI: {}", case.name);
        let graph = write(dir, &format!("{}.json", case.key), &case.graph)?;
        let input = write(dir, &format!("{}.input.json", case.key), &case.input.to_string())?;
        let runs = if quick { case.quick_reps.max(3) } else { case.reps.min(RUNS) };
        let (mut with, mut without) = (Vec::new(), Vec::new());
        for _ in 0..runs {
            with.push(time(binary, &graph, Some(&input))?);
            without.push(time(binary, &empty, None)?);
        }
        out.push((case.key.to_string(), (median(&with) - median(&without)) / f.node_runs.max(1) as f64));
    }
    Ok(out)
}

/// Each export case's cost per node as a CLI process sending its trace to a local collector
/// that accepts everything, against the same process with no collector configured: medians
/// of alternating runs.
pub fn measure_export(binary: &str, cases: &[&Case], figures: &[CaseFigures], quick: bool) -> Vec<Export> {
    let dir = std::env::temp_dir().join(format!("switchyard-bench-export-{}", std::process::id()));
    let result = Sink::start()
        .map_err(|e| format!("cannot start the collector: {e}"))
        .and_then(|sink| measure_export_in(&dir, binary, cases, figures, quick, &sink));
    let _ = std::fs::remove_dir_all(&dir);
    result.unwrap_or_else(|e| {
        eprintln!("switchyard-bench: the export figure: {e}");
        Vec::new()
    })
}

fn measure_export_in(
    dir: &Path,
    binary: &str,
    cases: &[&Case],
    figures: &[CaseFigures],
    quick: bool,
    sink: &Sink,
) -> Result<Vec<Export>, String> {
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    let empty = write(dir, "empty.json", &empty_graph())?;
    let mut out = Vec::new();
    for case in cases.iter().filter(|c| EXPORT_CASES.contains(&c.key)) {
        let Some(f) = figures.iter().find(|f| f.key == case.key && f.failed.is_none()) else { continue };
        eprintln!("CLI, trace export off and on: {}", case.name);
        let graph = write(dir, &format!("{}.json", case.key), &case.graph)?;
        let input = write(dir, &format!("{}.input.json", case.key), &case.input.to_string())?;
        let runs = if quick { case.quick_reps.max(3) } else { case.reps.min(RUNS) };
        let (mut off, mut on, mut empty_runs) = (Vec::new(), Vec::new(), Vec::new());
        let (requests, bytes) = (sink.requests(), sink.bytes());
        let mut warning = None;
        for _ in 0..runs {
            off.push(time(binary, &graph, Some(&input))?);
            let (us, said) = time_exporting(binary, &graph, &input, &sink.url())?;
            on.push(us);
            warning = warning.or(said);
            empty_runs.push(time(binary, &empty, None)?);
        }
        let nodes = f.node_runs.max(1) as f64;
        out.push(Export {
            key: case.key.to_string(),
            off_us: (median(&off) - median(&empty_runs)) / nodes,
            on_us: (median(&on) - median(&empty_runs)) / nodes,
            kb_per_run: (sink.bytes() - bytes) as f64 / 1024.0 / runs as f64,
            requests_per_run: (sink.requests() - requests) as f64 / runs as f64,
            warning,
        });
    }
    Ok(out)
}

/// One `switchyard run` process exporting to `endpoint`: µs, and its warning if it gave one.
fn time_exporting(binary: &str, graph: &Path, input: &Path, endpoint: &str) -> Result<(f64, Option<String>), String> {
    let mut command = Command::new(binary);
    command.arg("run").arg(graph).arg("--input").arg(format!("@{}", input.display()));
    command.env("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint).stdout(Stdio::null()).stderr(Stdio::piped());
    let t = Instant::now();
    let output = command.output().map_err(|e| format!("{binary}: {e}"))?;
    let us = t.elapsed().as_secs_f64() * 1e6;
    if !output.status.success() {
        return Err(format!("`{binary} run {}` exited with {}", graph.display(), output.status));
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    let warning = stderr.lines().find(|l| l.contains("could not send traces")).map(str::to_string);
    Ok((us, warning))
}

fn write(dir: &Path, name: &str, text: &str) -> Result<PathBuf, String> {
    let path = dir.join(name);
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

/// One `switchyard run` process, its record printed to nowhere: µs.
fn time(binary: &str, graph: &Path, input: Option<&Path>) -> Result<f64, String> {
    let mut command = Command::new(binary);
    command.arg("run").arg(graph).stdout(Stdio::null()).stderr(Stdio::null());
    if let Some(input) = input {
        command.arg("--input").arg(format!("@{}", input.display()));
    }
    let t = Instant::now();
    let status = command.status().map_err(|e| format!("{binary}: {e}"))?;
    let us = t.elapsed().as_secs_f64() * 1e6;
    if !status.success() {
        return Err(format!("`{binary} run {}` exited with {status}", graph.display()));
    }
    Ok(us)
}
