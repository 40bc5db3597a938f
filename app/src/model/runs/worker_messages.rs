//! What the page and the run worker say to each other: the page's requests to the live run
//! ([`crate::model::runs::run_service`]) and their replies, and, the other way, the effects the run
//! asks the page to carry out. The worker has no keys and no window: every HTTP request goes
//! back to the page, whose host adds the key kept for its origin (or, on the desktop, hands it
//! to the app), and a model's streamed reply comes back piece by piece. Exchanges with MCP
//! servers (format.md §2.11) go to the page the same way.

use engine::host::{HttpFailure, HttpRequest, HttpResponse, McpEndpoint, McpExchange, McpReply};
use serde::{Deserialize, Serialize};

use crate::model::runs::run_service::{Reply, Request};
use crate::model::storage::keys::KeyTable;

/// From the page to the worker.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "to", rename_all = "snake_case")]
pub enum ToWorker {
    /// A request to the run, numbered; `keys` says which origins have keys (never the keys).
    Call { id: u64, keys: KeyTable, request: Request },
    /// A piece of the reply to HTTP request `call`, as it arrives.
    HttpChunk { call: u64, text: String },
    /// How HTTP request `call` ended.
    HttpDone { call: u64, result: Result<HttpResponse, HttpFailure> },
    /// How MCP exchange `call` ended.
    McpDone { call: u64, reply: McpReply },
}

/// From the worker to the page.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "from", rename_all = "snake_case")]
pub enum FromWorker {
    /// The worker listens: requests may be sent.
    Ready,
    /// The reply to call `id`.
    Reply { id: u64, reply: Reply },
    /// An HTTP request for the page to send; `stream` when its reply should come in pieces.
    Http { call: u64, request: HttpRequest, stream: bool },
    /// Text a streaming model added to its reply, for node `node`.
    Delta { node: String, text: String },
    /// An exchange with an MCP server for the page to carry out.
    Mcp { call: u64, exchange: McpExchange },
    /// An MCP session to end (its run stopped); nothing comes back.
    McpClose { endpoint: McpEndpoint, connection: Option<String>, session_id: Option<String> },
}

#[cfg(test)]
mod tests {
    use engine::host::Auth;

    use super::*;

    #[test]
    fn messages_keep_their_meaning_as_text() {
        let request = HttpRequest {
            method: "POST".into(),
            url: "https://api.openai.com/v1/chat/completions".into(),
            headers: vec![("content-type".into(), "application/json".into())],
            body: Some("{}".into()),
            timeout_ms: 30_000,
            auth: Some(Auth::OpenAi),
        };
        let out = FromWorker::Http { call: 7, request: request.clone(), stream: true };
        let back: FromWorker = serde_json::from_str(&serde_json::to_string(&out).unwrap()).unwrap();
        assert!(matches!(back, FromWorker::Http { call: 7, request: r, stream: true } if r == request));
        let failed =
            ToWorker::HttpDone { call: 7, result: Err(HttpFailure { message: "refused".into(), timed_out: false }) };
        let back: ToWorker = serde_json::from_str(&serde_json::to_string(&failed).unwrap()).unwrap();
        assert!(matches!(back, ToWorker::HttpDone { call: 7, result: Err(f) } if f.message == "refused"));
    }
}
