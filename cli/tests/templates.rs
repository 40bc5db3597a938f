//! The seed templates in `templates/` (SPEC section 8), run through the real `switchyard`
//! binary the way a user would: `run` with an input, then `resume … --answer` for every
//! question until the run ends. Each test checks the exit code, the status and the fields of
//! the final state that show the seed's behaviour, and takes every branch there is to take
//! (simple and complex, approve and reject, success and failure).

mod binary;

use binary::sy;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const TEMPLATES: [&str; 7] = [
    "000-task-loop.json",
    "001-step-engine.json",
    "002-agent-graph.json",
    "003-approval.json",
    "004-linear-orchestrator.json",
    "005-tool-agent.json",
    "006-map-reduce.json",
];

fn template(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join("templates").join(name).to_string_lossy().into_owned()
}

fn read_template(name: &str) -> Value {
    let text = std::fs::read_to_string(template(name)).expect("the template is readable");
    serde_json::from_str(&text).expect("the template is JSON")
}

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary directory")
}

fn write(dir: &Path, name: &str, contents: impl AsRef<[u8]>) -> String {
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("write a temporary file");
    path.to_string_lossy().into_owned()
}

/// Numbers the saved records so that no stage overwrites another.
static SAVED: AtomicUsize = AtomicUsize::new(1);

/// One stage of a run: the record it printed and where that record was saved.
struct Stage {
    record: Value,
    file: String,
}

/// `switchyard run TEMPLATE --input INPUT`, expecting exit `code`.
fn run(dir: &Path, name: &str, input: &Value, code: i32) -> Stage {
    let input = input.to_string();
    let out = sy(&["run", &template(name), "--input", &input]);
    out.assert_code(code);
    let file = write(dir, "run-0.json", &out.stdout);
    Stage { record: out.json(), file }
}

/// `switchyard resume PREVIOUS --graph TEMPLATE --answer ANSWER`, expecting exit `code`.
fn resume(dir: &Path, name: &str, previous: &Stage, answer: &Value, code: i32) -> Stage {
    let answer = answer.to_string();
    let out = sy(&["resume", &previous.file, "--graph", &template(name), "--answer", &answer]);
    out.assert_code(code);
    let n = SAVED.fetch_add(1, Ordering::Relaxed);
    let file = write(dir, &format!("run-{n}.json"), &out.stdout);
    Stage { record: out.json(), file }
}

/// Which nodes ran at each step.
fn ran(record: &Value) -> Vec<Vec<String>> {
    record["steps"]
        .as_array()
        .expect("the record has steps")
        .iter()
        .map(|s| {
            s["ran"]
                .as_array()
                .expect("ran is a list")
                .iter()
                .map(|v| v.as_str().unwrap_or_default().to_string())
                .collect()
        })
        .collect()
}

/// How many steps ran `node`.
fn times_ran(record: &Value, node: &str) -> usize {
    ran(record).iter().filter(|step| step.iter().any(|n| n == node)).count()
}

fn strs(v: &Value) -> Vec<&str> {
    v.as_array().expect("a list").iter().map(|s| s.as_str().expect("a string")).collect()
}

fn text(v: &Value) -> &str {
    v.as_str().unwrap_or_else(|| panic!("expected a string, got {v}"))
}

// ---------------------------------------------------------------------------------------------
// Every template
// ---------------------------------------------------------------------------------------------

#[test]
fn every_template_validates_without_errors_or_warnings() {
    for name in TEMPLATES {
        let out = sy(&["validate", &template(name)]);
        out.assert_code(0);
        assert_eq!(out.stdout.trim(), "", "{name} should have no diagnostics\n{}", out.describe());
        let out = sy(&["validate", &template(name), "--json"]);
        out.assert_code(0);
        assert_eq!(out.json(), json!([]), "{name}\n{}", out.describe());
    }
}

#[test]
fn every_template_is_stored_exactly_as_export_writes_it() {
    for name in TEMPLATES {
        let text = std::fs::read_to_string(template(name)).expect("the template is readable");
        let graph = engine::parse_graph(&text).unwrap_or_else(|e| panic!("{name} does not parse: {e}"));
        let exported = graph.to_pretty_json();
        let first_difference = exported.lines().zip(text.lines()).position(|(a, b)| a != b);
        assert!(
            exported == text.trim_end(),
            "{name} differs from its export at line {}",
            first_difference.map_or(exported.lines().count().min(text.lines().count()), |i| i) + 1
        );
    }
}

