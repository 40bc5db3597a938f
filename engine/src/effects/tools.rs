//! The `tools` node (format.md §4 (llm, tools) and §8): every tool call of the last assistant message of its
//! `messages` field runs at the same time; one `tool` message per call comes back, in call
//! order, with the result as JSON text. A call to an unknown tool, with arguments that do not
//! match the tool's `parameters`, or whose tool fails, is answered `error: <reason>` so that
//! the model can correct itself, or fails the node when it sets `on_error: fail`. When the
//! last message is not an assistant message with tool calls, the node writes nothing.
//!
//! A tool that `use`s a definition runs it through [`RunDefinition`], which the executor
//! gives: runs belong to the `run` module, which calls in here. An MCP tool is called in the
//! run's session with its server (`effects/mcp`); its tool message is the result's text.

use std::rc::Rc;

use futures_util::future::join_all;
use serde_json::{Map, Value, json};

use super::http::render_request;
use super::mcp;
use super::send::send_taped;
use super::{Effect, EffectCall, checked};
use crate::host::LocalBoxFuture;
use crate::plan::{Plan, PlanTool, ToolRunOp, ToolsOp, UseOp};
use crate::record::{ErrorKind, NodeError, Usage};
use crate::script::{Ctx, EvalError, Expr, from_dynamic, to_dynamic};
use crate::update::Update;

/// One call of the assistant message.
struct Call<'a> {
    id: &'a str,
    name: &'a str,
    arguments: &'a Value,
}

/// Why a call failed, and the kind of node error it is under `on_error: fail`.
pub(crate) struct Failure {
    pub kind: ErrorKind,
    pub reason: String,
}

/// What a definition run for a tool call gave: its final state, or why it did not complete;
/// and its run's summary (status, state, error, usage), kept in the call's details.
pub(crate) struct DefinitionRun {
    pub result: Result<Value, Failure>,
    pub record: Value,
}

/// Runs definition `name` (compiled as `plan`) to its end with `input`, for a tool call of
/// `call`'s node.
pub(crate) trait RunDefinition {
    fn run_definition<'a>(
        &'a self,
        call: &'a EffectCall<'a>,
        name: &'a str,
        plan: &'a Rc<Plan>,
        input: &'a Value,
    ) -> LocalBoxFuture<'a, DefinitionRun>;
}

/// One call's outcome: its result or failure, its definition run's summary (a `use` tool),
/// and how long it took.
struct Ran {
    result: Result<Value, Failure>,
    run: Option<Value>,
    ms: f64,
    /// An MCP tool's call: the tool message's text (not JSON) and its details.
    mcp: Option<(Option<String>, Map<String, Value>)>,
}

