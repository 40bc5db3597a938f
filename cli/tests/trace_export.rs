//! Runs sent as OpenTelemetry traces by the real `switchyard` binary (README, "See runs in
//! Phoenix, Langfuse or Jaeger"; docs/cli.md `trace`), received by a local OTLP/HTTP receiver
//! that decodes the protobuf (`switchyard_otel::receiver`): the template tool agent with its
//! model served by a local OpenAI-compatible server gives a tree of steps, nodes, `chat`
//! spans with token counts and `execute_tool` spans, and no key; `switchyard trace` sends a
//! saved record with its recorded times; a collector that is down, failing or hanging leaves
//! the record and exit code as they were, with one warning and a bounded wait.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use engine::trace::{AttrValue, SpanKind};
use serde_json::{Value, json};
use support::{Reply, SCRUBBED_ENV, Server, closed_port};
use switchyard_otel::receiver::{Behaviour, ReceivedSpan, Receiver};

const OPENAI_KEY: &str = "sk-openai-5d2a-do-not-leak";
const QUESTION: &str = "What should I pack for Oslo?";
const WAIT: Duration = Duration::from_secs(30);
/// Every variable the exporter reads: none leaks in from the machine running the tests.
const OTEL_VARS: [&str; 14] = [
    "OTEL_SDK_DISABLED",
    "OTEL_TRACES_EXPORTER",
    "OTEL_EXPORTER_OTLP_ENDPOINT",
    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    "OTEL_EXPORTER_OTLP_HEADERS",
    "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
    "OTEL_EXPORTER_OTLP_PROTOCOL",
    "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL",
    "OTEL_EXPORTER_OTLP_TIMEOUT",
    "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT",
    "OTEL_SERVICE_NAME",
    "OTEL_RESOURCE_ATTRIBUTES",
    "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT",
    "OTEL_EXPORTER_OTLP_COMPRESSION",
];

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
    elapsed: Duration,
}

impl Out {
    fn describe(&self) -> String {
        format!(
            "exit {} after {:?}\n--- stdout ---\n{}\n--- stderr ---\n{}",
            self.code, self.elapsed, self.stdout, self.stderr
        )
    }

    fn record(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| panic!("stdout is not JSON ({e})\n{}", self.describe()))
    }

    /// The lines on stderr that are not the `trace <id>` line.
    fn warnings(&self) -> Vec<&str> {
        self.stderr.lines().filter(|l| !l.starts_with("switchyard: trace ")).collect()
    }
}

fn switchyard(args: &[&str], env: &[(&str, &str)]) -> Out {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_switchyard"));
    cmd.args(args);
    for var in SCRUBBED_ENV.iter().chain(OTEL_VARS.iter()) {
        cmd.env_remove(var);
    }
    cmd.envs(env.iter().copied());
    let started = Instant::now();
    let out = cmd.output().expect("the switchyard binary runs");
    let out = Out {
        code: out.status.code().expect("the binary exits"),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        elapsed: started.elapsed(),
    };
    assert!(!out.stderr.contains("panicked"), "{}", out.describe());
    out
}

fn template(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../templates").join(name);
    serde_json::from_str(&std::fs::read_to_string(&path).expect("the template")).expect("template JSON")
}

fn write(dir: &Path, name: &str, value: &Value) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_string_pretty(value).expect("JSON")).expect("write");
    path
}

/// The tool agent template with its model served by `model` (OpenAI-compatible).
fn tool_agent_on(model: &Server) -> Value {
    let mut graph = template("005-tool-agent.json");
    for node in graph["nodes"].as_array_mut().expect("nodes") {
        if node["id"] == "agent" {
            node["model"] =
                json!({ "provider": "openai", "model": "gpt-test", "base_url": format!("{}/v1", model.url()) });
        }
    }
    graph
}

fn tool_call(id: &str, name: &str, arguments: Value, prompt_tokens: u64) -> Reply {
    Reply::json(
        200,
        &json!({ "id": format!("chatcmpl-{id}"), "model": "gpt-test-2026", "choices": [{ "index": 0, "finish_reason": "tool_calls",
            "message": { "role": "assistant", "content": null, "tool_calls": [
                { "id": id, "type": "function", "function": { "name": name, "arguments": arguments.to_string() } }] } }],
            "usage": { "prompt_tokens": prompt_tokens, "completion_tokens": 10 } }),
    )
}

