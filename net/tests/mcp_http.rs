//! Exchanges over MCP Streamable HTTP with real servers: the reference "everything" server
//! (SSE replies with a priming event, sessions, DELETE) and a Python server on the official
//! SDK (requests of the server's, the `Authorization` header it got).

mod mcp_common;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::time::{Duration, Instant};

use engine::host::{McpEnd, McpEndpoint, McpReply};
use mcp_common::mcp_support::{Server, free_port};
use mcp_common::*;
use net::mcp::{AllowedCommands, McpPolicy, McpTokens, close};
use serde_json::json;

fn at(url: String) -> McpEndpoint {
    McpEndpoint::Http { url, headers: vec![("x-trace".into(), "t1".into())] }
}

fn policy() -> McpPolicy {
    allowing(&[])
}

/// Initializes a session and sends `initialized`.
fn ready(ep: &McpEndpoint, policy: &McpPolicy) -> McpReply {
    let init = net::mcp::exchange(&exchange(ep, vec![initialize()], Some(1)), policy, &|_| {});
    result(&init);
    let sent = net::mcp::exchange(&then(ep, &init, vec![initialized()], None), policy, &|_| {});
    assert_eq!(sent.end, McpEnd::Sent, "{sent:?}");
    assert_eq!(sent.http_status, Some(202));
    init
}

