//! The host a replayed case runs with: the CLI's clock and timers, and no network. A replayed
//! call never reaches the host (the engine answers it from the case's recorded replies); a
//! call that is not on the tape fails in the engine with a message naming the node. Should any
//! request still arrive here, it is refused rather than sent, so replaying never calls a
//! provider or starts a program: only `--live` does.

use engine::host::{
    Auth, Clock, Host, HttpFailure, HttpRequest, HttpResponse, LocalBoxFuture, McpEnd, McpExchange, McpReply,
};

use crate::host::NativeHost;

pub struct ReplayHost {
    native: NativeHost,
}

impl ReplayHost {
    pub fn new(native: NativeHost) -> ReplayHost {
        ReplayHost { native }
    }
}

impl Host for ReplayHost {
    fn now_ms(&self) -> f64 {
        self.native.now_ms()
    }

    fn epoch_ms(&self) -> Option<f64> {
        // A replayed case's trace shows when it ran, not when it was recorded.
        self.native.epoch_ms()
    }

    fn new_run_id(&self) -> String {
        self.native.new_run_id()
    }

    fn http(&self, request: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, HttpFailure>> {
        Box::pin(async move {
            Err(HttpFailure {
                message: format!(
                    "not sent while replaying ({} {}); run with --live to call it",
                    request.method, request.url
                ),
                timed_out: false,
            })
        })
    }

    fn sleep(&self, ms: u64) -> LocalBoxFuture<'_, ()> {
        self.native.sleep(ms)
    }

    fn clock(&self) -> Option<Clock> {
        self.native.clock()
    }

    fn key_allowed(&self, auth: Auth, url: &str) -> Result<(), String> {
        self.native.key_allowed(auth, url)
    }

    fn mcp<'a>(&'a self, exchange: McpExchange, _seen: &'a dyn Fn(&str)) -> LocalBoxFuture<'a, McpReply> {
        let why = format!("MCP server `{}` not reached while replaying; run with --live to call it", exchange.server);
        Box::pin(async move { McpReply::ended(McpEnd::Refused(why)) })
    }
}
