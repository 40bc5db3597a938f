//! Threads and their checkpoints on the wire (`Thread`, `ThreadState`).

use serde_json::{Map, Value, json};
use uuid::Uuid;

use crate::domain::{Checkpoint, CheckpointId, Interrupt, ThreadId, ThreadInfo};
use crate::wire::message::values_to_wire;

/// The `Thread` object; `message_fields` of the thread's graph (none before its first run).
pub fn thread(t: &ThreadInfo, message_fields: &[String]) -> Value {
    let mut interrupts = Map::new();
    for (node, i) in &t.interrupts {
        let list = interrupts.entry(task_id(&t.thread_id, node)).or_insert_with(|| json!([]));
        if let Value::Array(items) = list {
            items.push(json!(i));
        }
    }
    json!({
        "thread_id": t.thread_id,
        "created_at": t.created_at,
        "updated_at": t.updated_at,
        "state_updated_at": t.updated_at,
        "metadata": t.metadata,
        "status": t.status.as_str(),
        "config": {},
        "values": t.values.as_ref().map(|v| values_to_wire(v, message_fields)),
        "interrupts": interrupts,
        "error": null,
    })
}

/// A task's id for `node` waiting on a thread: stable, so a client can match them.
fn task_id(thread: &ThreadId, node: &str) -> String {
    Uuid::new_v5(&Uuid::NAMESPACE_OID, format!("{thread}:{node}").as_bytes()).to_string()
}

fn checkpoint_ref(thread: &ThreadId, id: &CheckpointId) -> Value {
    json!({"checkpoint_id": id, "thread_id": thread, "checkpoint_ns": ""})
}

/// A `ThreadState` for checkpoint `c`.
pub fn thread_state(c: &Checkpoint, message_fields: &[String]) -> Value {
    let waits =
        |node: &str| -> Vec<&Interrupt> { c.interrupts.iter().filter(|(n, _)| n == node).map(|(_, i)| i).collect() };
    let tasks: Vec<Value> = c
        .next
        .iter()
        .map(|name| {
            json!({
                "id": task_id(&c.thread_id, name),
                "name": name,
                "path": ["__pregel_pull", name],
                "error": null,
                "interrupts": waits(name),
                "checkpoint": null,
                "state": null,
                "result": null,
            })
        })
        .collect();
    let interrupts: Vec<&Interrupt> = c.interrupts.iter().map(|(_, i)| i).collect();
    json!({
        "values": values_to_wire(&c.values, message_fields),
        "next": c.next,
        "tasks": tasks,
        "metadata": {
            "step": c.step,
            "source": c.source,
            "run_id": c.run_id,
            "thread_id": c.thread_id,
            "graph_id": c.graph_id,
            "assistant_id": c.assistant_id,
            "parents": {},
        },
        "created_at": c.created_at,
        "checkpoint": checkpoint_ref(&c.thread_id, &c.id),
        "parent_checkpoint": c.parent.as_ref().map(|p| checkpoint_ref(&c.thread_id, p)),
        "interrupts": interrupts,
        "checkpoint_id": c.id,
        "parent_checkpoint_id": c.parent,
    })
}

/// `update_state`'s answer.
pub fn checkpoint_written(c: &Checkpoint) -> Value {
    json!({"checkpoint": checkpoint_ref(&c.thread_id, &c.id)})
}
