//! The 000 task loop template, run through the real `switchyard` binary with the inputs a person would
//! try: each test names the seed's rule it protects.

mod binary;
mod template_run;

#[allow(unused_imports, reason = "not every file uses every helper")]
use binary::sy;
#[allow(unused_imports, reason = "not every file uses every helper")]
use serde_json::{Value, json};
#[allow(unused_imports, reason = "not every file uses every helper")]
use std::path::Path;
#[allow(unused_imports, reason = "not every file uses every helper")]
use template_run::*;

// ---------------------------------------------------------------------------------------------
// 000 task loop
// ---------------------------------------------------------------------------------------------

const TASK_LOOP: &str = "000-task-loop.json";

/// The tool calls of a simple-path transcript, as `name(arguments)`.
fn tool_calls(record: &Value) -> Vec<String> {
    record["state"]["messages"]
        .as_array()
        .expect("a transcript")
        .iter()
        .flat_map(|m| m["tool_calls"].as_array().cloned().unwrap_or_default())
        .map(|c| format!("{}({})", text(&c["name"]), c["arguments"]))
        .collect()
}

fn memory_kinds(record: &Value) -> Vec<&str> {
    record["state"]["memory"].as_array().expect("memory").iter().map(|m| text(&m["kind"])).collect()
}

