//! The effectful nodes (`http`, `llm` with the `openai` provider, `subgraph`) through the real
//! `switchyard` binary, against a scripted HTTP server on 127.0.0.1 (`support/mod.rs`).
//!
//! Each test writes its graph to a temporary directory (the server's address is only known
//! once it runs), starts the binary, and checks the exit code, the record printed on stdout,
//! and what the server received.

mod support;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::{Reply, SCRUBBED_ENV, Server, closed_port};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// What one invocation of the binary produced.
struct Out {
    code: i32,
    stdout: String,
    stderr: String,
    what: String,
    elapsed: Duration,
}

impl Out {
    fn describe(&self) -> String {
        format!(
            "command: {}\nexit code: {} (after {:?})\n--- stdout ---\n{}\n--- stderr ---\n{}",
            self.what, self.code, self.elapsed, self.stdout, self.stderr
        )
    }

    fn assert_code(&self, code: i32) -> &Out {
        assert_eq!(self.code, code, "wrong exit code\n{}", self.describe());
        self
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| panic!("stdout is not JSON ({e})\n{}", self.describe()))
    }
}

fn sy(args: &[&str], env: &[(&str, &str)]) -> Out {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_switchyard"));
    cmd.args(args).env("RUST_BACKTRACE", "1");
    for var in SCRUBBED_ENV {
        cmd.env_remove(var);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let t0 = Instant::now();
    let out = cmd.output().expect("the switchyard binary runs");
    let elapsed = t0.elapsed();
    let what = format!("switchyard {}", args.join(" "));
    let out = Out {
        code: out.status.code().unwrap_or_else(|| panic!("`{what}` was killed by a signal: {:?}", out.status)),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        what,
        elapsed,
    };
    for forbidden in ["panicked", "stack backtrace"] {
        assert!(!out.stderr.contains(forbidden), "stderr shows a panic\n{}", out.describe());
    }
    out
}

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary directory")
}

fn write(dir: &Path, name: &str, contents: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("write a temporary file");
    path.to_string_lossy().into_owned()
}

/// Writes `graph` to a temporary directory and runs it with `input`.
fn run_graph(graph: &Value, input: &Value, env: &[(&str, &str)]) -> Out {
    let dir = tmp();
    let path = write(dir.path(), "graph.json", &serde_json::to_string_pretty(graph).expect("a graph serializes"));
    sy(&["run", &path, "--input", &input.to_string()], env)
}

/// `start → node → end`, with `node` as given.
fn linear(node: Value) -> Value {
    let id = node["id"].as_str().expect("the node has an id").to_string();
    json!({
        "format": "switchyard/graph@1",
        "name": "effects",
        "nodes": [ { "id": "start", "kind": "start" }, node, { "id": "end", "kind": "end" } ],
        "edges": [ { "from": "start", "to": id }, { "from": id, "to": "end" } ]
    })
}

/// The `details` a node left in the record (the last step that holds some for it).
fn details(rec: &Value, node: &str) -> Value {
    rec["steps"]
        .as_array()
        .expect("the record has steps")
        .iter()
        .rev()
        .find_map(|s| s["details"].get(node).cloned())
        .unwrap_or_else(|| panic!("no step has details for `{node}`: {rec:#}"))
}

fn message(rec: &Value) -> String {
    rec["error"]["message"].as_str().unwrap_or_else(|| panic!("the record has no error message: {rec:#}")).to_string()
}

/// A failed run: exit 1, status failed, the error on `node` with `kind`; returns the message.
fn assert_failed(out: &Out, node: &str, kind: &str) -> String {
    out.assert_code(1);
    let rec = out.json();
    assert_eq!(rec["status"], "failed", "{}", out.describe());
    assert_eq!(rec["error"]["node"], node, "{}", out.describe());
    assert_eq!(rec["error"]["kind"], kind, "{}", out.describe());
    message(&rec)
}

fn contains(haystack: &str, needle: &str) {
    assert!(haystack.contains(needle), "expected {needle:?} in {haystack:?}");
}

/// An OpenAI-style chat-completions reply whose answer is `content`.
fn completion(content: &str) -> Value {
    json!({
        "id": "chatcmpl-1", "object": "chat.completion", "model": "gpt-test",
        "choices": [ { "index": 0, "message": { "role": "assistant", "content": content }, "finish_reason": "stop" } ],
        "usage": { "prompt_tokens": 9, "completion_tokens": 1, "total_tokens": 10 }
    })
}

/// An `llm` node talking to `server` as an OpenAI-compatible endpoint.
fn openai_node(server: &Server, extra: Value) -> Value {
    let mut node = json!({
        "id": "ask", "kind": "llm",
        "prompt": "Translate to French: {{ state.text }}",
        "writes": "answer",
        "model": { "provider": "openai", "base_url": format!("{}/v1", server.url()) }
    });
    for (k, v) in extra.as_object().expect("extra fields are an object") {
        if k == "model" {
            for (mk, mv) in v.as_object().expect("model is an object") {
                node["model"][mk] = mv.clone();
            }
        } else {
            node[k] = v.clone();
        }
    }
    node
}

// ---------------------------------------------------------------------------------------------
// http
// ---------------------------------------------------------------------------------------------

