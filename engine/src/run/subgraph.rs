//! A `subgraph` node (format.md §4): the embedded graph runs to completion as one node.
//!
//! If it stops for a human, the parent waits too; the child's record is kept so the answer
//! resumes it where it stopped. A map instance cannot wait (answers go to nodes, not to
//! instances), so an instance whose child stops for a human fails. A child that fails is retried from its last good step as
//! `retry` allows, and the whole run is bounded by the node's timeout.

use futures_util::future::{Either, select};
use serde_json::{Map, Value, json};

use super::Run;
use crate::effects::{EffectCall, Retries};
use crate::host::LocalBoxFuture;
use crate::plan::SubgraphOp;
use crate::record::{ErrorKind, NodeError, RunRecord, Status, Waiting};
use crate::run::outcome::Outcome;
use crate::run::task::Task;
use crate::script::to_dynamic;
use crate::update::Update;

impl Run {
    /// Runs `task` of a subgraph node (see the module's docs).
    pub(super) async fn subgraph(&self, task: Task, op: &SubgraphOp, call: &EffectCall<'_>) -> Outcome {
        // Taken out now: a child that stops for a human again is put back when the step
        // commits. Only the node's own run waits, so only it resumes.
        let suspended = if task.instance.is_none() { self.suspended.borrow_mut().remove(&task.node) } else { None };
        let resumed = suspended.map(|record| (record, self.answers.get(&task.node).cloned().unwrap_or(Value::Null)));
        let mut child = match start_child(call, op, resumed) {
            Ok(c) => c,
            Err(error) => return Outcome::failed(error),
        };
        child.share_mcp(call.mcp);
        child.share_tape(call.tape, format!("{}/", call.tape_name()));
        let mut retries = Retries::of(call.node);
        let mut attempt = 1;
        loop {
            let (limit, run_limit) = call.budget();
            // The child's scripts and requests stop at this node's limit too: a busy script
            // never yields to the timer below.
            let enclosing = call.deadline.enclosing_for(call.node);
            child.enclosing = Some(enclosing);
            // Boxed: a subgraph's run is a run, so this future is recursive.
            let finished = {
                let child_run: LocalBoxFuture<'_, ()> = Box::pin(child.run(call.host));
                matches!(select(child_run, call.host.sleep(limit)).await, Either::Left(_))
            };
            // A child that failed because this node's time ran out inside it timed out here.
            let finished = finished && !(child.status() == Status::Failed && call.host.now_ms() >= enclosing.0);
            let record = child.record(true);
            let mut detail =
                json!({ "subgraph": serde_json::to_value(&record).unwrap_or(Value::Null), "attempts": attempt });
            // The child's model calls count in the parent's usage.
            if !record.usage.is_zero() {
                detail["usage"] = json!(record.usage);
            }
            let error = if !finished {
                let what = format!("the subgraph `{}`", call.node.id);
                call.error(ErrorKind::Timeout, call.deadline.timeout_message(&what, limit, run_limit))
            } else {
                match child.status() {
                    Status::Completed => return finish_child(call, op, &child, detail),
                    Status::Interrupted if task.instance.is_some() => {
                        let error = instance_cannot_wait(call, task, &child);
                        return Outcome::Failed { error, detail: Some(detail) };
                    }
                    Status::Interrupted => return suspend(call, &child, record, detail),
                    status => stopped_error(call, &child, status),
                }
            };
            // An end with `outcome: failed` is deliberate: trying again would end the same way.
            if attempt >= retries.attempts
                || !finished
                || child.status() != Status::Failed
                || error.kind == ErrorKind::Ended
            {
                let error = if attempt > 1 {
                    NodeError { kind: error.kind, message: format!("{} (after {attempt} attempts)", error.message) }
                } else {
                    error
                };
                return Outcome::Failed { error, detail: Some(detail) };
            }
            retries.pause(call.host).await;
            attempt += 1;
            // Retry from the child's last good checkpoint: earlier steps are not run again.
            child.resume();
        }
    }
}

