//! The `mock` provider (spec 2.6): deterministic, offline replies from the node's
//! `responses`.
//!
//! Rules (`{when, reply}`) are tried first, in the order listed, and the first whose `when`
//! holds answers; `when` sees the node's usual scope plus `prompt` (the rendered prompt, ""
//! without one) and `messages` (the conversation sent, the prompt last). Otherwise the plain
//! items answer in turn: the `n`th run of the node (counted from 0, whichever item answered
//! the runs before) gets plain item `n mod <number of plain items>`, so a resumed or forked
//! run answers as the original did. A node with rules and no plain item, none of whose rules
//! holds, fails with "no mock reply matches"; a node with no responses at all answers "".

use serde_json::{Value, json};

use super::EffectCall;
use super::chat::{ChatReply, Conversation, ToolCall};
use crate::plan::{LlmOp, MockItem, MockReply};
use crate::run::errors::{ErrorKind, NodeError};
use crate::script::to_dynamic;

/// The mock model's reply to `conv`; which item answered goes into `detail`.
pub(super) fn reply(
    call: &EffectCall<'_>,
    op: &LlmOp,
    prompt: Option<&str>,
    conv: &Conversation,
    detail: &mut Value,
) -> Result<ChatReply, NodeError> {
    detail["turn"] = json!(call.turn);
    if let Some((k, reply)) = matching_rule(call, op, prompt, conv)? {
        detail["rule"] = json!(k);
        return Ok(to_chat(call, reply));
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
    Ok(to_chat(call, reply))
}

/// The first rule whose `when` holds, with its index in `responses`.
fn matching_rule<'a>(
    call: &EffectCall<'_>,
    op: &'a LlmOp,
    prompt: Option<&str>,
    conv: &Conversation,
) -> Result<Option<(usize, &'a MockReply)>, NodeError> {
    if !op.mock.iter().any(|i| matches!(i, MockItem::Rule { .. })) {
        return Ok(None);
    }
    let messages = to_dynamic(&Value::Array(conv.messages.clone()));
    let ctx = call.ctx.with("prompt", prompt.unwrap_or_default().into()).with("messages", messages);
    for (k, item) in op.mock.iter().enumerate() {
        let MockItem::Rule { when, reply } = item else { continue };
        let field = format!("model.responses[{k}].when");
        let holds = call.scripting.eval(when, &ctx).map_err(|e| NodeError::expression(&call.node.id, &field, e))?;
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

/// A mock reply as a model's: tool calls get ids `call_<node>_<step>_<n>`.
fn to_chat(call: &EffectCall<'_>, reply: &MockReply) -> ChatReply {
    match reply {
        MockReply::Value(v) => ChatReply { content: v.clone(), ..ChatReply::default() },
        MockReply::Message { content, tool_calls } => ChatReply {
            content: Value::String(content.clone()),
            tool_calls: tool_calls
                .iter()
                .enumerate()
                .map(|(n, (name, arguments))| ToolCall {
                    id: format!("call_{}_{}_{}", call.name, call.step, n + 1),
                    name: name.clone(),
                    arguments: arguments.clone(),
                })
                .collect(),
            ..ChatReply::default()
        },
    }
}
