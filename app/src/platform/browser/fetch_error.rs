//! What a failed `fetch` means, in words: the request blocked or unreachable, the node's time
//! out (the request aborted), or the browser's own message.

use engine::host::HttpFailure;
use wasm_bindgen::JsValue;

/// A failure that is not a timeout.
pub fn failure(message: impl Into<String>) -> HttpFailure {
    HttpFailure { message: message.into(), timed_out: false }
}

/// What a rejected `fetch` means, in words: the browser does not say whether it was the
/// network or a missing CORS header.
pub fn describe(e: &JsValue) -> String {
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

/// Why reading a body failed: the node's time ran out (the request was aborted), or else.
pub fn read_failure(e: &JsValue) -> HttpFailure {
    let aborted =
        js_sys::Reflect::get(e, &"name".into()).ok().and_then(|n| n.as_string()).as_deref() == Some("AbortError");
    if aborted {
        HttpFailure { message: "timed out".into(), timed_out: true }
    } else {
        failure(format!("reading the reply: {}", describe(e)))
    }
}
