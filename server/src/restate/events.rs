//! A Restate run's events, the same for every stream mode as the embedded backend's
//! (`embedded/events.rs`), built from the steps read back from its `GraphRun` rather than
//! from a live engine run: the values after the input, then per step the tasks, their
//! results, the updates, the assistant messages, the interrupts, the checkpoint and the values.

use serde_json::{Map, Value, json};
use switchyard_serve::client::StepView;

use crate::domain::{Interrupt, RunInfo};
use crate::feed::{Event, FeedWriter};
use crate::graphs::LoadedGraph;
use crate::wire::message::values_to_wire;
use crate::wire::time::now;

/// The values as they stand, with the pending interrupts if any.
pub fn values(feed: &FeedWriter, values: &Map<String, Value>, pending: &[Interrupt], graph: &LoadedGraph) {
    let mut values = values_to_wire(values, &graph.message_fields);
    if !pending.is_empty() {
        values.insert("__interrupt__".into(), json!(pending));
    }
    feed.push(Event::new("values", Value::Object(values)));
}

/// Everything one step gives; `pending` is non-empty only for the step the run stopped after.
pub fn step(feed: &FeedWriter, step: &StepView, pending: &[Interrupt], graph: &LoadedGraph, info: &RunInfo) {
    let chain = step.thread_step;
    let meta = |node: &str| {
        json!({"langgraph_node": node, "langgraph_step": chain, "run_id": info.run_id, "thread_id": info.thread_id,
               "graph_id": graph.graph_id, "assistant_id": info.assistant_id})
    };
    for name in &step.ran {
        let update = match step.updates.get(name).cloned().unwrap_or(json!({})) {
            Value::Object(m) => Value::Object(values_to_wire(&m, &graph.message_fields)),
            other => other,
        };
        let task = json!({"id": format!("{}:{name}", info.run_id), "name": name, "input": null, "triggers": [name]});
        feed.push(Event::new("debug", json!({"type": "task", "step": chain, "timestamp": now(), "payload": task})));
        feed.push(Event::new("tasks", task));
        let error = step.errors.get(name).map(|e| e["message"].clone());
        let result = json!({"id": format!("{}:{name}", info.run_id), "name": name, "error": error, "result": update, "interrupts": []});
        feed.push(Event::new(
            "debug",
            json!({"type": "task_result", "step": chain, "timestamp": now(), "payload": result}),
        ));
        feed.push(Event::new("tasks", result));
        if step.errors.contains_key(name) {
            continue;
        }
        // Map instances (`node[i]`) show under their node's name, as LangGraph's Send tasks do.
        let node = engine::record::split_name(name).map_or(name.as_str(), |(id, _)| id);
        feed.push(Event::new("updates", json!({ node: update })));
        messages(feed, &update, &graph.message_fields, &meta(node));
    }
    if !pending.is_empty() {
        feed.push(Event::new("updates", json!({"__interrupt__": pending})));
    }
    let checkpoint = json!({"values": values_to_wire(&step.values, &graph.message_fields), "next": step.next,
        "metadata": {"step": chain, "source": "loop", "run_id": info.run_id}, "config": {"configurable": {"thread_id": info.thread_id}}});
    feed.push(Event::new(
        "debug",
        json!({"type": "checkpoint", "step": chain, "timestamp": now(), "payload": checkpoint}),
    ));
    feed.push(Event::new("checkpoints", checkpoint));
    values(feed, &step.values, pending, graph);
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
