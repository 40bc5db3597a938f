//! The engine's thread. The engine is single-threaded (`Rc` inside) and the workflow handler
//! lives on the service's async runtime, so each run gets a thread of its own that drives
//! the run step by step and tells the handler, by message, what to perform and what to
//! keep ([`ToHandler`]).

use std::rc::Rc;

use engine::host::{Host, OfflineHost};
use engine::run::{Breakpoints, StartFrom};
use engine::{Plan, Run, RunRecord, Status};
use serde_json::{Map, Value};
use tokio::sync::mpsc;

use crate::export::RunTrace;
use crate::host::ServeHost;
use crate::load::{Refusal, plan_of};
use crate::messages::ToHandler;
use crate::protocol::{Proceed, StartState, StopAt};

/// Where a fork starts: the original's record (as the service keeps it), the step after which
/// it forks, an update applied there (`--set`), and the state the original started from.
pub struct ForkFrom {
    pub record: engine::RunRecord,
    pub from_step: u64,
    pub set: Option<Map<String, Value>>,
    pub from: Option<StartState>,
}

/// What a run starts from.
pub enum Origin {
    /// A new run of this input, from the defaults or from a given state.
    Input { input: Value, from: Option<StartState> },
    /// A fork of an earlier run.
    Fork(Box<ForkFrom>),
}

/// What the engine's thread gets to start a run: where it starts, and where it stops.
pub struct Start {
    pub origin: Origin,
    pub stop_at: Option<StopAt>,
    /// A step limit below the graph's.
    pub max_steps: Option<u64>,
    /// The time of day the run starts at (Unix-epoch ms), as journaled.
    pub wall_ms: f64,
}

/// What a stopped run goes on with, and the time of day it goes on at (Unix-epoch ms, as
/// journaled).
pub struct Resume {
    pub proceed: Proceed,
    pub wall_ms: f64,
}

/// Starts the engine's thread for a run of the graph `document` (compiled there: a plan is
/// not `Send`).
pub fn spawn(
    document: Value,
    start: Start,
    run_id: String,
    to_handler: mpsc::UnboundedSender<ToHandler>,
    answers: mpsc::UnboundedReceiver<Resume>,
) {
    let failed = to_handler.clone();
    // A stack of known size (`engine::stack`), not the default 2 MiB: a script's deeply
    // nested value must fail its run, not overflow the stack and abort every run on the service.
    let started = engine::stack::spawn_run_thread("run", move || {
        let Ok(runtime) = tokio::runtime::Builder::new_current_thread().build() else {
            let _ = to_handler.send(ToHandler::Invalid(Refusal::BadInput("cannot start the engine's runtime".into())));
            return;
        };
        let plan = match plan_of(document) {
            Ok((mut plan, _)) => {
                if let Some(limit) = start.max_steps {
                    plan.limits.max_steps = plan.limits.max_steps.min(limit.max(1));
                }
                Rc::new(plan)
            }
            Err(refusal) => return drop(to_handler.send(ToHandler::Invalid(refusal))),
        };
        runtime.block_on(drive(plan, start, run_id, to_handler, answers));
    });
    if let Err(e) = started {
        let _ = failed.send(ToHandler::Invalid(Refusal::BadInput(format!("cannot start the engine's thread: {e}"))));
    }
}

