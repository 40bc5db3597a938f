//! Any text given to `resume` as a run record, against a fixed graph with a loop, a human
//! node and a failing branch: reading, checking, resuming and forking must never panic, and
//! a resumed run stops within the graph's limits. The steps' patches are applied both ways a
//! record is read back (the engine's, and the editor's step-by-step view), and neither may
//! take the state past its bound: a seed's `copy` operations double it.

use std::rc::Rc;

const GRAPH: &str = r#"{
  "format": "switchyard/graph@1",
  "state": { "count": { "type": "integer", "reducer": "add" }, "answer": { "type": "any" },
             "log": { "type": "list", "reducer": "append", "max_items": 4 } },
  "nodes": [ { "id": "start", "kind": "start" },
             { "id": "inc", "kind": "set", "set": { "count": "1", "log": "step" } },
             { "id": "ask", "kind": "human", "prompt": "go on? {{ state.count }}", "writes": "answer", "options": ["yes", "no"] },
             { "id": "boom", "kind": "script", "script": "if state.count > 2 { throw \"boom\" } #{}", "on_error": "continue" },
             { "id": "end", "kind": "end" } ],
  "edges": [ { "from": "start", "to": "inc" },
             { "from": "inc", "to": "ask", "when": "state.count % 2 == 0" },
             { "from": "inc", "to": "boom", "when": "state.count % 2 == 1" },
             { "from": "boom", "to": "inc" },
             { "from": "ask", "to": "inc", "label": "yes" },
             { "from": "ask", "to": "end", "label": "no" } ],
  "limits": { "max_steps": 10, "max_ops": 10000, "max_record_bytes": 100000 }
}"#;

/// One input through the checks this module describes; a failed check panics.
pub fn check(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(record) = engine::parse::parse_object_as::<engine::RunRecord>(&text) else { return };
    if let Some(steps) = &record.steps {
        // The editor's view of each step. Only a `copy` writes more than the record's own
        // text, and it is held to the host's state ceiling.
        let ceiling = engine::document::EffectiveLimits::CEILINGS.max_state_bytes as usize;
        for count in 0..=steps.len() {
            if let Ok(state) = engine::record::snapshots::state_after(&record.input, steps, count) {
                let size = serde_json::to_string(&state).map_or(0, |t| t.len());
                assert!(size <= ceiling + 2 * text.len(), "{size} bytes from a record of {}", text.len());
            }
        }
    }
    let graph = engine::parse_graph(GRAPH).expect("the fixed graph reads");
    let plan = Rc::new(engine::compile(&graph).plan.expect("the fixed graph compiles"));
    let host = engine::OfflineHost::with_tick(1.0);
    let Ok(original) = engine::Run::from_record(plan, &record, &host) else { return };
    let _ = original.record(true);
    // Fork from every checkpoint, and resume.
    for step in 0..=original.step_count().min(12) {
        if let Ok(mut fork) = original.fork(step, None, &host) {
            pollster::block_on(fork.run(&host));
            assert!(fork.step_count() <= 10 + 1, "{}", fork.step_count());
        }
    }
    let mut run = original;
    run.resume();
    for node in run.waiting_for() {
        let _ = run.answer(&node, serde_json::json!("yes"));
    }
    pollster::block_on(run.run(&host));
}