#[test]
fn every_template_is_ready_for_the_gallery() {
    for name in TEMPLATES {
        let g = read_template(name);
        assert!(g["name"].as_str().is_some_and(|n| !n.is_empty()), "{name}: name");
        assert!(g["description"].as_str().is_some_and(|d| !d.is_empty()), "{name}: description");
        for (field, spec) in g["state"].as_object().expect("declared state") {
            assert!(spec["description"].as_str().is_some_and(|d| !d.is_empty()), "{name}: state.{field} description");
        }
        let layout = g["layout"].as_object().expect("a layout");
        for node in g["nodes"].as_array().expect("nodes") {
            let id = text(&node["id"]);
            assert!(node["label"].as_str().is_some_and(|l| !l.is_empty()), "{name}: {id} label");
            assert!(node["description"].as_str().is_some_and(|d| !d.is_empty()), "{name}: {id} description");
            assert!(layout[id]["x"].is_number() && layout[id]["y"].is_number(), "{name}: {id} has no position");
            if node["kind"] == "llm" {
                assert_eq!(node["model"]["provider"], "mock", "{name}: {id} must use a mock model");
            }
        }
        // No two nodes on the same spot.
        let mut spots: Vec<(i64, i64)> = layout
            .values()
            .map(|p| (p["x"].as_f64().unwrap_or_default() as i64, p["y"].as_f64().unwrap_or_default() as i64))
            .collect();
        let count = spots.len();
        spots.sort_unstable();
        spots.dedup();
        assert_eq!(spots.len(), count, "{name}: two nodes share a position");
    }
}

#[test]
fn the_same_input_gives_the_same_record_twice() {
    let input =
        json!({"request": "Organize all my machine learning notes and create a comprehensive index"}).to_string();
    let strip = |mut r: Value| {
        let o = r.as_object_mut().expect("an object");
        o.remove("run_id");
        for s in o.get_mut("steps").and_then(Value::as_array_mut).expect("steps") {
            s.as_object_mut().expect("a step").remove("duration_ms");
        }
        r
    };
    let a = sy(&["run", &template("000-task-loop.json"), "--input", &input]);
    let b = sy(&["run", &template("000-task-loop.json"), "--input", &input]);
    assert_eq!(strip(a.json()), strip(b.json()));
}

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

// ---------------------------------------------------------------------------------------------
// 001 step engine
// ---------------------------------------------------------------------------------------------

const STEP_ENGINE: &str = "001-step-engine.json";

#[test]
fn step_engine_escalates_waits_for_the_operator_and_survives_the_failed_branch() {
    let dir = tmp();
    let first = run(dir.path(), STEP_ENGINE, &json!({"readings": [12, 15, 18, 21, 24, 27]}), 3);
    let r = &first.record;
    assert_eq!(r["status"], "interrupted");
    assert_eq!(r["next"], json!(["ask_operator"]));
    assert_eq!(
        r["waiting"][0]["prompt"],
        "Readings [15,18,21,24,27] average 21.0 against a threshold of 20. What should the on-call engineer do?"
    );
    assert!(r["waiting"][0]["options"].is_null(), "a free answer has no options");
    // The measure step ran six times; its history keeps the last five.
    assert_eq!(times_ran(r, "measure"), 6);
    let history: Vec<i64> = r["outputs"]["measure"]
        .as_array()
        .expect("history")
        .iter()
        .map(|o| o["reading"].as_i64().unwrap_or(-1))
        .collect();
    assert_eq!(history, [15, 18, 21, 24, 27]);
    let s = &r["state"];
    assert_eq!(s["window"], json!([15, 18, 21, 24, 27]));
    assert_eq!((s["latest"].clone(), s["previous"].clone(), s["change"].clone()), (json!(27), json!(24), json!(3)));
    assert_eq!(s["average"], 21.0);
    assert_eq!(s["rising"], true);
    assert_eq!(s["verdict"], "escalate");
    // The lookup failed in the same step as `escalate`, which went on.
    assert_eq!(ran(r)[7], ["enrich", "escalate"]);
    assert!(text(&r["steps"][7]["errors"]["enrich"]["message"]).contains("context lookup failed"));
    assert!(text(&r["errors"]["enrich"]).contains("context lookup failed"));
    // Each step's status: the operator's step awaits input; the lookup's error is not recorded yet.
    let w = &r["state"]["workflow"];
    assert_eq!(w["measure"], json!({"status": "complete", "error": "", "last_executed": 6}));
    assert_eq!(w["ask_operator"]["status"], "awaiting_input");
    assert_eq!(w["enrich"]["status"], "active");

    let done = resume(dir.path(), STEP_ENGINE, &first, &json!({"ask_operator": "Page the plant engineer"}), 0).record;
    assert_eq!(done["status"], "completed");
    assert_eq!(ran(&done)[8..], [["ask_operator"], ["notify"], ["close"]]);
    let w = &done["state"]["workflow"];
    assert_eq!(w["ask_operator"], json!({"status": "complete", "error": "", "last_executed": 10}));
    assert_eq!(w["enrich"]["status"], "error");
    assert_eq!(w["enrich"]["last_executed"], 8, "it ran alongside the decision");
    assert!(text(&w["enrich"]["error"]).contains("context lookup failed"));
    let s = &done["state"];
    assert_eq!(s["operator_note"], "Page the plant engineer");
    let message = text(&s["message"]);
    assert!(
        message.starts_with("ALERT: average 21.0, latest 27 (was 24). Operator: Page the plant engineer."),
        "{message}"
    );
    assert!(message.contains("context lookup failed"), "{message}");
    assert_eq!(s["context_note"], "", "the failed branch never went on");
    assert_eq!(times_ran(&done, "attach"), 0);
}

