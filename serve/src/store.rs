//! A run's record in the workflow's key/value state. The summary (the record without its
//! steps) is one entry, rewritten after every step; each step is an entry of its own,
//! written once when it ran (and the last once more when the run ends, with its state).
//! Rewriting the whole record after every step would cost the square of its length and
//! soon pass Restate's limit on one entry.

use engine::RunRecord;
use engine::record::StepDoc;
use restate_sdk::prelude::*;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::protocol::StartState;

pub const GRAPH: &str = "graph";
pub const SUMMARY: &str = "summary";
pub const AWAITING: &str = "awaiting";
pub const ANSWER_ERROR: &str = "answer_error";
/// The state a run started from, when not the defaults ([`crate::protocol::StartState`]).
pub const FROM: &str = "from";
/// How many times the run has stopped to wait.
pub const STOPS: &str = "stops";
/// Set once the run was cancelled.
pub const CANCELLED: &str = "cancelled";
/// Set once the workflow has ended (its run finished or was cancelled).
pub const ENDED: &str = "ended";
/// The durable promise a cancellation resolves.
pub const CANCEL: &str = "cancel";
/// Why the run was refused before it started: its id stays taken while Restate keeps the
/// ended workflow (a week), and `status` says why.
pub const REFUSED: &str = "refused";

/// The entry of step `index` (from 0).
pub fn step_key(index: usize) -> String {
    format!("step-{index}")
}

/// What the run waits for: the promise an answer resolves, the nodes it answers, and whether
/// it stopped at a breakpoint (then it goes on without an answer).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Awaiting {
    pub promise: String,
    pub nodes: Vec<String>,
    #[serde(default)]
    pub breakpoint: bool,
}

/// Keeps `steps`, the first of them being step `first`.
pub fn keep_steps(ctx: &WorkflowContext<'_>, first: usize, steps: Vec<StepDoc>) {
    for (k, step) in steps.into_iter().enumerate() {
        ctx.set(&step_key(first + k), Json(step));
    }
}

/// The summary, if the run has started.
pub async fn summary(ctx: &SharedWorkflowContext<'_>) -> Result<Option<RunRecord>, HandlerError> {
    Ok(ctx.get::<Json<RunRecord>>(SUMMARY).await?.map(Json::into_inner))
}

/// The whole record, as `switchyard run` prints it: the summary with every step, the last
/// one with its state.
pub async fn record(ctx: &SharedWorkflowContext<'_>) -> Result<Option<RunRecord>, HandlerError> {
    let Some(mut record) = summary(ctx).await? else { return Ok(None) };
    let mut steps = Vec::with_capacity(record.step as usize);
    for index in 0..record.step as usize {
        let key = step_key(index);
        let Some(Json(step)) = ctx.get::<Json<StepDoc>>(&key).await? else {
            return Err(TerminalError::new_with_code(500, format!("the run's step {} is missing", index + 1)).into());
        };
        steps.push(step);
    }
    // While the run goes on, its last step is kept as when more steps follow: the record's
    // state is that step's.
    if let Some(last) = steps.last_mut().filter(|s| s.state.is_none()) {
        last.state = Some(record.state.clone());
    }
    record.steps = Some(steps);
    Ok(Some(record))
}

/// The state the run started from, if not the defaults.
pub async fn from(ctx: &SharedWorkflowContext<'_>) -> Result<Option<StartState>, HandlerError> {
    Ok(ctx.get::<Json<StartState>>(FROM).await?.map(Json::into_inner))
}

/// Whether the flag `key` (`CANCELLED`, `ENDED`) is set.
pub async fn flag(ctx: &SharedWorkflowContext<'_>, key: &str) -> Result<bool, HandlerError> {
    Ok(ctx.get::<bool>(key).await?.unwrap_or(false))
}

/// The graph document the run belongs to.
pub async fn graph(ctx: &SharedWorkflowContext<'_>) -> Result<Option<Value>, HandlerError> {
    Ok(ctx.get::<Json<Value>>(GRAPH).await?.map(Json::into_inner))
}
