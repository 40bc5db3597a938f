//! Reading files and JSON arguments, turning every failure into one line that says where.

use std::collections::BTreeSet;
use std::fmt;

use engine::run::Breakpoints;
use engine::{Graph, NodeKind, Plan, compile, parse_graph};
use serde_json::Value;

/// Bad input: printed on one line, exit code 2.
#[derive(Debug)]
pub struct BadInput(String);

impl BadInput {
    pub fn new(message: String) -> BadInput {
        BadInput(message)
    }
}

impl fmt::Display for BadInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // One line, whatever the message holds.
        f.write_str(&self.0.replace('\n', " "))
    }
}

pub fn read_text(path: &str) -> Result<String, BadInput> {
    let bytes = std::fs::read(path).map_err(|e| BadInput(format!("{path}: cannot read: {}", io_reason(&e))))?;
    String::from_utf8(bytes)
        .map_err(|e| BadInput(format!("{path}: not UTF-8 text (byte {})", e.utf8_error().valid_up_to())))
}

fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        std::io::ErrorKind::IsADirectory => "is a directory".into(),
        _ => e.to_string(),
    }
}

pub fn load_graph(path: &str) -> Result<Graph, BadInput> {
    let text = read_text(path)?;
    parse_graph(&text).map_err(|e| BadInput(format!("{path}: {e}")))
}

/// A run record (switchyard/run@1), read strictly.
pub fn read_record(path: &str) -> Result<engine::RunRecord, BadInput> {
    let text = read_text(path)?;
    engine::parse::parse_object_as(&text).map_err(|e| BadInput(format!("{path}: {e}")))
}

/// Compiles the graph, or reports its first error (and how many more there are).
pub fn plan_or_bad_input(path: &str, graph: &Graph) -> Result<Plan, BadInput> {
    let compiled = compile(graph);
    if let Some(plan) = compiled.plan {
        return Ok(plan);
    }
    let errors: Vec<_> = compiled.diagnostics.iter().filter(|d| d.is_error()).collect();
    let first = errors.first().map(|d| format!("{}: {}", d.path, d.message)).unwrap_or_default();
    let more = match errors.len() {
        0 | 1 => String::new(),
        n => format!(" (and {} more; see `switchyard validate {path}`)", n - 1),
    };
    Err(BadInput(format!("{path}: invalid graph: {first}{more}")))
}

/// A JSON argument given inline or as @FILE.
pub fn parse_json_arg(flag: &str, arg: &str) -> Result<Value, BadInput> {
    let (text, origin) = match arg.strip_prefix('@') {
        Some(path) => (read_text(path).map_err(|e| BadInput(format!("{flag}: {e}")))?, format!("{flag} {path}")),
        None => (arg.to_string(), flag.to_string()),
    };
    engine::parse::parse_value(&text).map_err(|e| BadInput(format!("{origin}: {e}")))
}

/// The breakpoints `--break-before` and `--break-after` give: node ids the graph has and that
/// run in steps (a breakpoint on start, end or a note would never stop anything).
pub fn breakpoints(plan: &Plan, before: Vec<String>, after: Vec<String>) -> Result<Breakpoints, BadInput> {
    let check = |flag: &str, ids: Vec<String>| -> Result<BTreeSet<String>, BadInput> {
        ids.into_iter()
            .map(|id| {
                let Some(ix) = plan.index(&id) else {
                    return Err(BadInput::new(format!("{flag}: the graph has no node `{id}`")));
                };
                match plan.node(ix).kind {
                    kind @ (NodeKind::Start | NodeKind::End | NodeKind::Note) => Err(BadInput::new(format!(
                        "{flag}: `{id}` is of kind `{}`, which never runs in a step",
                        kind.name()
                    ))),
                    _ => Ok(id),
                }
            })
            .collect()
    };
    Ok(Breakpoints { before: check("--break-before", before)?, after: check("--break-after", after)? })
}
