//! The engine's host in the browser: `performance.now()` (also lent to the sandbox, so time
//! limits stop a running script), timers, and `fetch` for `llm` and `http` nodes. Keys come
//! from the settings dialog, one per origin, kept in local storage only; a request gets the
//! key kept for the origin it goes to and no other, so a key never reaches a graph, a run
//! record or an origin the person did not give it to. Keys are removed from replies. A model
//! reply asked for as a stream is read from the response body as it arrives ([`stream`]).

use std::cell::RefCell;
use std::rc::Rc;

use engine::host::{
    Auth, Clock, Host, HttpFailure, HttpRequest, HttpResponse, LocalBoxFuture, McpEndpoint, McpExchange, McpReply,
    StreamRedactor,
};

use super::fetch::send;
use super::{keys, mcp, stream};
use engine::host::redact;

use crate::model::storage::keys::{KeyTable, effective_url};
use crate::platform::clock;

pub struct BrowserHost {
    /// The keys per origin, and the Base URL that replaces `https://api.openai.com/v1` (for a
    /// local Ollama or llama.cpp server).
    table: KeyTable,
}

impl BrowserHost {
    pub fn from_settings() -> BrowserHost {
        BrowserHost { table: keys::table() }
    }
}

impl Host for BrowserHost {
    fn now_ms(&self) -> f64 {
        clock::now_ms()
    }

    fn epoch_ms(&self) -> Option<f64> {
        Some(clock::epoch_ms())
    }

    fn new_run_id(&self) -> String {
        clock::new_run_id()
    }

    fn http(&self, request: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, HttpFailure>> {
        let request = self.with_key(request);
        Box::pin(async move {
            let response = send(&request).await?;
            // Read as a stream, so that the bound stops the download at 10 MiB as the native
            // hosts do, rather than after the whole reply is in memory.
            let body = stream::read(&response, &|_| {}).await?;
            Ok(HttpResponse {
                status: response.status(),
                body: redact(&body, self.table.secrets()),
                headers: retry_after(&response),
            })
        })
    }

    fn streams(&self) -> bool {
        true
    }

    fn http_stream<'a>(
        &'a self,
        request: HttpRequest,
        chunk: &'a dyn Fn(&str),
    ) -> LocalBoxFuture<'a, Result<HttpResponse, HttpFailure>> {
        let request = self.with_key(request);
        Box::pin(async move {
            let response = send(&request).await?;
            // Each piece is cleaned of keys too, the possible start of one held back until the
            // next piece (the engine does the same with the text it assembles).
            let shown = RefCell::new(StreamRedactor::new(self.table.secrets()));
            let show = |text: String| {
                if !text.is_empty() {
                    chunk(&text);
                }
            };
            let body = stream::read(&response, &|piece| show(shown.borrow_mut().push(piece))).await?;
            show(shown.borrow_mut().finish());
            Ok(HttpResponse {
                status: response.status(),
                body: redact(&body, self.table.secrets()),
                headers: retry_after(&response),
            })
        })
    }

    fn sleep(&self, ms: u64) -> LocalBoxFuture<'_, ()> {
        clock::sleep(ms)
    }

    fn key_allowed(&self, auth: Auth, url: &str) -> Result<(), String> {
        self.table.allowed(auth, url)
    }

    fn stream_redactor(&self) -> StreamRedactor {
        StreamRedactor::new(self.table.secrets())
    }

    fn clock(&self) -> Option<Clock> {
        Some(Rc::new(clock::now_ms))
    }

    fn mcp<'a>(&'a self, exchange: McpExchange, _seen: &'a dyn Fn(&str)) -> LocalBoxFuture<'a, McpReply> {
        let secrets = self.table.secrets().map(str::to_string).collect();
        let token = self.mcp_token(&exchange.endpoint);
        Box::pin(mcp::exchange(exchange, secrets, token))
    }

    fn mcp_close<'a>(
        &'a self,
        endpoint: &'a McpEndpoint,
        _connection: Option<&'a str>,
        session_id: Option<&'a str>,
    ) -> LocalBoxFuture<'a, ()> {
        let token = self.mcp_token(endpoint);
        Box::pin(mcp::close(endpoint, session_id, token))
    }
}

impl BrowserHost {
    /// The bearer token kept in Settings for an HTTP server's exact origin.
    fn mcp_token(&self, endpoint: &McpEndpoint) -> Option<String> {
        match endpoint {
            McpEndpoint::Http { url, .. } => self.table.mcp_token(url).map(str::to_string),
            McpEndpoint::Stdio { .. } => None,
        }
    }

    /// The request sent to the Base URL when it names the OpenAI address, with the key kept
    /// for the origin it goes to (checked again here, on the address it really goes to).
    fn with_key(&self, mut request: HttpRequest) -> HttpRequest {
        request.url = effective_url(&request.url, request.auth, self.table.base_url.as_deref());
        match (request.auth, request.auth.and_then(|a| self.table.key_for(a, &request.url))) {
            (Some(Auth::OpenAi), Some(key)) => {
                request.headers.push(("authorization".into(), format!("Bearer {key}")));
            }
            (Some(Auth::Anthropic), Some(key)) => request.headers.push(("x-api-key".into(), key.to_string())),
            _ => {}
        }
        request
    }
}

/// `Retry-After`, when the server exposes it to the page (CORS hides other headers).
fn retry_after(response: &web_sys::Response) -> Vec<(String, String)> {
    response
        .headers()
        .get("retry-after")
        .ok()
        .flatten()
        .map(|v| vec![("retry-after".to_string(), v)])
        .unwrap_or_default()
}
