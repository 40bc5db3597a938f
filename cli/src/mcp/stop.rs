//! The host a call's run goes through: the CLI's own, except that once the call is cancelled
//! its waits (timeouts, retry back-offs) end at once, so a run waiting inside a step stops
//! there rather than after the wait. Everything else is the CLI host's.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use engine::host::{
    Auth, Clock, Host, HttpFailure, HttpRequest, HttpResponse, LocalBoxFuture, McpEndpoint, McpExchange, McpReply,
    StreamRedactor,
};

/// How often a wait looks at the stop flag.
const CHECK_MS: u64 = 50;

pub struct StoppingHost<H> {
    inner: H,
    stop: Arc<AtomicBool>,
}

impl<H: Host> StoppingHost<H> {
    pub fn new(inner: H, stop: Arc<AtomicBool>) -> StoppingHost<H> {
        StoppingHost { inner, stop }
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

impl<H: Host> Host for StoppingHost<H> {
    fn now_ms(&self) -> f64 {
        self.inner.now_ms()
    }

    fn epoch_ms(&self) -> Option<f64> {
        self.inner.epoch_ms()
    }

    fn new_run_id(&self) -> String {
        self.inner.new_run_id()
    }

    fn http(&self, request: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, HttpFailure>> {
        self.inner.http(request)
    }

    /// The wait in slices, ending early once the call is cancelled.
    fn sleep(&self, ms: u64) -> LocalBoxFuture<'_, ()> {
        Box::pin(async move {
            let mut left = ms;
            while left > 0 && !self.stopped() {
                let slice = left.min(CHECK_MS);
                self.inner.sleep(slice).await;
                left -= slice;
            }
        })
    }

    fn enforces_timeouts(&self) -> bool {
        self.inner.enforces_timeouts()
    }

    fn clock(&self) -> Option<Clock> {
        self.inner.clock()
    }

    fn key_allowed(&self, auth: Auth, url: &str) -> Result<(), String> {
        self.inner.key_allowed(auth, url)
    }

    fn streams(&self) -> bool {
        self.inner.streams()
    }

    fn http_stream<'a>(
        &'a self,
        request: HttpRequest,
        chunk: &'a dyn Fn(&str),
    ) -> LocalBoxFuture<'a, Result<HttpResponse, HttpFailure>> {
        self.inner.http_stream(request, chunk)
    }

    fn stream_redactor(&self) -> StreamRedactor {
        self.inner.stream_redactor()
    }

    fn llm_delta(&self, node: &str, text: &str) {
        self.inner.llm_delta(node, text)
    }

    fn mcp<'a>(&'a self, exchange: McpExchange, seen: &'a dyn Fn(&str)) -> LocalBoxFuture<'a, McpReply> {
        self.inner.mcp(exchange, seen)
    }

    fn mcp_close<'a>(
        &'a self,
        endpoint: &'a McpEndpoint,
        connection: Option<&'a str>,
        session_id: Option<&'a str>,
    ) -> LocalBoxFuture<'a, ()> {
        self.inner.mcp_close(endpoint, connection, session_id)
    }
}
