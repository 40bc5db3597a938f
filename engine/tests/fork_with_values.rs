//! Forking with edited values (an editor's "edit the state at this step and run on").

use std::rc::Rc;

use engine::{OfflineHost, Run, Status, compile, parse_graph};
use serde_json::{Value, json};

#[test]
fn edited_values_are_set_as_given_and_the_original_stays() {
    let graph = parse_graph(
        &json!({
            "format": "switchyard/graph@1",
            "state": { "n": {"type": "integer", "reducer": "add"}, "log": {"type": "list", "reducer": "append"} },
            "nodes": [
                {"id": "start", "kind": "start"},
                {"id": "tick", "kind": "set", "set": {"n": "1", "log": "step"}},
                {"id": "end", "kind": "end"}
            ],
            "edges": [
                {"from": "start", "to": "tick"},
                {"from": "tick", "to": "tick", "when": "state.n < 3"},
                {"from": "tick", "to": "end", "when": "state.n >= 3"}
            ]
        })
        .to_string(),
    )
    .unwrap();
    let plan = Rc::new(compile(&graph).plan.unwrap());
    let host = OfflineHost::new();
    let mut run = Run::start(plan, json!({}), &host).unwrap();
    pollster::block_on(run.run(&host));
    assert_eq!(run.state_json()["log"], json!([1, 2, 3]));
    let before = serde_json::to_string(&run.record(true)).unwrap();

    let edits = json!({"n": 10, "log": ["edited"]}).as_object().cloned().unwrap();
    let mut fork = run.fork_with_values(1, edits, &host).unwrap();
    pollster::block_on(fork.run(&host));
    assert_eq!(fork.status(), Status::Completed);
    // n was set to 10 (not added), the list replaced (not appended to); step 2 then ran once.
    assert_eq!(fork.state_json()["n"], json!(11));
    assert_eq!(fork.state_json()["log"], json!(["edited", 2]));
    assert_eq!(serde_json::to_string(&run.record(true)).unwrap(), before);

    // The fork's patches still chain from the initial state.
    let rec = serde_json::to_value(fork.record(true)).unwrap();
    let mut state = Value::Object(fork.state_at(0).unwrap().to_json());
    for s in rec["steps"].as_array().unwrap() {
        let patch: json_patch::Patch = serde_json::from_value(s["patch"].clone()).unwrap();
        json_patch::patch(&mut state, &patch).unwrap();
        assert_eq!(state, s["state"]);
    }

    // A value of the wrong type is refused with its path.
    let bad = json!({"n": "ten"}).as_object().cloned().unwrap();
    let err = run.fork_with_values(1, bad, &host).err().unwrap();
    assert_eq!(err.path, "state.n");
}