#[test]
fn http_get_parses_a_json_reply_into_state() {
    let server = Server::always(Reply::json(200, &json!({ "id": 7, "name": "widget", "tags": ["a", "b"] })));
    let graph = linear(json!({
        "id": "fetch", "kind": "http",
        "url": "{{ state.base }}/items?id={{ state.id }}",
        "writes": "item"
    }));
    let out = run_graph(&graph, &json!({ "base": server.url(), "id": 7 }), &[]);
    out.assert_code(0);
    let rec = out.json();
    assert_eq!(rec["status"], "completed", "{}", out.describe());
    assert_eq!(rec["state"]["item"], json!({ "id": 7, "name": "widget", "tags": ["a", "b"] }));
    assert_eq!(rec["steps"][0]["updates"]["fetch"]["item"]["name"], "widget");

    let reqs = server.requests();
    assert_eq!(reqs.len(), 1, "one request: {reqs:?}");
    assert_eq!(reqs[0].method, "GET");
    assert_eq!(reqs[0].path, "/items?id=7");
    assert_eq!(reqs[0].body, "");

    let d = details(&rec, "fetch");
    assert_eq!(d["request"]["method"], "GET", "{d:#}");
    assert_eq!(d["request"]["url"], format!("{}/items?id=7", server.url()), "{d:#}");
    assert_eq!(d["request"]["body"], Value::Null, "{d:#}");
    assert_eq!(d["attempts"], 1, "{d:#}");
    assert_eq!(d["status"], 200, "{d:#}");
    contains(d["response"].as_str().unwrap_or_default(), "widget");
}

#[test]
fn http_parse_text_keeps_the_reply_as_a_string() {
    let server = Server::always(Reply::text(200, "plain words, {not json}\nsecond line"));
    let graph = linear(json!({
        "id": "fetch", "kind": "http", "url": "{{ state.base }}/readme.txt", "parse": "text", "writes": "doc"
    }));
    let out = run_graph(&graph, &json!({ "base": server.url() }), &[]);
    out.assert_code(0);
    let rec = out.json();
    assert_eq!(rec["state"]["doc"], "plain words, {not json}\nsecond line", "{}", out.describe());
    assert_eq!(server.requests()[0].path, "/readme.txt");
}

#[test]
fn http_parse_json_of_a_reply_that_is_not_json_is_an_http_error() {
    let server = Server::always(Reply::text(200, "<html>hello</html>"));
    let graph = linear(json!({ "id": "fetch", "kind": "http", "url": "{{ state.base }}/page", "writes": "doc" }));
    let out = run_graph(&graph, &json!({ "base": server.url() }), &[]);
    let msg = assert_failed(&out, "fetch", "http");
    contains(&msg, "not JSON");
    contains(&msg, "<html>hello</html>");
}

#[test]
fn http_post_sends_a_json_body_built_from_state_and_templated_headers() {
    let server = Server::always(Reply::json(201, &json!({ "order": 99 })));
    let graph = linear(json!({
        "id": "post", "kind": "http", "method": "POST",
        "url": "{{ state.base }}/orders",
        "headers": { "x-request-id": "req-{{ state.id }}", "accept": "application/json" },
        "body": {
            "name": "{{ state.name }}",
            "tags": "{{ state.tags }}",
            "count": "{{ state.count }}",
            "flag": "{{ state.count > 2 }}",
            "greeting": "hello {{ state.name }}, {{ state.count }} items",
            "nested": { "next": "{{ state.count + 1 }}", "list": ["{{ state.name }}", 2, null] },
            "fixed": "no holes"
        },
        "writes": "created"
    }));
    let input = json!({ "base": server.url(), "id": 42, "name": "Ada", "tags": ["x", "y"], "count": 3 });
    let out = run_graph(&graph, &input, &[]);
    out.assert_code(0);
    let rec = out.json();
    assert_eq!(rec["state"]["created"], json!({ "order": 99 }), "{}", out.describe());

    let want_body = json!({
        "name": "Ada",
        "tags": ["x", "y"],
        "count": 3,
        "flag": true,
        "greeting": "hello Ada, 3 items",
        "nested": { "next": 4, "list": ["Ada", 2, null] },
        "fixed": "no holes"
    });
    let reqs = server.requests();
    assert_eq!(reqs.len(), 1);
    let req = &reqs[0];
    assert_eq!(req.method, "POST");
    assert_eq!(req.path, "/orders");
    assert_eq!(req.header("x-request-id"), Some("req-42"), "{req:?}");
    assert_eq!(req.header("accept"), Some("application/json"), "{req:?}");
    assert_eq!(req.header("content-type"), Some("application/json"), "{req:?}");
    assert_eq!(req.json(), want_body);

    let d = details(&rec, "post");
    assert_eq!(d["request"]["method"], "POST");
    assert_eq!(d["request"]["headers"]["x-request-id"], "req-42", "{d:#}");
    assert_eq!(d["request"]["headers"]["content-type"], "application/json", "{d:#}");
    let sent: Value = serde_json::from_str(d["request"]["body"].as_str().expect("the body is kept as text"))
        .expect("the recorded body is JSON");
    assert_eq!(sent, want_body);
    assert_eq!(d["status"], 201);
}

#[test]
fn http_put_with_a_text_template_body_sends_it_rendered() {
    let server = Server::always(Reply::text(200, "stored"));
    let graph = linear(json!({
        "id": "put", "kind": "http", "method": "put",
        "url": "{{ state.base }}/notes/{{ state.id }}",
        "headers": { "content-type": "text/plain" },
        "body": "note {{ state.id }}: {{ state.tags }}",
        "parse": "text",
        "writes": "reply"
    }));
    let out = run_graph(&graph, &json!({ "base": server.url(), "id": 5, "tags": [1, 2] }), &[]);
    out.assert_code(0);
    assert_eq!(out.json()["state"]["reply"], "stored");
    let req = &server.requests()[0];
    assert_eq!(req.method, "PUT", "the method is sent in upper case: {req:?}");
    assert_eq!(req.path, "/notes/5");
    assert_eq!(req.body, "note 5: [1,2]");
    assert_eq!(req.header("content-type"), Some("text/plain"), "{req:?}");
}

