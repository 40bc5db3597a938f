//! What the tests and the benchmark share: a fake model server, a real Restate server with the
//! service, the graph they run, and how records are compared.

#![allow(dead_code)]

pub mod fake_openai;
pub mod restate;

use serde_json::{Value, json};

/// A graph with a model call and a person's approval: `draft` asks the model for a reply to
/// the request, `approve` waits for `approve` or `reject`, and an approved draft is
/// published, which a webhook on the same server is told of.
pub fn approval_graph(base_url: &str) -> Value {
    json!({
        "format": "switchyard/graph@1",
        "name": "Drafted reply",
        "state": {
            "request": { "type": "string" },
            "draft": { "type": "string", "default": "" },
            "decision": { "type": "string", "default": "" },
            "published": { "type": "boolean", "default": false },
            "notified": { "type": "any", "default": null }
        },
        "nodes": [
            { "id": "start", "kind": "start", "required": ["request"] },
            { "id": "draft", "kind": "llm", "prompt": "Write a reply to: {{ state.request }}", "writes": "draft",
              "model": { "provider": "openai", "model": "fake-1", "base_url": base_url } },
            { "id": "approve", "kind": "human", "prompt": "Send this? {{ state.draft }}", "writes": "decision",
              "options": ["approve", "reject"] },
            { "id": "publish", "kind": "set", "set": { "published": "true" } },
            { "id": "notify", "kind": "http", "method": "POST", "url": format!("{base_url}/notify"),
              "body": { "published": "{{ state.request }}" }, "writes": "notified", "timeout_ms": 10000 },
            { "id": "end", "kind": "end" }
        ],
        "edges": [
            { "from": "start", "to": "draft" },
            { "from": "draft", "to": "approve" },
            { "from": "approve", "to": "publish", "label": "approve" },
            { "from": "approve", "to": "end", "label": "reject" },
            { "from": "publish", "to": "notify" },
            { "from": "notify", "to": "end" }
        ]
    })
}

/// A record with what may differ between two runs of the same graph, input and replies
/// taken out (format.md §10): the run id and what is derived from it (its trace ids), and
/// when things happened and how long they took (steps' and calls' times and durations).
pub fn comparable(record: &Value) -> Value {
    let mut r = record.clone();
    if let Some(o) = r.as_object_mut() {
        o.remove("run_id");
    }
    without_times(&mut r);
    r
}

/// `value` without the keys that say when or under which trace something ran, at any depth.
fn without_times(value: &mut Value) {
    match value {
        Value::Object(o) => {
            for key in ["duration_ms", "started_ms", "timings", "trace_id", "traces"] {
                o.remove(key);
            }
            o.values_mut().for_each(without_times);
        }
        Value::Array(items) => items.iter_mut().for_each(without_times),
        _ => {}
    }
}
