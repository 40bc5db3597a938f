//! The spans of the calls one task made, from the reply tape: a model call
//! (`chat <model>`, GenAI and OpenInference attributes), an HTTP request (`<METHOD>`), an MCP
//! call (`tools/call <tool>`, `tools/list`), and a `tools` node's tool calls
//! (`execute_tool <name>`) with the HTTP and MCP calls each made under it.

use serde_json::{Value, json};

use super::attrs::{Attrs, put_url, safe_url};
use super::{SpanDoc, SpanId, SpanKind, SpanStatus, TraceId, TraceOptions, span_id_for};
use crate::document::Graph;
use crate::record::{RecordedReply, ReplyKind};

/// The task whose calls are mapped.
pub(super) struct NodeCalls<'a> {
    pub trace: TraceId,
    /// The task span's path in the run.
    pub path: &'a str,
    pub parent: SpanId,
    /// Where the task started (an unstamped call starts there).
    pub start: f64,
    pub detail: Option<&'a Value>,
    pub graph: Option<&'a Graph>,
    pub options: TraceOptions,
}

/// The spans of `replies` (the calls the task itself made, in order), and of a `tools`
/// node's tool calls.
pub(super) fn node_calls(node: &NodeCalls<'_>, replies: &[&RecordedReply], out: &mut Vec<SpanDoc>) {
    let tool_calls = node.detail.and_then(|d| d.get("calls")).and_then(Value::as_array);
    let tool_parents = match tool_calls {
        Some(calls) => tool_spans(node, calls, replies, out),
        None => vec![None; replies.len()],
    };
    for (k, (r, tool)) in replies.iter().zip(tool_parents).enumerate() {
        let parent = tool.unwrap_or(node.parent);
        let path = format!("{}/call/{k}", node.path);
        out.push(call_span(node, r, &path, parent));
    }
}

/// One call's span.
fn call_span(node: &NodeCalls<'_>, r: &RecordedReply, path: &str, parent: SpanId) -> SpanDoc {
    let start = r.started_ms.unwrap_or(node.start);
    let end = start + r.duration_ms.unwrap_or(0.0).max(0.0);
    let (name, attrs, status) = match r.kind {
        ReplyKind::Model => model(r, node.options),
        ReplyKind::Http => http(r),
        ReplyKind::Mcp => mcp(r, node.graph),
    };
    SpanDoc {
        trace_id: node.trace,
        span_id: span_id_for(node.trace, path),
        parent: Some(parent),
        name,
        kind: SpanKind::Client,
        start_ms: start,
        end_ms: end,
        status,
        attributes: attrs.0,
        events: Vec::new(),
        links: Vec::new(),
    }
}

/// A failure the tape recorded for a call, as a span status and `error.type`.
fn failure(reply: &Value, a: &mut Attrs) -> Option<SpanStatus> {
    let e = reply.get("error")?;
    let kind = e.get("kind").and_then(Value::as_str).unwrap_or("error");
    a.str("error.type", kind);
    Some(SpanStatus::Error(e.get("message").and_then(Value::as_str).unwrap_or(kind).to_string()))
}

