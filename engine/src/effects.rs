//! Nodes that reach outside the engine: `llm`, `http` and `subgraph`.
//!
//! The engine renders every request itself and hands it to the [`Host`]; the host only sends
//! it (and adds credentials for model calls). Timeouts race the request against the host's
//! clock, and `retry` re-sends with a doubling backoff. Each node's rendered request and the
//! reply are kept in the step's `details`, which is what an editor shows for the node.

use futures_util::future::{Either, select};
use serde_json::{Map, Value, json};

use crate::document::{Parse, Provider};
use crate::host::{Auth, Host, HttpFailure, HttpRequest, HttpResponse, LocalBoxFuture};
use crate::plan::{Body, HttpOp, JsonTemplate, LlmOp, Op, PlanNode, SubgraphOp};
use crate::run::{ErrorKind, NodeError, Outcome, Route, Run, Status, Waiting};
use crate::script::{Ctx, EvalError, Scripting, to_dynamic};
use crate::update::Update;

/// How much of a reply an error message quotes.
const EXCERPT_CHARS: usize = 200;
/// The default pause before the first retry when `retry.backoff_ms` is not given.
const DEFAULT_BACKOFF_MS: u64 = 500;
/// The model used when an `openai` node names none.
const DEFAULT_MODEL: &str = "gpt-4o-mini";
const DEFAULT_OPENAI_BASE: &str = "https://api.openai.com/v1";

pub(crate) async fn exec(run: &Run, ix: usize, ctx: &Ctx, host: &dyn Host) -> Outcome {
    let node = run.plan.node(ix);
    match &node.op {
        Op::Llm(op) => llm(run, ix, node, op, ctx, host).await,
        Op::Http(op) => http(run, node, op, ctx, host).await,
        Op::Subgraph(op) => subgraph(run, ix, node, op, ctx, host).await,
        _ => failed(node, ErrorKind::Expression, format!("`{}` is not an effectful node", node.kind.name()), None),
    }
}

fn failed(node: &PlanNode, kind: ErrorKind, message: String, detail: Option<Value>) -> Outcome {
    Outcome::Failed { error: NodeError { kind, message: format!("node `{}`: {message}", node.id) }, detail }
}

fn render(
    s: &Scripting,
    node: &PlanNode,
    field: &str,
    t: &crate::script::Template,
    ctx: &Ctx,
) -> Result<String, Outcome> {
    s.render(t, ctx).map_err(|e| expr_failed(node, field, &e))
}

fn expr_error(node: &PlanNode, field: &str, e: &EvalError) -> NodeError {
    NodeError { kind: ErrorKind::Expression, message: format!("node `{}`, field `{field}`: {e}", node.id) }
}

fn expr_failed(node: &PlanNode, field: &str, e: &EvalError) -> Outcome {
    Outcome::Failed { error: expr_error(node, field, e), detail: None }
}

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
async fn send(run: &Run, node: &PlanNode, request: &HttpRequest, failure_kind: ErrorKind, host: &dyn Host) -> Sent {
    let attempts = node.retry.as_ref().map_or(1, |r| r.attempts.max(1));
    let mut backoff = node.retry.as_ref().and_then(|r| r.backoff_ms).unwrap_or(DEFAULT_BACKOFF_MS);
    let mut last = Err((failure_kind, String::new()));
    for attempt in 1..=attempts {
        if attempt > 1 {
            host.sleep(backoff).await;
            backoff = backoff.saturating_mul(2);
        }
        let (timeout, run_limit) = budget(run, node, host);
        if run_limit && timeout == 0 {
            let what = format!("{} {}", request.method, request.url);
            last = Err((ErrorKind::Timeout, timeout_message(run, &what, 0, true)));
            break;
        }
        let mut request = request.clone();
        request.timeout_ms = timeout;
        let reply: LocalBoxFuture<'_, Result<HttpResponse, HttpFailure>> = host.http(request.clone());
        let outcome = match select(reply, host.sleep(timeout)).await {
            Either::Left((r, _)) => r,
            Either::Right(((), _)) => Err(HttpFailure { message: String::new(), timed_out: true }),
        };
        last = match outcome {
            Ok(resp) if (200..300).contains(&resp.status) => {
                return Sent { result: Ok(resp), attempts: attempt };
            }
            Ok(resp) => Err((
                failure_kind,
                format!("{} {} answered HTTP {}: {}", request.method, request.url, resp.status, cut(&resp.body)),
            )),
            Err(f) if f.timed_out => {
                let what = format!("{} {}", request.method, request.url);
                Err((ErrorKind::Timeout, timeout_message(run, &what, timeout, run_limit)))
            }
            Err(f) => Err((failure_kind, format!("{} {} failed: {}", request.method, request.url, f.message))),
        };
    }
    let result = last.map_err(|(kind, message)| {
        let message = if attempts > 1 { format!("{message} (after {attempts} attempts)") } else { message };
        (kind, message)
    });
    Sent { result, attempts }
}

