//! Nodes that reach outside the engine: `llm` and `http`.
//!
//! The engine renders every request itself and hands it to the [`Host`]; the host only sends
//! it (and adds credentials for model calls). Timeouts race the request against the host's
//! clock, and `retry` re-sends with a doubling backoff. Each node's rendered request and the
//! reply are kept in the step's `details`, which is what an editor shows for the node.
//!
//! The executor calls in with an [`EffectCall`]: the node, the step's scope, the host and the
//! run's [`Deadline`], all an effect may use of the run. An effect answers with an
//! [`Effect`], which the executor turns into the node's outcome.

use futures_util::future::{Either, select};
use serde_json::{Map, Value, json};

use crate::document::{EffectiveLimits, Parse, Provider};
use crate::host::{Auth, Host, HttpFailure, HttpRequest, HttpResponse, LocalBoxFuture};
use crate::plan::{Body, HttpOp, JsonTemplate, LlmOp, PlanNode};
use crate::run::errors::{ErrorKind, NodeError};
use crate::script::{Ctx, EvalError, Guard, Scripting, Template};
use crate::update::Update;

/// How much of a reply an error message quotes.
const EXCERPT_CHARS: usize = 200;
/// The default pause before the first retry when `retry.backoff_ms` is not given.
const DEFAULT_BACKOFF_MS: u64 = 500;
/// The model used when an `openai` node names none.
const DEFAULT_MODEL: &str = "gpt-4o-mini";
const DEFAULT_OPENAI_BASE: &str = "https://api.openai.com/v1";

/// What an effectful node gets from the run that executes it.
pub(crate) struct EffectCall<'a> {
    /// The node being run.
    pub node: &'a PlanNode,
    /// The plan's expression engine, for the node's templates.
    pub scripting: &'a Scripting,
    /// The step's scope: `state`, `input`, `outputs`, `errors`, `step`.
    pub ctx: &'a Ctx,
    pub host: &'a dyn Host,
    pub deadline: Deadline,
    /// How many times the node ran before: a mock model answers in turn.
    pub turn: u64,
}

impl EffectCall<'_> {
    /// Renders template `t` of field `field`.
    fn render(&self, field: &str, t: &Template) -> Result<String, NodeError> {
        self.scripting.render(t, self.ctx).map_err(|e| NodeError::expression(&self.node.id, field, e))
    }

    /// How long the node may take from now (see [`Deadline::budget`]).
    pub(crate) fn budget(&self) -> (u64, bool) {
        self.deadline.budget(self.node, self.host.now_ms())
    }

    /// An error of `kind` in this node.
    pub(crate) fn error(&self, kind: ErrorKind, message: impl std::fmt::Display) -> NodeError {
        NodeError::in_node(&self.node.id, kind, message)
    }
}

/// The run's time limits as a step sees them: effects respect the run timeout within a step,
/// not only between steps.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Deadline {
    /// The graph's `node_timeout_ms`, for nodes without their own `timeout_ms`.
    pub node_timeout_ms: u64,
    pub run_timeout_ms: u64,
    /// Time the run had spent in steps before this one.
    pub used_ms: f64,
    /// When this step began, on the host's clock.
    pub step_started_ms: f64,
}

impl Deadline {
    /// The deadline of a step that began at `step_started_ms`, after `used_ms` of earlier
    /// steps.
    pub(crate) fn new(limits: &EffectiveLimits, used_ms: f64, step_started_ms: f64) -> Deadline {
        Deadline {
            node_timeout_ms: limits.node_timeout_ms,
            run_timeout_ms: limits.run_timeout_ms,
            used_ms,
            step_started_ms,
        }
    }

    /// How long `node` may take at `now_ms`: its own `timeout_ms` (or the graph's
    /// `node_timeout_ms`), and never past the run's `run_timeout_ms`. The flag says whether
    /// the run's limit is the tighter one.
    pub(crate) fn budget(&self, node: &PlanNode, now_ms: f64) -> (u64, bool) {
        let own = node.timeout_ms.unwrap_or(self.node_timeout_ms);
        let used = self.used_ms + (now_ms - self.step_started_ms).max(0.0);
        let left = (self.run_timeout_ms as f64 - used).max(0.0) as u64;
        if left < own { (left, true) } else { (own, false) }
    }

