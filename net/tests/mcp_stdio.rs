//! Exchanges over stdio with real MCP servers (the reference "everything" server from npm, a
//! Python server on the official SDK) and with programs that misbehave: what a run would see.

mod mcp_common;

use std::time::{Duration, Instant};

use engine::host::{McpEnd, McpEndpoint};
use mcp_common::mcp_support::{python, server_js};
use mcp_common::*;
use net::mcp::{close, close_all};
use serde_json::{Value, json};

fn everything(env: Vec<(String, String)>) -> McpEndpoint {
    McpEndpoint::Stdio { program: "node".into(), args: vec![server_js("everything"), "stdio".into()], env }
}

fn sh(script: &str, env: Vec<(String, String)>) -> McpEndpoint {
    McpEndpoint::Stdio { program: "sh".into(), args: vec!["-c".into(), script.into()], env }
}

/// Waits (on a busy machine, up to a minute) until no process carries `marker`.
fn wait_until_gone(marker: &str) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !processes_with("MARK", marker).is_empty() {
        assert!(Instant::now() < deadline, "a process of {marker} outlived its close");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_session_initializes_lists_its_tools_and_calls_echo() {
    let mark = marker("session");
    let ev = everything(vec![("MARK".into(), mark.clone())]);
    let policy = allowing(&["node"]);
    let seen = std::cell::RefCell::new(Vec::new());
    let init = net::mcp::exchange(&exchange(&ev, vec![initialize()], Some(1)), &policy, &|m| {
        seen.borrow_mut().push(m.to_string())
    });
    let info = result(&init);
    assert_eq!(info["protocolVersion"], "2025-11-25");
    assert_eq!(info["serverInfo"]["name"], "mcp-servers/everything");
    assert_eq!(*seen.borrow(), init.received, "`seen` is told of each message");
    let connection = init.connection.clone().expect("a live connection");
    assert_eq!(processes_with("MARK", &mark).len(), 1, "one process started");

    let listed = net::mcp::exchange(
        &then(&ev, &init, vec![initialized(), request(2, "tools/list", json!({}))], Some(2)),
        &policy,
        &|_| {},
    );
    let listing = result(&listed);
    let tools: Vec<&str> = listing["tools"].as_array().unwrap().iter().filter_map(|t| t["name"].as_str()).collect();
    assert!(tools.contains(&"echo") && tools.contains(&"get-sum"), "{tools:?}");
    assert_eq!(listed.connection.as_deref(), Some(connection.as_str()), "the same process");

    let echoed = net::mcp::exchange(
        &then(&ev, &init, vec![call(3, "echo", json!({"message": "hi"}))], Some(3)),
        &policy,
        &|_| {},
    );
    assert_eq!(text(&result(&echoed)), "Echo: hi");

    close(&ev, Some(&connection), None, &policy);
    wait_until_gone(&mark);
    let after = net::mcp::exchange(
        &then(&ev, &init, vec![call(4, "echo", json!({"message": "x"}))], Some(4)),
        &policy,
        &|_| {},
    );
    assert_eq!(after.end, McpEnd::Lost, "a closed connection is unknown");
}

/// Starts the everything server and readies a session (initialize, initialized).
fn ready(ev: &McpEndpoint, policy: &net::mcp::McpPolicy) -> engine::host::McpReply {
    let init = net::mcp::exchange(&exchange(ev, vec![initialize()], Some(1)), policy, &|_| {});
    result(&init);
    let sent = net::mcp::exchange(&then(ev, &init, vec![initialized()], None), policy, &|_| {});
    assert_eq!(sent.end, McpEnd::Sent);
    init
}

#[test]
fn progress_notifications_arrive_before_the_result() {
    let ev = everything(Vec::new());
    let policy = allowing(&["node"]);
    let init = ready(&ev, &policy);
    let long = call(2, "trigger-long-running-operation", json!({"duration": 1, "steps": 3}));
    let reply = net::mcp::exchange(&then(&ev, &init, vec![long], Some(2)), &policy, &|_| {});
    let res = result(&reply);
    assert!(text(&res).contains("completed"), "{res}");
    let all = messages(&reply);
    let progress = notifications(&all, "notifications/progress");
    assert_eq!(progress.len(), 3, "{all:?}");
    assert_eq!(progress[2]["params"]["progress"], 3);
    assert_eq!(progress[0]["params"]["progressToken"], 2);
    close(&ev, init.connection.as_deref(), None, &policy);
}

#[test]
fn a_call_past_its_timeout_times_out_and_the_session_goes_on() {
    let ev = everything(Vec::new());
    let policy = allowing(&["node"]);
    let init = ready(&ev, &policy);
    let mut slow =
        then(&ev, &init, vec![call(2, "trigger-long-running-operation", json!({"duration": 60, "steps": 5}))], Some(2));
    slow.timeout_ms = 300;
    let started = Instant::now();
    let reply = net::mcp::exchange(&slow, &policy, &|_| {});
    assert_eq!(reply.end, McpEnd::TimedOut);
    // A minute's operation: giving up at the timeout shows even on a busy machine.
    assert!(started.elapsed() < Duration::from_secs(30), "gave up at the timeout, not at the end of the call");
    assert!(reply.connection.is_some(), "the process stays for the session's next call");
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 2, "reason": "timed out after 300 ms"}});
    let sent = net::mcp::exchange(&then(&ev, &init, vec![cancel.to_string()], None), &policy, &|_| {});
    assert_eq!(sent.end, McpEnd::Sent);
    let next = net::mcp::exchange(
        &then(&ev, &init, vec![call(3, "echo", json!({"message": "after"}))], Some(3)),
        &policy,
        &|_| {},
    );
    assert_eq!(text(&result(&next)), "Echo: after");
    close(&ev, init.connection.as_deref(), None, &policy);
}

