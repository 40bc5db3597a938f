//! Exchanges with MCP servers for the native hosts (the CLI, the desktop app, `switchyard
//! serve`), following the host contract in `engine::host::McpExchange`'s module: the engine
//! holds the protocol's state; this only moves bytes, blocking the calling thread.
//!
//! | module | what it holds |
//! |---|---|
//! | `stdio` | servers as child processes: the process table, one reader thread per child, a bounded stderr tail, closing by process group |
//! | `http` | MCP Streamable HTTP: a POST per message, JSON or an SSE stream read as it arrives, server requests answered, DELETE on close |
//! | `tokens` | bearer tokens bound to exact origins ([`McpTokens`]) |
//! | `consent` | the programs a person allowed ([`AllowedCommands`]) |
//!
//! Whatever the transport, each message a server sends is bounded ([`McpExchange::max_bytes`]),
//! told apart ([`engine::mcp::classify`]), cleaned of every token and key the host holds, and
//! a request is answered at once ([`engine::mcp::answer_server_request`]).

mod consent;
mod http;
mod stdio;
mod tokens;

use std::sync::Arc;

use engine::host::{McpEnd, McpEndpoint, McpExchange, McpReply, redact};
use engine::mcp::{Incoming, classify};

use crate::reach::Reach;

pub use consent::{ALLOWED_COMMANDS_VAR, AllowedCommands, refusal};
pub use stdio::{close_all, live_processes};
pub use tokens::{MCP_TOKENS_FILE_VAR, MCP_TOKENS_VAR, McpTokens};

/// How many characters of something that is not JSON-RPC an error quotes.
const GARBAGE_CHARS: usize = 200;

/// What a host lets its exchanges do.
#[derive(Debug, Clone)]
pub struct McpPolicy {
    /// Programs a stdio server may be (checked again at every start).
    pub allowed: AllowedCommands,
    /// Bearer tokens for HTTP servers, by exact origin.
    pub tokens: McpTokens,
    /// The addresses HTTP servers may be at (a served graph's reach; open for the CLI).
    pub reach: Arc<Reach>,
    /// Other secrets the host holds (its API keys), removed from what servers send, as the
    /// tokens are.
    pub secrets: Vec<String>,
}

impl McpPolicy {
    /// A policy allowing `allowed`, with `tokens`, reaching anywhere.
    pub fn open(allowed: AllowedCommands, tokens: McpTokens) -> McpPolicy {
        McpPolicy { allowed, tokens, reach: Arc::new(Reach::open()), secrets: Vec::new() }
    }
}

/// Carries out one exchange (blocking): writes `x.send`, collects what the server sends until
/// the response to `x.awaits`, and says how it ended. `seen` is told of each message as it
/// arrives (cleaned of secrets, as in the reply).
pub fn exchange(x: &McpExchange, policy: &McpPolicy, seen: &dyn Fn(&str)) -> McpReply {
    let secrets: Vec<&str> = policy.tokens.tokens().chain(policy.secrets.iter().map(String::as_str)).collect();
    let mut inbox = Inbox { received: Vec::new(), total: 0, seen, secrets: &secrets };
    let mut reply = match &x.endpoint {
        McpEndpoint::Stdio { .. } => stdio::exchange(x, &policy.allowed, &mut inbox),
        McpEndpoint::Http { .. } => http::exchange(x, policy, &mut inbox),
    };
    if let McpEnd::Garbage(text) | McpEnd::Refused(text) | McpEnd::Failed(text) = &mut reply.end {
        *text = redact(text, secrets.iter().copied());
    }
    if let McpEnd::Exited { stderr, .. } = &mut reply.end {
        *stderr = redact(stderr, secrets.iter().copied());
    }
    reply.received = inbox.received;
    reply
}

/// Ends a session when its run stops: a stdio child gets its stdin closed and, if it has not
/// exited after a grace period, is terminated with its process group; an HTTP session is
/// deleted. Blocks until done; unknown connections are ignored.
pub fn close(endpoint: &McpEndpoint, connection: Option<&str>, session_id: Option<&str>, policy: &McpPolicy) {
    match endpoint {
        McpEndpoint::Stdio { .. } => {
            if let Some(c) = connection {
                stdio::close(c);
            }
        }
        McpEndpoint::Http { .. } => {
            if let Some(s) = session_id {
                http::delete_session(endpoint, s, policy);
            }
        }
    }
}

/// What an exchange received so far.
struct Inbox<'a> {
    received: Vec<String>,
    /// Bytes taken so far.
    total: usize,
    seen: &'a dyn Fn(&str),
    secrets: &'a [&'a str],
}

/// What one message from the server means for the exchange.
enum Taken {
    /// The response the exchange awaited.
    Awaited,
    /// A request of the server's, with the answer to send back at once.
    Request(String),
    /// A notification, or a response to something else.
    Other,
}

impl Inbox<'_> {
    /// Takes one message: bounded, told apart, cleaned, kept. An error ends the exchange.
    fn take(&mut self, text: &str, x: &McpExchange) -> Result<Taken, McpEnd> {
        // Each message is bounded, and so is their sum: a server sending notifications
        // without end fills no memory (the awaited response and as much again).
        self.total = self.total.saturating_add(text.len());
        if text.len() > x.max_bytes || self.total > x.max_bytes.saturating_mul(2) {
            return Err(McpEnd::TooLarge);
        }
        let kind = classify(text);
        if let Incoming::Invalid(_) = kind {
            return Err(McpEnd::Garbage(text.chars().take(GARBAGE_CHARS).collect()));
        }
        let clean = redact(text, self.secrets.iter().copied());
        (self.seen)(&clean);
        self.received.push(clean);
        Ok(match kind {
            Incoming::Response { .. } if x.awaits.is_some_and(|id| kind.answers(id)) => Taken::Awaited,
            Incoming::Request { .. } => Taken::Request(engine::mcp::answer_server_request(text).unwrap_or_default()),
            _ => Taken::Other,
        })
    }
}
