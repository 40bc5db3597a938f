//! The 002 agent graph template, run through the real `switchyard` binary with the inputs a person would
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
// 002 agent graph
// ---------------------------------------------------------------------------------------------

const AGENT_GRAPH: &str = "002-agent-graph.json";

/// The nodes after the fetch step, in the order they run: reason → reflect → generate (BEFORE
/// and AFTER side by side) → evaluate.
const TAIL: [&str; 6] = ["reason", "reflect", "record_reflection", "generate_after", "generate_before", "evaluate"];

fn flat(record: &Value) -> Vec<String> {
    ran(record).into_iter().flatten().collect()
}

/// What one pass runs: the planner, the fetch node the task type calls for (if any), the tail.
fn pass(fetch: &[&str]) -> Vec<String> {
    ["plan"].iter().chain(fetch).chain(TAIL.iter()).map(|s| s.to_string()).collect()
}

fn score(record: &Value) -> i64 {
    record["state"]["evaluation_scores"]["overall"].as_i64().expect("an overall score")
}

/// The template with one llm node's mock replies replaced, run with `input`.
fn run_with_replies(dir: &Path, node: &str, replies: Value, input: &Value) -> Value {
    let mut g = read_template(AGENT_GRAPH);
    for n in g["nodes"].as_array_mut().expect("nodes") {
        if n["id"] == node {
            n["model"]["responses"] = replies.clone();
        }
    }
    let path = write(dir, &format!("{node}.json"), g.to_string());
    sy(&["run", &path, "--input", &input.to_string()]).record(0)
}

/// Seed: one pass with no loop back (max_iterations 1), plan → retrieve → reason → reflect →
/// generate → evaluate → END, the list fields concatenated across nodes, and a "good" critique
/// giving a single output (BEFORE and AFTER the same).
#[test]
fn agent_graph_question_runs_one_pass_and_concatenates_the_reasoning_trail() {
    let dir = tmp();
    let r = run(dir.path(), AGENT_GRAPH, &json!({"task": "What is self-reflection?"}), 0).record;
    let s = &r["state"];
    assert_eq!(flat(&r), pass(&["retrieve"]), "every node runs once");
    assert_eq!(s["iteration_count"], 1);
    assert_eq!(
        strs(&s["reasoning_steps"]),
        [
            "Planning: Task is answer_question → retrieve",
            "Retrieval: 1 of 4 passages match",
            "Reason: docs/reflection.md says: Self-reflection means the agent critiques its own draft before answering.",
            "Reason: the answer should rest on these passages and name them",
            "Evaluation: overall 100/100",
        ],
        "every node's steps are appended to the same list"
    );
    assert_eq!(s["reflection_assessment"], "good");
    assert_eq!(strs(&s["reflection_notes"]), ["The reasoning rests on 1 passage(s)."]);
    let answer =
        "Self-reflection means the agent critiques its own draft before answering. (source: docs/reflection.md)";
    assert_eq!(s["output_before_reflection"], answer, "BEFORE");
    assert_eq!(s["final_output"], answer, "a good critique leaves a single output: AFTER is BEFORE");
    assert_eq!(s["evaluation_scores"], json!({"grounding": 100, "citation": 100, "clarity": 100, "overall": 100}));
    assert_eq!(s["evaluation_explanations"]["citation"], json!(["1 of 1 sources named"]));
    assert_eq!((s["final_status"].clone(), s["final_result"].clone()), (json!("completed"), json!(answer)));
    assert_eq!(s["is_complete"], true);
}

/// Seed: no loop back to the planner (the reflector always goes on to the generator, the evaluator
/// to END): nothing leads back to `plan`, the graph is acyclic, and a higher pass limit still runs
/// exactly one pass instead of going round until the step limit.
#[test]
fn agent_graph_has_no_loop_back_and_a_high_limit_still_runs_one_pass() {
    let g = read_template(AGENT_GRAPH);
    let edges: Vec<(&str, &str)> =
        g["edges"].as_array().expect("edges").iter().map(|e| (text(&e["from"]), text(&e["to"]))).collect();
    assert_eq!(edges.iter().filter(|(_, to)| *to == "plan").collect::<Vec<_>>(), [&("start", "plan")]);
    // Acyclic: peel off nodes with no incoming edge until none is left.
    let mut left: Vec<(&str, &str)> = edges.clone();
    let mut nodes: Vec<&str> = g["nodes"].as_array().expect("nodes").iter().map(|n| text(&n["id"])).collect();
    while let Some(i) = nodes.iter().position(|n| left.iter().all(|(_, to)| to != n)) {
        let n = nodes.remove(i);
        left.retain(|(from, _)| *from != n);
    }
    assert!(nodes.is_empty(), "a cycle through {nodes:?}");

    let dir = tmp();
    for limit in [1, 2, 5, 100] {
        let input = json!({"task": "What does critiquing mean here?", "max_iterations": limit});
        let r = run(dir.path(), AGENT_GRAPH, &input, 0).record;
        assert_eq!(flat(&r), pass(&["retrieve"]), "limit {limit}");
        assert_eq!(r["state"]["iteration_count"], 1);
        assert_eq!(r["state"]["final_status"], "completed");
    }
}