#[test]
fn a_session_initializes_lists_its_tools_and_calls_echo() {
    let server = Server::everything_http();
    let ev = at(server.url());
    let policy = policy();
    let init = net::mcp::exchange(&exchange(&ev, vec![initialize()], Some(1)), &policy, &|_| {});
    assert_eq!(init.received.len(), 1, "the priming event (no data) is skipped: {:?}", init.received);
    assert_eq!(result(&init)["serverInfo"]["name"], "mcp-servers/everything");
    assert_eq!(init.http_status, Some(200));
    let session = init.session_id.clone().expect("the server gave a session id");

    let listed = net::mcp::exchange(
        &then(&ev, &init, vec![initialized(), request(2, "tools/list", json!({}))], Some(2)),
        &policy,
        &|_| {},
    );
    let listing = result(&listed);
    assert!(listing["tools"].as_array().unwrap().iter().any(|t| t["name"] == "echo"));
    assert_eq!(listed.session_id.as_deref(), Some(session.as_str()));

    let echoed = net::mcp::exchange(
        &then(&ev, &init, vec![call(3, "echo", json!({"message": "hi"}))], Some(3)),
        &policy,
        &|_| {},
    );
    assert_eq!(text(&result(&echoed)), "Echo: hi");

    // Closing deletes the session: the server no longer knows it.
    close(&ev, None, Some(&session), &policy);
    let after = net::mcp::exchange(
        &then(&ev, &init, vec![call(4, "echo", json!({"message": "x"}))], Some(4)),
        &policy,
        &|_| {},
    );
    match &after.end {
        McpEnd::Lost => {}
        McpEnd::Failed(why) => assert!(why.starts_with("HTTP 400") && why.contains("session"), "{why}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn progress_notifications_arrive_in_the_stream_before_the_result() {
    let server = Server::everything_http();
    let ev = at(server.url());
    let policy = policy();
    let init = ready(&ev, &policy);
    let long = call(2, "trigger-long-running-operation", json!({"duration": 1, "steps": 3}));
    let reply = net::mcp::exchange(&then(&ev, &init, vec![long], Some(2)), &policy, &|_| {});
    assert!(text(&result(&reply)).contains("completed"));
    let all = messages(&reply);
    assert_eq!(notifications(&all, "notifications/progress").len(), 3, "{all:?}");
}

#[test]
fn a_call_past_its_timeout_times_out_and_the_session_goes_on() {
    let server = Server::everything_http();
    let ev = at(server.url());
    let policy = policy();
    let init = ready(&ev, &policy);
    let mut slow =
        then(&ev, &init, vec![call(2, "trigger-long-running-operation", json!({"duration": 60, "steps": 5}))], Some(2));
    slow.timeout_ms = 300;
    let started = Instant::now();
    assert_eq!(net::mcp::exchange(&slow, &policy, &|_| {}).end, McpEnd::TimedOut);
    // A minute's operation: giving up at the timeout shows even on a busy machine.
    assert!(started.elapsed() < Duration::from_secs(30));
    let next = net::mcp::exchange(
        &then(&ev, &init, vec![call(3, "echo", json!({"message": "on"}))], Some(3)),
        &policy,
        &|_| {},
    );
    assert_eq!(text(&result(&next)), "Echo: on");
}

#[test]
fn a_message_over_the_bound_is_too_large() {
    let server = Server::everything_http();
    let ev = at(server.url());
    let policy = policy();
    let init = ready(&ev, &policy);
    let mut big = then(&ev, &init, vec![call(2, "echo", json!({"message": "x".repeat(5000)}))], Some(2));
    big.max_bytes = 4000;
    assert_eq!(net::mcp::exchange(&big, &policy, &|_| {}).end, McpEnd::TooLarge);
}

#[test]
fn an_unknown_session_is_lost() {
    let server = asker_http();
    let ep = at(server.url());
    let mut x = exchange(&ep, vec![call(2, "whoami", json!({}))], Some(2));
    x.session_id = Some("no-such-session".into());
    x.protocol_version = Some("2025-11-25".into());
    let reply = net::mcp::exchange(&x, &policy(), &|_| {});
    assert_eq!(reply.end, McpEnd::Lost, "{reply:?}");
    assert_eq!(reply.http_status, Some(404));
}

#[test]
fn nothing_listening_is_a_failure_naming_the_url() {
    let url = format!("http://127.0.0.1:{}/mcp", free_port());
    let reply = net::mcp::exchange(&exchange(&at(url.clone()), vec![initialize()], Some(1)), &policy(), &|_| {});
    match &reply.end {
        McpEnd::Failed(why) => assert!(why.starts_with(&format!("could not reach {url}")), "{why}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn requests_from_the_server_are_answered_within_the_call() {
    let server = asker_http();
    let ep = at(server.url());
    let policy = policy();
    let init = ready(&ep, &policy);
    for (i, (what, want)) in [
        ("roots", "error -32601 Switchyard does not offer `roots/list`"),
        ("sampling", "error -32601 Switchyard does not offer `sampling/createMessage`"),
        ("elicitation", "error -32601 Switchyard does not offer `elicitation/create`"),
        ("ping", "ok {}"),
    ]
    .into_iter()
    .enumerate()
    {
        let id = 10 + i as u64;
        let mut x = then(&ep, &init, vec![call(id, "ask", json!({"what": what}))], Some(id));
        x.timeout_ms = 10_000;
        let reply = net::mcp::exchange(&x, &policy, &|_| {});
        let got = text(&result(&reply));
        assert!(got.starts_with(want), "{what}: {got}");
    }
}

#[test]
fn a_stream_closed_before_the_response_is_resumed() {
    let server = asker_http();
    let ep = at(server.url());
    let policy = policy();
    let init = ready(&ep, &policy);
    let mut x = then(&ep, &init, vec![call(2, "polled", json!({}))], Some(2));
    x.timeout_ms = 20_000;
    let reply = net::mcp::exchange(&x, &policy, &|_| {});
    assert_eq!(text(&result(&reply)), "answered after the stream was resumed");
    let all = messages(&reply);
    assert_eq!(notifications(&all, "notifications/progress").len(), 2, "one before, one after: {all:?}");
}

/// What `whoami` at `url` saw as `Authorization`, with `policy`'s tokens.
fn whoami(url: String, policy: &McpPolicy) -> String {
    let ep = at(url);
    let init = ready(&ep, policy);
    let reply = net::mcp::exchange(&then(&ep, &init, vec![call(2, "whoami", json!({}))], Some(2)), policy, &|_| {});
    text(&result(&reply))
}

#[test]
fn a_token_goes_only_to_its_own_origin_and_never_comes_back() {
    let (a, b) = (asker_http(), asker_http());
    let mut tokens = McpTokens::new();
    assert!(tokens.add_list(&format!("http://127.0.0.1:{}=tok-for-a-only-123", a.port)).is_empty());
    let policy = McpPolicy::open(AllowedCommands::none(), tokens);
    // A saw the token (echoed back, it is removed from what the run keeps); B saw none.
    assert_eq!(whoami(a.url(), &policy), "Bearer [api key removed]");
    assert_eq!(whoami(b.url(), &policy), "(none)");
}

/// A server answering every request with a 307 to `to`.
fn redirecting_to(to: String) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a port for the redirect");
    let addr = listener.local_addr().expect("its address");
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(mut conn) = conn else { return };
            let mut reader = BufReader::new(conn.try_clone().expect("the connection"));
            let mut length = 0usize;
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap_or(0);
                }
                line.clear();
            }
            let mut body = vec![0u8; length];
            let _ = std::io::Read::read_exact(&mut reader, &mut body);
            let reply = format!(
                "HTTP/1.1 307 Temporary Redirect\r\nlocation: {to}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
            );
            let _ = conn.write_all(reply.as_bytes());
        }
    });
    format!("http://{addr}/mcp")
}

#[test]
fn a_redirect_to_another_origin_carries_no_token() {
    let b = asker_http();
    let hop = redirecting_to(b.url());
    let mut tokens = McpTokens::new();
    tokens.add_list(&format!("{}=tok-for-the-hop-456", hop.trim_end_matches("/mcp")));
    let policy = McpPolicy::open(AllowedCommands::none(), tokens);
    let ep = at(hop);
    let init = net::mcp::exchange(&exchange(&ep, vec![initialize()], Some(1)), &policy, &|_| {});
    result(&init);
    assert_eq!(whoami_via(&ep, &init, &policy), "(none)");
}

fn whoami_via(ep: &McpEndpoint, init: &McpReply, policy: &McpPolicy) -> String {
    let sent = net::mcp::exchange(&then(ep, init, vec![initialized()], None), policy, &|_| {});
    assert_eq!(sent.end, McpEnd::Sent);
    let reply = net::mcp::exchange(&then(ep, init, vec![call(2, "whoami", json!({}))], Some(2)), policy, &|_| {});
    text(&result(&reply))
}
