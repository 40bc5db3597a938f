//! What every model provider answers with (text, tool calls, a structured answer, token
//! usage), and asking a model server: the key offered only where the host allows it, the
//! request sent (streamed when the host watches replies arrive), the reply read.

use std::cell::RefCell;

use serde_json::{Map, Value, json};

use super::EffectCall;
use super::send::{Transport, send};
use crate::host::{Auth, HttpRequest, StreamRedactor};
use crate::record::{ErrorKind, NodeError};
use crate::sse::{SseEvent, SseParser};

/// What is sent to the model: its system text, and the conversation (earlier messages, then
/// the prompt as a user message), as canonical messages.
#[derive(Debug, Clone, Default)]
pub(super) struct Conversation {
    pub system: Option<String>,
    pub messages: Vec<Value>,
    /// The tools offered, as the model is told of them (MCP tools completed from their
    /// servers' listings).
    pub tools: Vec<crate::plan::ToolSpec>,
}

/// Tokens a provider says a call took.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct Usage {
    pub input_tokens: u64,
    pub output_tokens: u64,
}

impl Usage {
    pub(super) fn to_json(self) -> Value {
        json!({ "input_tokens": self.input_tokens, "output_tokens": self.output_tokens })
    }
}

/// A tool call the model made.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct ToolCall {
    pub id: String,
    pub name: String,
    pub arguments: Value,
}

/// A model's reply.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct ChatReply {
    /// The text (a mock model may answer with any JSON value).
    pub content: Value,
    pub tool_calls: Vec<ToolCall>,
    /// An answer given through a tool that carries the output schema (Anthropic).
    pub structured: Option<Value>,
    pub usage: Option<Usage>,
    /// Why the model stopped, normalised (`stop`, `length`, `tool_calls`, `content_filter`,
    /// or the provider's own word), when the provider says.
    pub finish_reason: Option<String>,
    /// The provider's id for the response, when it sends one.
    pub id: Option<String>,
    /// The model that answered, as the provider names it.
    pub response_model: Option<String>,
}

impl ChatReply {
    pub(super) fn text(content: impl Into<String>) -> ChatReply {
        ChatReply { content: Value::String(content.into()), ..ChatReply::default() }
    }

    /// The reply as the step's details show it: the text alone when that is all there is.
    pub(super) fn detail(&self) -> Value {
        if self.tool_calls.is_empty() && self.structured.is_none() {
            return self.content.clone();
        }
        let mut d = json!({ "content": self.content });
        if !self.tool_calls.is_empty() {
            d["tool_calls"] = Value::Array(self.tool_calls.iter().map(call_json).collect());
        }
        if let Some(s) = &self.structured {
            d["structured"] = s.clone();
        }
        d
    }

    /// The text, a JSON value other than a string written out as JSON.
    pub(super) fn content_text(&self) -> String {
        match &self.content {
            Value::String(s) => s.clone(),
            Value::Null => String::new(),
            other => other.to_string(),
        }
    }

    /// The assistant message a `messages` field receives (its id is given when it is
    /// written), with `content` as given.
    pub(super) fn message(&self, content: String) -> Value {
        let mut m = Map::new();
        m.insert("role".into(), "assistant".into());
        m.insert("content".into(), Value::String(content));
        if !self.tool_calls.is_empty() {
            m.insert("tool_calls".into(), Value::Array(self.tool_calls.iter().map(call_json).collect()));
        }
        Value::Object(m)
    }
}

impl ChatReply {
    /// The reply as the tape records it: content, tool calls, a structured answer, usage.
    pub(super) fn to_tape(&self) -> Value {
        let mut v = json!({ "content": self.content });
        if !self.tool_calls.is_empty() {
            v["tool_calls"] = Value::Array(self.tool_calls.iter().map(call_json).collect());
        }
        if let Some(s) = &self.structured {
            v["structured"] = s.clone();
        }
        if let Some(u) = self.usage {
            v["usage"] = u.to_json();
        }
        let said = [("finish_reason", &self.finish_reason), ("id", &self.id), ("response_model", &self.response_model)];
        for (k, text) in said {
            if let Some(t) = text {
                v[k] = Value::String(t.clone());
            }
        }
        v
    }

