//! Graph-level tools (format.md §4 (llm, tools) and §8): what the model is told about each, and how a call runs.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{ToolMcp, objects, present};

/// A graph-level tool (format.md §4 (llm, tools) and §8): what the model is told, and how a call runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ToolDef {
    /// What the tool does, as the model is told.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// A JSON Schema for the call's arguments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameters: Option<Value>,
    /// How a call runs: one of `script`, `http`, `use` or `mcp`.
    #[serde(deserialize_with = "objects::one")]
    pub run: ToolRun,
}

/// How a tool call runs: exactly one of the fields is given (the validator says so).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "schema",
    schemars(description = "How a tool call runs: exactly one of `script`, `http`, `use` and `mcp`.")
)]
#[serde(deny_unknown_fields)]
pub struct ToolRun {
    /// Rhai with `args`, `state` and `input` in scope; its value is the result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<String>,
    /// A request whose templates see `args`; the reply is the result.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "objects::opt")]
    pub http: Option<ToolHttp>,
    /// The name of one of the graph's `definitions`, run with the call's arguments as its
    /// input; its final state is the result.
    #[serde(default, rename = "use", skip_serializing_if = "Option::is_none")]
    pub use_def: Option<String>,
    /// With `use`: `{field: expression}` (with `args` in scope) giving the definition's input;
    /// the arguments themselves when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inputs: Option<IndexMap<String, String>>,
    /// With `use`: `{key: expression over result}` giving the call's result; the definition's
    /// final state when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outputs: Option<IndexMap<String, String>>,
    /// A tool of one of the graph's `mcp_servers` (format.md §2.11).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "objects::opt")]
    pub mcp: Option<ToolMcp>,
}

/// An `http` tool's request: the fields of an `http` node, templates with `args` in scope.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ToolHttp {
    /// The HTTP method (`GET` when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    /// A template: the URL to request.
    pub url: String,
    /// `{name: template}`: request headers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub headers: Option<IndexMap<String, String>>,
    /// The request body: a template, or JSON whose strings are templates.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "present")]
    pub body: Option<Value>,
}
