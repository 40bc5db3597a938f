//! Any document that compiles, run to its end under small ceilings (so that one input stays
//! fast): running must never panic, whatever the graph does, and must stop within the limits.

use std::rc::Rc;

use engine::document::Limits;

/// One input through the checks this module describes; a failed check panics.
pub fn check(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(mut graph) = engine::parse_graph(&text) else { return };
    // The document's own limits, held far below the host's ceilings.
    let l = graph.limits.clone().unwrap_or_default();
    let small = |v: Option<u64>, max: u64| Some(v.unwrap_or(max).clamp(1, max));
    graph.limits = Some(Limits {
        max_steps: small(l.max_steps, 12),
        run_timeout_ms: small(l.run_timeout_ms, 2_000),
        node_timeout_ms: small(l.node_timeout_ms, 500),
        max_state_bytes: small(l.max_state_bytes, 64 * 1024),
        max_ops: small(l.max_ops, 20_000),
        max_fanout: small(l.max_fanout, 50),
        max_record_bytes: small(l.max_record_bytes, 1 << 20),
    });
    let Some(plan) = engine::compile(&graph).plan else { return };
    let steps = plan.limits.max_steps;
    // The fake clock advances 1 ms per reading: timeouts fire, deterministically.
    let host = engine::OfflineHost::with_tick(1.0);
    let Ok(mut run) = engine::Run::start(Rc::new(plan), serde_json::json!({}), &host) else { return };
    pollster::block_on(run.run(&host));
    assert_ne!(run.status(), engine::Status::Running);
    assert!(run.step_count() <= steps, "{} steps, limit {steps}", run.step_count());
    // A record written can be read back and resumed.
    let record = run.record(true);
    let text = serde_json::to_string(&record).expect("a record serializes");
    let again: engine::RunRecord = engine::parse::parse_object_as(&text).expect("a record reads back");
    let plan = run.plan().clone();
    if let Err(e) = engine::Run::from_record(plan, &again, &host) {
        panic!("a record the engine wrote was refused: {e}\n{text}");
    }
}