/// How long a node may take: its own `timeout_ms` (or the graph's `node_timeout_ms`), and
/// never past the run's `run_timeout_ms`. The flag says whether the run's limit is the
/// tighter one.
fn budget(run: &Run, node: &PlanNode, host: &dyn Host) -> (u64, bool) {
    let own = node.timeout_ms.unwrap_or(run.plan.limits.node_timeout_ms);
    let used = run.active_ms + (host.now_ms() - run.step_started_ms.get()).max(0.0);
    let left = (run.plan.limits.run_timeout_ms as f64 - used).max(0.0) as u64;
    if left < own { (left, true) } else { (own, false) }
}

fn timeout_message(run: &Run, what: &str, ms: u64, run_limit: bool) -> String {
    if run_limit {
        format!("{what} was cut off by the run's time limit (run_timeout_ms {})", run.plan.limits.run_timeout_ms)
    } else {
        format!("{what} took longer than {ms} ms")
    }
}

async fn llm(run: &Run, ix: usize, node: &PlanNode, op: &LlmOp, ctx: &Ctx, host: &dyn Host) -> Outcome {
    let s = &run.plan.scripting;
    let prompt = match render(s, node, "prompt", &op.prompt, ctx) {
        Ok(p) => p,
        Err(o) => return o,
    };
    let system = match &op.system {
        Some(t) => match render(s, node, "system", t, ctx) {
            Ok(p) => Some(p),
            Err(o) => return o,
        },
        None => None,
    };
    let mut detail = json!({ "provider": provider_name(op.model.provider), "prompt": prompt });
    if let Some(sys) = &system {
        detail["system"] = json!(sys);
    }
    let reply: Value = match op.model.provider {
        Provider::Mock => {
            // Answers in turn, by how many times this node has run: deterministic, and the
            // same after a resume or a fork.
            let responses = op.model.responses.as_deref().unwrap_or_default();
            let turn = run.run_counts[ix] as usize;
            let reply = if responses.is_empty() { json!("") } else { responses[turn % responses.len()].clone() };
            detail["turn"] = json!(turn);
            reply
        }
        Provider::Openai => {
            let model = op.model.model.clone().unwrap_or_else(|| DEFAULT_MODEL.into());
            let base = op.model.base_url.clone().unwrap_or_else(|| DEFAULT_OPENAI_BASE.into());
            let url = format!("{}/chat/completions", base.trim_end_matches('/'));
            let mut messages = Vec::new();
            if let Some(sys) = &system {
                messages.push(json!({"role": "system", "content": sys}));
            }
            messages.push(json!({"role": "user", "content": prompt}));
            let mut body = json!({ "model": model, "messages": messages });
            if let Some(t) = op.model.temperature {
                body["temperature"] = json!(t);
            }
            let request = HttpRequest {
                method: "POST".into(),
                url: url.clone(),
                headers: vec![("content-type".into(), "application/json".into())],
                body: Some(body.to_string()),
                timeout_ms: budget(run, node, host).0,
                auth: Some(Auth::OpenAi),
            };
            detail["model"] = json!(model);
            detail["url"] = json!(url);
            let sent = send(run, node, &request, ErrorKind::Llm, host).await;
            detail["attempts"] = json!(sent.attempts);
            let resp = match sent.result {
                Ok(r) => r,
                Err((kind, message)) => return failed(node, kind, message, Some(detail)),
            };
            let content = serde_json::from_str::<Value>(&resp.body)
                .ok()
                .and_then(|v| v["choices"][0]["message"]["content"].as_str().map(str::to_string));
            match content {
                Some(c) => json!(c),
                None => {
                    return failed(
                        node,
                        ErrorKind::Llm,
                        format!("the model server's reply has no choices[0].message.content: {}", cut(&resp.body)),
                        Some(detail),
                    );
                }
            }
        }
    };
    detail["response"] = reply.clone();
    let value = match (op.parse, reply) {
        (Parse::Text, Value::String(s)) => Value::String(s),
        (Parse::Text, other) => Value::String(other.to_string()),
        (Parse::Json, Value::String(s)) => match parse_json_reply(&s) {
            Ok(v) => v,
            Err(e) => {
                return failed(
                    node,
                    ErrorKind::Llm,
                    format!("the model's reply is not JSON ({e}): {}", cut(&s)),
                    Some(detail),
                );
            }
        },
        (Parse::Json, other) => other,
    };
    let mut update = Update::with_capacity(1);
    update.insert(op.writes.clone(), value);
    Outcome::Update { update, route: Route::Normal, detail: Some(detail) }
}

