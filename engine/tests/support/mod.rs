//! What the suite and replay tests share: the templates, a run of each with the inputs its
//! docs page lists (and answers for its human nodes), and a suite made of runs.

#![allow(dead_code)]

use std::rc::Rc;

use engine::suite::{Case, CaseResult, Prepared, ReplayMode, Suite, SuiteGraph, TESTS_FORMAT, prepare, run_case};
use engine::{Graph, OfflineHost, Plan, Run, RunRecord, Status, compile, parse_graph};
use include_dir::{Dir, include_dir};
use serde_json::{Value, json};

pub static TEMPLATES: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/../templates");

/// A template's run as its docs page (docs/templates/*.md) shows it: the input, then the
/// answers its human nodes get, by node.
pub struct TemplateRun {
    pub file: &'static str,
    pub input: Value,
    pub answers: Vec<(&'static str, Value)>,
}

pub fn template_runs() -> Vec<TemplateRun> {
    let run = |file, input, answers| TemplateRun { file, input, answers };
    vec![
        run("000-task-loop.json", json!({"request": "What is a vector database?"}), vec![]),
        run(
            "000-task-loop.json",
            json!({"request": "Research vector databases and write a note called Vector stores"}),
            vec![],
        ),
        run(
            "001-step-engine.json",
            json!({"readings": [12, 15, 18, 21, 24, 27]}),
            vec![("ask_operator", json!("Page the plant engineer"))],
        ),
        run("002-agent-graph.json", json!({"task": "What is quantum tunnelling?"}), vec![]),
        run(
            "003-approval.json",
            json!({"request": "two days off next week", "requester": "Dana"}),
            vec![("get_approval", json!({"decision": "approve", "comments": "take Thursday and Friday"}))],
        ),
        run(
            "003-approval.json",
            json!({"request": "two days off next week", "requester": "Dana"}),
            vec![("get_approval", json!({"decision": "reject", "comments": "we are short-staffed that week"}))],
        ),
        run(
            "004-linear-orchestrator.json",
            json!({"task": "Book this month's supplier invoices"}),
            vec![
                ("approve_plan", json!({"plan_decision": "approve"})),
                ("approve_result", json!({"result_decision": "approve"})),
            ],
        ),
        run("005-tool-agent.json", json!({"question": "What should I pack for Paris and Oslo?"}), vec![]),
        run(
            "006-map-reduce.json",
            json!({"document": "Intro line\n## Costs\nThe costs rose by a tenth.\n## Risks\nSupply is late."}),
            vec![],
        ),
        run("007-memory-assistant.json", json!({"message": "Remember that Ada likes green tea"}), vec![]),
    ]
}

pub fn template_text(file: &str) -> String {
    TEMPLATES.get_file(file).and_then(|f| f.contents_utf8()).unwrap_or_else(|| panic!("no template {file}")).to_string()
}

pub fn graph_of(text: &str) -> Graph {
    parse_graph(text).expect("the graph parses")
}

pub fn plan_of(graph: &Graph) -> Rc<Plan> {
    Rc::new(compile(graph).plan.expect("the graph is valid"))
}

/// Runs `plan` with `input`, answering its human nodes from `answers` as they ask.
pub fn run_with(plan: Rc<Plan>, input: &Value, answers: &[(&str, Value)], host: &dyn engine::Host) -> RunRecord {
    let mut run = Run::start(plan, input.clone(), host).expect("the input fits");
    let mut given = answers.iter();
    loop {
        pollster::block_on(run.run(host));
        if run.status() != Status::Interrupted {
            break;
        }
        let (node, value) = given.next().unwrap_or_else(|| panic!("no answer for {:?}", run.waiting_for()));
        run.answer(node, value.clone()).expect("the answer fits");
    }
    run.record(true)
}

/// A suite of `cases` for `graph`.
pub fn suite_of(graph: &Graph, cases: Vec<Case>) -> Suite {
    Suite {
        schema: None,
        format: TESTS_FORMAT.into(),
        graph: SuiteGraph {
            path: None,
            name: graph.display_name().to_string(),
            hash: Some(engine::GraphHash::of(graph).hash),
        },
        cases,
        evaluators: Vec::new(),
        dataset: None,
    }
}

/// `suite` written out and read back, as a file would be.
pub fn through_json(suite: &Suite) -> Suite {
    let text = serde_json::to_string_pretty(suite).expect("a suite serializes");
    engine::suite::parse_suite(&text).unwrap_or_else(|e| panic!("the suite does not read back: {e}\n{text}"))
}

pub fn prepared(suite: &Suite, graph: &Graph) -> Prepared {
    prepare(suite, graph, &|p| Err(format!("no file {p}"))).expect("the suite prepares")
}

/// Runs every case of `suite` against `graph` (replaying) on an offline host.
pub fn run_suite(suite: &Suite, graph: &Graph) -> Vec<CaseResult> {
    let prepared = prepared(suite, graph);
    let plan = plan_of(graph);
    let host = OfflineHost::new();
    suite
        .cases
        .iter()
        .map(|c| pollster::block_on(run_case(plan.clone(), c, &prepared, ReplayMode::Replay, &host)))
        .collect()
}

/// The failures of `r`, one per line.
pub fn failures(r: &CaseResult) -> String {
    r.failures.iter().map(|f| f.to_string()).collect::<Vec<_>>().join("\n")
}

/// A graph's JSON with `edit` applied.
pub fn edited(text: &str, edit: impl FnOnce(&mut Value)) -> Graph {
    let mut v: Value = serde_json::from_str(text).expect("JSON");
    edit(&mut v);
    graph_of(&v.to_string())
}

/// The node `id` of a graph's JSON.
pub fn node_mut<'a>(graph: &'a mut Value, id: &str) -> &'a mut Value {
    graph["nodes"]
        .as_array_mut()
        .and_then(|ns| ns.iter_mut().find(|n| n["id"] == id))
        .unwrap_or_else(|| panic!("no node {id}"))
}
