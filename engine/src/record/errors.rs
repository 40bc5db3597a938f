//! What goes wrong in a run: a node's error, the error that stops a run, and input or
//! answers that cannot be used. The first two are written to the run record (format.md §11).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::script::{EvalCause, EvalError};

/// The `kind` of a node or run error (format.md §11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// An expression, script or template failed, or a route chose no edge.
    Expression,
    /// A value of the wrong type, or an answer or subgraph that does not fit.
    Type,
    /// Two nodes wrote one `replace` field in the same step.
    Conflict,
    /// A node or the run took longer than allowed.
    Timeout,
    /// An HTTP request failed or answered with a status that is not 2xx.
    Http,
    /// A model call failed or its reply could not be used.
    Llm,
    /// The state would grow past `max_state_bytes`.
    StateSize,
    /// A `join: all` node waits for predecessors that can no longer run.
    Join,
    /// The run reached a limit such as `max_steps`.
    Limit,
    /// A step routed into an `end` node with `outcome: failed` (format.md §4, end).
    Ended,
}

impl ErrorKind {
    /// The name the run record uses: `expression`, `state_size`, …
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Expression => "expression",
            ErrorKind::Type => "type",
            ErrorKind::Conflict => "conflict",
            ErrorKind::Timeout => "timeout",
            ErrorKind::Http => "http",
            ErrorKind::Llm => "llm",
            ErrorKind::StateSize => "state_size",
            ErrorKind::Join => "join",
            ErrorKind::Limit => "limit",
            ErrorKind::Ended => "ended",
        }
    }
}

impl ErrorKind {
    /// The kind of error an evaluation that failed with `e` is: a `timeout` when its time
    /// limit stopped it, a `type` error when it gave a number JSON cannot hold (infinite or
    /// NaN), else an `expression` error.
    pub(crate) fn of_eval(e: &EvalError) -> ErrorKind {
        match e.cause {
            EvalCause::TimeLimit => ErrorKind::Timeout,
            EvalCause::NotFinite => ErrorKind::Type,
            EvalCause::Failed => ErrorKind::Expression,
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A node's failure. The message names the node (and the field, for an expression).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct NodeError {
    pub kind: ErrorKind,
    /// What went wrong, naming the node (and the field, for an expression).
    pub message: String,
}

impl NodeError {
    /// An error of `kind` in node `node`; the message starts with the node's id.
    pub(crate) fn in_node(node: &str, kind: ErrorKind, message: impl fmt::Display) -> NodeError {
        NodeError { kind, message: format!("node `{node}`: {message}") }
    }

    /// An expression, script or template in `field` of node `node` failed with `e`: of the
    /// kind [`ErrorKind::of_eval`] gives for an evaluation's error, else an `expression` error.
    pub(crate) fn expression<E: fmt::Display + 'static>(node: &str, field: &str, e: E) -> NodeError {
        let kind =
            (&e as &dyn std::any::Any).downcast_ref::<EvalError>().map_or(ErrorKind::Expression, ErrorKind::of_eval);
        NodeError { kind, message: format!("node `{node}`, field `{field}`: {e}") }
    }
}

impl fmt::Display for NodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind, self.message)
    }
}

impl std::error::Error for NodeError {}

/// Why a run stopped short.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RunError {
    /// The node at fault, when there is one (none for the run's own limits).
    pub node: Option<String>,
    pub kind: ErrorKind,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind, self.message)
    }
}

impl std::error::Error for RunError {}

/// Input or answers that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputError {
    /// Where: `input.count`, `answer.ask`, `set.notes`…
    pub path: String,
    pub message: String,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl std::error::Error for InputError {}