/// The embedded run to drive: a waiting one resumed with its answer (`resumed`: its record
/// and the answer), or a fresh one started with the node's `inputs`.
fn start_child(call: &EffectCall<'_>, op: &SubgraphOp, resumed: Option<(RunRecord, Value)>) -> Result<Run, NodeError> {
    if let Some((record, answer)) = resumed {
        let mut child = Run::from_record(op.plan.clone(), &record, call.host).map_err(|e| {
            call.error(ErrorKind::Type, format_args!("the subgraph's saved run cannot be resumed: {e}"))
        })?;
        let Some(first) = child.waiting_for().into_iter().next() else {
            return Err(call.error(ErrorKind::Type, "the subgraph was not waiting for an answer"));
        };
        child.answer(&first, answer).map_err(|e| call.error(ErrorKind::Type, format_args!("subgraph answer: {e}")))?;
        return Ok(child);
    }
    let mut input = Map::new();
    for (field, e) in &op.inputs {
        let v = call
            .scripting
            .eval_json(e, call.ctx)
            .map_err(|err| NodeError::expression(&call.node.id, &format!("inputs.{field}"), err))?;
        input.insert(field.clone(), v);
    }
    Run::start(op.plan.clone(), Value::Object(input), call.host)
        .map_err(|e| call.error(ErrorKind::Type, format_args!("the subgraph's input: {e}")))
}

/// A completed child's `outputs`, evaluated over its final state as `result`.
fn finish_child(call: &EffectCall<'_>, op: &SubgraphOp, child: &Run, detail: Value) -> Outcome {
    let result = Value::Object(child.state_json());
    let with_result = call.ctx.with("result", to_dynamic(&result));
    let mut update = Update::with_capacity(op.outputs.len());
    for (field, e) in &op.outputs {
        match call.scripting.eval_json(e, &with_result) {
            Ok(v) => update.insert(field.clone(), v),
            Err(err) => {
                let error = NodeError::expression(&call.node.id, &format!("outputs.{field}"), err);
                return Outcome::Failed { error, detail: Some(detail) };
            }
        }
    }
    Outcome::update(update, Some(detail))
}

/// A child that stopped for a human: the parent node waits with the child's prompt.
fn suspend(call: &EffectCall<'_>, child: &Run, record: RunRecord, detail: Value) -> Outcome {
    // The parent waits with the child's question (a form's fields included), under its own id.
    let waiting = match child.waiting().first() {
        Some(w) => Waiting { node: call.node.id.to_string(), breakpoint: None, ..w.clone() },
        None => Waiting {
            node: call.node.id.to_string(),
            prompt: String::new(),
            options: None,
            fields: None,
            breakpoint: None,
        },
    };
    Outcome::Suspended { record: Box::new(record), waiting, detail }
}

/// The error of map instance `task`, whose child stopped for a human.
fn instance_cannot_wait(call: &EffectCall<'_>, task: Task, child: &Run) -> NodeError {
    let waits = child.waiting().first().map_or_else(|| "a human node".to_string(), |w| format!("`{}`", w.node));
    call.error(
        ErrorKind::Type,
        format_args!(
            "instance {} of the map stopped: its subgraph waits for an answer at {waits}, but a map instance cannot wait for a human (answers go to nodes, not instances); ask before the map or after it",
            task.instance.unwrap_or_default()
        ),
    )
}

/// The error of a child that stopped short with `status`.
fn stopped_error(call: &EffectCall<'_>, child: &Run, status: Status) -> NodeError {
    match child.error() {
        Some(e) => call.error(
            e.kind,
            format_args!(
                "the subgraph stopped ({}) at {}: {}",
                status.name(),
                e.node.as_deref().unwrap_or("its limit"),
                e.message
            ),
        ),
        None => call.error(ErrorKind::Type, format_args!("the subgraph stopped ({})", status.name())),
    }
}
