//! The JSON Schemas in `schema/`: what `switchyard schema graph|run` prints, that they are
//! the ones committed, that they are valid draft 2020-12 schemas, and that they agree with the
//! engine: every document the engine accepts (templates, conformance cases, fixtures) the graph
//! schema accepts, every document it cannot even read the schema refuses, and every record
//! the CLI writes the run schema accepts.

mod binary;
mod mcp_support;

use std::path::{Path, PathBuf};

use binary::sy;
use serde_json::{Value, json};

/// Regenerates both committed files (from the repository's root).
const REGENERATE: &str = "for s in graph run; do cargo run -q -p switchyard -- schema $s > schema/$s.schema.json; done";

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `switchyard schema NAME`, parsed.
fn printed(name: &str) -> (String, Value) {
    let out = sy(&["schema", name]);
    out.assert_code(0);
    (out.stdout.clone(), out.json())
}

fn validator(name: &str) -> jsonschema::Validator {
    let (_, schema) = printed(name);
    jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("the {name} schema compiles: {e}"))
}

/// Every way `instance` breaks the schema, one line each (empty when it is valid).
fn errors(v: &jsonschema::Validator, instance: &Value) -> Vec<String> {
    v.iter_errors(instance).map(|e| format!("{} at {}", e, e.instance_path())).collect()
}

