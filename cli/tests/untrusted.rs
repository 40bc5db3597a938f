//! A shared graph must be safe to run (README, Untrusted graphs in the editor): keys go only to trusted origins and never
//! come back in a record, replies are bounded after decompression, and a retry's back-off
//! never outlives the run. Each test runs the real binary against a probe server on
//! 127.0.0.1.

mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::{Reply, SCRUBBED_ENV, Server};

const KEY: &str = "sk-probe-0123456789abcdef";

/// Runs `graph` with the environment `env` only (keys and proxies scrubbed); exit code,
/// stdout, stderr and how long it took.
fn run(graph: &Value, env: &[(&str, &str)]) -> (i32, String, String, Duration) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("graph.json");
    std::fs::write(&path, graph.to_string()).expect("write the graph");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_switchyard"));
    cmd.args(["run", &path.display().to_string()]);
    for var in SCRUBBED_ENV {
        cmd.env_remove(var);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let t0 = Instant::now();
    let out = cmd.output().expect("the binary runs");
    let took = t0.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{stderr}");
    (out.status.code().expect("exited"), String::from_utf8_lossy(&out.stdout).into_owned(), stderr, took)
}

fn llm_graph(base_url: &str, extra: Value) -> Value {
    let mut node = json!({
        "id": "ask", "kind": "llm", "prompt": "hello", "writes": "answer",
        "model": { "provider": "openai", "base_url": base_url }
    });
    for (k, v) in extra.as_object().expect("an object") {
        node[k] = v.clone();
    }
    linear(node)
}

fn linear(node: Value) -> Value {
    let id = node["id"].as_str().expect("an id").to_string();
    json!({
        "format": "switchyard/graph@1",
        "nodes": [ { "id": "start", "kind": "start" }, node, { "id": "end", "kind": "end" } ],
        "edges": [ { "from": "start", "to": id }, { "from": id, "to": "end" } ]
    })
}

fn completion(content: &str) -> Value {
    json!({ "choices": [ { "index": 0, "message": { "role": "assistant", "content": content } } ] })
}

fn details(record: &Value, node: &str) -> Value {
    record["steps"][0]["details"][node].clone()
}

#[test]
fn a_graph_cannot_send_the_key_to_an_origin_nobody_trusted() {
    let server = Server::always(Reply::json(200, &completion("hi")));
    let graph = llm_graph(&format!("{}/v1", server.url()), json!({}));
    let (code, stdout, stderr, _) = run(&graph, &[("OPENAI_API_KEY", KEY)]);
    assert_eq!(code, 0, "{stderr}");
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].header("authorization"), None, "the probe saw the key: {:?}", requests[0]);
    let record: Value = serde_json::from_str(&stdout).expect("a record");
    let origin = server.url();
    assert_eq!(
        details(&record, "ask")["auth"],
        format!("no key sent: {origin} is not a trusted origin for the OpenAI key"),
        "{record:#}"
    );
    // Trusted explicitly, the same server gets it.
    let (code, _, stderr, _) = run(&graph, &[("OPENAI_API_KEY", KEY), ("SWITCHYARD_TRUSTED_ORIGINS", &origin)]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(server.requests()[1].header("authorization"), Some(format!("Bearer {KEY}").as_str()));
}

#[test]
fn a_key_echoed_json_escaped_is_removed_from_the_record() {
    let escaped: String = KEY.chars().map(|c| format!("\\u{:04x}", c as u32)).collect();
    let body = format!(
        r#"{{"choices": [{{"index": 0, "message": {{"role": "assistant", "content": "your key is {escaped}"}}}}], "echo": "{escaped}"}}"#
    );
    let server = Server::always(Reply {
        status: 200,
        body,
        content_type: "application/json".into(),
        delay: Duration::ZERO,
        headers: Vec::new(),
    });
    let graph = llm_graph(&format!("{}/v1", server.url()), json!({}));
    let (code, stdout, stderr, _) =
        run(&graph, &[("OPENAI_API_KEY", KEY), ("SWITCHYARD_TRUSTED_ORIGINS", &server.url())]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stdout.contains(KEY), "the key is in the record: {stdout}");
    let record: Value = serde_json::from_str(&stdout).expect("a record");
    assert!(!record.to_string().contains(KEY), "the decoded record holds the key");
    assert_eq!(record["state"]["answer"], "your key is [api key removed]");
}

