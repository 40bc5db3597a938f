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
