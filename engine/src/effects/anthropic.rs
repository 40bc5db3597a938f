//! Anthropic's Messages API: `POST {base_url}/v1/messages` with `anthropic-version`, the
//! system text at the top level, our messages as content blocks (tool calls as `tool_use`,
//! tool results as `tool_result` blocks in a user turn, consecutive turns of one role merged),
//! tools with an `input_schema`, and an output schema given as one more tool the model must
//! call. The reply's `text` and `tool_use` blocks and `usage`, whole or streamed
//! (`message_start`, `content_block_start`/`delta`, `message_delta`, `message_stop`).

use serde_json::{Map, Value, json};

use super::chat::{
    Ask, ChatReply, Conversation, MAX_STREAMED_CALLS, StreamFold, StreamProtocolError, ToolCall, Usage,
    arguments_from_text, finish_reason, said,
};
use super::cut;
use crate::host::Auth;
use crate::plan::LlmOp;
use crate::sse::SseEvent;

/// The model used when a node names none.
pub(super) const DEFAULT_MODEL: &str = "claude-sonnet-4-5";
const DEFAULT_BASE: &str = "https://api.anthropic.com";
const VERSION: &str = "2023-06-01";
/// Replies may take this many tokens when the model settings give no `max_tokens`.
const DEFAULT_MAX_TOKENS: u64 = 1024;
/// The tool through which a model gives an answer matching `output_schema`.
pub(super) const OUTPUT_TOOL: &str = "structured_output";

/// The request for `op`'s call with conversation `conv` (streamed when `stream`).
pub(super) fn ask(op: &LlmOp, conv: &Conversation, stream: bool) -> Ask {
    let base = op.model.base_url.clone().unwrap_or_else(|| DEFAULT_BASE.into());
    let url = format!("{}/v1/messages", base.trim_end_matches('/'));
    let fold: fn() -> Box<dyn StreamFold> = || Box::new(Fold::default());
    Ask {
        url,
        auth: Auth::Anthropic,
        headers: vec![("anthropic-version".into(), VERSION.into())],
        body: body(op, conv, stream),
        read: read_reply,
        fold: stream.then_some(fold),
    }
}

/// The request body.
pub(super) fn body(op: &LlmOp, conv: &Conversation, stream: bool) -> Value {
    let model = op.model.model.clone().unwrap_or_else(|| DEFAULT_MODEL.into());
    let (extra_system, messages) = turns(&conv.messages);
    let system: Vec<String> = conv.system.iter().cloned().chain(extra_system).filter(|s| !s.is_empty()).collect();
    let mut body = json!({
        "model": model,
        "max_tokens": op.model.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS),
        "messages": messages,
    });
    if !system.is_empty() {
        body["system"] = json!(system.join("\n\n"));
    }
    if let Some(t) = op.model.temperature {
        body["temperature"] = json!(t);
    }
    let mut tools: Vec<Value> = conv
        .tools
        .iter()
        .map(|t| json!({"name": t.name, "description": t.description, "input_schema": t.parameters}))
        .collect();
    if let Some(schema) = &op.output_schema {
        tools.push(json!({
            "name": OUTPUT_TOOL,
            "description": "Give your answer through this tool: its input is the answer.",
            "input_schema": schema.source(),
        }));
        // Alone, the output tool is forced; with other tools the model must call one of them.
        body["tool_choice"] =
            if op.tools.is_empty() { json!({"type": "tool", "name": OUTPUT_TOOL}) } else { json!({"type": "any"}) };
    }
    if !tools.is_empty() {
        body["tools"] = Value::Array(tools);
    }
    if stream {
        body["stream"] = json!(true);
    }
    body
}

/// Our messages as the API's turns: system messages go to the top-level system text, tool
/// results become `tool_result` blocks of a user turn, and consecutive turns of one role are
/// merged (the API wants user and assistant to alternate).
fn turns(messages: &[Value]) -> (Vec<String>, Vec<Value>) {
    let mut system = Vec::new();
    let mut out: Vec<(String, Vec<Value>)> = Vec::new();
    for m in messages {
        let content = m["content"].as_str().unwrap_or_default();
        let (role, blocks) = match m["role"].as_str().unwrap_or("user") {
            "system" => {
                system.push(content.to_string());
                continue;
            }
            "assistant" => {
                let mut blocks = text_block(content);
                for c in m["tool_calls"].as_array().into_iter().flatten() {
                    blocks.push(json!({"type": "tool_use", "id": c["id"], "name": c["name"], "input": c["arguments"]}));
                }
                ("assistant", blocks)
            }
            "tool" => {
                let mut block = json!({"type": "tool_result", "tool_use_id": m["tool_call_id"], "content": content});
                if content.starts_with("error:") {
                    block["is_error"] = json!(true);
                }
                ("user", vec![block])
            }
            _ => ("user", text_block(content)),
        };
        if blocks.is_empty() {
            continue;
        }
        match out.last_mut() {
            Some((r, prev)) if r == role => prev.extend(blocks),
            _ => out.push((role.to_string(), blocks)),
        }
    }
    let turns = out.into_iter().map(|(role, content)| json!({"role": role, "content": content})).collect();
    (system, turns)
}

