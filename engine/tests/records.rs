//! Documents and records from untrusted hands: the top level must be an object, Rust's type
//! names never reach a message, and a tampered record is refused naming the field at fault.

use std::rc::Rc;

use engine::parse::parse_object_as;
use engine::{OfflineHost, Run, RunRecord, StepStates, compile, parse_graph};
use serde_json::{Value, json};

const LOOP: &str = r#"{
  "format": "switchyard/graph@1",
  "state": { "count": { "type": "number", "reducer": "add" } },
  "nodes": [ { "id": "start", "kind": "start" },
             { "id": "inc", "kind": "set", "set": { "count": "1" } },
             { "id": "end", "kind": "end" } ],
  "edges": [ { "from": "start", "to": "inc" },
             { "from": "inc", "to": "inc", "when": "state.count < 3" },
             { "from": "inc", "to": "end", "when": "state.count >= 3" } ]
}"#;

#[test]
fn a_graph_written_as_a_list_is_refused() {
    // serde's sequence form of the Graph struct: format, name, description, state, nodes, …
    let seq = r#"["switchyard/graph@1", null, null, null, [], [], null, null]"#;
    let err = parse_graph(seq).expect_err("an error");
    assert!(err.message.contains("must be a JSON object"), "{err}");
    let err = parse_graph("[]").expect_err("an error");
    assert!(err.message.contains("must be a JSON object"), "{err}");
    assert!(!err.message.contains("struct"), "{err}");
    // Nested objects too: a node or the limits as a list.
    let err = parse_graph(r#"{"format": "switchyard/graph@1", "nodes": [["start", "start"]]}"#).expect_err("an error");
    assert_eq!(err.path, "nodes[0]");
    let err = parse_graph(r#"{"format": "switchyard/graph@1", "nodes": [], "limits": [5]}"#).expect_err("an error");
    assert_eq!(err.path, "limits");
}

#[test]
fn no_rust_type_name_reaches_a_message() {
    let docs = [
        "[]",
        "[1, 2]",
        "5",
        r#"{"format": "switchyard/graph@1", "nodes": [{"id": "a", "kind": 5}]}"#,
        r#"{"format": "switchyard/graph@1", "nodes": [{"id": "a", "kind": {"start": 1}}]}"#,
        r#"{"format": "switchyard/graph@1", "nodes": [{"id": "a", "kind": []}]}"#,
        r#"{"format": "switchyard/graph@1", "nodes": [], "layout": {"a": [1, 2]}}"#,
        r#"{"format": "switchyard/graph@1", "nodes": [], "layout": {"viewport": 3}}"#,
        r#"{"format": "switchyard/graph@1", "nodes": [{"id": "a", "kind": "llm", "model": []}]}"#,
        r#"{"format": "switchyard/graph@1", "nodes": [], "state": {"a": {"type": []}}}"#,
        r#"{"format": "switchyard/graph@1", "nodes": [], "state": {"a": []}}"#,
    ];
    for doc in docs {
        let err = parse_graph(doc).expect_err("an error").to_string();
        for word in ["struct", "enum ", "variant", "Graph", "Node ", "Limits", "unit", "elements", "usize", "u64"] {
            assert!(!err.contains(word), "{doc}: {err}");
        }
    }
    for doc in ["[]", r#"{"format": "switchyard/run@1", "status": 5}"#, r#"{"format": "x", "steps": [[]]}"#] {
        let err = parse_object_as::<RunRecord>(doc).expect_err("an error").to_string();
        for word in ["struct", "RunRecord", "StepDoc", "variant", "elements"] {
            assert!(!err.contains(word), "{doc}: {err}");
        }
    }
}

/// A finished run of [`LOOP`] as record JSON.
fn record() -> Value {
    let plan = Rc::new(compile(&parse_graph(LOOP).expect("test setup")).plan.expect("test setup"));
    let host = OfflineHost::new();
    let mut run = Run::start(plan, json!({}), &host).expect("test setup");
    pollster::block_on(run.run(&host));
    serde_json::to_value(run.record(true)).expect("test setup")
}

/// The error path of resuming `record`.
fn resume_error(record: &Value) -> String {
    let plan = Rc::new(compile(&parse_graph(LOOP).expect("test setup")).plan.expect("test setup"));
    let record: RunRecord = serde_json::from_value(record.clone()).expect("test setup");
    match Run::from_record(plan, &record, &OfflineHost::new()) {
        Ok(_) => "accepted".into(),
        Err(e) => e.path,
    }
}

#[test]
fn an_untouched_record_is_accepted() {
    assert_eq!(resume_error(&record()), "accepted");
}

#[test]
fn tampered_records_are_refused_naming_the_field() {
    type Tamper = fn(&mut Value);
    let cases: [(&str, Tamper); 11] = [
        ("steps[1].ran[0]", |r| r["steps"][1]["ran"][0] = json!("end")),
        ("steps[0].ran[0]", |r| r["steps"][0]["ran"][0] = json!("start")),
        ("steps[2].ran[0]", |r| r["steps"][2]["ran"][0] = json!("nobody")),
        ("steps[0].next[0]", |r| r["steps"][0]["next"][0] = json!("end")),
        ("steps[1].taken[0]", |r| r["steps"][1]["taken"] = json!([99])),
        ("steps[1].patch", |r| {
            r["steps"][1]["patch"] = json!([{"op": "remove", "path": "/nothing/here"}]);
        }),
        ("steps[1].state", |r| r["steps"][1]["state"] = json!({"count": 7})),
        ("steps[0].duration_ms", |r| r["steps"][0]["duration_ms"] = json!(-1e12)),
        ("steps[1].step", |r| r["steps"][1]["step"] = json!(7)),
        ("steps[0].updates.end", |r| r["steps"][0]["updates"] = json!({"end": {"count": 1}})),
        ("next[0]", |r| r["next"] = json!(["start"])),
    ];
    for (path, tamper) in cases {
        let mut r = record();
        tamper(&mut r);
        assert_eq!(resume_error(&r), path, "{path}");
    }
}

/// Two map instances due after step 1, and a node that no map edge leads to.
const MAPPED: &str = r#"{
  "format": "switchyard/graph@1",
  "state": { "out": { "type": "list", "reducer": "append" } },
  "nodes": [ { "id": "start", "kind": "start" },
             { "id": "split", "kind": "set", "set": { "out": "0" } },
             { "id": "work", "kind": "set", "set": { "out": "item" } },
             { "id": "end", "kind": "end" } ],
  "edges": [ { "from": "start", "to": "split" },
             { "from": "split", "to": "work", "map": "[1, 2]" },
             { "from": "work", "to": "end" } ]
}"#;

/// The record of a run of [`MAPPED`] that stopped after step 1 (an answer-free way to stop
/// with instances due: the step limit).
fn mapped_record() -> Value {
    let graph = MAPPED.replace(r#""edges""#, r#""limits": { "max_steps": 1 }, "edges""#);
    let plan = Rc::new(compile(&parse_graph(&graph).expect("test setup")).plan.expect("test setup"));
    let host = OfflineHost::new();
    let mut run = Run::start(plan, json!({}), &host).expect("test setup");
    pollster::block_on(run.run(&host));
    serde_json::to_value(run.record(true)).expect("test setup")
}

fn mapped_resume(record: &Value) -> Result<Run, String> {
    let plan = Rc::new(compile(&parse_graph(MAPPED).expect("test setup")).plan.expect("test setup"));
    let record: RunRecord = serde_json::from_value(record.clone()).map_err(|e| e.to_string())?;
    Run::from_record(plan, &record, &OfflineHost::new()).map_err(|e| e.path)
}

#[test]
fn a_record_with_instances_due_resumes_them() {
    let r = mapped_record();
    assert_eq!(r["next"], json!(["work[0]", "work[1]"]));
    assert_eq!(r["steps"][0]["map"], json!({"work": [{"as": "item", "item": 1}, {"as": "item", "item": 2}]}));
    // Resumed under a graph whose step limit is not reached, the instances run.
    let mut run = mapped_resume(&r).expect("accepted");
    run.resume();
    pollster::block_on(run.run(&OfflineHost::new()));
    assert_eq!(run.state_json()["out"], json!([0, 1, 2]));
    assert_eq!(run.steps()[1].ran.len(), 2);
}

#[test]
fn tampered_map_instances_are_refused_naming_the_field() {
    type Tamper = fn(&mut Value);
    let cases: [(&str, Tamper); 7] = [
        ("steps[0].next[1]", |r| r["steps"][0]["next"][1] = json!("work[2]")),
        ("steps[0].next[1]", |r| r["steps"][0]["next"][1] = json!("work[0]")),
        ("steps[0].next[1]", |r| r["steps"][0]["next"][1] = json!("work[01]")),
        ("steps[0].next[0]", |r| r["steps"][0]["next"][0] = json!("split[0]")),
        ("steps[0].map.work", |r| r["steps"][0]["next"] = json!(["work[0]"])),
        ("steps[0].ran[0]", |r| r["steps"][0]["ran"][0] = json!("split[x]")),
        ("next[0]", |r| r["next"][0] = json!("ghost[0]")),
    ];
    for (path, tamper) in cases {
        let mut r = mapped_record();
        tamper(&mut r);
        assert_eq!(mapped_resume(&r).err().as_deref(), Some(path), "{path}");
    }
}

/// The record of a run of [`MAPPED`] stopped at a breakpoint before `work`'s instances.
fn stopped_before_work() -> Value {
    let plan = Rc::new(compile(&parse_graph(MAPPED).expect("test setup")).plan.expect("test setup"));
    let host = OfflineHost::new();
    let mut run = Run::start(plan, json!({}), &host).expect("test setup");
    let before = ["work".to_string()].into_iter().collect();
    run.set_breakpoints(engine::run::Breakpoints { before, after: Default::default() });
    pollster::block_on(run.run(&host));
    serde_json::to_value(run.record(true)).expect("test setup")
}

#[test]
fn a_record_stopped_at_a_breakpoint_resumes_past_it() {
    let r = stopped_before_work();
    assert_eq!(r["status"], "interrupted");
    assert_eq!(r["waiting"], json!([{"node": "work", "breakpoint": "before"}]));
    assert_eq!(r["next"], json!(["work[0]", "work[1]"]));
    // Rebuilt without breakpoints or with the same one, it runs the step it stopped before.
    let mut run = mapped_resume(&r).expect("accepted");
    let before = ["work".to_string()].into_iter().collect();
    run.set_breakpoints(engine::run::Breakpoints { before, after: Default::default() });
    pollster::block_on(run.run(&OfflineHost::new()));
    assert_eq!(run.status(), engine::Status::Completed);
    assert_eq!(run.state_json()["out"], json!([0, 1, 2]));
}

#[test]
fn a_tampered_breakpoint_stop_is_refused_naming_the_field() {
    type Tamper = fn(&mut Value);
    let cases: [(&str, Tamper); 4] = [
        // `split` is not due next: there is no stop before it to pass.
        ("waiting[0].breakpoint", |r| r["waiting"][0]["node"] = json!("split")),
        // `work` did not run in the last step.
        ("waiting[0].breakpoint", |r| r["waiting"][0]["breakpoint"] = json!("after")),
        ("waiting[0].node", |r| r["waiting"][0]["node"] = json!("ghost")),
        ("status", |r| r["waiting"] = json!([])),
    ];
    for (path, tamper) in cases {
        let mut r = stopped_before_work();
        tamper(&mut r);
        assert_eq!(mapped_resume(&r).err().as_deref(), Some(path), "{path}");
    }
}

/// The record of `graph` run to its end, and those taken after each of its steps while it
/// ran (status `running`, as `--record` writes them), the one before step 1 first.
fn records_on_the_way(graph: &str) -> (RunRecord, Vec<RunRecord>) {
    let plan = Rc::new(compile(&parse_graph(graph).expect("test setup")).plan.expect("test setup"));
    let host = OfflineHost::new();
    let mut run = Run::start(plan, json!({}), &host).expect("test setup");
    let mut on_the_way = vec![run.record(true)];
    while run.status() == engine::Status::Running {
        pollster::block_on(run.step(&host));
        on_the_way.push(run.record(true));
    }
    on_the_way.pop();
    (run.record(true), on_the_way)
}

#[test]
fn a_record_written_while_running_continues_from_its_last_step_to_the_same_end() {
    for graph in [LOOP, MAPPED] {
        let (end, on_the_way) = records_on_the_way(graph);
        assert!(on_the_way.len() >= 2, "{graph}");
        for (k, rec) in on_the_way.into_iter().enumerate() {
            assert_eq!(rec.status, engine::Status::Running);
            assert_eq!(rec.step, k as u64);
            let text = serde_json::to_string(&rec).expect("serializes");
            let rec: RunRecord = parse_object_as(&text).expect("a running record reads back");
            let plan = Rc::new(compile(&parse_graph(graph).expect("test setup")).plan.expect("test setup"));
            let host = OfflineHost::new();
            let mut run = Run::from_record(plan, &rec, &host).expect("a running record is accepted");
            assert_eq!(run.next_ids(), rec.next, "what runs next is the record's `next`");
            run.resume();
            pollster::block_on(run.run(&host));
            assert_eq!(run.record(true), end, "resumed after step {k} of {graph}");
        }
    }
}

/// A loop that appends one number per step, `steps` times.
fn append_loop(steps: u32) -> String {
    format!(
        r#"{{
  "format": "switchyard/graph@1",
  "state": {{ "n": {{ "type": "integer" }}, "items": {{ "type": "list", "reducer": "append" }} }},
  "nodes": [ {{ "id": "start", "kind": "start" }},
             {{ "id": "tick", "kind": "set", "set": {{ "n": "state.n + 1", "items": "state.n" }} }},
             {{ "id": "end", "kind": "end" }} ],
  "edges": [ {{ "from": "start", "to": "tick" }},
             {{ "from": "tick", "to": "tick", "when": "state.n < {steps}" }},
             {{ "from": "tick", "to": "end", "when": "state.n >= {steps}" }} ],
  "limits": {{ "max_steps": {} }}
}}"#,
        steps + 1
    )
}

