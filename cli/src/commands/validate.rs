//! `switchyard validate GRAPH [--json]`: one diagnostic a line, exit 2 when any is an error.

use engine::validate;

use crate::exit::{EXIT_BAD_INPUT, Printed};
use crate::input::{BadInput, load_graph};

pub fn validate_graph(graph: &str, json: bool) -> Result<Printed, BadInput> {
    let doc = load_graph(graph)?;
    let diags = validate(&doc);
    let text = if json {
        format!("{}\n", serde_json::to_string_pretty(&diags).unwrap_or_default())
    } else {
        diags.iter().map(|d| format!("{d}\n")).collect()
    };
    Ok(Printed::new(text, if diags.iter().any(engine::Diagnostic::is_error) { EXIT_BAD_INPUT } else { 0 }))
}
