//! `tools/call` in the run's session with a server: the result as the tool message's text,
//! progress and log notifications in the call's details, a call past its time cancelled.

use serde_json::{Map, Value, json};

use super::listing::find_tool;
use super::session::{Link, McpFailure, answered, ended, open};
use crate::effects::EffectCall;
use crate::effects::replay::{self, Taped};
use crate::host::{McpEnd, McpReply};
use crate::mcp::{CallToolResult, call_tool_request, cancelled_notification, notification_of, result_text};
use crate::plan::McpToolOp;
use crate::record::{ErrorKind, ReplyKind};

/// At most this many progress and log notifications are kept per call.
const MAX_NOTES: usize = 100;
/// How long the host may take to deliver a cancellation.
const CANCEL_TIMEOUT_MS: u64 = 2_000;

/// A call's outcome: the tool message's text, or why it failed (an `isError` result's text
/// among others); and what goes in the call's details (`server`, `tool`, `result`,
/// `is_error`, `progress`, `logs`, `protocol_version`).
pub(crate) struct McpCall {
    pub outcome: Result<String, McpFailure>,
    pub detail: Map<String, Value>,
}

/// Calls `op`'s tool with `arguments`, through the reply tape: a recorded result answers the
/// call when replaying (no session is opened), else the call is made and recorded.
pub(crate) async fn call_tool(call: &EffectCall<'_>, op: &McpToolOp, arguments: &Value) -> McpCall {
    let request = json!({
        "server": op.server.name,
        "method": "tools/call",
        "params": { "name": op.tool, "arguments": arguments },
    });
    match replay::begin(call, ReplyKind::Mcp, request, false) {
        Taped::Replayed(v) => replayed(&v),
        Taped::Refused(message) => {
            let mut detail = Map::new();
            detail.insert("server".into(), json!(op.server.name));
            detail.insert("tool".into(), json!(op.tool));
            McpCall { outcome: Err(McpFailure::new(ErrorKind::Http, message)), detail }
        }
        Taped::Live(ticket) => {
            let done = call_live(call, op, arguments).await;
            let mut reply = match &done.outcome {
                Ok(text) => json!({ "result": text }),
                Err(f) => replay::failure(f.kind, &f.reason),
            };
            reply["detail"] = Value::Object(done.detail.clone());
            replay::record(call, ticket, reply);
            done
        }
    }
}

/// A call's outcome as the tape recorded it.
fn replayed(v: &Value) -> McpCall {
    let mut detail = v.get("detail").and_then(Value::as_object).cloned().unwrap_or_default();
    detail.insert("replayed".into(), json!(true));
    let outcome = match replay::failure_of(v) {
        Some((kind, reason)) => Err(McpFailure::new(kind, reason)),
        None => match v.get("result").and_then(Value::as_str) {
            Some(text) => Ok(text.to_string()),
            None => Err(McpFailure::new(ErrorKind::Http, "the recorded MCP result is malformed".into())),
        },
    };
    McpCall { outcome, detail }
}

/// Calls `op`'s tool with `arguments` on its server.
async fn call_live(call: &EffectCall<'_>, op: &McpToolOp, arguments: &Value) -> McpCall {
    let mut detail = Map::new();
    detail.insert("server".into(), json!(op.server.name));
    detail.insert("tool".into(), json!(op.tool));
    let outcome = run(call, op, arguments, &mut detail).await;
    if let Err(f) = &outcome {
        detail.entry("is_error").or_insert(json!(true));
        detail.entry("result").or_insert(json!(f.reason));
    }
    McpCall { outcome, detail }
}