    /// Sets the sandbox's deadline for what is evaluated next: node `node`'s expressions
    /// (its own timeout, or the graph's `node_timeout_ms`, from the step's start), or with no
    /// node the step's routing; never past the run's `run_timeout_ms`. Without a clock from
    /// the host, evaluations have no deadline. (The clock is not read here, so that a fake
    /// clock advances as it did before.)
    pub(crate) fn arm(&self, guard: &Guard, host: &dyn Host, node: Option<&PlanNode>) {
        let Some(clock) = host.clock() else {
            guard.clear();
            return;
        };
        let run_left = (self.run_timeout_ms as f64 - self.used_ms).max(0.0);
        let own = node.map(|n| n.timeout_ms.unwrap_or(self.node_timeout_ms) as f64);
        let why = match (node, own) {
            (Some(n), Some(own)) if own <= run_left => format!("node `{}` took longer than {own} ms", n.id),
            _ => format!("the run's time limit passed (run_timeout_ms {})", self.run_timeout_ms),
        };
        let ms = own.map_or(run_left, |o| o.min(run_left));
        guard.set(Some(clock), self.step_started_ms + ms, why);
    }

    /// Milliseconds left of the run's `run_timeout_ms` at `now_ms`.
    pub(crate) fn run_left_ms(&self, now_ms: f64) -> f64 {
        let used = self.used_ms + (now_ms - self.step_started_ms).max(0.0);
        (self.run_timeout_ms as f64 - used).max(0.0)
    }

    /// Why `what` was stopped after `ms`: its own timeout, or the run's (`run_limit`).
    pub(crate) fn timeout_message(&self, what: &str, ms: u64, run_limit: bool) -> String {
        if run_limit {
            format!("{what} was cut off by the run's time limit (run_timeout_ms {})", self.run_timeout_ms)
        } else {
            format!("{what} took longer than {ms} ms")
        }
    }
}

/// What an effect produced: an update or an error, and what it sent and received.
pub(crate) struct Effect {
    pub result: Result<Update, NodeError>,
    pub detail: Option<Value>,
}

impl Effect {
    fn failed(error: NodeError, detail: Option<Value>) -> Effect {
        Effect { result: Err(error), detail }
    }

    /// `value` written to field `writes`.
    fn writes(writes: &str, value: Value, detail: Value) -> Effect {
        let mut update = Update::with_capacity(1);
        update.insert(writes.to_string(), value);
        Effect { result: Ok(update), detail: Some(detail) }
    }
}

impl From<NodeError> for Effect {
    fn from(error: NodeError) -> Effect {
        Effect::failed(error, None)
    }
}

/// A node's `retry`: how many attempts, and the pause before the next one, doubling.
pub(crate) struct Retries {
    pub attempts: u32,
    pause_ms: u64,
}

impl Retries {
    pub(crate) fn of(node: &PlanNode) -> Retries {
        Retries {
            attempts: node.retry.as_ref().map_or(1, |r| r.attempts.max(1)),
            pause_ms: node.retry.as_ref().and_then(|r| r.backoff_ms).unwrap_or(DEFAULT_BACKOFF_MS),
        }
    }

    /// The pause before the next attempt.
    pub(crate) fn next_pause_ms(&self) -> u64 {
        self.pause_ms
    }

    /// Waits before the next attempt; the wait after it is twice as long.
    pub(crate) async fn pause(&mut self, host: &dyn Host) {
        host.sleep(self.pause_ms).await;
        self.pause_ms = self.pause_ms.saturating_mul(2);
    }
}

/// The first [`EXCERPT_CHARS`] characters of `text`, trimmed, for an error message.
fn cut(text: &str) -> String {
    let t = text.trim();
    if t.chars().count() > EXCERPT_CHARS {
        format!("{}…", t.chars().take(EXCERPT_CHARS).collect::<String>())
    } else {
        t.to_string()
    }
}

/// The result of sending a request, attempts included.
struct Sent {
    result: Result<HttpResponse, (ErrorKind, String)>,
    attempts: u32,
}

