//! Sending the engine's HTTP requests natively, with a blocking client (`ureq`). The CLI and
//! the desktop app run it on a thread per request.

use std::time::Duration;

use engine::host::{HttpFailure, HttpRequest, HttpResponse};

/// Environment variables holding the OpenAI-compatible API key, in the order tried.
pub const API_KEY_VARS: [&str; 2] = ["SWITCHYARD_OPENAI_API_KEY", "OPENAI_API_KEY"];

/// Sends `req`; `key` is added as a bearer token (model calls only). A reply that echoes the
/// key has it removed, so it cannot end up in a run record.
pub fn send_blocking(req: &HttpRequest, key: Option<&str>) -> Result<HttpResponse, HttpFailure> {
    let fail = |message: String| HttpFailure { message, timed_out: false };
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(Duration::from_millis(req.timeout_ms)))
        .http_status_as_error(false)
        .build()
        .into();
    let mut builder = ureq::http::Request::builder().method(req.method.as_str()).uri(&req.url);
    for (name, value) in &req.headers {
        builder = builder.header(name, value);
    }
    if let Some(key) = key {
        builder = builder.header("authorization", format!("Bearer {key}"));
    }
    let result = match &req.body {
        Some(body) => builder.body(body.clone()).map_err(|e| fail(e.to_string())).map(|r| agent.run(r)),
        None => builder.body(()).map_err(|e| fail(e.to_string())).map(|r| agent.run(r)),
    }?;
    match result {
        Ok(mut resp) => {
            let status = resp.status().as_u16();
            let mut body = resp.body_mut().read_to_string().map_err(|e| fail(format!("reading the reply: {e}")))?;
            // A server that echoes the request back must not leak the key into a record.
            if let Some(key) = key.filter(|k| k.len() >= 8) {
                body = body.replace(key, "[api key removed]");
            }
            Ok(HttpResponse { status, body })
        }
        Err(ureq::Error::Timeout(_)) => {
            Err(HttpFailure { message: format!("no reply within {} ms", req.timeout_ms), timed_out: true })
        }
        Err(ureq::Error::Io(e)) => Err(fail(e.to_string())),
        Err(e) => Err(fail(e.to_string())),
    }
}
