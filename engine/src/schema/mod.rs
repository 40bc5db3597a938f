//! JSON Schemas of the graph document (`switchyard/graph@1`), the run record
//! (`switchyard/run@1`) and the test suite (`switchyard/tests@1`, [`tests`]), derived from the engine's own types (feature `schema`): the types
//! give the shape, [`graph`] and [`run`] add what serde's attributes cannot say (the rules a
//! node's kind or a field's type impose, a JSON Patch's operations).
//!
//! The schemas describe valid documents as far as JSON Schema can: what they refuse, the
//! engine refuses too; what needs the whole document (edges naming existing nodes, types of
//! expressions) is left to [`crate::validate`]. `schema/*.schema.json` in the repository are
//! these functions' output (`switchyard schema graph|run|tests`).

pub mod graph;
pub mod run;
pub mod tests;

pub use self::tests::tests_schema;

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::{Value, json};

use crate::document::{GRAPH_FORMAT, GRAPH_SCHEMA_ID, Graph};
use crate::record::{RUN_FORMAT, RUN_SCHEMA_ID, RunRecord};

/// A node id, tool name or definition name (see [`crate::plan::valid_id`]).
pub const ID_PATTERN: &str = "^[A-Za-z0-9_-]{1,64}$";

/// The JSON Schema (draft 2020-12) of a graph document.
pub fn graph_schema() -> Value {
    let mut schema = root_for::<Graph>(
        GRAPH_SCHEMA_ID,
        "Switchyard graph",
        "A Switchyard workflow graph: nodes reading and updating one shared JSON state, run in supersteps.",
    );
    format_const(&mut schema, GRAPH_FORMAT);
    graph::add_rules(&mut schema);
    schema
}

/// The JSON Schema (draft 2020-12) of a run record.
pub fn run_schema() -> Value {
    let mut schema = root_for::<RunRecord>(
        RUN_SCHEMA_ID,
        "Switchyard run record",
        "What a run of a Switchyard graph did, step by step: enough to show it, resume it or fork it.",
    );
    format_const(&mut schema, RUN_FORMAT);
    schema
}

/// `T`'s schema as a document of its own: `$id`, a title and a description for people.
fn root_for<T: JsonSchema>(id: &str, title: &str, description: &str) -> Value {
    let mut schema = SchemaSettings::draft2020_12().into_generator().into_root_schema_for::<T>();
    schema.insert("$id".into(), json!(id));
    schema.insert("title".into(), json!(title));
    schema.insert("description".into(), json!(description));
    let mut value = schema.to_value();
    for_people(&mut value);
    value
}

/// Rewrites every `description` for a person hovering over a field in an editor: the doc
/// comments it comes from wrap lines and point at the spec's sections and at Rust items.
fn for_people(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                match v {
                    Value::String(text) if key == "description" => *text = readable(text),
                    _ => for_people(v),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(for_people),
        _ => {}
    }
}

/// One paragraph per blank line, no pointer into the repository's docs (`(format.md §5, map
/// edges)`: an editor showing the schema has no such file), `` [`Item`] `` as `` `Item` ``.
fn readable(text: &str) -> String {
    let paragraphs: Vec<String> =
        text.split("\n\n").map(|p| p.split('\n').map(str::trim).collect::<Vec<_>>().join(" ")).collect();
    let mut out = paragraphs.join("\n\n");
    while let Some(start) = out.find(" (format.md ") {
        let Some(end) = closing_paren(&out[start + 1..]) else { break };
        out.replace_range(start..=start + 1 + end, "");
    }
    out.replace("[`", "`").replace("`]", "`")
}

/// Where the parenthesis that opens `text` closes, counting the ones nested in it.
fn closing_paren(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' if depth == 1 => return Some(i),
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// `format` is one fixed string.
fn format_const(schema: &mut Value, format: &str) {
    if let Some(p) = schema.pointer_mut("/properties/format") {
        p["const"] = json!(format);
        p.as_object_mut().map(|o| o.remove("type"));
    }
}