/// Seed: the planner routes by task type (analyze_repo → analysis, answer_question → retrieval,
/// anything else → straight to reasoning); here in any case or wording, unknown and blank types
/// taking the seed's default (reasoning).
#[test]
fn agent_graph_routes_by_task_type_in_any_case_or_wording() {
    let dir = tmp();
    let cases: [(&str, &str, &[&str]); 10] = [
        ("analyze_repo", "analyze_repo", &["analyze_repo"]),
        ("ANALYZE_REPO", "analyze_repo", &["analyze_repo"]),
        ("  Analyse the repo ", "analyze_repo", &["analyze_repo"]),
        ("answer_question", "answer_question", &["retrieve"]),
        ("Answer Question", "answer_question", &["retrieve"]),
        ("question", "answer_question", &["retrieve"]),
        ("generate_content", "generate_content", &[]),
        ("Generate Post", "generate_post", &[]),
        ("haiku", "haiku", &[]),
        ("", "", &[]),
    ];
    for (typed, read, fetch) in cases {
        let r =
            run(dir.path(), AGENT_GRAPH, &json!({"task": "Tell me about this project", "task_type": typed}), 0).record;
        assert_eq!(flat(&r), pass(fetch), "task_type {typed:?}");
        assert_eq!(r["state"]["task_type"], read, "task_type {typed:?}");
        assert_eq!(r["state"]["final_status"], "completed", "task_type {typed:?}");
    }
    // The type is optional: a question by default.
    let r = run(dir.path(), AGENT_GRAPH, &json!({"task": "WHAT IS SELF-REFLECTION?"}), 0).record;
    assert_eq!(flat(&r), pass(&["retrieve"]));
    assert_eq!(r["state"]["reflection_assessment"], "good", "retrieval ignores case");
}

/// Seed: repository analysis, a "needs_improvement" critique, and generation producing a BEFORE
/// and an AFTER output; the AFTER applies the critique (names the modules) and scores higher.
#[test]
fn agent_graph_repository_analysis_gives_before_and_after_outputs() {
    let dir = tmp();
    let r = run(dir.path(), AGENT_GRAPH, &json!({"task": "Analyze this repository", "task_type": "analyze_repo"}), 0)
        .record;
    let s = &r["state"];
    assert_eq!(flat(&r), pass(&["analyze_repo"]));
    assert_eq!(
        s["repo_structure"],
        json!({"files": 6, "modules": ["app/main.py", "app/graph.py", "app/nodes.py"], "tests": ["tests/test_graph.py"]})
    );
    assert_eq!(s["reflection_assessment"], "needs_improvement");
    assert_eq!(strs(&s["reflection_notes"]), ["The reasoning counts the modules and tests but names none of them."]);
    assert_eq!(s["output_before_reflection"], "Repository analysis: 6 files, 3 module(s) and 1 test file(s).");
    assert_eq!(
        s["final_output"],
        "Repository analysis: 6 files: 3 module(s) (app/main.py, app/graph.py, app/nodes.py) and 1 test file(s) (tests/test_graph.py)."
    );
    assert_eq!(s["evaluation_explanations"]["citation"], json!(["4 of 4 sources named"]));
    assert!(score(&r) >= 80, "{}", s["evaluation_scores"]);

    // Like the design's max_files: the analyzer lists at most that many modules and tests, and
    // still counts every file.
    let input = json!({"task": "Analyze this repository", "task_type": "ANALYZE_REPO", "max_files": 2});
    let r3 = run(dir.path(), AGENT_GRAPH, &input, 0).record;
    assert_eq!(
        r3["state"]["repo_structure"],
        json!({"files": 6, "modules": ["app/main.py", "app/graph.py"], "tests": ["tests/test_graph.py"]})
    );

    // The BEFORE output, scored the same way, is worse: it names no source.
    let before = text(&s["output_before_reflection"]);
    let r2 = run_with_replies(
        dir.path(),
        "generate_after",
        json!([before]),
        &json!({"task": "Analyze this repository", "task_type": "analyze_repo"}),
    );
    assert_eq!(r2["state"]["evaluation_scores"]["citation"], 0);
    assert!(score(&r2) < score(&r), "{} < {}", score(&r2), score(&r));
}

