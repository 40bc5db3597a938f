//! A value checked against a JSON Schema within the node's limits: a model's reply against
//! `output_schema`, a tool call's arguments against the tool's `parameters`. Both come from
//! untrusted places, and some schemas take time exponential in the value, so the check ends at
//! its work ceiling ([`crate::json_schema::MAX_WORK`]) or at the node's deadline, whichever is
//! first, with an error that says which.

use serde_json::Value;

use super::EffectCall;
use crate::json_schema::{CheckError, JsonSchema};
use crate::record::ErrorKind;

/// `value` checked against `schema` for node `call`; on failure, the error's kind and message.
/// A mismatch is an error of `kind` whose message starts with `mismatch` (followed by where
/// and how); `what` names the check in the other messages.
pub(super) fn check(
    call: &EffectCall<'_>,
    schema: &JsonSchema,
    value: &Value,
    kind: ErrorKind,
    mismatch: &str,
    what: &str,
) -> Result<(), (ErrorKind, String)> {
    // The sandbox's deadline is the node's: set it for this node (other nodes of the step set
    // it for themselves), then read it as the check goes.
    let guard = call.scripting.guard();
    call.deadline.arm(guard, call.host, Some(call.node));
    match schema.check_until(value, &|| guard.passed()) {
        Ok(()) => Ok(()),
        Err(CheckError::Mismatch(m)) => Err((kind, format!("{mismatch} {m}"))),
        Err(e @ CheckError::TooMuchWork) => Err((kind, format!("{what}: {e}"))),
        Err(CheckError::Stopped) => Err((ErrorKind::Timeout, format!("{what}: {}", guard.message()))),
    }
}
