//! Starting a run from the state an earlier run left (a conversation kept as a chain of runs).

use std::rc::Rc;

use engine::run::StartFrom;
use engine::{OfflineHost, Plan, Run, Status, compile, parse_graph};
use serde_json::{Map, Value, json};

/// A chat graph: the input's messages, then a reply counting the transcript.
fn chat_plan() -> Rc<Plan> {
    let graph = parse_graph(
        &json!({
            "format": "switchyard/graph@1",
            "name": "chat",
            "state": {
                "messages": {"type": "messages"},
                "turns": {"type": "integer", "reducer": "add"},
                "topic": {"type": "string"}
            },
            "nodes": [
                {"id": "start", "kind": "start", "required": ["topic"]},
                {"id": "reply", "kind": "set", "set": {
                    "turns": "1",
                    "messages": "#{role: \"assistant\", content: `seen ${state.messages.len()}`}"
                }},
                {"id": "end", "kind": "end"}
            ],
            "edges": [{"from": "start", "to": "reply"}, {"from": "reply", "to": "end"}]
        })
        .to_string(),
    )
    .expect("the graph parses");
    Rc::new(compile(&graph).plan.expect("the graph compiles"))
}

fn object(v: Value) -> Map<String, Value> {
    v.as_object().cloned().expect("an object")
}

fn ids(state: &Map<String, Value>) -> Vec<String> {
    let messages = state["messages"].as_array().expect("a list of messages");
    messages.iter().map(|m| m["id"].as_str().expect("an id").to_string()).collect()
}

#[test]
fn a_second_run_continues_the_first_runs_state_and_its_input_messages_get_fresh_ids() {
    let (plan, host) = (chat_plan(), OfflineHost::new());
    let mut first = Run::start(plan.clone(), json!({"topic": "x", "messages": "hello"}), &host).unwrap();
    pollster::block_on(first.run(&host));
    assert_eq!(first.status(), Status::Completed);
    let after_first = first.state_json();
    assert_eq!(after_first["turns"], json!(1));

    // Checkpoint step 2 of the chain: 0 (input) and 1 (reply) were the first run's.
    let from = StartFrom { state: &after_first, step: 2 };
    let mut second = Run::start_from(plan.clone(), from, json!({"messages": "again"}), &host).unwrap();
    assert_eq!(second.state_at(0).unwrap().get("turns"), Some(json!(1)), "the input applies to the earlier state");
    pollster::block_on(second.run(&host));
    let state = second.state_json();
    // Reducers go on from the earlier values: one more turn, two more messages, none replaced.
    assert_eq!(state["turns"], json!(2));
    assert_eq!(state["topic"], json!("x"), "a required key the earlier state holds need not be given again");
    let contents: Vec<&str> =
        state["messages"].as_array().unwrap().iter().map(|m| m["content"].as_str().unwrap()).collect();
    assert_eq!(contents, ["hello", "seen 1", "again", "seen 3"]);
    let ids = ids(&state);
    // Ids name the step counted across both runs: the second run's step 1 is the chain's 3.
    assert_eq!(ids, ["input:0:1", "reply:1:1", "input:2:1", "reply:3:1"]);
    let unique: std::collections::BTreeSet<&String> = ids.iter().collect();
    assert_eq!(unique.len(), ids.len(), "every message keeps an id of its own: {ids:?}");
}

#[test]
fn a_run_started_from_a_state_is_rebuilt_from_its_record_and_that_state() {
    let (plan, host) = (chat_plan(), OfflineHost::new());
    let earlier = object(json!({"topic": "x", "turns": 5, "messages": []}));
    let from = StartFrom { state: &earlier, step: 7 };
    let mut run = Run::start_from(plan.clone(), from, json!({"messages": "hi"}), &host).unwrap();
    pollster::block_on(run.run(&host));
    let record = run.record(true);

    let rebuilt = Run::from_record_at(plan.clone(), from, &record, &host).unwrap();
    assert_eq!(rebuilt.state_json(), run.state_json());
    assert_eq!(rebuilt.state_json()["turns"], json!(6));
    // Without that state the record's patches do not chain from the defaults.
    assert!(Run::from_record(plan, &record, &host).is_err());
}

#[test]
fn a_missing_required_key_or_a_bad_input_is_refused_with_its_path() {
    let (plan, host) = (chat_plan(), OfflineHost::new());
    let empty = Map::new();
    let err = Run::start_from(plan.clone(), StartFrom { state: &empty, step: 1 }, json!({}), &host).err().unwrap();
    assert_eq!(err.path, "input.topic");
    let earlier = object(json!({"topic": "x", "turns": 0, "messages": []}));
    let from = StartFrom { state: &earlier, step: 1 };
    let err = Run::start_from(plan, from, json!({"turns": "many"}), &host).err().unwrap();
    assert_eq!(err.path, "input.turns");
}
