//! The engine's host in the browser: `performance.now()` (also lent to the sandbox, so time
//! limits stop a running script), timers, and `fetch` for `llm` and `http` nodes. Keys come
//! from the settings dialog, one per origin, kept in local storage only; a request gets the
//! key kept for the origin it goes to and no other, so a key never reaches a graph, a run
//! record or an origin the person did not give it to. Keys are removed from replies.

use std::rc::Rc;

use engine::host::{Auth, Clock, Host, HttpFailure, HttpRequest, HttpResponse, LocalBoxFuture};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use super::keys;
use engine::host::redact;

use crate::model::keys::{KeyTable, effective_url};
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

    fn new_run_id(&self) -> String {
        clock::new_run_id()
    }

    fn http(&self, mut request: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, HttpFailure>> {
        request.url = effective_url(&request.url, request.auth, self.table.base_url.as_deref());
        // Checked again here, on the address the request really goes to.
        match (request.auth, request.auth.and_then(|a| self.table.key_for(a, &request.url))) {
            (Some(Auth::OpenAi), Some(key)) => {
                request.headers.push(("authorization".into(), format!("Bearer {key}")));
            }
            (Some(Auth::Anthropic), Some(key)) => request.headers.push(("x-api-key".into(), key.to_string())),
            _ => {}
        }
        Box::pin(async move {
            let mut reply = fetch(&request).await?;
            reply.body = redact(&reply.body, self.table.secrets());
            Ok(reply)
        })
    }

    fn sleep(&self, ms: u64) -> LocalBoxFuture<'_, ()> {
        clock::sleep(ms)
    }

    fn key_allowed(&self, auth: Auth, url: &str) -> Result<(), String> {
        self.table.allowed(auth, url)
    }

    fn clock(&self) -> Option<Clock> {
        Some(Rc::new(clock::now_ms))
    }
}

fn failure(message: impl Into<String>) -> HttpFailure {
    HttpFailure { message: message.into(), timed_out: false }
}

/// What a rejected `fetch` means, in words: the browser does not say whether it was the
/// network or a missing CORS header.
fn describe(e: &wasm_bindgen::JsValue) -> String {
    let text = e.as_string().or_else(|| js_sys::Reflect::get(e, &"message".into()).ok().and_then(|m| m.as_string()));
    match text {
        Some(t) if t.contains("Failed to fetch") || t.contains("NetworkError") => {
            "the request was blocked: the server is unreachable, or it does not allow requests from this page (CORS)"
                .into()
        }
        Some(t) => t,
        None => "the request failed".into(),
    }
}

async fn fetch(req: &HttpRequest) -> Result<HttpResponse, HttpFailure> {
    let window = web_sys::window().ok_or_else(|| failure("no window"))?;
    let init = web_sys::RequestInit::new();
    init.set_method(&req.method);
    init.set_mode(web_sys::RequestMode::Cors);
    let headers = web_sys::Headers::new().map_err(|e| failure(describe(&e)))?;
    for (k, v) in &req.headers {
        headers.append(k, v).map_err(|e| failure(format!("header {k}: {}", describe(&e))))?;
    }
    init.set_headers(&headers);
    if let Some(body) = &req.body {
        init.set_body(&wasm_bindgen::JsValue::from_str(body));
    }
    // Abort the request when the node's time is up, so it does not linger.
    let controller = web_sys::AbortController::new().ok();
    if let Some(c) = &controller {
        init.set_signal(Some(&c.signal()));
        let c = c.clone();
        let ms = req.timeout_ms.min(i32::MAX as u64) as u32;
        gloo_timers::callback::Timeout::new(ms, move || c.abort()).forget();
    }
    let request = web_sys::Request::new_with_str_and_init(&req.url, &init).map_err(|e| failure(describe(&e)))?;
    let response = JsFuture::from(window.fetch_with_request(&request)).await.map_err(|e| {
        let aborted =
            js_sys::Reflect::get(&e, &"name".into()).ok().and_then(|n| n.as_string()).as_deref() == Some("AbortError");
        HttpFailure { message: if aborted { "timed out".into() } else { describe(&e) }, timed_out: aborted }
    })?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| failure("not a response"))?;
    let text = JsFuture::from(response.text().map_err(|e| failure(describe(&e)))?)
        .await
        .map_err(|e| failure(describe(&e)))?
        .as_string()
        .unwrap_or_default();
    // Only headers the server exposes to the page are visible (CORS); `Retry-After` is read
    // when it is.
    let headers = response
        .headers()
        .get("retry-after")
        .ok()
        .flatten()
        .map(|v| vec![("retry-after".to_string(), v)])
        .unwrap_or_default();
    Ok(HttpResponse { status: response.status(), body: text, headers })
}
