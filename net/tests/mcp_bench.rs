//! How long one `tools/call` exchange takes with the reference server, over stdio and over
//! Streamable HTTP: a figure, not a timed test. Run it with
//! `cargo test -p net --release --test mcp_bench -- --ignored --nocapture`.

mod mcp_common;

use std::time::Instant;

use engine::host::McpEndpoint;
use mcp_common::mcp_support::{Server, server_js};
use mcp_common::*;
use serde_json::json;

const CALLS: u64 = 1000;

fn measure(ep: &McpEndpoint, what: &str) {
    let policy = allowing(&["node"]);
    let init = net::mcp::exchange(&exchange(ep, vec![initialize()], Some(1)), &policy, &|_| {});
    result(&init);
    net::mcp::exchange(&then(ep, &init, vec![initialized()], None), &policy, &|_| {});
    let mut took: Vec<f64> = (0..CALLS)
        .map(|i| {
            let x = then(ep, &init, vec![call(i + 2, "echo", json!({"message": "hi"}))], Some(i + 2));
            let started = Instant::now();
            result(&net::mcp::exchange(&x, &policy, &|_| {}));
            started.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    took.sort_by(f64::total_cmp);
    let at = |q: f64| took[((took.len() as f64 - 1.0) * q).round() as usize];
    println!("{what}: {CALLS} echo calls, p50 {:.2} ms, p99 {:.2} ms", at(0.5), at(0.99));
    net::mcp::close(ep, init.connection.as_deref(), init.session_id.as_deref(), &policy);
}

#[test]
#[ignore = "a benchmark: run it by hand"]
fn echo_calls() {
    measure(
        &McpEndpoint::Stdio {
            program: "node".into(),
            args: vec![server_js("everything"), "stdio".into()],
            env: vec![],
        },
        "stdio",
    );
    let server = Server::everything_http();
    measure(&McpEndpoint::Http { url: server.url(), headers: vec![] }, "Streamable HTTP");
}
