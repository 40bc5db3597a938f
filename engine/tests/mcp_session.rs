//! The engine's MCP client sessions, driven through a host that replays what the real
//! `@modelcontextprotocol/server-everything` answered (`data/mcp/everything.json`, captured by
//! `data/mcp/capture.py` from the pinned server in tests/mcp; its header says how to capture it
//! again). The host does what the contract asks of a real one (connections, ids, timeouts,
//! ends); the messages are the server's own. End-to-end runs against the live server are in
//! `cli/tests/mcp_client.rs`.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use engine::host::{
    Host, HttpFailure, HttpRequest, HttpResponse, LocalBoxFuture, McpEnd, McpEndpoint, McpExchange, McpReply,
};
use engine::{OfflineHost, Run, Status, compile, mcp, mcp_probe, parse_graph};
use serde_json::{Value, json};

const CAPTURE: &str = include_str!("data/mcp/everything.json");

/// What a test makes the replaying server do.
#[derive(Default)]
struct Script {
    /// The protocol version `initialize` answers (the captured one when `None`).
    version: Option<String>,
    /// The next `tools/call` finds its connection gone (`Lost`), once.
    lose_next_call: Cell<bool>,
    /// `tools/call` ends the process with this stderr.
    exit_on_call: Option<String>,
    /// Split `tools/list` into pages of this many tools.
    page: Option<usize>,
}

/// A host whose MCP server replays the capture.
struct Replay {
    base: OfflineHost,
    capture: Value,
    script: Script,
    /// Every exchange, in order.
    exchanges: RefCell<Vec<McpExchange>>,
    /// Sessions closed: (connection, session id).
    closed: RefCell<Vec<Option<String>>>,
    connections: Cell<u32>,
}

impl Replay {
    fn new(script: Script) -> Replay {
        Replay {
            base: OfflineHost::new(),
            capture: serde_json::from_str(CAPTURE).expect("the capture is JSON"),
            script,
            exchanges: RefCell::default(),
            closed: RefCell::default(),
            connections: Cell::new(0),
        }
    }

    fn methods(&self) -> Vec<String> {
        let mut out = Vec::new();
        for x in self.exchanges.borrow().iter() {
            for m in &x.send {
                let v: Value = serde_json::from_str(m).expect("JSON");
                let mut name = v["method"].as_str().expect("a string").to_string();
                if let Some(tool) = v["params"]["name"].as_str() {
                    name = format!("{name} {tool}");
                }
                out.push(name);
            }
        }
        out
    }

    /// The captured messages for request `msg`, ids and progress tokens rewritten to its own.
    fn answer(&self, msg: &Value, timeout_ms: u64) -> Result<Vec<String>, McpEnd> {
        let id = msg["id"].clone();
        let method = msg["method"].as_str().expect("a string");
        let mut key = method.to_string();
        if method == "tools/call" {
            let tool = msg["params"]["name"].as_str().expect("a string");
            key = format!("tools/call {tool}");
            if tool == "get-sum" && !msg["params"]["arguments"]["a"].is_number() {
                key.push_str(" bad");
            }
            if tool == "trigger-long-running-operation" {
                let ms = msg["params"]["arguments"]["duration"].as_f64().unwrap_or(10.0) * 1000.0;
                if timeout_ms < ms as u64 {
                    drop(self.base.sleep(timeout_ms));
                    return Err(McpEnd::TimedOut);
                }
            }
        }
        let recorded = self.capture[&key].as_array().unwrap_or_else(|| panic!("no capture for {key}"));
        let mut out = Vec::new();
        for m in recorded {
            let mut m = m.clone();
            if m.get("method").is_none() {
                m["id"] = id.clone();
                if method == "initialize"
                    && let Some(v) = &self.script.version
                {
                    m["result"]["protocolVersion"] = json!(v);
                }
            } else if m["method"] == "notifications/progress" {
                m["params"]["progressToken"] = msg["params"]["_meta"]["progressToken"].clone();
            }
            out.push(m);
        }
        if let (Some(n), "tools/list") = (self.script.page, method) {
            let last = out.last_mut().expect("a response");
            let tools = last["result"]["tools"].as_array().expect("a list").clone();
            let from: usize = msg["params"]["cursor"].as_str().map_or(0, |c| c.parse().expect("our cursor"));
            last["result"]["tools"] = json!(tools[from..(from + n).min(tools.len())]);
            if from + n < tools.len() {
                last["result"]["nextCursor"] = json!((from + n).to_string());
            }
        }
        Ok(out.iter().map(Value::to_string).collect())
    }
}

