//! `./dev bench tests`: how fast `switchyard test` replays a suite made from runs of every
//! template. Not a test: it prints figures.
//!
//! Each template is run once through the binary the way a person would (`run`, then `resume
//! --answer` for each question), the run is added to a suite [`COPIES`] times under different
//! names, and `switchyard test SUITE --json` replays it. Two figures per template: cases per
//! second inside the engine (the cases' own `duration_ms`), and for the whole command
//! (process start, reading the suite, printing the results). The memory assistant needs an
//! MCP server program to record its run, so it is left out.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use serde_json::{Value, json};

/// Cases per template suite.
const COPIES: usize = 25;
/// Replays of each suite; the median is kept.
const ROUNDS: usize = 5;

/// A template, the input a person gives it and their answers, in order.
struct Script {
    template: &'static str,
    input: Value,
    answers: Vec<Value>,
}

fn scripts() -> Vec<Script> {
    let s = |template, input, answers| Script { template, input, answers };
    vec![
        s("000-task-loop.json", json!({"request": "Organize my machine learning notes and create an index"}), vec![]),
        s("001-step-engine.json", json!({"readings": [12, 15, 18, 21, 24, 27]}), vec![json!({"ask_operator": "ok"})]),
        s("002-agent-graph.json", json!({"task": "What is self-reflection?"}), vec![]),
        s(
            "003-approval.json",
            json!({"request": "two days off next week", "requester": "Dana"}),
            vec![json!({"get_approval": {"decision": "approve"}})],
        ),
        s(
            "004-linear-orchestrator.json",
            json!({"task": "Book this month's supplier invoices"}),
            vec![
                json!({"approve_plan": {"plan_decision": "approve"}}),
                json!({"approve_result": {"result_decision": "approve"}}),
            ],
        ),
        s("005-tool-agent.json", json!({"question": "What should I pack for Oslo?"}), vec![]),
        s(
            "006-map-reduce.json",
            json!({"document": "# Plan\nShip the beta in May.\n\n# Risks\nThe vendor may be late.\n\n# Budget\nUnder 40k."}),
            vec![],
        ),
    ]
}

fn main() {
    let dir = std::env::temp_dir().join(format!("switchyard-replay-bench-{}", std::process::id()));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("replay bench: {}: {e}", dir.display());
        std::process::exit(1);
    }
    let result = bench(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    if let Err(e) = result {
        eprintln!("replay bench: {e}");
        std::process::exit(1);
    }
}

fn bench(dir: &Path) -> Result<(), String> {
    println!(
        "switchyard test: replaying suites made from runs of the templates ({COPIES} cases each, median of {ROUNDS})"
    );
    println!("{:<30} {:>6} {:>18} {:>18}", "template", "cases", "engine cases/s", "command cases/s");
    let mut suites = Vec::new();
    let (mut engine_ms, mut wall_ms, mut cases) = (0.0, 0.0, 0usize);
    for script in scripts() {
        let suite = make_suite(dir, &script)?;
        let (engine, wall) = replay(&suite, 1)?;
        println!(
            "{:<30} {:>6} {:>18.0} {:>18.0}",
            script.template,
            COPIES,
            per_second(COPIES, engine),
            per_second(COPIES, wall)
        );
        engine_ms += engine;
        wall_ms += wall;
        cases += COPIES;
        suites.push(suite);
    }
    println!(
        "{:<30} {:>6} {:>18.0} {:>18.0}",
        "all templates",
        cases,
        per_second(cases, engine_ms),
        per_second(cases, wall_ms)
    );
    let mut wall_two = 0.0;
    for suite in &suites {
        wall_two += replay(suite, 2)?.1;
    }
    println!("{:<30} {:>6} {:>18} {:>18.0}", "all templates, --jobs 2", cases, "", per_second(cases, wall_two));
    Ok(())
}

fn per_second(cases: usize, ms: f64) -> f64 {
    if ms > 0.0 { cases as f64 * 1000.0 / ms } else { 0.0 }
}

/// A suite of [`COPIES`] cases, each the script's run.
fn make_suite(dir: &Path, script: &Script) -> Result<PathBuf, String> {
    let stem = script.template.trim_end_matches(".json");
    let graph = dir.join(script.template);
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../templates").join(script.template);
    std::fs::copy(&source, &graph).map_err(|e| format!("{}: {e}", source.display()))?;
    let mut record = switchyard(&["run", &path(&graph), "--input", &script.input.to_string()])?;
    for answer in &script.answers {
        let previous = dir.join(format!("{stem}.run.json"));
        std::fs::write(&previous, &record).map_err(|e| e.to_string())?;
        record = switchyard(&["resume", &path(&previous), "--graph", &path(&graph), "--answer", &answer.to_string()])?;
    }
    let run = dir.join(format!("{stem}.run.json"));
    std::fs::write(&run, &record).map_err(|e| e.to_string())?;
    let status = serde_json::from_str::<Value>(&record).map_err(|e| e.to_string())?["status"].clone();
    if status != "completed" {
        return Err(format!("{}: the scripted run ended {status}", script.template));
    }
    let suite = dir.join(format!("{stem}.tests.json"));
    for i in 1..=COPIES {
        switchyard(&["test", "add", &path(&run), "--suite", &path(&suite), "--name", &format!("case {i}")])?;
    }
    Ok(suite)
}

/// Replays `suite` [`ROUNDS`] times on `jobs` threads: the median of the cases' summed
/// durations and of the command's wall time, in ms.
fn replay(suite: &Path, jobs: usize) -> Result<(f64, f64), String> {
    let (mut engine, mut wall) = (Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        let t = Instant::now();
        let out = switchyard(&["test", &path(suite), "--json", "--jobs", &jobs.to_string()])?;
        wall.push(t.elapsed().as_secs_f64() * 1000.0);
        let v: Value = serde_json::from_str(&out).map_err(|e| e.to_string())?;
        if v["summary"]["failed"] != 0 {
            return Err(format!("{}: cases failed on the unchanged template", suite.display()));
        }
        engine.push(
            v["results"].as_array().map(|r| r.iter().filter_map(|c| c["duration_ms"].as_f64()).sum()).unwrap_or(0.0),
        );
    }
    Ok((median(engine), median(wall)))
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

fn path(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

/// `switchyard ARGS`: its stdout when it exits 0 or 3 (a run waiting for an answer).
fn switchyard(args: &[&str]) -> Result<String, String> {
    let out = Command::new(env!("CARGO_BIN_EXE_switchyard")).args(args).output().map_err(|e| e.to_string())?;
    match out.status.code() {
        Some(0 | 3) => Ok(String::from_utf8_lossy(&out.stdout).into_owned()),
        code => Err(format!(
            "`switchyard {}` exited {code:?}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        )),
    }
}
