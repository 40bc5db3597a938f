//! The `llm` node (format.md §4; format.md §4 (llm, tools) and §8): the conversation it sends (system text, earlier
//! messages, then the prompt), the provider it asks, and what it writes: the assistant
//! message to a `messages` field, else the text or, with `parse: json` or an
//! `output_schema`, the parsed (and checked) value.

use serde_json::{Value, json};

use super::chat::{ChatReply, Conversation, ask_server};
use super::mcp::offered_specs;
use super::replay::{self, Taped};
use super::{Effect, EffectCall, anthropic, checked, cut, mock, openai};
use crate::document::{Parse, Provider};
use crate::messages;
use crate::plan::LlmOp;
use crate::record::{ErrorKind, NodeError, ReplyKind};

/// An `llm` node: renders its prompts, asks the model, and writes the reply.
pub(crate) async fn llm(call: &EffectCall<'_>, op: &LlmOp) -> Effect {
    let mut detail = json!({ "provider": op.model.provider.name() });
    let (prompt, mut conv) = match conversation(call, op, &mut detail) {
        Ok(c) => c,
        Err(e) => return e.into(),
    };
    // MCP tools the document does not describe are described by their servers' listings.
    conv.tools = match offered_specs(call, &op.tools).await {
        Ok(t) => t,
        Err(e) => return Effect::failed(e, Some(detail)),
    };
    if !op.tools.is_empty() {
        detail["tools"] = json!(op.tools.iter().map(|t| t.name.as_str()).collect::<Vec<_>>());
    }
    let stream = call.host.streams();
    let mock = op.model.provider == Provider::Mock;
    let reply = match replay::begin(call, ReplyKind::Model, model_request(op, &conv), mock) {
        Taped::Replayed(taped) => replayed(call, &taped, &mut detail),
        Taped::Refused(message) => Err(NodeError { kind: ErrorKind::Llm, message }),
        Taped::Live(ticket) => {
            let reply = ask(call, op, prompt.as_deref(), &conv, &mut detail, stream).await;
            replay::record(call, ticket, tape_reply(&reply, &detail));
            reply
        }
    };
    let reply = match reply {
        Ok(r) => r,
        Err(error) => return Effect::failed(error, Some(detail)),
    };
    if let Some(u) = reply.usage {
        detail["usage"] = u.to_json();
    }
    detail["response"] = reply.detail();
    match written(call, op, &reply) {
        Ok(value) => Effect::writes(&op.writes, value, detail),
        Err((kind, message)) => Effect::failed(call.error(kind, message), Some(detail)),
    }
}

/// Asks the node's provider.
async fn ask(
    call: &EffectCall<'_>,
    op: &LlmOp,
    prompt: Option<&str>,
    conv: &Conversation,
    detail: &mut Value,
    stream: bool,
) -> Result<ChatReply, NodeError> {
    match op.model.provider {
        Provider::Mock => mock::reply(call, op, prompt, conv, detail).inspect(|r| {
            // A watcher sees a mock's text arrive too, in one piece.
            if stream && !r.content_text().is_empty() {
                call.host.llm_delta(&call.node.id, &r.content_text());
            }
        }),
        Provider::Openai => {
            detail["model"] = json!(op.model.model.as_deref().unwrap_or(openai::DEFAULT_MODEL));
            ask_server(call, openai::ask(op, &call.node.id, conv, stream), detail).await
        }
        Provider::Anthropic => {
            detail["model"] = json!(op.model.model.as_deref().unwrap_or(anthropic::DEFAULT_MODEL));
            ask_server(call, anthropic::ask(op, conv, stream), detail).await
        }
    }
}

/// The request as the tape compares it: the provider and its options, the whole
/// conversation, the tools offered and the output schema; a mock's replies too (changing
/// them changes the model). Never a key or a header.
fn model_request(op: &LlmOp, conv: &Conversation) -> Value {
    let m = &op.model;
    let mut r = json!({ "provider": m.provider.name(), "messages": conv.messages });
    let mut put = |k: &str, v: Value| {
        if !v.is_null() {
            r[k] = v;
        }
    };
    put("model", json!(m.model));
    put("base_url", json!(m.base_url));
    put("temperature", json!(m.temperature));
    put("max_tokens", json!(m.max_tokens));
    put("system", json!(conv.system));
    put("output_schema", op.output_schema.as_ref().map_or(Value::Null, |s| s.source().clone()));
    put("responses", json!(m.responses));
    if !conv.tools.is_empty() {
        let tools: Vec<Value> = conv
            .tools
            .iter()
            .map(|t| json!({ "name": t.name, "description": t.description, "parameters": t.parameters }))
            .collect();
        r["tools"] = Value::Array(tools);
    }
    r
}

/// A model's reply (or failure) as the tape records it, with the model the provider named.
fn tape_reply(reply: &Result<ChatReply, NodeError>, detail: &Value) -> Value {
    match reply {
        Ok(r) => {
            let mut v = r.to_tape();
            if let Some(model) = detail.get("model") {
                v["model"] = model.clone();
            }
            v
        }
        Err(e) => replay::failure(e.kind, &e.message),
    }
}

