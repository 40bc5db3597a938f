//! Agent workflows through the real `switchyard` binary (format.md §4 (llm, tools) and §8): a model that calls tools
//! and a tools node that runs them, structured output, token usage, retries after a 429 with
//! `Retry-After`, and keys bound to origins, against local fake servers speaking the
//! OpenAI-compatible chat-completions API and Anthropic's Messages API (`support/mod.rs`).

mod support;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::{Reply, SCRUBBED_ENV, Server};

const OPENAI_KEY: &str = "sk-openai-7f1e-do-not-leak";
const ANTHROPIC_KEY: &str = "sk-ant-91c4-do-not-leak";

/// What one run of the binary printed.
struct Out {
    code: i32,
    stdout: String,
    stderr: String,
    elapsed: Duration,
}

impl Out {
    fn describe(&self) -> String {
        format!(
            "exit code {} after {:?}\n--- stdout ---\n{}\n--- stderr ---\n{}",
            self.code, self.elapsed, self.stdout, self.stderr
        )
    }

    fn record(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| panic!("stdout is not JSON ({e})\n{}", self.describe()))
    }

    /// The record of a run that completed (exit 0).
    fn completed(&self) -> Value {
        assert_eq!(self.code, 0, "{}", self.describe());
        let rec = self.record();
        assert_eq!(rec["status"], "completed", "{}", self.describe());
        rec
    }

    /// Neither key appears anywhere the run wrote.
    fn assert_no_keys(&self) {
        for key in [OPENAI_KEY, ANTHROPIC_KEY] {
            assert!(!self.stdout.contains(key), "a key leaked into the record\n{}", self.describe());
            assert!(!self.stderr.contains(key), "a key leaked into stderr\n{}", self.describe());
        }
    }
}

/// Runs `graph` with `input` and the environment `env` (nothing else inherited that matters).
fn run(graph: &Value, input: &Value, env: &[(&str, &str)]) -> Out {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("graph.json");
    std::fs::write(&path, serde_json::to_string_pretty(graph).expect("a graph serializes")).expect("write the graph");
    run_file(&path, input, env)
}

