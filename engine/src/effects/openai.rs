//! The OpenAI-compatible chat-completions API (OpenAI, Ollama, llama.cpp, vLLM):
//! `POST {base_url}/chat/completions` with the messages, the tools as functions, and
//! `response_format: json_schema` for an output schema; the reply's text, `tool_calls`
//! (arguments as JSON text) and `usage`, whole or streamed (`data:` events up to `[DONE]`).

use serde_json::{Value, json};

use super::chat::{
    Ask, ChatReply, Conversation, StreamFold, ToolCall, Usage, arguments_from_text, call_slot, finish_reason, said,
};
use super::cut;
use crate::host::Auth;
use crate::plan::LlmOp;
use crate::sse::SseEvent;

/// The model used when a node names none.
pub(super) const DEFAULT_MODEL: &str = "gpt-4o-mini";
const DEFAULT_BASE: &str = "https://api.openai.com/v1";

/// The request for `op`'s call with conversation `conv` (streamed when `stream`).
pub(super) fn ask(op: &LlmOp, node: &str, conv: &Conversation, stream: bool) -> Ask {
    let base = op.model.base_url.clone().unwrap_or_else(|| DEFAULT_BASE.into());
    let url = format!("{}/chat/completions", base.trim_end_matches('/'));
    let fold: fn() -> Box<dyn StreamFold> = || Box::new(Fold::default());
    Ask {
        url,
        auth: Auth::OpenAi,
        headers: Vec::new(),
        body: body(op, node, conv, stream),
        read: read_reply,
        fold: stream.then_some(fold),
    }
}

/// The request body.
pub(super) fn body(op: &LlmOp, node: &str, conv: &Conversation, stream: bool) -> Value {
    let model = op.model.model.clone().unwrap_or_else(|| DEFAULT_MODEL.into());
    let mut messages = Vec::new();
    if let Some(sys) = &conv.system {
        messages.push(json!({"role": "system", "content": sys}));
    }
    messages.extend(conv.messages.iter().map(wire_message));
    let mut body = json!({ "model": model, "messages": messages });
    if let Some(t) = op.model.temperature {
        body["temperature"] = json!(t);
    }
    if let Some(n) = op.model.max_tokens {
        body["max_tokens"] = json!(n);
    }
    if !conv.tools.is_empty() {
        let tools: Vec<Value> = conv
            .tools
            .iter()
            .map(|t| {
                json!({"type": "function", "function": {
                    "name": t.name, "description": t.description, "parameters": t.parameters
                }})
            })
            .collect();
        body["tools"] = Value::Array(tools);
    }
    if let Some(schema) = &op.output_schema {
        body["response_format"] = json!({
            "type": "json_schema",
            "json_schema": { "name": node, "schema": schema.source() }
        });
    }
    if stream {
        body["stream"] = json!(true);
        body["stream_options"] = json!({ "include_usage": true });
    }
    body
}

/// One of our messages as the API takes it: tool calls as functions with their arguments
/// as JSON text.
fn wire_message(m: &Value) -> Value {
    let role = m["role"].as_str().unwrap_or("user");
    let mut out = json!({ "role": role, "content": m["content"] });
    // The API takes `name` on system, user and assistant messages, not on tool results.
    if let Some(name) = m.get("name").filter(|_| role != "tool") {
        out["name"] = name.clone();
    }
    if let Some(calls) = m.get("tool_calls").and_then(Value::as_array) {
        out["tool_calls"] = Value::Array(
            calls
                .iter()
                .map(|c| {
                    json!({"id": c["id"], "type": "function", "function": {
                        "name": c["name"], "arguments": c["arguments"].to_string()
                    }})
                })
                .collect(),
        );
        if m["content"].as_str().is_some_and(str::is_empty) {
            out["content"] = Value::Null;
        }
    }
    if let Some(id) = m.get("tool_call_id") {
        out["tool_call_id"] = id.clone();
    }
    out
}

