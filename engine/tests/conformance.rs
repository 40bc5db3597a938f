//! The conformance corpus: every file in `tests/conformance/` at the workspace root is one
//! case (a graph, its input, answers or forks, and what must come out). The same cases run
//! natively and, compiled to wasm32, under wasm-bindgen-test, so both targets are held to the
//! same expectations. See `tests/conformance/README.md` for the case format.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::rc::Rc;

use engine::host::{Auth, Clock, Host, HttpFailure, HttpRequest, HttpResponse, LocalBoxFuture, Origin, check_origin};
use engine::record::snapshots::{self, StepStates};
use engine::run::Breakpoints;
use engine::{OfflineHost, Run, compile, parse_graph};
use include_dir::{Dir, include_dir};
use serde_json::{Value, json};

static CASES: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/../tests/conformance");

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

#[test]
fn conformance_corpus() {
    let mut failures = Vec::new();
    let mut count = 0;
    for file in CASES.files() {
        let name = file.path().display().to_string();
        if !name.ends_with(".json") {
            continue;
        }
        count += 1;
        let text = file.contents_utf8().unwrap_or_default();
        if let Err(e) = run_case(text) {
            failures.push(format!("{name}: {e}"));
        }
    }
    assert!(failures.is_empty(), "{} of {count} cases failed:\n{}", failures.len(), failures.join("\n"));
    assert!(count >= 30, "the corpus should hold at least 30 cases, found {count}");
}

fn run_case(text: &str) -> Result<(), String> {
    let case: Value = serde_json::from_str(text).map_err(|e| format!("case file is not JSON: {e}"))?;
    let kind = case["kind"].as_str().unwrap_or("run");
    match kind {
        "parse" => parse_case(&case),
        "validate" => validate_case(&case),
        "run" => run_case_stages(&case),
        other => Err(format!("unknown case kind {other}")),
    }
}