/// A recorded reply given back as the provider's; a watcher sees its text in one piece.
fn replayed(call: &EffectCall<'_>, taped: &Value, detail: &mut Value) -> Result<ChatReply, NodeError> {
    detail["replayed"] = json!(true);
    if let Some(model) = taped.get("model") {
        detail["model"] = model.clone();
    }
    if let Some((kind, message)) = replay::failure_of(taped) {
        return Err(NodeError { kind, message });
    }
    let reply = ChatReply::from_tape(taped).map_err(|m| call.error(ErrorKind::Llm, m))?;
    if call.host.streams() && !reply.content_text().is_empty() {
        call.host.llm_delta(&call.name, &reply.content_text());
    }
    Ok(reply)
}

/// The rendered prompt, and the conversation sent: the system text, the earlier messages
/// (`messages`, checked), then the prompt as a user message. What was sent goes into
/// `detail` (the earlier messages by count: they are in the state already).
fn conversation(
    call: &EffectCall<'_>,
    op: &LlmOp,
    detail: &mut Value,
) -> Result<(Option<String>, Conversation), NodeError> {
    let prompt = op.prompt.as_ref().map(|t| call.render("prompt", t)).transpose()?;
    let system = op.system.as_ref().map(|t| call.render("system", t)).transpose()?;
    let mut earlier = match &op.messages {
        None => Vec::new(),
        Some(e) => earlier_messages(call, e)?,
    };
    if let Some(p) = &prompt {
        detail["prompt"] = json!(p);
    }
    if let Some(s) = &system {
        detail["system"] = json!(s);
    }
    if op.messages.is_some() {
        detail["messages"] = json!(earlier.len());
    }
    if let Some(p) = &prompt
        && (!p.is_empty() || earlier.is_empty())
    {
        earlier.push(json!({ "role": "user", "content": p }));
    }
    Ok((prompt, Conversation { system, messages: earlier, tools: Vec::new() }))
}

/// The messages `messages` gives, checked (a missing field is no messages).
fn earlier_messages(call: &EffectCall<'_>, e: &crate::script::Expr) -> Result<Vec<Value>, NodeError> {
    let mut v =
        call.scripting.eval_json(e, call.ctx).map_err(|err| NodeError::expression(&call.node.id, "messages", err))?;
    if v.is_null() {
        return Ok(Vec::new());
    }
    messages::normalize_list(&mut v, None)
        .map_err(|err| call.error(ErrorKind::Type, format_args!("field `messages`: {err}")))?;
    match v {
        Value::Array(list) => Ok(list),
        _ => Ok(Vec::new()),
    }
}

/// What the node writes: the assistant message to a `messages` field; else the text, or the
/// parsed value. With `output_schema` the answer must match it (a reply that only calls
/// tools is not an answer yet, and is not checked).
fn written(call: &EffectCall<'_>, op: &LlmOp, reply: &ChatReply) -> Result<Value, (ErrorKind, String)> {
    let unusable = |message| (ErrorKind::Llm, message);
    let answer = match &op.output_schema {
        Some(schema) if reply.structured.is_some() || reply.tool_calls.is_empty() => {
            let value = match &reply.structured {
                Some(s) => s.clone(),
                None => parse_reply(Parse::Json, reply.content.clone()).map_err(unusable)?,
            };
            let (mismatch, what) =
                ("the reply does not match output_schema", "checking the reply against output_schema");
            checked::check(call, schema, &value, ErrorKind::Llm, mismatch, what)?;
            Some(value)
        }
        _ => None,
    };
    if op.writes_messages {
        let content = match &answer {
            Some(v) => v.to_string(),
            None => reply.content_text(),
        };
        return Ok(reply.message(content));
    }
    match answer {
        Some(v) => Ok(v),
        None => parse_reply(op.parse, reply.content.clone()).map_err(unusable),
    }
}

/// A model's reply as the node's `parse` asks: text as it is, or JSON.
fn parse_reply(parse: Parse, reply: Value) -> Result<Value, String> {
    Ok(match (parse, reply) {
        (Parse::Text, Value::String(s)) => Value::String(s),
        (Parse::Text, other) => Value::String(other.to_string()),
        (Parse::Json, Value::String(s)) => {
            parse_json_reply(&s).map_err(|e| format!("the model's reply is not JSON ({e}): {}", cut(&s)))?
        }
        (Parse::Json, other) => other,
    })
}

/// Models often wrap JSON in a Markdown code fence; accept that.
fn parse_json_reply(text: &str) -> Result<Value, serde_json::Error> {
    let t = text.trim();
    let inner = t
        .strip_prefix("```json")
        .or_else(|| t.strip_prefix("```"))
        .and_then(|rest| rest.strip_suffix("```"))
        .unwrap_or(t);
    serde_json::from_str(inner.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_replies_may_be_fenced() {
        assert_eq!(parse_json_reply("```json\n{\"a\": 1}\n```").unwrap(), json!({"a": 1}));
        assert_eq!(parse_json_reply(" [1, 2] ").unwrap(), json!([1, 2]));
        assert!(parse_json_reply("Sure! Here it is").is_err());
    }
}
