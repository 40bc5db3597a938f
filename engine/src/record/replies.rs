//! The reply tape: every effect a run makes (model calls, HTTP requests, MCP calls and
//! listings), recorded whole in the run record so the run can be replayed without the
//! providers, and the answers people gave. Data only: the effects record and replay through
//! these types, the executor carries them across resume and fork.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What kind of effect a [`RecordedReply`] answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum ReplyKind {
    /// A model provider's turn (the mock provider's too).
    Model,
    /// An HTTP request of an `http` node or an `http` tool.
    Http,
    /// An MCP call: `tools/call`, or a listing (`tools/list`) for a model.
    Mcp,
}

impl ReplyKind {
    /// The name the record writes.
    pub fn as_str(self) -> &'static str {
        match self {
            ReplyKind::Model => "model",
            ReplyKind::Http => "http",
            ReplyKind::Mcp => "mcp",
        }
    }
}

/// One effect a run made and what came back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RecordedReply {
    /// The task that made the call: a node id, `<node>[<i>]` for a map instance, and
    /// `<outer>/<inner>` for a call made in a run inside a subgraph node or a tool that uses a
    /// definition.
    pub node: String,
    /// The step the call was made in (informational: replay matches by node and order).
    pub step: u64,
    pub kind: ReplyKind,
    /// The request in canonical form, without keys or credentials: what replay compares.
    pub request: Value,
    /// The whole reply (model: text, tool calls, usage, and when the provider says them the
    /// response's `id`, `model` and `finish_reason`; http: status, headers, body; mcp: the
    /// result).
    pub reply: Value,
    /// When the call was made, in milliseconds since the Unix epoch (absent without a wall
    /// clock). Replay ignores it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_ms: Option<f64>,
    /// How long the call took, in milliseconds (absent without a wall clock; 0 for a reply
    /// replayed from the tape). Replay ignores it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<f64>,
}

/// An answer given to a human node, in the order they were given.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct GivenAnswer {
    /// The steps run before the answer was given.
    pub step: u64,
    /// The node answered.
    pub node: String,
    /// The answer as given.
    pub value: Value,
}

/// How a run uses the replies it was given ([`crate::Run::replay`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum ReplayMode {
    /// Calls get the recorded replies; a changed request fails.
    #[default]
    Replay,
    /// Calls go to the providers; replies are recorded only.
    Live,
}

/// A call replay could not answer: its request changed, or nothing was recorded for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ReplayProblem {
    /// The task that made the call (prefixed as in [`RecordedReply::node`]).
    pub node: String,
    /// The step it was made in.
    pub step: u64,
    /// What differed, naming the node and the first differing JSON path.
    pub message: String,
}

impl std::fmt::Display for ReplayProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "step {}: {}", self.step, self.message)
    }
}