#[test]
fn task_loop_simple_request_to_create_a_note_calls_the_tool_and_answers_from_its_result() {
    let dir = tmp();
    let r = run(dir.path(), TASK_LOOP, &json!({"request": "Create a note about AI"}), 0).record;
    let s = &r["state"];
    assert_eq!(r["status"], "completed");
    assert_eq!((s["complexity"].clone(), s["word_count"].clone()), (json!("simple"), json!(5)));
    assert_eq!(s["complexity_reason"], "5 words, no indicator word, at most one action");
    assert_eq!(ran(&r), [["assess"], ["route"], ["respond"], ["tools"], ["respond"], ["done_simple"]]);
    assert_eq!(
        tool_calls(&r),
        [r#"create_note({"body":"Notes about AI, started from: Create a note about AI","title":"AI"})"#]
    );
    assert_eq!(s["answer"], "Created the note \"AI\" at inbox/ai.md.");
    assert_eq!(s["actions"], json!([{"round": 1, "what": "create_note", "ok": true}]));
    assert_eq!((s["complete"].clone(), s["status"].clone()), (json!(true), json!("completed")));
    assert_eq!(s["completion_reason"], "simple task: one pass, every tool call succeeded");
    assert_eq!(memory_kinds(&r), ["observation", "action"]);
    assert_eq!(times_ran(&r, "analyze"), 0, "the workflow loop never ran");
}

#[test]
fn task_loop_other_simple_requests_take_other_tools_or_none() {
    let dir = tmp();
    // A search: the query is the request without the command words.
    let r = run(dir.path(), TASK_LOOP, &json!({"request": "Find my notes about sourdough"}), 0).record;
    assert_eq!(tool_calls(&r), [r#"search_notes({"query":"sourdough"})"#]);
    assert_eq!(r["state"]["answer"], "1 note matches \"sourdough\": Sourdough bread.");

    // A note whose title exists already: the tool fails, the answer says why, the task is not complete.
    let r = run(dir.path(), TASK_LOOP, &json!({"request": "Create a note about Sourdough bread"}), 0).record;
    let s = &r["state"];
    assert_eq!(
        s["answer"],
        "I could not do that: a note called \"Sourdough bread\" already exists at kitchen/sourdough.md."
    );
    assert_eq!(s["actions"][0]["ok"], false);
    assert_eq!((s["complete"].clone(), s["status"].clone()), (json!(false), json!("incomplete")));
    assert_eq!(s["completion_reason"], "simple task: a tool call failed");

    // A question needs no tool: the assistant answers straight away.
    let r = run(dir.path(), TASK_LOOP, &json!({"request": "What is a vector database?"}), 0).record;
    assert_eq!(ran(&r), [["assess"], ["route"], ["respond"], ["done_simple"]]);
    assert!(tool_calls(&r).is_empty());
    assert!(text(&r["state"]["answer"]).contains("What is a vector database?"));
    assert_eq!(r["state"]["completion_reason"], "simple task: answered without a tool");
}

#[test]
fn task_loop_complex_request_searches_when_the_analysis_asks_then_loops_until_every_sub_objective_is_done() {
    let dir = tmp();
    let input = json!({"request": "Organize all my machine learning notes and create a comprehensive index"});
    let r = run(dir.path(), TASK_LOOP, &input, 0).record;
    let s = &r["state"];
    assert_eq!(r["status"], "completed");
    assert_eq!(s["complexity_reason"], "indicator word \"organize\"");
    assert_eq!(strs(&s["subtasks"]), ["Organize all my machine learning notes", "create a comprehensive index"]);
    assert_eq!(
        ran(&r),
        [
            ["assess"],
            ["route"],
            ["init"],
            ["analyze"],
            ["search"],
            ["execute"],
            ["check"],
            ["reflect"],
            ["analyze"],
            ["execute"],
            ["check"],
            ["finish"]
        ]
    );
    // The first sub-objective is about the user's notes: one search, by its topic words.
    assert_eq!(
        s["searches"],
        json!([{"subtask": "Organize all my machine learning notes", "query": ["machine", "learning"], "hits": 3}])
    );
    let found: Vec<&str> = s["findings"].as_array().expect("findings").iter().map(|f| text(&f["path"])).collect();
    assert_eq!(found, ["ml/transformers.md", "ml/optimizers.md", "ml/evaluation.md"]);
    assert_eq!(
        s["actions"],
        json!([
            {"round": 1, "what": "Organize all my machine learning notes", "ok": true},
            {"round": 2, "what": "create a comprehensive index", "ok": true}
        ])
    );
    assert_eq!(s["execution"]["action"], "create a comprehensive index: done, drawing on the 3 notes found earlier");
    assert_eq!((s["iteration"].clone(), s["confidence"].clone()), (json!(2), json!(1.0)));
    assert_eq!((s["verdict"].clone(), s["complete"].clone()), (json!("complete"), json!(true)));
    assert_eq!(s["completion_reason"], "every sub-objective is done");
    assert_eq!(s["answer"], "Done after 2 rounds (every sub-objective is done): 2 of 2 sub-objectives done.");
    assert_eq!(
        memory_kinds(&r),
        ["observation", "plan", "thought", "observation", "action", "reflection", "thought", "action", "signal"]
    );
    assert!(s["memory"].as_array().expect("memory").iter().all(|m| m["importance"].is_number()));
    assert_eq!(times_ran(&r, "respond"), 0, "the simple path never ran");
}

#[test]
fn task_loop_complex_request_that_needs_no_notes_never_searches() {
    let dir = tmp();
    let input = json!({"request": "Write a detailed plan for the garden party and draft the invitations"});
    let r = run(dir.path(), TASK_LOOP, &input, 0).record;
    assert_eq!(r["state"]["complexity_reason"], "indicator word \"detailed\"");
    assert_eq!(times_ran(&r, "search"), 0);
    assert_eq!(times_ran(&r, "execute"), 2);
    assert_eq!(r["state"]["complete"], true);
    assert_eq!(r["state"]["findings"], json!([]));
}

#[test]
fn task_loop_search_that_finds_nothing_fails_the_round_then_retries_more_broadly_then_does_without() {
    let dir = tmp();
    let input = json!({"request": "Research every note about quantum physics and write a summary"});
    let r = run(dir.path(), TASK_LOOP, &input, 0).record;
    let s = &r["state"];
    // The second search looks for word stems; after two empty searches the work goes on without notes.
    let queries: Vec<&Value> = s["searches"].as_array().expect("searches").iter().map(|q| &q["query"]).collect();
    assert_eq!(queries, [&json!(["quantum", "physics"]), &json!(["quant", "physi"])]);
    let oks: Vec<bool> = s["actions"].as_array().expect("actions").iter().map(|a| a["ok"] == true).collect();
    assert_eq!(oks, [false, false, true, true]);
    assert_eq!(times_ran(&r, "search"), 2);
    assert_eq!(times_ran(&r, "reflect"), 3);
    let reflections: Vec<&str> = s["memory"]
        .as_array()
        .expect("memory")
        .iter()
        .filter(|m| m["kind"] == "reflection")
        .map(|m| text(&m["text"]))
        .collect();
    assert!(reflections[0].contains("failed for want of notes"), "{reflections:?}");
    assert!(text(&s["execution"]["action"]).starts_with("write a summary: done"));
    assert_eq!(s["complete"], true);
    assert_eq!(s["iteration"], 4);
}

#[test]
fn task_loop_stops_when_another_round_would_pass_the_24_step_limit() {
    let dir = tmp();
    assert_eq!(read_template(TASK_LOOP)["limits"]["max_steps"], 24);
    assert_eq!(read_template(TASK_LOOP)["state"]["step_budget"]["default"], 24);
    let input = json!({"request": "Draft the agenda, book a room, invite the team, write the slides, print the handouts and send the reminders"});
    let r = run(dir.path(), TASK_LOOP, &input, 0).record;
    let s = &r["state"];
    assert_eq!(r["status"], "completed", "the loop ends itself before the engine's limit");
    assert!(r["step"].as_u64().expect("step") <= 24, "{}", r["step"]);
    assert_eq!(s["subtasks"].as_array().map(Vec::len), Some(6));
    assert_eq!(s["completed"].as_array().map(Vec::len), Some(5));
    assert_eq!(s["verdict"], "limit");
    assert_eq!((s["complete"].clone(), s["status"].clone()), (json!(false), json!("incomplete")));
    assert_eq!(s["completion_reason"], "another round would pass the 24-step limit");
    assert_eq!(s["confidence"], 0.83);
    assert_eq!(ran(&r).last().expect("steps"), &["finish"]);

    // A smaller budget stops it sooner.
    let mut small = input.clone();
    small["step_budget"] = json!(12);
    let r = run(dir.path(), TASK_LOOP, &small, 0).record;
    assert!(r["step"].as_u64().expect("step") <= 12, "{}", r["step"]);
    assert_eq!(r["state"]["completed"].as_array().map(Vec::len), Some(2));
    assert_eq!(r["state"]["completion_reason"], "another round would pass the 12-step limit");
}

#[test]
fn task_loop_long_request_and_several_actions_are_complex() {
    let dir = tmp();
    let long =
        "Please put together a short note that explains in plain words how the coffee machine on the third floor works";
    let r = run(dir.path(), TASK_LOOP, &json!({"request": long}), 0).record;
    assert_eq!(r["state"]["word_count"], 20);
    assert_eq!(r["state"]["complexity"], "complex");
    assert_eq!(r["state"]["complexity_reason"], "20 words (20 or more)");

    let r = run(dir.path(), TASK_LOOP, &json!({"request": "Create a note and send it to Sam"}), 0).record;
    assert_eq!(r["state"]["complexity"], "complex");
    // A list in a backtick string reads as JSON, as in a `{{ }}` template.
    assert_eq!(r["state"]["complexity_reason"], "several actions: [\"create\",\"send\"]");
    assert_eq!(strs(&r["state"]["subtasks"]), ["Create a note", "send it to Sam"]);
}

#[test]
fn task_loop_memory_keeps_the_50_most_important_entries() {
    let dir = tmp();
    let seeded: Vec<Value> =
        (1..=50).map(|i| json!({"kind": "observation", "text": format!("s{i}"), "importance": 0.1})).collect();
    let input =
        json!({"request": "Organize all my machine learning notes and create a comprehensive index", "memory": seeded});
    let r = run(dir.path(), TASK_LOOP, &input, 0).record;
    // What this run adds: the assessment and the plan, a thought per analysis, an observation
    // per search, an action per check, a reflection per reflect and the completion signal.
    let added =
        2 + times_ran(&r, "analyze") + times_ran(&r, "search") + times_ran(&r, "check") + times_ran(&r, "reflect") + 1;
    let memory = r["state"]["memory"].as_array().expect("memory");
    assert_eq!(memory.len(), 50, "memory is capped at 50");
    assert_eq!(memory.iter().filter(|m| m["importance"].as_f64() > Some(0.1)).count(), added);
    // Every added entry is more important than the seeded ones, so the oldest seeded ones went.
    let left: Vec<&str> = memory.iter().filter(|m| m["importance"] == 0.1).map(|m| text(&m["text"])).collect();
    let expected: Vec<String> = (added + 1..=50).map(|i| format!("s{i}")).collect();
    assert_eq!(left, expected);
}

#[test]
fn task_loop_completion_signal_in_restored_memory_ends_after_one_round() {
    let dir = tmp();
    let input = json!({
        "request": "Organize all my machine learning notes and create a comprehensive index",
        "memory": [{"kind": "signal", "text": "marked done in an earlier session", "importance": 1.0}]
    });
    let r = run(dir.path(), TASK_LOOP, &input, 0).record;
    let s = &r["state"];
    assert_eq!(s["completion_reason"], "working memory holds a completion signal");
    assert_eq!(s["iteration"], 1);
    assert_eq!(times_ran(&r, "reflect"), 0);
    assert_eq!(s["completed"].as_array().map(Vec::len), Some(1), "one of two sub-objectives done");
}