/// Seed: for analyze_repo the planner reuses repository data already in the state (cached) and goes
/// straight to reasoning; content tasks skip analysis and retrieval and use the cached data.
#[test]
fn agent_graph_reuses_a_cached_analysis_and_content_skips_fetching() {
    let dir = tmp();
    let cached = json!({"files": 3, "modules": ["src/core.py", "src/cli.py"], "tests": ["tests/test_core.py"]});
    let r = run(
        dir.path(),
        AGENT_GRAPH,
        &json!({"task": "Analyze this repository", "task_type": "analyze_repo", "repo_structure": cached}),
        0,
    )
    .record;
    assert_eq!(flat(&r), pass(&[]), "no second analysis");
    assert_eq!(strs(&r["state"]["reasoning_steps"])[0], "Planning: Task is analyze_repo → reason");
    assert!(text(&r["state"]["final_output"]).contains("src/core.py, src/cli.py"));

    // A cache without the analyzer's shape is not trusted: the repository is analysed again.
    let input = json!({"task": "Analyze this repository", "task_type": "analyze_repo", "repo_structure": "cached"});
    let r = run(dir.path(), AGENT_GRAPH, &input, 0).record;
    assert_eq!(flat(&r), pass(&["analyze_repo"]));

    // A post from cached data: BEFORE and AFTER, the AFTER naming the modules.
    let input = json!({"task": "Write a LinkedIn post about this project", "task_type": "generate_content", "repo_structure": cached});
    let r = run(dir.path(), AGENT_GRAPH, &input, 0).record;
    assert_eq!(flat(&r), pass(&[]));
    assert_ne!(r["state"]["output_before_reflection"], r["state"]["final_output"]);
    assert!(text(&r["state"]["final_output"]).contains("(src/core.py, src/cli.py)"));
    assert!(score(&r) >= 80, "{}", r["state"]["evaluation_scores"]);

    // Without any data the post has nothing behind it: it says so and scores low.
    let input = json!({"task": "Write a LinkedIn post about this project", "task_type": "generate_content"});
    let r = run(dir.path(), AGENT_GRAPH, &input, 0).record;
    assert_eq!(flat(&r), pass(&[]));
    assert_eq!(r["state"]["reflection_assessment"], "needs_improvement");
    assert!(text(&r["state"]["final_output"]).starts_with("No answer"));
    assert!(score(&r) <= 20, "{}", r["state"]["evaluation_scores"]);
}

/// Seed: the evaluator scores quality with explanations. A grounded answer scores high; one that only
/// repeats the question, or says nothing was found, scores low, whatever the question.
#[test]
fn agent_graph_evaluation_scores_grounded_answers_high_and_empty_ones_low() {
    let dir = tmp();
    let question = json!({"task": "What is self-reflection?"});
    let grounded = run(dir.path(), AGENT_GRAPH, &question, 0).record;
    assert!(score(&grounded) >= 90);

    let echo = run_with_replies(dir.path(), "generate_after", json!(["{{ state.task }}"]), &question);
    assert_eq!(echo["state"]["final_output"], "What is self-reflection?");
    assert_eq!(echo["state"]["evaluation_scores"]["grounding"], 0, "repeating the question adds nothing");
    assert!(score(&echo) <= 20, "{}", echo["state"]["evaluation_scores"]);

    let nothing = run_with_replies(dir.path(), "generate_after", json!(["I found nothing about that."]), &question);
    assert!(score(&nothing) <= 20, "{}", nothing["state"]["evaluation_scores"]);

    // Naming the source does not make an echo grounded.
    let cited = run_with_replies(
        dir.path(),
        "generate_after",
        json!(["{{ state.task }} (source: docs/reflection.md)"]),
        &question,
    );
    assert_eq!(cited["state"]["evaluation_scores"]["grounding"], 0);
    assert!(score(&cited) <= 50, "{}", cited["state"]["evaluation_scores"]);

    // A question the knowledge base cannot answer: the run says so and scores low.
    let r = run(dir.path(), AGENT_GRAPH, &json!({"task": "What is quantum tunnelling?"}), 0).record;
    assert_eq!(r["state"]["retrieved_context"], json!([]));
    assert_eq!(
        r["state"]["output_before_reflection"],
        "I found nothing to back an answer to: What is quantum tunnelling?"
    );
    assert!(text(&r["state"]["final_output"]).starts_with("No answer"));
    assert_eq!(score(&r), 20);
    assert_eq!(r["state"]["final_status"], "completed");
}