/// The model's three turns for Oslo: weather, packing list, answer.
fn oslo_model() -> Server {
    Server::start(vec![
        tool_call("call_w", "weather", json!({ "city": "Oslo" }), 100),
        tool_call("call_p", "packing_list", json!({ "temp_c": -3, "sky": "snow" }), 150),
        Reply::json(
            200,
            &json!({ "id": "chatcmpl-3", "model": "gpt-test-2026", "choices": [{ "index": 0, "finish_reason": "stop",
                "message": { "role": "assistant", "content": "Pack a warm coat for Oslo." } }],
                "usage": { "prompt_tokens": 200, "completion_tokens": 12 } }),
        ),
    ])
}

/// Runs the tool agent (model at `model`) with the environment `env`, the record saved too.
fn run_tool_agent(dir: &Path, model: &Server, env: &[(&str, &str)]) -> Out {
    let graph = write(dir, "agent.json", &tool_agent_on(model));
    let record = dir.join("run.json");
    let trusted = model.url();
    let mut env: Vec<(&str, &str)> = env.to_vec();
    env.extend([("OPENAI_API_KEY", OPENAI_KEY), ("SWITCHYARD_TRUSTED_ORIGINS", trusted.as_str())]);
    let input = json!({ "question": QUESTION }).to_string();
    let args = ["run", graph.to_str().expect("path"), "--input", &input, "--record", record.to_str().expect("path")];
    switchyard(&args, &env)
}

fn named<'a>(spans: &'a [ReceivedSpan], name: &str) -> Vec<&'a ReceivedSpan> {
    spans.iter().filter(|s| s.span.name == name).collect()
}

fn int(span: &ReceivedSpan, key: &str) -> i64 {
    match span.attr(key) {
        Some(AttrValue::Int(i)) => *i,
        other => panic!("{key} of {} is {other:?}", span.span.name),
    }
}

/// Every span of a session ended, root last: the root is sent when the session ends.
fn session_of(receiver: &Receiver) -> Vec<ReceivedSpan> {
    receiver.wait_until(WAIT, |spans| spans.iter().any(|s| s.span.parent.is_none()))
}

#[test]
fn a_template_run_is_a_tree_of_steps_nodes_chat_and_tool_spans_with_tokens_and_no_key() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let receiver = Receiver::start(Behaviour::Accept).expect("receiver");
    let model = oslo_model();
    let endpoint = receiver.endpoint();
    let out = run_tool_agent(
        dir.path(),
        &model,
        &[("OTEL_EXPORTER_OTLP_ENDPOINT", &endpoint), ("OTEL_SERVICE_NAME", "packing-agent")],
    );
    assert_eq!(out.code, 0, "{}", out.describe());
    assert!(out.warnings().is_empty(), "{}", out.describe());
    let record = out.record();
    let spans = session_of(&receiver);

    let trace_id = record["trace_id"].as_str().expect("the record keeps its trace id");
    assert!(out.stderr.contains(&format!("switchyard: trace {trace_id}")), "{}", out.describe());
    assert!(spans.iter().all(|s| s.span.trace_id.to_string() == trace_id), "one trace for the run");
    assert!(spans.iter().all(|s| s.resource.get("service.name") == Some(&AttrValue::Str("packing-agent".into()))));

    let roots: Vec<_> = spans.iter().filter(|s| s.span.parent.is_none()).collect();
    assert_eq!(roots.len(), 1, "{roots:#?}");
    let root = roots[0];
    assert_eq!(root.span.name, "run Tool-calling agent");
    assert_eq!(int(root, "gen_ai.usage.input_tokens"), 450);
    assert_eq!(int(root, "gen_ai.usage.output_tokens"), 32);

    // Every span hangs from another span of the trace.
    let ids: Vec<_> = spans.iter().map(|s| s.span.span_id).collect();
    assert!(spans.iter().filter_map(|s| s.span.parent).all(|p| ids.contains(&p)), "{spans:#?}");
    let steps = record["steps"].as_array().expect("steps").len();
    assert_eq!(spans.iter().filter(|s| s.span.name.starts_with("step ")).count(), steps);

    let chats = named(&spans, "chat gpt-test");
    assert_eq!(chats.len(), 3, "one chat span per model call");
    assert!(chats.iter().all(|c| c.span.kind == SpanKind::Client));
    let tokens: Vec<(i64, i64)> =
        chats.iter().map(|c| (int(c, "gen_ai.usage.input_tokens"), int(c, "gen_ai.usage.output_tokens"))).collect();
    assert_eq!(tokens.iter().map(|t| t.0).sum::<i64>(), 450);
    assert!(chats.iter().all(|c| c.attr("gen_ai.provider.name") == Some(&AttrValue::Str("openai".into()))));
    assert_eq!(named(&spans, "execute_tool weather").len(), 1);
    assert_eq!(named(&spans, "execute_tool packing_list").len(), 1);

    // No key, and no content unless asked for.
    let everything = format!("{spans:?}");
    assert!(!everything.contains(OPENAI_KEY), "a key was exported");
    assert!(!everything.contains(QUESTION), "content was exported without the opt-in");
    assert!(receiver.requests().iter().all(|r| !format!("{:?}", r.headers).contains(OPENAI_KEY)));
}

