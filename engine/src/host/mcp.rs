//! An exchange with an MCP server (format.md §2.11): what the engine asks a host to do, and
//! what the host reports back.
//!
//! The protocol's state (initialize, listings, call ids, results) lives in the engine, the
//! same in every host. A host only moves bytes: it writes the messages of an
//! [`McpExchange`] to a child process's stdin or POSTs them to a Streamable HTTP endpoint,
//! and collects what the server sends until the response the engine awaits. One exchange is
//! one call of [`super::Host::mcp`], so a durable host journals it as one step.
//!
//! Contract for hosts:
//! - write `send` in order; read until a message that [`crate::mcp::classify`] calls the
//!   response to `awaits` (none: return once everything is written);
//! - answer each request the server makes at once with [`crate::mcp::answer_server_request`]
//!   (so a server asking for sampling, elicitation or roots is never left waiting);
//! - keep `timeout_ms` and `max_bytes` (per message, after decoding);
//! - [`McpEnd::Lost`] promises that nothing was written (the engine may start afresh and
//!   resend);
//! - a stdio child gets only `PATH`, `HOME`, `LANG`, `TERM`, `USER` from the host plus the
//!   endpoint's `env`, and starts only when the person allowed its program;
//! - an HTTP endpoint gets `Authorization: Bearer …` only from the host's own token for the
//!   URL's exact origin, never from the document.

use serde::{Deserialize, Serialize};

/// Where a server is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum McpEndpoint {
    /// A program speaking MCP over its stdin and stdout, one JSON-RPC message a line.
    Stdio {
        program: String,
        args: Vec<String>,
        /// The document's `env`; the host adds `PATH`, `HOME`, `LANG`, `TERM` and `USER`.
        env: Vec<(String, String)>,
    },
    /// MCP Streamable HTTP: every message a POST to `url`.
    Http {
        url: String,
        /// Headers rendered from the document (never credentials: validation refuses them).
        headers: Vec<(String, String)>,
    },
}

impl McpEndpoint {
    /// The command line as a person reads it (`npx -y pkg /tmp`), or the URL.
    pub fn describe(&self) -> String {
        match self {
            McpEndpoint::Stdio { program, args, .. } => {
                let mut line = quote_arg(program);
                for a in args {
                    line.push(' ');
                    line.push_str(&quote_arg(a));
                }
                line
            }
            McpEndpoint::Http { url, .. } => url.clone(),
        }
    }
}

/// An argument as a shell would need it written, so a command line shown for consent reads
/// exactly as it will run.
fn quote_arg(a: &str) -> String {
    let plain = !a.is_empty() && a.chars().all(|c| c.is_ascii_alphanumeric() || "-_./:=@%+,".contains(c));
    if plain { a.to_string() } else { format!("'{}'", a.replace('\'', "'\\''")) }
}

/// One exchange: messages to send, and the id of the response that ends it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct McpExchange {
    /// The server's name in the document, for messages.
    pub server: String,
    pub endpoint: McpEndpoint,
    /// Stdio: the live process an earlier reply named; `None` starts the program.
    pub connection: Option<String>,
    /// HTTP: the `Mcp-Session-Id` to send.
    pub session_id: Option<String>,
    /// HTTP: the `MCP-Protocol-Version` to send (after initialize).
    pub protocol_version: Option<String>,
    /// JSON-RPC messages, serialized, in order.
    pub send: Vec<String>,
    /// The request id whose response ends the exchange; `None` when only notifications are
    /// sent.
    pub awaits: Option<u64>,
    pub timeout_ms: u64,
    /// The largest message the host accepts, in bytes after decoding.
    pub max_bytes: usize,
}

/// What an exchange gave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct McpReply {
    /// Stdio: the live process, to name in the next exchange.
    pub connection: Option<String>,
    /// HTTP: the `Mcp-Session-Id` the server gave, if any.
    pub session_id: Option<String>,
    /// HTTP: the last status seen.
    pub http_status: Option<u16>,
    /// Every message the server sent, serialized, in order (with requests the host
    /// answered, and the awaited response last).
    pub received: Vec<String>,
    pub end: McpEnd,
}

impl McpReply {
    /// A reply that ends as `end` with nothing received.
    pub fn ended(end: McpEnd) -> McpReply {
        McpReply { connection: None, session_id: None, http_status: None, received: Vec::new(), end }
    }
}

/// How an exchange ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum McpEnd {
    /// The awaited response arrived (it is the last of `received`).
    Answered,
    /// Everything was sent and nothing was awaited.
    Sent,
    /// `timeout_ms` passed first.
    TimedOut,
    /// The process exited (or the stream ended) before the response; the tail of its
    /// stderr, when there is one.
    Exited { code: Option<i32>, stderr: String },
    /// Nothing was written: the connection or HTTP session the exchange named is gone (a
    /// restarted host, an expired session answering 404).
    Lost,
    /// The host will not do it: a program the person did not allow, or a host that cannot
    /// start processes. The text says why and what to do.
    Refused(String),
    /// Could not reach the server (connect, TLS, CORS, an HTTP status), with the reason.
    Failed(String),
    /// The server sent something that is not a JSON-RPC message (the first 200 characters).
    Garbage(String),
    /// A message over `max_bytes`.
    TooLarge,
}