#[test]
fn step_engine_calm_readings_finish_without_a_question() {
    let dir = tmp();
    let r = run(dir.path(), STEP_ENGINE, &json!({"readings": [3, 4, 2, 5]}), 0).record;
    let s = &r["state"];
    assert_eq!(r["status"], "completed");
    assert_eq!(s["verdict"], "calm");
    assert_eq!(s["message"], "All calm: average 3.5, latest 5");
    assert_eq!(s["window"], json!([3, 4, 2, 5]));
    assert_eq!(ran(&r)[5..], [vec!["enrich", "log_calm"], vec!["close"]]);
    assert!(text(&r["errors"]["enrich"]).contains("context lookup failed"));
    let w = &r["state"]["workflow"];
    let statuses: Vec<(&str, &str)> =
        w.as_object().expect("workflow").iter().map(|(k, v)| (k.as_str(), text(&v["status"]))).collect();
    assert_eq!(
        statuses,
        [("assess", "complete"), ("enrich", "error"), ("log_calm", "complete"), ("measure", "complete")]
    );
    assert_eq!(times_ran(&r, "ask_operator"), 0);
}

#[test]
fn step_engine_or_condition_escalates_on_a_spike_alone() {
    // Average 13.67 is under the threshold, but the latest reading is at least 1.5 × 20.
    let dir = tmp();
    let r = run(dir.path(), STEP_ENGINE, &json!({"readings": [5, 5, 31]}), 3).record;
    assert_eq!(r["state"]["verdict"], "escalate");
    // A high average that is falling, with no spike: neither side of the || holds.
    let r = run(dir.path(), STEP_ENGINE, &json!({"readings": [40, 10], "threshold": 20}), 0).record;
    assert_eq!(r["state"]["average"], 25.0);
    assert_eq!(r["state"]["rising"], false);
    assert_eq!(r["state"]["verdict"], "calm");
}

#[test]
fn step_engine_lookup_that_works_runs_its_own_branch() {
    let dir = tmp();
    let r = run(dir.path(), STEP_ENGINE, &json!({"readings": [3, 4, 2, 5], "context_available": true}), 0).record;
    assert_eq!(r["status"], "completed");
    assert_eq!(r["errors"], json!({}));
    assert_eq!(r["state"]["context_note"], "Context for plant-3, owned by on-call team");
    assert_eq!(ran(&r)[5..], [vec!["enrich", "log_calm"], vec!["attach", "close"]]);
    assert_eq!(r["state"]["workflow"]["enrich"]["status"], "complete");
    assert_eq!(r["state"]["workflow"]["attach"]["status"], "complete");
}

// ---------------------------------------------------------------------------------------------
// 002 agent graph
// ---------------------------------------------------------------------------------------------

const AGENT_GRAPH: &str = "002-agent-graph.json";

const ONE_PASS: [&str; 7] = ["plan", "route", "retrieve", "reason", "reflect", "generate", "evaluate"];

fn flat(record: &Value) -> Vec<String> {
    ran(record).into_iter().flatten().collect()
}

#[test]
fn agent_graph_question_with_a_matching_passage_is_good_after_one_pass() {
    let dir = tmp();
    let r = run(dir.path(), AGENT_GRAPH, &json!({"task": "What is self-reflection?"}), 0).record;
    let s = &r["state"];
    assert_eq!(r["status"], "completed");
    assert_eq!(flat(&r), ONE_PASS);
    assert_eq!(
        strs(&s["reasoning_steps"]),
        [
            "Plan, pass 1: answer_question, next retrieve",
            "Retrieval by whole words: 1 of 4 passages match",
            "Reason: docs/reflection.md says: Self-reflection means the agent critiques its own draft before answering.",
            "Evaluate, pass 1: overall 1.0",
        ],
        "every node's steps are appended to the same list"
    );
    assert_eq!(strs(&s["reflection_notes"]), ["good (pass 1): the reasoning rests on 1 passage(s)"]);
    assert_eq!(
        s["final_output"],
        "Self-reflection means the agent critiques its own draft before answering. (source: docs/reflection.md)"
    );
    assert_eq!(s["evaluation_scores"], json!({"grounding": 1.0, "coverage": 1.0, "clarity": 1.0, "overall": 1.0}));
    assert_eq!(s["evaluation_explanations"]["grounding"], "1 of 1 sources cited");
    assert_eq!((s["is_complete"].clone(), s["iteration_count"].clone()), (json!(true), json!(1)));
    assert_eq!(s["stop_reason"], "overall 1.0 meets the bar of 0.8");
}