/// A `tools` node, given the last message of its field (if any); `defs` runs the
/// definitions tools use.
pub(crate) async fn tools<'a>(
    call: &'a EffectCall<'a>,
    op: &'a ToolsOp,
    last: Option<Value>,
    defs: &'a dyn RunDefinition,
) -> Effect {
    let calls = last.as_ref().map(calls_of).unwrap_or_default();
    if calls.is_empty() {
        let detail = json!({ "calls": [], "note": format!("the last message of `{}` has no tool calls", op.field) });
        return Effect { result: Ok(Update::new()), detail: Some(detail) };
    }
    // The calls run at once, like a map edge's instances, and are held to the same ceiling.
    if calls.len() as u64 > call.max_fanout {
        let message = format!(
            "the last message of `{}` asks for {} tool calls, over max_fanout ({} at once)",
            op.field,
            calls.len(),
            call.max_fanout
        );
        return Effect::failed(call.error(ErrorKind::Limit, message), None);
    }
    let results = join_all(calls.iter().map(|c| run_call(call, op, c, defs))).await;
    let mut detail_calls = Vec::with_capacity(calls.len());
    let mut replies = Vec::with_capacity(calls.len());
    let mut first_failure = None;
    let mut usage = Usage::default();
    for (k, (c, ran)) in calls.iter().zip(results).enumerate() {
        let mut d = json!({ "id": c.id, "name": c.name, "arguments": c.arguments, "duration_ms": ran.ms });
        if let Some(record) = ran.run {
            usage.add_detail(&record);
            d["run"] = record;
        }
        let mut mcp_text = None;
        if let Some((text, detail)) = ran.mcp {
            mcp_text = text;
            d.as_object_mut().expect("an object").extend(detail);
        }
        let content = match ran.result {
            // An MCP tool's result is its text; others are JSON text.
            Ok(value) => {
                let text = mcp_text.unwrap_or_else(|| value.to_string());
                d.as_object_mut().expect("an object").entry("result").or_insert(value);
                text
            }
            Err(f) => {
                d["error"] = json!(f.reason);
                let text = format!("error: {}", f.reason);
                first_failure.get_or_insert((k, f));
                text
            }
        };
        detail_calls.push(d);
        replies.push(json!({ "role": "tool", "tool_call_id": c.id, "name": c.name, "content": content }));
    }
    let mut detail = json!({ "calls": detail_calls });
    // Model calls inside the definitions count in the run's usage.
    if !usage.is_zero() {
        detail["usage"] = json!(usage);
    }
    if op.fail
        && let Some((k, f)) = first_failure
    {
        let c = &calls[k];
        let message = format!("tool call {} (`{}`, id {}): {}", k + 1, c.name, c.id, f.reason);
        return Effect::failed(call.error(f.kind, message), Some(detail));
    }
    Effect::writes(&op.field, Value::Array(replies), detail)
}

/// The tool calls of `last` when it is an assistant message that has some.
fn calls_of(last: &Value) -> Vec<Call<'_>> {
    if last.get("role").and_then(Value::as_str) != Some("assistant") {
        return Vec::new();
    }
    last.get("tool_calls")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|c| Call {
            id: c.get("id").and_then(Value::as_str).unwrap_or_default(),
            name: c.get("name").and_then(Value::as_str).unwrap_or_default(),
            arguments: c.get("arguments").unwrap_or(&Value::Null),
        })
        .collect()
}

/// Runs one call: its result, or why it failed, and how long it took.
async fn run_call<'a>(call: &'a EffectCall<'a>, op: &'a ToolsOp, c: &'a Call<'a>, defs: &'a dyn RunDefinition) -> Ran {
    let t0 = call.host.now_ms();
    let tool = op.tools.iter().find(|t| t.spec.name == c.name);
    let checked = match tool {
        None => Err(Failure { kind: ErrorKind::Type, reason: format!("unknown tool `{}`", c.name) }),
        Some(tool) => check_arguments(call, tool, c.arguments).map(|()| tool),
    };
    let (result, run, mcp) = match checked {
        Err(f) => (Err(f), None, None),
        Ok(PlanTool { run: ToolRunOp::Mcp(mcp), .. }) => {
            let done = mcp::call_tool(call, mcp, c.arguments).await;
            let text = done.outcome.as_ref().ok().cloned();
            let result = done.outcome.map(Value::String).map_err(|f| Failure { kind: f.kind, reason: f.reason });
            (result, None, Some((text, done.detail)))
        }
        Ok(tool) => {
            let (result, run) = run_tool(call, tool, c.arguments, defs).await;
            (result, run, None)
        }
    };
    Ran { result, run, ms: (call.host.now_ms() - t0).max(0.0), mcp }
}

/// The arguments against the tool's `parameters`.
fn check_arguments(call: &EffectCall<'_>, tool: &PlanTool, arguments: &Value) -> Result<(), Failure> {
    let name = &tool.spec.name;
    if !arguments.is_object() {
        return Err(Failure { kind: ErrorKind::Type, reason: format!("the arguments of `{name}` must be an object") });
    }
    let Some(schema) = &tool.parameters else { return Ok(()) };
    let mismatch = format!("the arguments do not match the parameters of `{name}`");
    let what = format!("checking the arguments of `{name}` against its parameters");
    checked::check(call, schema, arguments, ErrorKind::Type, &mismatch, &what)
        .map_err(|(kind, reason)| Failure { kind, reason })
}

