//! `switchyard mcp` against real MCP clients: the official Python SDK (tests/mcp/switchyard_client.py)
//! over stdio and Streamable HTTP, in both its connect modes; the MCP Inspector's CLI; and
//! the official conformance suite's server scenarios (tests/mcp/server-baseline.yml lists the
//! ones that do not apply, with why). No mock of the protocol anywhere.

mod mcp_support;

use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use mcp_support::{free_port, node22, python, tools_dir, wait_for_port};
use serde_json::{Value, json};

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn path(rel: &str) -> String {
    workspace().join(rel).to_string_lossy().into_owned()
}

const BIN: &str = env!("CARGO_BIN_EXE_switchyard");

/// The graphs most tests serve: the conformance graphs and the two-form expense graph.
fn graphs() -> Vec<String> {
    [
        "tests/mcp/graphs/test_simple_text.json",
        "tests/mcp/graphs/test_error_handling.json",
        "tests/mcp/graphs/test_tool_with_progress.json",
        "tests/mcp/graphs/test_elicitation.json",
        "tests/mcp/graphs/test_elicitation_sep1034_defaults.json",
        "tests/mcp/graphs/expense.json",
        "templates/005-tool-agent.json",
    ]
    .iter()
    .map(|p| path(p))
    .collect()
}

fn checked(out: Output, what: &str) -> Output {
    assert!(
        out.status.success(),
        "{what} failed ({}):\nstdout: {}\nstderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Runs the Python client against `target` (`stdio` serves `server_args` through the binary)
/// and returns one result per action.
fn client(target: &str, mode: &str, actions: &[&str], server_args: &[String]) -> Vec<Value> {
    let mut cmd = Command::new(python());
    cmd.arg(path("tests/mcp/switchyard_client.py")).arg(target).args(["--mode", mode]).args(actions);
    if target == "stdio" {
        cmd.arg("--").arg(BIN).arg("mcp").args(server_args);
    }
    let out = checked(cmd.output().expect("python starts"), "the Python MCP client");
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)))
}

/// `switchyard mcp --listen` on a free loopback port, killed at the end of the test.
struct Listening {
    child: Child,
    port: u16,
}

impl Listening {
    fn start(args: &[String]) -> Listening {
        let port = free_port();
        let mut child = Command::new(BIN)
            .arg("mcp")
            .args(args)
            .args(["--listen", &format!("127.0.0.1:{port}")])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("switchyard starts");
        wait_for_port(port, &mut child);
        Listening { child, port }
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}/mcp", self.port)
    }

    /// The threads of the server that run a call's graph.
    fn run_threads(&self) -> usize {
        let dir = format!("/proc/{}/task", self.child.id());
        std::fs::read_dir(dir)
            .map(|d| {
                d.flatten()
                    .filter(|t| {
                        std::fs::read_to_string(t.path().join("comm")).is_ok_and(|c| c.starts_with("switchyard-mcp"))
                    })
                    .count()
            })
            .unwrap_or(0)
    }
}

impl Drop for Listening {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The final state `switchyard run` gives for `graph` and `input`.
fn run_state(graph: &str, input: &Value) -> Value {
    let out = Command::new(BIN)
        .args(["run", graph, "--summary", "--input", &input.to_string()])
        .output()
        .expect("the program starts");
    let record: Value = serde_json::from_slice(&checked(out, "switchyard run").stdout).expect("JSON");
    record["state"].clone()
}

/// Lists and calls over `target`: names, schemas, a template's state as `switchyard run`
/// gives it, a failing graph, progress per step, two forms answered in turn.
fn lists_and_calls(target: &str, mode: &str) {
    let question = json!({"question": "What should I pack for Paris and Oslo?"});
    let results = client(
        target,
        mode,
        &[
            "list",
            "call",
            "Tool-calling_agent",
            &question.to_string(),
            "call",
            "test_error_handling",
            "{}",
            "--progress",
            "call",
            "test_tool_with_progress",
            "{}",
            "--answer",
            r#"accept:{"decision":"approve"}"#,
            "--answer",
            r#"accept:{"confirmed":true}"#,
            "call",
            "Expense_approval",
            r#"{"amount":120}"#,
        ],
        &graphs(),
    );
    let tools = results[0]["tools"].as_array().expect("an array");
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().expect("a string")).collect();
    assert_eq!(
        names,
        [
            "test_simple_text",
            "test_error_handling",
            "test_tool_with_progress",
            "test_elicitation",
            "test_elicitation_sep1034_defaults",
            "Expense_approval",
            "Tool-calling_agent"
        ]
    );
    let expense = &tools[5];
    assert_eq!(expense["title"], "Expense approval");
    assert_eq!(expense["inputSchema"]["required"], json!(["amount"]));
    assert_eq!(
        expense["inputSchema"]["properties"]["amount"],
        json!({"type": "number", "description": "The amount asked for."})
    );
    assert_eq!(expense["outputSchema"]["properties"]["paid"], json!({"type": "number"}));

