//! A step's events for every stream mode, pushed once to the run's feed (each stream picks
//! the modes it asked for): `values`, `updates` (and `__interrupt__`), `debug`, `tasks`,
//! `checkpoints`, `messages` (LangGraph's `messages-tuple`) and the legacy
//! `messages/metadata` + `messages/complete`.

use std::collections::BTreeSet;

use engine::{Run, Status, StepStates};
use serde_json::{Map, Value, json};

use crate::domain::RunInfo;
use crate::feed::{Event, FeedWriter};
use crate::graphs::LoadedGraph;
use crate::interrupts::interrupts;
use crate::wire::message::{to_wire, values_to_wire};
use crate::wire::time::now;

/// The state as it stands (and the pending interrupts, if the run stopped at one).
pub fn values(feed: &FeedWriter, run: &Run, graph: &LoadedGraph) {
    let mut values = values_to_wire(&run.state_json(), &graph.message_fields);
    let pending = pending(run);
    if !pending.is_empty() {
        values.insert("__interrupt__".into(), Value::Array(pending));
    }
    feed.push(Event::new("values", Value::Object(values)));
}

fn pending(run: &Run) -> Vec<Value> {
    if run.status() != Status::Interrupted {
        return Vec::new();
    }
    interrupts(run.run_id(), run.waiting()).into_iter().map(|(_, i)| json!(i)).collect()
}

/// Everything step `chain` (counted across the thread) gives: its last step's updates,
/// messages and debug payloads, the interrupts, then the values.
///
/// Map instances (`node[i]`) show under their node's name, as LangGraph's Send tasks do. A
/// node whose model streamed (`streamed`) already sent its message piece by piece: it is not
/// sent again whole.
pub fn step(
    feed: &FeedWriter,
    run: &Run,
    graph: &LoadedGraph,
    chain: u64,
    info: &RunInfo,
    streamed: &BTreeSet<String>,
) {
    let index = run.steps().len().saturating_sub(1);
    let Some(doc) = run.step_doc(index, StepStates::Snapshots) else { return };
    let doc = serde_json::to_value(doc).unwrap_or_default();
    let updates = doc.get("updates").and_then(Value::as_object).cloned().unwrap_or_default();
    let errors = doc.get("errors").and_then(Value::as_object).cloned().unwrap_or_default();
    let ran: Vec<String> = doc
        .get("ran")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect();
    let meta = |node: &str| {
        json!({"langgraph_node": node, "langgraph_step": chain, "run_id": info.run_id, "thread_id": info.thread_id,
               "graph_id": graph.graph_id, "assistant_id": info.assistant_id})
    };
    for name in &ran {
        let update = updates.get(name).cloned().unwrap_or(json!({}));
        let update = match update {
            Value::Object(m) => Value::Object(values_to_wire(&m, &graph.message_fields)),
            other => other,
        };
        let task = json!({"id": format!("{}:{name}", info.run_id), "name": name, "input": null, "triggers": [name]});
        feed.push(Event::new("debug", json!({"type": "task", "step": chain, "timestamp": now(), "payload": task})));
        feed.push(Event::new("tasks", task));
        let result = json!({"id": format!("{}:{name}", info.run_id), "name": name,
            "error": errors.get(name).map(|e| e["message"].clone()), "result": update, "interrupts": []});
        feed.push(Event::new(
            "debug",
            json!({"type": "task_result", "step": chain, "timestamp": now(), "payload": result}),
        ));
        feed.push(Event::new("tasks", result));
        if errors.contains_key(name) {
            continue;
        }
        let node = engine::record::split_name(name).map_or(name.as_str(), |(id, _)| id);
        feed.push(Event::new("updates", json!({ node: update })));
        if !streamed.contains(name) {
            messages(feed, &update, &graph.message_fields, &meta(node));
        }
    }
    let pending = pending(run);
    if !pending.is_empty() {
        feed.push(Event::new("updates", json!({"__interrupt__": pending})));
    }
    let checkpoint = json!({"values": values_to_wire(&run.state_json(), &graph.message_fields), "next": run.next_ids(),
        "metadata": {"step": chain, "source": "loop", "run_id": info.run_id}, "config": {"configurable": {"thread_id": info.thread_id}}});
    feed.push(Event::new(
        "debug",
        json!({"type": "checkpoint", "step": chain, "timestamp": now(), "payload": checkpoint}),
    ));
    feed.push(Event::new("checkpoints", checkpoint));
    values(feed, run, graph);
}

/// The run stopped without a step (a human node reached): the interrupts, then the values.
pub fn stopped(feed: &FeedWriter, run: &Run, graph: &LoadedGraph) {
    let pending = pending(run);
    if !pending.is_empty() {
        feed.push(Event::new("updates", json!({"__interrupt__": pending})));
        values(feed, run, graph);
    }
}

/// The assistant messages in a node's update, whole (one chunk per message).
fn messages(feed: &FeedWriter, update: &Value, message_fields: &[String], meta: &Value) {
    for field in message_fields {
        let Some(written) = update.get(field) else { continue };
        let list: Vec<&Value> = match written {
            Value::Array(items) => items.iter().collect(),
            one => vec![one],
        };
        for m in list.into_iter().filter(|m| m.get("type").and_then(Value::as_str) == Some("ai")) {
            feed.push(Event::new("messages", json!([m, meta])));
            let id = m.get("id").and_then(Value::as_str).unwrap_or_default().to_string();
            let mut by_id = Map::new();
            by_id.insert(id, json!({"metadata": meta}));
            feed.push(Event::new("messages/metadata", Value::Object(by_id)));
            feed.push(Event::new("messages/complete", json!([m])));
        }
    }
}

/// A piece of a model's reply as it streams, in step `chain`: a chunk in `messages` mode,
/// with the id the whole message gets when its step applies it (`<node>:<step>:1`).
pub fn token(feed: &FeedWriter, node: &str, text: &str, chain: u64, meta: &Value) {
    let mut meta = meta.clone();
    if let Value::Object(m) = &mut meta {
        m.insert("langgraph_node".into(), json!(node));
        m.insert("langgraph_step".into(), json!(chain));
    }
    let mut chunk = to_wire(&json!({"role": "assistant", "content": text, "id": format!("{node}:{chain}:1")}));
    chunk["type"] = json!("AIMessageChunk");
    feed.push(Event::new("messages", json!([chunk, meta])));
}
