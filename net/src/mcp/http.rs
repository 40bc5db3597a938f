//! MCP Streamable HTTP: each message is its own POST to the endpoint, answered by `202` (a
//! notification or response), one JSON message, or a server-sent event stream that may carry
//! the server's notifications and requests before the awaited response. The stream is read as
//! it arrives and dropped once the response is in; a request of the server's is answered at
//! once by a POST of its own. A stream that ends early is resumed with `Last-Event-ID`.
//!
//! Requests go through the crate's client path ([`crate::start`]): the reach policy applies,
//! redirects are followed here, and the bearer token (the host's, for the URL's exact origin)
//! never follows a redirect to another origin.

use std::io::Read;
use std::time::{Duration, Instant};

use engine::host::{HttpRequest, McpEnd, McpEndpoint, McpExchange, McpReply, is_credential_header};
use engine::sse::SseParser;
use ureq::http::Response;

use super::{Inbox, McpPolicy, Taken};
use crate::stream::Utf8Pieces;
use crate::{decode_reply, headers_of, start};

/// Headers the transport sets itself; the document's headers never replace them.
const OWN_HEADERS: [&str; 7] =
    ["accept", "content-type", "mcp-session-id", "mcp-protocol-version", "last-event-id", "host", "origin"];
/// How many times a stream that ended before its response is resumed.
const MAX_RESUMES: usize = 5;
/// How long a DELETE of a finished session may take.
const DELETE_TIMEOUT_MS: u64 = 5_000;
/// How much of an error status's body a message quotes.
const BODY_CHARS: usize = 300;

/// The state an exchange carries from one request to the next.
struct Talk<'a, 'i> {
    x: &'a McpExchange,
    url: &'a str,
    doc_headers: &'a [(String, String)],
    token: Option<&'a str>,
    policy: &'a McpPolicy,
    inbox: &'a mut Inbox<'i>,
    deadline: Instant,
    session_id: Option<String>,
    status: Option<u16>,
}

/// How reading one reply ended.
enum Outcome {
    /// The awaited response arrived.
    Answered,
    /// The body ended without it; the last event id, to resume from.
    Ended(Option<String>),
}

/// One exchange over Streamable HTTP.
pub(super) fn exchange(x: &McpExchange, policy: &McpPolicy, inbox: &mut Inbox) -> McpReply {
    let McpEndpoint::Http { url, headers } = &x.endpoint else {
        return McpReply::ended(McpEnd::Failed("not an HTTP endpoint".into()));
    };
    let mut talk = Talk {
        x,
        url,
        doc_headers: headers,
        token: policy.tokens.token_for(url),
        policy,
        inbox,
        deadline: Instant::now() + Duration::from_millis(x.timeout_ms),
        session_id: x.session_id.clone(),
        status: None,
    };
    let end = talk.run();
    McpReply { connection: None, session_id: talk.session_id, http_status: talk.status, received: Vec::new(), end }
}

impl Talk<'_, '_> {
    fn run(&mut self) -> McpEnd {
        match self.post_all() {
            Err(end) => end,
            Ok(Outcome::Answered) => McpEnd::Answered,
            Ok(Outcome::Ended(_)) if self.x.awaits.is_none() => McpEnd::Sent,
            Ok(Outcome::Ended(last_id)) => self.resume_from(last_id),
        }
    }

    /// POSTs each message in order, reading each reply; whether the awaited response came.
    fn post_all(&mut self) -> Result<Outcome, McpEnd> {
        let mut last = Outcome::Ended(None);
        for (i, message) in self.x.send.iter().enumerate() {
            let resp = self.send("POST", Some(message), None)?;
            let status = resp.status().as_u16();
            if status == 404 && self.x.session_id.is_some() && i == 0 {
                // The session ended (expired, or the server restarted): nothing was processed.
                return Err(McpEnd::Lost);
            }
            if !(200..300).contains(&status) {
                return Err(failed_status(status, resp));
            }
            if let Some(id) = header(&resp, "mcp-session-id") {
                self.session_id = Some(id);
            }
            // Once answered, the messages after it are still sent.
            match (self.read_reply(resp)?, &last) {
                (_, Outcome::Answered) => {}
                (outcome, _) => last = outcome,
            }
        }
        Ok(last)
    }

    /// Resumes a stream that ended before the awaited response, from its last event, as
    /// long as each resumed stream brings new events (at most [`MAX_RESUMES`] times).
    fn resume_from(&mut self, mut last_id: Option<String>) -> McpEnd {
        for _ in 0..MAX_RESUMES {
            let Some(id) = last_id.take() else { break };
            match self.resume(&id) {
                Ok(Outcome::Answered) => return McpEnd::Answered,
                Ok(Outcome::Ended(next)) => last_id = next,
                Err(end) => return end,
            }
        }
        McpEnd::Exited { code: None, stderr: "the server ended its reply before the response".into() }
    }