/// The server's environment as its `get-env` tool shows it.
fn server_env(ev: &McpEndpoint) -> serde_json::Map<String, Value> {
    let policy = allowing(&["node"]);
    let init = ready(ev, &policy);
    let reply = net::mcp::exchange(&then(ev, &init, vec![call(2, "get-env", json!({}))], Some(2)), &policy, &|_| {});
    close(ev, init.connection.as_deref(), None, &policy);
    match serde_json::from_str(&text(&result(&reply))).expect("get-env gives JSON") {
        Value::Object(env) => env,
        other => panic!("not an object: {other}"),
    }
}

/// Run by [`a_server_sees_only_the_minimal_environment_and_its_own`] in a process whose
/// environment holds keys; skipped otherwise.
#[test]
fn inner_environment_check() {
    let Ok(key) = std::env::var("OPENAI_API_KEY") else { return };
    let env = server_env(&everything(vec![("MARK".into(), "x".into())]));
    let mut names: Vec<&str> = env.keys().map(String::as_str).collect();
    names.sort_unstable();
    let mut want: Vec<&str> =
        ["PATH", "HOME", "LANG", "TERM", "USER"].into_iter().filter(|v| std::env::var_os(v).is_some()).collect();
    want.push("MARK");
    want.sort_unstable();
    assert_eq!(names, want, "only the minimal environment and the server's own");
    assert!(!env.values().any(|v| v.as_str() == Some(key.as_str())), "no key anywhere");
}

#[test]
fn a_server_sees_only_the_minimal_environment_and_its_own() {
    let status = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "inner_environment_check", "--nocapture"])
        .env("OPENAI_API_KEY", "sk-test-not-for-servers-0123456789")
        .env("ANTHROPIC_API_KEY", "sk-ant-not-for-servers-0123456789")
        .env("SWITCHYARD_MCP_TOKENS", "http://127.0.0.1:9=tok-not-for-servers")
        .status()
        .expect("the test binary runs again");
    assert!(status.success(), "the environment check failed in the inner run");
}

