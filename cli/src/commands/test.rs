//! `switchyard test FILE [--graph GRAPH]... [--live] [--jobs N] [--junit FILE] [--json]
//! [--dataset FILE]`: runs every case of a suite (and the dataset's rows) against the graph,
//! replaying the recorded replies unless `--live`; with two `--graph`s, the same cases on both
//! versions side by side. Exit 0 when every case passes (on B, when comparing), 1 when one
//! fails, 2 on bad input (nothing run). `test add` is [`super::test_add`].

use std::sync::Arc;

use engine::Graph;
use engine::suite::{Case, CaseResult, Summary, prepare, summarize};
use engine::trace::{AttrValue, record_spans};
use serde_json::{Value, json};

use crate::args::{TestArgs, TestCommand};
use crate::consent;
use crate::exit::{EXIT_OUTPUT_FAILED, Printed};
use crate::input::{BadInput, load_graph, plan_or_bad_input};
use crate::output::say;
use crate::testing::bar::CaseBar;
use crate::testing::junit::{self, Tested};
use crate::testing::suite_file::SuiteFile;
use crate::testing::workers::{Work, run_cases};
use crate::testing::{compare, report};
use crate::traces::{Traces, on_roots};

pub fn test(args: TestArgs) -> Result<Printed, BadInput> {
    if let Some(TestCommand::Add(add)) = args.add {
        return super::test_add::add(add);
    }
    let Some(suite_path) = args.suite.as_deref() else {
        return Err(BadInput::new("test: give the suite file (switchyard test FILE)".into()));
    };
    let file = SuiteFile::read(suite_path)?;
    let cases = all_cases(&file, &args)?;
    // Every graph is checked before any case runs: bad input runs nothing.
    let graphs = ready_graphs(&file, &args)?;
    let runs = run_all(&file, graphs, &cases, &args)?;
    Ok(printed(&file, &runs, &args))
}

/// The suite's cases, then the dataset's rows.
fn all_cases(file: &SuiteFile, args: &TestArgs) -> Result<Arc<Vec<Case>>, BadInput> {
    let mut cases = file.suite.cases.clone();
    cases.extend(file.dataset_cases(args.dataset.as_deref())?);
    Ok(Arc::new(cases))
}

/// The graph, or the two to compare, each ready.
fn ready_graphs(file: &SuiteFile, args: &TestArgs) -> Result<Vec<ReadyGraph>, BadInput> {
    let paths = file.graph_paths(&args.graph)?;
    if paths.len() > 2 {
        return Err(BadInput::new(format!("--graph: at most two graphs are compared, got {}", paths.len())));
    }
    paths.iter().map(|p| ready_graph(file, p, args)).collect()
}

/// Every case on each graph, one graph after the other.
fn run_all(
    file: &SuiteFile,
    graphs: Vec<ReadyGraph>,
    cases: &Arc<Vec<Case>>,
    args: &TestArgs,
) -> Result<Vec<GraphRun>, BadInput> {
    if args.live {
        // The environment's warnings (a malformed trusted origin…), once.
        drop(crate::host::native_host(consent::allowed(&args.allow_command)));
    }
    let traces = Traces::from_env();
    let runs = graphs.into_iter().map(|g| test_graph(file, g, cases, args, traces.as_ref())).collect();
    // Live runs closed their MCP sessions; whatever is left ends with the command.
    net::mcp::close_all();
    if let Some(traces) = traces {
        traces.finish_and_warn();
    }
    runs
}

/// The text or JSON on stdout, the JUnit file, and the exit code: 0 when every case passed
/// on the last graph (B, when comparing), 1 when one failed or the JUnit file was not written.
fn printed(file: &SuiteFile, runs: &[GraphRun], args: &TestArgs) -> Printed {
    let code = if runs.last().is_some_and(|r| r.summary.failed == 0) { 0 } else { 1 };
    let text = if args.json { json_text(file, runs) } else { text(file, runs) };
    let code = match &args.junit {
        Some(path) => write_junit(path, &file.path, runs).map_or(EXIT_OUTPUT_FAILED, |()| code),
        None => code,
    };
    Printed::new(text, code)
}

/// A graph about to be tested.
struct ReadyGraph {
    path: String,
    graph: Graph,
    /// The graph differs from the version the suite was made for (normal: that is the edit
    /// being checked).
    changed: bool,
}

