//! One session with one server: opened with `initialize` (the version negotiated), then
//! `notifications/initialized` and `tools/list` over every page; its exchanges' ends told as
//! errors naming the server.

use std::rc::Rc;

use futures_util::lock::{Mutex, MutexGuard};
use serde_json::{Value, json};

use super::McpSessions;
use crate::document::McpServer;
use crate::host::{Host, McpEnd, McpEndpoint, McpExchange, McpReply};
use crate::mcp::{
    ACCEPTED_VERSIONS, InitializeResult, ListToolsResult, RpcError, ServerInfo, Tool, initialize_request,
    initialized_notification, list_tools_request, response_of,
};
use crate::plan::{McpServerOp, McpTransport, endpoint_as_written};
use crate::record::ErrorKind;
use crate::script::{Ctx, to_dynamic};

/// The largest message a server may send, after decoding (format.md §8's bound on replies).
pub(super) const MAX_MESSAGE_BYTES: usize = 10 * 1024 * 1024;
/// At most this many pages of `tools/list` (a server whose cursor never ends).
const MAX_PAGES: usize = 100;
/// How much of a stdio server's stderr an error quotes.
const STDERR_TAIL_CHARS: usize = 2000;

/// Why an exchange or a session failed: the error kind under `on_error: fail`, and the message
/// (which names the server).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct McpFailure {
    pub kind: ErrorKind,
    pub reason: String,
}

impl McpFailure {
    pub(super) fn new(kind: ErrorKind, reason: String) -> McpFailure {
        McpFailure { kind, reason }
    }
}

/// A session with a server: where it is, and its state once open.
pub(super) struct Session {
    pub(super) server: Rc<McpServerOp>,
    /// Held across an exchange: a server's messages are read in order, one exchange at a time.
    pub(super) link: Mutex<Option<Link>>,
}

/// An open session.
pub(super) struct Link {
    pub(super) endpoint: McpEndpoint,
    /// Stdio: the live process the host named.
    pub(super) connection: Option<String>,
    /// HTTP: the server's `Mcp-Session-Id`.
    pub(super) session_id: Option<String>,
    /// The negotiated protocol version.
    pub(super) version: String,
    pub(super) info: ServerInfo,
    pub(super) tools: Rc<Vec<Tool>>,
    next_id: u64,
}

impl Link {
    /// The next request id of the session.
    pub(super) fn take_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// An exchange in this session.
    pub(super) fn exchange(
        &self,
        server: &str,
        send: Vec<String>,
        awaits: Option<u64>,
        timeout_ms: u64,
    ) -> McpExchange {
        McpExchange {
            server: server.to_string(),
            endpoint: self.endpoint.clone(),
            connection: self.connection.clone(),
            session_id: self.session_id.clone(),
            protocol_version: Some(self.version.clone()),
            send,
            awaits,
            timeout_ms,
            max_bytes: MAX_MESSAGE_BYTES,
        }
    }

    /// Keeps what the host says of the connection after an exchange.
    pub(super) fn follow(&mut self, reply: &McpReply) {
        if reply.connection.is_some() {
            self.connection.clone_from(&reply.connection);
        }
        if reply.session_id.is_some() {
            self.session_id.clone_from(&reply.session_id);
        }
    }
}

impl Session {
    pub(super) fn new(server: Rc<McpServerOp>) -> Session {
        Session { server, link: Mutex::new(None) }
    }

    /// The open session, opened now when it is not, held for the caller's exchanges.
    pub(super) async fn ready(
        &self,
        sessions: &McpSessions,
        host: &dyn Host,
        timeout_ms: u64,
    ) -> Result<MutexGuard<'_, Option<Link>>, McpFailure> {
        let mut guard = self.link.lock().await;
        if guard.is_none() {
            let endpoint = endpoint(sessions, &self.server)?;
            *guard = Some(open(host, &self.server.name, endpoint, timeout_ms).await?);
        }
        Ok(guard)
    }

    /// Ends the session, if open.
    pub(super) async fn close(&self, host: &dyn Host) {
        if let Some(link) = self.link.lock().await.take() {
            host.mcp_close(&link.endpoint, link.connection.as_deref(), link.session_id.as_deref()).await;
        }
    }
}

/// Where `server` is, its header templates rendered over the run's input.
pub(super) fn endpoint(sessions: &McpSessions, server: &McpServerOp) -> Result<McpEndpoint, McpFailure> {
    match &server.transport {
        McpTransport::Stdio { program, args, env } => {
            Ok(McpEndpoint::Stdio { program: program.clone(), args: args.clone(), env: env.clone() })
        }
        McpTransport::Http { url, headers } => {
            let empty = to_dynamic(&json!({}));
            let ctx =
                Ctx::new(empty.clone(), to_dynamic(&Value::Object((*sessions.input).clone())), empty.clone(), empty, 0);
            let s = &sessions.plan.scripting;
            let mut rendered = Vec::with_capacity(headers.len());
            for (name, source) in headers {
                let value = s
                    .compile_template(source, &[])
                    .map_err(|e| e.to_string())
                    .and_then(|t| s.render(&t, &ctx).map_err(|e| e.to_string()))
                    .map_err(|e| {
                        let reason = format!("MCP server `{}`: header `{name}`: {e}", server.name);
                        McpFailure::new(ErrorKind::Expression, reason)
                    })?;
                rendered.push((name.clone(), value));
            }
            Ok(McpEndpoint::Http { url: url.clone(), headers: rendered })
        }
    }
}