impl Host for Replay {
    fn now_ms(&self) -> f64 {
        self.base.now_ms()
    }
    fn new_run_id(&self) -> String {
        self.base.new_run_id()
    }
    fn http(&self, r: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, HttpFailure>> {
        self.base.http(r)
    }
    fn sleep(&self, ms: u64) -> LocalBoxFuture<'_, ()> {
        self.base.sleep(ms)
    }

    fn mcp<'a>(&'a self, x: McpExchange, seen: &'a dyn Fn(&str)) -> LocalBoxFuture<'a, McpReply> {
        self.exchanges.borrow_mut().push(x.clone());
        Box::pin(async move {
            let calls = x.send.iter().any(|m| m.contains("\"tools/call\""));
            if calls && self.script.lose_next_call.replace(false) {
                return McpReply::ended(McpEnd::Lost);
            }
            let connection = x.connection.clone().or_else(|| {
                self.connections.set(self.connections.get() + 1);
                Some(format!("c{}", self.connections.get()))
            });
            if calls && let Some(stderr) = &self.script.exit_on_call {
                let end = McpEnd::Exited { code: Some(3), stderr: stderr.clone() };
                return McpReply { connection, session_id: None, http_status: None, received: Vec::new(), end };
            }
            let mut received = Vec::new();
            for text in &x.send {
                let msg: Value = serde_json::from_str(text).expect("JSON");
                if msg.get("id").is_none() {
                    continue;
                }
                match self.answer(&msg, x.timeout_ms) {
                    Ok(got) => received.extend(got),
                    Err(end) => return McpReply { connection, session_id: None, http_status: None, received, end },
                }
            }
            received.iter().for_each(|m| seen(m));
            let end = if x.awaits.is_some() { McpEnd::Answered } else { McpEnd::Sent };
            McpReply { connection, session_id: None, http_status: None, received, end }
        })
    }

    fn mcp_close<'a>(
        &'a self,
        _endpoint: &'a McpEndpoint,
        connection: Option<&'a str>,
        _session_id: Option<&'a str>,
    ) -> LocalBoxFuture<'a, ()> {
        self.closed.borrow_mut().push(connection.map(str::to_string));
        Box::pin(async {})
    }
}

/// An agent graph whose mock model calls `calls` (`[name, arguments]`) at once, then ends.
fn agent(tools: Value, calls: Value, tools_extra: Value) -> String {
    let calls: Vec<Value> =
        calls.as_array().expect("a list").iter().map(|c| json!({"name": c[0], "arguments": c[1]})).collect();
    let offered: Vec<&String> = tools.as_object().expect("an object").keys().collect();
    let mut tools_node = json!({"id": "tools", "kind": "tools", "messages": "messages"});
    tools_node.as_object_mut().expect("an object").extend(tools_extra.as_object().expect("an object").clone());
    json!({
        "format": "switchyard/graph@1",
        "state": {"messages": {"type": "messages"}},
        "mcp_servers": {"ev": {"command": "node", "args": ["server-everything/dist/index.js", "stdio"]}},
        "tools": tools,
        "nodes": [
            {"id": "start", "kind": "start"},
            {"id": "agent", "kind": "llm", "messages": "state.messages", "tools": offered, "writes": "messages",
             "model": {"provider": "mock", "responses": [{"content": "", "tool_calls": calls}, "done"]}},
            tools_node,
            {"id": "end", "kind": "end"}
        ],
        "edges": [
            {"from": "start", "to": "agent"},
            {"from": "agent", "to": "tools", "when": "has_tool_calls(state.messages)"},
            {"from": "agent", "to": "end", "when": "!has_tool_calls(state.messages)"},
            {"from": "tools", "to": "agent"}
        ]
    })
    .to_string()
}

fn mcp_tool(tool: &str) -> Value {
    json!({"run": {"mcp": {"server": "ev", "tool": tool}}})
}

fn run(host: &Replay, graph: &str) -> Run {
    let plan = Rc::new(compile(&parse_graph(graph).expect("a graph")).plan.expect("valid"));
    let mut run = Run::start(plan, json!({"messages": "go"}), host).expect("input");
    pollster::block_on(run.run(host));
    run
}

