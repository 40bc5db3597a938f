//! The engine's host in the desktop app: the page's clock (lent to the sandbox too) and
//! timers, and HTTP sent by the app natively (no CORS), which adds the key it keeps for the
//! request's origin itself. The page knows which origins have keys (never the keys), so it
//! can tell the engine which requests may carry one; the app checks again when it sends. A
//! model's reply asked for as a stream comes back piece by piece ([`super::stream`]).

use std::cell::RefCell;
use std::rc::Rc;

use engine::host::{Auth, Clock, Host, HttpFailure, HttpRequest, HttpResponse, LocalBoxFuture};
use switchyard_ipc as cmd;

use super::ipc::call;
use super::reply::reply_of;
use super::stream;
use crate::model::storage::keys::{HELD_ELSEWHERE, KeyTable, OriginKey, Provider};
use crate::platform::clock;

thread_local! {
    /// The origins with keys and the Base URL, as last read from the app.
    static KEYS: RefCell<KeyTable> = RefCell::new(KeyTable::default());
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
