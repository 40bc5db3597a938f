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
