//! `./dev bench restate`: Switchyard on a real Restate server, at scale and through a crash.
//!
//! 1. 1,000 runs of a graph with a model call (a local fake OpenAI-compatible server that
//!    counts its calls) and a person's approval are submitted at once; each waits for its
//!    approval.
//! 2. Half are answered, and each answered run tells a slow webhook (300 ms); when half of
//!    those answers are in, the service is killed (SIGKILL) and started again.
//! 3. Every run must then be completed (answered) or still waiting, every record must equal
//!    the CLI's for the same input and answer, and the model server must have seen exactly
//!    one call per run: none repeated by the replay.
//! 4. A 50-step loop is run served and with the CLI, one run at a time, for the cost per
//!    step.
//!
//! Figures are printed; nothing is asserted about speed. Set `SWITCHYARD_BENCH_RUNS` for
//! another number of runs.

#[path = "../tests/support/mod.rs"]
mod support;

use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::fake_openai::FakeOpenAi;
use support::restate::{Restate, bin};
use support::{approval_graph, comparable};

/// Requests in flight at once, as many clients would send them.
const CLIENTS: usize = 32;

fn main() {
    let runs: usize = std::env::var("SWITCHYARD_BENCH_RUNS").ok().and_then(|v| v.parse().ok()).unwrap_or(1000);
    let model = FakeOpenAi::start();
    let mut restate = Restate::start();
    let dir = tempfile::tempdir().expect("dir");
    let graph = approval_graph(&model.base_url());
    let graph_path = dir.path().join("graph.json");
    std::fs::write(&graph_path, graph.to_string()).expect("graph");
    let ids: Vec<String> = (0..runs).map(|i| format!("bench-{i}")).collect();
    let input = |i: usize| json!({ "request": format!("request number {i}") });

    // 1. Submit every run at once; wait until each waits for its approval.
    let started = Instant::now();
    parallel(runs, |i| {
        let (status, reply) =
            restate.post(&format!("/GraphRun/{}/run/send", ids[i]), &json!({ "graph": graph, "input": input(i) }));
        assert!(status < 300, "submit {i}: HTTP {status} {reply}");
    });
    let submitted = started.elapsed();
    parallel(runs, |i| wait_for(&restate, &ids[i], "interrupted"));
    let waiting = started.elapsed();

    // 2. Answer every other run; kill the service when half of those answers are in.
    let answered: Vec<usize> = (0..runs).step_by(2).collect();
    let (first, second) = answered.split_at(answered.len() / 2);
    let answers_began = Instant::now();
    // Each answered run then tells a slow webhook (300 ms), where the kill finds it.
    model.set_hook_delay_ms(300);
    parallel(first.len(), |k| answer(&restate, &ids[first[k]]));
    let kill_at = answers_began.elapsed();
    restate.kill_service();
    let down = Instant::now();
    // Which answered runs the kill caught before their end (the server's own tables say).
    let unfinished = restate
        .query(
            "SELECT target_service_key FROM sys_invocation WHERE target_handler_name = 'run' AND status <> 'completed'",
        )
        .iter()
        .filter(|row| {
            row["target_service_key"]
                .as_str()
                .and_then(|k| k.strip_prefix("bench-"))
                .and_then(|n| n.parse::<usize>().ok())
                .is_some_and(|n| first.contains(&n))
        })
        .count();
    restate.start_service();
    let restart = down.elapsed();
    parallel(second.len(), |k| answer(&restate, &ids[second[k]]));
    parallel(answered.len(), |k| wait_for(&restate, &ids[answered[k]], "completed"));
    let answers_done = answers_began.elapsed();

    // 3. Check every run against the CLI's record, and the model server's counts.
    let calls = model.calls();
    let hooks = model.hooks();
    let hooks_again = hooks.values().filter(|&&c| c > 1).count();
    // A call sent again must carry the key it was first sent with.
    let same_key =
        model.hook_keys().values().filter(|k| k.len() > 1 && k.iter().all(|x| !x.is_empty() && x == &k[0])).count();
    let repeated = calls.values().filter(|&&c| c != 1).count();
    let statuses = AtomicUsize::new(0);
    let steps = AtomicUsize::new(0);
    let mismatched = AtomicUsize::new(0);
    parallel(runs, |i| {
        let served = get(&restate, &ids[i], "record");
        steps.fetch_add(served["step"].as_u64().unwrap_or(0) as usize, Ordering::Relaxed);
        let expected_status = if i % 2 == 0 { "completed" } else { "interrupted" };
        if served["status"] == expected_status {
            statuses.fetch_add(1, Ordering::Relaxed);
        }
        let cli = cli_record(dir.path(), &graph_path, i, &input(i), i % 2 == 0);
        if comparable(&served) != comparable(&cli) {
            mismatched.fetch_add(1, Ordering::Relaxed);
        }
    });

    // 4. The cost per step: a 50-step loop, served and with the CLI.
    let (served_ms, cli_ms) = per_step(&restate, dir.path());

    println!("\n## Switchyard on Restate: {runs} runs (fake model server, {CLIENTS} clients at a time)\n");
    println!("| measure | figure |");
    println!("|---|---:|");
    println!("| {runs} submissions accepted | {:.2} s |", submitted.as_secs_f64());
    println!(
        "| … and every run waiting at its approval (a model call each) | {:.2} s, {:.0} runs/s |",
        waiting.as_secs_f64(),
        runs as f64 / waiting.as_secs_f64()
    );
    println!(
        "| {} answers, the service killed (SIGKILL) after {} of them ({:.2} s in), {unfinished} of those runs then unfinished, and restarted ({} ms) | {:.2} s until every answered run completed, {:.0} runs/s |",
        answered.len(),
        first.len(),
        kill_at.as_secs_f64(),
        restart.as_millis(),
        answers_done.as_secs_f64(),
        answered.len() as f64 / answers_done.as_secs_f64()
    );
    println!("| steps in all the records | {} |", steps.load(Ordering::Relaxed));
    println!("| runs in the expected status (completed / waiting) | {} of {runs} |", statuses.load(Ordering::Relaxed));
    println!(
        "| records equal to the CLI's (ids and durations aside) | {} of {runs} |",
        runs - mismatched.load(Ordering::Relaxed)
    );
    println!(
        "| model calls: total / distinct prompts / prompts sent more than once | {} / {} / {repeated} |",
        calls.values().sum::<u32>(),
        calls.len()
    );
    println!(
        "| webhook calls: total / distinct bodies / sent more than once (in flight at the kill) | {} / {} / {hooks_again} |",
        hooks.values().sum::<u32>(),
        hooks.len()
    );
    println!("| … of which sent again with the same Idempotency-Key | {same_key} of {hooks_again} |");
    println!("| a 50-step loop, served (submit to result) / CLI process | {served_ms:.1} ms / {cli_ms:.1} ms |");
    println!("| cost per step served, beyond the CLI's | {:.2} ms |", (served_ms - cli_ms) / 50.0);
    let ok = hooks.len() == answered.len()
        && same_key == hooks_again
        && statuses.load(Ordering::Relaxed) == runs
        && mismatched.load(Ordering::Relaxed) == 0
        && repeated == 0
        && calls.len() == runs;
    println!("\n{}", if ok { "every check passed" } else { "SOME CHECKS FAILED" });
    if !ok {
        std::process::exit(1);
    }
}