/// Reads a whole reply.
pub(super) fn read_reply(body: &str) -> Result<ChatReply, String> {
    let v: Value = serde_json::from_str(body).map_err(|e| {
        format!("the model server's reply is not JSON, so it has no choices[0].message ({e}): {}", cut(body))
    })?;
    let Some(message) = v["choices"][0].get("message").filter(|m| m.is_object()) else {
        return Err(format!("the model server's reply has no choices[0].message: {}", cut(body)));
    };
    let content = message["content"].as_str().unwrap_or_default().to_string();
    if let Some(refusal) = message["refusal"].as_str().filter(|r| !r.is_empty())
        && content.is_empty()
    {
        return Err(format!("the model refused: {}", cut(refusal)));
    }
    let mut tool_calls = Vec::new();
    for c in message["tool_calls"].as_array().into_iter().flatten() {
        let name = c["function"]["name"].as_str().unwrap_or_default().to_string();
        let id = c["id"].as_str().unwrap_or_default().to_string();
        if name.is_empty() || id.is_empty() {
            return Err(format!(
                "the model server's reply has a tool call without id or name: {}",
                cut(&c.to_string())
            ));
        }
        let arguments = match &c["function"]["arguments"] {
            Value::String(text) => arguments_from_text(&name, text)?,
            v @ Value::Object(_) => v.clone(),
            _ => arguments_from_text(&name, "")?,
        };
        tool_calls.push(ToolCall { id, name, arguments });
    }
    if message["content"].is_null() && tool_calls.is_empty() {
        return Err(format!("the model server's reply has neither content nor tool calls: {}", cut(body)));
    }
    Ok(ChatReply {
        content: Value::String(content),
        tool_calls,
        structured: None,
        usage: usage(&v["usage"]),
        finish_reason: said(&v["choices"][0]["finish_reason"]).map(|w| finish_reason(&w)),
        id: said(&v["id"]),
        response_model: said(&v["model"]),
    })
}

fn usage(u: &Value) -> Option<Usage> {
    let input = u["prompt_tokens"].as_u64()?;
    Some(Usage { input_tokens: input, output_tokens: u["completion_tokens"].as_u64().unwrap_or(0) })
}

/// A streamed reply: `data:` events whose `choices[0].delta` adds text or pieces of tool
/// calls, a last one with `usage`, then `data: [DONE]`.
#[derive(Debug, Default)]
pub(super) struct Fold {
    text: String,
    refusal: String,
    /// Calls by their `index`: id, name, arguments as JSON text so far.
    calls: Vec<(String, String, String)>,
    usage: Option<Usage>,
    done: bool,
    finish_reason: Option<String>,
    id: Option<String>,
    model: Option<String>,
}

impl StreamFold for Fold {
    fn event(&mut self, e: &SseEvent) -> Result<Option<String>, String> {
        if e.data.trim() == "[DONE]" {
            self.done = true;
            return Ok(None);
        }
        let v: Value = serde_json::from_str(&e.data)
            .map_err(|err| format!("the model server sent an event that is not JSON ({err}): {}", cut(&e.data)))?;
        if let Some(error) = v.get("error") {
            return Err(format!("the model server reported an error while streaming: {}", cut(&error.to_string())));
        }
        if let Some(u) = usage(&v["usage"]) {
            self.usage = Some(u);
        }
        // Every chunk repeats the id and model; the last with a choice says why it stopped.
        self.id = self.id.take().or_else(|| said(&v["id"]));
        self.model = self.model.take().or_else(|| said(&v["model"]));
        if let Some(w) = said(&v["choices"][0]["finish_reason"]) {
            self.finish_reason = Some(finish_reason(&w));
        }
        let delta = &v["choices"][0]["delta"];
        for c in delta["tool_calls"].as_array().into_iter().flatten() {
            // Each call is numbered in turn; a piece without a number goes on the last call.
            let index = match c["index"].as_u64() {
                Some(i) => call_slot(i, self.calls.len())?,
                None => call_slot(self.calls.len().saturating_sub(1) as u64, self.calls.len())?,
            };
            if index == self.calls.len() {
                self.calls.push(Default::default());
            }
            let slot = &mut self.calls[index];
            if let Some(id) = c["id"].as_str() {
                slot.0.push_str(id);
            }
            if let Some(name) = c["function"]["name"].as_str() {
                slot.1.push_str(name);
            }
            if let Some(args) = c["function"]["arguments"].as_str() {
                slot.2.push_str(args);
            }
        }
        if let Some(r) = delta["refusal"].as_str() {
            self.refusal.push_str(r);
        }
        let text = delta["content"].as_str().unwrap_or_default();
        self.text.push_str(text);
        Ok(Some(text.to_string()))
    }