fn graph_of(case: &Value) -> Result<engine::Graph, String> {
    let text = match &case["graph"] {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    parse_graph(&text).map_err(|e| format!("graph does not parse: {e}"))
}

fn parse_case(case: &Value) -> Result<(), String> {
    let text = case["text"].as_str().ok_or("parse case needs `text`")?;
    let want = &case["expect"]["parse_error"];
    match parse_graph(text) {
        Ok(_) if want.is_null() => Ok(()),
        Ok(_) => Err("expected a parse error, but the document parsed".into()),
        Err(e) => {
            if want.is_null() {
                return Err(format!("unexpected parse error: {e}"));
            }
            if let Some(p) = want["path"].as_str()
                && e.path != p
            {
                return Err(format!("parse error path: want {p}, got {} ({e})", e.path));
            }
            if let Some(l) = want["line"].as_u64()
                && e.line != Some(l as usize)
            {
                return Err(format!("parse error line: want {l}, got {:?} ({e})", e.line));
            }
            if let Some(c) = want["contains"].as_str()
                && !e.to_string().contains(c)
            {
                return Err(format!("parse error should contain {c:?}: {e}"));
            }
            Ok(())
        }
    }
}

fn validate_case(case: &Value) -> Result<(), String> {
    let graph = graph_of(case)?;
    let diags = engine::validate(&graph);
    let rendered: Vec<String> = diags.iter().map(ToString::to_string).collect();
    let want = case["expect"]["diagnostics"].as_array().ok_or("validate case needs expect.diagnostics")?;
    for w in want {
        let sev = w["severity"].as_str().unwrap_or("error");
        let path = w["path"].as_str().unwrap_or("");
        let contains = w["contains"].as_str().unwrap_or("");
        let found = diags.iter().any(|d| {
            let s = if d.is_error() { "error" } else { "warning" };
            s == sev && d.path == path && d.message.contains(contains)
        });
        if !found {
            return Err(format!("missing diagnostic {sev} {path}: …{contains}…; got:\n  {}", rendered.join("\n  ")));
        }
    }
    if case["expect"]["exhaustive"].as_bool() == Some(true) && diags.len() != want.len() {
        return Err(format!("expected exactly {} diagnostics, got:\n  {}", want.len(), rendered.join("\n  ")));
    }
    Ok(())
}

fn run_case_stages(case: &Value) -> Result<(), String> {
    let graph = graph_of(case)?;
    let compiled = compile(&graph);
    let Some(plan) = compiled.plan else {
        let errs: Vec<String> = compiled.diagnostics.iter().map(ToString::to_string).collect();
        return Err(format!("graph is invalid:\n  {}", errs.join("\n  ")));
    };
    let plan = Rc::new(plan);
    let host = ScriptedHost::new(case)?;
    let input = case.get("input").cloned().unwrap_or_else(|| json!({}));
    let mut run = match Run::start(plan.clone(), input, &host) {
        Ok(run) => run,
        Err(e) => {
            let want = &case["expect"]["input_error"];
            if want.is_null() {
                return Err(format!("input rejected: {e}"));
            }
            let path_ok = want["path"].as_str().is_none_or(|p| p == e.path);
            let text_ok = want["contains"].as_str().is_none_or(|c| e.to_string().contains(c));
            return if path_ok && text_ok {
                Ok(())
            } else {
                Err(format!("input error mismatch: want {want}, got {e}"))
            };
        }
    };
    if !case["expect"]["input_error"].is_null() {
        return Err("expected the input to be rejected".into());
    }
    let case_breakpoints = breakpoints_of(case, &Breakpoints::default())?;
    run.set_breakpoints(case_breakpoints.clone());
    pollster::block_on(run.run(&host));
    check_run(&run, &case["expect"]).map_err(|e| format!("first run: {e}"))?;
    host.check(&case["expect"]).map_err(|e| format!("first run: {e}"))?;

    for (k, stage) in case["then"].as_array().cloned().unwrap_or_default().iter().enumerate() {
        let before = strip(&run.record(true));
        let mut next = if let Some(fork) = stage.get("fork") {
            let step = fork["from_step"].as_u64().ok_or("fork needs from_step")?;
            let set = fork.get("set").and_then(Value::as_object).cloned();
            run.fork(step, set, &host).map_err(|e| format!("stage {k}: fork refused: {e}"))?
        } else {
            // Continue the same run (through its record, as the CLI does).
            let record = run.record(true);
            let text = serde_json::to_string(&record).map_err(|e| e.to_string())?;
            let reread: engine::RunRecord =
                serde_json::from_str(&text).map_err(|e| format!("record does not re-read: {e}"))?;
            let mut r =
                Run::from_record(plan.clone(), &reread, &host).map_err(|e| format!("stage {k}: from_record: {e}"))?;
            if strip(&r.record(true)) != before {
                return Err(format!("stage {k}: a run rebuilt from its record differs from the original"));
            }
            r.resume();
            r
        };
        // A stage's breakpoints are those it gives, else the case's (a fork keeps its own).
        if stage.get("break_before").is_some() || stage.get("break_after").is_some() || stage.get("fork").is_none() {
            next.set_breakpoints(breakpoints_of(stage, &case_breakpoints)?);
        }
        let want_refusal = &stage["expect"]["answer_error"];
        let mut refused = false;
        if let Some(answers) = stage.get("answer").and_then(Value::as_object) {
            for (node, v) in answers {
                match next.answer(node, v.clone()) {
                    Ok(()) => {}
                    Err(e) if answer_error_matches(want_refusal, &e) => refused = true,
                    Err(e) => return Err(format!("stage {k}: answer refused: {e}")),
                }
            }
        }
        if !want_refusal.is_null() && !refused {
            return Err(format!("stage {k}: expected an answer to be refused with {want_refusal}"));
        }
        pollster::block_on(next.run(&host));
        check_run(&next, &stage["expect"]).map_err(|e| format!("stage {k}: {e}"))?;
        host.check(&stage["expect"]).map_err(|e| format!("stage {k}: {e}"))?;
        if stage.get("fork").is_some() && strip(&run.record(true)) != before {
            return Err(format!("stage {k}: forking changed the original run"));
        }
        if stage["keep_original"].as_bool() != Some(true) {
            run = next;
        }
    }
    Ok(())
}

/// The breakpoints `at` (a case or a stage) gives in `break_before` / `break_after`: lists of
/// node ids; either key left out keeps `inherited`'s.
fn breakpoints_of(at: &Value, inherited: &Breakpoints) -> Result<Breakpoints, String> {
    let ids = |key: &str, inherited: &std::collections::BTreeSet<String>| match at.get(key) {
        None => Ok(inherited.clone()),
        Some(Value::Array(ids)) => ids
            .iter()
            .map(|id| id.as_str().map(str::to_string).ok_or(format!("{key} lists node ids, got {id}")))
            .collect(),
        Some(other) => Err(format!("{key} must be a list of node ids, got {other}")),
    };
    Ok(Breakpoints { before: ids("break_before", &inherited.before)?, after: ids("break_after", &inherited.after)? })
}

/// Whether a refused answer is the one the stage expects: `answer_error` is a substring of
/// the error, or `{path, contains}`.
fn answer_error_matches(want: &Value, e: &engine::InputError) -> bool {
    match want {
        Value::String(c) => e.to_string().contains(c.as_str()),
        Value::Object(_) => {
            want["path"].as_str().is_none_or(|p| p == e.path)
                && want["contains"].as_str().is_none_or(|c| e.message.contains(c))
        }
        _ => false,
    }
}

/// A record without what differs between equal runs (ids, durations).
fn strip(record: &engine::RunRecord) -> Value {
    let mut v = serde_json::to_value(record).unwrap_or(Value::Null);
    v["run_id"] = Value::Null;
    if let Some(steps) = v["steps"].as_array_mut() {
        for s in steps {
            s["duration_ms"] = Value::Null;
        }
    }
    v
}

/// `Run::write_step_json` writes every step byte for byte as its `StepDoc` serializes.
fn step_json_is_the_step_docs(run: &Run) -> Result<(), String> {
    for states in [StepStates::Snapshots, StepStates::Every] {
        for k in 0..run.steps().len() {
            let doc = serde_json::to_vec(&run.step_doc(k, states)).map_err(|e| e.to_string())?;
            let mut written = Vec::new();
            run.write_step_json(k, states, &mut written);
            if written != doc {
                return Err(format!(
                    "step {k} written straight:\n  {}\nas its StepDoc:\n  {}",
                    String::from_utf8_lossy(&written),
                    String::from_utf8_lossy(&doc)
                ));
            }
        }
    }
    Ok(())
}

fn check_run(run: &Run, want: &Value) -> Result<(), String> {
    step_json_is_the_step_docs(run)?;
    let rec = run.record(true);
    let rec_json = serde_json::to_value(&rec).map_err(|e| e.to_string())?;
    if let Some(s) = want["status"].as_str()
        && rec.status.name() != s
    {
        return Err(format!("status: want {s}, got {} (error: {:?})", rec.status.name(), rec.error));
    }
    if let Some(state) = want.get("state")
        && rec_json["state"] != *state
    {
        return Err(format!("final state:\n  want {state}\n  got  {}", rec_json["state"]));
    }
    if let Some(Value::Object(partial)) = want.get("state_includes") {
        for (k, v) in partial {
            if rec_json["state"][k] != *v {
                return Err(format!("state.{k}: want {v}, got {}", rec_json["state"][k]));
            }
        }
    }
    let steps = rec.steps.as_deref().unwrap_or_default();
    if let Some(Value::Array(ran)) = want.get("steps") {
        let got: Vec<Value> = steps.iter().map(|s| json!(s.ran)).collect();
        if got != *ran {
            return Err(format!(
                "nodes run per step:\n  want {}\n  got  {}",
                Value::Array(ran.clone()),
                Value::Array(got)
            ));
        }
    }
    if let Some(n) = want["step"].as_u64()
        && rec.step != n
    {
        return Err(format!("step: want {n}, got {}", rec.step));
    }
    if let Some(next) = want.get("next")
        && json!(rec.next) != *next
    {
        return Err(format!("next: want {next}, got {}", json!(rec.next)));
    }
    if let Some(err) = want.get("error") {
        match (&rec.error, err) {
            (None, Value::Null) => {}
            (Some(e), Value::Null) => return Err(format!("unexpected error: {e:?}")),
            (None, _) => return Err(format!("expected error {err}, got none")),
            (Some(e), w) => {
                let got = serde_json::to_value(e).map_err(|e| e.to_string())?;
                if let Some(k) = w["kind"].as_str()
                    && got["kind"] != k
                {
                    return Err(format!("error kind: want {k}, got {got}"));
                }
                if let Some(n) = w.get("node")
                    && got["node"] != *n
                {
                    return Err(format!("error node: want {n}, got {got}"));
                }
                if let Some(c) = w["contains"].as_str()
                    && !e.message.contains(c)
                {
                    return Err(format!("error message should contain {c:?}: {}", e.message));
                }
            }
        }
    }
    if let Some(Value::Array(waiting)) = want.get("waiting") {
        let got = serde_json::to_value(&rec.waiting).map_err(|e| e.to_string())?;
        if got != Value::Array(waiting.clone()) {
            return Err(format!("waiting: want {}, got {got}", Value::Array(waiting.clone())));
        }
    }
    if let Some(Value::Object(outs)) = want.get("outputs") {
        for (node, hist) in outs {
            if rec_json["outputs"][node] != *hist {
                return Err(format!("outputs.{node}: want {hist}, got {}", rec_json["outputs"][node]));
            }
        }
    }
    if let Some(Value::Object(errs)) = want.get("step_errors") {
        // step number → node → substring of its error
        for (step, nodes) in errs {
            let i: usize = step.parse().map_err(|_| "step_errors keys are step numbers")?;
            let s = steps.get(i.wrapping_sub(1)).ok_or(format!("no step {i}"))?;
            for (node, c) in nodes.as_object().cloned().unwrap_or_default() {
                let e = s.errors.get(&node).ok_or(format!("step {i}: no error for {node}"))?;
                if !e.message.contains(c.as_str().unwrap_or("")) {
                    return Err(format!("step {i} error of {node} should contain {c}: {}", e.message));
                }
            }
        }
    }
    if let Some(Value::Object(taken)) = want.get("taken") {
        for (step, edges) in taken {
            let i: usize = step.parse().map_err(|_| "taken keys are step numbers")?;
            let s = steps.get(i.wrapping_sub(1)).ok_or(format!("no step {i}"))?;
            if json!(s.taken) != *edges {
                return Err(format!("step {i} taken edges: want {edges}, got {:?}", s.taken));
            }
        }
    }
    if let Some(usage) = want.get("usage")
        && rec_json["usage"] != *usage
    {
        return Err(format!("usage: want {usage}, got {}", rec_json["usage"]));
    }
    for what in ["details", "updates"] {
        if let Some(Value::Object(by_step)) = want.get(what) {
            // step number → node → what its details (or update) must include
            for (step, nodes) in by_step {
                let i: usize = step.parse().map_err(|_| format!("{what} keys are step numbers"))?;
                let got = &rec_json["steps"][i.wrapping_sub(1)][what];
                for (node, w) in nodes.as_object().cloned().unwrap_or_default() {
                    includes(&w, &got[&node], &format!("step {i} {what}.{node}"))?;
                }
            }
        }
    }
    check_step_fields(&rec_json, want)?;
    check_patches(run, &rec_json)?;
    check_snapshots(run, &rec_json, want)?;
    Ok(())
}

/// Whether `got` holds everything `want` does: an object's keys (others may be there too),
/// a list item by item (same length), anything else equal; `{"$contains": "text"}` takes any
/// string holding that text.
fn includes(want: &Value, got: &Value, at: &str) -> Result<(), String> {
    if let Some(text) = want.get("$contains").and_then(Value::as_str) {
        return match got.as_str() {
            Some(g) if g.contains(text) => Ok(()),
            _ => Err(format!("{at}: want a string containing {text:?}, got {got}")),
        };
    }
    match (want, got) {
        (Value::Object(w), Value::Object(g)) => {
            for (k, v) in w {
                includes(v, g.get(k).unwrap_or(&Value::Null), &format!("{at}.{k}"))?;
            }
            Ok(())
        }
        (Value::Array(w), Value::Array(g)) if w.len() == g.len() => {
            for (k, (a, b)) in w.iter().zip(g).enumerate() {
                includes(a, b, &format!("{at}[{k}]"))?;
            }
            Ok(())
        }
        (w, g) if w == g => Ok(()),
        // 0 and 0.0 are the same number (durations are floats).
        (Value::Number(w), Value::Number(g)) if w.as_f64() == g.as_f64() => Ok(()),
        (w, g) => Err(format!("{at}: want {w}, got {g}")),
    }
}

/// The host a case runs on: a fake clock, and, when the case scripts `http` replies, a
/// network that answers with them in order and checks each request against what the reply
/// expects (`expect`: method, url, headers (null: absent), auth, and JSON the body must
/// include). `stream: true` makes the host watch replies arrive: bodies come in small
/// pieces and the text each node's model added is kept, for `expect.deltas`.
struct ScriptedHost {
    /// Run ids.
    offline: OfflineHost,
    /// A fake clock that advances `tick` at each reading, and by a sleep's length only when
    /// the sleep is waited for (a timeout raced by a reply that came first costs nothing).
    clock: Rc<Cell<f64>>,
    tick: f64,
    replies: RefCell<Vec<Value>>,
    problems: RefCell<Vec<String>>,
    sent: RefCell<usize>,
    stream: bool,
    deltas: RefCell<BTreeMap<String, String>>,
    trusted: Vec<Origin>,
}

impl ScriptedHost {
    fn new(case: &Value) -> Result<ScriptedHost, String> {
        let mut replies = case["http"].as_array().cloned().unwrap_or_default();
        replies.reverse();
        let trusted = case["trusted_origins"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|o| o.as_str().and_then(Origin::of).ok_or(format!("{o} is not an origin")))
            .collect::<Result<_, _>>()?;
        Ok(ScriptedHost {
            offline: OfflineHost::new(),
            clock: Rc::new(Cell::new(0.0)),
            tick: case["clock_tick_ms"].as_f64().unwrap_or(0.0),
            replies: RefCell::new(replies),
            problems: RefCell::new(Vec::new()),
            sent: RefCell::new(0),
            stream: case["stream"].as_bool() == Some(true),
            deltas: RefCell::new(BTreeMap::new()),
            trusted,
        })
    }

    /// The scripted reply to `request`, its expectations checked.
    fn answer(&self, request: &HttpRequest) -> Result<HttpResponse, HttpFailure> {
        *self.sent.borrow_mut() += 1;
        let Some(reply) = self.replies.borrow_mut().pop() else {
            return Err(HttpFailure {
                message: format!("no network in this host ({} {})", request.method, request.url),
                timed_out: false,
            });
        };
        if let Err(e) = expect_request(&reply["expect"], request) {
            self.problems.borrow_mut().push(format!("request {}: {e}", self.sent.borrow()));
        }
        if let Some(message) = reply["fail"].as_str() {
            return Err(HttpFailure { message: message.into(), timed_out: false });
        }
        let body = match &reply["body"] {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let headers = reply["headers"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
            .collect();
        Ok(HttpResponse { status: reply["status"].as_u64().unwrap_or(200) as u16, body, headers })
    }

    /// Every scripted reply was asked for, every request was as expected, and the streamed
    /// text is as `expect.deltas` says.
    fn check(&self, want: &Value) -> Result<(), String> {
        let problems = std::mem::take(&mut *self.problems.borrow_mut());
        if !problems.is_empty() {
            return Err(problems.join("; "));
        }
        if let Some(n) = want["requests"].as_u64()
            && *self.sent.borrow() as u64 != n
        {
            return Err(format!("requests sent: want {n}, got {}", self.sent.borrow()));
        }
        if let Some(Value::Object(deltas)) = want.get("deltas") {
            let got = self.deltas.borrow();
            for (node, text) in deltas {
                if got.get(node).map(String::as_str) != text.as_str() {
                    return Err(format!("streamed text of {node}: want {text}, got {:?}", got.get(node)));
                }
            }
        }
        Ok(())
    }
}

/// Checks a request against what a scripted reply expects of it.
fn expect_request(want: &Value, r: &HttpRequest) -> Result<(), String> {
    if let Some(m) = want["method"].as_str()
        && m != r.method
    {
        return Err(format!("method: want {m}, got {}", r.method));
    }
    if let Some(u) = want["url"].as_str()
        && u != r.url
    {
        return Err(format!("url: want {u}, got {}", r.url));
    }
    if let Some(auth) = want.get("auth") {
        let got = match r.auth {
            Some(Auth::OpenAi) => json!("openai"),
            Some(Auth::Anthropic) => json!("anthropic"),
            None => Value::Null,
        };
        if *auth != got {
            return Err(format!("auth: want {auth}, got {got}"));
        }
    }
    for (name, value) in want["headers"].as_object().into_iter().flatten() {
        let got = r.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| json!(v));
        if got.clone().unwrap_or(Value::Null) != *value {
            return Err(format!("header {name}: want {value}, got {got:?}"));
        }
    }
    if let Some(body) = want.get("body") {
        let got: Value = r.body.as_deref().and_then(|b| serde_json::from_str(b).ok()).unwrap_or(Value::Null);
        includes(body, &got, "body")?;
    }
    if let Some(Value::Array(absent)) = want.get("body_lacks") {
        let got: Value = r.body.as_deref().and_then(|b| serde_json::from_str(b).ok()).unwrap_or(Value::Null);
        for key in absent.iter().filter_map(Value::as_str) {
            if got.get(key).is_some() {
                return Err(format!("body: `{key}` should be absent, got {}", got[key]));
            }
        }
    }
    Ok(())
}

/// `step_fields`: step number → fields of that step in the record, each exactly as given;
/// `step_includes`: the same, but an object matches one that has at least its keys;
/// `step_keys`: step number → field → the keys (names) of that object field, in order.
fn check_step_fields(rec: &Value, want: &Value) -> Result<(), String> {
    let step = |n: &str| -> Result<&Value, String> {
        let i: usize = n.parse().map_err(|_| format!("step keys are step numbers, got {n}"))?;
        rec["steps"].get(i.wrapping_sub(1)).ok_or(format!("no step {i}"))
    };
    for (key, exact) in [("step_fields", true), ("step_includes", false)] {
        for (n, fields) in want[key].as_object().into_iter().flatten() {
            let s = step(n)?;
            for (field, value) in fields.as_object().into_iter().flatten() {
                let got = s.get(field).unwrap_or(&Value::Null);
                let ok = if exact { got == value } else { has_all(got, value) };
                if !ok {
                    return Err(format!("step {n} {field}:\n  want {value}\n  got  {got}"));
                }
            }
        }
    }
    for (n, fields) in want["step_keys"].as_object().into_iter().flatten() {
        let s = step(n)?;
        for (field, keys) in fields.as_object().into_iter().flatten() {
            let got: Vec<&String> = s[field].as_object().map(|o| o.keys().collect()).unwrap_or_default();
            if json!(got) != *keys {
                return Err(format!("step {n} {field} names: want {keys}, got {}", json!(got)));
            }
        }
    }
    Ok(())
}

impl Host for ScriptedHost {
    fn now_ms(&self) -> f64 {
        let t = self.clock.get();
        self.clock.set(t + self.tick);
        t
    }
    fn new_run_id(&self) -> String {
        self.offline.new_run_id()
    }
    fn http(&self, request: HttpRequest) -> LocalBoxFuture<'_, Result<HttpResponse, HttpFailure>> {
        let reply = self.answer(&request);
        Box::pin(async move { reply })
    }
    fn sleep(&self, ms: u64) -> LocalBoxFuture<'_, ()> {
        let clock = self.clock.clone();
        Box::pin(async move { clock.set(clock.get() + ms as f64) })
    }
    fn clock(&self) -> Option<Clock> {
        let (clock, tick) = (self.clock.clone(), self.tick);
        Some(Rc::new(move || {
            let t = clock.get();
            clock.set(t + tick);
            t
        }))
    }
    fn key_allowed(&self, auth: Auth, url: &str) -> Result<(), String> {
        check_origin(auth, url, &self.trusted)
    }
    fn streams(&self) -> bool {
        self.stream
    }
    fn http_stream<'a>(
        &'a self,
        request: HttpRequest,
        chunk: &'a dyn Fn(&str),
    ) -> LocalBoxFuture<'a, Result<HttpResponse, HttpFailure>> {
        let reply = self.answer(&request);
        if let Ok(r) = &reply {
            // Small pieces that split lines and events anywhere.
            let chars: Vec<char> = r.body.chars().collect();
            for piece in chars.chunks(7) {
                chunk(&piece.iter().collect::<String>());
            }
        }
        Box::pin(async move { reply })
    }
    fn llm_delta(&self, node: &str, text: &str) {
        self.deltas.borrow_mut().entry(node.to_string()).or_default().push_str(text);
    }
}