/// A model call: GenAI's `chat` span, with OpenInference's names too.
fn model(r: &RecordedReply, options: TraceOptions) -> (String, Attrs, SpanStatus) {
    let (q, reply) = (&r.request, &r.reply);
    let provider = match q["provider"].as_str().unwrap_or("openai") {
        "mock" => "switchyard.mock",
        other => other,
    };
    let model = q["model"].as_str().or(reply["model"].as_str()).unwrap_or(if provider == "switchyard.mock" {
        "mock"
    } else {
        "unknown"
    });
    let mut a = Attrs::default();
    a.str("gen_ai.operation.name", "chat")
        .str("gen_ai.provider.name", provider)
        .str("gen_ai.request.model", model)
        .opt_str("gen_ai.response.model", reply["response_model"].as_str())
        .opt_str("gen_ai.response.id", reply["id"].as_str());
    if let Some(f) = reply["finish_reason"].as_str() {
        a.list("gen_ai.response.finish_reasons", vec![f.to_string()]);
    }
    let usage = &reply["usage"];
    let (input, output) = (usage["input_tokens"].as_u64(), usage["output_tokens"].as_u64());
    if let Some(n) = input {
        a.count("gen_ai.usage.input_tokens", n);
    }
    if let Some(n) = output {
        a.count("gen_ai.usage.output_tokens", n);
    }
    let server = match (q["base_url"].as_str(), provider) {
        (Some(url), _) => safe_url(url),
        (None, "openai") => safe_url("https://api.openai.com"),
        (None, "anthropic") => safe_url("https://api.anthropic.com"),
        _ => None,
    };
    if let Some(u) = server {
        put_url(&mut a, &u, false);
    }
    a.str("openinference.span.kind", "LLM").str("llm.model_name", model).str("llm.provider", provider);
    if let Some(n) = input {
        a.count("llm.token_count.prompt", n);
    }
    if let Some(n) = output {
        a.count("llm.token_count.completion", n);
    }
    if input.is_some() || output.is_some() {
        a.count("llm.token_count.total", input.unwrap_or(0).saturating_add(output.unwrap_or(0)));
    }
    if options.capture_content {
        model_content(q, reply, &mut a);
    }
    let status = failure(reply, &mut a).unwrap_or(SpanStatus::Unset);
    (format!("chat {model}"), a, status)
}