    /// A reply the tape recorded.
    pub(super) fn from_tape(v: &Value) -> Result<ChatReply, String> {
        let bad = || "the recorded model reply is malformed".to_string();
        let tool_calls = match v.get("tool_calls") {
            None => Vec::new(),
            Some(Value::Array(calls)) => calls
                .iter()
                .map(|c| {
                    Some(ToolCall {
                        id: c.get("id")?.as_str()?.to_string(),
                        name: c.get("name")?.as_str()?.to_string(),
                        arguments: c.get("arguments").cloned().unwrap_or(Value::Null),
                    })
                })
                .collect::<Option<Vec<_>>>()
                .ok_or_else(bad)?,
            Some(_) => return Err(bad()),
        };
        let usage = v.get("usage").map(|u| Usage {
            input_tokens: u["input_tokens"].as_u64().unwrap_or(0),
            output_tokens: u["output_tokens"].as_u64().unwrap_or(0),
        });
        Ok(ChatReply {
            content: v.get("content").cloned().ok_or_else(bad)?,
            tool_calls,
            structured: v.get("structured").cloned(),
            usage,
            finish_reason: text_of(v, "finish_reason"),
            id: text_of(v, "id"),
            response_model: text_of(v, "response_model"),
        })
    }
}

fn text_of(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_string)
}

/// A provider's word for why the model stopped, in OpenTelemetry's terms where one fits.
pub(super) fn finish_reason(word: &str) -> String {
    match word {
        "end_turn" | "stop_sequence" | "stop" => "stop",
        "max_tokens" | "length" => "length",
        "tool_use" | "tool_calls" | "function_call" => "tool_calls",
        "refusal" | "content_filter" => "content_filter",
        other => other,
    }
    .to_string()
}

/// A text field of a provider's reply, when present and not empty.
pub(super) fn said(v: &Value) -> Option<String> {
    v.as_str().filter(|s| !s.is_empty()).map(str::to_string)
}

fn call_json(c: &ToolCall) -> Value {
    json!({ "id": c.id, "name": c.name, "arguments": c.arguments })
}

/// The most tool calls (content blocks, for Anthropic) one streamed reply may hold. Events
/// address calls by number, and a number is not a reason to allocate: past this, or past
/// one more than the calls so far, the reply breaks the protocol.
pub(super) const MAX_STREAMED_CALLS: usize = 128;

/// A streamed reply that breaks its provider's protocol.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum StreamProtocolError {
    /// A tool call's `index` that is neither a call so far nor the next one.
    CallIndex { index: u64, calls: usize },
    /// More calls or blocks than [`MAX_STREAMED_CALLS`].
    TooManyCalls,
}

impl std::fmt::Display for StreamProtocolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StreamProtocolError::CallIndex { index, calls } => write!(
                f,
                "the model server broke the streaming protocol: tool call index {index} after {calls} call(s) (each call is numbered in turn, from 0)"
            ),
            StreamProtocolError::TooManyCalls => write!(
                f,
                "the model server broke the streaming protocol: more than {MAX_STREAMED_CALLS} tool calls or content blocks in one reply"
            ),
        }
    }
}

impl From<StreamProtocolError> for String {
    fn from(e: StreamProtocolError) -> String {
        e.to_string()
    }
}

/// The slot of a streamed call numbered `index` among `calls` so far: an existing one, or
/// the next (which the caller adds).
pub(super) fn call_slot(index: u64, calls: usize) -> Result<usize, StreamProtocolError> {
    match usize::try_from(index) {
        Ok(i) if i <= calls && i < MAX_STREAMED_CALLS => Ok(i),
        Ok(i) if i == calls => Err(StreamProtocolError::TooManyCalls),
        _ => Err(StreamProtocolError::CallIndex { index, calls }),
    }
}

/// A provider's reading of a streamed reply, one event at a time.
pub(super) trait StreamFold {
    /// Takes one event; returns the text the reply gained, if any.
    fn event(&mut self, event: &SseEvent) -> Result<Option<String>, String>;
    /// The whole reply, once the stream has ended.
    fn finish(&mut self) -> Result<ChatReply, String>;
}

/// A request to a model server, and how to read its reply.
pub(super) struct Ask {
    pub url: String,
    pub auth: Auth,
    pub headers: Vec<(String, String)>,
    pub body: Value,
    /// Reads a whole (not streamed) reply.
    pub read: fn(&str) -> Result<ChatReply, String>,
    /// A fresh reader of a streamed reply, when the request asks for one.
    pub fold: Option<fn() -> Box<dyn StreamFold>>,
}

