//! The inspector's parts for MCP servers (the document's `mcp_servers`): the servers in the
//! graph's form, each with Connect and its listed tools. Each file is one component; they
//! edit through the document state and the model's `mcp_servers`, and Connect and Add tools
//! are the actions of `actions::mcp`.
//!
//! | file | component | shows |
//! |---|---|---|
//! | `mcp_section.rs` | [`McpSection`] | the graph's MCP servers: add one by URL or by command, and one card each |
//! | `mcp_server_card.rs` | `McpServerCard` | one server: name, URL or command (args, env), Connect, remove |
//! | `mcp_listing.rs` | `McpListing` | what Connect found: the server's name, version, protocol and tools, and Add tools |

mod mcp_listing;
mod mcp_section;
mod mcp_server_card;

pub use mcp_section::McpSection;
