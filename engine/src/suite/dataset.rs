//! Datasets: JSON Lines of inputs (and references, names, answers), each line a case without
//! replies or baseline, run live or against mock models and scored by the evaluators.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::types::{Case, CaseAnswer};

/// A dataset line that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DatasetError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong with it (with the path inside the line when there is one).
    pub message: String,
}

impl fmt::Display for DatasetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "dataset line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for DatasetError {}

/// One dataset line as written.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
struct Row {
    input: Map<String, Value>,
    #[serde(default)]
    reference: Option<Value>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    answers: Vec<CaseAnswer>,
}

/// Reads a dataset: one JSON object per line; blank lines are skipped. Cases are named by
/// their `name` or `dataset line N`.
pub fn parse_dataset(text: &str) -> Result<Vec<Case>, DatasetError> {
    let mut cases = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let n = i + 1;
        let row: Row =
            crate::parse::parse_object_as(line).map_err(|e| DatasetError { line: n, message: without_line(&e) })?;
        cases.push(Case {
            name: row.name.unwrap_or_else(|| format!("dataset line {n}")),
            input: row.input,
            answers: row.answers,
            replies: Vec::new(),
            expect: Vec::new(),
            reference: row.reference,
            baseline: None,
        });
    }
    Ok(cases)
}

/// The error with its column but not its line (always 1: the line is the dataset's).
fn without_line(e: &crate::parse::DocError) -> String {
    let mut e = e.clone();
    let column = e.column.take();
    e.line = None;
    match column {
        Some(c) => format!("column {c}: {e}"),
        None => e.to_string(),
    }
}
