//! The engine's thread. The engine is single-threaded (`Rc` inside) and the workflow handler
//! lives on the service's async runtime, so each run gets a thread of its own that drives
//! the run step by step and tells the handler, by message, what to perform and what to
//! keep ([`ToHandler`]).

use std::rc::Rc;

use engine::host::OfflineHost;
use engine::{Plan, Run, Status};
use serde_json::{Map, Value};
use tokio::sync::mpsc;

use crate::host::ServeHost;
use crate::load::{Refusal, plan_of};
use crate::messages::ToHandler;

/// Where a fork starts: the original's record (as the service keeps it), the step after which
/// it forks, and an update applied there (`--set`).
pub struct ForkFrom {
    pub record: engine::RunRecord,
    pub from_step: u64,
    pub set: Option<Map<String, Value>>,
}

/// What a run starts from.
pub enum Origin {
    /// A new run of this input.
    Input(Value),
    /// A fork of an earlier run.
    Fork(Box<ForkFrom>),
}

/// Starts the engine's thread for a run of the graph `document` (compiled there: a plan is
/// not `Send`).
pub fn spawn(
    document: Value,
    origin: Origin,
    run_id: String,
    to_handler: mpsc::UnboundedSender<ToHandler>,
    answers: mpsc::UnboundedReceiver<Map<String, Value>>,
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
            Ok((plan, _)) => Rc::new(plan),
            Err(refusal) => return drop(to_handler.send(ToHandler::Invalid(refusal))),
        };
        runtime.block_on(drive(plan, origin, run_id, to_handler, answers));
    });
    if let Err(e) = started {
        let _ = failed.send(ToHandler::Invalid(Refusal::BadInput(format!("cannot start the engine's thread: {e}"))));
    }
}

async fn drive(
    plan: Rc<Plan>,
    origin: Origin,
    run_id: String,
    to_handler: mpsc::UnboundedSender<ToHandler>,
    mut answers: mpsc::UnboundedReceiver<Map<String, Value>>,
) {
    let host = ServeHost::new(run_id, to_handler.clone());
    let mut run = match begin(plan, origin, &host) {
        Ok(run) => run,
        Err(message) => return drop(to_handler.send(ToHandler::Invalid(Refusal::BadInput(message)))),
    };
    let send = |m: ToHandler| to_handler.send(m).is_ok();
    let mut kept = run.steps().len();
    if !send(ToHandler::Started { summary: Box::new(run.record(false)), steps: run.step_docs(0) }) {
        return;
    }
    loop {
        if run.status() == Status::Interrupted && !run.at_breakpoint() {
            if !take_answers(&mut run, &to_handler, &mut answers).await {
                return;
            }
            continue;
        }
        if run.status() != Status::Running && run.status() != Status::Interrupted {
            let last = run.steps().len().checked_sub(1);
            let last = last.and_then(|i| run.step_doc(i, engine::StepStates::Snapshots).map(|d| (i, Box::new(d))));
            send(ToHandler::Finished { summary: Box::new(run.record(false)), last });
            return;
        }
        run.step(&host).await;
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
        Origin::Input(input) => Run::start(plan, input, host).map_err(|e| e.to_string()),
        Origin::Fork(fork) => {
            let ForkFrom { record, from_step, set } = *fork;
            // The original is read with a host of its own: its id is its own, not the fork's.
            let original = Run::from_record(plan, &record, &OfflineHost::new()).map_err(|e| format!("record: {e}"))?;
            original.fork(from_step, set, host).map_err(|e| format!("from_step/set: {e}"))
        }
    }
}

/// Waits for the answers of what the run waits for, and gives them to the run; `false` when
/// the handler has gone.
async fn take_answers(
    run: &mut Run,
    to_handler: &mpsc::UnboundedSender<ToHandler>,
    answers: &mut mpsc::UnboundedReceiver<Map<String, Value>>,
) -> bool {
    if to_handler.send(ToHandler::Waiting(run.waiting_for())).is_err() {
        return false;
    }
    let Some(given) = answers.recv().await else { return false };
    for (node, value) in given {
        if let Err(e) = run.answer(&node, value) {
            return to_handler.send(ToHandler::AnswerRefused(e.to_string())).is_ok();
        }
    }
    true
}