/// JSON files in `dir` (relative to the repository), sorted.
fn json_files(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(repo().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

// ---------------------------------------------------------------------------------------------
// The command and the committed files
// ---------------------------------------------------------------------------------------------

#[test]
fn the_committed_schemas_are_the_generated_ones() {
    for name in ["graph", "run"] {
        let (text, _) = printed(name);
        let file = repo().join("schema").join(format!("{name}.schema.json"));
        let committed = std::fs::read_to_string(&file).unwrap_or_default();
        assert!(
            committed == text,
            "schema/{name}.schema.json is not what `switchyard schema {name}` prints: regenerate both with\n    {REGENERATE}"
        );
    }
}

#[test]
fn each_schema_is_pretty_json_with_its_id_and_a_title() {
    for (name, id) in [("graph", engine::GRAPH_SCHEMA_ID), ("run", engine::RUN_SCHEMA_ID)] {
        let (text, schema) = printed(name);
        assert!(text.ends_with("}\n") && text.contains("\n  \"$id\""), "pretty, one trailing newline:\n{text}");
        assert_eq!(schema["$id"], id);
        assert_eq!(schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
        assert!(schema["title"].as_str().is_some_and(|t| t.contains("Switchyard")), "{}", schema["title"]);
        // Doc comments become descriptions that read as sentences, not as Rust docs.
        for bad in ["format.md", "[`", "\\n"] {
            assert!(!text.contains(bad), "the {name} schema holds {bad:?}");
        }
    }
}

#[test]
fn an_unknown_schema_name_is_bad_input() {
    sy(&["schema", "graphs"]).assert_bad_input(&["graphs", "graph", "run"]);
}

#[test]
fn both_schemas_are_valid_draft_2020_12() {
    for name in ["graph", "run"] {
        let (_, schema) = printed(name);
        if let Err(e) = jsonschema::meta::validate(&schema) {
            panic!("the {name} schema breaks the draft 2020-12 meta-schema: {e} at {}", e.instance_path());
        }
        // A broken schema is refused by the same check, so the one above can fail.
        let mut broken = schema.clone();
        broken["properties"]["format"]["type"] = json!("text");
        assert!(jsonschema::meta::validate(&broken).is_err());
    }
}

// ---------------------------------------------------------------------------------------------
// The graph schema agrees with the engine
// ---------------------------------------------------------------------------------------------

/// What the engine makes of a document's text.
#[derive(Debug, PartialEq)]
enum Engine {
    /// It does not read (unknown field, wrong type, …).
    Unreadable,
    /// It reads, with validation errors.
    Invalid,
    Valid,
}

fn engine_verdict(text: &str) -> Engine {
    match engine::parse_graph(text) {
        Err(_) => Engine::Unreadable,
        Ok(g) if engine::validate(&g).iter().any(engine::Diagnostic::is_error) => Engine::Invalid,
        Ok(_) => Engine::Valid,
    }
}

/// Every graph document in the repository, with where it comes from: templates, CLI
/// fixtures, and the conformance cases' graphs (and the raw text of `parse` cases).
fn corpus() -> Vec<(String, String)> {
    let mut docs = Vec::new();
    for dir in ["templates", "cli/tests/fixtures"] {
        for path in json_files(dir) {
            docs.push((path.display().to_string(), read(&path)));
        }
    }
    for path in json_files("tests/conformance") {
        let case: Value = serde_json::from_str(&read(&path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let text = match (&case["graph"], &case["text"]) {
            (Value::String(s), _) | (Value::Null, Value::String(s)) => s.clone(),
            (g @ Value::Object(_), _) => g.to_string(),
            _ => continue,
        };
        docs.push((path.display().to_string(), text));
    }
    docs
}

#[test]
fn the_graph_schema_accepts_every_valid_document_and_refuses_every_unreadable_one() {
    let v = validator("graph");
    let (mut valid, mut unreadable, mut invalid, mut invalid_refused) = (0, 0, 0, 0);
    let mut disagreements = Vec::new();
    for (from, text) in corpus() {
        // Text that is not JSON at all (a truncated file) has nothing to validate.
        let Ok(doc) = serde_json::from_str::<Value>(&text) else { continue };
        let schema_errors = errors(&v, &doc);
        match engine_verdict(&text) {
            Engine::Valid => {
                valid += 1;
                if !schema_errors.is_empty() {
                    disagreements.push(format!("{from}: the engine accepts it, the schema says {schema_errors:?}"));
                }
            }
            Engine::Unreadable => {
                unreadable += 1;
                if schema_errors.is_empty() {
                    disagreements.push(format!("{from}: the engine cannot read it, the schema accepts it"));
                }
            }
            // Most validation errors need the whole graph (edges to unknown nodes, expressions
            // that do not compile); the schema catches the ones that fit in one object.
            Engine::Invalid => {
                invalid += 1;
                invalid_refused += usize::from(!schema_errors.is_empty());
            }
        }
    }
    eprintln!(
        "{valid} valid documents, {unreadable} unreadable, {invalid} with validation errors \
         ({invalid_refused} of them also refused by the schema)"
    );
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
    assert!(valid >= 150, "the corpus shrank: only {valid} valid documents");
    assert!(unreadable >= 5, "the corpus lost its unreadable documents: {unreadable}");
}

/// Breaks a document in one way.
type Breaks = fn(&mut Value);

/// A small graph both the engine and the schema accept; each test below breaks it once.
fn base() -> Value {
    json!({
        "$schema": engine::GRAPH_SCHEMA_ID,
        "format": "switchyard/graph@1",
        "name": "Base",
        "state": {
            "count": { "type": "integer", "reducer": "add", "default": 0 },
            "notes": { "type": "list", "reducer": "append", "max_items": 3, "evict": "oldest" },
            "chat": { "type": "messages", "max_items": 10 }
        },
        "tools": { "double": { "description": "Doubles x", "run": { "script": "args.x * 2" } } },
        "nodes": [
            { "id": "start", "kind": "start" },
            { "id": "inc", "kind": "set", "set": { "count": "1" } },
            { "id": "ask", "kind": "human", "prompt": "Go on?", "writes": "answer", "options": ["yes", "no"] },
            { "id": "end", "kind": "end" }
        ],
        "edges": [
            { "from": "start", "to": "inc" },
            { "from": "inc", "to": "ask" },
            { "from": "ask", "to": "end", "label": "yes" },
            { "from": "ask", "to": "inc", "label": "no" }
        ],
        "layout": { "inc": { "x": 10, "y": 20.5 }, "viewport": { "x": 0, "y": 0, "zoom": 1.5 } }
    })
}

#[test]
fn the_base_graph_is_valid_for_both() {
    let v = validator("graph");
    assert_eq!(errors(&v, &base()), Vec::<String>::new());
    assert_eq!(engine_verdict(&base().to_string()), Engine::Valid);
}

/// Deliberate mistakes: each one the schema refuses, and so does the engine.
#[test]
fn the_graph_schema_refuses_what_the_engine_refuses() {
    let v = validator("graph");
    let mistakes: Vec<(&str, Breaks)> = vec![
        ("an unknown top-level field", |g| g["nodez"] = json!([])),
        ("an unknown node field", |g| g["nodes"][1]["sett"] = json!({})),
        ("an unknown node kind", |g| g["nodes"][1]["kind"] = json!("assign")),
        ("a node id with a space", |g| g["nodes"][1]["id"] = json!("in c")),
        ("a node id of 65 characters", |g| g["nodes"][1]["id"] = json!("a".repeat(65))),
        ("an unknown reducer", |g| g["state"]["count"]["reducer"] = json!("sum")),
        ("a reducer that does not fit the type", |g| g["state"]["notes"]["reducer"] = json!("add")),
        ("a `messages` field replaced whole", |g| g["state"]["chat"]["reducer"] = json!("replace")),
        ("an unknown field type", |g| g["state"]["count"]["type"] = json!("int")),
        ("a default of another type", |g| g["state"]["count"]["default"] = json!("zero")),
        ("max_items on a replaced field", |g| g["state"]["count"]["max_items"] = json!(2)),
        ("max_items of 0", |g| g["state"]["notes"]["max_items"] = json!(0)),
        ("an evict rule that is not one", |g| g["state"]["notes"]["evict"] = json!("newest")),
        ("evict on a transcript", |g| g["state"]["chat"]["evict"] = json!("oldest")),
        ("another kind's field", |g| g["nodes"][1]["url"] = json!("https://example.com")),
        ("a set node without `set`", |g| {
            g["nodes"][1].as_object_mut().map(|n| n.remove("set"));
        }),
        ("a human node writing nowhere", |g| {
            g["nodes"][2].as_object_mut().map(|n| n.remove("writes"));
        }),
        ("a wrong format", |g| g["format"] = json!("switchyard/graph@2")),
        ("nodes as an object", |g| g["nodes"] = json!({})),
        ("an edge to a bad id", |g| g["edges"][0]["to"] = json!("in c")),
        ("an unknown edge field", |g| g["edges"][0]["if"] = json!("true")),
        ("an unknown limit", |g| g["limits"] = json!({ "max_step": 3 })),
        ("zero retry attempts", |g| g["nodes"][1]["retry"] = json!({ "attempts": 0 })),
        ("a tool with two ways to run", |g| g["tools"]["double"]["run"]["use"] = json!("other")),
        ("a tool with no way to run", |g| g["tools"]["double"]["run"] = json!({})),
        ("a tool named with a space", |g| g["tools"] = json!({ "dou ble": { "run": { "script": "1" } } })),
        ("an api key in the model", |g| {
            g["nodes"][1] = json!({ "id": "inc", "kind": "llm", "prompt": "hi", "writes": "notes",
                                    "model": { "provider": "mock", "api_key": "sk-1" } });
        }),
        ("a position without y", |g| g["layout"]["inc"] = json!({ "x": 1 })),
        ("a position as a list", |g| g["layout"]["inc"] = json!([1, 2])),
    ];
    let mut failures = Vec::new();
    for (what, break_it) in mistakes {
        let mut doc = base();
        break_it(&mut doc);
        if errors(&v, &doc).is_empty() {
            failures.push(format!("the schema accepts {what}"));
        }
        if engine_verdict(&doc.to_string()) == Engine::Valid {
            failures.push(format!("the engine accepts {what} (the schema should not refuse it then)"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A node with only its id and kind: for each kind that needs more, both refuse its fields;
/// for the kinds that need nothing, both accept them.
#[test]
fn each_kind_needs_the_same_fields_in_the_schema_as_in_the_engine() {
    let v = validator("graph");
    for kind in engine::NodeKind::ALL {
        // A node of its own, apart from the rest: what the graph as a whole thinks of it
        // (a second start, no way in) is not the node's fields' business.
        let mut doc = base();
        doc["nodes"].as_array_mut().expect("nodes").push(json!({ "id": "bare", "kind": kind.name() }));
        let schema_ok = errors(&v, &doc).is_empty();
        let engine_errors: Vec<String> = engine::parse_graph(&doc.to_string())
            .map(|g| {
                engine::validate(&g)
                    .into_iter()
                    .filter(|d| d.is_error() && d.path.starts_with("nodes[4]."))
                    .map(|d| d.to_string())
                    .collect()
            })
            .unwrap_or_else(|e| vec![e.to_string()]);
        assert_eq!(
            schema_ok,
            engine_errors.is_empty(),
            "a bare `{}` node: schema {}, engine {engine_errors:?}",
            kind.name(),
            if schema_ok { "accepts it" } else { "refuses it" }
        );
    }
}

#[test]
fn null_reads_as_absent_for_both() {
    let v = validator("graph");
    let mut doc = base();
    doc["nodes"][1]["url"] = Value::Null;
    doc["nodes"][1]["retry"] = Value::Null;
    doc["state"]["chat"]["reducer"] = Value::Null;
    doc["limits"] = Value::Null;
    assert_eq!(errors(&v, &doc), Vec::<String>::new());
    assert_eq!(engine_verdict(&doc.to_string()), Engine::Valid);
}

// ---------------------------------------------------------------------------------------------
// The run schema accepts every record the CLI writes
// ---------------------------------------------------------------------------------------------

/// A value of the declared type of `field` (a string when undeclared).
fn sample(graph: &Value, field: &str) -> Value {
    match graph["state"][field]["type"].as_str() {
        Some("number" | "integer") => json!(2),
        Some("boolean") => json!(true),
        Some("list") => json!(["one", "two"]),
        Some("object") => json!({}),
        Some("messages") => json!([{ "role": "user", "content": "Hello" }]),
        _ => json!("Organize my notes and create an index"),
    }
}

/// An input holding every key the start node requires.
fn input_for(graph: &Value) -> Value {
    let start = graph["nodes"].as_array().into_iter().flatten().find(|n| n["kind"] == "start");
    let required = start.and_then(|s| s["required"].as_array()).cloned().unwrap_or_default();
    Value::Object(required.iter().filter_map(Value::as_str).map(|k| (k.to_string(), sample(graph, k))).collect())
}

/// Answers for whatever the record waits for: a form's defaults or first options, a
/// question's first option, else text.
fn answers_for(record: &Value) -> Value {
    let mut answers = serde_json::Map::new();
    for w in record["waiting"].as_array().into_iter().flatten() {
        let node = w["node"].as_str().unwrap_or_default().to_string();
        let answer = if let Some(fields) = w["fields"].as_object() {
            let form = fields.iter().map(|(name, f)| {
                let value = if !f["default"].is_null() {
                    f["default"].clone()
                } else if let Some(first) = f["options"].get(0) {
                    first.clone()
                } else {
                    match f["type"].as_str() {
                        Some("number" | "integer") => json!(1),
                        Some("boolean") => json!(true),
                        _ => json!("fine"),
                    }
                };
                (name.clone(), value)
            });
            Value::Object(form.collect())
        } else if let Some(first) = w["options"].get(0) {
            first.clone()
        } else {
            json!("fine")
        };
        answers.insert(node, answer);
    }
    Value::Object(answers)
}

#[test]
fn every_record_of_every_template_matches_the_run_schema() {
    let v = validator("run");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut checked = 0;
    let mut statuses = std::collections::BTreeSet::new();
    let mut check = |what: &str, record: &Value| {
        let errs = errors(&v, record);
        assert!(errs.is_empty(), "{what}: the record breaks the run schema:\n{}", errs.join("\n"));
        statuses.insert(record["status"].as_str().unwrap_or_default().to_string());
        checked += 1;
    };
    let mut graphs = json_files("templates");
    graphs.push(repo().join("cli/tests/fixtures/throws.json"));
    for path in graphs {
        let graph: Value = serde_json::from_str(&read(&path)).expect("a graph is JSON");
        let graph_file = with_local_servers(&path, &graph, dir.path());
        let input = input_for(&graph).to_string();
        let mut out = sy(&["run", &graph_file, "--input", &input, "--allow-command", "node"]);
        let mut record = out.json();
        check(&format!("run {graph_file}"), &record);
        let summary = sy(&["run", &graph_file, "--input", &input, "--summary", "--allow-command", "node"]).json();
        check(&format!("run {graph_file} --summary"), &summary);
        let first = dir.path().join(format!("{}-0.json", path.file_stem().unwrap_or_default().display()));
        std::fs::write(&first, &out.stdout).expect("save the record");
        // A fork from the first step carries `forked_from`.
        let first_file = first.display().to_string();
        let fork = sy(&["resume", &first_file, "--graph", &graph_file, "--from-step", "1", "--allow-command", "node"]);
        if fork.code != 2 {
            check(&format!("fork of {graph_file}"), &fork.json());
        }
        // Answer every question until the run ends (or a template wants answers these do not give).
        for round in 1..=8 {
            if record["status"] != "interrupted" || out.code != 3 {
                break;
            }
            let saved = dir.path().join(format!("{}-{round}.json", path.file_stem().unwrap_or_default().display()));
            std::fs::write(&saved, &out.stdout).expect("save the record");
            let answers = answers_for(&record).to_string();
            let saved = saved.display().to_string();
            out = sy(&["resume", &saved, "--graph", &graph_file, "--answer", &answers, "--allow-command", "node"]);
            if out.code == 2 {
                break;
            }
            record = out.json();
            check(&format!("resume {graph_file} (round {round})"), &record);
        }
    }
    eprintln!("{checked} records checked, statuses {statuses:?}");
    assert!(checked >= 20, "only {checked} records checked");
    for status in ["completed", "interrupted", "failed"] {
        assert!(statuses.contains(status), "no `{status}` record among {statuses:?}");
    }
}

/// `path` as a file to run: a template whose MCP memory server starts from npm (007) runs
/// the pinned copy in tests/mcp instead, with its memory in `dir`, so the check needs no
/// network; any other graph as it is.
fn with_local_servers(path: &Path, graph: &Value, dir: &Path) -> String {
    let Some(servers) = graph["mcp_servers"].as_object() else { return path.display().to_string() };
    let mut local = graph.clone();
    for (name, server) in servers {
        let runs_memory = server["args"].as_array().is_some_and(|a| {
            a.iter().any(|x| x.as_str().is_some_and(|x| x.starts_with("@modelcontextprotocol/server-memory")))
        });
        assert!(
            runs_memory || server.get("command").is_none(),
            "{}: no local copy for server `{name}`",
            path.display()
        );
        if runs_memory {
            let memory = dir.join(format!("{name}-memory.jsonl")).display().to_string();
            local["mcp_servers"][name] = json!({"command": "node", "args": [mcp_support::server_js("memory")], "env": {"MEMORY_FILE_PATH": memory}});
        }
    }
    let file = dir.join(path.file_name().unwrap_or_default());
    std::fs::write(&file, local.to_string()).expect("the local copy is written");
    file.display().to_string()
}

fn linear() -> String {
    repo().join("cli/tests/fixtures/linear.json").display().to_string()
}

/// Whether the engine takes `record` as a run of `linear.json`, as `resume` would.
fn engine_reads_record(record: &Value) -> bool {
    let Ok(parsed) = engine::parse::parse_object_as::<engine::RunRecord>(&record.to_string()) else { return false };
    let graph = engine::parse_graph(&read(Path::new(&linear()))).expect("the fixture reads");
    let plan = std::rc::Rc::new(engine::compile(&graph).plan.expect("the fixture is valid"));
    engine::Run::from_record(plan, &parsed, &engine::OfflineHost::new()).is_ok()
}

/// Records the schema must refuse, so that the test above can fail.
#[test]
fn the_run_schema_refuses_a_broken_record() {
    let v = validator("run");
    let record = sy(&["run", &linear()]).json();
    assert_eq!(errors(&v, &record), Vec::<String>::new());
    assert!(engine_reads_record(&record));
    let mistakes: Vec<(&str, Breaks)> = vec![
        ("an unknown field", |r| r["extra"] = json!(1)),
        ("an unknown status", |r| r["status"] = json!("done")),
        ("no run id", |r| {
            r.as_object_mut().map(|o| o.remove("run_id"));
        }),
        ("a wrong format", |r| r["format"] = json!("switchyard/graph@1")),
        ("a patch operation that is not one", |r| r["steps"][0]["patch"] = json!([{ "op": "rename", "path": "/x" }])),
        ("a patch path that is not a pointer", |r| {
            r["steps"][0]["patch"] = json!([{ "op": "remove", "path": "x" }]);
        }),
        ("an unknown error kind", |r| r["error"] = json!({ "kind": "oops", "message": "m" })),
        ("an unknown step field", |r| r["steps"][0]["extra"] = json!(1)),
    ];
    for (what, break_it) in mistakes {
        let mut broken = record.clone();
        break_it(&mut broken);
        assert!(!errors(&v, &broken).is_empty(), "the run schema accepts a record with {what}");
        assert!(!engine_reads_record(&broken), "the engine reads a record with {what}");
    }
}