#[test]
fn content_is_exported_only_with_the_opt_in() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let receiver = Receiver::start(Behaviour::Accept).expect("receiver");
    let model = oslo_model();
    let endpoint = receiver.endpoint();
    let env = [
        ("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint.as_str()),
        ("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "true"),
    ];
    let out = run_tool_agent(dir.path(), &model, &env);
    assert_eq!(out.code, 0, "{}", out.describe());
    let spans = session_of(&receiver);
    let chats = named(&spans, "chat gpt-test");
    assert!(chats.iter().any(|c| format!("{:?}", c.span.attributes).contains(QUESTION)), "{chats:#?}");
    assert!(!format!("{spans:?}").contains(OPENAI_KEY), "a key was exported");
}

#[test]
fn switchyard_trace_sends_a_saved_record_with_its_recorded_times() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let model = oslo_model();
    // Run without a collector: the record is all there is.
    let out = run_tool_agent(dir.path(), &model, &[]);
    assert_eq!(out.code, 0, "{}", out.describe());
    assert!(out.stderr.is_empty(), "nothing configured, nothing said\n{}", out.describe());
    let record = out.record();

    let receiver = Receiver::start(Behaviour::Accept).expect("receiver");
    let run_path = dir.path().join("run.json");
    let graph_path = dir.path().join("agent.json");
    let endpoint = receiver.endpoint();
    let sent = switchyard(
        &["trace", run_path.to_str().expect("path"), "--graph", graph_path.to_str().expect("path")],
        &[("OTEL_EXPORTER_OTLP_ENDPOINT", &endpoint)],
    );
    assert_eq!(sent.code, 0, "{}", sent.describe());
    let trace_id = record["trace_id"].as_str().expect("trace id");
    assert!(sent.stdout.contains(&format!("trace {trace_id}")), "{}", sent.describe());
    let spans = session_of(&receiver);
    assert!(spans.iter().all(|s| s.span.trace_id.to_string() == trace_id), "the id the record names");
    assert!(sent.stdout.contains(&format!("sent {} spans", spans.len())), "{}", sent.describe());

    // Each step span starts when the record says the step started.
    for step in record["steps"].as_array().expect("steps") {
        let n = step["step"].as_u64().expect("step number");
        let started = step["started_ms"].as_f64().expect("a stamped step");
        let span = named(&spans, &format!("step {n}"));
        assert_eq!(span.len(), 1, "step {n}");
        assert!((span[0].span.start_ms - started).abs() < 0.01, "step {n}: {} vs {started}", span[0].span.start_ms);
    }
    assert_eq!(named(&spans, "chat gpt-test").len(), 3);
}