#[test]
fn agent_graph_low_score_iterates_and_the_second_pass_retrieves_more_broadly() {
    let dir = tmp();
    let r = run(dir.path(), AGENT_GRAPH, &json!({"task": "What does critiquing mean here?"}), 0).record;
    let s = &r["state"];
    assert_eq!(flat(&r), [ONE_PASS, ONE_PASS].concat());
    let steps = strs(&s["reasoning_steps"]);
    assert_eq!(steps[1], "Retrieval by whole words: 0 of 4 passages match");
    assert_eq!(steps[3], "Evaluate, pass 1: overall 0.6");
    assert_eq!(steps[5], "Retrieval by word stems: 1 of 4 passages match");
    assert_eq!(steps.last(), Some(&"Evaluate, pass 2: overall 1.0"));
    assert_eq!(
        strs(&s["reflection_notes"]),
        [
            "needs improvement (pass 1): nothing backs the reasoning; find sources or facts first",
            "good (pass 2): the reasoning rests on 1 passage(s)"
        ]
    );
    // The first pass's draft was marked unverified; the second cites its source.
    let first = &r["steps"][5]["updates"]["generate"]["final_output"];
    assert!(text(first).starts_with("Draft (unverified)"), "{first}");
    assert!(text(&s["final_output"]).ends_with("(source: docs/reflection.md)"));
    assert_eq!((s["is_complete"].clone(), s["iteration_count"].clone()), (json!(true), json!(2)));
}

#[test]
fn agent_graph_stops_at_the_iteration_cap_when_the_score_stays_low() {
    let dir = tmp();
    let r = run(dir.path(), AGENT_GRAPH, &json!({"task": "What is quantum tunnelling?"}), 0).record;
    let s = &r["state"];
    assert_eq!(r["status"], "completed");
    assert_eq!(times_ran(&r, "plan"), 2);
    assert_eq!(s["evaluation_scores"]["overall"], 0.6);
    assert_eq!(s["evaluation_explanations"]["grounding"], "0 of 0 sources cited");
    assert_eq!(s["is_complete"], false);
    assert_eq!(s["stop_reason"], "overall 0.6 is below 0.8 and the cap of 2 passes is reached");

    // A cap of one pass stops the question that a second pass would have answered.
    let input = json!({"task": "What does critiquing mean here?", "max_iterations": 1});
    let r = run(dir.path(), AGENT_GRAPH, &input, 0).record;
    assert_eq!(flat(&r), ONE_PASS);
    assert_eq!(r["state"]["is_complete"], false);
    assert_eq!(r["state"]["stop_reason"], "overall 0.6 is below 0.8 and the cap of 1 passes is reached");
}

#[test]
fn agent_graph_routes_by_task_type() {
    let dir = tmp();
    let r = run(dir.path(), AGENT_GRAPH, &json!({"task": "Analyze this repository", "task_type": "analyze_repo"}), 0)
        .record;
    assert_eq!(flat(&r), ["plan", "route", "analyze_repo", "reason", "reflect", "generate", "evaluate"]);
    assert_eq!(
        r["state"]["repo_structure"],
        json!({"files": 6, "modules": ["app/main.py", "app/graph.py", "app/nodes.py"], "test_files": 1})
    );
    assert_eq!(r["state"]["evaluation_explanations"]["grounding"], "3 of 3 sources cited");
    assert_eq!(r["state"]["is_complete"], true);

    // Content goes straight to reasoning; without facts it scores low, so the second pass
    // gathers the repository's first.
    let input = json!({"task": "Write a LinkedIn post about this project", "task_type": "generate_content"});
    let r = run(dir.path(), AGENT_GRAPH, &input, 0).record;
    assert_eq!(
        flat(&r),
        [
            "plan",
            "route",
            "reason",
            "reflect",
            "generate",
            "evaluate",
            "plan",
            "route",
            "analyze_repo",
            "reason",
            "reflect",
            "generate",
            "evaluate"
        ]
    );
    assert_eq!(times_ran(&r, "retrieve"), 0);
    assert!(text(&r["state"]["final_output"]).contains("app/graph.py"));
    assert_eq!(r["state"]["is_complete"], true);
}

