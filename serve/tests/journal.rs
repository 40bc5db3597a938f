//! What Restate's journal keeps of a served run's HTTP replies, read back through the real
//! server's admin API: never a credential a reply's headers carried (a cookie, a key echoed).

mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::restate::{Restate, ServeReach};

const KEY: &str = "sk-served-key-0123456789";
const COOKIE: &str = "session=cookie-value-0123456789";

/// A server whose replies set a cookie, echo the key in a header and carry an `authorization`
/// header of their own.
fn leaky_server() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
    let base = format!("http://{}", listener.local_addr().expect("its address"));
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(mut conn) = conn else { continue };
            let mut reader = BufReader::new(conn.try_clone().expect("the connection"));
            let mut length = 0;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line.trim().is_empty() {
                    break;
                }
                if let Some((k, v)) = line.split_once(':').filter(|(k, _)| k.eq_ignore_ascii_case("content-length")) {
                    let _ = k;
                    length = v.trim().parse().unwrap_or(0);
                }
            }
            let _ = reader.read_exact(&mut vec![0; length]);
            let _ = write!(
                conn,
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nset-cookie: {COOKIE}; HttpOnly\r\nx-echo: you sent {KEY}\r\nauthorization: Bearer server-token-0123456789\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{{}}"
            );
        }
    });
    base
}

#[test]
fn reply_headers_are_journaled_without_credentials() {
    let base = leaky_server();
    let restate = Restate::start_with_env(ServeReach::LoopbackButRestate, &[("OPENAI_API_KEY", KEY)]);
    let graph = json!({
        "format": "switchyard/graph@1",
        "name": "Calls a leaky server",
        "state": { "reply": { "type": "any", "default": null }, "ok": { "type": "string", "default": "" } },
        "nodes": [
            { "id": "start", "kind": "start" },
            { "id": "call", "kind": "http", "method": "POST", "url": format!("{base}/hook"), "body": {},
              "writes": "reply", "timeout_ms": 10000 },
            // The run waits here, so that its journal is still there to read.
            { "id": "ask", "kind": "human", "prompt": "ok?", "writes": "ok" },
            { "id": "end", "kind": "end" }
        ],
        "edges": [{ "from": "start", "to": "call" }, { "from": "call", "to": "ask" }, { "from": "ask", "to": "end" }]
    });
    let (status, _) = restate.post("/GraphRun/leaky/run/send", &json!({ "graph": graph }));
    assert!(status < 300, "submitting: HTTP {status}");
    let since = Instant::now();
    loop {
        let (status, record) = restate.post_empty("/GraphRun/leaky/record");
        if status == 200 && record["status"] == "interrupted" {
            break;
        }
        assert!(since.elapsed() < Duration::from_secs(90), "the run did not end: HTTP {status} {record}");
        std::thread::sleep(Duration::from_millis(100));
    }
    let journal = restate.query(
        "SELECT j.entry_json FROM sys_journal j JOIN sys_invocation i ON j.id = i.id \
         WHERE i.target_service_key = 'leaky' AND i.target_handler_name = 'run'",
    );
    let text: String = journal.iter().map(|row| readable(&row["entry_json"])).collect();
    assert!(text.contains("x-echo"), "the journal holds the reply's headers: {text}");
    for secret in [KEY, COOKIE, "server-token-0123456789"] {
        assert!(!text.contains(secret), "{secret} was journaled: {text}");
    }
}

/// A journal entry as text: its JSON, with each payload (an array of bytes) read as UTF-8.
fn readable(entry: &Value) -> String {
    fn walk(v: &Value, out: &mut String) {
        match v {
            Value::Array(items) if !items.is_empty() && items.iter().all(|i| i.as_u64().is_some_and(|b| b < 256)) => {
                let bytes: Vec<u8> = items.iter().filter_map(Value::as_u64).map(|b| b as u8).collect();
                out.push_str(&String::from_utf8_lossy(&bytes));
            }
            Value::Array(items) => items.iter().for_each(|i| walk(i, out)),
            Value::Object(map) => map.values().for_each(|i| walk(i, out)),
            Value::String(s) => match serde_json::from_str::<Value>(s) {
                Ok(inner @ (Value::Object(_) | Value::Array(_))) => walk(&inner, out),
                _ => out.push_str(s),
            },
            other => out.push_str(&other.to_string()),
        }
        out.push('\n');
    }
    let mut out = String::new();
    walk(entry, &mut out);
    out
}