/// Whether `got` has what `want` has: objects may hold more keys, everything else is equal.
fn has_all(got: &Value, want: &Value) -> bool {
    match (got, want) {
        (Value::Object(g), Value::Object(w)) => w.iter().all(|(k, v)| g.get(k).is_some_and(|gv| has_all(gv, v))),
        _ => got == want,
    }
}

/// Every step's patch turns the state before it into the state after it (what
/// `--full-states` writes); the default form gives a step its state exactly where the
/// snapshot rule says (first step, last step, patches since the previous snapshot adding up
/// to the state's size), each such state agrees with the patches, and every step's state
/// rebuilt from the nearest snapshot is the full form's.
fn check_patches(run: &Run, rec: &Value) -> Result<(), String> {
    // A fork's edit (`set`) shows up in the patch of its first own step, so the chain holds
    // from the initial state for forks too.
    let initial = run.state_at(0).map(|s| s.to_json()).unwrap_or_default();
    let full = serde_json::to_value(run.record_with(true, StepStates::Every)).map_err(|e| e.to_string())?;
    let docs = run.record(true).steps.unwrap_or_default();
    let steps = rec["steps"].as_array().cloned().unwrap_or_default();
    let mut state = Value::Object(initial.clone());
    let mut since = 0;
    for (k, s) in steps.iter().enumerate() {
        let patch: json_patch::Patch =
            serde_json::from_value(s["patch"].clone()).map_err(|e| format!("patch does not parse: {e}"))?;
        json_patch::patch(&mut state, &patch).map_err(|e| format!("step {}: patch does not apply: {e}", s["step"]))?;
        let full_state = &full["steps"][k]["state"];
        if state != *full_state {
            return Err(format!(
                "step {}: applying the patch gives {state}, but the step's state is {full_state}",
                s["step"]
            ));
        }
        since += s["patch"].to_string().len();
        let by_rule = k == 0 || since >= state.to_string().len();
        if by_rule {
            since = 0;
        }
        let due = by_rule || k + 1 == steps.len();
        match (&s["state"], due) {
            (Value::Null, false) => {}
            (snapshot, true) if *snapshot == state => {}
            (Value::Null, true) => {
                return Err(format!("step {}: the snapshot rule gives it its state, but it has none", s["step"]));
            }
            (_, false) => {
                return Err(format!("step {}: has its state, which the snapshot rule does not give it", s["step"]));
            }
            (snapshot, true) => {
                return Err(format!("step {}: snapshot {snapshot}, but the patches give {state}", s["step"]));
            }
        }
        let rebuilt = snapshots::state_after(&initial, &docs, k + 1).map_err(|e| format!("step {}: {e}", s["step"]))?;
        if Value::Object(rebuilt.clone()) != *full_state {
            return Err(format!(
                "step {}: rebuilt {}, but the full state is {full_state}",
                s["step"],
                Value::Object(rebuilt)
            ));
        }
    }
    Ok(())
}

