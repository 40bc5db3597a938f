//! A human node's form (format.md §4, human) and an end node's outcome (format.md §4, end).

use serde::{Deserialize, Serialize};

use super::FieldType;

/// One field of a human node's form (format.md §4, human).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FormField {
    /// The type the answer must have.
    #[serde(rename = "type")]
    pub ty: FieldType,
    /// The answers allowed for this field (a combo box in the editor).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<Vec<String>>,
    /// Whether the answer must hold this field (true when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<bool>,
    /// What the form calls the field (its name when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// An expression evaluated when the node waits: the value the form is prefilled with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
}

impl FormField {
    pub fn is_required(&self) -> bool {
        self.required.unwrap_or(true)
    }
}

/// How a run that reaches an `end` node finishes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The branch ends; the run completes when nothing else is active.
    #[default]
    Completed,
    /// The run ends `failed` after the step, with error kind `ended`.
    Failed,
}
