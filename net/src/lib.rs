//! Sending the engine's HTTP requests natively, with a blocking client (`ureq`). The CLI and
//! the desktop app run it on a thread per request.
//!
//! Replies are decompressed here ([`reply::decode_reply`]) and bounded once decompressed
//! ([`MAX_REPLY_BYTES`]); a key sent with a request is removed from the reply, in its raw
//! text and in the decoded strings of a JSON reply ([`redact`]).

pub mod reply;

use std::time::Duration;

use engine::host::{Auth, HttpFailure, HttpRequest, HttpResponse, Origin, check_origin};
use serde_json::Value;

pub use crate::reply::{MAX_REPLY_BYTES, decode_reply};

/// Environment variables holding the OpenAI-compatible API key, in the order tried.
pub const API_KEY_VARS: [&str; 2] = ["SWITCHYARD_OPENAI_API_KEY", "OPENAI_API_KEY"];
/// Environment variables holding the Anthropic API key.
pub const ANTHROPIC_KEY_VARS: [&str; 1] = ["ANTHROPIC_API_KEY"];
/// Origins, comma-separated, trusted with the keys beyond each provider's own.
pub const TRUSTED_ORIGINS_VAR: &str = "SWITCHYARD_TRUSTED_ORIGINS";

/// What replaces a key found in a reply.
const REMOVED: &str = "[api key removed]";

/// Sends `req`; `key` is added as a bearer token, to whatever URL the request names: the
/// caller has decided it may go there (the desktop app, whose person set the URL). Prefer
/// [`send_bound`], which checks the URL's origin itself.
pub fn send_blocking(req: &HttpRequest, key: Option<&str>) -> Result<HttpResponse, HttpFailure> {
    send_with(req, key, MAX_REPLY_BYTES)
}

/// Sends `req`, adding `key` only if the request is marked for it (`req.auth`) and its URL's
/// origin (read again here, with the HTTP client's own URL parser) is the provider's own or
/// one of `trusted`. A key that may not go is simply not sent.
pub fn send_bound(req: &HttpRequest, key: Option<&str>, trusted: &[Origin]) -> Result<HttpResponse, HttpFailure> {
    let key = match (req.auth, key) {
        (Some(auth), Some(key)) if bound_origin_ok(auth, &req.url, trusted) => Some(key),
        _ => None,
    };
    send_with(req, key, MAX_REPLY_BYTES)
}

/// Both URL readings, the engine's and the client's, must name a trusted origin.
fn bound_origin_ok(auth: Auth, url: &str, trusted: &[Origin]) -> bool {
    if check_origin(auth, url, trusted).is_err() {
        return false;
    }
    let Ok(uri) = url.parse::<ureq::http::Uri>() else { return false };
    let (Some(scheme), Some(host)) = (uri.scheme_str(), uri.host()) else { return false };
    if uri.authority().is_some_and(|a| a.as_str().contains('@')) {
        return false;
    }
    let rebuilt = match uri.port_u16() {
        Some(p) => format!("{scheme}://{host}:{p}"),
        None => format!("{scheme}://{host}"),
    };
    Origin::of(&rebuilt).is_some_and(|o| o == auth.default_origin() || trusted.contains(&o))
        && Origin::of(&rebuilt) == Origin::of(url)
}

