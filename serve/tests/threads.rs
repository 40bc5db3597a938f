//! LangGraph threads on a real Restate server (`switchyard server --restate`'s side): two
//! clients that share nothing but the ingress stand for two server replicas; a run started
//! through one is resumed, read, forked and updated through the other, and a worker killed
//! mid-run repeats no model call.

mod support;

use std::time::Duration;

use serde_json::{Map, Value, json};
use support::approval_graph;
use support::fake_openai::FakeOpenAi;
use support::restate::Restate;
use switchyard_serve::client::{RestateThreads, RunStart, RunStatus, RunView};

const WITHIN: Duration = Duration::from_secs(60);

/// Two replicas: clients of the same ingress, holding nothing else.
fn replicas(restate: &Restate, graph: &Value) -> (RestateThreads, RestateThreads) {
    let one = RestateThreads::new(&restate.ingress, std::slice::from_ref(graph)).expect("replica 1");
    let two = RestateThreads::new(&restate.ingress, std::slice::from_ref(graph)).expect("replica 2");
    (one, two)
}

fn start(graph: &Value) -> RunStart {
    RunStart { assistant_id: "drafted-reply".into(), graph: graph.clone(), ..RunStart::default() }
}

fn ended(replica: &RestateThreads, thread: &str, run: &str) -> RunView {
    let view = replica.wait_run(thread, run, WITHIN).expect("the run reads");
    assert!(view.status.is_final(), "run {run} did not end: {view:?}");
    view
}

fn object(v: Value) -> Map<String, Value> {
    v.as_object().cloned().expect("an object")
}

#[test]
fn a_run_stops_for_its_answer_and_is_resumed_read_and_forked_through_another_replica() {
    let model = FakeOpenAi::start();
    let restate = Restate::start();
    let graph = approval_graph(&model.base_url());
    let (one, two) = replicas(&restate, &graph);

    let thread = one.create_thread(None, object(json!({"owner": "ana"})), false).expect("thread").thread_id;
    assert_eq!(two.thread(&thread).expect("seen by the other").metadata, object(json!({"owner": "ana"})));
    let first = one
        .start_run(&thread, RunStart { input: Some(json!({"request": "Move the launch"})), ..start(&graph) })
        .expect("run");
    // (A second run while the first goes on is refused: tests/server's reject test holds the
    // model's reply to make sure the thread is busy. Here the first run may already wait for
    // its answer, and a new run on a waiting thread is allowed, as in LangGraph.)

    let stopped = ended(&two, &thread, &first.run_id);
    assert_eq!(stopped.status, RunStatus::Success);
    assert_eq!(stopped.interrupts.len(), 1, "{stopped:?}");
    assert_eq!(stopped.interrupts[0].node, "approve");
    assert_eq!(stopped.interrupts[0].value["options"], json!(["approve", "reject"]));
    assert_eq!(stopped.values["draft"], FakeOpenAi::reply_to("Write a reply to: Move the launch"));
    assert_eq!(stopped.values_before.as_ref().map(|v| v["request"].clone()), Some(json!("Move the launch")));
    assert_eq!(stopped.steps.iter().map(|s| s.ran.clone()).collect::<Vec<_>>(), vec![vec!["draft".to_string()]]);

    // A wrong answer is refused (422) and changes nothing; the right one resumes the run.
    let wrong = two.start_run(&thread, RunStart { resume: Some(json!("maybe")), ..start(&graph) });
    assert_eq!(wrong.map(|_| ()).map_err(|e| e.status), Err(422));
    let resumed = two.start_run(&thread, RunStart { resume: Some(json!("approve")), ..start(&graph) }).expect("resume");
    let done = ended(&one, &thread, &resumed.run_id);
    assert_eq!(done.status, RunStatus::Success);
    assert!(done.interrupts.is_empty());
    assert_eq!(done.values["published"], true);
    assert_eq!(done.values["decision"], "approve");
    assert_eq!(model.total_calls(), 1);

    // History: every checkpoint, newest first, steps counting down, each pointing at its parent.
    let history = one.checkpoints(&thread).expect("history");
    // LangGraph's numbering: -1 before the input, 0 with it applied, one per step after.
    let steps: Vec<i64> = history.iter().map(|c| c.thread_step).collect();
    assert_eq!(steps, (-1..history.len() as i64 - 1).rev().collect::<Vec<_>>(), "{history:?}");
    assert_eq!(history.last().map(|c| (c.source, c.next.clone())), Some(("input", vec!["__start__".to_string()])));
    for pair in history.windows(2) {
        assert_eq!(pair[0].parent.as_ref(), Some(&pair[1].checkpoint));
    }
    assert!(history[0].next.is_empty());
    assert_eq!(history[0].values["published"], true);
    let before_answer = history.iter().find(|c| c.next == ["approve"]).expect("the checkpoint before approve");

    // update_state there, then a run without input: it stops at the same question, with the
    // edited request and the draft kept (no new model call); a reject ends it unpublished.
    let edited = two
        .update_state(&thread, object(json!({"request": "edited"})), Some(&before_answer.checkpoint.id()))
        .expect("update_state");
    let head = one.head(&one.thread(&thread).expect("thread")).expect("head").expect("a head");
    assert_eq!(head.checkpoint, edited);
    assert_eq!(head.values["request"], "edited");
    assert_eq!(head.source, "update");
    let again = one.start_run(&thread, start(&graph)).expect("run from the update");
    let asked = ended(&two, &thread, &again.run_id);
    assert_eq!(asked.interrupts.len(), 1, "{asked:?}");
    assert_eq!(asked.values["request"], "edited");
    let rejected = one.start_run(&thread, RunStart { resume: Some(json!("reject")), ..start(&graph) }).expect("resume");
    let forked = ended(&two, &thread, &rejected.run_id);
    assert_eq!(forked.values["published"], false);
    assert_eq!(forked.values["draft"], done.values["draft"]);
    assert_eq!(model.total_calls(), 1, "the fork reused the draft");
    // The original branch stays in the history.
    let history = two.checkpoints(&thread).expect("history");
    assert!(history.iter().any(|c| c.values.get("published") == Some(&json!(true))));

    // A new input continues from the thread's values, through the reducers.
    let next = two
        .start_run(&thread, RunStart { input: Some(json!({"request": "Second request"})), ..start(&graph) })
        .expect("a second input");
    let second = ended(&one, &thread, &next.run_id);
    assert_eq!(second.values["request"], "Second request");
    assert_eq!(second.interrupts.len(), 1);
    assert_eq!(model.total_calls(), 2);
}