#[test]
fn switchyard_trace_says_what_is_missing() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let model = oslo_model();
    let out = run_tool_agent(dir.path(), &model, &[]);
    assert_eq!(out.code, 0, "{}", out.describe());
    let run_path = dir.path().join("run.json");
    let run_path = run_path.to_str().expect("path");

    let nowhere = switchyard(&["trace", run_path], &[]);
    assert_eq!(nowhere.code, 1, "{}", nowhere.describe());
    assert!(nowhere.stderr.contains("OTEL_EXPORTER_OTLP_ENDPOINT"), "{}", nowhere.describe());

    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"format\": \"nope\"").expect("write");
    let endpoint = format!("http://127.0.0.1:{}", closed_port());
    let env = [("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint.as_str())];
    let refused = switchyard(&["trace", bad.to_str().expect("path")], &env);
    assert_eq!(refused.code, 2, "{}", refused.describe());

    let grpc = switchyard(&["trace", run_path], &[env[0], ("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")]);
    assert_eq!(grpc.code, 2, "{}", grpc.describe());
    assert!(grpc.stderr.contains("OTEL_EXPORTER_OTLP_PROTOCOL"), "{}", grpc.describe());

    let down = switchyard(&["trace", run_path], &env);
    assert_eq!(down.code, 1, "{}", down.describe());
    assert_eq!(down.stderr.lines().count(), 1, "{}", down.describe());
    assert!(down.stderr.starts_with(&format!("switchyard: could not send traces to {endpoint}/v1/traces: ")));
}

/// What a run's record says, without what differs from run to run (ids, times).
fn outcome(record: &Value) -> Value {
    let ran: Vec<&Value> = record["steps"].as_array().expect("steps").iter().map(|s| &s["ran"]).collect();
    json!({ "status": record["status"], "state": record["state"], "ran": ran, "usage": record["usage"] })
}

/// A collector that is down, answers 500, or never answers: the same record and exit code
/// as with no collector at all, one warning, and a bounded wait at exit.
#[test]
fn a_failing_collector_changes_nothing_but_one_warning() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let model = oslo_model();
    let plain = run_tool_agent(dir.path(), &model, &[]);
    assert_eq!(plain.code, 0, "{}", plain.describe());
    let expected = outcome(&plain.record());

    let failing = Receiver::start(Behaviour::Fail(500)).expect("receiver");
    let hanging = Receiver::start(Behaviour::Hang).expect("receiver");
    let down = format!("http://127.0.0.1:{}", closed_port());
    for (what, endpoint, why) in [
        ("down", down, "connection refused"),
        ("500", failing.endpoint(), "HTTP 500"),
        ("hanging", hanging.endpoint(), "no answer within"),
    ] {
        let model = oslo_model();
        let out = run_tool_agent(dir.path(), &model, &[("OTEL_EXPORTER_OTLP_ENDPOINT", &endpoint)]);
        assert_eq!(out.code, 0, "{what}: {}", out.describe());
        assert_eq!(outcome(&out.record()), expected, "{what}: the record is the same");
        let saved: Value = serde_json::from_str(&std::fs::read_to_string(dir.path().join("run.json")).expect("record"))
            .expect("record JSON");
        assert_eq!(outcome(&saved), expected, "{what}: the record file is the same");
        let warnings = out.warnings();
        assert_eq!(warnings.len(), 1, "{what}: one warning\n{}", out.describe());
        assert!(warnings[0].starts_with(&format!("switchyard: could not send traces to {endpoint}/v1/traces: ")));
        assert!(warnings[0].contains(why), "{what}: {}", out.describe());
        // The run itself takes well under a second; the wait at exit is at most 5 s.
        assert!(out.elapsed < Duration::from_secs(15), "{what}: {}", out.describe());
    }
}