fn run_file(path: &Path, input: &Value, env: &[(&str, &str)]) -> Out {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_switchyard"));
    cmd.arg("run").arg(path).arg("--input").arg(input.to_string());
    for var in SCRUBBED_ENV {
        cmd.env_remove(var);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let t0 = Instant::now();
    let out = cmd.output().expect("the switchyard binary runs");
    let out = Out {
        code: out.status.code().expect("the binary exits"),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        elapsed: t0.elapsed(),
    };
    assert!(!out.stderr.contains("panicked"), "{}", out.describe());
    out
}

/// A graph-level tool that adds two numbers.
fn add_tool() -> Value {
    json!({ "add": {
        "description": "Adds two numbers.",
        "parameters": { "type": "object", "properties": { "a": { "type": "number" }, "b": { "type": "number" } },
                        "required": ["a", "b"] },
        "run": { "script": "args.a + args.b" }
    }})
}

/// `agent (llm with the add tool) <-> tools`, the model as given.
fn agent_graph(model: Value) -> Value {
    json!({
        "format": "switchyard/graph@1",
        "name": "adder",
        "state": { "messages": { "type": "messages" } },
        "tools": add_tool(),
        "nodes": [
            { "id": "start", "kind": "start" },
            { "id": "agent", "kind": "llm", "system": "You add numbers.", "messages": "state.messages",
              "tools": ["add"], "writes": "messages", "model": model },
            { "id": "tools", "kind": "tools", "messages": "messages" },
            { "id": "end", "kind": "end" }
        ],
        "edges": [
            { "from": "start", "to": "agent" },
            { "from": "agent", "to": "tools", "when": "has_tool_calls(state.messages)" },
            { "from": "agent", "to": "end", "when": "!has_tool_calls(state.messages)" },
            { "from": "tools", "to": "agent" }
        ]
    })
}

/// `start -> extract -> end`, an llm node with an output schema.
fn extract_graph(model: Value) -> Value {
    json!({
        "format": "switchyard/graph@1",
        "state": { "weather": { "type": "object" } },
        "nodes": [
            { "id": "start", "kind": "start" },
            { "id": "extract", "kind": "llm", "prompt": "Oslo: {{ state.report }}", "writes": "weather",
              "output_schema": weather_schema(), "model": model },
            { "id": "end", "kind": "end" }
        ],
        "edges": [ { "from": "start", "to": "extract" }, { "from": "extract", "to": "end" } ]
    })
}

fn weather_schema() -> Value {
    json!({ "type": "object", "properties": { "city": { "type": "string" }, "temp": { "type": "integer" } },
            "required": ["city", "temp"] })
}

/// The transcript every round trip ends with: question, tool call, tool result, answer.
fn assert_round_trip(rec: &Value, call_id: &str) {
    let m = rec["state"]["messages"].as_array().unwrap_or_else(|| panic!("no transcript: {rec:#}"));
    assert_eq!(m.len(), 4, "{rec:#}");
    assert_eq!(m[0], json!({ "id": "input:0:1", "role": "user", "content": "What is 2 + 3?" }));
    assert_eq!(m[1]["role"], "assistant");
    assert_eq!(m[1]["tool_calls"], json!([{ "id": call_id, "name": "add", "arguments": { "a": 2, "b": 3 } }]));
    assert_eq!(
        m[2],
        json!({ "id": "tools:2:1", "role": "tool", "tool_call_id": call_id, "name": "add", "content": "5" })
    );
    assert_eq!(m[3], json!({ "id": "agent:3:1", "role": "assistant", "content": "2 + 3 = 5" }));
    let ran: Vec<&Value> = rec["steps"].as_array().expect("steps").iter().map(|s| &s["ran"]).collect();
    assert_eq!(ran, [&json!(["agent"]), &json!(["tools"]), &json!(["agent"])]);
}

// ---------------------------------------------------------------------------------------------
// OpenAI-compatible
// ---------------------------------------------------------------------------------------------

fn openai_tool_call() -> Value {
    json!({ "id": "chatcmpl-1", "object": "chat.completion", "choices": [{ "index": 0, "finish_reason": "tool_calls",
        "message": { "role": "assistant", "content": null, "tool_calls": [
            { "id": "call_abc", "type": "function", "function": { "name": "add", "arguments": "{\"a\":2,\"b\":3}" } }] } }],
        "usage": { "prompt_tokens": 50, "completion_tokens": 10, "total_tokens": 60 } })
}

fn openai_text(text: &str, prompt_tokens: u64, completion_tokens: u64) -> Value {
    json!({ "choices": [{ "index": 0, "message": { "role": "assistant", "content": text }, "finish_reason": "stop" }],
            "usage": { "prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens } })
}

#[test]
fn openai_agent_calls_a_tool_and_answers_from_its_result_with_usage_summed() {
    let server =
        Server::start(vec![Reply::json(200, &openai_tool_call()), Reply::json(200, &openai_text("2 + 3 = 5", 70, 8))]);
    let graph =
        agent_graph(json!({ "provider": "openai", "model": "gpt-test", "base_url": format!("{}/v1", server.url()) }));
    let trusted = server.url();
    let out = run(
        &graph,
        &json!({ "messages": "What is 2 + 3?" }),
        &[
            ("OPENAI_API_KEY", OPENAI_KEY),
            ("ANTHROPIC_API_KEY", ANTHROPIC_KEY),
            ("SWITCHYARD_TRUSTED_ORIGINS", &trusted),
        ],
    );
    let rec = out.completed();
    out.assert_no_keys();
    assert_round_trip(&rec, "call_abc");
    assert_eq!(rec["usage"], json!({ "input_tokens": 120, "output_tokens": 18 }), "{rec:#}");
    assert_eq!(rec["steps"][0]["details"]["agent"]["usage"], json!({ "input_tokens": 50, "output_tokens": 10 }));
    assert_eq!(rec["steps"][1]["details"]["tools"]["calls"][0]["result"], 5);

    let reqs = server.requests();
    assert_eq!(reqs.len(), 2, "{reqs:?}");
    assert!(reqs.iter().all(|r| r.path == "/v1/chat/completions"));
    assert!(reqs.iter().all(|r| r.header("authorization") == Some(format!("Bearer {OPENAI_KEY}").as_str())));
    assert!(reqs.iter().all(|r| r.header("x-api-key").is_none()), "the Anthropic key is not sent to OpenAI");
    let first = reqs[0].json();
    assert_eq!(
        first["tools"],
        json!([{ "type": "function", "function": {
            "name": "add", "description": "Adds two numbers.", "parameters": add_tool()["add"]["parameters"] } }])
    );
    assert_eq!(
        first["messages"],
        json!([{ "role": "system", "content": "You add numbers." }, { "role": "user", "content": "What is 2 + 3?" }])
    );
    let second = reqs[1].json();
    assert_eq!(
        second["messages"][2]["tool_calls"][0]["function"],
        json!({ "name": "add", "arguments": "{\"a\":2,\"b\":3}" })
    );
    assert_eq!(second["messages"][3], json!({ "role": "tool", "tool_call_id": "call_abc", "content": "5" }));
}

#[test]
fn openai_structured_output_asks_for_the_schema_and_writes_the_parsed_reply() {
    let server = Server::always(Reply::json(200, &openai_text("{\"city\": \"Oslo\", \"temp\": 7}", 30, 9)));
    let graph = extract_graph(json!({ "provider": "openai", "base_url": format!("{}/v1", server.url()) }));
    let out = run(&graph, &json!({ "report": "rain, 7 degrees" }), &[]);
    let rec = out.completed();
    assert_eq!(rec["state"]["weather"], json!({ "city": "Oslo", "temp": 7 }));
    assert_eq!(rec["usage"], json!({ "input_tokens": 30, "output_tokens": 9 }));
    let body = server.requests()[0].json();
    assert_eq!(
        body["response_format"],
        json!({ "type": "json_schema", "json_schema": { "name": "extract", "schema": weather_schema() } })
    );
}

#[test]
fn openai_structured_output_that_does_not_match_names_the_path() {
    let server = Server::always(Reply::json(200, &openai_text("{\"city\": \"Oslo\", \"temp\": \"seven\"}", 30, 9)));
    let graph = extract_graph(json!({ "provider": "openai", "base_url": format!("{}/v1", server.url()) }));
    let out = run(&graph, &json!({ "report": "x" }), &[]);
    assert_eq!(out.code, 1, "{}", out.describe());
    let rec = out.record();
    assert_eq!(rec["error"]["kind"], "llm", "{rec:#}");
    let message = rec["error"]["message"].as_str().expect("a message");
    assert!(message.contains("does not match output_schema at $.temp"), "{message}");
    assert_eq!(rec["state"]["weather"], json!({}), "nothing written");
    assert_eq!(rec["usage"]["input_tokens"], 30, "the failed call's tokens still count");
}

// ---------------------------------------------------------------------------------------------
// Anthropic
// ---------------------------------------------------------------------------------------------

fn anthropic_tool_use() -> Value {
    json!({ "id": "msg_1", "type": "message", "role": "assistant", "stop_reason": "tool_use",
        "content": [ { "type": "text", "text": "Let me add." },
                     { "type": "tool_use", "id": "toolu_1", "name": "add", "input": { "a": 2, "b": 3 } } ],
        "usage": { "input_tokens": 40, "output_tokens": 12 } })
}

fn anthropic_text(text: &str) -> Value {
    json!({ "id": "msg_2", "type": "message", "role": "assistant", "stop_reason": "end_turn",
            "content": [ { "type": "text", "text": text } ], "usage": { "input_tokens": 70, "output_tokens": 9 } })
}

#[test]
fn anthropic_agent_round_trip_uses_tool_use_and_tool_result_blocks() {
    let server =
        Server::start(vec![Reply::json(200, &anthropic_tool_use()), Reply::json(200, &anthropic_text("2 + 3 = 5"))]);
    let graph = agent_graph(json!({ "provider": "anthropic", "model": "claude-test", "base_url": server.url() }));
    let trusted = server.url();
    let out = run(
        &graph,
        &json!({ "messages": "What is 2 + 3?" }),
        &[
            ("ANTHROPIC_API_KEY", ANTHROPIC_KEY),
            ("OPENAI_API_KEY", OPENAI_KEY),
            ("SWITCHYARD_TRUSTED_ORIGINS", &trusted),
        ],
    );
    let rec = out.completed();
    out.assert_no_keys();
    assert_round_trip(&rec, "toolu_1");
    assert_eq!(rec["state"]["messages"][1]["content"], "Let me add.");
    assert_eq!(rec["usage"], json!({ "input_tokens": 110, "output_tokens": 21 }), "{rec:#}");

    let reqs = server.requests();
    assert_eq!(reqs.len(), 2, "{reqs:?}");
    for r in &reqs {
        assert_eq!(r.method, "POST");
        assert_eq!(r.path, "/v1/messages");
        assert_eq!(r.header("x-api-key"), Some(ANTHROPIC_KEY), "{r:?}");
        assert_eq!(r.header("authorization"), None, "no bearer token: {r:?}");
        assert_eq!(r.header("anthropic-version"), Some("2023-06-01"), "{r:?}");
    }
    let first = reqs[0].json();
    assert_eq!(first["system"], "You add numbers.");
    assert_eq!(first["max_tokens"], 1024);
    assert_eq!(first["model"], "claude-test");
    assert_eq!(
        first["tools"],
        json!([{ "name": "add", "description": "Adds two numbers.", "input_schema": add_tool()["add"]["parameters"] }])
    );
    assert_eq!(
        first["messages"],
        json!([{ "role": "user", "content": [{ "type": "text", "text": "What is 2 + 3?" }] }])
    );
    let second = reqs[1].json();
    assert_eq!(
        second["messages"][1],
        json!({ "role": "assistant", "content": [
            { "type": "text", "text": "Let me add." },
            { "type": "tool_use", "id": "toolu_1", "name": "add", "input": { "a": 2, "b": 3 } }] })
    );
    assert_eq!(
        second["messages"][2],
        json!({ "role": "user", "content": [{ "type": "tool_result", "tool_use_id": "toolu_1", "content": "5" }] })
    );
}

#[test]
fn anthropic_structured_output_goes_through_one_forced_tool() {
    let reply = json!({ "type": "message", "content": [
        { "type": "tool_use", "id": "toolu_5", "name": "structured_output", "input": { "city": "Oslo", "temp": 7 } }],
        "usage": { "input_tokens": 25, "output_tokens": 15 } });
    let server = Server::always(Reply::json(200, &reply));
    let graph = extract_graph(json!({ "provider": "anthropic", "base_url": server.url(), "max_tokens": 256 }));
    let out = run(&graph, &json!({ "report": "rain, 7 degrees" }), &[]);
    let rec = out.completed();
    assert_eq!(rec["state"]["weather"], json!({ "city": "Oslo", "temp": 7 }));
    assert_eq!(rec["usage"], json!({ "input_tokens": 25, "output_tokens": 15 }));
    let body = server.requests()[0].json();
    assert_eq!(body["max_tokens"], 256);
    assert_eq!(body["tool_choice"], json!({ "type": "tool", "name": "structured_output" }));
    assert_eq!(body["tools"][0]["input_schema"], weather_schema());
}

#[test]
fn anthropic_429_with_retry_after_waits_as_asked_then_succeeds() {
    let server = Server::start(vec![
        Reply::json(429, &json!({ "type": "error", "error": { "type": "rate_limit_error", "message": "slow down" } }))
            .with_header("retry-after", "1"),
        Reply::json(200, &anthropic_text("Bonjour")),
    ]);
    let mut graph = extract_graph(json!({ "provider": "anthropic", "base_url": server.url() }));
    // A plain text answer: no schema.
    graph["state"] = json!({ "weather": { "type": "string" } });
    graph["nodes"][1].as_object_mut().expect("a node").remove("output_schema");
    // The backoff alone (10 minutes) would outlive the run: only Retry-After lets it retry.
    graph["nodes"][1]["retry"] = json!({ "attempts": 2, "backoff_ms": 600000 });
    graph["limits"] = json!({ "run_timeout_ms": 60000 });
    let out = run(&graph, &json!({ "report": "x" }), &[]);
    let rec = out.completed();
    assert_eq!(rec["state"]["weather"], "Bonjour");
    assert_eq!(rec["steps"][0]["details"]["extract"]["attempts"], 2);
    let reqs = server.requests();
    assert_eq!(reqs.len(), 2);
    let waited = reqs[1].at.duration_since(reqs[0].at);
    assert!(waited >= Duration::from_millis(950), "retried after {waited:?}, before the second Retry-After asked for");
    assert!(out.elapsed < Duration::from_secs(20), "{}", out.describe());
}

#[test]
fn anthropic_5xx_fails_with_the_status_and_an_excerpt() {
    let server = Server::always(Reply::json(529, &json!({ "type": "error", "error": { "message": "Overloaded" } })));
    let mut graph = extract_graph(json!({ "provider": "anthropic", "base_url": server.url() }));
    graph["nodes"][1].as_object_mut().expect("a node").remove("output_schema");
    let out = run(&graph, &json!({ "report": "x" }), &[]);
    assert_eq!(out.code, 1, "{}", out.describe());
    let rec = out.record();
    assert_eq!(rec["error"]["kind"], "llm");
    let message = rec["error"]["message"].as_str().expect("a message");
    assert!(message.contains("answered HTTP 529") && message.contains("Overloaded"), "{message}");
}

// ---------------------------------------------------------------------------------------------
// Keys bound to origins
// ---------------------------------------------------------------------------------------------

#[test]
fn the_anthropic_key_goes_only_to_a_trusted_origin() {
    let server = Server::always(Reply::json(200, &anthropic_text("hi")));
    let mut graph = extract_graph(json!({ "provider": "anthropic", "base_url": server.url() }));
    graph["state"] = json!({ "weather": { "type": "string" } });
    graph["nodes"][1].as_object_mut().expect("a node").remove("output_schema");

    // Not trusted: the request goes without the key, and the details say why.
    let out = run(&graph, &json!({ "report": "x" }), &[("ANTHROPIC_API_KEY", ANTHROPIC_KEY)]);
    let rec = out.completed();
    out.assert_no_keys();
    let auth = rec["steps"][0]["details"]["extract"]["auth"].as_str().unwrap_or_default().to_string();
    assert!(auth.starts_with("no key sent:") && auth.contains("Anthropic key"), "{auth}");

    // Trusted: the key goes, as x-api-key.
    let trusted = server.url();
    let out = run(
        &graph,
        &json!({ "report": "x" }),
        &[("ANTHROPIC_API_KEY", ANTHROPIC_KEY), ("SWITCHYARD_TRUSTED_ORIGINS", &trusted)],
    );
    out.completed();
    out.assert_no_keys();

    let reqs = server.requests();
    assert_eq!(reqs.len(), 2);
    assert_eq!(reqs[0].header("x-api-key"), None, "{:?}", reqs[0]);
    assert_eq!(reqs[1].header("x-api-key"), Some(ANTHROPIC_KEY), "{:?}", reqs[1]);
    assert!(reqs.iter().all(|r| r.header("authorization").is_none()));
}

#[test]
fn a_server_echoing_the_key_does_not_put_it_in_the_record() {
    let echo =
        json!({ "type": "message", "content": [{ "type": "text", "text": format!("your key is {ANTHROPIC_KEY}") }] });
    let server = Server::always(Reply::json(200, &echo));
    let mut graph = extract_graph(json!({ "provider": "anthropic", "base_url": server.url() }));
    graph["state"] = json!({ "weather": { "type": "string" } });
    graph["nodes"][1].as_object_mut().expect("a node").remove("output_schema");
    let trusted = server.url();
    let out = run(
        &graph,
        &json!({ "report": "x" }),
        &[("ANTHROPIC_API_KEY", ANTHROPIC_KEY), ("SWITCHYARD_TRUSTED_ORIGINS", &trusted)],
    );
    out.completed();
    out.assert_no_keys();
}
