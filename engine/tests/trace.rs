//! Runs as OpenTelemetry spans (format.md §15), over the templates run on a host with a wall
//! clock: the tree, names, tokens, no key and no content unless asked, the interrupt event,
//! the links of a resume and a fork, a subgraph's inner steps, ids derived from the run, and
//! a live run's spans equal to its record's.

mod support;

use std::cell::RefCell;
use std::collections::{BTreeMap, HashSet};

use engine::host::{Clock, HttpFailure, HttpRequest, HttpResponse, LocalBoxFuture};
use engine::trace::{AttrValue, SpanDoc, SpanStatus, TraceId, TraceOptions, record_spans, span_id_for};
use engine::{Host, OfflineHost, Run, RunRecord, Status};
use serde_json::{Value, json};
use support::{graph_of, plan_of, template_text};

/// Where the fake wall clock starts: 2026-11-28, in epoch milliseconds.
const EPOCH: f64 = 1_795_860_000_000.0;

/// The offline host with a wall clock (each reading one millisecond later), which answers
/// every HTTP request 200 and keeps what it was asked.
struct StampedHost {
    inner: OfflineHost,
    asked: RefCell<Vec<HttpRequest>>,
}

impl StampedHost {
    fn new() -> StampedHost {
        StampedHost { inner: OfflineHost::with_tick(1.0), asked: RefCell::new(Vec::new()) }
    }
}

impl Host for StampedHost {
    fn now_ms(&self) -> f64 {
        self.inner.now_ms()
    }
    fn epoch_ms(&self) -> Option<f64> {
        Some(EPOCH + self.inner.now_ms())
    }
    fn new_run_id(&self) -> String {
        self.inner.new_run_id()
    }
    fn http(&self, request: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, HttpFailure>> {
        self.asked.borrow_mut().push(request);
        Box::pin(async { Ok(HttpResponse::new(200, String::from("{\"ok\": true}"))) })
    }
    fn sleep(&self, ms: u64) -> LocalBoxFuture<'_, ()> {
        self.inner.sleep(ms)
    }
    fn clock(&self) -> Option<Clock> {
        self.inner.clock()
    }
}

/// Runs template `file` with `input`, answering its human nodes in order from `answers`,
/// collecting the live spans after every step and each session's root when it ends.
fn run_live(file: &str, input: Value, answers: &[(&str, Value)], options: TraceOptions) -> (RunRecord, Vec<SpanDoc>) {
    let graph = graph_of(&template_text(file));
    let host = StampedHost::new();
    let mut run = Run::start(plan_of(&graph), input, &host).expect("the input fits");
    let mut live = Vec::new();
    let mut exported = 0;
    let mut answers = answers.iter();
    loop {
        pollster::block_on(run.step(&host));
        live.extend(run.new_spans(exported, options));
        exported = run.step_count();
        if run.status() == Status::Running {
            continue;
        }
        live.extend(run.session_span(options));
        if run.status() != Status::Interrupted {
            break;
        }
        let (node, value) = answers.next().expect("an answer for each wait");
        run.answer(node, value.clone()).expect("the answer fits");
    }
    (run.record(true), live)
}

/// The step engine template: it waits for its operator after a few steps.
fn operator() -> (RunRecord, Vec<SpanDoc>) {
    let input = json!({"readings": [12, 15, 18, 21, 24, 27]});
    let answer = json!("Page the plant engineer");
    run_live("001-step-engine.json", input, &[("ask_operator", answer)], TraceOptions::default())
}

fn attr<'a>(span: &'a SpanDoc, key: &str) -> Option<&'a AttrValue> {
    span.attributes.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

fn int(span: &SpanDoc, key: &str) -> i64 {
    match attr(span, key) {
        Some(AttrValue::Int(n)) => *n,
        other => panic!("{key} of {}: {other:?}", span.name),
    }
}

fn text<'a>(span: &'a SpanDoc, key: &str) -> &'a str {
    match attr(span, key) {
        Some(AttrValue::Str(s)) => s,
        other => panic!("{key} of {}: {other:?}", span.name),
    }
}

fn roots(spans: &[SpanDoc]) -> Vec<&SpanDoc> {
    spans.iter().filter(|s| s.parent.is_none()).collect()
}