/// The tool messages the run wrote, in order.
fn tool_messages(run: &Run) -> Vec<String> {
    let state = run.state_json();
    state["messages"]
        .as_array()
        .expect("a list")
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| m["content"].as_str().expect("a string").to_string())
        .collect()
}

/// The `tools` node's details for each call of step `step`.
fn call_details(run: &Run, step: usize) -> Vec<Value> {
    let record = serde_json::to_value(run.record(true)).expect("a record");
    record["steps"][step - 1]["details"]["tools"]["calls"].as_array().expect("a list").clone()
}

#[test]
fn a_run_calls_tools_in_one_session_and_reads_each_result() {
    let host = Replay::new(Script::default());
    let tools = json!({
        "echo": mcp_tool("echo"), "get-sum": mcp_tool("get-sum"), "weather": mcp_tool("get-structured-content"),
        "image": mcp_tool("get-tiny-image"),
        // Described in the document, so the model is offered it without the listing.
        "nope": {"description": "Not there.", "parameters": {"type": "object"}, "run": {"mcp": {"server": "ev"}}},
    });
    let calls = json!([
        ["echo", {"message": "hi"}], ["get-sum", {"a": 2, "b": 3}], ["weather", {"location": "Chicago"}],
        ["image", {}], ["nope", {}], ["get-sum", {"a": "x"}]
    ]);
    let run = run(&host, &agent(tools, calls, json!({})));
    assert_eq!(run.status(), Status::Completed, "{:?}", run.error());
    let got = tool_messages(&run);
    assert_eq!(got[0], "Echo: hi");
    assert_eq!(got[1], "The sum of 2 and 3 is 5.");
    let weather: Value = serde_json::from_str(&got[2]).expect("JSON");
    assert_eq!(weather, json!({"temperature": 36, "conditions": "Light rain / drizzle", "humidity": 82}));
    assert!(got[3].starts_with("Here's the image you requested:\n[image image/png, "), "{}", got[3]);
    assert!(got[3].contains(" bytes]"), "{}", got[3]);
    // The server lists no `nope`: the graph's tool fails before anything is sent.
    assert!(got[4].starts_with("error: MCP server `ev` lists no tool `nope`"), "{}", got[4]);
    // Bad arguments: the server's own `isError` result.
    assert!(got[5].starts_with("error: MCP error -32602: Input validation error"), "{}", got[5]);

    // One session: initialize, initialized + tools/list, then the calls; closed at the end.
    let methods = host.methods();
    assert_eq!(methods[..3], ["initialize", "notifications/initialized", "tools/list"]);
    assert_eq!(methods.iter().filter(|m| *m == "initialize").count(), 1, "{methods:?}");
    assert_eq!(methods.iter().filter(|m| m.starts_with("tools/call")).count(), 5, "{methods:?}");
    assert_eq!(*host.closed.borrow(), vec![Some("c1".to_string())]);
    let first = &host.exchanges.borrow()[0];
    let init: Value = serde_json::from_str(&first.send[0]).expect("JSON");
    assert_eq!(init["params"]["protocolVersion"], mcp::OFFERED_VERSION);
    assert_eq!(init["params"]["capabilities"], json!({}));
    // Later exchanges name the connection the first one opened.
    assert!(host.exchanges.borrow()[1..].iter().all(|x| x.connection.as_deref() == Some("c1")));

    let details = call_details(&run, 2);
    assert_eq!(details[0]["server"], "ev");
    assert_eq!(details[0]["tool"], "echo");
    assert_eq!(details[0]["arguments"], json!({"message": "hi"}));
    assert_eq!(details[0]["result"], "Echo: hi");
    assert_eq!(details[0]["is_error"], false);
    assert_eq!(details[0]["protocol_version"], "2025-11-25");
    assert!(details[0]["duration_ms"].is_number());
    assert_eq!(details[2]["result"]["humidity"], 82);
    assert_eq!(details[5]["is_error"], true);
}

#[test]
fn progress_goes_into_the_calls_details() {
    let host = Replay::new(Script::default());
    let tools = json!({"long": mcp_tool("trigger-long-running-operation")});
    let run = run(&host, &agent(tools, json!([["long", {"duration": 1, "steps": 3}]]), json!({})));
    assert_eq!(run.status(), Status::Completed, "{:?}", run.error());
    let d = &call_details(&run, 2)[0];
    assert_eq!(
        d["progress"],
        json!([{"progress": 1, "total": 3}, {"progress": 2, "total": 3}, {"progress": 3, "total": 3}])
    );
    assert!(tool_messages(&run)[0].starts_with("Long running operation completed"), "{:?}", tool_messages(&run));
}

