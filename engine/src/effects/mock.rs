//! The `mock` provider (format.md §4 (llm, tools) and §8): deterministic, offline replies from the node's
//! `responses`.
//!
//! Rules (`{when, reply}`) are tried first, in the order listed, and the first whose `when`
//! holds answers; `when` sees the node's usual scope plus `prompt` (the rendered prompt, ""
//! without one) and `messages` (the conversation sent, the prompt last). Otherwise the plain
//! items answer in turn: the `n`th run of the node (counted from 0, whichever item answered
//! the runs before) gets plain item `n mod <number of plain items>`, so a resumed or forked
//! run answers as the original did. A node with rules and no plain item, none of whose rules
//! holds, fails with "no mock reply matches"; a node with no responses at all answers "".
//! Strings in replies are templates rendered in the rules' scope, so that a reply can quote
//! the state, the prompt or a tool's result (`{{ messages[-1].content }}`); a string that is
//! one `{{ }}` hole gives the value as it is (a number in a tool call's arguments stays one).

use serde_json::{Value, json};

use super::EffectCall;
use super::chat::{ChatReply, Conversation, ToolCall};
use super::http::render_json;
use crate::plan::{JsonTemplate, LlmOp, MockItem, MockReply};
use crate::record::{ErrorKind, NodeError};
use crate::script::{Ctx, to_dynamic};

/// The mock model's reply to `conv`; which item answered goes into `detail`.
pub(super) fn reply(
    call: &EffectCall<'_>,
    op: &LlmOp,
    prompt: Option<&str>,
    conv: &Conversation,
    detail: &mut Value,
) -> Result<ChatReply, NodeError> {
    detail["turn"] = json!(call.turn);
    let ctx = scope(call, prompt, conv);
    if let Some((k, reply)) = matching_rule(call, op, &ctx)? {
        detail["rule"] = json!(k);
        return to_chat(call, reply, &ctx);
    }
    let plain: Vec<&MockReply> = op
        .mock
        .iter()
        .filter_map(|item| match item {
            MockItem::Plain(r) => Some(r),
            MockItem::Rule { .. } => None,
        })
        .collect();
    if plain.is_empty() {
        if op.mock.is_empty() {
            return Ok(ChatReply::text(""));
        }
        return Err(
            call.error(ErrorKind::Llm, "no mock reply matches: no rule's `when` holds, and no reply answers in turn")
        );
    }
    let reply = plain[(call.turn % plain.len() as u64) as usize];
    to_chat(call, reply, &ctx)
}

/// What rules and replies see: the node's scope plus `prompt` and `messages`.
fn scope(call: &EffectCall<'_>, prompt: Option<&str>, conv: &Conversation) -> Ctx {
    let messages = to_dynamic(&Value::Array(conv.messages.clone()));
    call.ctx.with("prompt", prompt.unwrap_or_default().into()).with("messages", messages)
}

/// The first rule whose `when` holds, with its index in `responses`.
fn matching_rule<'a>(
    call: &EffectCall<'_>,
    op: &'a LlmOp,
    ctx: &Ctx,
) -> Result<Option<(usize, &'a MockReply)>, NodeError> {
    for (k, item) in op.mock.iter().enumerate() {
        let MockItem::Rule { when, reply } = item else { continue };
        let field = format!("model.responses[{k}].when");
        let holds = call.scripting.eval(when, ctx).map_err(|e| NodeError::expression(&call.node.id, &field, e))?;
        match holds.as_bool() {
            Ok(true) => return Ok(Some((k, reply))),
            Ok(false) => {}
            Err(got) => {
                let message = format!("must give true or false, got {got}");
                return Err(NodeError::expression(&call.node.id, &field, message));
            }
        }
    }
    Ok(None)
}

/// A mock reply as a model's, its templates rendered in `ctx`: tool calls get ids
/// `call_<node>_<step>_<n>`.
fn to_chat(call: &EffectCall<'_>, reply: &MockReply, ctx: &Ctx) -> Result<ChatReply, NodeError> {
    let render = |t: &JsonTemplate| {
        render_json(call.scripting, t, ctx).map_err(|e| NodeError::expression(&call.node.id, "model.responses", e))
    };
    Ok(match reply {
        MockReply::Value(v) => {
            ChatReply { content: render(v)?, finish_reason: Some("stop".into()), ..ChatReply::default() }
        }
        MockReply::Message { content, tool_calls } => {
            let content = match render(content)? {
                Value::String(s) => s,
                other => other.to_string(),
            };
            let mut calls = Vec::with_capacity(tool_calls.len());
            for (n, (name, arguments)) in tool_calls.iter().enumerate() {
                calls.push(ToolCall {
                    id: format!("call_{}_{}_{}", call.name, call.step, n + 1),
                    name: name.clone(),
                    arguments: render(arguments)?,
                });
            }
            let finish = if calls.is_empty() { "stop" } else { "tool_calls" };
            ChatReply {
                content: Value::String(content),
                tool_calls: calls,
                finish_reason: Some(finish.into()),
                ..ChatReply::default()
            }
        }
    })
}
