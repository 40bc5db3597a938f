//! `Host::enforces_timeouts`: a host that times its requests itself (a durable workflow, whose
//! replies come from a journal) is not raced against a timer of the engine's.

use std::cell::Cell;
use std::rc::Rc;

use engine::host::{Host, HttpFailure, HttpRequest, HttpResponse, LocalBoxFuture};
use engine::{ErrorKind, Run, Status, compile, parse_graph};
use serde_json::json;

/// Replies after being polled once (as any real reply does), with a timer that is over at
/// once: raced against it, every request would time out.
struct SlowReplies {
    enforces: bool,
    sent: Cell<u32>,
}

impl Host for SlowReplies {
    fn now_ms(&self) -> f64 {
        0.0
    }
    fn new_run_id(&self) -> String {
        "run".into()
    }
    fn http(&self, _: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, HttpFailure>> {
        self.sent.set(self.sent.get() + 1);
        Box::pin(async {
            let mut polled = false;
            std::future::poll_fn(|cx| {
                if polled {
                    return std::task::Poll::Ready(());
                }
                polled = true;
                cx.waker().wake_by_ref();
                std::task::Poll::Pending
            })
            .await;
            Ok(HttpResponse::new(200, r#"{"ok": true}"#))
        })
    }
    fn sleep(&self, _: u64) -> LocalBoxFuture<'_, ()> {
        Box::pin(async {})
    }
    fn enforces_timeouts(&self) -> bool {
        self.enforces
    }
}

fn run_on(host: &SlowReplies) -> Run {
    let graph = parse_graph(
        &json!({
            "format": "switchyard/graph@1",
            "state": { "reply": { "type": "any", "default": null } },
            "nodes": [
                { "id": "start", "kind": "start" },
                { "id": "fetch", "kind": "http", "method": "GET", "url": "https://example.test/x", "writes": "reply", "timeout_ms": 1000 },
                { "id": "end", "kind": "end" }
            ],
            "edges": [ { "from": "start", "to": "fetch" }, { "from": "fetch", "to": "end" } ]
        })
        .to_string(),
    )
    .expect("graph");
    let plan = Rc::new(compile(&graph).plan.expect("valid"));
    let mut run = Run::start(plan, json!({}), host).expect("start");
    pollster::block_on(run.run(host));
    run
}

#[test]
fn a_host_that_times_its_own_requests_gets_their_replies() {
    let host = SlowReplies { enforces: true, sent: Cell::new(0) };
    let run = run_on(&host);
    assert_eq!(run.status(), Status::Completed, "{:?}", run.error());
    assert_eq!(run.state_json()["reply"], json!({ "ok": true }));
    assert_eq!(host.sent.get(), 1);
}

#[test]
fn otherwise_the_engine_races_each_request_against_the_hosts_timer() {
    let host = SlowReplies { enforces: false, sent: Cell::new(0) };
    let run = run_on(&host);
    assert_eq!(run.status(), Status::Failed);
    assert_eq!(run.error().expect("an error").kind, ErrorKind::Timeout);
}