/// `snapshots`: the steps that carry their state in the default form; `step_states`: the
/// state after a step, rebuilt from the nearest snapshot.
fn check_snapshots(run: &Run, rec: &Value, want: &Value) -> Result<(), String> {
    let steps = rec["steps"].as_array().cloned().unwrap_or_default();
    if let Some(w) = want.get("snapshots") {
        let got: Vec<&Value> = steps.iter().filter(|s| !s["state"].is_null()).map(|s| &s["step"]).collect();
        if json!(got) != *w {
            return Err(format!("steps with a snapshot: want {w}, got {}", json!(got)));
        }
    }
    let initial = run.state_at(0).map(|s| s.to_json()).unwrap_or_default();
    let docs = run.record(true).steps.unwrap_or_default();
    for (n, w) in want["step_states"].as_object().into_iter().flatten() {
        let k: usize = n.parse().map_err(|_| format!("step_states keys are step numbers, got {n}"))?;
        let got = Value::Object(snapshots::state_after(&initial, &docs, k).map_err(|e| e.to_string())?);
        if got != *w {
            return Err(format!("state after step {k} (rebuilt):\n  want {w}\n  got  {got}"));
        }
    }
    Ok(())
}

static TEMPLATES: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/../templates");

/// A template's run made into a test case (`engine::suite`) replays and passes, on both
/// targets; an edited prompt fails it by name. (tests/suite.rs has the full set, natively.)
#[test]
fn a_template_run_replays_as_a_test_case() {
    use engine::suite::{ReplayMode, Suite, SuiteGraph, TESTS_FORMAT, case_from_record, prepare, run_case};
    let text = TEMPLATES.get_file("003-approval.json").and_then(|f| f.contents_utf8()).expect("the template");
    let graph = parse_graph(text).expect("parses");
    let plan = Rc::new(compile(&graph).plan.expect("valid"));
    let host = OfflineHost::new();
    let mut run = Run::start(plan.clone(), json!({"request": "a day off", "requester": "Kim"}), &host).expect("input");
    pollster::block_on(run.run(&host));
    run.answer("get_approval", json!({"decision": "approve"})).expect("an answer");
    pollster::block_on(run.run(&host));
    let record = run.record(true);
    let suite = Suite {
        schema: None,
        format: TESTS_FORMAT.into(),
        graph: SuiteGraph { path: None, name: graph.display_name().into(), hash: record.graph_hash.clone() },
        cases: vec![case_from_record(&record, "approve")],
        evaluators: Vec::new(),
        dataset: None,
    };
    let suite = engine::suite::parse_suite(&serde_json::to_string(&suite).expect("JSON")).expect("reads back");
    let prepared = prepare(&suite, &graph, &|_| Err("none".into())).expect("prepares");
    let result = pollster::block_on(run_case(plan, &suite.cases[0], &prepared, ReplayMode::Replay, &host));
    assert!(result.passed, "{:?}", result.failures);
    let edited = parse_graph(&text.replace("Carry out", "Perform")).expect("parses");
    let plan = Rc::new(compile(&edited).plan.expect("valid"));
    let result = pollster::block_on(run_case(plan, &suite.cases[0], &prepared, ReplayMode::Replay, &host));
    assert!(!result.passed);
    assert!(
        result.failures[0]
            .to_string()
            .contains("node `approved_action`: the model request changed at /messages/0/content")
    );
}