/// A model call's messages, in the GenAI conventions' shapes (JSON text), and as
/// OpenInference's input and output values.
fn model_content(q: &Value, reply: &Value, a: &mut Attrs) {
    let input: Vec<Value> = q["messages"].as_array().into_iter().flatten().map(message_parts).collect();
    let input_text = Value::Array(input).to_string();
    a.str("gen_ai.input.messages", input_text.clone()).str("input.value", input_text);
    if let Some(system) = q["system"].as_str() {
        a.str("gen_ai.system_instructions", json!([{ "type": "text", "content": system }]).to_string());
    }
    if reply.get("error").is_none() {
        let mut out = message_parts(
            &json!({ "role": "assistant", "content": reply["content"], "tool_calls": reply["tool_calls"] }),
        );
        if let Some(f) = reply["finish_reason"].as_str() {
            out["finish_reason"] = json!(f);
        }
        a.str("gen_ai.output.messages", json!([out]).to_string());
        let text = match &reply["content"] {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        a.str("output.value", text);
    }
}

/// A canonical chat message as the GenAI conventions write one: `{role, parts}`.
fn message_parts(m: &Value) -> Value {
    let mut parts = Vec::new();
    match &m["content"] {
        Value::Null => {}
        Value::String(s) if s.is_empty() => {}
        Value::String(s) if m["role"] == "tool" => {
            parts.push(json!({ "type": "tool_call_response", "id": m["tool_call_id"], "response": s }));
        }
        Value::String(s) => parts.push(json!({ "type": "text", "content": s })),
        other => parts.push(json!({ "type": "text", "content": other.to_string() })),
    }
    for c in m["tool_calls"].as_array().into_iter().flatten() {
        parts.push(json!({ "type": "tool_call", "id": c["id"], "name": c["name"], "arguments": c["arguments"] }));
    }
    json!({ "role": m["role"], "parts": parts })
}

/// An HTTP request: its method as the name, the URL without query or user info.
fn http(r: &RecordedReply) -> (String, Attrs, SpanStatus) {
    let method = r.request["method"].as_str().unwrap_or("GET").to_ascii_uppercase();
    let mut a = Attrs::default();
    a.str("http.request.method", method.clone());
    if let Some(u) = r.request["url"].as_str().and_then(safe_url) {
        put_url(&mut a, &u, true);
    }
    let mut status = SpanStatus::Unset;
    if let Some(code) = r.reply["status"].as_u64() {
        a.count("http.response.status_code", code);
        if code >= 400 {
            a.str("error.type", code.to_string());
            status = SpanStatus::Error(format!("HTTP {code}"));
        }
    }
    if let Some(e) = r.reply.get("error") {
        let kind = if e["kind"] == "timeout" { "timeout" } else { "transport" };
        a.str("error.type", kind);
        status = SpanStatus::Error(e["message"].as_str().unwrap_or(kind).to_string());
    }
    (method, a, status)
}

/// An MCP exchange: a tool call or a listing, with its server's endpoint.
fn mcp(r: &RecordedReply, graph: Option<&Graph>) -> (String, Attrs, SpanStatus) {
    let q = &r.request;
    let method = q["method"].as_str().unwrap_or("tools/call").to_string();
    let mut a = Attrs::default();
    a.str("mcp.method.name", method.clone());
    let tool = q["params"]["name"].as_str().or(q["tool"].as_str());
    let name = match (method.as_str(), tool) {
        ("tools/call", Some(t)) => {
            a.str("gen_ai.operation.name", "execute_tool").str("gen_ai.tool.name", t);
            format!("tools/call {t}")
        }
        _ => method.clone(),
    };
    let server = q["server"].as_str().and_then(|s| graph?.mcp_servers.as_ref()?.get(s));
    if let Some(server) = server {
        match server.url.as_deref().and_then(safe_url) {
            Some(u) => put_url(&mut a, &u, true),
            None if server.command.is_some() => {
                a.str("network.transport", "pipe");
            }
            None => {}
        }
    }
    let status = failure(&r.reply, &mut a).unwrap_or_else(|| {
        let is_error = r.reply["isError"].as_bool().or(r.reply["is_error"].as_bool()).unwrap_or(false);
        if is_error {
            a.str("error.type", "tool_error");
            SpanStatus::Error("the tool reported an error".into())
        } else {
            SpanStatus::Unset
        }
    });
    (name, a, status)
}

/// A `tools` node's tool calls, each an `execute_tool` span; returns, for each of the
/// node's own calls (`replies`), the tool call span it belongs under, when one fits: an MCP
/// call to the tool of that name, an HTTP request to the next tool without a server.
fn tool_spans(
    node: &NodeCalls<'_>,
    calls: &[Value],
    replies: &[&RecordedReply],
    out: &mut Vec<SpanDoc>,
) -> Vec<Option<SpanId>> {
    let mut ids = Vec::with_capacity(calls.len());
    for (k, c) in calls.iter().enumerate() {
        let id = span_id_for(node.trace, &format!("{}/tool/{k}", node.path));
        ids.push(id);
        out.push(tool_span(node, c, id));
    }
    let mut taken = vec![false; calls.len()];
    replies
        .iter()
        .map(|r| {
            let fits = |c: &Value| match r.kind {
                ReplyKind::Mcp => r.request["params"]["name"] == c["name"] || r.request["tool"] == c["name"],
                _ => c.get("server").is_none() && c.get("run").is_none(),
            };
            let k = (0..calls.len()).find(|&k| !taken[k] && fits(&calls[k]))?;
            taken[k] = true;
            Some(ids[k])
        })
        .collect()
}

/// One tool call of a `tools` node.
fn tool_span(node: &NodeCalls<'_>, c: &Value, id: SpanId) -> SpanDoc {
    let name = c["name"].as_str().unwrap_or("tool");
    let mut a = Attrs::default();
    a.str("gen_ai.operation.name", "execute_tool")
        .str("gen_ai.tool.name", name)
        .opt_str("gen_ai.tool.call.id", c["id"].as_str())
        .str("gen_ai.tool.type", "function")
        .str("openinference.span.kind", "TOOL")
        .str("tool.name", name);
    if node.options.capture_content {
        let args = c["arguments"].to_string();
        a.str("gen_ai.tool.call.arguments", args.clone()).str("input.value", args);
        if let Some(result) = c.get("result") {
            let text = result.to_string();
            a.str("gen_ai.tool.call.result", text.clone()).str("output.value", text);
        }
    }
    let status = match c["error"].as_str() {
        Some(e) => {
            a.str("error.type", "tool_error");
            SpanStatus::Error(e.to_string())
        }
        None => SpanStatus::Unset,
    };
    let start = node.start;
    SpanDoc {
        trace_id: node.trace,
        span_id: id,
        parent: Some(node.parent),
        name: format!("execute_tool {name}"),
        kind: SpanKind::Internal,
        start_ms: start,
        end_ms: start + c["duration_ms"].as_f64().unwrap_or(0.0).max(0.0),
        status,
        attributes: a.0,
        events: Vec::new(),
        links: Vec::new(),
    }
}