/// The graph at `path`, loaded, compiled, and the suite prepared for it: a suite for another
/// graph or an evaluator that cannot be used is bad input here, before anything runs.
fn ready_graph(file: &SuiteFile, path: &str, args: &TestArgs) -> Result<ReadyGraph, BadInput> {
    let graph = load_graph(path)?;
    let plan = plan_or_bad_input(path, &graph)?;
    if args.live {
        consent::check(&plan, path, &consent::allowed(&args.allow_command))?;
    }
    let prepared = prepare(&file.suite, &graph, &|rel| file.load(rel))
        .map_err(|e| BadInput::new(format!("{}: {e}", file.path)))?;
    let changed = prepared.graph_changed();
    Ok(ReadyGraph { path: path.to_string(), graph, changed })
}

/// One graph's results.
struct GraphRun {
    path: String,
    changed: bool,
    results: Vec<CaseResult>,
    summary: Summary,
}

fn test_graph(
    file: &SuiteFile,
    ready: ReadyGraph,
    cases: &Arc<Vec<Case>>,
    args: &TestArgs,
    traces: Option<&Traces>,
) -> Result<GraphRun, BadInput> {
    let work = Work {
        graph: Arc::new(ready.graph),
        suite: Arc::new(file.suite.clone()),
        suite_dir: file.dir.clone(),
        cases: cases.clone(),
        live: args.live,
        allowed: consent::allowed(&args.allow_command),
    };
    let mut bar = CaseBar::new(cases.len(), &ready.path);
    let results = run_cases(&work, usize::from(args.jobs.unwrap_or(1)), |r| {
        bar.done(r.passed, &ready.path);
        if let Some(traces) = traces {
            traces.send(case_spans(r, &work.graph, traces));
        }
    });
    bar.finish();
    let results = results?;
    let summary = summarize(&results, &file.suite);
    Ok(GraphRun { path: ready.path, changed: ready.changed, results, summary })
}

/// A case's run as one trace (per session), its root naming the case and whether it passed.
fn case_spans(result: &CaseResult, graph: &Graph, traces: &Traces) -> Vec<engine::trace::SpanDoc> {
    let options =
        crate::traces::options(traces.options().capture_content, result.record.steps.as_deref().unwrap_or_default());
    let spans = record_spans(&result.record, Some(graph), options);
    let spans = on_roots(spans, "switchyard.test.case", AttrValue::Str(result.name.clone()));
    on_roots(spans, "switchyard.test.passed", AttrValue::Bool(result.passed))
}

fn text(file: &SuiteFile, runs: &[GraphRun]) -> String {
    let mut out = String::new();
    for run in runs.iter().filter(|r| r.changed) {
        out.push_str(&format!("note: {} has changed since {} was made (its hash differs)\n", run.path, file.path));
    }
    match runs {
        [a, b] => {
            out.push_str(&compare::text(&evaluator_names(file), &side(a), &side(b)));
        }
        _ => {
            for run in runs {
                out.push_str(&report::text(&run.results, &run.summary));
            }
        }
    }
    out
}

fn side(r: &GraphRun) -> compare::Side<'_> {
    compare::Side { graph: &r.path, results: &r.results, summary: &r.summary }
}

fn evaluator_names(file: &SuiteFile) -> Vec<String> {
    file.suite.evaluators.iter().map(|e| e.name.clone()).collect()
}

/// `{"suite", "graph", "changed", "results", "summary"}`; when comparing,
/// `{"suite", "a": {…}, "b": {…}, "differences": [{"evaluator", "difference"}]}`.
fn json_text(file: &SuiteFile, runs: &[GraphRun]) -> String {
    let one =
        |r: &GraphRun| json!({ "graph": r.path, "changed": r.changed, "results": r.results, "summary": r.summary });
    let value = match runs {
        [a, b] => json!({
            "suite": file.path,
            "a": one(a),
            "b": one(b),
            "differences": compare::differences(&evaluator_names(file), &a.summary, &b.summary),
        }),
        _ => {
            let mut v = runs.first().map(one).unwrap_or(Value::Null);
            v["suite"] = json!(file.path);
            v
        }
    };
    format!("{}\n", serde_json::to_string_pretty(&value).unwrap_or_default())
}

fn write_junit(path: &std::path::Path, suite_path: &str, runs: &[GraphRun]) -> Result<(), ()> {
    let tested: Vec<Tested<'_>> = runs.iter().map(|r| Tested { name: r.path.clone(), results: &r.results }).collect();
    let written = junit::xml(suite_path, &tested).and_then(|xml| junit::write(path, &xml));
    written.map_err(|why| say(&format!("cannot write the JUnit report: {why}")))
}
