//! Cases run on `--jobs N` threads. An engine run is not `Send` (its plan holds compiled
//! scripts), so each thread compiles the graph and prepares the suite itself, builds its own
//! host, then takes the next case not yet taken until none is left; results come back over a
//! channel and are put in the suite's order, so N threads give what one gives.

use std::path::PathBuf;
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};

use engine::suite::{Case, CaseResult, Prepared, ReplayMode, Suite, prepare, run_case};
use engine::{Graph, Plan, compile};
use net::mcp::AllowedCommands;

use crate::host::NativeHost;
use crate::input::{BadInput, read_text};
use crate::testing::replay_host::ReplayHost;

/// Everything a thread needs to run cases: plain data, sent to each thread.
#[derive(Clone)]
pub struct Work {
    pub graph: Arc<Graph>,
    pub suite: Arc<Suite>,
    /// Where the suite's relative paths (evaluator graphs) start.
    pub suite_dir: PathBuf,
    pub cases: Arc<Vec<Case>>,
    pub live: bool,
    pub allowed: AllowedCommands,
}

/// Runs every case of `work` on `jobs` threads; `done` is told of each result as it arrives
/// (the progress bar). The results are in the cases' order.
pub fn run_cases(work: &Work, jobs: usize, mut done: impl FnMut(&CaseResult)) -> Result<Vec<CaseResult>, BadInput> {
    let count = work.cases.len();
    let next = Arc::new(AtomicUsize::new(0));
    let (tx, rx) = mpsc::channel::<Result<(usize, CaseResult), String>>();
    let mut threads = Vec::new();
    for n in 0..jobs.clamp(1, count.max(1)) {
        let (work, next, tx) = (work.clone(), next.clone(), tx.clone());
        let spawned = engine::stack::spawn_run_thread(&format!("switchyard-test-{n}"), move || {
            run_on_this_thread(&work, &next, &tx);
        });
        threads.push(spawned.map_err(|e| BadInput::new(format!("cannot start a thread to run cases: {e}")))?);
    }
    drop(tx);
    let mut results: Vec<Option<CaseResult>> = (0..count).map(|_| None).collect();
    let mut failure = None;
    for message in rx {
        match message {
            Ok((i, result)) => {
                done(&result);
                results[i] = Some(result);
            }
            Err(why) => failure = Some(why),
        }
    }
    for thread in threads {
        // A panic was reported by the hook; its cases are missing below.
        let _ = thread.join();
    }
    if let Some(why) = failure {
        return Err(BadInput::new(why));
    }
    results
        .into_iter()
        .enumerate()
        .map(|(i, r)| r.ok_or_else(|| BadInput::new(format!("case {} did not finish (its thread stopped)", i + 1))))
        .collect()
}

/// One thread's share: compile, prepare, then run cases until none is left.
fn run_on_this_thread(work: &Work, next: &AtomicUsize, tx: &mpsc::Sender<Result<(usize, CaseResult), String>>) {
    let (plan, prepared) = match ready(work) {
        Ok(ready) => ready,
        Err(why) => {
            let _ = tx.send(Err(why));
            return;
        }
    };
    let host = CaseHost::new(work.live, work.allowed.clone());
    let mode = if work.live { ReplayMode::Live } else { ReplayMode::Replay };
    loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(case) = work.cases.get(i) else { break };
        let result = pollster::block_on(run_case(plan.clone(), case, &prepared, mode, host.as_host()));
        if tx.send(Ok((i, result))).is_err() {
            break;
        }
    }
}

/// The graph compiled and the suite prepared on this thread (checked once before the
/// threads start, so a failure here is not expected).
fn ready(work: &Work) -> Result<(Rc<Plan>, Prepared), String> {
    let plan = compile(&work.graph).plan.ok_or("the graph does not compile")?;
    let load = |rel: &str| read_text(&work.suite_dir.join(rel).to_string_lossy()).map_err(|e| e.to_string());
    let prepared = prepare(&work.suite, &work.graph, &load).map_err(|e| e.to_string())?;
    Ok((Rc::new(plan), prepared))
}

/// The host of a thread's cases: the CLI's own with `--live`, else one that reaches nothing.
enum CaseHost {
    Live(NativeHost),
    Replay(ReplayHost),
}

impl CaseHost {
    fn new(live: bool, allowed: AllowedCommands) -> CaseHost {
        // The environment's warnings were printed once, before the threads started.
        let (native, _warnings) = NativeHost::new(allowed);
        if live { CaseHost::Live(native) } else { CaseHost::Replay(ReplayHost::new(native)) }
    }

    fn as_host(&self) -> &dyn engine::Host {
        match self {
            CaseHost::Live(h) => h,
            CaseHost::Replay(h) => h,
        }
    }
}