/// Runs a tool: its script's value, its request's reply (JSON when it is JSON, else text), or
/// its definition's final state (with that run's summary).
async fn run_tool<'a>(
    call: &'a EffectCall<'a>,
    tool: &'a PlanTool,
    arguments: &'a Value,
    defs: &'a dyn RunDefinition,
) -> (Result<Value, Failure>, Option<Value>) {
    if let ToolRunOp::Use(op) = &tool.run {
        let input = match use_input(call, op, arguments) {
            Ok(i) => i,
            Err(e) => return (Err(e), None),
        };
        let ran = defs.run_definition(call, &op.name, &op.plan, &input).await;
        let result = ran.result.and_then(|state| use_result(call, op, arguments, state));
        return (result, Some(ran.record));
    }
    (script_or_http(call, tool, arguments).await, None)
}

/// A `use` tool's input for its definition: its `inputs` evaluated with `args` in scope, or
/// the arguments as they are.
fn use_input(call: &EffectCall<'_>, op: &UseOp, arguments: &Value) -> Result<Value, Failure> {
    let Some(inputs) = &op.inputs else { return Ok(arguments.clone()) };
    let ctx = call.ctx.with("args", to_dynamic(arguments));
    eval_map(call, &ctx, inputs, "inputs", &op.name)
}

/// A `use` tool's result: its `outputs` evaluated over the definition's final state as
/// `result`, or that state.
fn use_result(call: &EffectCall<'_>, op: &UseOp, arguments: &Value, state: Value) -> Result<Value, Failure> {
    let Some(outputs) = &op.outputs else { return Ok(state) };
    let ctx = call.ctx.with("args", to_dynamic(arguments)).with("result", to_dynamic(&state));
    eval_map(call, &ctx, outputs, "outputs", &op.name)
}

/// `{key: expression}` evaluated into an object; a failing expression names its key.
fn eval_map(
    call: &EffectCall<'_>,
    ctx: &Ctx,
    exprs: &[(String, Expr)],
    what: &str,
    name: &str,
) -> Result<Value, Failure> {
    let mut out = Map::with_capacity(exprs.len());
    for (key, e) in exprs {
        let v = call.scripting.eval_json(e, ctx).map_err(|err| Failure {
            kind: ErrorKind::of_eval(&err),
            reason: format!("`{what}.{key}` of the tool running definition `{name}`: {err}"),
        })?;
        out.insert(key.clone(), v);
    }
    Ok(Value::Object(out))
}

/// Runs a `script` or `http` tool.
async fn script_or_http(call: &EffectCall<'_>, tool: &PlanTool, arguments: &Value) -> Result<Value, Failure> {
    let ctx = call.ctx.with("args", to_dynamic(arguments));
    let name = &tool.spec.name;
    match &tool.run {
        ToolRunOp::Script(expr) => {
            let failed = |e: EvalError| Failure {
                kind: ErrorKind::of_eval(&e),
                reason: format!("the script of `{name}` failed: {e}"),
            };
            let value = call.scripting.eval(expr, &ctx).map_err(failed)?;
            from_dynamic(&value).map_err(|e| failed(e.into()))
        }
        ToolRunOp::Http(request) => {
            let prefix = format!("tools.{name}.run.http.");
            let request = render_request(call, &ctx, request, &prefix)
                .map_err(|e: NodeError| Failure { kind: e.kind, reason: e.message })?;
            let sent = send_taped(call, &request, ErrorKind::Http).await;
            let resp = sent.result.map_err(|(kind, reason)| Failure { kind, reason })?;
            Ok(serde_json::from_str(&resp.body).unwrap_or(Value::String(resp.body)))
        }
        // Run by `run_call`, which keeps an MCP call's text and details.
        ToolRunOp::Mcp(op) => {
            Err(Failure { kind: ErrorKind::Type, reason: format!("`{}` runs on an MCP server", op.tool) })
        }
        // Run by `run_tool`, which owns the definitions' runs.
        ToolRunOp::Use(op) => {
            Err(Failure { kind: ErrorKind::Type, reason: format!("`{}` runs a definition", op.name) })
        }
    }
}
