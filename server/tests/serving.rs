//! Serving concerns: bearer tokens, CORS, a busy thread (reject, enqueue), cancel, a
//! streaming client going away (the run goes on unless it asked to cancel), webhooks.

mod support;

#[path = "../../serve/tests/support/fake_openai.rs"]
mod fake_openai;

use std::io::Read;
use std::time::{Duration, Instant};

use fake_openai::FakeOpenAi;
use serde_json::{Value, json};
use support::{Server, agent, simple_graph};

/// `wait` calls a slow webhook (the fake's delay), then `after` sets `done`.
fn slow_graph(base_url: &str) -> Value {
    json!({
        "format": "switchyard/graph@1",
        "name": "slow",
        "state": {"n": {"type": "integer"}, "reply": {"type": "any"}, "done": {"type": "boolean"}},
        "nodes": [
            {"id": "start", "kind": "start"},
            {"id": "wait", "kind": "http", "method": "POST", "url": format!("{base_url}/slow"),
             "body": {"n": "{{ state.n }}"}, "writes": "reply", "timeout_ms": 60000},
            {"id": "after", "kind": "set", "set": {"done": "true"}},
            {"id": "end", "kind": "end"}
        ],
        "edges": [{"from": "start", "to": "wait"}, {"from": "wait", "to": "after"}, {"from": "after", "to": "end"}]
    })
}

fn run_status(server: &Server, tid: &str, rid: &str) -> String {
    server.get(&format!("/threads/{tid}/runs/{rid}")).1["status"].as_str().unwrap_or_default().to_string()
}

fn wait_final(server: &Server, tid: &str, rid: &str) -> String {
    let path = format!("/threads/{tid}/runs/{rid}");
    let run = server.until(&path, |r| !matches!(r["status"].as_str(), Some("pending" | "running")));
    run["status"].as_str().unwrap_or_default().to_string()
}

#[test]
fn with_tokens_every_request_but_ok_needs_one() {
    let server = Server::start_with(&[simple_graph()], |o| {
        let path = std::env::temp_dir().join(format!("switchyard-tokens-{}", std::process::id()));
        std::fs::write(&path, "# the team's token\nsecret-token-1\n").expect("written");
        o.token_file = Some(path);
    });
    assert_eq!(server.get("/ok").0, 200);
    let (status, answer) = server.post("/threads/search", &json!({}));
    assert_eq!(status, 401);
    assert!(answer["detail"].as_str().is_some_and(|d| d.contains("Bearer")));
    let with = agent()
        .post(&server.url("/threads/search"))
        .header("authorization", "Bearer secret-token-1")
        .send_json(json!({}))
        .expect("answered");
    assert_eq!(with.status().as_u16(), 200);
    let wrong = agent().post(&server.url("/threads/search")).header("x-api-key", "nope").send_json(json!({}));
    assert_eq!(wrong.expect("answered").status().as_u16(), 401);
}

#[test]
fn configured_origins_get_cors_headers_and_others_do_not() {
    let server = Server::start_with(&[simple_graph()], |o| o.cors_origin = vec!["http://editor.test".into()]);
    let asked = |origin: &str| {
        let r = agent().get(&server.url("/assistants/simple")).header("origin", origin).call().expect("answered");
        r.headers().get("access-control-allow-origin").and_then(|v| v.to_str().ok()).map(str::to_string)
    };
    assert_eq!(asked("http://editor.test").as_deref(), Some("http://editor.test"));
    assert_eq!(asked("http://elsewhere.test"), None);
}

#[test]
fn a_busy_thread_rejects_a_run_or_queues_it_and_cancel_stops_one() {
    let model = FakeOpenAi::start();
    model.set_hook_delay_ms(1500);
    let server = Server::start(&[slow_graph(&model.base_url())]);
    let tid = server.thread();
    let runs = format!("/threads/{tid}/runs");
    let (_, first) = server.post(&runs, &json!({"assistant_id": "slow", "input": {"n": 1}}));
    let first = first["run_id"].as_str().unwrap_or_default().to_string();
    let (status, refused) = server.post(&runs, &json!({"assistant_id": "slow", "input": {"n": 2}}));
    assert_eq!(status, 409, "{refused}");
    let (status, queued) =
        server.post(&runs, &json!({"assistant_id": "slow", "input": {"n": 3}, "multitask_strategy": "enqueue"}));
    assert_eq!(status, 200, "{queued}");
    assert_eq!(queued["status"], "pending");
    let queued = queued["run_id"].as_str().unwrap_or_default().to_string();
    assert_eq!(wait_final(&server, &tid, &first), "success");
    // The queued run starts once the first has ended; cancelled while in its slow step, it
    // ends `interrupted` before its next step.
    server.until(&format!("/threads/{tid}/runs/{queued}"), |r| r["status"] == "running");
    let (status, _) = server.post(&format!("/threads/{tid}/runs/{queued}/cancel"), &json!({}));
    assert_eq!(status, 202);
    assert_eq!(wait_final(&server, &tid, &queued), "interrupted");
    let (_, state) = server.get(&format!("/threads/{tid}/state"));
    assert_eq!(state["values"]["n"], 3);
    // Cancelled inside its slow step: that step is not a checkpoint, nothing after it ran.
    assert_eq!(state["next"], json!(["wait"]), "{state}");
    let (status, _) = server.post(&format!("/threads/{tid}/runs/{first}/cancel"), &json!({}));
    assert_eq!(status, 409, "an ended run cannot be cancelled");
}

