//! The right sidebar: the forms of the graph, a node and an edge, and their parts.
//!
//! | module | what it holds |
//! |---|---|
//! | `breakpoint_toggles` | a node's breakpoints (before, after) |
//! | `definitions` | the document's definitions, and what a subgraph node runs (embedded graph or definition) |
//! | `edge_form` | the form for one edge: its ends, label, condition and map |
//! | `graph_form` | the graph's own form: name, description, limits, state fields, tools, MCP servers, definitions |
//! | `human` | a human node's answer or form, and an end's outcome |
//! | `mcp` | the document's MCP servers: add, Connect and their tools, Add tools |
//! | `llm_form` | an `llm` node's fields |
//! | `node_edges` | a node's edges, to open from the keyboard |
//! | `node_edit` | the node being edited, shared by the node forms |
//! | `node_form` | the form for one node: id, label, description and its kind's fields |
//! | `panel` | the inspector: the form of what is selected, or the graph's |
//! | `tools` | the graph's tools, and the tool, transcript and mock-reply parts of node forms |

pub mod breakpoint_toggles;
pub mod definitions;
pub mod edge_form;
pub mod graph_form;
pub mod human;
pub mod llm_form;
pub mod mcp;
pub mod node_edges;
pub mod node_edit;
pub mod node_form;
pub mod panel;
pub mod tools;
