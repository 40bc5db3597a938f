//! Run webhooks: when a run that named a `webhook` ends, the run (with its final values or
//! its error) is POSTed there once, off the runs' threads. A webhook that fails is reported
//! on stderr and not retried.

use std::sync::Arc;

use engine::host::HttpRequest;
use serde_json::{Value, json};

use crate::embedded::RunEnded;
use crate::embedded::store::RunRow;
use crate::graphs::Graphs;

/// How long a webhook may take.
const TIMEOUT_MS: u64 = 10_000;

/// What is POSTed: the `Run` object with `values` (or `error`) added.
pub fn payload(row: &RunRow, graphs: &Graphs) -> Value {
    let mut body = crate::wire::run::run(&row.info);
    let fields = graphs.find(row.info.assistant_id.as_str()).map(|g| g.message_fields.clone()).unwrap_or_default();
    let values =
        row.record.as_ref().and_then(|r| r.get("state")).and_then(Value::as_object).cloned().unwrap_or_default();
    body["values"] = Value::Object(crate::wire::message::values_to_wire(&values, &fields));
    body["error"] = row.error.as_ref().map_or(Value::Null, |(e, m)| json!({"error": e, "message": m}));
    body["webhook_sent_at"] = json!(crate::wire::time::now());
    body
}

/// The hook that sends each ending run's webhook, if it names one.
pub fn sender(graphs: Arc<Graphs>, runtime: tokio::runtime::Handle) -> RunEnded {
    Arc::new(move |row: RunRow| {
        let Some(url) = row.request.webhook.clone() else { return };
        let request = HttpRequest {
            method: "POST".into(),
            url: url.clone(),
            headers: vec![("content-type".into(), "application/json".into())],
            body: Some(payload(&row, &graphs).to_string()),
            timeout_ms: TIMEOUT_MS,
            auth: None,
        };
        runtime.spawn_blocking(move || match net::send_with(&request, None, 1 << 20) {
            Ok(reply) if reply.status < 300 => {}
            Ok(reply) => eprintln!("switchyard server: webhook {url}: HTTP {}", reply.status),
            Err(e) => eprintln!("switchyard server: webhook {url}: {}", e.message),
        });
    })
}