    fn finish(&mut self) -> Result<ChatReply, String> {
        if !self.done && self.text.is_empty() && self.calls.is_empty() {
            return Err("the model server's stream ended before any reply".into());
        }
        if !self.refusal.is_empty() && self.text.is_empty() {
            return Err(format!("the model refused: {}", cut(&self.refusal)));
        }
        let mut tool_calls = Vec::new();
        for (id, name, args) in &self.calls {
            if id.is_empty() || name.is_empty() {
                return Err("the model server streamed a tool call without id or name".into());
            }
            tool_calls.push(ToolCall {
                id: id.clone(),
                name: name.clone(),
                arguments: arguments_from_text(name, args)?,
            });
        }
        Ok(ChatReply {
            content: Value::String(std::mem::take(&mut self.text)),
            tool_calls,
            structured: None,
            usage: self.usage,
            finish_reason: self.finish_reason.take(),
            id: self.id.take(),
            response_model: self.model.take(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effects::chat::MAX_STREAMED_CALLS;
    use crate::sse::SseParser;

    #[test]
    fn a_whole_reply_gives_text_tool_calls_and_usage() {
        let body = json!({"choices": [{"message": {"role": "assistant", "content": null, "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "weather", "arguments": "{\"city\":\"Oslo\"}"}}
        ]}}], "usage": {"prompt_tokens": 12, "completion_tokens": 5}});
        let r = read_reply(&body.to_string()).unwrap();
        assert_eq!(
            r.tool_calls,
            vec![ToolCall { id: "call_1".into(), name: "weather".into(), arguments: json!({"city": "Oslo"}) }]
        );
        assert_eq!(r.usage, Some(Usage { input_tokens: 12, output_tokens: 5 }));
        assert!(read_reply("<html>").unwrap_err().contains("not JSON"));
        assert!(read_reply("{}").unwrap_err().contains("no choices[0].message"));
        let bad = json!({"choices": [{"message": {"tool_calls": [{"id": "c", "function": {"name": "f", "arguments": "[1"}}]}}]});
        assert!(read_reply(&bad.to_string()).unwrap_err().contains("not a JSON object"));
    }

    #[test]
    fn a_streamed_reply_folds_into_the_same_reply() {
        let stream = concat!(
            "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"Hel\"}}]}\n\n",
            "data: {\"choices\":[{\"delta\":{\"content\":\"lo\"}}]}\n\n",
            "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_9\",\"function\":{\"name\":\"add\",\"arguments\":\"{\\\"a\\\":\"}}]}}]}\n\n",
            "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"1}\"}}]}}]}\n\n",
            "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":4}}\n\n",
            "data: [DONE]\n\n"
        );
        let mut parser = SseParser::new();
        let mut fold = Fold::default();
        let mut texts = Vec::new();
        for e in parser.push(stream).into_iter().chain(parser.finish()) {
            if let Some(t) = fold.event(&e).unwrap().filter(|t| !t.is_empty()) {
                texts.push(t);
            }
        }
        assert_eq!(texts, ["Hel", "lo"]);
        let r = fold.finish().unwrap();
        assert_eq!(r.content, json!("Hello"));
        assert_eq!(r.tool_calls[0].arguments, json!({"a": 1}));
        assert_eq!(r.usage, Some(Usage { input_tokens: 3, output_tokens: 4 }));
    }

    fn tool_call_event(index: u64) -> SseEvent {
        let data = json!({"choices": [{"delta": {"tool_calls": [
            {"index": index, "id": format!("call_{index}"), "function": {"name": "add", "arguments": "{}"}}
        ]}}]});
        SseEvent { event: None, data: data.to_string(), id: None }
    }

    #[test]
    fn a_tool_call_index_past_the_next_one_is_a_protocol_error() {
        let mut fold = Fold::default();
        let err = fold.event(&tool_call_event(4_000_000_000)).expect_err("refused");
        assert!(err.contains("broke the streaming protocol: tool call index 4000000000 after 0 call(s)"), "{err}");
        assert!(fold.calls.is_empty(), "nothing was allocated for it");
        let mut fold = Fold::default();
        fold.event(&tool_call_event(0)).expect("the first call");
        fold.event(&tool_call_event(1)).expect("the next call");
        fold.event(&tool_call_event(0)).expect("a piece of an earlier call");
        assert!(fold.event(&tool_call_event(3)).is_err(), "a gap");
        let mut fold = Fold::default();
        for i in 0..MAX_STREAMED_CALLS as u64 {
            fold.event(&tool_call_event(i)).expect("within the ceiling");
        }
        let err = fold.event(&tool_call_event(MAX_STREAMED_CALLS as u64)).expect_err("past the ceiling");
        assert!(err.contains("more than 128 tool calls"), "{err}");
    }
}