fn provider_name(p: Provider) -> &'static str {
    match p {
        Provider::Mock => "mock",
        Provider::Openai => "openai",
    }
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

async fn http(run: &Run, node: &PlanNode, op: &HttpOp, ctx: &Ctx, host: &dyn Host) -> Outcome {
    let s = &run.plan.scripting;
    let url = match render(s, node, "url", &op.url, ctx) {
        Ok(u) => u,
        Err(o) => return o,
    };
    let mut headers = Vec::new();
    for (name, t) in &op.headers {
        match render(s, node, &format!("headers.{name}"), t, ctx) {
            Ok(v) => headers.push((name.clone(), v)),
            Err(o) => return o,
        }
    }
    let body = match &op.body {
        None => None,
        Some(Body::Text(t)) => match render(s, node, "body", t, ctx) {
            Ok(b) => Some(b),
            Err(o) => return o,
        },
        Some(Body::Json(t)) => match render_json(s, t, ctx) {
            Ok(v) => {
                if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("content-type")) {
                    headers.push(("content-type".into(), "application/json".into()));
                }
                Some(v.to_string())
            }
            Err(e) => return expr_failed(node, "body", &e),
        },
    };
    let request = HttpRequest {
        method: op.method.clone(),
        url,
        headers,
        body,
        timeout_ms: budget(run, node, host).0,
        auth: None,
    };
    let mut detail = json!({ "request": {
        "method": request.method, "url": request.url,
        "headers": request.headers.iter().map(|(k, v)| (k.clone(), json!(v))).collect::<Map<String, Value>>(),
        "body": request.body,
    }});
    let sent = send(run, node, &request, ErrorKind::Http, host).await;
    detail["attempts"] = json!(sent.attempts);
    let resp = match sent.result {
        Ok(r) => r,
        Err((kind, message)) => return failed(node, kind, message, Some(detail)),
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
                return failed(node, ErrorKind::Http, message, Some(detail));
            }
        },
    };
    let mut update = Update::with_capacity(1);
    update.insert(op.writes.clone(), value);
    Outcome::Update { update, route: Route::Normal, detail: Some(detail) }
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