/// Every span's parent is a span of its trace, and starts no later than it ends.
fn assert_tree(spans: &[SpanDoc]) {
    let ids: HashSet<_> = spans.iter().map(|s| (s.trace_id, s.span_id)).collect();
    assert_eq!(ids.len(), spans.len(), "span ids are unique");
    for s in spans {
        if let Some(p) = s.parent {
            assert!(ids.contains(&(s.trace_id, p)), "{} has a parent in its trace", s.name);
        }
        assert!(s.start_ms <= s.end_ms, "{} ends after it starts", s.name);
        assert!(s.start_ms >= EPOCH, "{} is stamped with the host's wall clock", s.name);
    }
}

fn all_text(spans: &[SpanDoc]) -> String {
    format!("{spans:?}")
}

#[test]
fn a_tool_agent_run_is_a_tree_of_steps_nodes_model_and_tool_calls_with_its_tokens() {
    let input = json!({"question": "What should I pack for Paris and Oslo?"});
    let (record, spans) = run_live("005-tool-agent.json", input, &[], TraceOptions::default());
    assert_tree(&spans);
    let [root] = roots(&spans)[..] else { panic!("one session, one root") };
    assert_eq!(root.name, format!("run {}", record.graph));
    assert_eq!(record.trace_id.as_deref(), Some(root.trace_id.to_string().as_str()));
    assert_eq!(text(root, "switchyard.run.status"), "completed");
    assert_eq!(int(root, "gen_ai.usage.input_tokens"), record.usage.input_tokens as i64);
    let names: Vec<&str> = spans.iter().map(|s| s.name.as_str()).collect();
    assert!(names.contains(&"step 1") && names.contains(&"node agent"), "{names:?}");
    let chats: Vec<&SpanDoc> = spans.iter().filter(|s| s.name.starts_with("chat ")).collect();
    assert_eq!(chats.len(), record.replies.iter().filter(|r| r.kind == engine::ReplyKind::Model).count());
    let chat = chats[0];
    assert_eq!(text(chat, "gen_ai.operation.name"), "chat");
    assert_eq!(text(chat, "gen_ai.provider.name"), "switchyard.mock");
    assert_eq!(text(chat, "openinference.span.kind"), "LLM");
    assert_eq!(attr(chat, "gen_ai.response.finish_reasons"), Some(&AttrValue::StrList(vec!["tool_calls".into()])));
    let node = spans.iter().find(|s| Some(s.span_id) == chat.parent).expect("the chat's parent");
    assert_eq!(node.name, "node agent");
    assert!(node.end_ms > node.start_ms, "an effect node has the time the engine stamped");
    let tools: Vec<&SpanDoc> = spans.iter().filter(|s| s.name.starts_with("execute_tool ")).collect();
    assert!(!tools.is_empty(), "the tools node's calls are spans");
    assert_eq!(text(tools[0], "openinference.span.kind"), "TOOL");
    assert!(attr(tools[0], "gen_ai.tool.call.id").is_some());
    assert_eq!(spans.iter().find(|s| Some(s.span_id) == tools[0].parent).map(|s| s.name.as_str()), Some("node tools"));
}

#[test]
fn content_is_left_out_unless_capture_is_on() {
    let input = json!({"question": "What should I pack for Paris and Oslo?"});
    let (_, plain) = run_live("005-tool-agent.json", input.clone(), &[], TraceOptions::default());
    let (_, captured) =
        run_live("005-tool-agent.json", input, &[], TraceOptions { capture_content: true, ..TraceOptions::default() });
    let content_keys = ["gen_ai.input.messages", "gen_ai.output.messages", "gen_ai.tool.call.arguments", "input.value"];
    for key in content_keys {
        assert!(plain.iter().all(|s| attr(s, key).is_none()), "{key} is not exported by default");
        assert!(captured.iter().any(|s| attr(s, key).is_some()), "{key} is exported with capture on");
    }
    assert!(!all_text(&plain).contains("Paris"), "the question does not leave without capture");
    let chat = captured.iter().find(|s| s.name.starts_with("chat ")).expect("a chat span");
    let messages: Value = serde_json::from_str(text(chat, "gen_ai.input.messages")).expect("JSON text");
    assert_eq!(messages[0]["parts"][0]["type"], "text");
}

