//! The engine's host in the desktop app: the page's clock and timers, and HTTP sent by the
//! app natively (no CORS), which adds the API key itself.

use engine::host::{Host, HttpFailure, HttpRequest, HttpResponse, LocalBoxFuture};
use switchyard_ipc as cmd;

use super::ipc::{IpcError, call};
use crate::platform::clock;

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
}

async fn send(req: HttpRequest) -> Result<HttpResponse, HttpFailure> {
    let request = cmd::HttpRequest {
        method: req.method,
        url: req.url,
        headers: req.headers,
        body: req.body,
        timeout_ms: req.timeout_ms,
        auth: req.auth.map(|_| cmd::AUTH_OPENAI.to_string()),
    };
    match call(&cmd::Http { request }).await {
        Ok(r) => Ok(HttpResponse { status: r.status, body: r.body }),
        // The app rejects with an `HttpFailure`; anything else is its message.
        Err(IpcError::Refused(text)) => Err(serde_json::from_str::<cmd::HttpFailure>(&text)
            .map(|f| HttpFailure { message: f.message, timed_out: f.timed_out })
            .unwrap_or(HttpFailure { message: text, timed_out: false })),
        Err(e) => Err(HttpFailure { message: e.to_string(), timed_out: false }),
    }
}
