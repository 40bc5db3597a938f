//! The JSON Schema of a test suite (`switchyard/tests@1`): the suite's types give the shape;
//! the rules serde's attributes cannot say are added here (an evaluator gives `expression` or
//! `graph`, a threshold is from 0 to 1).

use serde_json::{Value, json};

use super::{format_const, root_for};
use crate::suite::{Suite, TESTS_FORMAT, TESTS_SCHEMA_ID};

/// The JSON Schema (draft 2020-12) of a test suite.
pub fn tests_schema() -> Value {
    let mut schema = root_for::<Suite>(
        TESTS_SCHEMA_ID,
        "Switchyard test suite",
        "Tests of a Switchyard graph built from its runs: each case's input, answers and recorded replies, what must hold of its run, and evaluators scoring every case.",
    );
    format_const(&mut schema, TESTS_FORMAT);
    add_rules(&mut schema);
    schema
}

/// An evaluator gives exactly one of `expression` and `graph`; a threshold is a share.
fn add_rules(schema: &mut Value) {
    if let Some(e) = schema.pointer_mut("/$defs/Evaluator") {
        e["oneOf"] = json!([{ "required": ["expression"] }, { "required": ["graph"] }]);
    }
    if let Some(t) = schema.pointer_mut("/$defs/Evaluator/properties/threshold") {
        t["minimum"] = json!(0);
        t["maximum"] = json!(1);
    }
}

#[cfg(test)]
mod committed {
    //! `schema/tests.schema.json` and `schema/run.schema.json` in the repository are what
    //! these functions give (`switchyard schema tests|run` prints the same).

    use std::path::PathBuf;

    fn file(name: &str) -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join("schema").join(format!("{name}.schema.json"))
    }

    fn pretty(v: &serde_json::Value) -> String {
        format!("{}\n", serde_json::to_string_pretty(v).unwrap_or_default())
    }

    fn generated() -> [(&'static str, String); 2] {
        [("tests", pretty(&super::tests_schema())), ("run", pretty(&crate::schema::run_schema()))]
    }

    #[test]
    fn the_committed_schemas_are_the_generated_ones() {
        for (name, text) in generated() {
            let committed = std::fs::read_to_string(file(name)).unwrap_or_default();
            assert!(
                committed == text,
                "schema/{name}.schema.json is out of date: regenerate it with\n    cargo test -p engine --features schema --lib -- --ignored write_schemas"
            );
        }
    }

    /// Writes the files (run on purpose, with `--ignored`).
    #[test]
    #[ignore]
    fn write_schemas() {
        for (name, text) in generated() {
            std::fs::write(file(name), text).expect("the schema file is written");
        }
    }
}