#[test]
fn agent_graph_score_is_computed_from_the_output_not_replayed() {
    // The same run with a generator that forgets to cite its source scores lower and goes round again.
    let dir = tmp();
    let mut g = read_template(AGENT_GRAPH);
    for node in g["nodes"].as_array_mut().expect("nodes") {
        if node["id"] == "generate" {
            node["model"]["responses"] = json!(["Self-reflection means the agent critiques its own draft."]);
        }
    }
    let path = write(dir.path(), "uncited.json", g.to_string());
    let out = sy(&["run", &path, "--input", r#"{"task": "What is self-reflection?"}"#]);
    out.assert_code(0);
    let r = out.json();
    assert_eq!(r["state"]["evaluation_scores"]["grounding"], 0.0);
    assert_eq!(r["state"]["evaluation_scores"]["overall"], 0.5);
    assert_eq!(times_ran(&r, "plan"), 2, "a score under the bar iterates");
    assert_eq!(r["state"]["is_complete"], false);
}

// ---------------------------------------------------------------------------------------------
// 003 approval
// ---------------------------------------------------------------------------------------------

const APPROVAL: &str = "003-approval.json";

fn approval_request(dir: &Path) -> Stage {
    let first = run(dir, APPROVAL, &json!({"request": "two days off next week", "requester": "Dana"}), 3);
    let r = &first.record;
    assert_eq!(r["status"], "interrupted");
    let w = &r["waiting"][0];
    assert_eq!(w["node"], "get_approval");
    assert_eq!(
        w["prompt"],
        "Dana asks for: two days off next week. Approve or reject, with comments for whoever acts on it."
    );
    assert_eq!(w["fields"]["decision"]["options"], json!(["approve", "reject"]));
    assert_eq!(w["fields"]["decision"]["required"], true);
    assert_eq!(w["fields"]["comments"]["required"], false);
    assert_eq!(w["fields"]["comments"]["label"], "Comments");
    first
}

/// The task description (the prompt) the action at the last step was given.
fn task_description<'a>(record: &'a Value, node: &str) -> &'a str {
    let steps = record["steps"].as_array().expect("steps");
    text(&steps.last().expect("a step")["details"][node]["prompt"])
}

#[test]
fn approval_approved_with_comments_passes_them_to_the_action() {
    let dir = tmp();
    let first = approval_request(dir.path());
    let answer = json!({"get_approval": {"decision": "approve", "comments": "take Thursday and Friday"}});
    let r = resume(dir.path(), APPROVAL, &first, &answer, 0).record;
    assert_eq!(r["status"], "completed");
    assert_eq!(ran(&r), [["get_approval"], ["check_approval"], ["approved_action"]]);
    let s = &r["state"];
    assert_eq!((s["decision"].clone(), s["comments"].clone()), (json!("approve"), json!("take Thursday and Friday")));
    assert_eq!(
        task_description(&r, "approved_action"),
        "Carry out this approved request for Dana: two days off next week. Approver's comments: take Thursday and Friday."
    );
    assert_eq!(
        s["action_result"],
        "Done: two days off next week is arranged for Dana, as the approver asked: take Thursday and Friday."
    );
    assert_eq!(s["notification"], "");
    assert_eq!(times_ran(&r, "rejected_action"), 0);
}

#[test]
fn approval_approved_without_comments_says_so() {
    let dir = tmp();
    let first = approval_request(dir.path());
    let r = resume(dir.path(), APPROVAL, &first, &json!({"get_approval": {"decision": "approve"}}), 0).record;
    assert_eq!(r["state"]["comments"], "");
    assert!(task_description(&r, "approved_action").ends_with("Approver's comments: none."));
    assert_eq!(r["state"]["action_result"], "Done: two days off next week is arranged for Dana.");
}

#[test]
fn approval_rejected_with_comments_passes_them_to_the_rejection_note() {
    let dir = tmp();
    let first = approval_request(dir.path());
    let answer = json!({"get_approval": {"decision": "reject", "comments": "we are short-staffed that week"}});
    let r = resume(dir.path(), APPROVAL, &first, &answer, 0).record;
    assert_eq!(r["status"], "completed");
    assert_eq!(ran(&r), [["get_approval"], ["check_approval"], ["rejected_action"]]);
    let s = &r["state"];
    assert_eq!(s["decision"], "reject");
    assert_eq!(
        task_description(&r, "rejected_action"),
        "Write a short, polite note telling Dana that the request \"two days off next week\" was declined. Approver's comments: we are short-staffed that week."
    );
    assert_eq!(
        s["notification"],
        "Sorry, Dana: your request for two days off next week was declined. The approver says: we are short-staffed that week."
    );
    assert_eq!(s["action_result"], "");
}

#[test]
fn approval_answer_outside_the_form_is_refused() {
    let dir = tmp();
    let first = approval_request(dir.path());
    let before = std::fs::read_to_string(&first.file).expect("the run file");
    for answer in [json!({"get_approval": {"decision": "maybe"}}), json!({"get_approval": "approve"})] {
        let answer = answer.to_string();
        let out = sy(&["resume", &first.file, "--graph", &template(APPROVAL), "--answer", &answer]);
        out.assert_code(2);
        assert!(out.stderr.contains("get_approval"), "{}", out.describe());
    }
    assert_eq!(std::fs::read_to_string(&first.file).expect("the run file"), before, "the run file is untouched");
}

#[test]
fn approval_without_a_requester_uses_the_default() {
    let dir = tmp();
    let r = run(dir.path(), APPROVAL, &json!({"request": "a new chair"}), 3).record;
    assert!(text(&r["waiting"][0]["prompt"]).starts_with("a colleague asks for: a new chair."));
}