#[test]
fn a_snapshot_that_disagrees_with_the_patches_is_refused_naming_the_field() {
    let mut r = record();
    r["steps"][1]["state"] = json!({"count": 7});
    let plan = Rc::new(compile(&parse_graph(LOOP).expect("test setup")).plan.expect("test setup"));
    let record: RunRecord = serde_json::from_value(r).expect("test setup");
    let Err(e) = Run::from_record(plan, &record, &OfflineHost::new()) else { panic!("a wrong snapshot was accepted") };
    assert_eq!(e.path, "steps[1].state");
    assert!(e.message.contains("`count` is 7 in the snapshot, but the patches give 2"), "{e}");
}

/// A record with every step's state (`--full-states`, or written before snapshots) and one
/// with snapshots read back as the same run, which forks alike from a step without a
/// snapshot.
#[test]
fn full_state_and_snapshot_records_read_back_as_the_same_run() {
    let graph = append_loop(300);
    let plan = Rc::new(compile(&parse_graph(&graph).expect("test setup")).plan.expect("test setup"));
    let host = OfflineHost::new();
    let mut run = Run::start(plan.clone(), json!({}), &host).expect("test setup");
    pollster::block_on(run.run(&host));
    let snapshots = run.record(true);
    let full = run.record_with(true, StepStates::Every);
    let docs = snapshots.steps.as_deref().unwrap_or_default();
    let with_state = docs.iter().filter(|s| s.state.is_some()).count();
    assert!(with_state > 2 && with_state < 100, "{with_state} of 300 steps carry their state");
    assert!(full.steps.as_deref().unwrap_or_default().iter().all(|s| s.state.is_some()));
    let step = docs.iter().position(|s| s.state.is_none()).expect("a step without a snapshot") as u64 + 1;
    let mut forks = Vec::new();
    for record in [&snapshots, &full] {
        let read = Run::from_record(plan.clone(), record, &host).expect("the record reads");
        assert_eq!(read.record(true), snapshots);
        let fork = read.fork(step, None, &host).expect("a fork");
        assert_eq!(fork.state_json()["n"], json!(step));
        forks.push(fork.state_json());
    }
    assert_eq!(forks[0], forks[1]);
}