/// A text block, or none for empty text (the API refuses empty text blocks).
fn text_block(text: &str) -> Vec<Value> {
    if text.is_empty() { Vec::new() } else { vec![json!({"type": "text", "text": text})] }
}

/// Reads a whole reply.
pub(super) fn read_reply(body: &str) -> Result<ChatReply, String> {
    let v: Value =
        serde_json::from_str(body).map_err(|e| format!("the model server's reply is not JSON ({e}): {}", cut(body)))?;
    if v["type"] == "error" {
        return Err(format!("the model server reported an error: {}", cut(&v["error"].to_string())));
    }
    let Some(blocks) = v["content"].as_array() else {
        return Err(format!("the model server's reply has no `content` blocks: {}", cut(body)));
    };
    let mut reply = ChatReply {
        content: Value::String(String::new()),
        usage: usage(&v["usage"]),
        finish_reason: said(&v["stop_reason"]).map(|w| finish_reason(&w)),
        id: said(&v["id"]),
        response_model: said(&v["model"]),
        ..ChatReply::default()
    };
    let mut text = String::new();
    for b in blocks {
        match b["type"].as_str() {
            Some("text") => text.push_str(b["text"].as_str().unwrap_or_default()),
            Some("tool_use") => {
                let name = b["name"].as_str().unwrap_or_default().to_string();
                let id = b["id"].as_str().unwrap_or_default().to_string();
                let input = match &b["input"] {
                    Value::Null => Value::Object(Map::new()),
                    v @ Value::Object(_) => v.clone(),
                    other => {
                        return Err(format!(
                            "the model called `{name}` with input that is not an object: {}",
                            cut(&other.to_string())
                        ));
                    }
                };
                add_call(&mut reply, id, name, input)?;
            }
            _ => {}
        }
    }
    reply.content = Value::String(text);
    Ok(reply)
}

/// A `tool_use` block: the output tool's input is the structured answer, any other is a
/// tool call.
fn add_call(reply: &mut ChatReply, id: String, name: String, input: Value) -> Result<(), String> {
    if name == OUTPUT_TOOL {
        reply.structured = Some(input);
        return Ok(());
    }
    if id.is_empty() || name.is_empty() {
        return Err("the model server's reply has a tool_use block without id or name".into());
    }
    reply.tool_calls.push(ToolCall { id, name, arguments: input });
    Ok(())
}

fn usage(u: &Value) -> Option<Usage> {
    let input = u["input_tokens"].as_u64()?;
    Some(Usage { input_tokens: input, output_tokens: u["output_tokens"].as_u64().unwrap_or(0) })
}

/// A block of a streamed reply.
#[derive(Debug)]
enum Block {
    Text(String),
    /// id, name, input as JSON text so far.
    ToolUse(String, String, String),
}

/// A streamed reply.
#[derive(Debug, Default)]
pub(super) struct Fold {
    blocks: Vec<Block>,
    usage: Option<Usage>,
    started: bool,
    stop_reason: Option<String>,
    id: Option<String>,
    model: Option<String>,
}

impl StreamFold for Fold {
    fn event(&mut self, e: &SseEvent) -> Result<Option<String>, String> {
        let v: Value = serde_json::from_str(&e.data)
            .map_err(|err| format!("the model server sent an event that is not JSON ({err}): {}", cut(&e.data)))?;
        let kind = e.event.as_deref().or(v["type"].as_str()).unwrap_or_default();
        match kind {
            "message_start" => {
                self.started = true;
                self.usage = usage(&v["message"]["usage"]);
                self.id = said(&v["message"]["id"]);
                self.model = said(&v["message"]["model"]);
            }
            "content_block_start" => {
                let b = &v["content_block"];
                let block = match b["type"].as_str() {
                    Some("tool_use") => Block::ToolUse(
                        b["id"].as_str().unwrap_or_default().into(),
                        b["name"].as_str().unwrap_or_default().into(),
                        String::new(),
                    ),
                    _ => Block::Text(b["text"].as_str().unwrap_or_default().into()),
                };
                if self.blocks.len() >= MAX_STREAMED_CALLS {
                    return Err(StreamProtocolError::TooManyCalls.into());
                }
                self.blocks.push(block);
            }
            "content_block_delta" => return Ok(self.delta(&v["delta"])),
            "message_delta" => {
                if let Some(w) = said(&v["delta"]["stop_reason"]) {
                    self.stop_reason = Some(finish_reason(&w));
                }
                if let (Some(u), Some(out)) = (self.usage.as_mut(), v["usage"]["output_tokens"].as_u64()) {
                    u.output_tokens = out;
                }
            }
            "error" => {
                return Err(format!(
                    "the model server reported an error while streaming: {}",
                    cut(&v["error"].to_string())
                ));
            }
            _ => {}
        }
        Ok(None)
    }

