//! The seed templates in `templates/` (docs/templates): what every one of them must be. Each
//! template's behaviour, input by input, is tested in its own `template_NNN_*.rs` file.

mod binary;
mod template_run;

use binary::sy;
use serde_json::{Value, json};
use template_run::{TEMPLATES, read_template, template, text};

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
    // Durations and wall-clock times are the parts of a record that may differ (format.md
    // §11): the steps' and the effect calls' in their details; and the trace ids, derived from
    // the run id.
    fn strip(v: &mut Value) {
        match v {
            Value::Object(o) => {
                for key in ["duration_ms", "started_ms", "timings", "trace_id", "traces"] {
                    o.remove(key);
                }
                o.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let comparable = |mut r: Value| {
        r.as_object_mut().expect("an object").remove("run_id");
        strip(&mut r);
        r
    };
    let a = sy(&["run", &template("000-task-loop.json"), "--input", &input]);
    let b = sy(&["run", &template("000-task-loop.json"), "--input", &input]);
    assert_eq!(comparable(a.json()), comparable(b.json()));
}