    let agent = &results[1];
    assert_eq!(agent["is_error"], false, "{agent}");
    let state = run_state(&path("templates/005-tool-agent.json"), &question);
    assert_eq!(agent["structured"], state);
    assert_eq!(serde_json::from_str::<Value>(agent["text"].as_str().expect("a string")).expect("JSON"), state);

    let failing = &results[2];
    assert_eq!(failing["is_error"], true);
    assert_eq!(failing["text"], "This tool intentionally returns an error for testing (intentional) (node `failed`)");

    let progress = &results[3];
    let messages: Vec<&str> = progress["progress"]
        .as_array()
        .expect("an array")
        .iter()
        .map(|p| p["message"].as_str().expect("a string"))
        .collect();
    assert_eq!(messages, ["step 1: ran tick", "step 2: ran tick", "step 3: ran tick"]);
    assert_eq!(progress["structured"], json!({"count": 3}));

    let paid = &results[4];
    assert_eq!(paid["is_error"], false, "{paid}");
    assert_eq!(paid["structured"]["paid"], 120);
    let asked = paid["asked"].as_array().expect("an array");
    assert_eq!(asked.len(), 2, "a later human node asks again");
    assert_eq!(asked[0]["message"], "node `review`: Approve 120?");
    assert_eq!(
        asked[0]["schema"],
        json!({"type": "object", "properties": {
            "decision": {"type": "string", "enum": ["approve", "reject"], "title": "Decision"},
            "to_pay": {"type": "number", "title": "Amount to pay", "default": 120.0}},
          "required": ["decision"]})
    );
    assert_eq!(
        asked[1]["schema"],
        json!({"type": "object", "properties": {"confirmed": {"type": "boolean", "default": true}}})
    );
}

#[test]
fn stdio_clients_list_and_call_graphs() {
    lists_and_calls("stdio", "legacy");
    lists_and_calls("stdio", "auto");
}

#[test]
fn http_clients_list_and_call_graphs() {
    let server = Listening::start(&graphs());
    lists_and_calls(&server.url(), "legacy");
    lists_and_calls(&server.url(), "auto");
}

#[test]
fn forms_declined_cancelled_or_not_askable_end_the_call_naming_the_node() {
    let input = r#"{"amount":5}"#;
    let results = client(
        "stdio",
        "legacy",
        &[
            "--answer",
            "decline",
            "call",
            "Expense_approval",
            input,
            "--answer",
            "cancel",
            "call",
            "Expense_approval",
            input,
        ],
        &graphs(),
    );
    assert_eq!(
        (&results[0]["is_error"], &results[0]["text"]),
        (&json!(true), &json!("the person declined the form of node `review`"))
    );
    assert_eq!(
        (&results[1]["is_error"], &results[1]["text"]),
        (&json!(true), &json!("the person cancelled the form of node `review`"))
    );

    // Without an elicitation callback the SDK declares no elicitation capability.
    let results = client("stdio", "legacy", &["call", "Expense_approval", input], &graphs());
    assert_eq!(results[0]["is_error"], true);
    assert_eq!(
        results[0]["text"],
        "graph `Expense approval` waits for a person at node `review` (fields: decision: approve|reject, to_pay: number (optional)); this client does not offer MCP elicitation"
    );
}