#[test]
fn http_non_2xx_fails_the_run_with_status_and_body_excerpt() {
    let server = Server::always(Reply::text(404, "no such widget: 7"));
    let graph = linear(json!({ "id": "fetch", "kind": "http", "url": "{{ state.base }}/items/7", "writes": "item" }));
    let out = run_graph(&graph, &json!({ "base": server.url() }), &[]);
    let msg = assert_failed(&out, "fetch", "http");
    contains(&msg, "answered HTTP 404");
    contains(&msg, "no such widget: 7");
    contains(&msg, &format!("GET {}/items/7", server.url()));
    let rec = out.json();
    // Nothing was written; the state is kept as it was.
    assert_eq!(rec["state"], json!({ "base": server.url() }));
    assert!(rec["state"].get("item").is_none());
    let d = details(&rec, "fetch");
    assert_eq!(d["attempts"], 1, "{d:#}");
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn http_error_message_quotes_only_an_excerpt_of_a_long_body() {
    let long = format!("START{}END", "x".repeat(5000));
    let server = Server::always(Reply::text(500, &long));
    let graph = linear(json!({ "id": "fetch", "kind": "http", "url": "{{ state.base }}/big", "writes": "item" }));
    let out = run_graph(&graph, &json!({ "base": server.url() }), &[]);
    let msg = assert_failed(&out, "fetch", "http");
    contains(&msg, "answered HTTP 500");
    contains(&msg, "START");
    assert!(!msg.contains("END"), "the whole body should not be quoted: {} chars", msg.len());
    assert!(msg.len() < 1000, "the message should quote an excerpt, got {} chars", msg.len());
}

#[test]
fn http_timeout_fails_with_kind_timeout_and_returns_promptly() {
    let server = Server::always(Reply::json(200, &json!({ "late": true })).delayed(6000));
    let graph = linear(json!({
        "id": "slow", "kind": "http", "url": "{{ state.base }}/slow", "timeout_ms": 300, "writes": "data"
    }));
    let out = run_graph(&graph, &json!({ "base": server.url() }), &[]);
    let msg = assert_failed(&out, "slow", "timeout");
    contains(&msg, "took longer than 300 ms");
    assert!(
        out.elapsed < Duration::from_millis(3000),
        "the CLI should give up after ~300 ms, not wait for the server's 6 s reply\n{}",
        out.describe()
    );
    assert_eq!(server.requests().len(), 1, "the request was sent");
}

#[test]
fn http_timeout_defaults_to_limits_node_timeout_ms() {
    let server = Server::always(Reply::json(200, &json!({ "late": true })).delayed(6000));
    let mut graph = linear(json!({ "id": "slow", "kind": "http", "url": "{{ state.base }}/slow", "writes": "data" }));
    graph["limits"] = json!({ "node_timeout_ms": 250 });
    let out = run_graph(&graph, &json!({ "base": server.url() }), &[]);
    let msg = assert_failed(&out, "slow", "timeout");
    contains(&msg, "took longer than 250 ms");
    assert!(out.elapsed < Duration::from_millis(3000), "{}", out.describe());
}

#[test]
fn http_retry_after_a_500_then_succeeds() {
    let server = Server::start(vec![Reply::text(500, "busy, try later"), Reply::json(200, &json!({ "ok": true }))]);
    let graph = linear(json!({
        "id": "fetch", "kind": "http", "url": "{{ state.base }}/flaky",
        "retry": { "attempts": 3, "backoff_ms": 60 },
        "writes": "data"
    }));
    let out = run_graph(&graph, &json!({ "base": server.url() }), &[]);
    out.assert_code(0);
    let rec = out.json();
    assert_eq!(rec["status"], "completed", "{}", out.describe());
    assert_eq!(rec["state"]["data"], json!({ "ok": true }));
    assert_eq!(rec["error"], Value::Null);
    let d = details(&rec, "fetch");
    assert_eq!(d["attempts"], 2, "{d:#}");
    assert_eq!(d["status"], 200, "{d:#}");
    let reqs = server.requests();
    assert_eq!(reqs.len(), 2, "the server saw the first try and one retry: {reqs:?}");
    assert!(reqs.iter().all(|r| r.path == "/flaky"));
    let gap = reqs[1].at.duration_since(reqs[0].at);
    assert!(gap >= Duration::from_millis(50), "the retry should wait backoff_ms (60 ms), waited {gap:?}");
}

#[test]
fn http_retry_gives_up_after_all_attempts() {
    let server = Server::always(Reply::text(503, "still down"));
    let graph = linear(json!({
        "id": "fetch", "kind": "http", "url": "{{ state.base }}/down",
        "retry": { "attempts": 3, "backoff_ms": 20 },
        "writes": "data"
    }));
    let out = run_graph(&graph, &json!({ "base": server.url() }), &[]);
    let msg = assert_failed(&out, "fetch", "http");
    contains(&msg, "answered HTTP 503");
    contains(&msg, "still down");
    contains(&msg, "after 3 attempts");
    assert_eq!(details(&out.json(), "fetch")["attempts"], 3);
    let reqs = server.requests();
    assert_eq!(reqs.len(), 3, "{reqs:?}");
    // Backoff doubles: 20 ms, then 40 ms.
    let total = reqs[2].at.duration_since(reqs[0].at);
    assert!(total >= Duration::from_millis(55), "backoff 20 + 40 ms, took {total:?}");
}

#[test]
fn http_connection_refused_fails_with_a_clear_message() {
    let port = closed_port();
    let url = format!("http://127.0.0.1:{port}/nothing-here");
    let graph = linear(json!({ "id": "fetch", "kind": "http", "url": url, "writes": "data" }));
    let out = run_graph(&graph, &json!({}), &[]);
    let msg = assert_failed(&out, "fetch", "http");
    contains(&msg, &format!("GET {url} failed:"));
    assert!(msg.to_lowercase().contains("refused"), "the reason should say the connection was refused: {msg}");
    assert!(out.elapsed < Duration::from_secs(10), "{}", out.describe());
}

#[test]
fn http_on_error_route_follows_the_error_edge() {
    let server = Server::always(Reply::text(503, "down for maintenance"));
    let graph = json!({
        "format": "switchyard/graph@1",
        "name": "route-on-error",
        "nodes": [
            { "id": "start", "kind": "start" },
            { "id": "fetch", "kind": "http", "url": "{{ state.base }}/data", "on_error": "route", "writes": "data" },
            { "id": "use", "kind": "set", "set": { "used": "true" } },
            { "id": "fallback", "kind": "set", "set": { "fallback": "errors.fetch" } },
            { "id": "end", "kind": "end" }
        ],
        "edges": [
            { "from": "start", "to": "fetch" },
            { "from": "fetch", "to": "use" },
            { "from": "fetch", "to": "fallback", "label": "error" },
            { "from": "use", "to": "end" },
            { "from": "fallback", "to": "end" }
        ]
    });
    let out = run_graph(&graph, &json!({ "base": server.url() }), &[]);
    out.assert_code(0);
    let rec = out.json();
    assert_eq!(rec["status"], "completed", "{}", out.describe());
    assert_eq!(rec["error"], Value::Null);
    let ran: Vec<Value> = rec["steps"].as_array().expect("steps").iter().map(|s| s["ran"].clone()).collect();
    assert_eq!(ran, vec![json!(["fetch"]), json!(["fallback"])]);
    assert!(rec["state"].get("used").is_none(), "the normal edge must not be followed: {rec:#}");
    assert!(rec["state"].get("data").is_none());
    let fallback = rec["state"]["fallback"].as_str().expect("fallback saw the error message");
    contains(fallback, "answered HTTP 503");
    contains(fallback, "down for maintenance");
    assert_eq!(rec["steps"][0]["errors"]["fetch"]["kind"], "http", "{rec:#}");
    contains(rec["errors"]["fetch"].as_str().unwrap_or_default(), "503");
}

#[test]
fn http_requests_of_one_step_run_at_the_same_time() {
    let server = Server::always(Reply::json(200, &json!({ "ok": 1 })).delayed(800));
    let graph = json!({
        "format": "switchyard/graph@1",
        "name": "fan-out",
        "nodes": [
            { "id": "start", "kind": "start" },
            { "id": "a", "kind": "http", "url": "{{ state.base }}/a", "writes": "a" },
            { "id": "b", "kind": "http", "url": "{{ state.base }}/b", "writes": "b" },
            { "id": "end", "kind": "end" }
        ],
        "edges": [
            { "from": "start", "to": "a" }, { "from": "start", "to": "b" },
            { "from": "a", "to": "end" }, { "from": "b", "to": "end" }
        ]
    });
    let out = run_graph(&graph, &json!({ "base": server.url() }), &[]);
    out.assert_code(0);
    let rec = out.json();
    assert_eq!(rec["state"]["a"], json!({ "ok": 1 }));
    assert_eq!(rec["state"]["b"], json!({ "ok": 1 }));
    assert_eq!(rec["steps"][0]["ran"], json!(["a", "b"]));
    assert_eq!(server.requests().len(), 2);
    assert!(
        out.elapsed < Duration::from_millis(1500),
        "two 800 ms requests in one step should overlap\n{}",
        out.describe()
    );
}

#[test]
fn pinned_http_node_makes_no_request() {
    let server = Server::always(Reply::json(200, &json!({ "live": true })));
    let graph = linear(json!({
        "id": "fetch", "kind": "http", "url": "{{ state.base }}/live", "writes": "data",
        "pinned": { "data": { "pinned": true } }
    }));
    let out = run_graph(&graph, &json!({ "base": server.url() }), &[]);
    out.assert_code(0);
    assert_eq!(out.json()["state"]["data"], json!({ "pinned": true }), "{}", out.describe());
    assert_eq!(server.requests().len(), 0, "a pinned node sends nothing");
}

// ---------------------------------------------------------------------------------------------
// llm, provider openai
// ---------------------------------------------------------------------------------------------

const KEY: &str = "sk-test-5e3c1a77-do-not-leak";

#[test]
fn openai_sends_system_and_user_messages_with_the_key_from_the_environment() {
    let server = Server::always(Reply::json(200, &completion("Bonjour")));
    let graph = linear(openai_node(
        &server,
        json!({
            "system": "You translate for {{ state.who }}.",
            "model": { "model": "gpt-test", "temperature": 0.2 }
        }),
    ));
    let graph_text = serde_json::to_string_pretty(&graph).expect("a graph serializes");
    assert!(!graph_text.contains(KEY), "the key is not in the document");
    let dir = tmp();
    let path = write(dir.path(), "graph.json", &graph_text);
    let input = json!({ "text": "cheese", "who": "Ada" }).to_string();
    // The test server is trusted with the key explicitly (README, Untrusted graphs in the editor).
    let trusted = server.url();
    let out = sy(
        &["run", &path, "--input", &input],
        &[("SWITCHYARD_OPENAI_API_KEY", KEY), ("SWITCHYARD_TRUSTED_ORIGINS", &trusted)],
    );
    out.assert_code(0);
    let rec = out.json();
    assert_eq!(rec["status"], "completed", "{}", out.describe());
    assert_eq!(rec["state"]["answer"], "Bonjour");

    let reqs = server.requests();
    assert_eq!(reqs.len(), 1, "{reqs:?}");
    let req = &reqs[0];
    assert_eq!(req.method, "POST");
    assert_eq!(req.path, "/v1/chat/completions");
    assert_eq!(req.header("authorization"), Some(format!("Bearer {KEY}").as_str()), "{req:?}");
    assert_eq!(req.header("content-type"), Some("application/json"), "{req:?}");
    assert_eq!(
        req.json(),
        json!({
            "model": "gpt-test",
            "messages": [
                { "role": "system", "content": "You translate for Ada." },
                { "role": "user", "content": "Translate to French: cheese" }
            ],
            "temperature": 0.2
        })
    );

    // The key never reaches the record (stdout), stderr, or the graph file.
    assert!(!out.stdout.contains(KEY), "the API key leaked into the record\n{}", out.describe());
    assert!(!out.stdout.contains("Bearer"), "the auth header leaked into the record\n{}", out.describe());
    assert!(!out.stderr.contains(KEY), "the API key leaked into stderr\n{}", out.describe());
    assert!(!std::fs::read_to_string(&path).expect("the graph file").contains(KEY));

    let d = details(&rec, "ask");
    assert_eq!(d["provider"], "openai", "{d:#}");
    assert_eq!(d["model"], "gpt-test", "{d:#}");
    assert_eq!(d["url"], format!("{}/v1/chat/completions", server.url()), "{d:#}");
    assert_eq!(d["prompt"], "Translate to French: cheese", "{d:#}");
    assert_eq!(d["system"], "You translate for Ada.", "{d:#}");
    assert_eq!(d["attempts"], 1, "{d:#}");
    assert_eq!(d["response"], "Bonjour", "{d:#}");
}

#[test]
fn openai_key_falls_back_to_openai_api_key_and_may_be_absent() {
    let server = Server::always(Reply::json(200, &completion("ok")));
    let graph = linear(openai_node(&server, json!({})));
    let input = json!({ "text": "x" });
    let trusted = server.url();
    let trusted = ("SWITCHYARD_TRUSTED_ORIGINS", trusted.as_str());

    // Only OPENAI_API_KEY: it is used.
    let out = run_graph(&graph, &input, &[("OPENAI_API_KEY", "sk-fallback"), trusted]);
    out.assert_code(0);
    // Both: SWITCHYARD_OPENAI_API_KEY wins.
    let out =
        run_graph(&graph, &input, &[("OPENAI_API_KEY", "sk-fallback"), ("SWITCHYARD_OPENAI_API_KEY", KEY), trusted]);
    out.assert_code(0);
    // Neither (a local server such as Ollama needs none): no Authorization header at all.
    let out = run_graph(&graph, &input, &[]);
    out.assert_code(0);

    let reqs = server.requests();
    assert_eq!(reqs.len(), 3);
    assert_eq!(reqs[0].header("authorization"), Some("Bearer sk-fallback"), "{:?}", reqs[0]);
    assert_eq!(reqs[1].header("authorization"), Some(format!("Bearer {KEY}").as_str()), "{:?}", reqs[1]);
    assert_eq!(reqs[2].header("authorization"), None, "{:?}", reqs[2]);
}

#[test]
fn openai_parse_json_reads_a_fenced_json_answer_with_default_model() {
    let server = Server::always(Reply::json(200, &completion("```json\n{\"label\": \"spam\", \"score\": 0.9}\n```")));
    let graph = linear(openai_node(
        &server,
        json!({ "id": "classify", "writes": "verdict", "parse": "json", "prompt": "Classify: {{ state.text }}" }),
    ));
    let out = run_graph(&graph, &json!({ "text": "WIN A PRIZE" }), &[("SWITCHYARD_OPENAI_API_KEY", KEY)]);
    out.assert_code(0);
    let rec = out.json();
    assert_eq!(rec["state"]["verdict"], json!({ "label": "spam", "score": 0.9 }), "{}", out.describe());
    let body = server.requests()[0].json();
    assert_eq!(body["model"], "gpt-4o-mini", "the default model: {body:#}");
    assert!(body.get("temperature").is_none(), "no temperature unless set: {body:#}");
    assert_eq!(body["messages"], json!([{ "role": "user", "content": "Classify: WIN A PRIZE" }]), "no system message");
    assert_eq!(details(&rec, "classify")["model"], "gpt-4o-mini");
}

#[test]
fn openai_parse_json_of_prose_fails_with_kind_llm() {
    let server = Server::always(Reply::json(200, &completion("Sure! The label is spam.")));
    let graph = linear(openai_node(&server, json!({ "id": "classify", "writes": "verdict", "parse": "json" })));
    let out = run_graph(&graph, &json!({ "text": "x" }), &[("SWITCHYARD_OPENAI_API_KEY", KEY)]);
    let msg = assert_failed(&out, "classify", "llm");
    contains(&msg, "not JSON");
    contains(&msg, "Sure! The label is spam.");
    assert!(out.json()["state"].get("verdict").is_none());
}

#[test]
fn openai_401_fails_the_run_and_does_not_leak_the_key() {
    let server = Server::always(Reply::json(
        401,
        &json!({ "error": { "message": "Incorrect API key provided", "type": "invalid_request_error" } }),
    ));
    let graph = linear(openai_node(&server, json!({})));
    let out = run_graph(&graph, &json!({ "text": "x" }), &[("SWITCHYARD_OPENAI_API_KEY", KEY)]);
    let msg = assert_failed(&out, "ask", "llm");
    contains(&msg, "answered HTTP 401");
    contains(&msg, "Incorrect API key provided");
    assert!(!out.stdout.contains(KEY), "{}", out.describe());
    assert!(!out.stderr.contains(KEY), "{}", out.describe());
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn openai_reply_without_choices_fails_with_kind_llm() {
    let server = Server::always(Reply::json(200, &json!({ "object": "error", "detail": "model overloaded" })));
    let graph = linear(openai_node(&server, json!({})));
    let out = run_graph(&graph, &json!({ "text": "x" }), &[("SWITCHYARD_OPENAI_API_KEY", KEY)]);
    let msg = assert_failed(&out, "ask", "llm");
    contains(&msg, "choices");
    contains(&msg, "model overloaded");
}

#[test]
fn openai_reply_that_is_not_json_fails_with_kind_llm() {
    let server = Server::always(Reply::text(200, "<html>gateway</html>"));
    let graph = linear(openai_node(&server, json!({})));
    let out = run_graph(&graph, &json!({ "text": "x" }), &[]);
    let msg = assert_failed(&out, "ask", "llm");
    contains(&msg, "choices");
    contains(&msg, "<html>gateway</html>");
}

#[test]
fn openai_timeout_fails_with_kind_timeout() {
    let server = Server::always(Reply::json(200, &completion("late")).delayed(6000));
    let graph = linear(openai_node(&server, json!({ "timeout_ms": 300 })));
    let out = run_graph(&graph, &json!({ "text": "x" }), &[]);
    let msg = assert_failed(&out, "ask", "timeout");
    contains(&msg, "took longer than 300 ms");
    assert!(out.elapsed < Duration::from_millis(3000), "{}", out.describe());
}

#[test]
fn openai_retry_after_a_429_then_succeeds() {
    let server = Server::start(vec![
        Reply::json(429, &json!({ "error": { "message": "rate limited" } })),
        Reply::json(200, &completion("second time lucky")),
    ]);
    let graph = linear(openai_node(&server, json!({ "retry": { "attempts": 2, "backoff_ms": 10 } })));
    let trusted = server.url();
    let out = run_graph(
        &graph,
        &json!({ "text": "x" }),
        &[("SWITCHYARD_OPENAI_API_KEY", KEY), ("SWITCHYARD_TRUSTED_ORIGINS", &trusted)],
    );
    out.assert_code(0);
    let rec = out.json();
    assert_eq!(rec["state"]["answer"], "second time lucky", "{}", out.describe());
    assert_eq!(details(&rec, "ask")["attempts"], 2);
    let reqs = server.requests();
    assert_eq!(reqs.len(), 2);
    assert!(reqs.iter().all(|r| r.header("authorization") == Some(format!("Bearer {KEY}").as_str())));
}

// ---------------------------------------------------------------------------------------------
// subgraph
// ---------------------------------------------------------------------------------------------

#[test]
fn subgraph_with_an_http_node_keeps_the_child_record_in_details() {
    let server = Server::always(Reply::json(200, &json!({ "temp": 21 })));
    let child = json!({
        "format": "switchyard/graph@1",
        "name": "weather",
        "nodes": [
            { "id": "start", "kind": "start", "required": ["city"] },
            { "id": "get", "kind": "http", "url": "{{ state.base }}/weather/{{ state.city }}", "writes": "reading" },
            { "id": "end", "kind": "end" }
        ],
        "edges": [ { "from": "start", "to": "get" }, { "from": "get", "to": "end" } ]
    });
    let graph = linear(json!({
        "id": "sub", "kind": "subgraph", "graph": child,
        "inputs": { "city": "state.city", "base": "state.base" },
        "outputs": { "temperature": "result.reading.temp" }
    }));
    let out = run_graph(&graph, &json!({ "base": server.url(), "city": "Oslo" }), &[]);
    out.assert_code(0);
    let rec = out.json();
    assert_eq!(rec["state"], json!({ "base": server.url(), "city": "Oslo", "temperature": 21 }), "{}", out.describe());
    assert_eq!(server.requests()[0].path, "/weather/Oslo");
    let inner = &details(&rec, "sub")["subgraph"];
    assert_eq!(inner["format"], "switchyard/run@1", "{inner:#}");
    assert_eq!(inner["status"], "completed", "{inner:#}");
    assert_eq!(inner["state"]["reading"], json!({ "temp": 21 }));
    assert_eq!(inner["steps"][0]["details"]["get"]["status"], 200, "{inner:#}");
}

#[test]
fn subgraph_whose_http_node_fails_fails_the_parent_node_with_the_childs_kind() {
    let server = Server::always(Reply::text(500, "exploded"));
    let child = json!({
        "format": "switchyard/graph@1",
        "nodes": [
            { "id": "start", "kind": "start" },
            { "id": "get", "kind": "http", "url": "{{ state.base }}/x", "writes": "reading" },
            { "id": "end", "kind": "end" }
        ],
        "edges": [ { "from": "start", "to": "get" }, { "from": "get", "to": "end" } ]
    });
    let graph = linear(json!({
        "id": "sub", "kind": "subgraph", "graph": child,
        "inputs": { "base": "state.base" }, "outputs": { "r": "result.reading" }
    }));
    let out = run_graph(&graph, &json!({ "base": server.url() }), &[]);
    let msg = assert_failed(&out, "sub", "http");
    contains(&msg, "answered HTTP 500");
    contains(&msg, "exploded");
}

#[test]
fn subgraph_human_waits_in_the_parent_and_resume_answers_it() {
    let child = json!({
        "format": "switchyard/graph@1",
        "name": "review",
        "nodes": [
            { "id": "start", "kind": "start" },
            { "id": "draft", "kind": "set", "set": { "draft": "\"Draft on \" + state.topic" } },
            { "id": "review", "kind": "human", "prompt": "Publish {{ state.draft }}?", "writes": "decision",
              "options": ["approve", "reject"] },
            { "id": "publish", "kind": "set", "set": { "published": "state.draft + \" (published)\"" } },
            { "id": "end", "kind": "end" }
        ],
        "edges": [
            { "from": "start", "to": "draft" }, { "from": "draft", "to": "review" },
            { "from": "review", "to": "publish", "label": "approve" },
            { "from": "review", "to": "end", "label": "reject" },
            { "from": "publish", "to": "end" }
        ]
    });
    let graph = json!({
        "format": "switchyard/graph@1",
        "name": "parent",
        "nodes": [
            { "id": "start", "kind": "start" },
            { "id": "sub", "kind": "subgraph", "graph": child, "inputs": { "topic": "state.topic" },
              "outputs": { "decision": "result.decision", "text": "result.published" } },
            { "id": "after", "kind": "set", "set": { "finished": "true" } },
            { "id": "end", "kind": "end" }
        ],
        "edges": [ { "from": "start", "to": "sub" }, { "from": "sub", "to": "after" }, { "from": "after", "to": "end" } ]
    });
    let dir = tmp();
    let graph_path = write(dir.path(), "graph.json", &graph.to_string());
    let out = sy(&["run", &graph_path, "--input", r#"{"topic": "cats"}"#], &[]);
    out.assert_code(3);
    let rec = out.json();
    assert_eq!(rec["status"], "interrupted", "{}", out.describe());
    assert_eq!(
        rec["waiting"],
        json!([{ "node": "sub", "prompt": "Publish Draft on cats?", "options": ["approve", "reject"] }])
    );
    assert_eq!(rec["next"], json!(["sub"]));
    let run_path = write(dir.path(), "RUN.json", &out.stdout);

    let resumed = sy(&["resume", &run_path, "--graph", &graph_path, "--answer", r#"{"sub": "approve"}"#], &[]);
    resumed.assert_code(0);
    let rec = resumed.json();
    assert_eq!(rec["status"], "completed", "{}", resumed.describe());
    assert_eq!(
        rec["state"],
        json!({ "topic": "cats", "decision": "approve", "text": "Draft on cats (published)", "finished": true })
    );
    // RUN.json is untouched.
    assert_eq!(std::fs::read_to_string(&run_path).expect("RUN.json"), out.stdout);

    // An answer the child's human node does not offer is refused as bad input.
    let bad = sy(&["resume", &run_path, "--graph", &graph_path, "--answer", r#"{"sub": "maybe"}"#], &[]);
    assert_eq!(bad.code, 2, "an answer that is not one of the options is bad input\n{}", bad.describe());
}

#[test]
fn subgraph_with_a_human_two_levels_down_resumes_through_the_cli() {
    let inner = json!({
        "format": "switchyard/graph@1",
        "nodes": [
            { "id": "start", "kind": "start" },
            { "id": "ask", "kind": "human", "prompt": "Q: {{ state.q }}", "writes": "a" },
            { "id": "end", "kind": "end" }
        ],
        "edges": [ { "from": "start", "to": "ask" }, { "from": "ask", "to": "end" } ]
    });
    let middle = json!({
        "format": "switchyard/graph@1",
        "nodes": [
            { "id": "start", "kind": "start" },
            { "id": "inner", "kind": "subgraph", "graph": inner, "inputs": { "q": "state.q + \"?\"" },
              "outputs": { "answer": "result.a + \"!\"" } },
            { "id": "end", "kind": "end" }
        ],
        "edges": [ { "from": "start", "to": "inner" }, { "from": "inner", "to": "end" } ]
    });
    let graph = linear(json!({
        "id": "outer", "kind": "subgraph", "graph": middle, "inputs": { "q": "state.q" },
        "outputs": { "answer": "result.answer" }
    }));
    let dir = tmp();
    let graph_path = write(dir.path(), "graph.json", &graph.to_string());
    let out = sy(&["run", &graph_path, "--input", r#"{"q": "why"}"#], &[]);
    out.assert_code(3);
    assert_eq!(out.json()["waiting"], json!([{ "node": "outer", "prompt": "Q: why?" }]), "{}", out.describe());
    let run_path = write(dir.path(), "RUN.json", &out.stdout);
    let resumed = sy(&["resume", &run_path, "--graph", &graph_path, "--answer", r#"{"outer": "because"}"#], &[]);
    resumed.assert_code(0);
    assert_eq!(resumed.json()["state"], json!({ "q": "why", "answer": "because!" }), "{}", resumed.describe());
}

// ---------------------------------------------------------------------------------------------
// Time limits and retries beyond a single request
// ---------------------------------------------------------------------------------------------

#[test]
fn http_retry_after_a_timeout_then_succeeds() {
    let server = Server::start(vec![
        Reply::json(200, &json!({ "late": true })).delayed(5000),
        Reply::json(200, &json!({ "fast": true })),
    ]);
    let graph = linear(json!({
        "id": "fetch", "kind": "http", "url": "{{ state.base }}/x", "timeout_ms": 300,
        "retry": { "attempts": 2, "backoff_ms": 10 }, "writes": "data"
    }));
    let out = run_graph(&graph, &json!({ "base": server.url() }), &[]);
    out.assert_code(0);
    let rec = out.json();
    assert_eq!(rec["state"]["data"], json!({ "fast": true }), "{}", out.describe());
    assert_eq!(details(&rec, "fetch")["attempts"], 2);
    assert_eq!(server.requests().len(), 2);
    assert!(out.elapsed < Duration::from_millis(3000), "{}", out.describe());
}

/// format.md §10: the run stops, failed, when the run timeout passes. A request still in flight
/// must not hold the run past `run_timeout_ms` (here 500 ms against a 4 s reply, with the
/// node's own timeout left at its 180 s default).
#[test]
fn run_timeout_ms_bounds_a_slow_request() {
    let server = Server::always(Reply::json(200, &json!({ "late": true })).delayed(4000));
    let mut graph = linear(json!({ "id": "slow", "kind": "http", "url": "{{ state.base }}/slow", "writes": "data" }));
    graph["limits"] = json!({ "run_timeout_ms": 500 });
    let out = run_graph(&graph, &json!({ "base": server.url() }), &[]);
    out.assert_code(1);
    let rec = out.json();
    assert_eq!(rec["status"], "failed", "{}", out.describe());
    assert_eq!(rec["error"]["kind"], "timeout", "{}", out.describe());
    assert!(out.elapsed < Duration::from_millis(2500), "the run should stop near 500 ms\n{}", out.describe());
}

/// format.md §4: `timeout_ms` is a common field for effectful nodes, and a subgraph is one (the
/// validator accepts it there without a warning). It should bound the embedded run.
#[test]
fn subgraph_timeout_ms_bounds_the_embedded_run() {
    let server = Server::always(Reply::json(200, &json!({ "late": true })).delayed(4000));
    let child = json!({
        "format": "switchyard/graph@1",
        "nodes": [
            { "id": "start", "kind": "start" },
            { "id": "slow", "kind": "http", "url": "{{ state.base }}/slow", "writes": "data" },
            { "id": "end", "kind": "end" }
        ],
        "edges": [ { "from": "start", "to": "slow" }, { "from": "slow", "to": "end" } ]
    });
    let graph = linear(json!({
        "id": "sub", "kind": "subgraph", "graph": child, "timeout_ms": 300,
        "inputs": { "base": "state.base" }, "outputs": { "data": "result.data" }
    }));
    let dir = tmp();
    let path = write(dir.path(), "graph.json", &graph.to_string());
    let validate = sy(&["validate", &path], &[]);
    assert_eq!(validate.stdout.trim(), "", "timeout_ms is accepted on a subgraph\n{}", validate.describe());
    let out = sy(&["run", &path, "--input", &json!({ "base": server.url() }).to_string()], &[]);
    let msg = assert_failed(&out, "sub", "timeout");
    contains(&msg, "300 ms");
    assert!(out.elapsed < Duration::from_millis(2500), "{}", out.describe());
}

/// format.md §4; format.md §10: `retry` re-runs an effectful node, and the validator names subgraph among the
/// kinds that retry. A subgraph whose child fails should be run again, `attempts` times in all.
#[test]
fn subgraph_retry_reruns_the_embedded_graph() {
    let server = Server::start(vec![Reply::text(500, "first try fails"), Reply::json(200, &json!({ "ok": true }))]);
    let child = json!({
        "format": "switchyard/graph@1",
        "nodes": [
            { "id": "start", "kind": "start" },
            { "id": "get", "kind": "http", "url": "{{ state.base }}/x", "writes": "data" },
            { "id": "end", "kind": "end" }
        ],
        "edges": [ { "from": "start", "to": "get" }, { "from": "get", "to": "end" } ]
    });
    let graph = linear(json!({
        "id": "sub", "kind": "subgraph", "graph": child, "retry": { "attempts": 3, "backoff_ms": 10 },
        "inputs": { "base": "state.base" }, "outputs": { "data": "result.data" }
    }));
    let dir = tmp();
    let path = write(dir.path(), "graph.json", &graph.to_string());
    let validate = sy(&["validate", &path], &[]);
    assert_eq!(validate.stdout.trim(), "", "retry is accepted on a subgraph\n{}", validate.describe());
    let out = sy(&["run", &path, "--input", &json!({ "base": server.url() }).to_string()], &[]);
    assert_eq!(server.requests().len(), 2, "the child should run again after failing\n{}", out.describe());
    out.assert_code(0);
    assert_eq!(out.json()["state"]["data"], json!({ "ok": true }), "{}", out.describe());
}
