//! The host a live run in the editor steps with: the platform's host, plus a person watching.
//! A model's reply, streamed by the platform (`fetch` in the browser, the app's channel on the
//! desktop), reaches [`RunCtl::streaming`] piece by piece, so the run panel shows it growing;
//! the step's record still holds only the final message. [`call`] sends the live run a
//! request with this host serving its effects.

use std::rc::Rc;

use engine::host::{
    Auth, Clock, Host, HttpFailure, HttpRequest, HttpResponse, LocalBoxFuture, McpEndpoint, McpExchange, McpReply,
};
use leptos::prelude::*;

use crate::model::runs::run_service::{Reply, Request};
use crate::runner::Stopped;
use crate::state::{App, RunCtl};

/// Sends `request` to the live run (in the run worker) and waits for its reply; meanwhile
/// the run's requests are sent with the platform's host, and its streamed text is shown.
pub async fn call(app: App, request: Request) -> Result<Reply, Stopped> {
    let App { run: ctl, platform, .. } = app;
    let platform = platform.get();
    let host: Rc<dyn Host> = Rc::new(LiveHost::new(platform.host(), ctl));
    let engine = ctl.engine.get_value();
    engine.call(request, platform.key_origins(), host).await
}

/// Most text kept per streaming node: a runaway reply does not grow the page without bound
/// (the whole reply still lands in the record when the step ends).
const MAX_SHOWN_BYTES: usize = 64 * 1024;

pub struct LiveHost {
    inner: Box<dyn Host>,
    ctl: RunCtl,
}

impl LiveHost {
    pub fn new(inner: Box<dyn Host>, ctl: RunCtl) -> LiveHost {
        LiveHost { inner, ctl }
    }
}

impl Host for LiveHost {
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

    fn sleep(&self, ms: u64) -> LocalBoxFuture<'_, ()> {
        self.inner.sleep(ms)
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

    fn llm_delta(&self, node: &str, text: &str) {
        self.ctl.streaming.update(|m| {
            let shown = m.entry(node.to_string()).or_default();
            if shown.len() < MAX_SHOWN_BYTES {
                shown.push_str(text);
            }
        });
    }
}