// ---------------------------------------------------------------------------------------------
// 004 linear orchestrator
// ---------------------------------------------------------------------------------------------

const ORCHESTRATOR: &str = "004-linear-orchestrator.json";
const AGENTS: [&str; 6] = ["gmail", "invoice", "salesforce", "zoho", "audit", "closing"];
const BOOK: &str = "Book this month's supplier invoices";

/// Runs the orchestrator on `task` until it asks for the plan's approval.
fn planned(dir: &Path, task: &str) -> Stage {
    let first = run(dir, ORCHESTRATOR, &json!({ "task": task }), 3);
    let r = &first.record;
    assert_eq!(r["status"], "interrupted");
    assert_eq!(ran(r), [["planner"]]);
    assert_eq!(r["next"], json!(["approve_plan"]));
    assert_eq!(r["state"]["execution_results"], json!([]), "no agent runs before approval");
    first
}

/// The proposed sequence the plan form is prefilled with.
fn proposed(stage: &Stage) -> &str {
    text(&stage.record["waiting"][0]["fields"]["sequence"]["default"])
}

fn agents_that_ran(record: &Value) -> Vec<&str> {
    record["state"]["execution_results"].as_array().expect("results").iter().map(|e| text(&e["agent"])).collect()
}

fn approve_plan(sequence: Option<&str>) -> Value {
    match sequence {
        Some(s) => json!({"approve_plan": {"plan_decision": "approve", "sequence": s}}),
        None => json!({"approve_plan": {"plan_decision": "approve"}}),
    }
}

/// The end node the run's last step routed into.
fn ended_at(record: &Value) -> String {
    let g = read_template(ORCHESTRATOR);
    let steps = record["steps"].as_array().expect("steps");
    let taken = steps.last().expect("a step")["taken"].as_array().expect("taken").clone();
    let ends: Vec<String> = taken
        .iter()
        .map(|i| g["edges"][i.as_u64().expect("an index") as usize]["to"].clone())
        .filter(|to| g["nodes"].as_array().expect("nodes").iter().any(|n| n["id"] == *to && n["kind"] == "end"))
        .map(|to| text(&to).to_string())
        .collect();
    assert_eq!(ends.len(), 1, "one end reached: {ends:?}");
    ends[0].clone()
}

#[test]
fn orchestrator_template_has_the_agent_and_run_timeouts_and_one_node_per_agent() {
    let g = read_template(ORCHESTRATOR);
    assert_eq!(g["limits"]["run_timeout_ms"], 900_000);
    for agent in AGENTS {
        let node = g["nodes"].as_array().expect("nodes").iter().find(|n| n["id"] == agent).expect("an agent node");
        assert_eq!(node["timeout_ms"], 180_000, "{agent}");
        assert_eq!(node["use"], "agent", "{agent} uses the agent definition");
        assert_eq!(node["on_error"], "route", "{agent}");
    }
    assert!(g["definitions"]["agent"].is_object());
}

#[test]
fn orchestrator_planner_proposes_agents_from_the_task() {
    let dir = tmp();
    let first = planned(dir.path(), BOOK);
    assert_eq!(proposed(&first), "gmail, invoice, zoho, audit");
    let plan = &first.record["state"]["plan"];
    assert_eq!(plan["estimated_seconds"], 240);
    assert_eq!(plan["reasons"]["zoho"], "book the entries in the ledger");
    assert!(text(&first.record["waiting"][0]["prompt"]).contains("gmail to find the emails that carry the documents"));
    let w = &first.record["waiting"][0]["fields"]["plan_decision"];
    assert_eq!(w["options"], json!(["approve", "reject"]));

    let other = planned(dir.path(), "Update the customer accounts and close the month");
    assert_eq!(proposed(&other), "salesforce, closing");
}

