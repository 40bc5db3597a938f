//! Effects on the reply tape: a call's canonical request put on the [`Tape`] before it is
//! made, answered from a recorded reply when replaying, and its reply recorded when it was
//! made. Requests and replies are kept without credentials: credential headers are left out
//! and every key the host holds is removed, as from replies the record keeps.

use serde_json::{Map, Value, json};

use super::EffectCall;
use super::tape::{Cue, Request, Ticket};
use crate::host::{HttpResponse, is_credential_header};
use crate::record::{ErrorKind, ReplyKind};

/// What becomes of a call.
pub(super) enum Taped {
    /// The recorded reply answers it.
    Replayed(Value),
    /// Make it, then [`record`] its reply.
    Live(Ticket),
    /// Replay cannot answer it: fail with this message.
    Refused(String),
}

/// Puts a call of `kind` with canonical `request` on the tape.
pub(super) fn begin(call: &EffectCall<'_>, kind: ReplyKind, mut request: Value, mock: bool) -> Taped {
    call.host.stream_redactor().clean_value(&mut request);
    let started_ms = call.host.epoch_ms();
    let cue = call.tape.cue(Request { node: &call.tape_name(), step: call.step, kind, request, mock, started_ms });
    match cue {
        Cue::Reply(v) => Taped::Replayed(v),
        Cue::Call(t) => Taped::Live(t),
        Cue::Fail(m) => Taped::Refused(m),
    }
}

/// Records the reply to a call made live.
pub(super) fn record(call: &EffectCall<'_>, ticket: Ticket, mut reply: Value) {
    call.host.stream_redactor().clean_value(&mut reply);
    call.tape.fill(ticket, reply, call.host.epoch_ms());
}

/// Headers as a request on the tape holds them: credentials left out, names in lower case.
pub(super) fn headers(list: &[(String, String)]) -> Map<String, Value> {
    list.iter()
        .filter(|(k, _)| !is_credential_header(k))
        .map(|(k, v)| (k.to_ascii_lowercase(), Value::String(v.clone())))
        .collect()
}

/// A request body on the tape: JSON as JSON (a change is then named by its path), other
/// text as it is.
pub(super) fn body(text: Option<&str>) -> Value {
    match text {
        None => Value::Null,
        Some(t) => serde_json::from_str(t).unwrap_or_else(|_| Value::String(t.to_string())),
    }
}

/// A failure as the tape records it.
pub(super) fn failure(kind: ErrorKind, message: &str) -> Value {
    json!({ "error": { "kind": kind, "message": message } })
}

/// A failure the tape recorded, if the reply is one.
pub(super) fn failure_of(reply: &Value) -> Option<(ErrorKind, String)> {
    let e = reply.get("error")?;
    let kind = serde_json::from_value(e.get("kind")?.clone()).ok()?;
    Some((kind, e.get("message")?.as_str()?.to_string()))
}

/// An HTTP response as the tape records it (credential headers left out).
pub(super) fn response(resp: &HttpResponse) -> Value {
    json!({ "status": resp.status, "headers": headers(&resp.headers), "body": resp.body })
}

/// An HTTP response the tape recorded.
pub(super) fn response_of(reply: &Value) -> Result<HttpResponse, String> {
    let status = reply.get("status").and_then(Value::as_u64).and_then(|s| u16::try_from(s).ok());
    let Some(status) = status else { return Err("the recorded HTTP reply has no status".into()) };
    let body = match reply.get("body") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    };
    let mut resp = HttpResponse::new(status, body);
    if let Some(h) = reply.get("headers").and_then(Value::as_object) {
        resp.headers = h.iter().map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string())).collect();
    }
    Ok(resp)
}