async fn run(
    call: &EffectCall<'_>,
    op: &McpToolOp,
    arguments: &Value,
    detail: &mut Map<String, Value>,
) -> Result<String, McpFailure> {
    let server = op.server.name.as_str();
    let session = call.mcp.session(&op.server);
    let (timeout_ms, run_limit) = call.budget();
    let mut guard = session.ready(call.mcp, call.host, timeout_ms).await?;
    let mut reopened = false;
    loop {
        let link = guard.as_mut().expect("ready leaves the session open");
        find_tool(op, &link.tools)?;
        detail.insert("protocol_version".into(), json!(link.version));
        let (timeout_ms, _) = call.budget();
        let id = link.take_id();
        let send = vec![call_tool_request(id, &op.tool, arguments)];
        let reply = call.host.mcp(link.exchange(server, send, Some(id), timeout_ms), &|_| {}).await;
        link.follow(&reply);
        notes(&reply, id, detail);
        match &reply.end {
            McpEnd::Answered => return result(server, op, &reply, detail),
            McpEnd::TimedOut => {
                cancel(call, link, server, id, timeout_ms).await;
                let what = format!("tools/call `{}` on MCP server `{server}`", op.tool);
                return Err(McpFailure::new(
                    ErrorKind::Timeout,
                    call.deadline.timeout_message(&what, timeout_ms, run_limit),
                ));
            }
            // Nothing was written: the session is gone (a restarted host, an expired HTTP
            // session). Open a new one, once, and send the call again.
            McpEnd::Lost if !reopened => {
                reopened = true;
                let endpoint = link.endpoint.clone();
                match open(call.host, server, endpoint, timeout_ms).await {
                    Ok(fresh) => *guard = Some(fresh),
                    Err(e) => {
                        *guard = None;
                        return Err(e);
                    }
                }
            }
            end => {
                let failure = ended(server, "tools/call", end, timeout_ms);
                // The connection is gone or unusable: the next call opens a new session.
                let dead = guard.take().expect("open");
                call.host.mcp_close(&dead.endpoint, dead.connection.as_deref(), dead.session_id.as_deref()).await;
                return Err(failure);
            }
        }
    }
}

/// The awaited response read: the text of a result, or its `isError` text as a failure.
fn result(
    server: &str,
    op: &McpToolOp,
    reply: &McpReply,
    detail: &mut Map<String, Value>,
) -> Result<String, McpFailure> {
    // A JSON-RPC error (an old server's unknown tool or bad params) is a failure the model
    // reads, as an `isError` result is.
    let value = answered(server, "tools/call", reply, 0)?;
    let result: CallToolResult = serde_json::from_value(value).map_err(|e| {
        let reason = format!("MCP server `{server}` answered tools/call `{}` with a malformed result ({e})", op.tool);
        McpFailure::new(ErrorKind::Http, reason)
    })?;
    let text = result_text(&result);
    detail.insert("is_error".into(), json!(result.is_error));
    detail.insert("result".into(), result.structured_content.clone().unwrap_or_else(|| json!(text)));
    if result.is_error {
        return Err(McpFailure::new(ErrorKind::Http, text));
    }
    Ok(text)
}

/// Tells the server request `id` is abandoned; a late answer is never read, since nothing
/// awaits its id.
async fn cancel(call: &EffectCall<'_>, link: &mut Link, server: &str, id: u64, timeout_ms: u64) {
    let reason = format!("timed out after {timeout_ms} ms");
    let send = vec![cancelled_notification(id, &reason)];
    let reply = call.host.mcp(link.exchange(server, send, None, CANCEL_TIMEOUT_MS), &|_| {}).await;
    link.follow(&reply);
}

/// Progress (for request `id`) and log notifications the server sent during the call, into
/// `detail` (at most [`MAX_NOTES`] of each).
fn notes(reply: &McpReply, id: u64, detail: &mut Map<String, Value>) {
    for text in &reply.received {
        let Some((method, params)) = notification_of(text) else { continue };
        let (key, note) = match method.as_str() {
            "notifications/progress" if params.get("progressToken").and_then(Value::as_u64) == Some(id) => {
                let mut p = Map::new();
                for k in ["progress", "total", "message"] {
                    if let Some(v) = params.get(k) {
                        p.insert(k.into(), v.clone());
                    }
                }
                ("progress", Value::Object(p))
            }
            "notifications/message" => ("logs", params),
            _ => continue,
        };
        let list = detail.entry(key).or_insert_with(|| json!([]));
        if let Some(l) = list.as_array_mut().filter(|l| l.len() < MAX_NOTES) {
            l.push(note);
        }
    }
}
