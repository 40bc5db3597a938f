//! Where a run stands, as its record says: its [`Status`], what it waits for ([`Waiting`],
//! a form's [`WaitingField`]s, the [`Breakpoint`] it stopped at) and where a fork came from
//! ([`ForkInfo`]).

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::document::FieldType;

/// Where a run stands (format.md §10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Not stopped yet (a live run in an editor).
    Running,
    /// Nothing is left to run.
    Completed,
    /// A human node (or a subgraph's) waits for an answer, or a breakpoint was reached.
    Interrupted,
    /// A node failed with `on_error: fail`, or the run broke a rule or its time limit.
    Failed,
    /// `max_steps` steps ran and more remain.
    LimitReached,
}

impl Status {
    /// The name the run record uses.
    pub fn name(self) -> &'static str {
        match self {
            Status::Running => "running",
            Status::Completed => "completed",
            Status::Interrupted => "interrupted",
            Status::Failed => "failed",
            Status::LimitReached => "limit_reached",
        }
    }
}

/// What the run waits for: a human node's answer, or a breakpoint to be passed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Waiting {
    /// The id of the node that waits (the subgraph node, when the question comes from inside one).
    pub node: String,
    /// The node's prompt, rendered against the state it waits in (empty at a breakpoint).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub prompt: String,
    /// The answers allowed, when the node has `options`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<Vec<String>>,
    /// A form's fields, with their defaults evaluated when the node started waiting (format.md §4, human).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fields: Option<IndexMap<String, WaitingField>>,
    /// Set when the run stopped at a breakpoint rather than for an answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub breakpoint: Option<Breakpoint>,
}

/// One field of a waiting form: its declaration, with `default` evaluated.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WaitingField {
    /// The type the answer must have.
    #[serde(rename = "type")]
    pub ty: FieldType,
    /// The answers allowed, when the field has options.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<Vec<String>>,
    /// Whether the answer must hold this field.
    pub required: bool,
    /// What the form calls the field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The value the form is prefilled with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Value>,
}

/// Which side of a node a breakpoint stops the run on (LangGraph's `interrupt_before` and
/// `interrupt_after`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Breakpoint {
    /// Before the step that would run the node.
    Before,
    /// After the step that ran it.
    After,
}

/// Where a forked run came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ForkInfo {
    /// The id of the run this one was forked from.
    pub run_id: String,
    /// The step of that run whose checkpoint this one starts from.
    pub step: u64,
    /// The update applied to the state at the fork point, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set: Option<Map<String, Value>>,
    /// The trace of that run's session which ran the step forked from (32 lowercase hex
    /// digits), when its record had traces: the fork's first trace links to it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace_id: Option<String>,
}