    fn finish(&mut self) -> Result<ChatReply, String> {
        if !self.started {
            return Err("the model server's stream ended before any reply".into());
        }
        let mut reply = ChatReply {
            usage: self.usage,
            finish_reason: self.stop_reason.take(),
            id: self.id.take(),
            response_model: self.model.take(),
            ..ChatReply::default()
        };
        let mut text = String::new();
        for b in std::mem::take(&mut self.blocks) {
            match b {
                Block::Text(t) => text.push_str(&t),
                Block::ToolUse(id, name, input) => {
                    let input = arguments_from_text(&name, &input)?;
                    add_call(&mut reply, id, name, input)?;
                }
            }
        }
        reply.content = Value::String(text);
        Ok(reply)
    }
}

impl Fold {
    /// A `content_block_delta` for the last block; the text it adds (also the output
    /// tool's JSON, which is the answer).
    fn delta(&mut self, d: &Value) -> Option<String> {
        match (self.blocks.last_mut(), d["type"].as_str()) {
            (Some(Block::Text(t)), Some("text_delta")) => {
                let piece = d["text"].as_str().unwrap_or_default();
                t.push_str(piece);
                Some(piece.to_string())
            }
            (Some(Block::ToolUse(_, name, input)), Some("input_json_delta")) => {
                let piece = d["partial_json"].as_str().unwrap_or_default();
                input.push_str(piece);
                (name == OUTPUT_TOOL).then(|| piece.to_string())
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sse::SseParser;

    #[test]
    fn messages_become_alternating_turns_of_blocks() {
        let (system, turns) = turns(&[
            json!({"role": "system", "content": "be brief"}),
            json!({"role": "user", "content": "weather?"}),
            json!({"role": "assistant", "content": "", "tool_calls": [
                {"id": "t1", "name": "weather", "arguments": {"city": "Oslo"}},
                {"id": "t2", "name": "time", "arguments": {}}]}),
            json!({"role": "tool", "content": "\"rain\"", "tool_call_id": "t1"}),
            json!({"role": "tool", "content": "error: unknown tool `time`", "tool_call_id": "t2"}),
            json!({"role": "user", "content": "and now?"}),
        ]);
        assert_eq!(system, ["be brief"]);
        assert_eq!(turns.len(), 3, "{turns:#?}");
        assert_eq!(
            turns[1]["content"][0],
            json!({"type": "tool_use", "id": "t1", "name": "weather", "input": {"city": "Oslo"}})
        );
        assert_eq!(turns[2]["role"], "user");
        assert_eq!(turns[2]["content"][0]["tool_use_id"], "t1");
        assert_eq!(turns[2]["content"][1]["is_error"], true);
        assert_eq!(turns[2]["content"][2], json!({"type": "text", "text": "and now?"}));
    }

    #[test]
    fn a_whole_reply_gives_text_tool_calls_structure_and_usage() {
        let body = json!({"type": "message", "content": [
            {"type": "text", "text": "Let me check."},
            {"type": "tool_use", "id": "toolu_1", "name": "weather", "input": {"city": "Oslo"}},
            {"type": "tool_use", "id": "toolu_2", "name": OUTPUT_TOOL, "input": {"ok": true}}
        ], "usage": {"input_tokens": 20, "output_tokens": 7}});
        let r = read_reply(&body.to_string()).unwrap();
        assert_eq!(r.content, json!("Let me check."));
        assert_eq!(r.tool_calls.len(), 1);
        assert_eq!(r.structured, Some(json!({"ok": true})));
        assert_eq!(r.usage, Some(Usage { input_tokens: 20, output_tokens: 7 }));
        assert!(
            read_reply("{\"type\":\"error\",\"error\":{\"message\":\"overloaded\"}}")
                .unwrap_err()
                .contains("overloaded")
        );
        assert!(read_reply("{}").unwrap_err().contains("no `content`"));
    }

    #[test]
    fn a_streamed_reply_folds_into_the_same_reply() {
        let stream = concat!(
            "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":11,\"output_tokens\":1}}}\n\n",
            "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n",
            "event: ping\ndata: {\"type\":\"ping\"}\n\n",
            "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hi \"}}\n\n",
            "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"there\"}}\n\n",
            "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
            "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_9\",\"name\":\"add\",\"input\":{}}}\n\n",
            "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"a\\\": \"}}\n\n",
            "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"2}\"}}\n\n",
            "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"},\"usage\":{\"output_tokens\":9}}\n\n",
            "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
        );
        let mut parser = SseParser::new();
        let mut fold = Fold::default();
        let mut texts = Vec::new();
        for e in parser.push(stream).into_iter().chain(parser.finish()) {
            if let Some(t) = fold.event(&e).unwrap() {
                texts.push(t);
            }
        }
        assert_eq!(texts, ["Hi ", "there"]);
        let r = fold.finish().unwrap();
        assert_eq!(r.content, json!("Hi there"));
        assert_eq!(
            r.tool_calls,
            vec![ToolCall { id: "toolu_9".into(), name: "add".into(), arguments: json!({"a": 2}) }]
        );
        assert_eq!(r.usage, Some(Usage { input_tokens: 11, output_tokens: 9 }));
    }
}
