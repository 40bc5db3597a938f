//! MCP from a web page (format.md §2.11): Streamable HTTP over `fetch`. Each message is a
//! POST; the reply is one JSON message or an event stream, read until the awaited response.
//! A request the server makes meanwhile is answered at once (ping, or "not offered"). A page
//! cannot start programs, and reaches only servers that allow web pages (CORS): both are
//! said plainly, pointing to the desktop app and the CLI. A bearer token kept in Settings for
//! the URL's exact origin goes with each request (never one from the document).

use std::cell::RefCell;

use engine::host::{HttpRequest, McpEnd, McpEndpoint, McpExchange, McpReply, redact};
use engine::mcp::{Incoming, answer_server_request, classify};
use engine::sse::SseParser;

use super::fetch::send;
use super::stream;

/// What a page says when a graph names a program to start.
fn no_programs(endpoint: &McpEndpoint) -> String {
    format!(
        "it is a program (`{}`), and a web page cannot start programs: open the graph in the \
         Switchyard desktop app, or run it with the CLI (`switchyard run GRAPH --allow-command PROGRAM`)",
        endpoint.describe()
    )
}

/// What a blocked `fetch` most likely means for an MCP server.
fn blocked(url: &str, why: &str) -> String {
    format!(
        "from this page, at {url} ({why}). Many MCP servers do not allow \
         web pages to call them (CORS): the Switchyard desktop app and the CLI reach them directly"
    )
}

/// Carries out `x`, sending `token` (the one kept for the URL's origin) as a bearer token;
/// `secrets` are removed from everything received, error texts included (a server's error
/// page may echo what it was sent).
pub async fn exchange(x: McpExchange, secrets: Vec<String>, token: Option<String>) -> McpReply {
    let mut reply = carry_out(x, &secrets, token).await;
    let clean = |text: &mut String| *text = redact(text, secrets.iter().map(String::as_str));
    match &mut reply.end {
        McpEnd::Failed(text) | McpEnd::Garbage(text) | McpEnd::Refused(text) => clean(text),
        McpEnd::Exited { stderr, .. } => clean(stderr),
        _ => {}
    }
    reply
}

async fn carry_out(x: McpExchange, secrets: &[String], token: Option<String>) -> McpReply {
    let token = token.as_deref();
    let McpEndpoint::Http { url, headers } = &x.endpoint else {
        return McpReply::ended(McpEnd::Refused(no_programs(&x.endpoint)));
    };
    let mut reply = McpReply {
        connection: None,
        session_id: x.session_id.clone(),
        http_status: None,
        received: Vec::new(),
        end: McpEnd::Sent,
    };
    for (i, message) in x.send.iter().enumerate() {
        let request = post(url, headers, &reply, &x, message.clone(), token);
        let response = match send(&request).await {
            Ok(r) => r,
            Err(f) if f.timed_out => return McpReply { end: McpEnd::TimedOut, ..reply },
            Err(f) => return McpReply { end: McpEnd::Failed(blocked(url, &f.message)), ..reply },
        };
        let status = response.status();
        reply.http_status = Some(status);
        if let Some(id) = response.headers().get("mcp-session-id").ok().flatten() {
            reply.session_id = Some(id);
        }
        // An expired session: the server did not process this message; when it is the first,
        // nothing at all was done, and the engine starts a new session.
        if status == 404 && x.session_id.is_some() && i == 0 {
            return McpReply { end: McpEnd::Lost, ..reply };
        }
        if status == 202 {
            continue;
        }
        if !(200..300).contains(&status) {
            let body = stream::read(&response, &|_| {}).await.unwrap_or_default();
            let body: String = body.chars().take(300).collect();
            let end = McpEnd::Failed(format!("HTTP {status}: {body}"));
            return McpReply { end, ..reply };
        }
        let events = response.headers().get("content-type").ok().flatten().unwrap_or_default();
        let read = if events.starts_with("text/event-stream") {
            read_events(&response, &x, (url, headers, token), &reply).await
        } else {
            read_json(&response).await
        };
        let (messages, end) = match read {
            Ok(r) => r,
            Err(end) => return McpReply { end, ..reply },
        };
        for m in messages {
            if m.len() > x.max_bytes {
                return McpReply { end: McpEnd::TooLarge, ..reply };
            }
            reply.received.push(redact(&m, secrets.iter().map(String::as_str)));
        }
        if let Some(end) = end {
            return McpReply { end, ..reply };
        }
    }
    let end = match x.awaits {
        None => McpEnd::Sent,
        Some(id) if reply.received.iter().any(|m| classify(m).answers(id)) => McpEnd::Answered,
        Some(_) => McpEnd::Exited { code: None, stderr: "its reply ended without the awaited response".into() },
    };
    McpReply { end, ..reply }
}

