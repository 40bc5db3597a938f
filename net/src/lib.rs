//! Sending the engine's HTTP requests natively, with a blocking client (`ureq`). The CLI and
//! the desktop app run it on a thread per request.
//!
//! Replies are decompressed here ([`reply::decode_reply`]) and bounded once decompressed
//! ([`MAX_REPLY_BYTES`]); a key sent with a request is removed from the reply, in its raw
//! text and in the decoded strings of a JSON reply ([`redact`]). A model's streamed reply
//! (server-sent events) is read as it arrives ([`stream`]). Exchanges with MCP servers, over
//! stdio or Streamable HTTP, are carried out by [`mcp`]. What a host takes from the
//! environment (keys, MCP policy) is read by [`host_env`].

pub mod host_env;
pub mod mcp;
pub mod reach;
pub mod redirect;
pub mod reply;
pub mod stream;

use std::sync::Arc;
use std::time::{Duration, Instant};

use ureq::unversioned::transport::DefaultConnector;

use crate::reach::{Reach, ReachResolver};
use crate::redirect::Hop;

use engine::host::{Auth, HttpFailure, HttpRequest, HttpResponse, KeyRing, Origin, check_origin, redact};

pub use crate::reply::{MAX_REPLY_BYTES, decode_reply};

/// Environment variables holding the OpenAI-compatible API key, in the order tried.
pub const API_KEY_VARS: [&str; 2] = ["SWITCHYARD_OPENAI_API_KEY", "OPENAI_API_KEY"];
/// Environment variables holding the Anthropic API key.
pub const ANTHROPIC_KEY_VARS: [&str; 1] = ["ANTHROPIC_API_KEY"];
/// Origins, comma-separated, trusted with the keys beyond each provider's own.
pub const TRUSTED_ORIGINS_VAR: &str = "SWITCHYARD_TRUSTED_ORIGINS";

/// The keys of the environment ([`API_KEY_VARS`], [`ANTHROPIC_KEY_VARS`]; an empty value
/// counts as unset) and the origins of [`TRUSTED_ORIGINS_VAR`], with the entries of that list
/// that are not origins, for a warning.
pub fn keys_from_env() -> (KeyRing, Vec<String>) {
    let env = |vars: &[&str]| vars.iter().find_map(|v| std::env::var(v).ok().filter(|k| !k.trim().is_empty()));
    let mut keys = KeyRing::new();
    if let Some(k) = env(&API_KEY_VARS) {
        keys.add_key(Auth::OpenAi, &k);
    }
    if let Some(k) = env(&ANTHROPIC_KEY_VARS) {
        keys.add_key(Auth::Anthropic, &k);
    }
    let bad = keys.trust_list(&std::env::var(TRUSTED_ORIGINS_VAR).unwrap_or_default());
    (keys, bad)
}

/// Sends `req`, adding `key` only if the request is marked for it (`req.auth`) and its URL's
/// origin (read again here, with the HTTP client's own URL parser) is the provider's own or
/// one of `trusted`. A key that may not go is simply not sent.
pub fn send_bound(req: &HttpRequest, key: Option<&str>, trusted: &[Origin]) -> Result<HttpResponse, HttpFailure> {
    send_with(req, bound_key(req, key, trusted), MAX_REPLY_BYTES)
}

/// [`send_bound`], connecting only to the addresses `reach` allows (a served graph's).
pub fn send_bound_within(
    req: &HttpRequest,
    key: Option<&str>,
    trusted: &[Origin],
    reach: &Arc<Reach>,
) -> Result<HttpResponse, HttpFailure> {
    send_within(req, bound_key(req, key, trusted), MAX_REPLY_BYTES, reach)
}

/// `key`, if the request is marked for it and may take it to its URL's origin.
fn bound_key<'k>(req: &HttpRequest, key: Option<&'k str>, trusted: &[Origin]) -> Option<&'k str> {
    match (req.auth, key) {
        (Some(auth), Some(key)) if bound_origin_ok(auth, &req.url, trusted) => Some(key),
        _ => None,
    }
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
    send_within(req, key, max_reply_bytes, &Arc::new(Reach::open()))
}