#[test]
fn a_call_past_the_nodes_timeout_is_cancelled_and_the_next_call_works() {
    let host = Replay::new(Script::default());
    let tools = json!({"long": mcp_tool("trigger-long-running-operation"), "echo": mcp_tool("echo")});
    let calls = json!([["long", {"duration": 5, "steps": 5}], ["echo", {"message": "hi"}]]);
    let run = run(&host, &agent(tools, calls, json!({"timeout_ms": 300})));
    assert_eq!(run.status(), Status::Completed, "{:?}", run.error());
    let got = tool_messages(&run);
    assert!(
        got[0].starts_with("error: tools/call `trigger-long-running-operation` on MCP server `ev` took longer than"),
        "{got:?}"
    );
    assert_eq!(got[1], "Echo: hi");
    let methods = host.methods();
    let cancel = methods.iter().position(|m| m == "notifications/cancelled").expect("a cancellation");
    assert!(cancel > methods.iter().position(|m| m == "tools/call trigger-long-running-operation").expect("the call"));
    let cancelled = host
        .exchanges
        .borrow()
        .iter()
        .flat_map(|x| x.send.clone())
        .find(|m| m.contains("cancelled"))
        .expect("cancelled");
    let cancelled: Value = serde_json::from_str(&cancelled).expect("JSON");
    assert!(cancelled["params"]["requestId"].is_u64());
}

#[test]
fn on_error_fail_makes_an_is_error_result_a_node_error() {
    let host = Replay::new(Script::default());
    let run = run(
        &host,
        &agent(json!({"get-sum": mcp_tool("get-sum")}), json!([["get-sum", {"a": "x"}]]), json!({"on_error": "fail"})),
    );
    assert_eq!(run.status(), Status::Failed);
    let e = run.error().expect("an error");
    assert_eq!(e.node.as_deref(), Some("tools"));
    assert!(e.message.contains("MCP error -32602: Input validation error"), "{}", e.message);
    // The session still closes when the run fails.
    assert_eq!(host.closed.borrow().len(), 1);
}

#[test]
fn a_lost_session_is_opened_again_once_and_the_call_resent() {
    let host = Replay::new(Script { lose_next_call: Cell::new(true), ..Script::default() });
    let run = run(&host, &agent(json!({"echo": mcp_tool("echo")}), json!([["echo", {"message": "hi"}]]), json!({})));
    assert_eq!(tool_messages(&run), ["Echo: hi"]);
    let methods = host.methods();
    assert_eq!(methods.iter().filter(|m| *m == "initialize").count(), 2, "{methods:?}");
    assert_eq!(methods.iter().filter(|m| *m == "tools/call echo").count(), 2, "{methods:?}");
}

#[test]
fn a_server_that_exits_mid_call_is_a_tool_error_with_its_stderr() {
    let host = Replay::new(Script { exit_on_call: Some("TypeError: boom\n".into()), ..Script::default() });
    let run = run(&host, &agent(json!({"echo": mcp_tool("echo")}), json!([["echo", {"message": "x"}]]), json!({})));
    assert_eq!(run.status(), Status::Completed);
    assert_eq!(
        tool_messages(&run),
        ["error: MCP server `ev` exited (code 3) before answering tools/call: TypeError: boom"]
    );
}

#[test]
fn an_old_protocol_version_is_refused_by_name() {
    let host = Replay::new(Script { version: Some("2024-11-05".into()), ..Script::default() });
    let run = run(&host, &agent(json!({"echo": mcp_tool("echo")}), json!([["echo", {"message": "x"}]]), json!({})));
    // The model is offered `echo` as the server lists it: the session opens then, and fails.
    assert_eq!(run.status(), Status::Failed);
    let e = run.error().expect("an error");
    assert_eq!(e.node.as_deref(), Some("agent"));
    assert!(
        e.message
            .ends_with("MCP server `ev` answered protocol version 2024-11-05; Switchyard needs 2025-06-18 or newer"),
        "{}",
        e.message
    );
    // The process it started is closed again at once.
    assert_eq!(host.closed.borrow().len(), 1);
}