#[test]
fn no_key_leaves_in_a_header_or_a_url_query() {
    let graph = graph_of(
        r#"{"format": "switchyard/graph@1", "name": "fetcher",
            "state": {"data": {"type": "object"}},
            "nodes": [{"id": "start", "kind": "start"},
                      {"id": "fetch", "kind": "http", "method": "POST",
                       "url": "https://user:sk-planted-secret@api.example.com:8443/v1/items?api_key=sk-planted-secret",
                       "headers": {"X-Api-Key": "sk-planted-secret", "X-Trace": "sk-planted-secret"},
                       "body": "{}", "writes": "data"},
                      {"id": "end", "kind": "end"}],
            "edges": [{"from": "start", "to": "fetch"}, {"from": "fetch", "to": "end"}]}"#,
    );
    let host = StampedHost::new();
    let mut run = Run::start(plan_of(&graph), json!({}), &host).expect("starts");
    pollster::block_on(run.run(&host));
    assert_eq!(host.asked.borrow().len(), 1, "the request was made");
    let options = TraceOptions { capture_content: true, ..TraceOptions::default() };
    let spans = record_spans(&run.record(true), Some(&graph), options);
    assert!(!all_text(&spans).contains("sk-planted-secret"), "no key in any span: {spans:#?}");
    let post = spans.iter().find(|s| s.name == "POST").expect("the HTTP span");
    assert_eq!(text(post, "url.full"), "https://api.example.com:8443/v1/items");
    assert_eq!((text(post, "server.address"), int(post, "server.port")), ("api.example.com", 8443));
    assert_eq!(int(post, "http.response.status_code"), 200);
}

#[test]
fn a_wait_ends_a_session_and_the_resumed_one_links_back() {
    let (record, spans) = operator();
    assert_eq!(record.traces.len(), 2, "start and resume: {:?}", record.traces);
    let ids: Vec<TraceId> = record.traces.iter().map(|t| TraceId::parse(&t.trace_id).expect("hex")).collect();
    let root = |t: TraceId| *roots(&spans).iter().find(|s| s.trace_id == t).expect("a root per session");
    let first = root(ids[0]);
    assert_eq!(first.status, SpanStatus::Unset);
    let event = first.events.iter().find(|e| e.name == "switchyard.interrupt").expect("the interrupt event");
    assert_eq!(event.attributes[0].1, AttrValue::StrList(vec!["ask_operator".into()]));
    assert_eq!(event.time_ms, first.end_ms);
    let second = root(ids[1]);
    assert_eq!(second.links.len(), 1);
    assert_eq!((second.links[0].trace_id, second.links[0].span_id), (first.trace_id, first.span_id));
    assert_eq!(second.links[0].attributes[0].1, AttrValue::Str("resumed".into()));
    assert_eq!(int(second, "switchyard.session.from_step"), record.traces[1].from_step as i64);
    assert!(spans.iter().filter(|s| s.name.starts_with("step ")).all(|s| {
        let step = int(s, "switchyard.step") as u64;
        s.trace_id == ids[usize::from(step >= record.traces[1].from_step)]
    }));
}

#[test]
fn a_fork_starts_its_own_trace_linked_to_the_session_it_came_from() {
    let (record, _) = operator();
    let graph = graph_of(&template_text("001-step-engine.json"));
    let host = StampedHost::new();
    let source = Run::from_record(plan_of(&graph), &record, &host).expect("the record reads");
    let fork = source.fork(1, None, &host).expect("forks");
    let fork_record = fork.record(true);
    let from = fork_record.forked_from.as_ref().expect("forked");
    assert_eq!(from.trace_id.as_deref(), Some(record.traces[0].trace_id.as_str()));
    assert_ne!(fork_record.trace_id, record.trace_id);
    assert_eq!(fork_record.traces[0].from_step, 2);
    let spans = record_spans(&fork_record, Some(&graph), TraceOptions::default());
    let root = roots(&spans)[0];
    assert_eq!(root.links[0].trace_id, TraceId::parse(&record.traces[0].trace_id).expect("hex"));
    assert_eq!(root.links[0].attributes[0].1, AttrValue::Str("forked".into()));
}