/// A server answering every request with a gzip body that inflates to `inflated` bytes.
fn gzip_bomb_server(inflated: usize) -> (String, std::thread::JoinHandle<()>) {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let chunk = vec![b'0'; 1 << 20];
    for _ in 0..inflated / chunk.len() {
        enc.write_all(&chunk).expect("in memory");
    }
    let bomb = enc.finish().expect("in memory");
    let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
    let url = format!("http://{}", listener.local_addr().expect("an address"));
    let handle = std::thread::spawn(move || {
        let Ok((stream, _)) = listener.accept() else { return };
        let mut reader = BufReader::new(stream.try_clone().expect("a stream"));
        let mut line = String::new();
        while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
            line.clear();
        }
        let mut s = stream;
        let head = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-encoding: gzip\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
            bomb.len()
        );
        let _ = s.write_all(head.as_bytes());
        let _ = s.write_all(&bomb);
        let _ = s.flush();
        let _ = s.read(&mut [0; 1]);
    });
    (url, handle)
}

#[test]
fn a_gzip_bomb_is_refused_after_decompression() {
    // 40 MiB once inflated, about 40 KB on the wire: over the 10 MiB reply bound only after
    // decompression.
    let (url, server) = gzip_bomb_server(40 << 20);
    let mut graph =
        linear(json!({ "id": "get", "kind": "http", "method": "GET", "url": url, "writes": "body", "parse": "text" }));
    graph["state"] = json!({ "body": { "type": "any" } });
    let (code, stdout, stderr, _) = run(&graph, &[]);
    let _ = server.join();
    assert_eq!(code, 1, "{stderr}\n{}", &stdout[..stdout.len().min(500)]);
    let record: Value = serde_json::from_str(&stdout).expect("a record");
    assert_eq!(record["error"]["kind"], "http", "{}", record["error"]);
    let message = record["error"]["message"].as_str().expect("a message");
    assert!(message.contains("larger than 10 MiB once decompressed"), "{message}");
    assert!(stdout.len() < 100_000, "the record holds the reply: {} bytes", stdout.len());
}

#[test]
fn a_retry_back_off_never_outlives_the_run() {
    let server = Server::always(Reply::text(500, "down"));
    let mut graph = linear(json!({
        "id": "get", "kind": "http", "method": "GET", "url": server.url(), "writes": "body",
        "retry": { "attempts": 3, "backoff_ms": 10000 }
    }));
    graph["state"] = json!({ "body": { "type": "any" } });
    graph["limits"] = json!({ "run_timeout_ms": 2000 });
    let (code, stdout, stderr, took) = run(&graph, &[]);
    assert_eq!(code, 1, "{stderr}");
    assert!(took < Duration::from_secs(8), "the back-off was waited out: {took:?}");
    let record: Value = serde_json::from_str(&stdout).expect("a record");
    let message = record["error"]["message"].as_str().expect("a message");
    assert!(!message.contains("after 3 attempts"), "{message}");
    assert!(message.contains("1 of 3 attempts made"), "{message}");
    assert_eq!(details(&record, "get")["attempts"], 1);
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn untrusted_origins_in_the_environment_are_named() {
    let graph = linear(json!({ "id": "s", "kind": "set", "set": {} }));
    let (code, _, stderr, _) = run(&graph, &[("SWITCHYARD_TRUSTED_ORIGINS", "http://127.0.0.1:11434, not an origin")]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("`not an origin` is not an origin"), "{stderr}");
}