#[test]
fn a_line_that_is_not_json_rpc_is_garbage() {
    let mark = marker("garbage");
    let prog = sh("echo hello; sleep 30", vec![("MARK".into(), mark.clone())]);
    let policy = allowing(&["sh"]);
    let started = Instant::now();
    let reply = net::mcp::exchange(&exchange(&prog, vec![initialize()], Some(1)), &policy, &|_| {});
    assert_eq!(reply.end, McpEnd::Garbage("hello".into()));
    assert!(started.elapsed() < Duration::from_secs(20), "did not wait for the program to end");
    close(&prog, reply.connection.as_deref(), None, &policy);
    wait_until_gone(&mark);
}

#[test]
fn a_server_that_exits_says_so_with_its_stderr() {
    let prog = sh("echo oops >&2; exit 3", Vec::new());
    let reply = net::mcp::exchange(&exchange(&prog, vec![initialize()], Some(1)), &allowing(&["sh"]), &|_| {});
    match reply.end {
        McpEnd::Exited { code, stderr } => {
            assert_eq!(code, Some(3));
            assert_eq!(stderr, "oops");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(reply.connection, None, "nothing left to name");
}

#[test]
fn a_line_over_the_bound_is_too_large() {
    let prog = sh("head -c 5000 /dev/zero | tr '\\0' x; echo; sleep 30", Vec::new());
    let policy = allowing(&["sh"]);
    let mut x = exchange(&prog, vec![initialize()], Some(1));
    x.max_bytes = 1000;
    let reply = net::mcp::exchange(&x, &policy, &|_| {});
    assert_eq!(reply.end, McpEnd::TooLarge);
    close(&prog, reply.connection.as_deref(), None, &policy);
}

#[test]
fn an_unknown_connection_is_lost_and_nothing_starts() {
    let mark = marker("lost");
    let ev = everything(vec![("MARK".into(), mark.clone())]);
    let mut x = exchange(&ev, vec![call(2, "echo", json!({"message": "x"}))], Some(2));
    x.connection = Some("mcp-from-another-process-0".into());
    let reply = net::mcp::exchange(&x, &allowing(&["node"]), &|_| {});
    assert_eq!(reply.end, McpEnd::Lost);
    assert!(processes_with("MARK", &mark).is_empty());
}

#[test]
fn a_program_not_allowed_is_refused_and_never_started() {
    let dir = std::env::temp_dir().join(marker("refused"));
    std::fs::create_dir_all(&dir).unwrap();
    let flag = dir.join("started");
    let prog = sh(&format!("touch '{}'", flag.display()), Vec::new());
    let reply =
        net::mcp::exchange(&exchange(&prog, vec![initialize()], Some(1)), &allowing(&["node", "/bin/sh"]), &|_| {});
    match &reply.end {
        McpEnd::Refused(why) => assert!(why.contains("--allow-command sh"), "{why}"),
        other => panic!("{other:?}"),
    }
    assert!(!flag.exists(), "the program never ran");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_program_that_cannot_start_is_named() {
    let prog = McpEndpoint::Stdio { program: "no-such-mcp-server".into(), args: vec![], env: vec![] };
    let reply =
        net::mcp::exchange(&exchange(&prog, vec![initialize()], Some(1)), &allowing(&["no-such-mcp-server"]), &|_| {});
    match &reply.end {
        McpEnd::Failed(why) => assert!(why.starts_with("could not start `no-such-mcp-server`"), "{why}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn closing_ends_a_server_that_ignores_its_stdin_and_its_children() {
    let mark = marker("stubborn");
    // A shell that never reads stdin, with a child of its own: only signals to the group end them.
    let prog = sh("sleep 60 & wait", vec![("MARK".into(), mark.clone())]);
    let policy = allowing(&["sh"]);
    let mut x = exchange(&prog, vec![initialize()], Some(1));
    x.timeout_ms = 100;
    let reply = net::mcp::exchange(&x, &policy, &|_| {});
    assert_eq!(reply.end, McpEnd::TimedOut);
    assert_eq!(processes_with("MARK", &mark).len(), 2, "the shell and its sleep");
    close(&prog, reply.connection.as_deref(), None, &policy);
    // Both were sent KILL; the orphaned sleep is reaped by whoever adopts it, which on a busy
    // machine (or a container's init) may take a moment after close returns.
    wait_until_gone(&mark);
}

/// Run by [`close_all_leaves_no_child`] in a process of its own (closing every child of this
/// one would end the other tests' servers); skipped otherwise.
#[test]
fn inner_close_all() {
    let Ok(mark) = std::env::var("SWITCHYARD_TEST_CLOSE_ALL") else { return };
    let ev = everything(vec![("MARK".into(), mark.clone())]);
    let policy = allowing(&["node"]);
    let a = net::mcp::exchange(&exchange(&ev, vec![initialize()], Some(1)), &policy, &|_| {});
    let b = net::mcp::exchange(&exchange(&ev, vec![initialize()], Some(1)), &policy, &|_| {});
    result(&a);
    result(&b);
    assert_ne!(a.connection, b.connection);
    assert_eq!(net::mcp::live_processes(), 2);
    assert_eq!(processes_with("MARK", &mark).len(), 2);
    close_all();
    assert_eq!(net::mcp::live_processes(), 0);
}

#[test]
fn close_all_leaves_no_child() {
    let mark = marker("all");
    let status = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "inner_close_all", "--nocapture"])
        .env("SWITCHYARD_TEST_CLOSE_ALL", &mark)
        .status()
        .expect("the test binary runs again");
    assert!(status.success(), "the inner run failed");
    wait_until_gone(&mark);
}

#[test]
fn requests_from_the_server_are_answered_within_the_call() {
    let py = McpEndpoint::Stdio { program: python(), args: vec![asker_py(), "stdio".into()], env: Vec::new() };
    let policy = allowing(&[python().as_str()]);
    let init = ready(&py, &policy);
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
        let mut x = then(&py, &init, vec![call(id, "ask", json!({"what": what}))], Some(id));
        x.timeout_ms = 10_000;
        let reply = net::mcp::exchange(&x, &policy, &|_| {});
        let all = messages(&reply);
        assert!(
            all.iter().any(|m| m.get("method").is_some() && m.get("id").is_some()),
            "the server's request is in `received`: {all:?}"
        );
        assert!(text(&result(&reply)).starts_with(want), "{what}: {}", text(&result(&reply)));
    }
    close(&py, init.connection.as_deref(), None, &policy);
}

#[test]
fn the_program_is_found_on_the_hosts_path_whatever_the_servers_env_says() {
    // A folder with its own `sh` that would leave a marker: an env naming it as PATH must not
    // choose which `sh` runs (validation refuses such an env; the host does not rely on it).
    let dir = tempfile::tempdir().expect("a folder");
    let planted = dir.path().join("sh");
    let ran = dir.path().join("planted-ran");
    std::fs::write(&planted, format!("#!/bin/sh\ntouch {}\n", ran.display())).expect("written");
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&planted, std::fs::Permissions::from_mode(0o755)).expect("executable");
    }
    let mark = marker("path");
    // Only shell builtins after PATH is replaced: `read` waits on the open stdin.
    let prog = sh(
        "echo hello; read -r line",
        vec![("PATH".into(), dir.path().display().to_string()), ("MARK".into(), mark.clone())],
    );
    let policy = allowing(&["sh"]);
    let reply = net::mcp::exchange(&exchange(&prog, vec![initialize()], Some(1)), &policy, &|_| {});
    assert_eq!(reply.end, McpEnd::Garbage("hello".into()), "the host's sh ran");
    assert!(!ran.exists(), "the document's sh ran");
    close(&prog, reply.connection.as_deref(), None, &policy);
    wait_until_gone(&mark);
}
