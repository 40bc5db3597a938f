//! One `fetch`: a request sent from the page, with a credential never following a redirect,
//! aborted when its time is up. The response's head is returned; its body is read by
//! [`super::stream`]. Model calls, `http` nodes and MCP exchanges all go through here.

use engine::host::{HttpFailure, HttpRequest, is_credential_header};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use super::fetch_error::{describe, failure};

/// Sends `req` and waits for the response's head (its body is read after).
pub async fn send(req: &HttpRequest) -> Result<web_sys::Response, HttpFailure> {
    let window = web_sys::window().ok_or_else(|| failure("no window"))?;
    let init = web_sys::RequestInit::new();
    init.set_method(&req.method);
    init.set_mode(web_sys::RequestMode::Cors);
    let headers = web_sys::Headers::new().map_err(|e| failure(describe(&e)))?;
    for (k, v) in &req.headers {
        headers.append(k, v).map_err(|e| failure(format!("header {k}: {}", describe(&e))))?;
    }
    init.set_headers(&headers);
    // `fetch` strips only `Authorization` from a redirect to another origin, and the page
    // cannot follow one itself: a request carrying a credential is not redirected at all.
    if req.headers.iter().any(|(k, _)| is_credential_header(k)) {
        init.set_redirect(web_sys::RequestRedirect::Error);
    }
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
    response.dyn_into().map_err(|_| failure("not a response"))
}
