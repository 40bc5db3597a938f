//! MCP servers a graph's tools call (format.md §2.11): where each server is, and which of its
//! tools a graph tool runs.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

/// One MCP server: either `url` (Streamable HTTP) or `command` (a program speaking MCP over
/// stdio), never both (the validator says so).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct McpServer {
    /// The server's Streamable HTTP endpoint, `http(s)://…/mcp`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Extra request headers for `url`, by name; values are `{{ }}` templates over `input`.
    /// Credentials are refused: a token comes from the host's keys for the URL's origin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub headers: Option<IndexMap<String, String>>,
    /// The program to start (it runs only for a command the person allowed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// The program's arguments, exactly as given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args: Option<Vec<String>>,
    /// Environment variables for the program, on top of `PATH`, `HOME`, `LANG`, `TERM` and
    /// `USER`; nothing else of the host's environment reaches it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub env: Option<IndexMap<String, String>>,
}

/// A tool run by an MCP server: `{"server": NAME, "tool"?: TOOL}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ToolMcp {
    /// A key of the graph's `mcp_servers`.
    pub server: String,
    /// The server's name for the tool; the graph tool's own name when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
}
