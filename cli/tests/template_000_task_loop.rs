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
const ML: &str = "Organize all my machine learning notes and create a comprehensive index";
const MEETING: &str =
    "Draft the agenda, book a room, invite the team, write the slides, print the handouts and send the reminders";

/// Runs the template on `input`, expecting exit `code`, and gives the record.
fn go(input: &Value, code: i32) -> Value {
    let dir = tmp();
    run(dir.path(), TASK_LOOP, input, code).record
}

/// Runs the template on a request.
fn ask(request: &str, code: i32) -> Value {
    go(&json!({ "request": request }), code)
}

/// The tool calls of a transcript (`messages` on the simple path, `work` on the complex one),
/// as `name(arguments)`.
fn tool_calls(record: &Value, field: &str) -> Vec<String> {
    record["state"][field]
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

fn paths(list: &Value) -> Vec<&str> {
    list.as_array().expect("a list").iter().map(|n| text(&n["path"])).collect()
}

fn final_of(record: &Value) -> (&str, &str) {
    (text(&record["state"]["final_status"]), text(&record["state"]["final_result"]))
}

/// Seed, simple path: direct AI response, tool execution, complete. The created note is filed
/// in the vault, where later searches read.
#[test]
fn task_loop_simple_request_to_create_a_note_calls_the_tool_and_files_the_note() {
    let r = ask("Create a note about AI", 0);
    let s = &r["state"];
    assert_eq!((s["complexity"].clone(), s["word_count"].clone()), (json!("simple"), json!(5)));
    assert_eq!(s["complexity_reason"], "5 words, no indicator word, at most one action");
    assert_eq!(
        ran(&r),
        [["assess"], ["read_request"], ["name_notes"], ["respond"], ["tools"], ["respond"], ["done_simple"]]
    );
    assert_eq!(r["state"]["titles"], json!({"Create a note about AI": "AI"}), "the title is named once, in state");
    assert_eq!(
        tool_calls(&r, "messages"),
        [r#"create_note({"body":"Notes about AI, started from: Create a note about AI","title":"AI"})"#]
    );
    assert_eq!(final_of(&r), ("completed", "Created the note \"AI\" at inbox/ai.md."));
    assert_eq!(s["completion_reason"], "simple task: one pass, every tool call succeeded");
    assert_eq!(paths(&s["created"]), ["inbox/ai.md"]);
    assert_eq!(paths(&s["vault"]).last(), Some(&"inbox/ai.md"), "the note is in the notes list");
    assert_eq!(memory_kinds(&r), ["observation", "action"]);
    assert_eq!(times_ran(&r, "decompose") + times_ran(&r, "plan_search"), 0, "the workflow loop never ran");
}

/// Simple path: the tool is chosen from all the request's words, in any case, not its first word.
#[test]
fn task_loop_simple_path_reads_the_tool_from_the_whole_request_in_any_case() {
    let cases = [
        (
            "Could you please make a note about the AI meeting",
            r#"create_note({"body":"Notes about AI meeting, started from: Could you please make a note about the AI meeting","title":"AI meeting"})"#,
        ),
        (
            "make A NOTE ABOUT Rust lifetimes",
            r#"create_note({"body":"Notes about Rust lifetimes, started from: make A NOTE ABOUT Rust lifetimes","title":"Rust lifetimes"})"#,
        ),
        ("I'd like to find my notes on sourdough", r#"search_notes({"query":"sourdough"})"#),
        ("WHERE DID I PUT MY NOTES ON KYOTO?", r#"search_notes({"query":"kyoto"})"#),
        ("Show me my notes", r#"search_notes({"query":""})"#),
    ];
    for (request, call) in cases {
        let r = ask(request, 0);
        assert_eq!(r["state"]["complexity"], "simple", "{request}");
        assert_eq!(tool_calls(&r, "messages"), [call], "{request}");
        assert_eq!(r["state"]["final_status"], "completed", "{request}");
    }
    assert_eq!(
        final_of(&ask("I'd like to find my notes on sourdough", 0)).1,
        "1 note matches \"sourdough\": Sourdough bread."
    );
    assert!(final_of(&ask("Show me my notes", 0)).1.starts_with("Your vault holds 6 notes: Transformers"));

    // A question needs no tool: the assistant answers straight away.
    let r = ask("What is a vector database?", 0);
    assert_eq!(ran(&r), [["assess"], ["read_request"], ["name_notes"], ["respond"], ["done_simple"]]);
    assert!(tool_calls(&r, "messages").is_empty());
    assert!(final_of(&r).1.contains("What is a vector database?"));
    assert_eq!(r["state"]["completion_reason"], "simple task: answered without a tool");
}

/// Simple path, completion: not every action succeeded, so the run ends failed and says why.
#[test]
fn task_loop_simple_tool_failure_ends_failed_with_the_reason() {
    let r = ask("Create a note about Sourdough bread", 1);
    let s = &r["state"];
    let why = "I could not do that: a note called \"Sourdough bread\" already exists at kitchen/sourdough.md.";
    assert_eq!(final_of(&r), ("failed", why));
    assert_eq!(r["error"], json!({"node": "simple_failed", "kind": "ended", "message": why}));
    assert_eq!(s["actions"][0]["ok"], false);
    assert_eq!(s["complete"], false);
    assert_eq!(s["completion_reason"], "simple task: a tool call failed");
    assert_eq!(s["vault"].as_array().map(Vec::len), Some(6), "nothing was filed");
}

/// A request with no words (empty, spaces, punctuation, or none given) ends failed, readably.
#[test]
fn task_loop_empty_request_ends_failed_saying_there_is_nothing_to_do() {
    for input in [json!({"request": ""}), json!({"request": "   \n\t"}), json!({"request": "?!"}), json!({})] {
        let r = go(&input, 1);
        assert_eq!(ran(&r), [["assess"], ["no_request"]], "{input}");
        let (status, result) = final_of(&r);
        assert_eq!(status, "failed", "{input}");
        assert!(result.starts_with("The request has no words, so there is nothing to do."), "{input}");
        assert_eq!(r["error"]["message"], result, "{input}");
        assert_eq!(r["state"]["complexity"], "empty", "{input}");
    }
}

/// Complexity assessment: 20+ words, an indicator word (any form, any case) or several actions
/// make a request complex; anything else is simple.
#[test]
fn task_loop_complexity_assessment_holds_for_any_case_and_wording() {
    let reason = |request: &str| {
        let r = ask(request, 0);
        (text(&r["state"]["complexity"]).to_string(), text(&r["state"]["complexity_reason"]).to_string())
    };
    let long =
        "Please put together a short note that explains in plain words how the coffee machine on the third floor works";
    assert_eq!(reason(long), ("complex".into(), "20 words (20 or more)".into()));
    assert_eq!(reason(&ML.to_uppercase()), ("complex".into(), "indicator word \"organize\"".into()));
    assert_eq!(reason("Analysing recipes"), ("complex".into(), "indicator word \"analyze\"".into()));
    assert_eq!(reason("Tidy up EVERYTHING"), ("complex".into(), "indicator word \"every\"".into()));
    assert_eq!(
        reason("Create a note and SEND it to Sam"),
        ("complex".into(), "several actions: [\"create\",\"send\"]".into())
    );
    assert_eq!(
        reason("Create a note, create a note"),
        ("simple".into(), "6 words, no indicator word, at most one action".into())
    );
    let r = ask("Create a note and send it to Sam", 0);
    assert_eq!(strs(&r["state"]["subtasks"]), ["Create a note", "send it to Sam"]);
}

/// Complex path: analyze → search (when needed) → execute with tools → reflect → completion
/// check, one sub-objective a round; the tools really run and their results reach the state.
#[test]
fn task_loop_complex_request_executes_each_sub_objective_with_a_tool() {
    let r = ask(ML, 0);
    let s = &r["state"];
    assert_eq!(s["complexity_reason"], "indicator word \"organize\"");
    assert_eq!(strs(&s["subtasks"]), ["Organize all my machine learning notes", "create a comprehensive index"]);
    assert_eq!(
        ran(&r),
        [
            vec!["assess"],
            vec!["decompose", "init"],
            vec!["name_notes", "plan_search"],
            vec!["choose_tool", "search"],
            vec!["execute"],
            vec!["run_tools"],
            vec!["file_results", "reflect"],
            vec!["check"],
            vec!["plan_search"],
            vec!["choose_tool"],
            vec!["execute"],
            vec!["run_tools"],
            vec!["file_results", "reflect"],
            vec!["check"],
            vec!["finish"]
        ]
    );
    assert_eq!(
        s["searches"],
        json!([{"subtask": "Organize all my machine learning notes", "query": ["machine", "learning"], "hits": 3}])
    );
    // The note titles are named once, for every sub-objective, and the tool choice reads them.
    assert_eq!(
        s["titles"],
        json!({
            "Organize all my machine learning notes": "Organize all my machine learning notes",
            "create a comprehensive index": "Comprehensive index"
        })
    );
    let ml = ["ml/transformers.md", "ml/optimizers.md", "ml/evaluation.md"];
    assert_eq!(
        tool_calls(&r, "work"),
        [
            format!(r#"organize_notes({{"paths":{},"topic":"machine learning"}})"#, json!(ml)),
            r#"create_note({"body":"create a comprehensive index. Drawing on the 3 notes found earlier: [\"Transformers\",\"Optimizers\",\"Evaluating models\"]","title":"Comprehensive index"})"#.to_string()
        ]
    );
    // Organizing tagged the notes in the vault; the index is a new note in it.
    for n in s["vault"].as_array().expect("vault").iter().take(3) {
        assert!(n["tags"].as_array().expect("tags").contains(&json!("organized/machine-learning")), "{n}");
    }
    assert_eq!(paths(&s["created"]), ["inbox/comprehensive-index.md"]);
    assert_eq!(paths(&s["vault"]).last(), Some(&"inbox/comprehensive-index.md"));
    assert_eq!(
        s["execution"]["action"],
        "create a comprehensive index: created the note \"Comprehensive index\" at inbox/comprehensive-index.md"
    );
    let oks: Vec<(&str, bool)> =
        s["actions"].as_array().expect("actions").iter().map(|a| (text(&a["tool"]), a["ok"] == true)).collect();
    assert_eq!(oks, [("organize_notes", true), ("create_note", true)]);
    assert_eq!((s["iteration"].clone(), s["confidence"].clone()), (json!(2), json!(1.0)));
    assert_eq!(s["checks"], json!({"sub_objectives": "2 of 2", "confidence": 1.0, "signal": true}));
    assert_eq!(final_of(&r).0, "completed");
    assert_eq!(
        final_of(&r).1,
        "Done after 2 rounds (every sub-objective is done): 2 of 2 sub-objectives done (\"Organize all my machine learning notes\", \"create a comprehensive index\"); nothing is open; notes created: inbox/comprehensive-index.md."
    );
    assert!(r["steps"].as_array().expect("steps").len() > 8, "the complex path loops");
    assert_eq!(times_ran(&r, "respond"), 0, "the simple path never ran");
}

/// The same request in upper case is split and carried out the same way.
#[test]
fn task_loop_decomposition_and_tools_do_not_depend_on_case() {
    let r = ask(&ML.to_uppercase(), 0);
    assert_eq!(
        strs(&r["state"]["subtasks"]),
        ["ORGANIZE ALL MY MACHINE LEARNING NOTES", "CREATE A COMPREHENSIVE INDEX"]
    );
    let tools: Vec<&str> =
        r["state"]["actions"].as_array().expect("actions").iter().map(|a| text(&a["tool"])).collect();
    assert_eq!(tools, ["organize_notes", "create_note"]);
    assert_eq!(r["state"]["searches"][0]["hits"], 3);
    assert_eq!(final_of(&r).0, "completed");
}

/// Notes created during the run reach the notes list that later searches read.
#[test]
fn task_loop_a_note_created_in_one_round_is_found_by_a_later_search() {
    let r = ask("Create a note about Kubernetes and then find my notes about Kubernetes", 0);
    let s = &r["state"];
    assert_eq!(strs(&s["subtasks"]), ["Create a note about Kubernetes", "find my notes about Kubernetes"]);
    assert_eq!(
        s["searches"],
        json!([{"subtask": "find my notes about Kubernetes", "query": ["kubernetes"], "hits": 1}])
    );
    assert_eq!(
        s["findings"],
        json!([{"subtask": "find my notes about Kubernetes", "path": "inbox/kubernetes.md", "title": "Kubernetes"}])
    );
    assert_eq!(
        tool_calls(&r, "work"),
        [
            r#"create_note({"body":"Create a note about Kubernetes. No notes were found to draw on.","title":"Kubernetes"})"#,
            r#"search_notes({"query":"kubernetes"})"#
        ]
    );
    assert_eq!(s["execution"]["action"], "find my notes about Kubernetes: 1 note matches \"kubernetes\": Kubernetes.");
    assert_eq!(final_of(&r).0, "completed");
}

/// Analyze → search when needed: an empty search fails the round, the reflection says so, a
/// second search by word stems follows, then the work goes on without notes.
#[test]
fn task_loop_search_that_finds_nothing_fails_the_round_then_retries_then_does_without() {
    let r = ask("Research every note about quantum physics and write a summary", 0);
    let s = &r["state"];
    let queries: Vec<&Value> = s["searches"].as_array().expect("searches").iter().map(|q| &q["query"]).collect();
    assert_eq!(queries, [&json!(["quantum", "physics"]), &json!(["quant", "physi"])]);
    let oks: Vec<bool> = s["actions"].as_array().expect("actions").iter().map(|a| a["ok"] == true).collect();
    assert_eq!(oks, [false, false, true, true]);
    assert_eq!(times_ran(&r, "run_tools"), 2, "no tool runs while the notes are missing");
    let reflections: Vec<&str> = s["memory"]
        .as_array()
        .expect("memory")
        .iter()
        .filter(|m| m["kind"] == "reflection")
        .map(|m| text(&m["text"]))
        .collect();
    assert!(reflections[0].contains("failed for want of notes"), "{reflections:?}");
    assert_eq!(paths(&s["created"]), ["inbox/quantum-physics.md", "inbox/summary.md"]);
    assert_eq!((s["iteration"].clone(), final_of(&r).0), (json!(4), "completed"));
}

/// Execute → reflect → analyze: a tool that fails is reflected on and tried another way.
#[test]
fn task_loop_a_failed_tool_call_is_retried_another_way_in_the_next_round() {
    let r = ask("Write a detailed note called Sourdough bread", 0);
    let s = &r["state"];
    let acts: Vec<(bool, &str)> =
        s["actions"].as_array().expect("actions").iter().map(|a| (a["ok"] == true, text(&a["error"]))).collect();
    assert_eq!(acts, [(false, "a note called \"Sourdough bread\" already exists at kitchen/sourdough.md"), (true, "")]);
    assert_eq!(paths(&s["created"]), ["inbox/sourdough-bread-2.md"]);
    assert_eq!(s["created"][0]["title"], "Sourdough bread (2)");
    assert_eq!((s["iteration"].clone(), final_of(&r).0), (json!(2), "completed"));
}

/// The loop is capped at 24 ITERATIONS (MAX_ITERATIONS), not steps: six sub-objectives all get
/// done, and a task too long for 24 rounds stops at the 24th readably, never at the step limit.
#[test]
fn task_loop_stops_after_24_iterations_with_what_is_done_and_what_is_open() {
    let g = read_template(TASK_LOOP);
    assert_eq!(g["state"]["max_iterations"]["default"], 24);
    // Six steps a round at most (plan_search, choose_tool beside search, execute, run_tools,
    // reflect beside file_results, check), for the largest limit `init` allows, plus assess,
    // init beside decompose, and finish.
    assert!(g["limits"]["max_steps"].as_u64() >= Some(100 * 6 + 3));

    let r = ask(MEETING, 0);
    assert_eq!(r["state"]["completed"].as_array().map(Vec::len), Some(6), "all six, where 24 steps did five");
    assert_eq!(final_of(&r).0, "completed");

    let items: Vec<String> = (1..=30).map(|i| format!("item{i}")).collect();
    let r = ask(&format!("Write short notes on {}", items.join(", ")), 0);
    let s = &r["state"];
    assert_eq!(r["status"], "completed", "the run ends itself, no exit 4");
    assert!(r["step"].as_u64() > Some(24), "{}", r["step"]);
    assert_eq!((s["iteration"].clone(), s["verdict"].clone()), (json!(24), json!("limit")));
    assert_eq!(times_ran(&r, "check"), 24);
    assert_eq!(
        (times_ran(&r, "decompose"), times_ran(&r, "name_notes")),
        (1, 1),
        "split and named once, not per round"
    );
    assert_eq!(s["subtasks"].as_array().map(Vec::len), Some(30));
    // The first item needed notes: two empty searches, then it was done without; one a round after.
    assert_eq!(s["completed"].as_array().map(Vec::len), Some(22));
    assert_eq!(s["confidence"], 0.73);
    assert_eq!(s["completion_reason"], "the limit of 24 iterations is reached");
    let (status, result) = final_of(&r);
    assert_eq!(status, "stopped_at_limit");
    assert!(result.starts_with("Stopped after 24 rounds: the limit of 24 iterations is reached: 22 of 30 sub-objectives done (\"Write short notes on item1\", \"item2\""), "{result}");
    assert!(result.contains("; still open: \"item23\", \"item24\", \"item25\", \"item26\", \"item27\", \"item28\", \"item29\", \"item30\"; notes created: inbox/item1.md"), "{result}");
}

/// MAX_ITERATIONS is a parameter: a smaller one stops sooner, a larger one is kept within what
/// the step limit allows (100), one below 1 is raised to 1.
#[test]
fn task_loop_the_iteration_limit_can_be_set_and_is_kept_within_bounds() {
    let r = go(&json!({"request": MEETING, "max_iterations": 3}), 0);
    let s = &r["state"];
    assert_eq!((s["iteration"].clone(), final_of(&r).0), (json!(3), "stopped_at_limit"));
    assert_eq!(strs(&s["completed"]), ["Draft the agenda", "book a room", "invite the team"]);
    assert!(final_of(&r).1.ends_with("still open: \"write the slides\", \"print the handouts\", \"send the reminders\"; notes created: inbox/agenda.md, inbox/book-a-room.md, inbox/invite-the-team.md."), "{}", final_of(&r).1);

    let r = go(&json!({"request": MEETING, "max_iterations": 500}), 0);
    assert_eq!((r["state"]["max_iterations"].clone(), final_of(&r).0), (json!(100), "completed"));

    let r = go(&json!({"request": MEETING, "max_iterations": 0}), 0);
    assert_eq!(r["state"]["max_iterations"], 1);
    assert_eq!(r["state"]["completion_reason"], "the limit of 1 iteration is reached");
    assert_eq!(final_of(&r).0, "stopped_at_limit");
}

/// Completion check: confidence (computed by the run: share of sub-objectives done) of 0.85 or
/// more completes the task even with a sub-objective open.
#[test]
fn task_loop_confidence_of_0_85_or_more_completes_the_task() {
    let r = ask(&format!("{MEETING}, and order the snacks"), 0);
    let s = &r["state"];
    assert_eq!(s["subtasks"].as_array().map(Vec::len), Some(7));
    assert_eq!(s["iteration"], 6, "5 of 7 is 0.71, 6 of 7 is 0.86");
    assert_eq!(s["checks"], json!({"sub_objectives": "6 of 7", "confidence": 0.86, "signal": false}));
    assert_eq!(s["completion_reason"], "confidence 0.86 is at least 0.85");
    let (status, result) = final_of(&r);
    assert_eq!(status, "completed");
    assert!(result.contains("still open: \"order the snacks\""), "{result}");
}

/// Completion check: the run writes the completion signal into working memory when the work is
/// done (in `reflect`, before the check reads it), and a signal in a restored memory ends the
/// loop at the first check.
#[test]
fn task_loop_completion_signal_is_written_by_the_run_and_read_from_restored_memory() {
    let r = ask(ML, 0);
    let steps = r["steps"].as_array().expect("steps");
    let reflect_last =
        steps.iter().rposition(|s| s["ran"].as_array().expect("ran").contains(&json!("reflect"))).expect("reflect ran");
    let written = &steps[reflect_last]["updates"]["reflect"]["memory"];
    assert!(written.as_array().expect("entries").iter().any(|m| m["kind"] == "signal"), "{written}");
    assert_eq!(steps[reflect_last + 1]["ran"], json!(["check"]));
    assert_eq!(memory_kinds(&r).last(), Some(&"signal"));
    assert!(!memory_kinds(&r)[..memory_kinds(&r).len() - 1].contains(&"signal"), "only once the work is done");

    let input = json!({
        "request": ML,
        "memory": [{"kind": "signal", "text": "marked done in an earlier session", "importance": 1.0}]
    });
    let r = go(&input, 0);
    let s = &r["state"];
    assert_eq!(s["completion_reason"], "working memory holds a completion signal");
    assert_eq!(s["iteration"], 1);
    assert_eq!(s["completed"].as_array().map(Vec::len), Some(1), "one of two sub-objectives done");
    assert_eq!(final_of(&r).0, "completed");
}

/// Working memory keeps at most 50 entries; past that the least important go first (the
/// oldest among equals), whether the entries were restored or added by the run.
#[test]
fn task_loop_memory_cap_of_50_evicts_the_least_important_entries_the_run_adds() {
    // A restored memory of 49 entries, pushed past 50 by the run.
    let restored: Vec<Value> =
        (1..=49).map(|i| json!({"kind": "observation", "text": format!("s{i}"), "importance": 0.1})).collect();
    let r = go(&json!({"request": ML, "memory": restored}), 0);
    let memory = r["state"]["memory"].as_array().expect("memory");
    let added = memory.iter().filter(|m| m["importance"].as_f64() > Some(0.1)).count();
    assert_eq!(added, 12, "everything the run wrote is kept");
    assert_eq!(memory.len(), 50);
    let left: Vec<&str> = memory.iter().filter(|m| m["importance"] == 0.1).map(|m| text(&m["text"])).collect();
    let expected: Vec<String> = (12..=49).map(|i| format!("s{i}")).collect();
    assert_eq!(left, expected, "the oldest of the least important went first");

    // A long task fills memory by itself: the actions (0.7), then thoughts and the plan (0.8) go.
    let items: Vec<String> = (1..=30).map(|i| format!("item{i}")).collect();
    let r = ask(&format!("Write short notes on {}", items.join(", ")), 0);
    let memory = r["state"]["memory"].as_array().expect("memory");
    assert_eq!(memory.len(), 50);
    assert!(memory.iter().all(|m| m["importance"].as_f64() >= Some(0.9)), "only the most important are left");
    let kinds = memory_kinds(&r);
    assert!(!kinds.contains(&"action") && !kinds.contains(&"thought") && !kinds.contains(&"plan"), "{kinds:?}");
    assert_eq!(kinds.iter().filter(|k| **k == "reflection").count(), 24, "the newest are kept");
}

/// The same input always gives the same run (mock replies follow the state).
#[test]
fn task_loop_the_database_comparison_runs_to_completion_the_same_way_twice() {
    let request = "Analyze and compare three databases for our analytics workload, research their costs, and then recommend the best one for a team of twenty engineers with a tight budget";
    let a = ask(request, 0);
    let b = ask(request, 0);
    assert_eq!(a["state"], b["state"]);
    assert_eq!(final_of(&a).0, "completed");
    assert_eq!(a["state"]["subtasks"].as_array().map(Vec::len), Some(4));
    assert!(a["steps"].as_array().expect("steps").len() > 8);
}
