//! `switchyard schema graph|run|tests`: the JSON Schemas the repository keeps in `schema/`.

use crate::input::BadInput;

/// The schema called `name`, as pretty JSON with a trailing newline.
pub fn print(name: &str) -> Result<String, BadInput> {
    let schema = match name {
        "graph" => engine::schema::graph_schema(),
        "run" => engine::schema::run_schema(),
        "tests" => engine::schema::tests_schema(),
        other => return Err(BadInput::new(format!("unknown schema `{other}`: use `graph`, `run` or `tests`"))),
    };
    // Serializing a JSON value cannot fail.
    Ok(format!("{}\n", serde_json::to_string_pretty(&schema).unwrap_or_default()))
}