/// Sends `request`, racing each attempt against the node's timeout and retrying failures
/// (no answer, a timeout, or a status that is not 2xx) as `retry` allows.
async fn send(call: &EffectCall<'_>, request: &HttpRequest, failure_kind: ErrorKind) -> Sent {
    let mut retries = Retries::of(call.node);
    let attempts = retries.attempts;
    let mut last = Err((failure_kind, String::new()));
    let mut made = 0;
    let mut cut_short = false;
    for attempt in 1..=attempts {
        if attempt > 1 {
            // A back-off that would outlive the run is not waited out: the run would be
            // over before the next attempt could start.
            if retries.next_pause_ms() as f64 >= call.deadline.run_left_ms(call.host.now_ms()) {
                cut_short = true;
                break;
            }
            retries.pause(call.host).await;
        }
        made = attempt;
        let (timeout, run_limit) = call.budget();
        let what = || format!("{} {}", request.method, request.url);
        if run_limit && timeout == 0 {
            last = Err((ErrorKind::Timeout, call.deadline.timeout_message(&what(), 0, true)));
            break;
        }
        last = match send_once(call, request, timeout).await {
            Ok(resp) if (200..300).contains(&resp.status) => {
                return Sent { result: Ok(resp), attempts: made };
            }
            Ok(resp) => Err((failure_kind, format!("{} answered HTTP {}: {}", what(), resp.status, cut(&resp.body)))),
            Err(f) if f.timed_out => {
                Err((ErrorKind::Timeout, call.deadline.timeout_message(&what(), timeout, run_limit)))
            }
            Err(f) => Err((failure_kind, format!("{} failed: {}", what(), f.message))),
        };
    }
    let result = last.map_err(|(kind, message)| {
        let message = if cut_short {
            format!(
                "{message} ({made} of {attempts} attempts made: the run's time limit, run_timeout_ms {}, leaves no time for the next)",
                call.deadline.run_timeout_ms
            )
        } else if made > 1 {
            format!("{message} (after {made} attempts)")
        } else {
            message
        };
        (kind, message)
    });
    Sent { result, attempts: made }
}

/// One attempt: the host's reply, or a timeout after `timeout` ms.
async fn send_once(call: &EffectCall<'_>, request: &HttpRequest, timeout: u64) -> Result<HttpResponse, HttpFailure> {
    let mut request = request.clone();
    request.timeout_ms = timeout;
    let reply: LocalBoxFuture<'_, Result<HttpResponse, HttpFailure>> = call.host.http(request);
    match select(reply, call.host.sleep(timeout)).await {
        Either::Left((r, _)) => r,
        Either::Right(((), _)) => Err(HttpFailure { message: String::new(), timed_out: true }),
    }
}

/// An `llm` node: renders its prompts, asks the model, and writes the reply (parsed as
/// `parse` says) to `writes`.
pub(crate) async fn llm(call: &EffectCall<'_>, op: &LlmOp) -> Effect {
    let prompt = match call.render("prompt", &op.prompt) {
        Ok(p) => p,
        Err(e) => return e.into(),
    };
    let system = match op.system.as_ref().map(|t| call.render("system", t)).transpose() {
        Ok(s) => s,
        Err(e) => return e.into(),
    };
    let mut detail = json!({ "provider": provider_name(op.model.provider), "prompt": prompt });
    if let Some(sys) = &system {
        detail["system"] = json!(sys);
    }
    let reply = match op.model.provider {
        Provider::Mock => mock_reply(call, op, &mut detail),
        // PLACEHOLDER (issue 12): the Anthropic provider is being built.
        Provider::Anthropic => return call.error(ErrorKind::Llm, "the anthropic provider is not built yet").into(),
        Provider::Openai => match openai_reply(call, op, system.as_deref(), &prompt, &mut detail).await {
            Ok(reply) => reply,
            Err(error) => return Effect::failed(error, Some(detail)),
        },
    };
    detail["response"] = reply.clone();
    match parse_reply(op.parse, reply) {
        Ok(value) => Effect::writes(&op.writes, value, detail),
        Err(message) => Effect::failed(call.error(ErrorKind::Llm, message), Some(detail)),
    }
}

/// A mock model answers from `responses` in turn, by how many times the node has run:
/// deterministic, and the same after a resume or a fork.
fn mock_reply(call: &EffectCall<'_>, op: &LlmOp, detail: &mut Value) -> Value {
    let responses = op.model.responses.as_deref().unwrap_or_default();
    let turn = call.turn as usize;
    detail["turn"] = json!(turn);
    if responses.is_empty() { json!("") } else { responses[turn % responses.len()].clone() }
}