    /// Sends one request (a POST of `body`, or a GET resuming a stream) with the
    /// transport's headers, the session's, the document's and the token.
    fn send(
        &mut self,
        method: &str,
        body: Option<&str>,
        last_event_id: Option<&str>,
    ) -> Result<Response<ureq::Body>, McpEnd> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(McpEnd::TimedOut);
        }
        let mut headers =
            request_headers(self.doc_headers, self.session_id.as_deref(), self.x.protocol_version.as_deref());
        if body.is_some() {
            headers.push(("content-type".into(), "application/json".into()));
        }
        if let Some(id) = last_event_id {
            headers.push(("last-event-id".into(), id.to_string()));
        }
        let req = HttpRequest {
            method: method.into(),
            url: self.url.to_string(),
            headers,
            body: body.map(str::to_string),
            timeout_ms: u64::try_from(left.as_millis()).unwrap_or(u64::MAX).max(1),
            auth: None,
        };
        let resp =
            start(&req, self.token, "identity", &self.policy.reach, crate::redirect::MAX_REDIRECTS).map_err(|f| {
                if f.timed_out {
                    McpEnd::TimedOut
                } else {
                    McpEnd::Failed(format!("could not reach {}: {}", self.url, f.message))
                }
            })?;
        self.status = Some(resp.status().as_u16());
        Ok(resp)
    }

    /// Resumes a stream that ended early: a GET with `Last-Event-ID`.
    fn resume(&mut self, last_event_id: &str) -> Result<Outcome, McpEnd> {
        let resp = self.send("GET", None, Some(last_event_id))?;
        let status = resp.status().as_u16();
        if !(200..300).contains(&status) {
            return Ok(Outcome::Ended(None));
        }
        self.read_reply(resp)
    }

    /// Reads one reply: nothing (202), one JSON message, or an event stream.
    fn read_reply(&mut self, mut resp: Response<ureq::Body>) -> Result<Outcome, McpEnd> {
        let headers = headers_of(&resp);
        let content_type = header(&resp, "content-type").unwrap_or_default().to_ascii_lowercase();
        let encoded = headers
            .iter()
            .any(|(k, v)| k.eq_ignore_ascii_case("content-encoding") && !v.trim().eq_ignore_ascii_case("identity"));
        let max = self.x.max_bytes;
        let status = resp.status().as_u16();
        let mut body = resp.body_mut().with_config().limit(u64::MAX).reader();
        if content_type.starts_with("text/event-stream") && !encoded {
            return self.read_stream(&mut body);
        }
        // One message (or a stream a server compressed anyway), read whole and bounded.
        let mut raw = Vec::new();
        let read = (&mut body).take(max as u64 + 1).read_to_end(&mut raw);
        read.map_err(|e| self.read_failure(e))?;
        if raw.len() > max {
            return Err(McpEnd::TooLarge);
        }
        let text = decode_reply(status, &headers, &raw, max).map_err(|_| McpEnd::TooLarge)?.body;
        if content_type.starts_with("text/event-stream") {
            let mut parser = SseParser::new();
            let mut events = parser.push(&text);
            events.extend(parser.finish());
            let mut last_id = None;
            for event in events {
                last_id = event.id.clone().or(last_id);
                if self.event(&event.data)? {
                    return Ok(Outcome::Answered);
                }
            }
            return Ok(Outcome::Ended(last_id));
        }
        if text.trim().is_empty() {
            return Ok(Outcome::Ended(None));
        }
        if self.event(text.trim())? { Ok(Outcome::Answered) } else { Ok(Outcome::Ended(None)) }
    }

    /// Reads an event stream as it arrives, until the awaited response or its end.
    fn read_stream(&mut self, body: &mut impl Read) -> Result<Outcome, McpEnd> {
        let mut parser = SseParser::new();
        let mut pieces = Utf8Pieces::default();
        let mut last_id = None;
        let mut pending = 0usize;
        let mut buf = vec![0u8; 16 * 1024];
        loop {
            let n = match body.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(self.read_failure(e)),
            };
            let text = pieces.push(&buf[..n]);
            pending += text.len();
            let events = parser.push(&text);
            if !events.is_empty() {
                pending = 0;
            }
            // An event growing past the bound is refused before it is whole.
            if pending > self.x.max_bytes.saturating_add(1024) {
                return Err(McpEnd::TooLarge);
            }
            for event in events {
                last_id = event.id.clone().or(last_id);
                if self.event(&event.data)? {
                    return Ok(Outcome::Answered);
                }
            }
        }
        let rest = pieces.finish();
        let mut events = parser.push(&rest);
        events.extend(parser.finish());
        for event in events {
            last_id = event.id.clone().or(last_id);
            if self.event(&event.data)? {
                return Ok(Outcome::Answered);
            }
        }
        Ok(Outcome::Ended(last_id))
    }

    /// One event's data: skipped when empty (a priming event), else a message taken; a
    /// server request is answered at once. `true` when it is the awaited response.
    fn event(&mut self, data: &str) -> Result<bool, McpEnd> {
        if data.trim().is_empty() {
            return Ok(false);
        }
        match self.inbox.take(data, self.x)? {
            Taken::Awaited => Ok(true),
            Taken::Request(answer) => {
                let resp = self.send("POST", Some(&answer), None)?;
                let status = resp.status().as_u16();
                if !(200..300).contains(&status) {
                    return Err(failed_status(status, resp));
                }
                Ok(false)
            }
            Taken::Other => Ok(false),
        }
    }

    fn read_failure(&self, e: std::io::Error) -> McpEnd {
        let e = ureq::Error::from(e);
        if matches!(e, ureq::Error::Timeout(_)) || Instant::now() >= self.deadline {
            McpEnd::TimedOut
        } else {
            McpEnd::Failed(format!("reading the reply of {}: {e}", self.url))
        }
    }
}

