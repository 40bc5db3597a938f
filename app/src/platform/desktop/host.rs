//! The engine's host in the desktop app: the page's clock (lent to the sandbox too) and
//! timers, and HTTP sent by the app natively (no CORS), which adds the key it keeps for the
//! request's origin itself. The page knows which origins have keys (never the keys), so it
//! can tell the engine which requests may carry one; the app checks again when it sends.

use std::cell::RefCell;
use std::rc::Rc;

use engine::host::{Auth, Clock, Host, HttpFailure, HttpRequest, HttpResponse, LocalBoxFuture};
use switchyard_ipc as cmd;

use super::ipc::{IpcError, call};
use crate::model::keys::{KeyTable, OriginKey, Provider};
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
                key: String::new(),
            })
        })
        .collect();
    let base_url = settings.openai_base_url.clone().filter(|b| !b.trim().is_empty());
    KEYS.with(|k| *k.borrow_mut() = KeyTable { keys, base_url });
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

async fn send(req: HttpRequest) -> Result<HttpResponse, HttpFailure> {
    let request = cmd::HttpRequest {
        method: req.method,
        url: req.url,
        headers: req.headers,
        body: req.body,
        timeout_ms: req.timeout_ms,
        auth: req.auth.map(|a| Provider::of(a).id().to_string()),
    };
    match call(&cmd::Http { request }).await {
        Ok(r) => Ok(HttpResponse { status: r.status, body: r.body, headers: r.headers }),
        // The app rejects with an `HttpFailure`; anything else is its message.
        Err(IpcError::Refused(text)) => Err(serde_json::from_str::<cmd::HttpFailure>(&text)
            .map(|f| HttpFailure { message: f.message, timed_out: f.timed_out })
            .unwrap_or(HttpFailure { message: text, timed_out: false })),
        Err(e) => Err(HttpFailure { message: e.to_string(), timed_out: false }),
    }
}
