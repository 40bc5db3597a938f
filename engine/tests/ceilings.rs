//! The host's ceilings (README, Untrusted graphs in the editor): limits in a document are clamped with a warning, time limits
//! stop a running script, built-ins refuse before they allocate, and the record is bounded.

use std::rc::Rc;

use engine::host::{Clock, Host, HttpFailure, HttpRequest, HttpResponse, LocalBoxFuture};
use engine::{ErrorKind, OfflineHost, Run, Status, compile, parse_graph, validate};
use serde_json::{Value, json};

/// A one-node graph: `node` between start and end, with `limits`.
fn graph(node: Value, limits: Value) -> String {
    json!({
        "format": "switchyard/graph@1",
        "state": { "out": { "type": "any" }, "count": { "type": "integer", "reducer": "add" } },
        "nodes": [ { "id": "start", "kind": "start" }, node, { "id": "end", "kind": "end" } ],
        "edges": [ { "from": "start", "to": "work" }, { "from": "work", "to": "end" } ],
        "limits": limits
    })
    .to_string()
}

fn run_with(text: &str, host: &dyn Host) -> Run {
    let plan = Rc::new(compile(&parse_graph(text).expect("parses")).plan.expect("valid"));
    let mut run = Run::start(plan, json!({}), host).expect("starts");
    pollster::block_on(run.run(host));
    run
}

#[test]
fn limits_over_the_ceilings_are_clamped_with_a_warning() {
    let text = graph(
        json!({ "id": "work", "kind": "set", "set": { "out": "1" } }),
        json!({ "max_ops": u64::MAX, "max_state_bytes": 1e15 as u64, "max_steps": 100_000_000u64,
                "run_timeout_ms": u64::MAX, "node_timeout_ms": u64::MAX, "max_fanout": u64::MAX,
                "max_record_bytes": u64::MAX }),
    );
    let g = parse_graph(&text).expect("parses");
    let l = g.effective_limits();
    assert_eq!(l.max_ops, 100_000_000);
    assert_eq!(l.max_state_bytes, 64 * 1024 * 1024);
    assert_eq!(l.max_steps, 1_000_000);
    assert_eq!(l.run_timeout_ms, 24 * 3600 * 1000);
    assert_eq!(l.max_fanout, 100_000);
    assert_eq!(l.max_record_bytes, 1 << 30);
    let warnings: Vec<String> = validate(&g).iter().map(|d| d.path.clone()).collect();
    for name in ["max_ops", "max_state_bytes", "max_steps", "run_timeout_ms", "max_fanout", "max_record_bytes"] {
        assert!(warnings.contains(&format!("limits.{name}")), "{name}: {warnings:?}");
    }
    assert!(validate(&g).iter().all(|d| !d.is_error()));
}

#[test]
fn the_new_limits_have_the_spec_defaults() {
    let g =
        parse_graph(&graph(json!({ "id": "work", "kind": "set", "set": { "out": "1" } }), json!({}))).expect("parses");
    assert_eq!(g.effective_limits().max_fanout, 1000);
    assert_eq!(g.effective_limits().max_record_bytes, 268_435_456);
}

#[test]
fn a_fake_clock_stops_an_endless_script_at_the_node_timeout() {
    // Deterministic (and so also in wasm): the fake clock advances 1 ms per reading.
    let text = graph(
        json!({ "id": "work", "kind": "script", "script": "loop {}" }),
        json!({ "max_ops": 100_000_000u64, "node_timeout_ms": 200 }),
    );
    let run = run_with(&text, &OfflineHost::with_tick(1.0));
    assert_eq!(run.status(), Status::Failed);
    let e = run.error().expect("an error");
    assert_eq!(e.kind, ErrorKind::Timeout, "{}", e.message);
    assert!(e.message.contains("200 ms"), "{}", e.message);
}

#[test]
fn a_fake_clock_stops_an_endless_when_at_the_run_timeout() {
    let text = json!({
        "format": "switchyard/graph@1",
        "state": { "x": { "type": "any" } },
        "nodes": [ { "id": "start", "kind": "start" }, { "id": "a", "kind": "set", "set": { "x": "1" } }, { "id": "end", "kind": "end" } ],
        "edges": [ { "from": "start", "to": "a" }, { "from": "a", "to": "end", "when": "loop {}" } ],
        "limits": { "max_ops": 100_000_000u64, "run_timeout_ms": 300 }
    });
    let run = run_with(&text.to_string(), &OfflineHost::with_tick(1.0));
    let e = run.error().expect("an error");
    assert_eq!(e.kind, ErrorKind::Timeout, "{}", e.message);
    assert!(e.message.contains("run_timeout_ms"), "{}", e.message);
}

/// A host with the real clock: what the CLI does.
struct RealClock(std::time::Instant);

