//! `switchyard test add RUN.json --suite FILE [--name NAME] [--graph GRAPH.json]`: a recorded
//! run becomes a case of the suite (its input, answers, every effect's reply and the run
//! itself as the baseline the case must end like), made by `engine::suite::case_from_record`.
//! A suite that does not exist yet is created for the run's graph; the file is replaced whole
//! (a temporary file renamed over it), so a crash never leaves half a suite.

use std::path::Path;

use engine::suite::{Case, Suite, SuiteGraph, TESTS_FORMAT, case_from_record};
use engine::{Graph, GraphHash, RunRecord};

use crate::args::TestAddArgs;
use crate::atomic_write::replace_atomically;
use crate::exit::{EXIT_OUTPUT_FAILED, Printed};
use crate::input::{BadInput, load_graph, read_record};
use crate::output::say;
use crate::testing::suite_file::{SuiteFile, folder_of};

pub fn add(args: TestAddArgs) -> Result<Printed, BadInput> {
    let record = read_record(&args.run)?;
    if record.steps.is_none() {
        return Err(BadInput::new(format!(
            "{}: a summary record has no steps to check a run against: record the run without --summary",
            args.run
        )));
    }
    let name = case_name(&args)?;
    let graph = args.graph.as_deref().map(|path| graph_of(path, &record, &args.run)).transpose()?;
    let mut suite = match Path::new(&args.suite).exists() {
        true => SuiteFile::read(&args.suite)?.suite,
        false => new_suite(&args.suite, &record, graph.as_ref().map(|(path, g)| (path.as_str(), g))),
    };
    if suite.graph.name != record.graph {
        return Err(BadInput::new(format!(
            "{}: this suite is for the graph \"{}\", but {} is a run of \"{}\"",
            args.suite, suite.graph.name, args.run, record.graph
        )));
    }
    let case = case_from_record(&record, &name);
    let text = match add_case(&mut suite, case, &args.suite)? {
        Added::Already => format!("{}: the case \"{name}\" is already there, unchanged\n", args.suite),
        Added::New => {
            if let Err(why) = write_suite(&args.suite, &suite) {
                // Nothing was changed: the file is replaced whole or not at all.
                say(&why);
                return Ok(Printed::new(String::new(), EXIT_OUTPUT_FAILED));
            }
            let n = suite.cases.len();
            format!("{}: added the case \"{name}\" ({n} {})\n", args.suite, if n == 1 { "case" } else { "cases" })
        }
    };
    Ok(Printed::new(text, 0))
}

/// `--name`, else RUN.json's file name without `.json`.
fn case_name(args: &TestAddArgs) -> Result<String, BadInput> {
    let name = match &args.name {
        Some(name) => name.trim().to_string(),
        None => {
            let file = Path::new(&args.run).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            file.strip_suffix(".json").unwrap_or(&file).to_string()
        }
    };
    if name.is_empty() {
        return Err(BadInput::new("--name: a case needs a name that is not empty".into()));
    }
    Ok(name)
}

/// The graph given with `--graph`, which must be the one the run belongs to.
fn graph_of(path: &str, record: &RunRecord, run_path: &str) -> Result<(String, Graph), BadInput> {
    let graph = load_graph(path)?;
    if graph.display_name() != record.graph {
        return Err(BadInput::new(format!(
            "{run_path}: this run belongs to the graph \"{}\", but {path} is \"{}\"",
            record.graph,
            graph.display_name()
        )));
    }
    Ok((path.to_string(), graph))
}

enum Added {
    New,
    Already,
}

/// Adds `case` unless its name is taken: by the same case, nothing to do; by another, refused.
fn add_case(suite: &mut Suite, case: Case, suite_path: &str) -> Result<Added, BadInput> {
    match suite.cases.iter().find(|c| c.name == case.name) {
        Some(same) if *same == case => Ok(Added::Already),
        Some(_) => Err(BadInput::new(format!(
            "{suite_path}: there is already a case named \"{}\" (give --name another name)",
            case.name
        ))),
        None => {
            suite.cases.push(case);
            Ok(Added::New)
        }
    }
}

/// A suite with no case yet for the run's graph: found at `--graph`, else NAME.json beside a
/// suite NAME.tests.json; its name and hash from the graph, else from the record.
fn new_suite(suite_path: &str, record: &RunRecord, graph: Option<(&str, &Graph)>) -> Suite {
    let graph_path = match graph {
        Some((path, _)) => Some(path.to_string()),
        None => beside(suite_path),
    };
    let hash = match graph {
        Some((_, g)) => Some(GraphHash::of(g).hash),
        None => record.graph_hash.clone(),
    };
    let path = graph_path.map(|p| relative_to_suite(suite_path, &p));
    Suite {
        schema: None,
        format: TESTS_FORMAT.to_string(),
        graph: SuiteGraph { path, name: record.graph.clone(), hash },
        cases: Vec::new(),
        evaluators: Vec::new(),
        dataset: None,
    }
}

/// `NAME.json` beside a suite called `NAME.tests.json`, if that file exists.
fn beside(suite_path: &str) -> Option<String> {
    let stem = suite_path.strip_suffix(".tests.json")?;
    let graph = format!("{stem}.json");
    Path::new(&graph).is_file().then_some(graph)
}

/// `graph`'s path as the suite writes it: relative to the suite's folder when it can be.
fn relative_to_suite(suite_path: &str, graph: &str) -> String {
    let dir = folder_of(Path::new(suite_path));
    let (dir, graph_abs) = (absolute(&dir), absolute(Path::new(graph)));
    match graph_abs.strip_prefix(&dir) {
        Ok(rel) => rel.to_string_lossy().into_owned(),
        Err(_) => relative_path(&dir, &graph_abs).unwrap_or_else(|| graph_abs.to_string_lossy().into_owned()),
    }
}

fn absolute(path: &Path) -> std::path::PathBuf {
    std::fs::canonicalize(path).or_else(|_| std::path::absolute(path)).unwrap_or_else(|_| path.to_path_buf())
}

/// `to` from `from` with `..` steps: both absolute.
fn relative_path(from: &Path, to: &Path) -> Option<String> {
    let (from, to): (Vec<_>, Vec<_>) = (from.components().collect(), to.components().collect());
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return None;
    }
    let mut parts: Vec<String> = (common..from.len()).map(|_| "..".to_string()).collect();
    parts.extend(to[common..].iter().map(|c| c.as_os_str().to_string_lossy().into_owned()));
    Some(parts.join("/"))
}

/// The suite written whole, as pretty JSON ending in a newline.
fn write_suite(path: &str, suite: &Suite) -> Result<(), String> {
    let text = serde_json::to_string_pretty(suite).map_err(|e| format!("{path}: {e}"))? + "\n";
    replace_atomically(Path::new(path), std::iter::once(text.as_bytes()))
        .map_err(|e| format!("{path}: cannot write: {e}"))
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::relative_path;

    #[test]
    fn a_graph_elsewhere_is_reached_with_parent_steps() {
        let rel = |from: &str, to: &str| relative_path(Path::new(from), Path::new(to));
        assert_eq!(rel("/w/suites", "/w/graphs/a.json").as_deref(), Some("../graphs/a.json"));
        assert_eq!(rel("/w/a/b", "/w/c.json").as_deref(), Some("../../c.json"));
        assert_eq!(rel("/w", "/w/c.json").as_deref(), Some("c.json"));
    }
}
