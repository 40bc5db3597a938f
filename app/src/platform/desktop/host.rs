//! The engine's host in the desktop app: the page's clock (lent to the sandbox too) and
//! timers, and HTTP sent by the app natively (no CORS), which adds the key it keeps for the
//! request's origin itself. The page knows which origins have keys (never the keys), so it
//! can tell the engine which requests may carry one; the app checks again when it sends. A
//! model's reply asked for as a stream comes back piece by piece ([`super::stream`]). MCP
//! exchanges are carried out by the app too, which starts a program only when its whole
//! command line was approved and adds an MCP server's token itself; the page keeps the
//! approved lines to ask before a run.

use std::cell::RefCell;
use std::rc::Rc;

use engine::host::{
    Auth, Clock, Host, HttpFailure, HttpRequest, HttpResponse, LocalBoxFuture, McpEnd, McpEndpoint, McpExchange,
    McpReply,
};
use switchyard_ipc as cmd;

use super::ipc::call;
use super::reply::reply_of;
use super::stream;
use crate::model::storage::keys::{HELD_ELSEWHERE, KeyTable, OriginKey, Provider};
use crate::platform::clock;

thread_local! {
    /// The origins with keys and the Base URL, as last read from the app.
    static KEYS: RefCell<KeyTable> = RefCell::new(KeyTable::default());
    /// The MCP command lines approved, as last read from the app (or approved since).
    static COMMANDS: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// The MCP command lines the person approved.
pub fn approved_commands() -> Vec<String> {
    COMMANDS.with(|c| c.borrow().clone())
}

/// Notes `lines` as approved (the app keeps them: [`cmd::AllowCommands`]).
pub fn note_approved(lines: &[String]) {
    COMMANDS.with(|c| {
        let mut list = c.borrow_mut();
        for l in lines {
            if !list.contains(l) {
                list.push(l.clone());
            }
        }
    });
}

/// Remembers which origins have keys, from the app's settings.
pub fn remember(settings: &cmd::PublicSettings) {
    let keys = settings
        .key_origins
        .iter()
        .filter_map(|k| {
            Provider::from_id(&k.provider).map(|provider| OriginKey {
                origin: k.origin.clone(),
                provider,
                // Held by the app, never sent to the page.
                key: HELD_ELSEWHERE.to_string(),
            })
        })
        .collect();
    let base_url = settings.openai_base_url.clone().filter(|b| !b.trim().is_empty());
    KEYS.with(|k| *k.borrow_mut() = KeyTable { keys, base_url });
    COMMANDS.with(|c| *c.borrow_mut() = settings.allowed_commands.clone());
}

/// The origins with keys and the Base URL, as last read from the app.
pub fn key_origins() -> KeyTable {
    KEYS.with(|k| k.borrow().without_keys())
}

pub struct DesktopHost;

impl Host for DesktopHost {
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
        Box::pin(async move { send(request).await })
    }

    fn streams(&self) -> bool {
        true
    }

    fn http_stream<'a>(
        &'a self,
        request: HttpRequest,
        chunk: &'a dyn Fn(&str),
    ) -> LocalBoxFuture<'a, Result<HttpResponse, HttpFailure>> {
        Box::pin(async move { stream::send(outgoing(request), chunk).await })
    }
    fn sleep(&self, ms: u64) -> LocalBoxFuture<'_, ()> {
        clock::sleep(ms)
    }

    fn key_allowed(&self, auth: Auth, url: &str) -> Result<(), String> {
        KEYS.with(|k| k.borrow().allowed(auth, url))
    }

    fn clock(&self) -> Option<Clock> {
        Some(Rc::new(clock::now_ms))
    }

    fn mcp<'a>(&'a self, exchange: McpExchange, _seen: &'a dyn Fn(&str)) -> LocalBoxFuture<'a, McpReply> {
        Box::pin(mcp_exchange(exchange))
    }

    fn mcp_close<'a>(
        &'a self,
        endpoint: &'a McpEndpoint,
        connection: Option<&'a str>,
        session_id: Option<&'a str>,
    ) -> LocalBoxFuture<'a, ()> {
        Box::pin(async move {
            let Ok(endpoint) = serde_json::to_string(endpoint) else { return };
            let args = cmd::McpClose {
                endpoint,
                connection: connection.map(str::to_string),
                session_id: session_id.map(str::to_string),
            };
            // A session the app could not close ends with the window.
            let _ = call(&args).await;
        })
    }
}

/// Has the app carry out `x`; a failure of the app's command ends the exchange `Failed`.
async fn mcp_exchange(x: McpExchange) -> McpReply {
    let failed =
        |why: String| McpReply::ended(McpEnd::Failed(format!("the desktop app could not reach the MCP server: {why}")));
    let Ok(exchange) = serde_json::to_string(&x) else { return failed("the exchange could not be written".into()) };
    match call(&cmd::McpExchange { exchange }).await {
        Ok(text) => serde_json::from_str(&text).unwrap_or_else(|e| failed(format!("unexpected reply: {e}"))),
        Err(e) => failed(e.to_string()),
    }
}

/// The engine's request as the app's commands take it.
fn outgoing(req: HttpRequest) -> cmd::HttpRequest {
    cmd::HttpRequest {
        method: req.method,
        url: req.url,
        headers: req.headers,
        body: req.body,
        timeout_ms: req.timeout_ms,
        auth: req.auth.map(|a| Provider::of(a).id().to_string()),
    }
}

async fn send(req: HttpRequest) -> Result<HttpResponse, HttpFailure> {
    reply_of(call(&cmd::Http { request: outgoing(req) }).await)
}