#[test]
fn a_subgraph_node_holds_its_inner_steps_and_their_calls() {
    let input = json!({"task": "Book this month's supplier invoices"});
    let answers = [
        ("approve_plan", json!({"plan_decision": "approve"})),
        ("approve_result", json!({"result_decision": "approve"})),
    ];
    let (record, spans) = run_live("004-linear-orchestrator.json", input, &answers, TraceOptions::default());
    assert_tree(&spans);
    let slot = spans.iter().find(|s| s.name == "node slot_1").expect("a subgraph node's span");
    assert_eq!(text(slot, "switchyard.node.kind"), "subgraph");
    let inner: Vec<&SpanDoc> = spans.iter().filter(|s| s.parent == Some(slot.span_id)).collect();
    assert!(!inner.is_empty() && inner.iter().all(|s| s.name.starts_with("step ")), "{inner:?}");
    let inner_nodes = spans.iter().filter(|s| inner.iter().any(|i| Some(i.span_id) == s.parent)).count();
    assert!(inner_nodes > 0, "the inner steps have their nodes");
    let inner_calls = record.replies.iter().filter(|r| r.node.starts_with("slot_1/")).count();
    let chats_under_slot = spans
        .iter()
        .filter(|s| s.name.starts_with("chat "))
        .filter(|s| {
            let node = spans.iter().find(|n| Some(n.span_id) == s.parent).expect("parent");
            let step = spans.iter().find(|n| Some(n.span_id) == node.parent).expect("grandparent");
            step.parent == Some(slot.span_id)
        })
        .count();
    assert_eq!(chats_under_slot, inner_calls, "each inner model call sits under its inner node");
}

#[test]
fn ids_are_derived_from_the_run_so_a_second_run_names_the_same_spans() {
    let (a_record, a) = operator();
    let (b_record, b) = operator();
    assert_eq!(a_record.traces, b_record.traces);
    assert_eq!(a, b, "the same run on the same clock maps to the same spans");
    let trace = TraceId::parse(&a_record.traces[0].trace_id).expect("hex");
    assert_eq!(roots(&a).iter().find(|r| r.trace_id == trace).map(|r| r.span_id), Some(span_id_for(trace, "run")));
}

#[test]
fn a_live_runs_spans_equal_its_records() {
    for (file, input, answers) in [
        ("005-tool-agent.json", json!({"question": "What should I pack for Paris and Oslo?"}), vec![]),
        (
            "003-approval.json",
            json!({"request": "two days off next week", "requester": "Dana"}),
            vec![("get_approval", json!({"decision": "reject", "comments": "short-staffed"}))],
        ),
        ("006-map-reduce.json", json!({"document": "Intro\n## Costs\nThey rose.\n## Risks\nLate."}), vec![]),
    ] {
        let options = TraceOptions { capture_content: true, ..TraceOptions::default() };
        let (record, live) = run_live(file, input, &answers, options);
        let graph = graph_of(&template_text(file));
        let by_id = |spans: Vec<SpanDoc>| -> BTreeMap<String, SpanDoc> {
            spans.into_iter().map(|s| (format!("{}{}", s.trace_id, s.span_id), s)).collect()
        };
        let from_record = by_id(record_spans(&record, Some(&graph), options));
        let live = by_id(live);
        assert_eq!(live.len(), from_record.len(), "{file}: as many spans");
        for (id, span) in &from_record {
            assert_eq!(live.get(id), Some(span), "{file}: span {}", span.name);
        }
        let through_json: RunRecord = serde_json::from_str(&serde_json::to_string(&record).unwrap()).unwrap();
        assert_eq!(by_id(record_spans(&through_json, Some(&graph), options)), from_record, "{file}: a saved record");
    }
}

#[test]
fn an_unstamped_record_is_laid_out_from_the_start_the_caller_gives() {
    let graph = graph_of(&template_text("005-tool-agent.json"));
    let record = support::run_with(
        plan_of(&graph),
        &json!({"question": "What should I pack?"}),
        &[],
        &OfflineHost::with_tick(2.0),
    );
    assert!(record.traces.len() == 1 && record.steps.as_ref().unwrap()[0].started_ms.is_none());
    let options = TraceOptions { unstamped_start_ms: EPOCH, ..TraceOptions::default() };
    let spans = record_spans(&record, Some(&graph), options);
    let root = roots(&spans)[0];
    assert_eq!(root.start_ms, EPOCH);
    let total: f64 = record.steps.as_ref().unwrap().iter().map(|s| s.duration_ms).sum();
    assert_eq!(root.end_ms, EPOCH + total);
    let mut old = record.clone();
    old.traces.clear();
    old.trace_id = None;
    assert_eq!(record_spans(&old, Some(&graph), options), spans, "a record from before traces maps the same");
}