/// The transport's headers, the session's, then the document's (never one of the
/// transport's own, nor a credential).
fn request_headers(
    doc: &[(String, String)],
    session_id: Option<&str>,
    protocol_version: Option<&str>,
) -> Vec<(String, String)> {
    let mut headers = vec![("accept".to_string(), "application/json, text/event-stream".to_string())];
    if let Some(s) = session_id {
        headers.push(("mcp-session-id".into(), s.to_string()));
    }
    if let Some(v) = protocol_version {
        headers.push(("mcp-protocol-version".into(), v.to_string()));
    }
    headers.extend(
        doc.iter()
            .filter(|(k, _)| !OWN_HEADERS.iter().any(|o| k.eq_ignore_ascii_case(o)) && !is_credential_header(k))
            .cloned(),
    );
    headers
}

fn header(resp: &Response<ureq::Body>, name: &str) -> Option<String> {
    resp.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_string)
}

/// `Failed` for an error status, quoting the start of its body.
fn failed_status(status: u16, mut resp: Response<ureq::Body>) -> McpEnd {
    let mut raw = Vec::new();
    let _ = resp.body_mut().with_config().limit(64 * 1024).reader().take(64 * 1024).read_to_end(&mut raw);
    let body = String::from_utf8_lossy(&raw);
    let body: String = body.trim().chars().take(BODY_CHARS).collect();
    if body.is_empty() {
        McpEnd::Failed(format!("HTTP {status}"))
    } else {
        McpEnd::Failed(format!("HTTP {status}: {body}"))
    }
}

/// Ends an HTTP session: DELETE with its id (a server that does not allow it answers 405,
/// which is fine).
pub(super) fn delete_session(endpoint: &McpEndpoint, session_id: &str, policy: &McpPolicy) {
    let McpEndpoint::Http { url, headers } = endpoint else { return };
    let req = HttpRequest {
        method: "DELETE".into(),
        url: url.clone(),
        headers: request_headers(headers, Some(session_id), None),
        body: None,
        timeout_ms: DELETE_TIMEOUT_MS,
        auth: None,
    };
    if let Ok(mut resp) =
        start(&req, policy.tokens.token_for(url), "identity", &policy.reach, crate::redirect::MAX_REDIRECTS)
    {
        let _ = resp.body_mut().with_config().limit(64 * 1024).reader().read_to_end(&mut Vec::new());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_document_cannot_set_the_transports_headers_nor_credentials() {
        let doc = [
            ("X-Trace", "t"),
            ("Authorization", "Bearer from-the-document"),
            ("x-api-key", "k"),
            ("Mcp-Session-Id", "forged"),
            ("Accept", "text/html"),
            ("Host", "evil.example"),
        ]
        .map(|(k, v)| (k.to_string(), v.to_string()));
        let got = request_headers(&doc, Some("s1"), Some("2025-11-25"));
        let want = [
            ("accept", "application/json, text/event-stream"),
            ("mcp-session-id", "s1"),
            ("mcp-protocol-version", "2025-11-25"),
            ("X-Trace", "t"),
        ]
        .map(|(k, v)| (k.to_string(), v.to_string()));
        assert_eq!(got, want);
    }
}
