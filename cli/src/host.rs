//! The CLI's host: the system clock, and real HTTP for `llm` and `http` nodes.
//!
//! Keys come from the environment and go only to their provider's origin and the origins in
//! `SWITCHYARD_TRUSTED_ORIGINS` (a [`KeyRing`]): the engine asks before it marks a request
//! for a key, and the host checks again before it adds one.
//!
//! Each request runs on a request thread with a blocking client ([`crate::request_pool`], at
//! most 32 at once), and the engine awaits it through a channel, so the requests of one step
//! (a fan-out) run at the same time. Sleeps (timeouts, back-offs) share one timer thread.
//!
//! Exchanges with MCP servers run the same way ([`net::mcp::exchange`]): a stdio server starts
//! only when its program is among the allowed commands the host holds (checked before the run
//! by [`crate::consent`], and again here), and an HTTP server gets a bearer token only from
//! `SWITCHYARD_MCP_TOKENS` / `SWITCHYARD_MCP_TOKENS_FILE` for its exact origin.

use std::cell::Cell;
use std::sync::Arc;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use engine::host::{
    Auth, Clock, Host, HttpFailure, HttpRequest, HttpResponse, KeyRing, LocalBoxFuture, McpEnd, McpEndpoint,
    McpExchange, McpReply,
};
use futures_channel::oneshot;
use net::mcp::{AllowedCommands, McpPolicy};

pub struct NativeHost {
    origin: Instant,
    counter: Cell<u32>,
    keys: KeyRing,
    mcp: Arc<McpPolicy>,
}

impl NativeHost {
    /// A host with the environment's keys and MCP tokens, starting only the `allowed`
    /// programs; with the warnings to print (entries of `SWITCHYARD_TRUSTED_ORIGINS` that are
    /// not origins, a tokens file others may read…).
    pub fn new(allowed: AllowedCommands) -> (NativeHost, Vec<String>) {
        let (env, warnings) = net::host_env::HostEnv::from_env(allowed);
        (NativeHost { origin: Instant::now(), counter: Cell::new(0), keys: env.keys, mcp: env.mcp }, warnings)
    }
}

impl Host for NativeHost {
    fn now_ms(&self) -> f64 {
        self.origin.elapsed().as_secs_f64() * 1000.0
    }

    fn epoch_ms(&self) -> Option<f64> {
        // A clock set before 1970 has no time of day worth stamping.
        SystemTime::now().duration_since(UNIX_EPOCH).ok().map(|d| d.as_secs_f64() * 1000.0)
    }

    fn new_run_id(&self) -> String {
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or_default();
        let n = self.counter.get();
        self.counter.set(n + 1);
        format!("{:012x}-{:04x}-{n}", nanos & 0xffff_ffff_ffff, std::process::id() & 0xffff)
    }

    fn http(&self, request: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, HttpFailure>> {
        // Checked again here: whatever the engine decided, the key goes only where it may.
        let key = request.auth.and_then(|auth| self.keys.key_for(auth, &request.url)).map(str::to_string);
        let trusted = self.keys.trusted().to_vec();
        // Every key held is removed from every reply, sent with the request or not.
        let held: Vec<String> = self.keys.keys().map(str::to_string).collect();
        let (tx, rx) = oneshot::channel();
        crate::request_pool::submit(move || {
            let reply = net::send_bound(&request, key.as_deref(), &trusted).map(|mut r| {
                r.body = engine::host::redact(&r.body, held.iter().map(String::as_str));
                r
            });
            let _ = tx.send(reply);
        });
        Box::pin(async move {
            rx.await
                .unwrap_or_else(|_| Err(HttpFailure { message: "the request was dropped".into(), timed_out: false }))
        })
    }

    fn key_allowed(&self, auth: Auth, url: &str) -> Result<(), String> {
        self.keys.allowed(auth, url)
    }

    fn clock(&self) -> Option<Clock> {
        let origin = self.origin;
        Some(std::rc::Rc::new(move || origin.elapsed().as_secs_f64() * 1000.0))
    }

    fn sleep(&self, ms: u64) -> LocalBoxFuture<'_, ()> {
        let rx = crate::timer::sleep(ms);
        Box::pin(async move {
            let _ = rx.await;
        })
    }

    fn mcp<'a>(&'a self, exchange: McpExchange, seen: &'a dyn Fn(&str)) -> LocalBoxFuture<'a, McpReply> {
        let policy = self.mcp.clone();
        let (tx, rx) = oneshot::channel();
        crate::request_pool::submit(move || {
            let _ = tx.send(net::mcp::exchange(&exchange, &policy, &|_| {}));
        });
        Box::pin(async move {
            let reply = rx.await.unwrap_or_else(|_| McpReply::ended(McpEnd::Failed("the exchange was dropped".into())));
            // Nobody watches a CLI run live: the messages are told as the exchange ends.
            for message in &reply.received {
                seen(message);
            }
            reply
        })
    }

    fn mcp_close<'a>(
        &'a self,
        endpoint: &'a McpEndpoint,
        connection: Option<&'a str>,
        session_id: Option<&'a str>,
    ) -> LocalBoxFuture<'a, ()> {
        let policy = self.mcp.clone();
        let (endpoint, connection, session_id) =
            (endpoint.clone(), connection.map(str::to_string), session_id.map(str::to_string));
        let (tx, rx) = oneshot::channel();
        crate::request_pool::submit(move || {
            net::mcp::close(&endpoint, connection.as_deref(), session_id.as_deref(), &policy);
            let _ = tx.send(());
        });
        Box::pin(async move {
            let _ = rx.await;
        })
    }
}

/// The host, starting only the `allowed` programs ([`crate::consent::allowed`]); its warnings
/// printed once.
pub fn native_host(allowed: AllowedCommands) -> NativeHost {
    let (host, warnings) = NativeHost::new(allowed);
    for warning in warnings {
        crate::output::say(&warning);
    }
    host
}