/// A patch of `copy` operations, each copying the whole state into a new field: each doubles
/// the state, so 40 of them would ask for a terabyte from a few kilobytes of record.
fn doubling_patch() -> Value {
    let mut ops = vec![json!({"op": "add", "path": "/blob", "value": "x".repeat(1000)})];
    ops.extend((0..40).map(|i| json!({"op": "copy", "from": "", "path": format!("/c{i}")})));
    Value::Array(ops)
}

#[test]
fn a_patch_that_doubles_the_state_is_refused_at_the_operation_that_outgrows_it() {
    let mut r = record();
    r["steps"][1]["patch"] = doubling_patch();
    let plan = Rc::new(compile(&parse_graph(LOOP).expect("test setup")).plan.expect("test setup"));
    let record: RunRecord = serde_json::from_value(r).expect("test setup");
    let Err(e) = Run::from_record(plan, &record, &OfflineHost::new()) else { panic!("the record was accepted") };
    assert_eq!(e.path, "steps[1].patch");
    // max_state_bytes is 1 MiB: the state of about 1 KB passes it at the 10th copy.
    assert!(e.message.contains("operation '/10' (`copy` to '/c9') would grow the state"), "{e}");
    assert!(e.message.contains("max_state_bytes"), "{e}");
}

#[test]
fn a_patch_cannot_nest_a_value_past_the_bound() {
    let mut deep = json!(0);
    for _ in 0..300 {
        deep = json!([deep]);
    }
    let inside = "/0".repeat(300);
    let mut r = record();
    r["steps"][1]["patch"] = json!([
        {"op": "add", "path": "/deep", "value": deep.clone()},
        {"op": "replace", "path": format!("/deep{inside}"), "value": deep},
    ]);
    let plan = Rc::new(compile(&parse_graph(LOOP).expect("test setup")).plan.expect("test setup"));
    let record: RunRecord = serde_json::from_value(r).expect("test setup");
    let Err(e) = Run::from_record(plan, &record, &OfflineHost::new()) else { panic!("the record was accepted") };
    assert_eq!(e.path, "steps[1].patch");
    assert!(e.message.contains("operation '/1' (`replace` to '/deep/0/0"), "{e}");
    assert!(e.message.contains("601 levels deep"), "{e}");
}
