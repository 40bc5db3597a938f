//! The API end to end on the embedded store, driven with a plain HTTP client as
//! `langgraph-sdk` drives it: assistants, threads, runs (wait, stream, background, join),
//! interrupts and resume, breakpoints, history and forks, and the errors.

mod support;

use serde_json::{Value, json};
use support::{Server, approval_graph, chat_graph, simple_graph};

fn names(events: &[(String, Value)]) -> Vec<&str> {
    events.iter().map(|(n, _)| n.as_str()).collect()
}

#[test]
fn assistants_are_the_loaded_graphs_with_langgraphs_ids() {
    let server = Server::start(&[simple_graph(), approval_graph()]);
    let (status, list) = server.post("/assistants/search", &json!({"graph_id": "simple"}));
    assert_eq!(status, 200);
    assert_eq!(list.as_array().map(Vec::len), Some(1));
    assert_eq!(list[0]["assistant_id"], "5e0f6b46-d00f-5af4-87dc-ea2105ff526d");
    let (_, all) = server.post("/assistants/search", &json!({}));
    assert_eq!(all.as_array().map(Vec::len), Some(2));
    let (status, one) = server.get("/assistants/approval");
    assert_eq!((status, one["graph_id"].clone()), (200, json!("approval")));
    let (_, graph) = server.get("/assistants/simple/graph");
    let nodes: Vec<&str> = graph["nodes"].as_array().into_iter().flatten().filter_map(|n| n["id"].as_str()).collect();
    assert_eq!(nodes, ["__start__", "inc", "shout", "__end__"]);
    let (_, schemas) = server.get("/assistants/simple/schemas");
    assert_eq!(schemas["input_schema"]["required"], json!(["text"]));
    assert_eq!(schemas["state_schema"]["properties"]["count"]["type"], "integer");
    let (status, missing) = server.get("/assistants/nope");
    assert_eq!(status, 404);
    assert!(missing["detail"].as_str().is_some_and(|d| d.contains("nope")));
}

#[test]
fn a_streamed_run_sends_metadata_values_and_updates_in_langgraphs_order() {
    let server = Server::start(&[simple_graph()]);
    let tid = server.thread();
    let body = json!({"assistant_id": "simple", "input": {"text": "yo"}, "stream_mode": ["values", "updates"]});
    let (status, events) = server.stream(&format!("/threads/{tid}/runs/stream"), &body);
    assert_eq!(status, 200);
    assert_eq!(names(&events), ["metadata", "values", "updates", "values", "updates", "values"]);
    assert!(events[0].1["run_id"].is_string());
    assert_eq!(events[1].1, json!({"text": "yo", "count": 0, "echo": ""}));
    assert_eq!(events[2].1, json!({"inc": {"count": 1}}));
    assert_eq!(events[4].1, json!({"shout": {"echo": "echo: yo"}}));
    assert_eq!(events[5].1, json!({"text": "yo", "count": 1, "echo": "echo: yo"}));
    // The run is over when the stream closes, and the thread idle with the final values.
    let (_, thread) = server.get(&format!("/threads/{tid}"));
    assert_eq!(thread["status"], "idle");
    assert_eq!(thread["values"]["echo"], "echo: yo");
    let (_, runs) = server.get(&format!("/threads/{tid}/runs"));
    assert_eq!(runs[0]["status"], "success");
}

#[test]
fn a_second_run_continues_the_threads_state_and_history_numbers_steps_across_runs() {
    let server = Server::start(&[simple_graph()]);
    let tid = server.thread();
    let wait = format!("/threads/{tid}/runs/wait");
    let (status, first) = server.post(&wait, &json!({"assistant_id": "simple", "input": {"text": "a"}}));
    assert_eq!((status, first["count"].clone()), (200, json!(1)));
    let (_, second) = server.post(&wait, &json!({"assistant_id": "simple", "input": {"text": "b"}}));
    assert_eq!(second, json!({"text": "b", "count": 2, "echo": "echo: b"}), "the count adds to the first run's");
    let (_, history) = server.post(&format!("/threads/{tid}/history"), &json!({"limit": 20}));
    let steps: Vec<i64> =
        history.as_array().into_iter().flatten().filter_map(|h| h["metadata"]["step"].as_i64()).collect();
    // As LangGraph numbers them: each run's input checkpoint (-1 for the first), then its
    // input applied, then a step each.
    assert_eq!(steps, [6, 5, 4, 3, 2, 1, 0, -1]);
    assert_eq!(history[3]["metadata"]["source"], "input");
    assert_eq!(history[3]["next"], json!(["__start__"]));
    let next: Vec<Value> = history.as_array().into_iter().flatten().map(|h| h["next"].clone()).collect();
    assert_eq!(next[..3], [json!([]), json!(["shout"]), json!(["inc"])]);
    // Each checkpoint names its parent: the chain goes back across the runs.
    assert_eq!(history[3]["parent_checkpoint"]["checkpoint_id"], history[4]["checkpoint"]["checkpoint_id"]);
}