#[test]
fn a_model_is_told_of_an_mcp_tool_as_the_server_lists_it() {
    let host = Replay::new(Script { page: Some(4), ..Script::default() });
    // The mock answers with the description it was given, read back from the messages.
    let graph = agent(json!({"sum": mcp_tool("get-sum")}), json!([["sum", {"a": 2, "b": 3}]]), json!({}));
    let run = run(&host, &graph);
    assert_eq!(tool_messages(&run), ["The sum of 2 and 3 is 5."]);
    let record = serde_json::to_value(run.record(true)).expect("a record");
    assert_eq!(record["steps"][0]["details"]["agent"]["tools"], json!(["sum"]));
    // The listing came in pages, all read, before the model was asked.
    let lists = host.methods().iter().filter(|m| *m == "tools/list").count();
    assert!(lists >= 3, "{lists}");
}

#[test]
fn changed_parameters_and_unlisted_tools_are_named() {
    let host = Replay::new(Script::default());
    let tools = json!({
        "sum": {"description": "Adds.", "parameters": {"type": "object", "properties": {"a": {"type": "string"}}},
                "run": {"mcp": {"server": "ev", "tool": "get-sum"}}},
    });
    let run = run(&host, &agent(tools, json!([["sum", {"a": "1"}]]), json!({})));
    assert!(
        tool_messages(&run)[0]
            .starts_with("error: tool `get-sum` of MCP server `ev` changed since the graph was designed"),
        "{:?}",
        tool_messages(&run)
    );
    let host = Replay::new(Script::default());
    let run = run_offering(&host, json!({"ech": mcp_tool("ech")}));
    let e = run.error().expect("an error");
    assert_eq!(e.node.as_deref(), Some("agent"));
    assert!(e.message.contains("MCP server `ev` lists no tool `ech` (did you mean `echo`?)"), "{}", e.message);
}

/// A run whose model is offered `tools` (without descriptions: the server's listing is read).
fn run_offering(host: &Replay, tools: Value) -> Run {
    run(host, &agent(tools, json!([]), json!({})))
}

#[test]
fn the_probe_lists_the_server_and_closes() {
    let host = Replay::new(Script::default());
    let server: engine::document::McpServer = serde_json::from_value(json!({"command": "node"})).expect("a server");
    let listing = pollster::block_on(mcp_probe(&host, "ev", &server)).expect("a listing");
    assert_eq!(listing.server_name, "mcp-servers/everything");
    assert_eq!(listing.protocol_version, "2025-11-25");
    let echo = listing.tools.iter().find(|t| t.name == "echo").expect("echo");
    assert_eq!(echo.description.as_deref(), Some("Echoes back the input string"));
    assert!(echo.input_schema.get("$schema").is_none());
    assert_eq!(echo.input_schema["required"], json!(["message"]));
    assert_eq!(host.closed.borrow().len(), 1);
}

#[test]
fn a_definitions_run_shares_the_runs_session() {
    let host = Replay::new(Script::default());
    let mut graph: Value = serde_json::from_str(&agent(
        json!({"echo": mcp_tool("echo"), "inner": {"description": "Runs the inner graph.", "run": {"use": "inner"}}}),
        json!([["echo", {"message": "hi"}], ["inner", {}]]),
        json!({}),
    ))
    .expect("JSON");
    graph["definitions"] = json!({"inner": {
        "format": "switchyard/graph@1",
        "state": {"messages": {"type": "messages"}},
        "tools": {"sum": mcp_tool("get-sum")},
        "nodes": [
            {"id": "start", "kind": "start"},
            {"id": "agent", "kind": "llm", "prompt": "add", "tools": ["sum"], "writes": "messages",
             "model": {"provider": "mock", "responses": [{"content": "", "tool_calls": [{"name": "sum", "arguments": {"a": 2, "b": 3}}]}]}},
            {"id": "tools", "kind": "tools", "messages": "messages"},
            {"id": "end", "kind": "end"}
        ],
        "edges": [{"from": "start", "to": "agent"}, {"from": "agent", "to": "tools"}, {"from": "tools", "to": "end"}]
    }});
    let run = run(&host, &graph.to_string());
    assert_eq!(run.status(), Status::Completed, "{:?}", run.error());
    assert_eq!(tool_messages(&run)[0], "Echo: hi");
    let methods = host.methods();
    assert!(methods.contains(&"tools/call get-sum".to_string()), "{methods:?}");
    // One session for the run and the definition's run inside it, closed once, by the run.
    assert_eq!(methods.iter().filter(|m| *m == "initialize").count(), 1, "{methods:?}");
    assert_eq!(host.closed.borrow().len(), 1);
}

