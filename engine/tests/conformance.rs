//! The conformance corpus: every file in `tests/conformance/` at the workspace root is one
//! case (a graph, its input, answers or forks, and what must come out). The same cases run
//! natively and, compiled to wasm32, under wasm-bindgen-test, so both targets are held to the
//! same expectations. See `tests/conformance/README.md` for the case format.

use std::rc::Rc;

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
    let host = OfflineHost::with_tick(case["clock_tick_ms"].as_f64().unwrap_or(0.0));
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
    pollster::block_on(run.run(&host));
    check_run(&run, &case["expect"]).map_err(|e| format!("first run: {e}"))?;

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
        if let Some(answers) = stage.get("answer").and_then(Value::as_object) {
            for (node, v) in answers {
                match next.answer(node, v.clone()) {
                    Ok(()) => {}
                    Err(e) => {
                        if let Some(c) = stage["expect"]["answer_error"].as_str()
                            && e.to_string().contains(c)
                        {
                            continue;
                        }
                        return Err(format!("stage {k}: answer refused: {e}"));
                    }
                }
            }
        }
        pollster::block_on(next.run(&host));
        check_run(&next, &stage["expect"]).map_err(|e| format!("stage {k}: {e}"))?;
        if stage.get("fork").is_some() && strip(&run.record(true)) != before {
            return Err(format!("stage {k}: forking changed the original run"));
        }
        if stage["keep_original"].as_bool() != Some(true) {
            run = next;
        }
    }
    Ok(())
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

fn check_run(run: &Run, want: &Value) -> Result<(), String> {
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
    check_step_fields(&rec_json, want)?;
    check_patches(run, &rec_json)?;
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
                let ok = if exact { got == value } else { includes(got, value) };
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

/// Whether `got` has what `want` has: objects may hold more keys, everything else is equal.
fn includes(got: &Value, want: &Value) -> bool {
    match (got, want) {
        (Value::Object(g), Value::Object(w)) => w.iter().all(|(k, v)| g.get(k).is_some_and(|gv| includes(gv, v))),
        _ => got == want,
    }
}

/// Every step's patch turns the state before it into the state after it.
fn check_patches(run: &Run, rec: &Value) -> Result<(), String> {
    // A fork's edit (`set`) shows up in the patch of its first own step, so the chain holds
    // from the initial state for forks too.
    let mut state = Value::Object(run.state_at(0).map(|s| s.to_json()).unwrap_or_default());
    for s in rec["steps"].as_array().cloned().unwrap_or_default() {
        let patch: json_patch::Patch =
            serde_json::from_value(s["patch"].clone()).map_err(|e| format!("patch does not parse: {e}"))?;
        json_patch::patch(&mut state, &patch).map_err(|e| format!("step {}: patch does not apply: {e}", s["step"]))?;
        if state != s["state"] {
            return Err(format!(
                "step {}: applying the patch gives {state}, but the step's state is {}",
                s["step"], s["state"]
            ));
        }
    }
    Ok(())
}