#[test]
fn a_chat_thread_keeps_every_message_with_an_id_of_its_own() {
    let server = Server::start(&[chat_graph()]);
    let tid = server.thread();
    let wait = format!("/threads/{tid}/runs/wait");
    let say = |text: &str| json!({"assistant_id": "chat", "input": {"messages": [{"type": "human", "content": text}]}});
    server.post(&wait, &say("hello"));
    let (status, values) = server.post(&wait, &say("again"));
    assert_eq!(status, 200, "{values}");
    let messages = values["messages"].as_array().cloned().unwrap_or_default();
    let types: Vec<&str> = messages.iter().filter_map(|m| m["type"].as_str()).collect();
    assert_eq!(types, ["human", "ai", "human", "ai"]);
    let contents: Vec<&str> = messages.iter().filter_map(|m| m["content"].as_str()).collect();
    // A mock model answers by turn within a run: each run's first call gets the first answer.
    assert_eq!(contents, ["hello", "first answer", "again", "first answer"]);
    let ids: std::collections::BTreeSet<&str> = messages.iter().filter_map(|m| m["id"].as_str()).collect();
    assert_eq!(ids.len(), 4, "{messages:?}");
}

#[test]
fn a_human_node_is_an_interrupt_and_a_resume_answers_it() {
    let server = Server::start(&[approval_graph()]);
    let tid = server.thread();
    let wait = format!("/threads/{tid}/runs/wait");
    let (status, stopped) = server.post(&wait, &json!({"assistant_id": "approval", "input": {"request": "a laptop"}}));
    assert_eq!(status, 200);
    let interrupt = &stopped["__interrupt__"][0];
    assert_eq!(interrupt["value"]["node"], "review");
    assert_eq!(interrupt["value"]["prompt"], "Approve a laptop?");
    assert_eq!(interrupt["value"]["options"], json!(["approve", "reject"]));
    let (_, thread) = server.get(&format!("/threads/{tid}"));
    assert_eq!(thread["status"], "interrupted");
    let (_, state) = server.get(&format!("/threads/{tid}/state"));
    assert_eq!(state["next"], json!(["review"]));
    assert_eq!(state["tasks"][0]["interrupts"][0]["id"], interrupt["id"]);
    let (_, runs) = server.get(&format!("/threads/{tid}/runs"));
    assert_eq!(runs[0]["status"], "success", "a run stopped at an interrupt ends `success`");

    // An answer the node does not take is refused, the thread unchanged.
    let (status, refused) = server.post(&wait, &json!({"assistant_id": "approval", "command": {"resume": "maybe"}}));
    assert_eq!(status, 422, "{refused}");
    assert!(refused["detail"].as_str().is_some_and(|d| d.contains("maybe")), "{refused}");
    let (_, thread) = server.get(&format!("/threads/{tid}"));
    assert_eq!(thread["status"], "interrupted");

    let (status, done) = server.post(&wait, &json!({"assistant_id": "approval", "command": {"resume": "approve"}}));
    assert_eq!(status, 200, "{done}");
    assert_eq!(done["done"], "handled: approve");
    assert!(done.get("__interrupt__").is_none());
    let (_, thread) = server.get(&format!("/threads/{tid}"));
    assert_eq!((thread["status"].clone(), thread["interrupts"].clone()), (json!("idle"), json!({})));
}

#[test]
fn a_stream_that_stops_at_an_interrupt_ends_with_it_in_updates_and_values() {
    let server = Server::start(&[approval_graph()]);
    let tid = server.thread();
    let body = json!({"assistant_id": "approval", "input": {"request": "x"}, "stream_mode": ["values", "updates"]});
    let (_, events) = server.stream(&format!("/threads/{tid}/runs/stream"), &body);
    let last_two = &events[events.len() - 2..];
    assert_eq!(last_two[0].0, "updates");
    assert_eq!(last_two[0].1["__interrupt__"][0]["value"]["node"], "review");
    assert_eq!(last_two[1].0, "values");
    assert_eq!(last_two[1].1["__interrupt__"][0]["value"]["node"], "review");
}

#[test]
fn breakpoints_stop_before_a_node_and_a_run_without_input_goes_on() {
    let server = Server::start(&[simple_graph()]);
    let tid = server.thread();
    let wait = format!("/threads/{tid}/runs/wait");
    let body = json!({"assistant_id": "simple", "input": {"text": "hi"}, "interrupt_before": ["shout"]});
    let (_, stopped) = server.post(&wait, &body);
    assert_eq!(stopped, json!({"text": "hi", "count": 1, "echo": ""}));
    let (_, thread) = server.get(&format!("/threads/{tid}"));
    assert_eq!((thread["status"].clone(), thread["interrupts"].clone()), (json!("interrupted"), json!({})));
    let (_, state) = server.get(&format!("/threads/{tid}/state"));
    assert_eq!(state["next"], json!(["shout"]));
    assert_eq!(state["tasks"][0]["interrupts"], json!([]));
    let (_, done) = server.post(&wait, &json!({"assistant_id": "simple"}));
    assert_eq!(done["echo"], "echo: hi");
}

