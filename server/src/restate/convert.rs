//! The ingress client's views in the domain's terms. Interrupt ids are the embedded backend's
//! (per `GraphRun` and node), so a client sees the same shapes from both.

use serde_json::{Map, Value};
use switchyard_serve::client::{self, CheckpointView, Failure, RunView, ThreadDoc};

use crate::backend::BackendError;
use crate::domain::{
    AssistantId, Checkpoint, CheckpointId, Interrupt, MultitaskStrategy, RunId, RunInfo, RunStatus, Source, ThreadId,
    ThreadInfo, ThreadStatus,
};
use crate::graphs::Graphs;
use crate::interrupts::interrupt_id;

pub fn error(f: Failure) -> BackendError {
    match f.status {
        404 => BackendError::NotFound(f.detail),
        409 => BackendError::Conflict(f.detail),
        400 | 413 | 422 => BackendError::Invalid(f.detail),
        _ => BackendError::Internal(f.detail),
    }
}

pub fn status(s: client::RunStatus) -> RunStatus {
    match s {
        client::RunStatus::Pending => RunStatus::Pending,
        client::RunStatus::Running => RunStatus::Running,
        client::RunStatus::Success => RunStatus::Success,
        client::RunStatus::Error => RunStatus::Error,
        client::RunStatus::Interrupted => RunStatus::Interrupted,
    }
}

/// The interrupts, by node, with the embedded backend's ids.
pub fn interrupts(graph_run: &str, list: &[client::Interrupt]) -> Vec<(String, Interrupt)> {
    list.iter()
        .map(|i| (i.node.clone(), Interrupt { id: interrupt_id(graph_run, &i.node), value: i.value.clone() }))
        .collect()
}

pub fn run_info(thread: &ThreadDoc, view: &RunView) -> RunInfo {
    let run = &view.run;
    RunInfo {
        run_id: RunId(run.run_id.clone()),
        thread_id: ThreadId(thread.thread_id.clone()),
        assistant_id: AssistantId(run.assistant_id.clone()),
        status: status(view.status),
        metadata: run.metadata.clone(),
        kwargs: run.kwargs.as_object().cloned().unwrap_or_default(),
        multitask_strategy: MultitaskStrategy::Reject,
        created_at: run.created_at.clone(),
        updated_at: thread.updated_at.clone(),
    }
}

pub fn checkpoint(thread: &ThreadDoc, graphs: &Graphs, c: CheckpointView) -> Checkpoint {
    let assistant = thread.runs.last().map(|r| r.assistant_id.clone()).unwrap_or_default();
    let graph_id = graphs.find(&assistant).map(|g| g.graph_id.clone()).unwrap_or_default();
    let source = match c.source {
        "input" => Source::Input,
        "update" => Source::Update,
        _ => Source::Loop,
    };
    Checkpoint {
        id: CheckpointId(c.checkpoint.id()),
        thread_id: ThreadId(thread.thread_id.clone()),
        parent: c.parent.as_ref().map(|p| CheckpointId(p.id())),
        run_id: RunId(c.run_id.clone().unwrap_or_else(|| c.checkpoint.graph_run.clone())),
        step: c.thread_step,
        source,
        interrupts: interrupts(&c.checkpoint.graph_run, &c.interrupts),
        values: c.values,
        next: c.next,
        created_at: c.created_at,
        graph_id,
        assistant_id: AssistantId(assistant),
    }
}

/// A thread's status from its newest run: going on (`busy`), stopped at an interrupt or a
/// breakpoint (`interrupted`), failed (`error`), or `idle`.
pub fn thread_info(thread: &ThreadDoc, last: Option<&RunView>, head: Option<&Checkpoint>) -> ThreadInfo {
    let status = match last {
        None => ThreadStatus::Idle,
        Some(v) if !v.status.is_final() => ThreadStatus::Busy,
        Some(v) if !v.interrupts.is_empty() || v.at_breakpoint => ThreadStatus::Interrupted,
        Some(v) if v.status == client::RunStatus::Error => ThreadStatus::Error,
        Some(_) => ThreadStatus::Idle,
    };
    ThreadInfo {
        thread_id: ThreadId(thread.thread_id.clone()),
        created_at: thread.created_at.clone(),
        updated_at: thread.updated_at.clone(),
        metadata: thread.metadata.clone(),
        status,
        values: head.map(|c| c.values.clone()),
        interrupts: head.map(|c| c.interrupts.clone()).unwrap_or_default(),
    }
}

/// `resume` given as `{interrupt id: answer}` for these waits, read as answers by node.
pub fn answers_by_id(resume: &Value, pending: &[(String, Interrupt)]) -> Option<Map<String, Value>> {
    let Value::Object(by_id) = resume else { return None };
    if by_id.is_empty() {
        return None;
    }
    let node_of = |id: &String| pending.iter().find(|(_, i)| &i.id == id).map(|(n, _)| n.clone());
    by_id.iter().map(|(id, v)| node_of(id).map(|n| (n, v.clone()))).collect()
}

/// A run's error as the embedded backend names it: an engine error kind as an exception-like
/// name (`GraphRecursionError` at the step limit, `LlmError` for `llm`); a name that is one
/// already is kept.
pub fn run_error(error: Option<(String, String)>) -> Option<(String, String)> {
    let (kind, message) = error?;
    if kind.chars().any(|c| c.is_ascii_uppercase()) {
        return Some((kind, message));
    }
    if kind == "limit" {
        return Some(("GraphRecursionError".into(), message));
    }
    let mut name = String::new();
    for part in kind.split('_') {
        let mut chars = part.chars();
        if let Some(c) = chars.next() {
            name.extend(c.to_uppercase());
            name.push_str(chars.as_str());
        }
    }
    Some((name + "Error", message))
}