/// [`send_with`], connecting only to the addresses `reach` allows.
pub fn send_within(
    req: &HttpRequest,
    key: Option<&str>,
    max_reply_bytes: usize,
    reach: &Arc<Reach>,
) -> Result<HttpResponse, HttpFailure> {
    let mut resp = start(req, key, reply::ACCEPT_ENCODING, reach)?;
    let status = resp.status().as_u16();
    let headers = headers_of(&resp);
    // The compressed body is bounded too: it is never larger than what it inflates to by
    // much, and a body past the bound in either form is refused.
    let raw = resp
        .body_mut()
        .with_config()
        .limit(max_reply_bytes as u64)
        .read_to_vec()
        .map_err(|e| read_error(e, req, max_reply_bytes))?;
    let mut reply = decode_reply(status, &headers, &raw, max_reply_bytes).map_err(fail)?;
    // A server that echoes the request back must not leak the key into a record.
    if let Some(key) = key {
        reply.body = redact(&reply.body, [key]);
    }
    Ok(reply)
}

fn fail(message: String) -> HttpFailure {
    HttpFailure { message, timed_out: false }
}

/// Sends `req` with `key` (as a bearer token, or `x-api-key`), saying it accepts
/// `accept_encoding` unless the request says, connecting only where `reach` allows, and waits
/// for the response's head. Redirects are followed here ([`redirect`]), so that no credential
/// goes on to another origin.
fn start(
    req: &HttpRequest,
    key: Option<&str>,
    accept_encoding: &str,
    reach: &Arc<Reach>,
) -> Result<ureq::http::Response<ureq::Body>, HttpFailure> {
    let deadline = Instant::now() + Duration::from_millis(req.timeout_ms);
    let mut headers = req.headers.clone();
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("accept-encoding")) {
        headers.push(("accept-encoding".into(), accept_encoding.into()));
    }
    let first = Hop { method: req.method.clone(), url: req.url.clone(), headers, body: req.body.clone(), keyed: true };
    let mut hop = first.clone();
    for _ in 0..=redirect::MAX_REDIRECTS {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(timed_out(req));
        }
        let resp =
            send_hop(&hop, key.filter(|_| hop.keyed), req.auth, left, reach).map_err(|e| client_error(e, req))?;
        let location = resp.headers().get("location").and_then(|v| v.to_str().ok());
        match redirect::next_hop(&hop, &first.url, resp.status().as_u16(), location) {
            Some(next) => hop = next,
            None => return Ok(resp),
        }
    }
    Err(fail(format!("more than {} redirects", redirect::MAX_REDIRECTS)))
}

/// Sends one request of a chain, within `left`, following no redirect.
fn send_hop(
    hop: &Hop,
    key: Option<&str>,
    auth: Option<Auth>,
    left: Duration,
    reach: &Arc<Reach>,
) -> Result<ureq::http::Response<ureq::Body>, ureq::Error> {
    let mut config =
        ureq::Agent::config_builder().timeout_global(Some(left)).http_status_as_error(false).max_redirects(0);
    if !reach.is_open() {
        // Through a proxy, the address checked would be the proxy's, not the server's.
        config = config.proxy(None);
    }
    let agent = ureq::Agent::with_parts(config.build(), DefaultConnector::default(), ReachResolver::new(reach.clone()));
    let mut builder = ureq::http::Request::builder().method(hop.method.as_str()).uri(&hop.url);
    for (name, value) in &hop.headers {
        builder = builder.header(name, value);
    }
    if let Some(key) = key {
        builder = match auth {
            Some(Auth::Anthropic) => builder.header("x-api-key", key),
            _ => builder.header("authorization", format!("Bearer {key}")),
        };
    }
    match &hop.body {
        Some(body) => agent.run(builder.body(body.clone())?),
        None => agent.run(builder.body(())?),
    }
}

/// Why a request got no reply.
fn client_error(e: ureq::Error, req: &HttpRequest) -> HttpFailure {
    // The engine's message names the request's method and URL.
    if let Some(denied) = reach::unreachable_of(&e) {
        return fail(denied.to_string());
    }
    match e {
        ureq::Error::Timeout(_) => timed_out(req),
        e => fail(e.to_string()),
    }
}

fn headers_of(resp: &ureq::http::Response<ureq::Body>) -> Vec<(String, String)> {
    resp.headers().iter().filter_map(|(k, v)| Some((k.as_str().to_string(), v.to_str().ok()?.to_string()))).collect()
}

fn timed_out(req: &HttpRequest) -> HttpFailure {
    HttpFailure { message: format!("no reply within {} ms", req.timeout_ms), timed_out: true }
}

/// Why reading a reply's body failed.
fn read_error(e: ureq::Error, req: &HttpRequest, max_reply_bytes: usize) -> HttpFailure {
    match e {
        ureq::Error::BodyExceedsLimit(_) => fail(reply::too_large(max_reply_bytes)),
        ureq::Error::Timeout(_) => timed_out(req),
        e => fail(format!("reading the reply: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