#[test]
fn update_state_at_an_earlier_checkpoint_forks_and_the_next_run_goes_on_from_it() {
    let server = Server::start(&[simple_graph()]);
    let tid = server.thread();
    let wait = format!("/threads/{tid}/runs/wait");
    server.post(&wait, &json!({"assistant_id": "simple", "input": {"text": "orig"}}));
    let (_, history) = server.post(&format!("/threads/{tid}/history"), &json!({}));
    let before_shout = history
        .as_array()
        .into_iter()
        .flatten()
        .find(|h| h["next"] == json!(["shout"]))
        .map(|h| h["checkpoint"]["checkpoint_id"].clone())
        .expect("the checkpoint before shout");
    let (status, written) = server
        .post(&format!("/threads/{tid}/state"), &json!({"values": {"text": "forked"}, "checkpoint_id": before_shout}));
    assert_eq!(status, 200, "{written}");
    let new_id = written["checkpoint"]["checkpoint_id"].clone();
    let (_, state) = server.get(&format!("/threads/{tid}/state"));
    assert_eq!(state["checkpoint"]["checkpoint_id"], new_id);
    assert_eq!(state["next"], json!(["shout"]));
    assert_eq!(state["metadata"]["source"], "update");
    assert_eq!(state["values"]["text"], "forked");
    let (_, done) = server.post(&wait, &json!({"assistant_id": "simple", "checkpoint_id": new_id}));
    assert_eq!(done, json!({"text": "forked", "count": 1, "echo": "echo: forked"}));
    // The old branch is still in the history.
    let (_, old) = server.get(&format!(
        "/threads/{tid}/state/{}",
        history[0]["checkpoint"]["checkpoint_id"].as_str().unwrap_or_default()
    ));
    assert_eq!(old["values"]["echo"], "echo: orig");
}

#[test]
fn background_runs_are_joined_and_listed_and_headers_name_the_run() {
    let server = Server::start(&[simple_graph()]);
    let tid = server.thread();
    let response = support::agent()
        .post(&server.url(&format!("/threads/{tid}/runs")))
        .send_json(json!({"assistant_id": "simple", "input": {"text": "bg"}}))
        .expect("answered");
    let location = response.headers().get("content-location").and_then(|v| v.to_str().ok()).map(str::to_string);
    let mut response = response;
    let run: Value =
        serde_json::from_str(&response.body_mut().read_to_string().unwrap_or_default()).unwrap_or_default();
    let rid = run["run_id"].as_str().unwrap_or_default().to_string();
    assert_eq!(location, Some(format!("/threads/{tid}/runs/{rid}")));
    let (status, joined) = server.get(&format!("/threads/{tid}/runs/{rid}/join"));
    assert_eq!((status, joined["echo"].clone()), (200, json!("echo: bg")));
    let (_, one) = server.get(&format!("/threads/{tid}/runs/{rid}"));
    assert_eq!(one["status"], "success");
    // Joining the stream of an ended run gives its events, up to its final values, at once.
    let (_, events) = server.get_stream(&format!("/threads/{tid}/runs/{rid}/stream"));
    assert_eq!(names(&events).first(), Some(&"metadata"));
    assert_eq!(events.last().map(|(n, v)| (n.as_str(), v["echo"].clone())), Some(("values", json!("echo: bg"))));
}

#[test]
fn stateless_runs_use_a_thread_that_goes_away() {
    let server = Server::start(&[simple_graph()]);
    let (status, values) = server.post("/runs/wait", &json!({"assistant_id": "simple", "input": {"text": "s"}}));
    assert_eq!((status, values["echo"].clone()), (200, json!("echo: s")));
    let (status, events) = server
        .stream("/runs/stream", &json!({"assistant_id": "simple", "input": {"text": "t"}, "stream_mode": "updates"}));
    assert_eq!(status, 200);
    assert_eq!(names(&events), ["metadata", "updates", "updates"]);
}