#[test]
fn an_interrupted_run_closes_its_sessions_and_opens_new_ones_when_it_goes_on() {
    let host = Replay::new(Script::default());
    let mut graph: Value = serde_json::from_str(&agent(
        json!({"echo": mcp_tool("echo")}),
        json!([["echo", {"message": "hi"}]]),
        json!({}),
    ))
    .expect("JSON");
    // A person approves between the tool call and the model's answer.
    graph["nodes"].as_array_mut().expect("nodes").push(json!({"id": "ask", "kind": "human", "writes": "ok"}));
    graph["edges"] = json!([
        {"from": "start", "to": "agent"},
        {"from": "agent", "to": "tools", "when": "has_tool_calls(state.messages)"},
        {"from": "agent", "to": "end", "when": "!has_tool_calls(state.messages)"},
        {"from": "tools", "to": "ask"},
        {"from": "ask", "to": "agent"}
    ]);
    let plan = Rc::new(compile(&parse_graph(&graph.to_string()).expect("a graph")).plan.expect("valid"));
    let mut run = Run::start(plan, json!({"messages": "go"}), &host).expect("input");
    pollster::block_on(run.run(&host));
    assert_eq!(run.status(), Status::Interrupted);
    assert_eq!(host.closed.borrow().len(), 1, "closed when the run stopped for a person");
    run.answer("ask", json!(true)).expect("an answer");
    pollster::block_on(run.run(&host));
    assert_eq!(run.status(), Status::Completed, "{:?}", run.error());
    assert_eq!(tool_messages(&run), ["Echo: hi"]);
    // The model was offered `echo` again: a new session, closed at the end too.
    assert_eq!(host.methods().iter().filter(|m| *m == "initialize").count(), 2);
    assert_eq!(host.closed.borrow().len(), 2);
}

#[test]
fn a_recorded_run_replays_its_mcp_calls_and_listings_without_the_server() {
    let host = Replay::new(Script::default());
    let text = agent(json!({"sum": mcp_tool("get-sum")}), json!([["sum", {"a": 2, "b": 3}]]), json!({}));
    let graph = parse_graph(&text).expect("parses");
    let record = run(&host, &text).record(true);
    let mcp: Vec<(String, String)> = record
        .replies
        .iter()
        .filter(|r| r.kind == engine::ReplyKind::Mcp)
        .map(|r| (r.node.clone(), r.request["method"].as_str().unwrap_or_default().to_string()))
        .collect();
    assert!(mcp.contains(&("agent".into(), "tools/list".into())), "the listing the model was told of: {mcp:?}");
    assert!(mcp.contains(&("tools".into(), "tools/call".into())), "{mcp:?}");
    let call = record.replies.iter().find(|r| r.request["method"] == "tools/call").expect("a call");
    assert_eq!(call.request["params"], json!({"name": "get-sum", "arguments": {"a": 2, "b": 3}}));

    // Replayed on a host that reaches no MCP server at all.
    let case = engine::suite::case_from_record(&record, "sum");
    let suite = engine::suite::Suite {
        schema: None,
        format: engine::suite::TESTS_FORMAT.into(),
        graph: engine::suite::SuiteGraph { path: None, name: graph.display_name().into(), hash: None },
        cases: vec![case],
        evaluators: Vec::new(),
        dataset: None,
    };
    let prepared = engine::suite::prepare(&suite, &graph, &|_| Err("none".into())).expect("prepares");
    let plan = Rc::new(compile(&graph).plan.expect("valid"));
    let offline = OfflineHost::new();
    let result = pollster::block_on(engine::suite::run_case(
        plan,
        &suite.cases[0],
        &prepared,
        engine::suite::ReplayMode::Replay,
        &offline,
    ));
    let why: Vec<String> = result.failures.iter().map(ToString::to_string).collect();
    assert!(result.passed, "{why:?}");
    assert_eq!(tool_messages_of(&result.record), ["The sum of 2 and 3 is 5."]);
}

/// The tool messages a record's final state holds.
fn tool_messages_of(record: &engine::RunRecord) -> Vec<String> {
    record.state["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|m| m["role"] == "tool")
        .map(|m| m["content"].as_str().unwrap_or_default().to_string())
        .collect()
}