/// Opens a session: `initialize`, then `notifications/initialized` with the first page of
/// `tools/list`, then the other pages. `timeout_ms` bounds each exchange. A session that fails
/// half-way is closed again (a started process does not linger).
pub(super) async fn open(
    host: &dyn Host,
    server: &str,
    endpoint: McpEndpoint,
    timeout_ms: u64,
) -> Result<Link, McpFailure> {
    let exchange = McpExchange {
        server: server.to_string(),
        endpoint: endpoint.clone(),
        connection: None,
        session_id: None,
        protocol_version: None,
        send: vec![initialize_request(1)],
        awaits: Some(1),
        timeout_ms,
        max_bytes: MAX_MESSAGE_BYTES,
    };
    let reply = host.mcp(exchange, &|_| {}).await;
    let mut link = Link {
        endpoint,
        connection: reply.connection.clone(),
        session_id: reply.session_id.clone(),
        version: String::new(),
        info: ServerInfo::default(),
        tools: Rc::new(Vec::new()),
        next_id: 1,
    };
    match handshake(host, server, &mut link, &reply, timeout_ms).await {
        Ok(()) => Ok(link),
        Err(e) => {
            if link.connection.is_some() || link.session_id.is_some() {
                host.mcp_close(&link.endpoint, link.connection.as_deref(), link.session_id.as_deref()).await;
            }
            Err(e)
        }
    }
}

/// The rest of opening, after `initialize`'s exchange: its result checked, then the listing.
async fn handshake(
    host: &dyn Host,
    server: &str,
    link: &mut Link,
    init: &McpReply,
    timeout_ms: u64,
) -> Result<(), McpFailure> {
    let init = initialized(server, answered(server, "initialize", init, timeout_ms)?)?;
    link.version = init.protocol_version;
    link.info = init.server_info;
    let mut tools = Vec::new();
    let mut cursor: Option<String> = None;
    for page in 0..MAX_PAGES {
        let id = link.take_id();
        let mut send = Vec::with_capacity(2);
        if page == 0 {
            send.push(initialized_notification());
        }
        send.push(list_tools_request(id, cursor.as_deref()));
        let reply = host.mcp(link.exchange(server, send, Some(id), timeout_ms), &|_| {}).await;
        link.follow(&reply);
        let result = answered(server, "tools/list", &reply, timeout_ms)?;
        let listed: ListToolsResult = serde_json::from_value(result).map_err(|e| {
            let reason = format!("MCP server `{server}` answered tools/list with a malformed listing ({e})");
            McpFailure::new(ErrorKind::Http, reason)
        })?;
        tools.extend(listed.tools);
        match listed.next_cursor {
            Some(next) if !next.is_empty() => cursor = Some(next),
            _ => break,
        }
    }
    link.tools = Rc::new(tools);
    Ok(())
}

/// `initialize`'s result read, and its version accepted.
fn initialized(server: &str, result: Value) -> Result<InitializeResult, McpFailure> {
    let init: InitializeResult = serde_json::from_value(result).map_err(|e| {
        McpFailure::new(
            ErrorKind::Http,
            format!("MCP server `{server}` answered initialize with a malformed result ({e})"),
        )
    })?;
    if !ACCEPTED_VERSIONS.contains(&init.protocol_version.as_str()) {
        let reason = format!(
            "MCP server `{server}` answered protocol version {}; Switchyard needs {} or newer",
            init.protocol_version,
            ACCEPTED_VERSIONS[ACCEPTED_VERSIONS.len() - 1]
        );
        return Err(McpFailure::new(ErrorKind::Http, reason));
    }
    Ok(init)
}

/// The result of the request an exchange awaited, or the error its end or its response means.
pub(super) fn answered(server: &str, method: &str, reply: &McpReply, timeout_ms: u64) -> Result<Value, McpFailure> {
    if reply.end != McpEnd::Answered {
        return Err(ended(server, method, &reply.end, timeout_ms));
    }
    let last = reply.received.last().map(String::as_str).unwrap_or_default();
    match response_of(last) {
        Ok(Ok(result)) => Ok(result),
        Ok(Err(e)) => Err(refused(server, method, &e)),
        Err(why) => Err(McpFailure::new(
            ErrorKind::Http,
            format!("MCP server `{server}` answered {method} with invalid JSON-RPC: {why}"),
        )),
    }
}