/// Asks an OpenAI-compatible chat-completions server; the reply's text.
async fn openai_reply(
    call: &EffectCall<'_>,
    op: &LlmOp,
    system: Option<&str>,
    prompt: &str,
    detail: &mut Value,
) -> Result<Value, NodeError> {
    let model = op.model.model.clone().unwrap_or_else(|| DEFAULT_MODEL.into());
    let base = op.model.base_url.clone().unwrap_or_else(|| DEFAULT_OPENAI_BASE.into());
    let url = format!("{}/chat/completions", base.trim_end_matches('/'));
    let mut messages = Vec::new();
    if let Some(sys) = system {
        messages.push(json!({"role": "system", "content": sys}));
    }
    messages.push(json!({"role": "user", "content": prompt}));
    let mut body = json!({ "model": model, "messages": messages });
    if let Some(t) = op.model.temperature {
        body["temperature"] = json!(t);
    }
    // The key goes only to an origin the host trusts with it (spec 8).
    let auth = match call.host.key_allowed(Auth::OpenAi, &url) {
        Ok(()) => Some(Auth::OpenAi),
        Err(why) => {
            detail["auth"] = json!(format!("no key sent: {why}"));
            None
        }
    };
    let request = HttpRequest {
        method: "POST".into(),
        url: url.clone(),
        headers: vec![("content-type".into(), "application/json".into())],
        body: Some(body.to_string()),
        timeout_ms: call.budget().0,
        auth,
    };
    detail["model"] = json!(model);
    detail["url"] = json!(url);
    let sent = send(call, &request, ErrorKind::Llm).await;
    detail["attempts"] = json!(sent.attempts);
    let resp = sent.result.map_err(|(kind, message)| call.error(kind, message))?;
    let content = serde_json::from_str::<Value>(&resp.body)
        .ok()
        .and_then(|v| v["choices"][0]["message"]["content"].as_str().map(str::to_string));
    content.map(Value::String).ok_or_else(|| {
        let message = format!("the model server's reply has no choices[0].message.content: {}", cut(&resp.body));
        call.error(ErrorKind::Llm, message)
    })
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

fn provider_name(p: Provider) -> &'static str {
    p.name()
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

/// An `http` node: renders and sends its request, and writes the reply (parsed as `parse`
/// says) to `writes`.
pub(crate) async fn http(call: &EffectCall<'_>, op: &HttpOp) -> Effect {
    let request = match http_request(call, op) {
        Ok(r) => r,
        Err(e) => return e.into(),
    };
    let mut detail = json!({ "request": {
        "method": request.method, "url": request.url,
        "headers": request.headers.iter().map(|(k, v)| (k.clone(), json!(v))).collect::<Map<String, Value>>(),
        "body": request.body,
    }});
    let sent = send(call, &request, ErrorKind::Http).await;
    detail["attempts"] = json!(sent.attempts);
    let resp = match sent.result {
        Ok(r) => r,
        Err((kind, message)) => return Effect::failed(call.error(kind, message), Some(detail)),
    };
    detail["status"] = json!(resp.status);
    detail["response"] = json!(cut(&resp.body));
    let value = match op.parse {
        Parse::Text => Value::String(resp.body),
        Parse::Json if resp.body.trim().is_empty() => Value::Null,
        Parse::Json => match serde_json::from_str(&resp.body) {
            Ok(v) => v,
            Err(e) => {
                let message = format!(
                    "{} {} answered with something that is not JSON ({e}): {}",
                    request.method,
                    request.url,
                    cut(&resp.body)
                );
                return Effect::failed(call.error(ErrorKind::Http, message), Some(detail));
            }
        },
    };
    Effect::writes(&op.writes, value, detail)
}

/// The `http` node's request, rendered: url, headers and body.
fn http_request(call: &EffectCall<'_>, op: &HttpOp) -> Result<HttpRequest, NodeError> {
    let url = call.render("url", &op.url)?;
    let mut headers = Vec::new();
    for (name, t) in &op.headers {
        headers.push((name.clone(), call.render(&format!("headers.{name}"), t)?));
    }
    let body = match &op.body {
        None => None,
        Some(Body::Text(t)) => Some(call.render("body", t)?),
        Some(Body::Json(t)) => {
            let v = render_json(call.scripting, t, call.ctx)
                .map_err(|e| NodeError::expression(&call.node.id, "body", e))?;
            if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("content-type")) {
                headers.push(("content-type".into(), "application/json".into()));
            }
            Some(v.to_string())
        }
    };
    Ok(HttpRequest { method: op.method.clone(), url, headers, body, timeout_ms: call.budget().0, auth: None })
}

/// JSON whose strings are templates. A string that is a single `{{ }}` hole takes the
/// expression's value as it is (a list stays a list); other strings are rendered as text.
fn render_json(s: &Scripting, t: &JsonTemplate, ctx: &Ctx) -> Result<Value, EvalError> {
    Ok(match t {
        JsonTemplate::Literal(v) => v.clone(),
        JsonTemplate::Text(tpl) => match tpl.single_hole() {
            Some(e) => s.eval_json(e, ctx)?,
            None => Value::String(s.render(tpl, ctx)?),
        },
        JsonTemplate::List(items) => {
            Value::Array(items.iter().map(|i| render_json(s, i, ctx)).collect::<Result<_, _>>()?)
        }
        JsonTemplate::Object(fields) => {
            let mut m = Map::new();
            for (k, v) in fields {
                m.insert(k.clone(), render_json(s, v, ctx)?);
            }
            Value::Object(m)
        }
    })
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