async fn drive(
    plan: Rc<Plan>,
    start: Start,
    run_id: String,
    to_handler: mpsc::UnboundedSender<ToHandler>,
    mut answers: mpsc::UnboundedReceiver<Resume>,
) {
    let host = ServeHost::new(run_id, to_handler.clone(), start.wall_ms);
    let mut run = match begin(plan, start.origin, &host) {
        Ok(run) => run,
        Err(message) => return drop(to_handler.send(ToHandler::Invalid(Refusal::BadInput(message)))),
    };
    if let Some(stop_at) = &start.stop_at {
        run.set_breakpoints(breakpoints(run.plan(), stop_at));
    }
    let send = |m: ToHandler| to_handler.send(m).is_ok();
    let trace = RunTrace::new(&run);
    let mut kept = run.steps().len();
    if !send(ToHandler::Started { summary: Box::new(run.record(false)), steps: run.step_docs(0) }) {
        return;
    }
    loop {
        if run.status() == Status::Interrupted {
            trace.session_end(&run);
            if !take_answers(&mut run, &host, &to_handler, &mut answers).await {
                return;
            }
            // Still waiting for an answer (one was refused): wait again. A breakpoint's stop
            // is passed by stepping.
            if run.status() == Status::Interrupted && !run.at_breakpoint() {
                continue;
            }
        }
        if run.status() != Status::Running && run.status() != Status::Interrupted {
            trace.session_end(&run);
            let last = run.steps().len().checked_sub(1);
            let last = last.and_then(|i| run.step_doc(i, engine::StepStates::Snapshots).map(|d| (i, Box::new(d))));
            send(ToHandler::Finished { summary: Box::new(run.record(false)), last });
            return;
        }
        run.step(&host).await;
        trace.steps(&run);
        let steps = run.step_docs(kept);
        let first = kept;
        kept = run.steps().len();
        if !send(ToHandler::Stepped { summary: Box::new(run.record(false)), first, steps }) {
            return;
        }
    }
}

/// The run, new or forked; an invalid input or fork point is the message to answer with.
fn begin(plan: Rc<Plan>, origin: Origin, host: &ServeHost) -> Result<Run, String> {
    match origin {
        // The error names its path, `input…`.
        Origin::Input { input, from: None } => Run::start(plan, input, host).map_err(|e| e.to_string()),
        Origin::Input { input, from: Some(from) } => {
            let at = StartFrom { state: &from.state, step: from.step };
            Run::start_from(plan, at, input, host).map_err(|e| e.to_string())
        }
        Origin::Fork(fork) => {
            let ForkFrom { record, from_step, set, from } = *fork;
            // The original is read with a host of its own: its id is its own, not the fork's.
            let original = rebuild(plan, from.as_ref(), &record).map_err(|e| format!("record: {e}"))?;
            original.fork(from_step, set, host).map_err(|e| format!("from_step/set: {e}"))
        }
    }
}

/// A run rebuilt from its record (offline: nothing it did is done again), started from `from`
/// when it was not started from the defaults.
pub fn rebuild(plan: Rc<Plan>, from: Option<&StartState>, record: &RunRecord) -> Result<Run, engine::InputError> {
    let host: &dyn Host = &OfflineHost::new();
    match from {
        None => Run::from_record(plan, record, host),
        Some(from) => Run::from_record_at(plan, StartFrom { state: &from.state, step: from.step }, record, host),
    }
}

/// The engine's breakpoints for `stop_at`, `"*"` naming every node of the plan.
pub fn breakpoints(plan: &Plan, stop_at: &StopAt) -> Breakpoints {
    let expand = |ids: &[String]| -> std::collections::BTreeSet<String> {
        if ids.iter().any(|id| id == "*") {
            return plan.nodes.iter().map(|n| n.id.to_string()).collect();
        }
        ids.iter().cloned().collect()
    };
    Breakpoints { before: expand(&stop_at.before), after: expand(&stop_at.after) }
}

/// Waits for what the stopped run goes on with (answers for what waits, nothing at a bare
/// breakpoint), and gives it to the run; `false` when the handler has gone.
async fn take_answers(
    run: &mut Run,
    host: &ServeHost,
    to_handler: &mpsc::UnboundedSender<ToHandler>,
    answers: &mut mpsc::UnboundedReceiver<Resume>,
) -> bool {
    let waiting = ToHandler::Waiting { nodes: run.waiting_for(), breakpoint: run.at_breakpoint() };
    if to_handler.send(waiting).is_err() {
        return false;
    }
    let Some(Resume { proceed: Proceed { answers: given, stop_at }, wall_ms }) = answers.recv().await else {
        return false;
    };
    host.resume_at(wall_ms);
    for (node, value) in given {
        if let Err(e) = run.answer(&node, value) {
            return to_handler.send(ToHandler::AnswerRefused(e.to_string())).is_ok();
        }
    }
    if let Some(stop_at) = &stop_at {
        run.set_breakpoints(breakpoints(run.plan(), stop_at));
    }
    true
}