/// A JSON-RPC error to `method`.
fn refused(server: &str, method: &str, e: &RpcError) -> McpFailure {
    let supported: Vec<&str> = e
        .data
        .as_ref()
        .and_then(|d| d.get("supported"))
        .and_then(Value::as_array)
        .map(|l| l.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if method == "initialize" && !supported.is_empty() && !supported.iter().any(|v| ACCEPTED_VERSIONS.contains(v)) {
        let reason = format!(
            "MCP server `{server}` speaks only MCP {}, which Switchyard does not support yet (it speaks {})",
            supported.join(", "),
            ACCEPTED_VERSIONS.join(" and ")
        );
        return McpFailure::new(ErrorKind::Http, reason);
    }
    McpFailure::new(ErrorKind::Http, format!("MCP server `{server}` refused {method}: {} {}", e.code, e.message))
}

/// What an exchange's end (other than an answer) means, naming the server.
pub(super) fn ended(server: &str, method: &str, end: &McpEnd, timeout_ms: u64) -> McpFailure {
    let (kind, what) = match end {
        McpEnd::Answered | McpEnd::Sent => (ErrorKind::Http, format!("gave no answer to {method}")),
        McpEnd::TimedOut => (ErrorKind::Timeout, format!("did not answer {method} within {timeout_ms} ms")),
        McpEnd::Exited { code, stderr } => {
            let tail = stderr_tail(stderr);
            let tail = if tail.is_empty() { String::new() } else { format!(": {tail}") };
            // No code: ended by a signal, or its output (an HTTP stream, a closed stdout)
            // ended while it lived on.
            let how = code.map_or_else(|| "ended".to_string(), |c| format!("exited (code {c})"));
            (ErrorKind::Http, format!("{how} before answering {method}{tail}"))
        }
        McpEnd::Lost => (ErrorKind::Http, format!("lost the session during {method}")),
        McpEnd::Refused(why) => (ErrorKind::Http, format!("cannot be used here: {why}")),
        McpEnd::Failed(why) => (ErrorKind::Http, format!("could not be reached: {why}")),
        McpEnd::Garbage(text) => (ErrorKind::Http, format!("wrote something that is not JSON-RPC: `{text}`")),
        McpEnd::TooLarge => (ErrorKind::Http, format!("sent a message over {} MiB", MAX_MESSAGE_BYTES >> 20)),
    };
    McpFailure::new(kind, format!("MCP server `{server}` {what}"))
}

/// The end of a stderr, trimmed, for an error.
fn stderr_tail(stderr: &str) -> String {
    let t = stderr.trim();
    let n = t.chars().count();
    if n > STDERR_TAIL_CHARS {
        format!("…{}", t.chars().skip(n - STDERR_TAIL_CHARS).collect::<String>())
    } else {
        t.into()
    }
}

/// Where a server of a document is, outside a run: its headers as written, refused when one
/// is a template (only a run renders them).
pub(super) fn endpoint_as_given(name: &str, server: &McpServer) -> Result<McpEndpoint, String> {
    if let Some((h, _)) = server.headers.iter().flatten().find(|(_, v)| v.contains("{{")) {
        return Err(format!("MCP server `{name}`: header `{h}` is a template, which only a run renders"));
    }
    endpoint_as_written(server)
        .ok_or_else(|| format!("MCP server `{name}` needs a `url` (Streamable HTTP) or a `command` (stdio)"))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_server_speaking_only_the_stateless_protocol_is_named() {
        // What a 2026-07-28-only server answers an `initialize` (the spec's example error).
        let e = RpcError {
            code: -32602,
            message: "Unsupported protocol version".into(),
            data: Some(json!({"supported": ["2026-07-28"], "requested": "2025-11-25"})),
        };
        assert_eq!(
            refused("fs", "initialize", &e).reason,
            "MCP server `fs` speaks only MCP 2026-07-28, which Switchyard does not support yet (it speaks 2025-11-25 and 2025-06-18)"
        );
        let e = RpcError { code: -32601, message: "Method not found".into(), data: None };
        assert_eq!(
            refused("fs", "tools/list", &e).reason,
            "MCP server `fs` refused tools/list: -32601 Method not found"
        );
    }

    #[test]
    fn every_end_names_the_server() {
        let long = "x".repeat(5000);
        let cases = [
            (McpEnd::TimedOut, "MCP server `s` did not answer tools/call within 300 ms"),
            (McpEnd::Failed("connection refused".into()), "MCP server `s` could not be reached: connection refused"),
            (McpEnd::Garbage("Starting…".into()), "MCP server `s` wrote something that is not JSON-RPC: `Starting…`"),
            (McpEnd::TooLarge, "MCP server `s` sent a message over 10 MiB"),
            (McpEnd::Exited { code: None, stderr: String::new() }, "MCP server `s` ended before answering tools/call"),
        ];
        for (end, want) in cases {
            assert_eq!(ended("s", "tools/call", &end, 300).reason, want);
        }
        let exited = ended("s", "tools/call", &McpEnd::Exited { code: Some(1), stderr: long }, 0);
        assert!(exited.reason.len() < 2100, "the stderr tail is bounded");
        assert_eq!(ended("s", "initialize", &McpEnd::TimedOut, 5).kind, ErrorKind::Timeout);
    }
}
