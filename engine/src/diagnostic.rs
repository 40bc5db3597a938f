//! Problems found in a graph, each with the JSON path it concerns.

use std::fmt;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    Error,
    Warning,
}

/// One finding of the validator.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    pub severity: Severity,
    /// JSON path into the document (`nodes[2].set.status`, `edges[0].when`).
    pub path: String,
    pub message: String,
    /// The node concerned, so an editor can badge and select it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node: Option<String>,
    /// The index in `edges` of the edge concerned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edge: Option<usize>,
}

impl Diagnostic {
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, "{sev} {}: {}", if self.path.is_empty() { "(document)" } else { &self.path }, self.message)
    }
}