/// Sends `ask` and reads the reply; what was sent and how it went goes into `detail`.
pub(super) async fn ask_server(call: &EffectCall<'_>, ask: Ask, detail: &mut Value) -> Result<ChatReply, NodeError> {
    // The key goes only to an origin the host trusts with it (README, Untrusted graphs in the editor).
    let auth = match call.host.key_allowed(ask.auth, &ask.url) {
        Ok(()) => Some(ask.auth),
        Err(why) => {
            detail["auth"] = json!(format!("no key sent: {why}"));
            None
        }
    };
    let mut headers = vec![("content-type".to_string(), "application/json".to_string())];
    headers.extend(ask.headers);
    let request = HttpRequest {
        method: "POST".into(),
        url: ask.url.clone(),
        headers,
        body: Some(ask.body.to_string()),
        timeout_ms: call.budget().0,
        auth,
    };
    detail["url"] = json!(ask.url);
    let llm_error = |message: String| call.error(ErrorKind::Llm, message);
    let Some(new_fold) = ask.fold else {
        let sent = send(call, &request, ErrorKind::Llm, Transport::Whole).await;
        detail["attempts"] = json!(sent.attempts);
        let resp = sent.result.map_err(|(kind, message)| call.error(kind, message))?;
        return (ask.read)(&resp.body).map_err(llm_error);
    };
    detail["streamed"] = json!(true);
    let reading = RefCell::new(Reading::new(new_fold()));
    // Keys are removed from the text as it is shown and from the reply assembled from it: a
    // key split between two reads or two events is whole in neither.
    let redactor = RefCell::new(call.host.stream_redactor());
    let show = |text: &str| {
        let shown = redactor.borrow_mut().push(text);
        if !shown.is_empty() {
            call.host.llm_delta(&call.name, &shown);
        }
    };
    let chunk = |piece: &str| {
        for text in reading.borrow_mut().push(piece) {
            show(&text);
        }
    };
    let restart = || {
        *reading.borrow_mut() = Reading::new(new_fold());
        *redactor.borrow_mut() = call.host.stream_redactor();
    };
    let sent = send(call, &request, ErrorKind::Llm, Transport::Stream { chunk: &chunk, restart: &restart }).await;
    detail["attempts"] = json!(sent.attempts);
    let resp = sent.result.map_err(|(kind, message)| call.error(kind, message))?;
    let mut reading = reading.into_inner();
    for text in reading.push_end() {
        show(&text);
    }
    let mut redactor = redactor.into_inner();
    let rest = redactor.finish();
    if !rest.is_empty() {
        call.host.llm_delta(&call.name, &rest);
    }
    // A server that ignores `stream` answers with one JSON reply.
    let reply = if reading.events == 0 { (ask.read)(&resp.body) } else { reading.result() };
    match reply {
        Ok(mut reply) => {
            clean_reply(&redactor, &mut reply);
            Ok(reply)
        }
        Err(message) => Err(llm_error(redactor.clean(&message))),
    }
}

/// `reply` with the keys of `redactor` removed from its text, calls and answer.
fn clean_reply(redactor: &StreamRedactor, reply: &mut ChatReply) {
    redactor.clean_value(&mut reply.content);
    for c in &mut reply.tool_calls {
        c.id = redactor.clean(&c.id);
        c.name = redactor.clean(&c.name);
        redactor.clean_value(&mut c.arguments);
    }
    if let Some(s) = reply.structured.as_mut() {
        redactor.clean_value(s);
    }
}

/// A streamed reply being read.
struct Reading {
    parser: SseParser,
    fold: Box<dyn StreamFold>,
    events: usize,
    error: Option<String>,
}

impl Reading {
    fn new(fold: Box<dyn StreamFold>) -> Reading {
        Reading { parser: SseParser::new(), fold, events: 0, error: None }
    }

    /// Reads a piece of the body; the text the reply gained.
    fn push(&mut self, piece: &str) -> Vec<String> {
        let events = self.parser.push(piece);
        self.take(events)
    }

    /// Reads what is left once the body has ended.
    fn push_end(&mut self) -> Vec<String> {
        let events = self.parser.finish();
        self.take(events)
    }

    fn take(&mut self, events: Vec<SseEvent>) -> Vec<String> {
        let mut texts = Vec::new();
        for e in events {
            self.events += 1;
            if self.error.is_some() {
                continue;
            }
            match self.fold.event(&e) {
                Ok(Some(t)) if !t.is_empty() => texts.push(t),
                Ok(_) => {}
                Err(message) => self.error = Some(message),
            }
        }
        texts
    }

    fn result(mut self) -> Result<ChatReply, String> {
        match self.error.take() {
            Some(e) => Err(e),
            None => self.fold.finish(),
        }
    }
}

/// Reads tool call arguments given as JSON text (as OpenAI and streamed Anthropic replies
/// do): an object, or nothing at all.
pub(super) fn arguments_from_text(name: &str, text: &str) -> Result<Value, String> {
    if text.trim().is_empty() {
        return Ok(Value::Object(Map::new()));
    }
    match serde_json::from_str::<Value>(text) {
        Ok(v @ Value::Object(_)) => Ok(v),
        _ => Err(format!("the model called `{name}` with arguments that are not a JSON object: {}", super::cut(text))),
    }
}