/// Runs the embedded graph to completion as one node. If it stops for a human, the parent
/// waits too; the child's record is kept so the answer resumes it where it stopped. A child
/// that fails is retried from its last good step as `retry` allows, and the whole run is
/// bounded by the node's timeout.
async fn subgraph(run: &Run, ix: usize, node: &PlanNode, op: &SubgraphOp, ctx: &Ctx, host: &dyn Host) -> Outcome {
    let mut child = match start_child(run, ix, node, op, ctx, host) {
        Ok(c) => c,
        Err(o) => return o,
    };
    let attempts = node.retry.as_ref().map_or(1, |r| r.attempts.max(1));
    let mut backoff = node.retry.as_ref().and_then(|r| r.backoff_ms).unwrap_or(DEFAULT_BACKOFF_MS);
    let mut attempt = 1;
    loop {
        let (limit, run_limit) = budget(run, node, host);
        // Boxed: a subgraph's run is a run, so this future is recursive.
        let finished = {
            let child_run: LocalBoxFuture<'_, ()> = Box::pin(child.run(host));
            matches!(select(child_run, host.sleep(limit)).await, Either::Left(_))
        };
        let record = child.record(true);
        let detail = json!({ "subgraph": serde_json::to_value(&record).unwrap_or(Value::Null), "attempts": attempt });
        let (kind, message) = if !finished {
            (ErrorKind::Timeout, timeout_message(run, &format!("the subgraph `{}`", node.id), limit, run_limit))
        } else {
            match child.status() {
                Status::Completed => return finish_child(run, node, op, ctx, &child, detail),
                Status::Interrupted => {
                    let w = child.waiting().first().cloned();
                    let waiting = Waiting {
                        node: node.id.to_string(),
                        prompt: w.as_ref().map(|w| w.prompt.clone()).unwrap_or_default(),
                        options: w.and_then(|w| w.options),
                    };
                    return Outcome::Suspended { record: Box::new(record), waiting, detail };
                }
                status => match child.error() {
                    Some(e) => (
                        e.kind,
                        format!(
                            "the subgraph stopped ({}) at {}: {}",
                            status.name(),
                            e.node.as_deref().unwrap_or("its limit"),
                            e.message
                        ),
                    ),
                    None => (ErrorKind::Type, format!("the subgraph stopped ({})", status.name())),
                },
            }
        };
        if attempt >= attempts || !finished || child.status() != Status::Failed {
            let message = if attempt > 1 { format!("{message} (after {attempt} attempts)") } else { message };
            return failed(node, kind, message, Some(detail));
        }
        host.sleep(backoff).await;
        backoff = backoff.saturating_mul(2);
        attempt += 1;
        // Retry from the child's last good checkpoint: earlier steps are not run again.
        child.resume();
    }
}

/// The embedded run to drive: a waiting one resumed with its answer, or a fresh one.
fn start_child(
    run: &Run,
    ix: usize,
    node: &PlanNode,
    op: &SubgraphOp,
    ctx: &Ctx,
    host: &dyn Host,
) -> Result<Run, Outcome> {
    let suspended = run.suspended.borrow_mut().remove(&ix);
    if let Some(record) = suspended {
        let mut child = Run::from_record(op.plan.clone(), &record, host).map_err(|e| {
            failed(node, ErrorKind::Type, format!("the subgraph's saved run cannot be resumed: {e}"), None)
        })?;
        let answer = run.answers.get(&ix).cloned().unwrap_or(Value::Null);
        let Some(first) = child.waiting_for().into_iter().next() else {
            return Err(failed(node, ErrorKind::Type, "the subgraph was not waiting for an answer".into(), None));
        };
        child
            .answer(&first, answer)
            .map_err(|e| failed(node, ErrorKind::Type, format!("subgraph answer: {e}"), None))?;
        return Ok(child);
    }
    let s = &run.plan.scripting;
    let mut input = Map::new();
    for (field, e) in &op.inputs {
        let v = s.eval_json(e, ctx).map_err(|err| expr_failed(node, &format!("inputs.{field}"), &err))?;
        input.insert(field.clone(), v);
    }
    Run::start(op.plan.clone(), Value::Object(input), host)
        .map_err(|e| failed(node, ErrorKind::Type, format!("the subgraph's input: {e}"), None))
}

/// A completed child's `outputs`, evaluated over its final state.
fn finish_child(run: &Run, node: &PlanNode, op: &SubgraphOp, ctx: &Ctx, child: &Run, detail: Value) -> Outcome {
    let result = Value::Object(child.state_json());
    let with_result = ctx.with("result", to_dynamic(&result));
    let mut update = Update::with_capacity(op.outputs.len());
    for (field, e) in &op.outputs {
        match run.plan.scripting.eval_json(e, &with_result) {
            Ok(v) => update.insert(field.clone(), v),
            Err(err) => {
                return Outcome::Failed {
                    error: expr_error(node, &format!("outputs.{field}"), &err),
                    detail: Some(detail),
                };
            }
        }
    }
    Outcome::Update { update, route: Route::Normal, detail: Some(detail) }
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