/// Sends `req` with `key`, keeping at most `max_reply_bytes` of the decompressed reply.
pub fn send_with(req: &HttpRequest, key: Option<&str>, max_reply_bytes: usize) -> Result<HttpResponse, HttpFailure> {
    let fail = |message: String| HttpFailure { message, timed_out: false };
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(Duration::from_millis(req.timeout_ms)))
        .http_status_as_error(false)
        // A redirect never carries the key on.
        .redirect_auth_headers(ureq::config::RedirectAuthHeaders::Never)
        .build()
        .into();
    let mut builder = ureq::http::Request::builder().method(req.method.as_str()).uri(&req.url);
    for (name, value) in &req.headers {
        builder = builder.header(name, value);
    }
    if !req.headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("accept-encoding")) {
        builder = builder.header("accept-encoding", reply::ACCEPT_ENCODING);
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
            let headers: Vec<(String, String)> = resp
                .headers()
                .iter()
                .filter_map(|(k, v)| Some((k.as_str().to_string(), v.to_str().ok()?.to_string())))
                .collect();
            // The compressed body is bounded too: it is never larger than what it inflates to
            // by much, and a body past the bound in either form is refused.
            let raw =
                resp.body_mut().with_config().limit(max_reply_bytes as u64).read_to_vec().map_err(|e| match e {
                    ureq::Error::BodyExceedsLimit(_) => fail(reply::too_large(max_reply_bytes)),
                    ureq::Error::Timeout(_) => {
                        HttpFailure { message: format!("no reply within {} ms", req.timeout_ms), timed_out: true }
                    }
                    e => fail(format!("reading the reply: {e}")),
                })?;
            let mut reply = decode_reply(status, &headers, &raw, max_reply_bytes).map_err(fail)?;
            // A server that echoes the request back must not leak the key into a record.
            if let Some(key) = key {
                reply.body = redact(&reply.body, key);
            }
            Ok(reply)
        }
        Err(ureq::Error::Timeout(_)) => {
            Err(HttpFailure { message: format!("no reply within {} ms", req.timeout_ms), timed_out: true })
        }
        Err(ureq::Error::Io(e)) => Err(fail(e.to_string())),
        Err(e) => Err(fail(e.to_string())),
    }
}

/// `body` with `key` removed: from its raw text, and from the decoded strings (and object
/// keys) of a JSON body, where escapes such as `\u0073k-…` could hide it from a text search.
/// A JSON body in which the key was found is written again, compactly. Keys shorter than 8
/// characters are left alone (they would match ordinary text).
pub fn redact(body: &str, key: &str) -> String {
    if key.len() < 8 {
        return body.to_string();
    }
    let text = body.replace(key, REMOVED);
    let Ok(mut value) = serde_json::from_str::<Value>(&text) else { return text };
    if scrub(&mut value, key) { value.to_string() } else { text }
}

/// Removes `key` from every string in `v`; whether it found any.
fn scrub(v: &mut Value, key: &str) -> bool {
    match v {
        Value::String(s) if s.contains(key) => {
            *s = s.replace(key, REMOVED);
            true
        }
        Value::Array(items) => items.iter_mut().fold(false, |found, i| scrub(i, key) | found),
        Value::Object(map) => {
            let mut found = false;
            if map.keys().any(|k| k.contains(key)) {
                let old = std::mem::take(map);
                *map = old.into_iter().map(|(k, v)| (k.replace(key, REMOVED), v)).collect();
                found = true;
            }
            map.values_mut().fold(found, |found, i| scrub(i, key) | found)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_redacted_from_decoded_json_strings() {
        let key = "sk-secret-123456";
        let escaped: String = key.chars().map(|c| format!("\\u{:04x}", c as u32)).collect();
        let body = format!(r#"{{"echo": "{escaped}", "raw": "{key}", "list": ["x{escaped}y"]}}"#);
        let out = redact(&body, key);
        assert!(!out.contains(key), "{out}");
        let v: Value = serde_json::from_str(&out).expect("still JSON");
        assert!(!v.to_string().contains(key));
        assert_eq!(v["echo"], REMOVED);
        assert_eq!(v["list"][0], format!("x{REMOVED}y"));
        assert_eq!(redact("plain text with sk-secret-123456 in it", key), format!("plain text with {REMOVED} in it"));
        assert_eq!(redact(r#"{"a": "unrelated"}"#, key), r#"{"a": "unrelated"}"#, "untouched when absent");
    }

    #[test]
    fn a_bound_key_goes_only_to_its_origins() {
        let trusted = [Origin::of("http://127.0.0.1:11434").expect("an origin")];
        assert!(bound_origin_ok(Auth::OpenAi, "https://api.openai.com/v1/chat/completions", &trusted));
        assert!(bound_origin_ok(Auth::OpenAi, "http://127.0.0.1:11434/v1", &trusted));
        assert!(!bound_origin_ok(Auth::OpenAi, "http://127.0.0.1:9/v1", &trusted));
        assert!(!bound_origin_ok(Auth::OpenAi, "https://api.openai.com@evil.example/v1", &trusted));
        assert!(!bound_origin_ok(Auth::OpenAi, "https://api.openai.com.evil.example/v1", &trusted));
    }
}