#[test]
fn breakpoints_stop_a_run_and_a_run_without_input_goes_on() {
    let model = FakeOpenAi::start();
    let restate = Restate::start();
    let graph = approval_graph(&model.base_url());
    let (one, two) = replicas(&restate, &graph);
    let thread = one.create_thread(Some("bp-thread".into()), Map::new(), false).expect("thread").thread_id;
    assert_eq!(two.create_thread(Some("bp-thread".into()), Map::new(), false).map_err(|e| e.status).err(), Some(409));

    let run = one
        .start_run(
            &thread,
            RunStart {
                input: Some(json!({"request": "Stop first"})),
                interrupt_before: vec!["draft".into()],
                ..start(&graph)
            },
        )
        .expect("run");
    let stopped = ended(&two, &thread, &run.run_id);
    assert_eq!(stopped.status, RunStatus::Success);
    assert!(stopped.at_breakpoint && stopped.interrupts.is_empty(), "{stopped:?}");
    assert_eq!(stopped.next, ["draft"]);
    assert_eq!(model.total_calls(), 0);

    let on = two.start_run(&thread, start(&graph)).expect("go on");
    let asked = ended(&one, &thread, &on.run_id);
    assert_eq!(asked.interrupts.len(), 1, "{asked:?}");
    assert_eq!(model.total_calls(), 1);

    let resumed = one
        .start_run(
            &thread,
            RunStart { resume: Some(json!("approve")), interrupt_after: vec!["publish".into()], ..start(&graph) },
        )
        .expect("resume");
    let after = ended(&two, &thread, &resumed.run_id);
    assert!(after.at_breakpoint, "{after:?}");
    assert_eq!(after.values["published"], true);

    // Cancelled while its webhook call is out: it ends after that step, `interrupted`.
    model.set_hook_delay_ms(1500);
    let last = two.start_run(&thread, start(&graph)).expect("go on again");
    let since = std::time::Instant::now();
    while model.hooks().is_empty() {
        assert!(since.elapsed() < WITHIN, "no webhook call was made");
        std::thread::sleep(Duration::from_millis(10));
    }
    one.cancel_run(&thread, &last.run_id).expect("cancelled");
    let cancelled = ended(&two, &thread, &last.run_id);
    assert_eq!(cancelled.status, RunStatus::Interrupted, "{cancelled:?}");
    assert_eq!(one.cancel_run(&thread, &last.run_id).map_err(|e| e.status), Err(409));
    one.delete_thread(&thread).expect("deleted");
    assert_eq!(two.thread(&thread).map_err(|e| e.status).err(), Some(404));
}

#[test]
fn a_worker_killed_mid_run_is_replayed_without_repeating_a_model_call() {
    let model = FakeOpenAi::start();
    let mut restate = Restate::start();
    let graph = approval_graph(&model.base_url());
    let (one, two) = replicas(&restate, &graph);
    let threads: Vec<String> =
        (0..4).map(|_| one.create_thread(None, Map::new(), false).expect("thread").thread_id).collect();
    for (i, thread) in threads.iter().enumerate() {
        let input = json!({"request": format!("request {i}")});
        let run = one.start_run(thread, RunStart { input: Some(input), ..start(&graph) }).expect("run");
        ended(&two, thread, &run.run_id);
    }
    // Resume every thread, and kill the worker while their webhook calls are out.
    model.set_hook_delay_ms(1500);
    let resumed: Vec<String> = threads
        .iter()
        .map(|t| two.start_run(t, RunStart { resume: Some(json!("approve")), ..start(&graph) }).expect("resume").run_id)
        .collect();
    let since = std::time::Instant::now();
    while model.hooks().is_empty() {
        assert!(since.elapsed() < WITHIN, "no webhook call was made");
        std::thread::sleep(Duration::from_millis(10));
    }
    restate.kill_service();
    std::thread::sleep(Duration::from_millis(300));
    model.set_hook_delay_ms(0);
    restate.start_service();
    for (thread, run) in threads.iter().zip(&resumed) {
        let done = ended(&one, thread, run);
        assert_eq!(done.status, RunStatus::Success, "{done:?}");
        assert_eq!(done.values["published"], true);
    }
    for (prompt, calls) in model.calls() {
        assert_eq!(calls, 1, "{prompt}: asked again after the kill");
    }
    assert_eq!(model.calls().len(), threads.len());
    assert_eq!(model.hooks().len(), threads.len());
}