#[test]
fn otel_sdk_disabled_sends_nothing() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let receiver = Receiver::start(Behaviour::Accept).expect("receiver");
    let model = oslo_model();
    let endpoint = receiver.endpoint();
    let env = [("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint.as_str()), ("OTEL_SDK_DISABLED", "true")];
    let out = run_tool_agent(dir.path(), &model, &env);
    assert_eq!(out.code, 0, "{}", out.describe());
    assert!(out.stderr.is_empty(), "{}", out.describe());
    // The process has exited: anything it sent has arrived by the time this wait ends.
    assert_eq!(receiver.wait_for_requests(1, Duration::from_millis(500)), 0);
}

#[test]
fn each_test_case_is_a_trace_naming_its_case() {
    let receiver = Receiver::start(Behaviour::Accept).expect("receiver");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let suite = root.join("templates/tests/005-tool-agent.tests.json");
    let endpoint = receiver.endpoint();
    let out =
        switchyard(&["test", suite.to_str().expect("path"), "--json"], &[("OTEL_EXPORTER_OTLP_ENDPOINT", &endpoint)]);
    assert_eq!(out.code, 0, "{}", out.describe());
    let report = out.record();
    let cases: Vec<&str> =
        report["results"].as_array().expect("results").iter().map(|r| r["name"].as_str().expect("name")).collect();
    let spans =
        receiver.wait_until(WAIT, |spans| spans.iter().filter(|s| s.span.parent.is_none()).count() >= cases.len());
    let roots: Vec<_> = spans.iter().filter(|s| s.span.parent.is_none()).collect();
    assert_eq!(roots.len(), cases.len(), "one trace per case");
    for case in cases {
        let named = roots.iter().filter(|r| r.attr("switchyard.test.case") == Some(&AttrValue::Str(case.into())));
        assert_eq!(named.count(), 1, "case {case}");
    }
    assert!(roots.iter().all(|r| r.attr("switchyard.test.passed") == Some(&AttrValue::Bool(true))));
}

/// One JSON-RPC message to the server, one line.
fn send_line(stdin: &mut impl std::io::Write, message: &Value) {
    writeln!(stdin, "{message}").expect("write to the server");
    stdin.flush().expect("flush");
}

/// Lines from the server until the reply to `id`.
fn reply_to(lines: &mut impl Iterator<Item = std::io::Result<String>>, id: u64) -> Value {
    for line in lines {
        let message: Value = serde_json::from_str(&line.expect("a line")).expect("JSON-RPC");
        if message["id"] == id {
            return message;
        }
    }
    panic!("the server closed stdout before answering {id}");
}

#[test]
fn each_mcp_tool_call_is_a_trace() {
    use std::io::BufRead;
    use std::process::Stdio;

    let receiver = Receiver::start(Behaviour::Accept).expect("receiver");
    let graph = Path::new(env!("CARGO_MANIFEST_DIR")).join("../templates/005-tool-agent.json");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_switchyard"));
    cmd.arg("mcp").arg(&graph);
    for var in SCRUBBED_ENV.iter().chain(OTEL_VARS.iter()) {
        cmd.env_remove(var);
    }
    let mut child = cmd
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("switchyard mcp starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut lines = std::io::BufReader::new(child.stdout.take().expect("stdout")).lines();
    let client = json!({ "name": "trace-test", "version": "1" });
    let init = json!({ "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": client });
    send_line(&mut stdin, &json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init }));
    reply_to(&mut lines, 1);
    send_line(&mut stdin, &json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
    send_line(&mut stdin, &json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/list" }));
    let tools = reply_to(&mut lines, 2);
    let name = tools["result"]["tools"][0]["name"].as_str().expect("a tool").to_string();
    let call = json!({ "name": name, "arguments": { "question": QUESTION } });
    send_line(&mut stdin, &json!({ "jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": call }));
    let reply = reply_to(&mut lines, 3);
    assert_eq!(reply["result"]["isError"], false, "{reply:#}");

    // The call's run is sent as it goes; its root when it ends.
    let spans = session_of(&receiver);
    let roots: Vec<_> = spans.iter().filter(|s| s.span.parent.is_none()).collect();
    assert_eq!(roots.len(), 1, "{roots:#?}");
    assert_eq!(roots[0].span.name, "run Tool-calling agent");
    assert!(!named(&spans, "chat mock").is_empty(), "{spans:#?}");
    assert!(spans.iter().all(|s| s.span.trace_id == roots[0].span.trace_id));

    drop(stdin);
    let out = child.wait_with_output().expect("the server exits when stdin closes");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("could not send traces") && !stderr.contains("panicked"), "{stderr}");
}