#[test]
fn a_cancelled_call_stops_its_run_and_the_server_answers_the_next() {
    let server = Listening::start(&[
        path("cli/tests/fixtures/mcp_slow_count.json"),
        path("tests/mcp/graphs/test_simple_text.json"),
    ]);
    let results = client(
        &server.url(),
        "legacy",
        &["--timeout", "0.5", "call", "slow_count", "{}", "call", "test_simple_text", "{}"],
        &[],
    );
    assert!(results[0].get("exception").is_some(), "the slow call timed out on the client: {}", results[0]);
    assert_eq!(results[1]["structured"], json!({"text": "This is a simple text response for testing."}));
    // The run was told to stop: its thread ends (it would count on for minutes).
    let deadline = Instant::now() + Duration::from_secs(60);
    while server.run_threads() > 0 {
        assert!(Instant::now() < deadline, "the cancelled run still runs");
        sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_cancelled_call_stops_its_run_inside_a_wait() {
    // The run's only step retries a refused connection after pauses of two minutes and more.
    let server = Listening::start(&[path("cli/tests/fixtures/mcp_patient_fetch.json")]);
    let input = json!({"url": format!("http://127.0.0.1:{}/", free_port())});
    let results =
        client(&server.url(), "legacy", &["--timeout", "0.5", "call", "patient_fetch", &input.to_string()], &[]);
    assert!(results[0].get("exception").is_some(), "the call timed out on the client: {}", results[0]);
    let deadline = Instant::now() + Duration::from_secs(60);
    while server.run_threads() > 0 {
        assert!(Instant::now() < deadline, "the cancelled run still waits");
        sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_non_loopback_address_warns() {
    use std::io::{BufRead, BufReader};
    let port = free_port();
    let mut child = Command::new(BIN)
        .args(["mcp", &path("tests/mcp/graphs/test_simple_text.json"), "--listen", &format!("0.0.0.0:{port}")])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("switchyard starts");
    let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
    let warning = lines.next().expect("a line").expect("text");
    let serving = lines.next().expect("a line").expect("text");
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(
        warning,
        format!(
            "switchyard: warning: 0.0.0.0:{port} is not a loopback address: anyone who can reach it can run these graphs"
        )
    );
    assert_eq!(serving, format!("switchyard: serving 1 graph(s) as MCP tools at http://0.0.0.0:{port}/mcp"));
}

/// A raw POST to the endpoint with `headers`; the status.
fn post_status(url: &str, headers: &[(&str, &str)]) -> u16 {
    let agent = ureq::Agent::new_with_config(ureq::Agent::config_builder().http_status_as_error(false).build());
    let mut req = agent
        .post(url)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream");
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    req.send(body.to_string()).expect("an answer").status().as_u16()
}

#[test]
fn http_refuses_other_origins_and_hosts() {
    let server = Listening::start(&graphs()[..1]);
    let url = server.url();
    assert_eq!(post_status(&url, &[]), 200);
    assert_eq!(post_status(&url, &[("Origin", &format!("http://127.0.0.1:{}", server.port))]), 200);
    assert_eq!(post_status(&url, &[("Origin", "http://evil.example")]), 403);
    let host = post_status(&url, &[("Host", "evil.example")]);
    assert!((400..500).contains(&host), "a foreign Host gets 4xx, got {host}");
}

#[test]
fn the_inspector_cli_lists_the_graphs() {
    let inspector = tools_dir().join("@modelcontextprotocol/inspector/clients/launcher/build/index.js");
    let out = Command::new(node22())
        .arg(inspector)
        .args(["--cli", "--method", "tools/list", "--format", "json", "--", BIN, "mcp"])
        .args(graphs())
        .output()
        .expect("node starts");
    let listed: Value = serde_json::from_slice(&checked(out, "the Inspector").stdout).expect("JSON");
    let names: Vec<&str> = listed["result"]["tools"]
        .as_array()
        .expect("an array")
        .iter()
        .map(|t| t["name"].as_str().expect("a string"))
        .collect();
    assert!(names.contains(&"Expense_approval") && names.contains(&"test_simple_text"), "{names:?}");
}

#[test]
fn the_conformance_suite_server_scenarios_pass() {
    let server = Listening::start(&graphs()[..5]);
    let results = tempfile::tempdir().unwrap();
    let suite = tools_dir().join("@modelcontextprotocol/conformance/dist/index.js");
    let out = Command::new(node22())
        .arg(suite)
        .args(["server", "--url", &server.url(), "--expected-failures", &path("tests/mcp/server-baseline.yml")])
        .current_dir(results.path())
        .output()
        .expect("node starts");
    checked(out, "the conformance suite");
}

#[test]
fn authoring_tools_validate_run_and_serve_the_format() {
    let broken = json!({"format": "switchyard/graph@1", "nodes": [{"id": "start", "kind": "start"}],
        "edges": [{"from": "start", "to": "nowhere"}]});
    let approval: Value =
        serde_json::from_str(&std::fs::read_to_string(path("templates/003-approval.json")).unwrap()).unwrap();
    let real = json!({"format": "switchyard/graph@1", "nodes": [{"id": "start", "kind": "start"},
        {"id": "ask", "kind": "llm", "model": {"provider": "openai", "model": "gpt"}, "prompt": "hi"}, {"id": "end", "kind": "end"}],
        "edges": [{"from": "start", "to": "ask"}, {"from": "ask", "to": "end"}]});
    // No graph: the authoring tools alone.
    let args = vec!["--authoring".to_string()];
    let results = client(
        "stdio",
        "legacy",
        &[
            "call",
            "switchyard_validate",
            &json!({"document": broken}).to_string(),
            "call",
            "switchyard_run",
            &json!({"document": approval, "input": {"request": "a new laptop"}}).to_string(),
            "call",
            "switchyard_run",
            &json!({"document": real}).to_string(),
            "call",
            "switchyard_mermaid",
            &json!({"document": approval}).to_string(),
            "resources",
        ],
        &args,
    );
    let validated = &results[0]["structured"];
    assert_eq!(validated["valid"], false);
    assert!(validated["diagnostics"].to_string().contains("nowhere"), "{validated}");
    let ran = &results[1]["structured"];
    assert_eq!((&ran["status"], &ran["waiting"][0]["node"]), (&json!("interrupted"), &json!("get_approval")), "{ran}");
    assert_eq!(results[2]["is_error"], true);
    assert_eq!(results[2]["text"], "nodes[1] (`ask`): provider `openai`; switchyard_run runs mock models only");
    assert!(results[3]["text"].as_str().expect("a string").starts_with("flowchart"), "{}", results[3]);
    assert_eq!(results[4]["uris"], json!(["switchyard://docs/format.md"]));
    assert!(results[4]["text"].as_str().expect("a string").contains("switchyard/graph@1"));
}

#[test]
fn bad_graph_sets_exit_2_naming_the_files() {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("again.json");
    std::fs::copy(path("tests/mcp/graphs/expense.json"), &copy).unwrap();
    let out = Command::new(BIN)
        .arg("mcp")
        .arg(path("tests/mcp/graphs/expense.json"))
        .arg(&copy)
        .output()
        .expect("the program starts");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("again.json") && err.contains("expense.json") && err.contains("`Expense_approval`"), "{err}");

    let stdio = dir.path().join("stdio.json");
    std::fs::write(
        &stdio,
        json!({"format": "switchyard/graph@1", "mcp_servers": {"fs": {"command": "npx", "args": ["-y", "x"]}},
            "tools": {"read": {"run": {"mcp": {"server": "fs"}}}},
            "nodes": [{"id": "start", "kind": "start"}, {"id": "end", "kind": "end"}],
            "edges": [{"from": "start", "to": "end"}]})
        .to_string(),
    )
    .unwrap();
    let out = Command::new(BIN)
        .arg("mcp")
        .arg(&stdio)
        .env_remove("SWITCHYARD_ALLOWED_COMMANDS")
        .output()
        .expect("the program starts");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("`npx -y x`") && err.contains("--allow-command npx"), "{err}");
}