/// Seed: retrieval handles errors gracefully: a failing retrieval returns empty results and a
/// "Retrieval failed" step instead of crashing the run.
#[test]
fn agent_graph_retrieval_failure_goes_on_with_empty_results() {
    let dir = tmp();
    let bad: [(Value, &str); 5] = [
        (json!([]), "the knowledge base is empty"),
        (json!(null), "the knowledge base is missing"),
        (json!("docs/"), "the knowledge base is not a list"),
        (json!([1, 2]), "a passage has no text"),
        (json!([{"source": "docs/a.md"}]), "a passage has no text"),
    ];
    for (kb, why) in bad {
        let input = json!({"task": "What is self-reflection?", "knowledge_base": kb});
        let r = run(dir.path(), AGENT_GRAPH, &input, 0).record;
        let s = &r["state"];
        assert_eq!(flat(&r), pass(&["retrieve", "retrieval_failed"]), "{kb}");
        assert_eq!(s["retrieved_context"], json!([]), "{kb}");
        assert!(text(&s["retrieval_error"]).contains(why), "{kb}: {}", s["retrieval_error"]);
        assert!(strs(&s["reasoning_steps"])[1].starts_with("Retrieval failed: "), "{kb}");
        assert_eq!(s["final_status"], "completed", "{kb}");
        assert!(score(&r) <= 20, "{kb}");
    }
    // A working retrieval leaves no error.
    let r = run(dir.path(), AGENT_GRAPH, &json!({"task": "What is self-reflection?"}), 0).record;
    assert_eq!(r["state"]["retrieval_error"], "");
}

/// Seed: retrieval queries the knowledge base for the closest passages (the seed's example gets
/// five chunks): here by word stem, in any case, at most five.
#[test]
fn agent_graph_retrieval_matches_word_stems_and_keeps_at_most_five() {
    let dir = tmp();
    let r = run(dir.path(), AGENT_GRAPH, &json!({"task": "What does critiquing mean here?"}), 0).record;
    assert_eq!(r["state"]["retrieved_context"][0]["source"], "docs/reflection.md", "critiquing finds critiques");

    let kb: Vec<Value> =
        (1..=7).map(|i| json!({"source": format!("docs/{i}.md"), "text": format!("Routing rule {i}.")})).collect();
    let r = run(dir.path(), AGENT_GRAPH, &json!({"task": "How does ROUTING work?", "knowledge_base": kb}), 0).record;
    assert_eq!(r["state"]["retrieved_context"].as_array().map(Vec::len), Some(5));
    assert_eq!(strs(&r["state"]["reasoning_steps"])[1], "Retrieval: 5 of 7 passages match");
}

/// A blank task (missing, empty or spaces) is refused readably: the planner has nothing to plan, so
/// the run goes to END and fails with a message, without reasoning or generating.
#[test]
fn agent_graph_blank_task_is_rejected_with_a_message() {
    let dir = tmp();
    for input in
        [json!({}), json!({"task": ""}), json!({"task": "   \n"}), json!({"task": "", "task_type": "analyze_repo"})]
    {
        let r = run(dir.path(), AGENT_GRAPH, &input, 1).record;
        assert_eq!(flat(&r), ["plan", "stop"], "{input}");
        assert_eq!(r["state"]["next_action"], "END");
        assert_eq!(r["state"]["final_status"], "rejected");
        assert_eq!(r["state"]["final_result"], "No task was given: say what the agent should do.");
        assert_eq!(
            r["error"],
            json!({"node": "halted", "kind": "ended", "message": "No task was given: say what the agent should do."})
        );
    }
}

/// Seed: the iteration limit, checked after planning (the planner counts the pass): a pass beyond
/// max_iterations goes to END with "Max iterations reached", whatever the task type.
#[test]
fn agent_graph_iteration_limit_is_checked_after_planning() {
    let dir = tmp();
    for (input, pass_no, limit) in [
        (json!({"task": "What is self-reflection?", "max_iterations": 0}), 1, 0),
        (json!({"task": "Analyze it", "task_type": "analyze_repo", "max_iterations": -2}), 1, -2),
        // A state that already counts a pass (continuing an earlier run) with the default limit of 1.
        (json!({"task": "What is self-reflection?", "iteration_count": 1}), 2, 1),
    ] {
        let r = run(dir.path(), AGENT_GRAPH, &input, 1).record;
        let s = &r["state"];
        assert_eq!(flat(&r), ["plan", "stop"], "{input}");
        assert_eq!(s["iteration_count"], pass_no);
        assert_eq!(s["final_status"], "stopped_at_limit");
        let why =
            format!("Max iterations reached: pass {pass_no} is beyond the limit of {limit}; nothing was generated.");
        assert_eq!(s["final_result"], why.as_str());
        assert_eq!(r["error"]["message"], why.as_str());
        assert_eq!(s["is_complete"], false);
        assert_eq!(s["final_output"], "");
    }
}