/// Runs `f(0..n)` on `CLIENTS` threads.
fn parallel(n: usize, f: impl Fn(usize) + Sync) {
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..CLIENTS.min(n.max(1)) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n {
                        break;
                    }
                    f(i);
                }
            });
        }
    });
}

fn answer(restate: &Restate, id: &str) {
    let (status, reply) = restate.post(&format!("/GraphRun/{id}/answer"), &json!({ "approve": "approve" }));
    assert!(status < 300, "answer {id}: HTTP {status} {reply}");
}

fn get(restate: &Restate, id: &str, handler: &str) -> Value {
    let (status, reply) = restate.post_empty(&format!("/GraphRun/{id}/{handler}"));
    assert!(status < 300, "{handler} {id}: HTTP {status} {reply}");
    reply
}

fn wait_for(restate: &Restate, id: &str, status: &str) {
    let since = Instant::now();
    loop {
        let (code, reply) = restate.post_empty(&format!("/GraphRun/{id}/status"));
        if code < 300 && reply["status"] == status {
            return;
        }
        assert!(since.elapsed() < Duration::from_secs(300), "{id} never became {status}: {reply}");
        std::thread::sleep(Duration::from_millis(25));
    }
}

fn cli_record(dir: &std::path::Path, graph: &std::path::Path, i: usize, input: &Value, answer: bool) -> Value {
    let first = Command::new(bin("switchyard"))
        .arg("run")
        .arg(graph)
        .arg("--input")
        .arg(input.to_string())
        .output()
        .expect("run");
    if !answer {
        return serde_json::from_slice(&first.stdout).expect("record");
    }
    let path = dir.join(format!("cli-{i}.json"));
    std::fs::write(&path, &first.stdout).expect("record");
    let out = Command::new(bin("switchyard"))
        .arg("resume")
        .arg(&path)
        .arg("--graph")
        .arg(graph)
        .args(["--answer", r#"{"approve": "approve"}"#])
        .output()
        .expect("resume");
    serde_json::from_slice(&out.stdout).expect("record")
}

/// Median milliseconds of a 50-step loop: served (submit, then wait for the result), and as a
/// `switchyard run` process.
fn per_step(restate: &Restate, dir: &std::path::Path) -> (f64, f64) {
    let graph = json!({
        "format": "switchyard/graph@1",
        "name": "Fifty steps",
        "state": { "n": { "type": "number", "reducer": "add", "default": 0 } },
        "nodes": [
            { "id": "start", "kind": "start" },
            { "id": "inc", "kind": "set", "set": { "n": "1" } },
            { "id": "end", "kind": "end" }
        ],
        "edges": [
            { "from": "start", "to": "inc" },
            { "from": "inc", "to": "inc", "when": "state.n < 50" },
            { "from": "inc", "to": "end", "when": "state.n >= 50" }
        ],
        "limits": { "max_steps": 100 }
    });
    let path = dir.join("loop.json");
    std::fs::write(&path, graph.to_string()).expect("graph");
    let mut served = Vec::new();
    let mut cli = Vec::new();
    for rep in 0..7 {
        let id = format!("loop-{rep}");
        let t = Instant::now();
        let (status, reply) = restate.post(&format!("/GraphRun/{id}/run"), &json!({ "graph": graph }));
        assert!(status < 300 && reply["step"] == 50, "{reply}");
        served.push(t.elapsed().as_secs_f64() * 1000.0);
        let t = Instant::now();
        let out = Command::new(bin("switchyard")).arg("run").arg(&path).output().expect("run");
        assert_eq!(out.status.code(), Some(0));
        cli.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    (median(served), median(cli))
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}
