//! Runs on the wire: the `Run` object, and a run request's body (threaded or stateless) read
//! into a [`RunRequest`], refusing what LangGraph refuses with 422.

use serde_json::{Map, Value, json};

use crate::domain::{AssistantId, CheckpointId, MultitaskStrategy, Outcome, RunInfo, RunRequest, ThreadId};
use crate::graphs::{Graphs, LoadedGraph};
use crate::wire::message::values_from_wire;

/// The stream modes a client may ask for.
pub const STREAM_MODES: &[&str] =
    &["values", "updates", "debug", "messages", "messages-tuple", "tasks", "checkpoints", "events", "custom"];

/// The `Run` object.
pub fn run(r: &RunInfo) -> Value {
    json!({
        "run_id": r.run_id,
        "thread_id": r.thread_id,
        "assistant_id": r.assistant_id,
        "status": r.status.as_str(),
        "metadata": r.metadata,
        "kwargs": r.kwargs,
        "multitask_strategy": r.multitask_strategy.as_str(),
        "created_at": r.created_at,
        "updated_at": r.updated_at,
    })
}

/// What `wait` and `join` answer: the values with the pending interrupts, or the error.
pub fn outcome(o: &Outcome, message_fields: &[String]) -> Value {
    if let Some((error, message)) = &o.error {
        return json!({"__error__": {"error": error, "message": message}});
    }
    let mut values = crate::wire::message::values_to_wire(&o.values, message_fields);
    if !o.interrupts.is_empty() {
        values.insert("__interrupt__".into(), json!(o.interrupts));
    }
    Value::Object(values)
}

/// A run body read: the request, the graph it runs and the stream modes asked for.
#[derive(Debug, Clone)]
pub struct RunBody {
    pub request: RunRequest,
    pub graph: LoadedGraph,
    pub stream_modes: Vec<String>,
    /// Cancel the run when the streaming client goes away.
    pub cancel_on_disconnect: bool,
    /// Stateless runs: keep the temporary thread.
    pub keep_thread: bool,
    /// Create the thread when it does not exist.
    pub create_thread: bool,
}

/// Reads a run body for `thread_id`; the message is the 422's detail.
pub fn read_body(body: &Value, thread_id: ThreadId, graphs: &Graphs) -> Result<RunBody, String> {
    let Value::Object(b) = body else { return Err("the body must be a JSON object".into()) };
    let Some(aid) = b.get("assistant_id").and_then(Value::as_str) else {
        return Err("assistant_id: required".into());
    };
    let Some(graph) = graphs.find(aid) else {
        return Err(format!("assistant_id: no assistant or graph `{aid}` is served"));
    };
    let stream_modes = stream_modes(b.get("stream_mode"))?;
    let mut input = b.get("input").cloned().filter(|v| !v.is_null());
    if let Some(Value::Object(m)) = &mut input {
        values_from_wire(m, &graph.message_fields);
    }
    let command = b.get("command").filter(|v| !v.is_null());
    let resume = command.and_then(|c| c.get("resume")).cloned();
    if let Some(update) = command.and_then(|c| c.get("update")).filter(|v| !v.is_null()) {
        // An update with the resume is applied as input would be.
        if input.is_none() && resume.is_none() {
            let mut update = update.clone();
            if let Value::Object(m) = &mut update {
                values_from_wire(m, &graph.message_fields);
            }
            input = Some(update);
        }
    }
    let checkpoint = b
        .get("checkpoint_id")
        .and_then(Value::as_str)
        .or_else(|| b.get("checkpoint").and_then(|c| c.get("checkpoint_id")).and_then(Value::as_str))
        .map(|s| CheckpointId(s.to_string()));
    let max_steps = b.get("config").and_then(|c| c.get("recursion_limit")).and_then(Value::as_u64);
    let multitask_strategy = match b.get("multitask_strategy") {
        None | Some(Value::Null) => MultitaskStrategy::default(),
        Some(v) => serde_json::from_value(v.clone())
            .map_err(|_| format!("multitask_strategy: unknown strategy {v} (reject, enqueue, interrupt, rollback)"))?,
    };
    let mut kwargs = Map::new();
    for key in ["input", "command", "config", "context", "interrupt_before", "interrupt_after", "webhook"] {
        kwargs.insert(key.into(), b.get(key).cloned().unwrap_or(Value::Null));
    }
    kwargs.insert("stream_mode".into(), json!(stream_modes));
    let request = RunRequest {
        thread_id,
        assistant_id: AssistantId(graph.assistant_id.0.clone()),
        input,
        resume,
        checkpoint,
        interrupt_before: breakpoints(b.get("interrupt_before"), graph, "interrupt_before")?,
        interrupt_after: breakpoints(b.get("interrupt_after"), graph, "interrupt_after")?,
        max_steps,
        metadata: b.get("metadata").and_then(Value::as_object).cloned().unwrap_or_default(),
        kwargs,
        multitask_strategy,
        webhook: b.get("webhook").and_then(Value::as_str).map(str::to_string),
        temporary: false,
    };
    Ok(RunBody {
        request,
        graph: graph.clone(),
        stream_modes,
        cancel_on_disconnect: b.get("on_disconnect").and_then(Value::as_str) == Some("cancel"),
        keep_thread: b.get("on_completion").and_then(Value::as_str) == Some("keep"),
        create_thread: b.get("if_not_exists").and_then(Value::as_str) == Some("create"),
    })
}

/// `stream_mode`: one mode or a list; `values` when absent.
fn stream_modes(given: Option<&Value>) -> Result<Vec<String>, String> {
    let modes: Vec<String> = match given {
        None | Some(Value::Null) => vec!["values".into()],
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Array(items)) => items.iter().map(|m| m.as_str().unwrap_or_default().to_string()).collect(),
        Some(other) => return Err(format!("stream_mode: expected a mode or a list of modes, got {other}")),
    };
    for m in &modes {
        if !STREAM_MODES.contains(&m.as_str()) {
            return Err(format!("stream_mode: unknown mode `{m}` (one of {})", STREAM_MODES.join(", ")));
        }
    }
    Ok(modes)
}

/// `interrupt_before`/`after`: node ids, or `"*"` for every node.
fn breakpoints(given: Option<&Value>, graph: &LoadedGraph, key: &str) -> Result<Vec<String>, String> {
    match given {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::String(s)) if s == "*" => Ok(graph.node_ids()),
        Some(Value::Array(items)) => {
            let mut ids = Vec::new();
            for item in items {
                match item.as_str() {
                    Some("*") => ids.extend(graph.node_ids()),
                    Some(id) if graph.graph.node(id).is_some() => ids.push(id.to_string()),
                    _ => return Err(format!("{key}: `{item}` is not a node of graph `{}`", graph.graph_id)),
                }
            }
            Ok(ids)
        }
        Some(other) => Err(format!("{key}: expected a list of node ids or \"*\", got {other}")),
    }
}