/// Streams a run and goes away after the first event.
fn stream_and_leave(server: &Server, tid: &str, body: Value) {
    let response = agent().post(&server.url(&format!("/threads/{tid}/runs/stream"))).send_json(body).expect("streamed");
    let mut reader = response.into_body().into_reader();
    let mut first = [0u8; 16];
    let _ = reader.read(&mut first);
}

#[test]
fn a_client_leaving_a_stream_leaves_the_run_going_unless_it_asked_to_cancel() {
    let model = FakeOpenAi::start();
    model.set_hook_delay_ms(1000);
    let server = Server::start(&[slow_graph(&model.base_url())]);
    let (kept, dropped) = (server.thread(), server.thread());
    stream_and_leave(&server, &kept, json!({"assistant_id": "slow", "input": {"n": 1}}));
    stream_and_leave(&server, &dropped, json!({"assistant_id": "slow", "input": {"n": 1}, "on_disconnect": "cancel"}));
    let last_run =
        |tid: &str| server.get(&format!("/threads/{tid}/runs")).1[0]["run_id"].as_str().unwrap_or_default().to_string();
    let (k, d) = (last_run(&kept), last_run(&dropped));
    assert_eq!(wait_final(&server, &kept, &k), "success");
    assert_eq!(wait_final(&server, &dropped, &d), "interrupted");
    assert_eq!(run_status(&server, &kept, &k), "success");
}

#[test]
fn a_run_naming_a_webhook_is_posted_there_when_it_ends() {
    let model = FakeOpenAi::start();
    let server = Server::start(&[simple_graph()]);
    let tid = server.thread();
    let hook = format!("{}/done", model.base_url());
    let (_, values) = server.post(
        &format!("/threads/{tid}/runs/wait"),
        &json!({"assistant_id": "simple", "input": {"text": "w"}, "webhook": hook}),
    );
    assert_eq!(values["echo"], "echo: w");
    let since = Instant::now();
    while model.hooks().is_empty() {
        assert!(since.elapsed() < Duration::from_secs(30), "the webhook was never called");
        std::thread::sleep(Duration::from_millis(20));
    }
    let hooks = model.hooks();
    let body: Value = serde_json::from_str(hooks.keys().next().map_or("", String::as_str)).unwrap_or_default();
    assert_eq!(body["status"], "success");
    assert_eq!(body["thread_id"], tid.as_str());
    assert_eq!(body["values"]["echo"], "echo: w");
}

#[test]
fn a_cron_starts_runs_on_its_schedule_until_it_is_deleted() {
    let server = Server::start(&[simple_graph()]);
    let tid = server.thread();
    let body = json!({"assistant_id": "simple", "schedule": "* * * * * *", "input": {"text": "tick"}});
    let (status, cron) = server.post(&format!("/threads/{tid}/runs/crons"), &body);
    assert_eq!(status, 200, "{cron}");
    let id = cron["cron_id"].as_str().unwrap_or_default().to_string();
    assert_eq!(cron["thread_id"], tid.as_str());
    // Every second a run: the thread's count grows.
    server.until(&format!("/threads/{tid}"), |t| t["values"]["count"].as_i64().is_some_and(|n| n >= 2));
    let (_, found) = server.post("/runs/crons/search", &json!({"assistant_id": "simple"}));
    assert_eq!(found.as_array().map(Vec::len), Some(1));
    let (_, n) = server.post("/runs/crons/count", &json!({}));
    assert_eq!(n, 1);
    assert_eq!(server.delete(&format!("/runs/crons/{id}")), 204);
    assert_eq!(server.delete(&format!("/runs/crons/{id}")), 404);
    let (status, bad) = server.post("/runs/crons", &json!({"assistant_id": "simple", "schedule": "every day"}));
    assert_eq!(status, 422, "{bad}");
    // A stateless cron makes a thread per run, marked with the cron's id.
    let (_, stateless) = server
        .post("/runs/crons", &json!({"assistant_id": "simple", "schedule": "* * * * * *", "input": {"text": "s"}}));
    let search = json!({"metadata": {"cron_id": stateless["cron_id"]}});
    let since = Instant::now();
    while server.post("/threads/search", &search).1.as_array().is_none_or(Vec::is_empty) {
        assert!(since.elapsed() < Duration::from_secs(30), "the stateless cron never ran");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_long_step_keeps_the_stream_alive_with_heartbeats() {
    let model = FakeOpenAi::start();
    model.set_hook_delay_ms(6500);
    let server = Server::start(&[slow_graph(&model.base_url())]);
    let response = agent()
        .post(&server.url("/runs/stream"))
        .send_json(json!({"assistant_id": "slow", "input": {"n": 1}, "stream_mode": "updates"}))
        .expect("streamed");
    let mut text = String::new();
    let _ = response.into_body().into_reader().read_to_string(&mut text);
    assert!(text.lines().any(|l| l.starts_with(':')), "no heartbeat comment in {text}");
    assert!(text.contains("\"done\":true"), "{text}");
}

#[test]
fn every_template_loads_and_the_server_refuses_an_open_address_without_tokens() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../templates");
    let mut templates: Vec<_> = std::fs::read_dir(&root)
        .expect("the templates")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    templates.sort();
    let graphs = switchyard_server::graphs::Graphs::load(&templates).expect("every template loads");
    assert_eq!(graphs.list.len(), templates.len());

    let out = std::process::Command::new(env!("CARGO_BIN_EXE_switchyard-server"))
        .args(&templates)
        .args(["--listen", "0.0.0.0:0", "--data", ":memory:"])
        .output()
        .expect("the server runs");
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("--token-file"), "{said}");
}
