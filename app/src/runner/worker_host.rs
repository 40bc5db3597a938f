//! The host the worker's engine steps with. The worker holds no key and has no window: each
//! HTTP request (and exchange with an MCP server) goes to the page, which sends it with its own host (adding the key kept for
//! the request's origin, or handing it to the desktop app) and sends back the reply, piece by
//! piece when it streams. Which requests may carry a key is decided here from the origins
//! the page says have one; the page checks again when it sends. Time and timers are the
//! worker's own, so a script's time limit is kept without asking the page.

use std::rc::Rc;

use engine::host::{
    Auth, Clock, Host, HttpFailure, HttpRequest, HttpResponse, LocalBoxFuture, McpEnd, McpEndpoint, McpExchange,
    McpReply,
};
use futures::StreamExt;

use super::port::{PageEvent, Port};
use crate::model::runs::worker_messages::FromWorker;
use crate::model::storage::keys::KeyTable;
use crate::platform::clock;

pub(super) struct WorkerHost {
    port: Rc<Port>,
    keys: KeyTable,
}

impl WorkerHost {
    pub(super) fn new(port: Rc<Port>, keys: KeyTable) -> WorkerHost {
        WorkerHost { port, keys }
    }

    /// Asks the page to send `request`, passing each piece of the reply to `chunk`.
    async fn send(&self, request: HttpRequest, chunk: Option<&dyn Fn(&str)>) -> Result<HttpResponse, HttpFailure> {
        let (call, mut events) = self.port.expect_reply();
        self.port.post(&FromWorker::Http { call, request, stream: chunk.is_some() });
        while let Some(event) = events.next().await {
            match event {
                PageEvent::Chunk(text) => {
                    if let Some(chunk) = chunk {
                        chunk(&text);
                    }
                }
                PageEvent::Done(result) => return result,
                PageEvent::McpDone(_) => {}
            }
        }
        Err(HttpFailure { message: "the editor stopped answering the run's requests".into(), timed_out: false })
    }

    /// Asks the page to carry out an MCP exchange.
    async fn exchange(&self, exchange: McpExchange) -> McpReply {
        let (call, mut events) = self.port.expect_reply();
        self.port.post(&FromWorker::Mcp { call, exchange });
        while let Some(event) = events.next().await {
            if let PageEvent::McpDone(reply) = event {
                return reply;
            }
        }
        McpReply::ended(McpEnd::Failed("the editor stopped answering the run's requests".into()))
    }
}

impl Host for WorkerHost {
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
        Box::pin(self.send(request, None))
    }

    fn streams(&self) -> bool {
        true
    }

    fn http_stream<'a>(
        &'a self,
        request: HttpRequest,
        chunk: &'a dyn Fn(&str),
    ) -> LocalBoxFuture<'a, Result<HttpResponse, HttpFailure>> {
        Box::pin(self.send(request, Some(chunk)))
    }

    fn sleep(&self, ms: u64) -> LocalBoxFuture<'_, ()> {
        clock::sleep(ms)
    }

    fn clock(&self) -> Option<Clock> {
        Some(Rc::new(clock::now_ms))
    }

    fn key_allowed(&self, auth: Auth, url: &str) -> Result<(), String> {
        self.keys.allowed(auth, url)
    }

    fn llm_delta(&self, node: &str, text: &str) {
        self.port.post(&FromWorker::Delta { node: node.to_string(), text: text.to_string() });
    }

    fn mcp<'a>(&'a self, exchange: McpExchange, _seen: &'a dyn Fn(&str)) -> LocalBoxFuture<'a, McpReply> {
        Box::pin(self.exchange(exchange))
    }

    fn mcp_close<'a>(
        &'a self,
        endpoint: &'a McpEndpoint,
        connection: Option<&'a str>,
        session_id: Option<&'a str>,
    ) -> LocalBoxFuture<'a, ()> {
        self.port.post(&FromWorker::McpClose {
            endpoint: endpoint.clone(),
            connection: connection.map(str::to_string),
            session_id: session_id.map(str::to_string),
        });
        Box::pin(async {})
    }
}