#[test]
fn bad_requests_get_langgraphs_status_codes_and_a_detail() {
    let server = Server::start(&[simple_graph()]);
    let tid = server.thread();
    let wait = format!("/threads/{tid}/runs/wait");
    let cases = [
        (json!({"input": {"text": "x"}}), "assistant_id"),
        (json!({"assistant_id": "nope"}), "nope"),
        (json!({"assistant_id": "simple", "input": {"text": "x"}, "stream_mode": "bogus"}), "bogus"),
        (json!({"assistant_id": "simple", "input": {}}), "input.text"),
        (json!({"assistant_id": "simple", "input": {"text": 5}}), "input.text"),
        (json!([1, 2]), "object"),
    ];
    for (body, said) in cases {
        let (status, answer) = server.post(&wait, &body);
        assert_eq!(status, 422, "{body} → {answer}");
        assert!(answer["detail"].as_str().is_some_and(|d| d.contains(said)), "{body} → {answer}");
    }
    let (status, _) =
        server.post("/threads/nope/runs/wait", &json!({"assistant_id": "simple", "input": {"text": "x"}}));
    assert_eq!(status, 404);
    let (status, _) = server.get("/threads/nope");
    assert_eq!(status, 404);
    let big = "x".repeat(5 << 20);
    let (status, _) = server.post(&wait, &json!({"assistant_id": "simple", "input": {"text": big}}));
    assert_eq!(status, 413);
    let (status, answer) = server.post("/store/items/search", &json!({}));
    assert_eq!(status, 404);
    assert!(answer["detail"].as_str().is_some_and(|d| d.contains("not supported by switchyard server")));
    let (status, _) =
        server.post(&wait, &json!({"assistant_id": "simple", "input": {"text": "x"}, "checkpoint_id": "nope"}));
    assert_eq!(status, 422);
}

#[test]
fn threads_are_searched_deleted_and_copied() {
    let server = Server::start(&[simple_graph()]);
    let (_, t) = server.post("/threads", &json!({"metadata": {"user": "ann"}}));
    let tid = t["thread_id"].as_str().unwrap_or_default().to_string();
    server.post(&format!("/threads/{tid}/runs/wait"), &json!({"assistant_id": "simple", "input": {"text": "c"}}));
    server.thread();
    let (_, found) = server.post("/threads/search", &json!({"metadata": {"user": "ann"}}));
    assert_eq!(found.as_array().map(Vec::len), Some(1));
    assert_eq!(found[0]["metadata"]["graph_id"], "simple");
    let (_, copy) = server.post(&format!("/threads/{tid}/copy"), &json!({}));
    let cid = copy["thread_id"].as_str().unwrap_or_default().to_string();
    assert_ne!(cid, tid);
    assert_eq!(copy["values"]["echo"], "echo: c");
    let (_, history) = server.post(&format!("/threads/{cid}/history"), &json!({}));
    assert_eq!(history.as_array().map(Vec::len), Some(4));
    assert_eq!(server.delete(&format!("/threads/{tid}")), 204);
    assert_eq!(server.get(&format!("/threads/{tid}")).0, 404);
    assert_eq!(server.get(&format!("/threads/{cid}")).0, 200, "the copy stays");
}

#[test]
fn several_waiting_nodes_are_answered_at_once_by_interrupt_id() {
    let graph = json!({
        "format": "switchyard/graph@1",
        "name": "two",
        "state": {"a": {"type": "string"}, "b": {"type": "string"}},
        "nodes": [
            {"id": "start", "kind": "start"},
            {"id": "ask_a", "kind": "human", "prompt": "a?", "writes": "a"},
            {"id": "ask_b", "kind": "human", "prompt": "b?", "writes": "b"},
            {"id": "end", "kind": "end"}
        ],
        "edges": [{"from": "start", "to": "ask_a"}, {"from": "start", "to": "ask_b"},
                  {"from": "ask_a", "to": "end"}, {"from": "ask_b", "to": "end"}]
    });
    let server = Server::start(&[graph]);
    let tid = server.thread();
    let wait = format!("/threads/{tid}/runs/wait");
    let (_, stopped) = server.post(&wait, &json!({"assistant_id": "two", "input": {}}));
    let interrupts = stopped["__interrupt__"].as_array().cloned().unwrap_or_default();
    assert_eq!(interrupts.len(), 2, "{stopped}");
    let id_of = |node: &str| {
        interrupts.iter().find(|i| i["value"]["node"] == node).map(|i| i["id"].clone()).unwrap_or_default()
    };
    let (status, refused) = server.post(&wait, &json!({"assistant_id": "two", "command": {"resume": "both"}}));
    assert_eq!(status, 422, "one value for two waiting nodes is refused: {refused}");
    let mut answers = serde_json::Map::new();
    answers.insert(id_of("ask_a").as_str().unwrap_or_default().to_string(), json!("x"));
    answers.insert(id_of("ask_b").as_str().unwrap_or_default().to_string(), json!("y"));
    let (status, done) = server.post(&wait, &json!({"assistant_id": "two", "command": {"resume": answers}}));
    assert_eq!(status, 200, "{done}");
    assert_eq!((done["a"].clone(), done["b"].clone()), (json!("x"), json!("y")));
}
