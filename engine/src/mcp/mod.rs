//! The Model Context Protocol's messages (format.md §2.11), pure: shared by the engine's
//! client sessions, the hosts that carry them and `switchyard mcp`.
//!
//! | module | what it holds |
//! |---|---|
//! | `wire` | a message told apart ([`classify`]), and the answer to a request a server makes of the client ([`answer_server_request`]) |
//! | `types` | the results the client reads (lenient: unknown fields ignored) and the requests it sends |
//! | `content` | a tool result as the tool message's text ([`result_text`]) |

mod content;
mod types;
mod wire;

pub use content::result_text;
pub use types::{
    CallToolResult, ContentBlock, EmbeddedResource, InitializeResult, ListToolsResult, RpcError, ServerInfo, Tool,
    call_tool_request, cancelled_notification, initialize_request, initialized_notification, list_tools_request,
    notification_of, response_of, without_schema_keyword,
};
pub use wire::{Incoming, answer_server_request, classify};

/// The protocol version Switchyard offers in `initialize`.
pub const OFFERED_VERSION: &str = "2025-11-25";
/// The versions it accepts from a server, newest first.
pub const ACCEPTED_VERSIONS: &[&str] = &["2025-11-25", "2025-06-18"];
