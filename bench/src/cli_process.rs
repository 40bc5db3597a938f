//! The whole CLI as the issue measured it: a release `switchyard run` process of each case
//! minus one of an empty graph (process start, reading, writing), medians of alternating
//! runs, per node execution.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use switchyard_bench::cases::{Case, empty_graph};
use switchyard_bench::figures::CaseFigures;
use switchyard_bench::median;

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