/// `headers` with `Authorization: Bearer <token>` when a token is kept.
fn with_token(headers: &[(String, String)], token: Option<&str>) -> Vec<(String, String)> {
    let mut all = headers.to_vec();
    if let Some(t) = token {
        all.push(("authorization".into(), format!("Bearer {t}")));
    }
    all
}

/// The POST carrying `body`, with the transport's headers.
fn post(
    url: &str,
    headers: &[(String, String)],
    reply: &McpReply,
    x: &McpExchange,
    body: String,
    token: Option<&str>,
) -> HttpRequest {
    let mut all = with_token(headers, token);
    all.push(("accept".into(), "application/json, text/event-stream".into()));
    all.push(("content-type".into(), "application/json".into()));
    if let Some(id) = &reply.session_id {
        all.push(("mcp-session-id".into(), id.clone()));
    }
    if let Some(v) = &x.protocol_version {
        all.push(("mcp-protocol-version".into(), v.clone()));
    }
    HttpRequest {
        method: "POST".into(),
        url: url.into(),
        headers: all,
        body: Some(body),
        timeout_ms: x.timeout_ms,
        auth: None,
    }
}

/// A JSON reply: one message.
async fn read_json(response: &web_sys::Response) -> Result<(Vec<String>, Option<McpEnd>), McpEnd> {
    let body = stream::read(response, &|_| {}).await.map_err(|f| ended(&f))?;
    if body.trim().is_empty() {
        return Ok((Vec::new(), None));
    }
    if let Incoming::Invalid(why) = classify(&body) {
        let shown: String = body.chars().take(200).collect();
        return Err(McpEnd::Garbage(format!("{shown} ({why})")));
    }
    Ok((vec![body], None))
}

/// An event stream: its messages until the awaited response (events without data, such as
/// a priming event, are skipped); requests from the server are answered as they come.
async fn read_events(
    response: &web_sys::Response,
    x: &McpExchange,
    (url, headers, token): (&str, &[(String, String)], Option<&str>),
    reply: &McpReply,
) -> Result<(Vec<String>, Option<McpEnd>), McpEnd> {
    let parser = RefCell::new(SseParser::new());
    let messages = RefCell::new(Vec::new());
    let garbage = RefCell::new(None);
    let answered = RefCell::new(false);
    let take = |events: Vec<engine::sse::SseEvent>| -> bool {
        for e in events {
            if e.data.trim().is_empty() {
                continue;
            }
            match classify(&e.data) {
                Incoming::Invalid(why) => {
                    let shown: String = e.data.chars().take(200).collect();
                    *garbage.borrow_mut() = Some(format!("{shown} ({why})"));
                    return true;
                }
                Incoming::Request { .. } => {
                    if let Some(answer) = answer_server_request(&e.data) {
                        let request = post(url, headers, reply, x, answer, token);
                        wasm_bindgen_futures::spawn_local(async move {
                            let _ = send(&request).await;
                        });
                    }
                }
                incoming => {
                    if x.awaits.is_some_and(|id| incoming.answers(id)) {
                        *answered.borrow_mut() = true;
                    }
                }
            }
            messages.borrow_mut().push(e.data);
            if *answered.borrow() {
                return true;
            }
        }
        false
    };
    let read = stream::read_until(response, &|piece| take(parser.borrow_mut().push(piece))).await;
    read.map_err(|f| ended(&f))?;
    if !*answered.borrow() && garbage.borrow().is_none() {
        take(parser.borrow_mut().finish());
    }
    if let Some(g) = garbage.into_inner() {
        return Err(McpEnd::Garbage(g));
    }
    let end = answered.into_inner().then_some(McpEnd::Answered);
    Ok((messages.into_inner(), end))
}

/// How a failed read ends the exchange.
fn ended(f: &engine::host::HttpFailure) -> McpEnd {
    if f.timed_out {
        McpEnd::TimedOut
    } else if f.message.contains("larger than") {
        McpEnd::TooLarge
    } else {
        McpEnd::Failed(f.message.clone())
    }
}

/// Ends an HTTP session (DELETE with its id); a program was never started here.
pub async fn close(endpoint: &McpEndpoint, session_id: Option<&str>, token: Option<String>) {
    let (McpEndpoint::Http { url, headers }, Some(id)) = (endpoint, session_id) else { return };
    let mut all = with_token(headers, token.as_deref());
    all.push(("mcp-session-id".into(), id.to_string()));
    let request = HttpRequest {
        method: "DELETE".into(),
        url: url.clone(),
        headers: all,
        body: None,
        timeout_ms: 5_000,
        auth: None,
    };
    let _ = send(&request).await;
}