#[test]
fn orchestrator_runs_each_approved_agent_once_in_order_then_asks_about_the_result() {
    let dir = tmp();
    let first = planned(dir.path(), BOOK);
    let second = resume(dir.path(), ORCHESTRATOR, &first, &approve_plan(None), 3);
    let r = &second.record;
    assert_eq!(r["next"], json!(["approve_result"]));
    assert_eq!(strs(&r["state"]["agent_sequence"]), ["gmail", "invoice", "zoho", "audit"]);
    assert_eq!(agents_that_ran(r), ["gmail", "invoice", "zoho", "audit"]);
    let order: Vec<String> = ran(r).into_iter().flatten().filter(|n| AGENTS.contains(&n.as_str())).collect();
    assert_eq!(order, ["gmail", "invoice", "zoho", "audit"]);
    for agent in AGENTS {
        let expected = usize::from(["gmail", "invoice", "zoho", "audit"].contains(&agent));
        assert_eq!(times_ran(r, agent), expected, "{agent} runs exactly once, or not at all");
    }
    // Later agents read what earlier ones collected.
    let data = &r["state"]["collected_data"];
    assert_eq!(data["invoice"]["invoices_read"], data["gmail"]["invoices_attached"]);
    assert_eq!(data["zoho"]["ledger_entries"], 2);
    assert_eq!(data["audit"], json!({"checked": 2, "unbooked": 0}));
    assert!(text(&r["waiting"][0]["prompt"]).starts_with("All 4 agents finished (gmail -> invoice -> zoho -> audit)."));

    let done =
        resume(dir.path(), ORCHESTRATOR, &second, &json!({"approve_result": {"result_decision": "approve"}}), 0).record;
    assert_eq!(done["status"], "completed");
    assert_eq!(done["state"]["status"], "completed");
    assert_eq!(done["state"]["final_result"], "Completed 4 agents: gmail -> invoice -> zoho -> audit.");
    assert_eq!(ended_at(&done), "end");

    let answer = json!({"approve_result": {"result_decision": "reject", "result_comments": "the totals look off"}});
    let revise = resume(dir.path(), ORCHESTRATOR, &second, &answer, 0).record;
    assert_eq!(revise["status"], "completed");
    assert_eq!(revise["state"]["status"], "needs_revision");
    assert_eq!(revise["state"]["final_result"], "The result needs revision: the totals look off.");
    assert_eq!(ran(&revise).last().expect("steps"), &["needs_revision"]);
}

#[test]
fn orchestrator_runs_the_plan_as_the_approver_edited_it() {
    let dir = tmp();
    let first = planned(dir.path(), BOOK);
    let r = resume(dir.path(), ORCHESTRATOR, &first, &approve_plan(Some("Closing, gmail, invoice, gmail")), 3).record;
    assert_eq!(strs(&r["state"]["agent_sequence"]), ["closing", "gmail", "invoice"], "known agents, each once");
    assert_eq!(agents_that_ran(&r), ["closing", "gmail", "invoice"]);
    assert_eq!(times_ran(&r, "zoho") + times_ran(&r, "audit"), 0, "agents taken out of the plan do not run");
    assert_eq!(r["state"]["collected_data"]["closing"]["entries_booked"], 0, "nothing was booked before closing");
}

#[test]
fn orchestrator_rejected_plan_ends_without_running_any_agent() {
    let dir = tmp();
    let first = planned(dir.path(), BOOK);
    let answer = json!({"approve_plan": {"plan_decision": "reject", "plan_comments": "not this month"}});
    let r = resume(dir.path(), ORCHESTRATOR, &first, &answer, 0).record;
    assert_eq!(r["status"], "completed");
    assert_eq!(ran(&r), [["planner"], ["approve_plan"]]);
    assert_eq!(ended_at(&r), "plan_rejected");
    assert_eq!(r["state"]["plan_comments"], "not this month");
    assert_eq!(r["state"]["execution_results"], json!([]));
    assert_eq!(r["state"]["collected_data"], json!({}));
}

#[test]
fn orchestrator_failing_agent_ends_the_run_failed_naming_it() {
    let dir = tmp();
    // The ledger books euros only: for a task in dollars the zoho agent's reply breaks its schema.
    let first = planned(dir.path(), "Book this month's supplier invoices in USD");
    assert_eq!(proposed(&first), "gmail, invoice, zoho, audit");
    let r = resume(dir.path(), ORCHESTRATOR, &first, &approve_plan(None), 1).record;
    assert_eq!(r["status"], "failed");
    assert_eq!(r["error"]["kind"], "ended");
    assert_eq!(r["error"]["node"], "agent_failed");
    let message = text(&r["error"]["message"]);
    assert!(message.starts_with("Agent zoho failed after 2 of 4 agents:"), "{message}");
    assert!(message.contains("records"), "the schema problem is named: {message}");
    assert_eq!(agents_that_ran(&r), ["gmail", "invoice"], "no agent after the failed one runs");
    assert_eq!(times_ran(&r, "audit") + times_ran(&r, "approve_result"), 0);
    assert_eq!((r["state"]["failed_agent"].clone(), r["state"]["status"].clone()), (json!("zoho"), json!("failed")));

    // The same task in euros, with the audit moved first: it has nothing to check and fails.
    let first = planned(dir.path(), BOOK);
    let r = resume(dir.path(), ORCHESTRATOR, &first, &approve_plan(Some("audit, gmail, invoice")), 1).record;
    assert_eq!(r["error"]["kind"], "ended");
    assert!(text(&r["error"]["message"]).starts_with("Agent audit failed after 0 of 3 agents:"), "{}", r["error"]);
    assert_eq!(agents_that_ran(&r), Vec::<&str>::new());
}

#[test]
fn orchestrator_plan_naming_no_known_agent_fails() {
    let dir = tmp();
    let first = planned(dir.path(), BOOK);
    let r = resume(dir.path(), ORCHESTRATOR, &first, &approve_plan(Some("payroll")), 1).record;
    assert_eq!(r["status"], "failed");
    assert_eq!(r["error"]["kind"], "ended");
    assert_eq!(r["error"]["node"], "plan_invalid");
    assert!(text(&r["error"]["message"]).contains("\"payroll\" names no known agent"), "{}", r["error"]);
    assert_eq!(strs(&r["state"]["unknown_agents"]), ["payroll"]);
}

