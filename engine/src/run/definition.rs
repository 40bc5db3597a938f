//! A tool that `use`s a definition (format.md §9): each call runs the definition to its end, with
//! the call's arguments as its input (its start's `required` checked), within the node's time
//! budget. Its final state is the call's result. A definition that fails, reaches a limit or
//! stops for a human does not complete: the call fails (a tool cannot wait for an answer).

use std::rc::Rc;

use futures_util::future::{Either, select};
use serde_json::Value;

use super::Run;
use crate::effects::{DefinitionRun, EffectCall, Failure, RunDefinition};
use crate::host::LocalBoxFuture;
use crate::plan::Plan;
use crate::record::{ErrorKind, Status};

impl RunDefinition for Run {
    fn run_definition<'a>(
        &'a self,
        call: &'a EffectCall<'a>,
        name: &'a str,
        plan: &'a Rc<Plan>,
        input: &'a Value,
    ) -> LocalBoxFuture<'a, DefinitionRun> {
        Box::pin(run_definition(call, name, plan, input))
    }
}

async fn run_definition(call: &EffectCall<'_>, name: &str, plan: &Rc<Plan>, input: &Value) -> DefinitionRun {
    let mut child = match Run::start(plan.clone(), input.clone(), call.host) {
        Ok(c) => c,
        Err(e) => {
            let reason = format!("the input of definition `{name}`: {e}");
            return DefinitionRun { result: Err(Failure { kind: ErrorKind::Type, reason }), record: Value::Null };
        }
    };
    child.share_mcp(call.mcp);
    child.share_tape(call.tape, format!("{}/", call.tape_name()));
    let (limit, run_limit) = call.budget();
    // Boxed: a definition's run is a run, so this future is recursive.
    let finished = {
        let child_run: LocalBoxFuture<'_, ()> = Box::pin(child.run(call.host));
        matches!(select(child_run, call.host.sleep(limit)).await, Either::Left(_))
    };
    let record = serde_json::to_value(child.record(false)).unwrap_or(Value::Null);
    let result = if finished { outcome(name, &child) } else { Err(timed_out(call, name, limit, run_limit)) };
    DefinitionRun { result, record }
}

/// The final state of a definition run that completed, or why it did not.
fn outcome(name: &str, child: &Run) -> Result<Value, Failure> {
    let status = child.status();
    match status {
        Status::Completed => Ok(Value::Object(child.state_json())),
        Status::Interrupted => {
            let at = child.waiting().first().map_or_else(|| "a human node".to_string(), |w| format!("`{}`", w.node));
            let reason = format!(
                "definition `{name}` stopped for an answer at {at}, but a tool cannot wait for a human; ask before or after the tool call"
            );
            Err(Failure { kind: ErrorKind::Type, reason })
        }
        _ => Err(match child.error() {
            Some(e) => Failure {
                kind: e.kind,
                reason: format!(
                    "definition `{name}` stopped ({}) at {}: {}",
                    status.name(),
                    e.node.as_deref().unwrap_or("its limit"),
                    e.message
                ),
            },
            None => {
                Failure { kind: ErrorKind::Type, reason: format!("definition `{name}` stopped ({})", status.name()) }
            }
        }),
    }
}

/// The failure of a definition run that outlasted the node's time budget.
fn timed_out(call: &EffectCall<'_>, name: &str, limit: u64, run_limit: bool) -> Failure {
    let what = format!("definition `{name}`");
    Failure { kind: ErrorKind::Timeout, reason: call.deadline.timeout_message(&what, limit, run_limit) }
}
