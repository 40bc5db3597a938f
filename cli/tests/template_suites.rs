//! The test suites kept for the templates (`templates/tests/`, made by
//! scripts/template_suites.py from real runs): each passes on its unchanged template, offline,
//! and keeps passing when only a note or the layout changes; a planted edit fails them.

mod binary;
mod template_run;

use std::path::{Path, PathBuf};

use binary::sy;
use serde_json::{Value, json};
use template_run::{TEMPLATES, tmp, write};

fn suites_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join("templates").join("tests")
}

/// The suite of template `name` (`000-task-loop.json` → `000-task-loop.tests.json`).
fn suite_of(name: &str) -> PathBuf {
    suites_dir().join(name.replace(".json", ".tests.json"))
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("readable")).expect("JSON")
}

/// `switchyard test SUITE [--graph GRAPH] --json`, expecting exit `code`.
fn test_json(suite: &Path, graph: Option<&str>, code: i32) -> Value {
    let suite = suite.to_string_lossy();
    let mut args = vec!["test", &*suite, "--json"];
    if let Some(g) = graph {
        args.extend(["--graph", g]);
    }
    let out = sy(&args);
    out.assert_code(code);
    out.json()
}

#[test]
fn every_template_has_a_suite_that_passes_offline() {
    for name in TEMPLATES {
        let suite = suite_of(name);
        let cases = read_json(&suite)["cases"].as_array().map_or(0, Vec::len);
        assert!(cases >= 3, "{name}: its suite has {cases} cases; each path the docs list deserves one");
        let out = test_json(&suite, None, 0);
        assert_eq!(out["summary"]["passed"], json!(cases), "{name}\n{out:#}");
        // Every model, HTTP and MCP call was answered from the suite (the MCP template's
        // included: its server is never started): the node's details say so.
        for r in out["results"].as_array().expect("results") {
            for step in r["record"]["steps"].as_array().expect("steps") {
                for (node, detail) in step["details"].as_object().into_iter().flatten() {
                    // A model call (it names its provider), and each call of an MCP tool (it
                    // names its server); script tools run in the engine and are not replies.
                    if detail.get("provider").is_some() {
                        assert_eq!(detail["replayed"], true, "{name}: `{node}`'s model call: {detail}");
                    }
                    for call in detail["calls"].as_array().into_iter().flatten().filter(|c| c.get("server").is_some()) {
                        assert_eq!(call["replayed"], true, "{name}: `{node}`'s MCP call: {call}");
                    }
                }
            }
        }
    }
}

/// Template `name` with a note added and every node moved: what a person does on the canvas
/// without changing what the graph does.
fn moved_with_a_note(name: &str, dir: &Path) -> String {
    let mut g = template_run::read_template(name);
    g["nodes"]
        .as_array_mut()
        .expect("nodes")
        .push(json!({"id": "why", "kind": "note", "text": "Checked by its suite."}));
    for (_, pos) in g["layout"].as_object_mut().expect("a layout").iter_mut() {
        pos["x"] = json!(pos["x"].as_f64().unwrap_or(0.0) + 37.0);
        pos["y"] = json!(pos["y"].as_f64().unwrap_or(0.0) + 11.0);
    }
    g["layout"]["why"] = json!({"x": -200, "y": 0});
    write(dir, name, serde_json::to_string_pretty(&g).expect("JSON"))
}

#[test]
fn a_note_or_a_new_layout_fails_no_case() {
    let dir = tmp();
    for name in TEMPLATES {
        let graph = moved_with_a_note(name, dir.path());
        let out = test_json(&suite_of(name), Some(&graph), 0);
        assert_eq!(out["summary"]["failed"], json!(0), "{name}\n{out:#}");
        assert_eq!(out["changed"], json!(true), "{name}: the graph's hash changed, and the result says so\n{out:#}");
    }
}

#[test]
fn a_stricter_rubric_fails_the_evaluation_loop_cases_at_the_judges_step() {
    let dir = tmp();
    let mut g = template_run::read_template("008-evaluation-loop.json");
    let judge = g["nodes"].as_array_mut().expect("nodes").iter_mut().find(|n| n["id"] == "judge").expect("judge");
    let reply = judge["model"]["responses"][0].as_str().expect("a reply").replace(">= 25", ">= 40");
    judge["model"]["responses"][0] = json!(reply);
    let graph = write(dir.path(), "008-evaluation-loop.json", serde_json::to_string_pretty(&g).expect("JSON"));
    let out = test_json(&suite_of("008-evaluation-loop.json"), Some(&graph), 1);
    for r in out["results"].as_array().expect("results") {
        assert_eq!(r["passed"], false, "{r:#}");
        let first = r["failures"][0].clone();
        assert_eq!(first["kind"], "replay", "the mock judge's request changed first: {first}");
        assert_eq!(first["node"], "judge", "{first}");
        assert_eq!(first["step"], 2, "the judge's first call is in step 2: {first}");
    }
}

#[test]
fn the_evaluation_loop_dataset_is_scored_by_its_llm_judge() {
    let suite = suite_of("008-evaluation-loop.json");
    let dataset = suites_dir().join("008-evaluation-loop.dataset.jsonl");
    let (suite, dataset) = (suite.to_string_lossy(), dataset.to_string_lossy());
    let out = sy(&["test", &suite, "--dataset", &dataset, "--json"]);
    out.assert_code(1);
    let out = out.json();
    let failed: Vec<&str> = out["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter(|r| r["passed"] == false)
        .map(|r| r["name"].as_str().expect("a name"))
        .collect();
    assert_eq!(failed, ["one round only", "no task"], "{out:#}");
    let judge =
        out["summary"]["evaluators"].as_array().expect("evaluators").iter().find(|e| e["name"] == "judge").cloned();
    let judge = judge.expect("the judge's summary");
    assert_eq!(judge["pass_rate"], json!(0.75), "{judge}");
    let comment =
        out["results"][6]["scores"].as_array().expect("scores").iter().find(|s| s["evaluator"] == "judge").cloned();
    assert_eq!(comment.expect("a judge score")["comment"], "answers the task but gives no example");
}

/// `v` as JavaScript's JSON.stringify writes it: whole numbers without `.0`.
fn as_javascript_writes_it(v: &Value) -> Value {
    match v {
        Value::Number(n) => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 1e15 => json!(f as i64),
            _ => v.clone(),
        },
        Value::Array(items) => Value::Array(items.iter().map(as_javascript_writes_it).collect()),
        Value::Object(map) => Value::Object(map.iter().map(|(k, v)| (k.clone(), as_javascript_writes_it(v))).collect()),
        other => other.clone(),
    }
}

#[test]
fn a_suite_rewritten_by_another_json_tool_still_passes() {
    let dir = tmp();
    for name in TEMPLATES {
        let suite = suite_of(name);
        let rewritten = as_javascript_writes_it(&read_json(&suite));
        let mut doc = rewritten.clone();
        doc["graph"]["path"] = json!(template_run::template(name));
        let file = write(dir.path(), &format!("{name}.tests.json"), serde_json::to_string(&doc).expect("JSON"));
        let out = test_json(Path::new(&file), None, 0);
        assert_eq!(out["summary"]["failed"], json!(0), "{name}: 1.0 written as 1 is the same number\n{out:#}");
    }
}