// ---------------------------------------------------------------------------------------------
// 005 tool-calling agent
// ---------------------------------------------------------------------------------------------

const AGENT: &str = "005-tool-agent.json";

/// The roles of the transcript, in order, and the names of the tools that answered.
fn transcript(record: &Value) -> (Vec<&str>, Vec<&str>) {
    let messages = record["state"]["messages"].as_array().expect("a transcript");
    let roles = messages.iter().map(|m| text(&m["role"])).collect();
    let tools = messages.iter().filter(|m| m["role"] == "tool").map(|m| text(&m["name"])).collect();
    (roles, tools)
}

#[test]
fn tool_agent_calls_weather_then_packing_list_and_answers_from_their_results() {
    let dir = tmp();
    let cold = run(dir.path(), AGENT, &json!({"question": "What should I pack for Oslo?"}), 0).record;
    assert_eq!(cold["status"], "completed");
    let (roles, tools) = transcript(&cold);
    assert_eq!(roles, ["user", "assistant", "tool", "assistant", "tool", "assistant"]);
    assert_eq!(tools, ["weather", "packing_list"]);
    assert_eq!(text(&cold["state"]["answer"]), "For Oslo (-3 °C, snow) pack: warm coat, gloves and snow boots.");
    // The second call's arguments were taken from the first call's result.
    let call = &cold["state"]["messages"][3]["tool_calls"][0];
    assert_eq!(call["name"], "packing_list");
    assert_eq!(call["arguments"], json!({"temp_c": -3, "sky": "snow"}));
    assert_eq!(
        ran(&cold),
        [vec!["intake"], vec!["agent"], vec!["tools"], vec!["agent"], vec!["tools"], vec!["agent"], vec!["answer"]]
    );

    let hot = run(dir.path(), AGENT, &json!({"question": "Heading to Cairo next week"}), 0).record;
    assert_eq!(text(&hot["state"]["answer"]), "For Cairo (31 °C, sun) pack: sun hat and sunscreen.");
}

#[test]
fn tool_agent_answers_without_tools_for_a_city_it_does_not_know() {
    let dir = tmp();
    let r = run(dir.path(), AGENT, &json!({"question": "Trip to Atlantis"}), 0).record;
    let (roles, tools) = transcript(&r);
    assert_eq!(roles, ["user", "assistant"]);
    assert!(tools.is_empty());
    assert!(text(&r["state"]["answer"]).contains("Which city"), "{}", r["state"]["answer"]);
    assert_eq!(times_ran(&r, "tools"), 0);
}

// ---------------------------------------------------------------------------------------------
// 006 map-reduce
// ---------------------------------------------------------------------------------------------

const MAP_REDUCE: &str = "006-map-reduce.json";

#[test]
fn map_reduce_summarizes_every_section_at_once_then_joins_them_in_order() {
    let dir = tmp();
    let doc = "Intro\n## Goals\nShip it by May. Keep it fast.\n## Risks\nServers may be slow. We cache.\n## Team\nThree people.";
    let r = run(dir.path(), MAP_REDUCE, &json!({"document": doc}), 0).record;
    assert_eq!(r["status"], "completed");
    assert_eq!(ran(&r), [vec!["split"], vec!["summarize[0]", "summarize[1]", "summarize[2]"], vec!["combine"]]);
    assert_eq!(
        strs(&r["state"]["summaries"]),
        ["Goals: Ship it by May", "Risks: Servers may be slow", "Team: Three people."]
    );
    assert_eq!(
        text(&r["state"]["report"]),
        "- Goals: Ship it by May\n- Risks: Servers may be slow\n- Team: Three people.\n"
    );
    // Each instance saw its own section in its prompt.
    let prompt = text(&r["steps"][1]["details"]["summarize[1]"]["prompt"]);
    assert!(prompt.contains("\"Risks\"") && prompt.contains("We cache."), "{prompt}");

    let two = run(dir.path(), MAP_REDUCE, &json!({"document": "## A\nOne. Two.\n## B\nThree."}), 0).record;
    assert_eq!(ran(&two)[1], ["summarize[0]", "summarize[1]"]);
}

#[test]
fn map_reduce_without_sections_runs_no_instance() {
    let dir = tmp();
    let r = run(dir.path(), MAP_REDUCE, &json!({"document": "just text"}), 0).record;
    assert_eq!(r["status"], "completed");
    assert_eq!(times_ran(&r, "combine"), 0);
    assert!(ran(&r).iter().flatten().all(|n| !n.starts_with("summarize")));
    assert_eq!(text(&r["state"]["report"]), "The document has no `## ` sections.");
}
