//! The engine's host in the browser: `performance.now()`, timers, and `fetch` for `llm` and
//! `http` nodes. The OpenAI-compatible API key comes from the settings dialog and is kept in
//! local storage only; it is added to model requests here, so it never reaches a graph or a
//! run record.

use engine::host::{Auth, Host, HttpFailure, HttpRequest, HttpResponse, LocalBoxFuture};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use super::local;
use crate::platform::clock;

pub const KEY_SETTING: &str = "openai_api_key";
pub const BASE_URL_SETTING: &str = "openai_base_url";

pub struct BrowserHost {
    api_key: Option<String>,
    /// Replaces `https://api.openai.com/v1` (for a local Ollama or llama.cpp server).
    base_url: Option<String>,
}

impl BrowserHost {
    pub fn from_settings() -> BrowserHost {
        let nonempty = |v: Option<String>| v.filter(|s| !s.trim().is_empty());
        BrowserHost {
            api_key: nonempty(local::get_setting(KEY_SETTING)),
            base_url: nonempty(local::get_setting(BASE_URL_SETTING)),
        }
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
        if request.auth == Some(Auth::OpenAi) {
            if let Some(base) = &self.base_url
                && let Some(rest) = request.url.strip_prefix("https://api.openai.com/v1")
            {
                request.url = format!("{}{rest}", base.trim_end_matches('/'));
            }
            if let Some(key) = &self.api_key {
                request.headers.push(("authorization".into(), format!("Bearer {key}")));
            }
        }
        Box::pin(async move { fetch(&request).await })
    }

    fn sleep(&self, ms: u64) -> LocalBoxFuture<'_, ()> {
        clock::sleep(ms)
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
    Ok(HttpResponse { status: response.status(), body: text })
}