impl Host for RealClock {
    fn now_ms(&self) -> f64 {
        self.0.elapsed().as_secs_f64() * 1000.0
    }
    fn new_run_id(&self) -> String {
        "real".into()
    }
    fn http(&self, _: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, HttpFailure>> {
        Box::pin(async { Err(HttpFailure { message: "offline".into(), timed_out: false }) })
    }
    fn sleep(&self, _: u64) -> LocalBoxFuture<'_, ()> {
        Box::pin(async {})
    }
    fn clock(&self) -> Option<Clock> {
        let origin = self.0;
        Some(Rc::new(move || origin.elapsed().as_secs_f64() * 1000.0))
    }
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn loop_forever_with_a_huge_max_ops_stops_at_node_timeout_ms() {
    let text = graph(
        json!({ "id": "work", "kind": "script", "script": "loop {}" }),
        json!({ "max_ops": u64::MAX, "node_timeout_ms": 200 }),
    );
    let started = std::time::Instant::now();
    let run = run_with(&text, &RealClock(started));
    let took = started.elapsed();
    let e = run.error().expect("an error");
    assert_eq!(e.kind, ErrorKind::Timeout, "{}", e.message);
    // Generous: the point is that it stops near 200 ms rather than after 10^8 operations.
    assert!(took.as_secs() < 10, "took {took:?}");
    eprintln!("loop {{}} with node_timeout_ms 200 stopped after {} ms", took.as_millis());
}

#[test]
fn pad_refuses_a_huge_result_before_building_it() {
    for script in [
        r#"let s = "x"; s.pad(1000000000, "x"); s"#,
        r#"let s = "x"; s.pad(20000000000, "ab"); s"#,
        r#"let s = "x"; s.pad(1000000000, 'x'); s"#,
        r#"let s = "x"; s.pad(900000, "x"); s.replace("x", s); s"#,
        r#"let s = "x"; s.pad(900000, "x"); s.replace("", s); s"#,
        r#"let s = "x"; s.pad(900000, "x"); s.to_chars()"#,
        r#"let s = "x"; s.pad(900000, "x"); s.split("")"#,
        r#"let a = []; a.pad(100000, 0); let b = []; b.pad(100000, a); b"#,
    ] {
        let text = graph(
            json!({ "id": "work", "kind": "script", "script": format!("#{{ out: {{ {script} }} }}") }),
            json!({}),
        );
        let started = std::time::Instant::now();
        let run = run_with(&text, &OfflineHost::new());
        assert_eq!(run.status(), Status::Failed, "{script}");
        let e = run.error().expect("an error");
        assert_eq!(e.kind, ErrorKind::Expression, "{script}: {}", e.message);
        #[cfg(not(target_arch = "wasm32"))]
        assert!(started.elapsed().as_secs() < 5, "{script}: took {:?}", started.elapsed());
        let _ = started;
    }
}

#[test]
fn pad_still_pads() {
    let text = graph(
        json!({ "id": "work", "kind": "script", "script": r#"let s = "ab"; s.pad(7, "xyz"); #{ out: s }"# }),
        json!({}),
    );
    let run = run_with(&text, &OfflineHost::new());
    assert_eq!(run.state_json()["out"], "abxyzxy");
}

#[test]
fn the_record_is_bounded_by_max_record_bytes() {
    let text = json!({
        "format": "switchyard/graph@1",
        "state": { "count": { "type": "integer", "reducer": "add" } },
        "nodes": [ { "id": "start", "kind": "start" }, { "id": "inc", "kind": "set", "set": { "count": "1" } } ],
        "edges": [ { "from": "start", "to": "inc" }, { "from": "inc", "to": "inc" } ],
        "limits": { "max_steps": 100_000_000u64, "max_record_bytes": 20_000 }
    });
    let run = run_with(&text.to_string(), &OfflineHost::new());
    assert_eq!(run.status(), Status::LimitReached);
    let e = run.error().expect("an error");
    assert_eq!(e.kind, ErrorKind::Limit);
    assert!(e.message.contains("max_record_bytes (20000 bytes)"), "{}", e.message);
    assert!(run.step_count() < 200, "{}", run.step_count());
}

/// A host whose every request fails at once, counting the requests and the pauses taken
/// between them (a clock that moves only by those pauses: the timers racing each request,
/// at the node's timeout, never fire).
#[derive(Default)]
struct AlwaysFails {
    requests: std::cell::Cell<u32>,
    pauses: std::cell::RefCell<Vec<u64>>,
}

impl Host for AlwaysFails {
    fn now_ms(&self) -> f64 {
        self.pauses().iter().sum::<u64>() as f64
    }
    fn new_run_id(&self) -> String {
        "fails".into()
    }
    fn http(&self, _: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, HttpFailure>> {
        self.requests.set(self.requests.get() + 1);
        Box::pin(async { Err(HttpFailure { message: "refused".into(), timed_out: false }) })
    }
    fn sleep(&self, ms: u64) -> LocalBoxFuture<'_, ()> {
        self.pauses.borrow_mut().push(ms);
        Box::pin(async {})
    }
}

impl AlwaysFails {
    /// The pauses between attempts, without the timers at the node's timeout.
    fn pauses(&self) -> Vec<u64> {
        self.pauses.borrow().iter().copied().filter(|&ms| ms != 180_000).collect()
    }
}

#[test]
fn retries_are_held_to_the_ceiling_on_attempts_and_the_floor_on_back_off() {
    let node = json!({ "id": "work", "kind": "http", "method": "GET", "url": "http://127.0.0.1:9/x",
                       "writes": "out", "retry": { "attempts": 4_000_000_000u32, "backoff_ms": 0 } });
    let text = graph(node, json!({}));
    let warnings: Vec<String> =
        validate(&parse_graph(&text).expect("parses")).iter().map(|d| format!("{}: {}", d.path, d.message)).collect();
    assert!(
        warnings
            .contains(&"nodes[1].retry.attempts: 4000000000 is over this host's ceiling; 10 is used instead".into()),
        "{warnings:?}"
    );
    assert!(
        warnings.contains(&"nodes[1].retry.backoff_ms: 0 is under this host's floor; 10 is used instead".into()),
        "{warnings:?}"
    );
    let host = AlwaysFails::default();
    let run = run_with(&text, &host);
    assert_eq!(run.status(), Status::Failed);
    assert_eq!(host.requests.get(), 10, "attempts are clamped to 10");
    assert_eq!(host.pauses(), [10, 20, 40, 80, 160, 320, 640, 1280, 2560], "pauses start at 10 ms and double");
}
