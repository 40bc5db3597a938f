//! The Tests panel's model (README, Tests and evaluations): the open graph's suite as stored and read back,
//! cases added from runs and removed, suites and datasets imported, and what each pass made of
//! each case (its verdict, the one-line reason of a failure, its scores, the run it made), with
//! the evaluators' means. Plain data: the actions keep it in signals and the worker runs the
//! cases.

use std::collections::BTreeMap;

use engine::Graph;
use engine::record::RunRecord;
use engine::suite::{Case, CaseResult, GraphRef, Score, Suite, SuiteGraph, TESTS_FORMAT, parse_dataset, parse_suite};
use serde_json::{Map, Value};

/// Which pass a case's outcome comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pass {
    /// `Run tests`: every case with its recorded replies, pass or fail.
    Run,
    /// `Check against saved runs`: every case on the edited graph, whether it still ends the same.
    Check,
    /// A dataset's rows, scored.
    Dataset,
}

/// What one pass made of one case.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub name: String,
    pub pass: Pass,
    pub passed: bool,
    /// The first failure, in one line (none when it passed).
    pub reason: Option<String>,
    /// The first step where the run did not go as its baseline did.
    pub first_difference: Option<u64>,
    pub scores: Vec<Score>,
    /// The run the case made, for the comparison with its baseline (none when it could not
    /// start).
    pub record: Option<Box<RunRecord>>,
}

impl Outcome {
    pub fn of(result: CaseResult, pass: Pass) -> Outcome {
        Outcome {
            reason: result.failures.first().map(ToString::to_string),
            name: result.name,
            pass,
            passed: result.passed,
            first_difference: result.first_difference,
            scores: result.scores,
            record: Some(Box::new(result.record)),
        }
    }

    /// An outcome for a case that could not run at all (the worker refused it): why.
    pub fn refused(name: &str, pass: Pass, why: String) -> Outcome {
        Outcome {
            name: name.to_string(),
            pass,
            passed: false,
            reason: Some(why),
            first_difference: None,
            scores: Vec::new(),
            record: None,
        }
    }

    /// Its status in a word: a run passes or fails; a check says whether the run still ends
    /// the same.
    pub fn badge(&self) -> &'static str {
        match (self.pass, self.passed) {
            (Pass::Check, true) => "same",
            (Pass::Check, false) => "changed",
            (_, true) => "pass",
            (_, false) => "fail",
        }
    }
}

/// A stored suite read back.
#[derive(Debug, Clone, PartialEq)]
pub struct Stored {
    pub suite: Suite,
    /// Cases that did not read, kept as written so saving never drops them.
    pub unreadable: Vec<Value>,
    /// Why the whole stored suite could not be read: it is left as it is (nothing saves over
    /// it) until a suite is imported in its place.
    pub damaged: Option<String>,
    /// What to tell the person about it.
    pub problems: Vec<String>,
}

/// An empty suite for `graph`.
pub fn new_suite(graph: &Graph) -> Suite {
    Suite {
        schema: None,
        format: TESTS_FORMAT.to_string(),
        graph: SuiteGraph { path: None, name: graph.display_name().to_string(), hash: Some(hash_of(graph)) },
        cases: Vec::new(),
        evaluators: Vec::new(),
        dataset: None,
    }
}

fn hash_of(graph: &Graph) -> String {
    engine::GraphHash::of(graph).hash
}

/// Reads the suite kept for `graph` (`None`: it has none yet). A case that does not read is
/// reported and kept aside as written; the others are read.
pub fn read_stored(text: Option<&str>, graph: &Graph) -> Stored {
    let fresh = |damaged, problems| Stored { suite: new_suite(graph), unreadable: Vec::new(), damaged, problems };
    let Some(text) = text else { return fresh(None, Vec::new()) };
    if let Ok(suite) = parse_suite(text) {
        return Stored { suite, unreadable: Vec::new(), damaged: None, problems: Vec::new() };
    }
    let whole = |why: String| {
        let problem = format!(
            "This graph's stored tests could not be read ({why}); they are kept as they are until tests are imported in their place."
        );
        fresh(Some(why), vec![problem])
    };
    let Ok(Value::Object(mut doc)) = serde_json::from_str::<Value>(text) else {
        return whole(parse_suite(text).err().map(|e| e.to_string()).unwrap_or_default());
    };
    let cases = match doc.remove("cases") {
        Some(Value::Array(cases)) => cases,
        _ => Vec::new(),
    };
    doc.insert("cases".into(), Value::Array(Vec::new()));
    let mut suite = match parse_suite(&Value::Object(doc.clone()).to_string()) {
        Ok(s) => s,
        Err(e) => return whole(e.to_string()),
    };
    let mut unreadable = Vec::new();
    let mut problems = Vec::new();
    for (i, case) in cases.into_iter().enumerate() {
        doc.insert("cases".into(), Value::Array(vec![case.clone()]));
        match parse_suite(&Value::Object(doc.clone()).to_string()) {
            Ok(mut one) if !suite.cases.iter().any(|c| one.cases.first().is_some_and(|o| o.name == c.name)) => {
                suite.cases.append(&mut one.cases);
            }
            read => {
                let why = read.err().map_or_else(|| "another test has its name".to_string(), |e| e.to_string());
                let name = case.get("name").and_then(Value::as_str).map_or(String::new(), |n| format!(" “{n}”"));
                problems.push(format!("Stored test {}{name} could not be read ({why}); it is kept as it was.", i + 1));
                unreadable.push(case);
            }
        }
    }
    Stored { suite, unreadable, damaged: None, problems }
}

/// The suite as stored: the cases that read, then those kept aside as written.
pub fn stored_text(suite: &Suite, unreadable: &[Value]) -> String {
    let mut doc = serde_json::to_value(suite).unwrap_or(Value::Null);
    if let Some(Value::Array(cases)) = doc.get_mut("cases") {
        cases.extend(unreadable.iter().cloned());
    }
    serde_json::to_string_pretty(&doc).unwrap_or_default()
}

/// A suite file imported for `graph`: strict, and for this graph (by its name).
pub fn import_suite(text: &str, graph: &Graph) -> Result<Suite, String> {
    let suite = parse_suite(text).map_err(|e| e.to_string())?;
    let name = graph.display_name();
    if suite.graph.name != name {
        return Err(format!("the suite is for another graph: “{}”, not “{name}”", suite.graph.name));
    }
    Ok(suite)
}

/// The cases of a JSON Lines dataset, or the line that does not read.
pub fn import_dataset(text: &str) -> Result<Vec<Case>, String> {
    parse_dataset(text).map_err(|e| e.to_string())
}

/// How long a suggested name grows before it is cut.
const MAX_NAME_CHARS: usize = 48;

/// A name for a case made from a run with `input`: its first value, briefly.
pub fn suggested_name(input: &Map<String, Value>) -> String {
    let Some((key, value)) = input.iter().next() else { return "test".to_string() };
    let value = match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let whole = format!("{key}: {value}");
    let line = whole.lines().next().unwrap_or("test").trim();
    if line.chars().count() <= MAX_NAME_CHARS {
        return line.to_string();
    }
    // Cut at a word, and say it was cut.
    let cut: String = line.chars().take(MAX_NAME_CHARS).collect();
    let at = cut.rfind(' ').filter(|&i| i > 0).unwrap_or(cut.len());
    format!("{}…", cut[..at].trim_end_matches([',', ';', ':', ' ']))
}

/// `wanted`, or `wanted (2)`, `wanted (3)`… when a case already has it.
pub fn fresh_case_name(suite: &Suite, wanted: &str) -> String {
    let wanted = wanted.trim();
    let wanted = if wanted.is_empty() { "test" } else { wanted };
    let taken = |n: &str| suite.cases.iter().any(|c| c.name == n);
    if !taken(wanted) {
        return wanted.to_string();
    }
    (2..).map(|k| format!("{wanted} ({k})")).find(|n| !taken(n)).unwrap_or_else(|| wanted.to_string())
}

/// Adds `case` under a name no other case has; returns that name.
pub fn add_case(suite: &mut Suite, mut case: Case) -> String {
    case.name = fresh_case_name(suite, &case.name);
    let name = case.name.clone();
    suite.cases.push(case);
    name
}

pub fn remove_case(suite: &mut Suite, name: &str) -> bool {
    let before = suite.cases.len();
    suite.cases.retain(|c| c.name != name);
    suite.cases.len() != before
}

/// The suite as the page can run it: evaluators whose graph is a file are left out (a page
/// reads no files), each said by name.
pub fn for_the_page(suite: &Suite) -> (Suite, Vec<String>) {
    let mut runnable = suite.clone();
    let mut notes = Vec::new();
    runnable.evaluators.retain(|e| match &e.graph {
        Some(GraphRef::Path(path)) => {
            notes.push(format!(
                "Evaluator “{}” is not run here: its graph is the file {path}, which the editor cannot load (put the graph inline, or run `switchyard test`).",
                e.name
            ));
            false
        }
        _ => true,
    });
    (runnable, notes)
}

/// An evaluator's scores over the cases that have one.
#[derive(Debug, Clone, PartialEq)]
pub struct Mean {
    pub evaluator: String,
    /// The mean score (none when no case was scored).
    pub mean: Option<f64>,
    pub passed: usize,
    pub scored: usize,
    /// Cases where the evaluator failed with an error.
    pub errors: usize,
}

/// Each evaluator's mean and pass count over `outcomes`, in the order first seen.
pub fn means<'a>(outcomes: impl IntoIterator<Item = &'a Outcome>) -> Vec<Mean> {
    let mut order: Vec<String> = Vec::new();
    let mut by: BTreeMap<String, Mean> = BTreeMap::new();
    for score in outcomes.into_iter().flat_map(|o| o.scores.iter()) {
        let m = by.entry(score.evaluator.clone()).or_insert_with(|| {
            order.push(score.evaluator.clone());
            Mean { evaluator: score.evaluator.clone(), mean: None, passed: 0, scored: 0, errors: 0 }
        });
        match score.score {
            Some(s) => {
                let n = m.scored as f64;
                m.mean = Some((m.mean.unwrap_or(0.0) * n + s) / (n + 1.0));
                m.scored += 1;
                m.passed += usize::from(score.passed);
            }
            None => m.errors += 1,
        }
    }
    order.into_iter().filter_map(|name| by.remove(&name)).collect()
}

/// A score as the panel shows it: two decimals, or the evaluator's error.
pub fn score_text(score: &Score) -> String {
    match (score.score, &score.error) {
        (Some(s), _) => format!("{s:.2}"),
        (None, Some(e)) => format!("error: {e}"),
        (None, None) => "—".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use engine::suite::Evaluator;
    use serde_json::json;

    use super::*;

    fn graph() -> Graph {
        engine::parse_graph(
            r#"{"format":"switchyard/graph@1","name":"Tiny","nodes":[{"id":"start","kind":"start"},{"id":"end","kind":"end"}],
                "edges":[{"from":"start","to":"end"}]}"#,
        )
        .unwrap()
    }

    fn case(name: &str) -> Case {
        Case {
            name: name.into(),
            input: Map::new(),
            answers: Vec::new(),
            replies: Vec::new(),
            expect: vec!["status == \"completed\"".into()],
            reference: None,
            baseline: None,
        }
    }

    #[test]
    fn cases_get_names_no_other_case_has_and_go_when_removed() {
        let mut suite = new_suite(&graph());
        assert_eq!(add_case(&mut suite, case("refund")), "refund");
        assert_eq!(add_case(&mut suite, case("refund")), "refund (2)");
        assert_eq!(add_case(&mut suite, case("  ")), "test");
        assert!(remove_case(&mut suite, "refund"));
        assert!(!remove_case(&mut suite, "refund"));
        assert_eq!(suite.cases.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["refund (2)", "test"]);
    }

    #[test]
    fn a_suggested_name_is_the_inputs_first_value_briefly() {
        let input = json!({"request": "Refund my order, it arrived broken and late"});
        assert_eq!(suggested_name(input.as_object().unwrap()), "request: Refund my order, it arrived broken and…");
        assert_eq!(suggested_name(&Map::new()), "test");
    }

    #[test]
    fn a_stored_suite_reads_back_and_a_bad_case_is_kept_aside_never_dropped() {
        let g = graph();
        let mut suite = new_suite(&g);
        add_case(&mut suite, case("one"));
        add_case(&mut suite, case("two"));
        let text = stored_text(&suite, &[]);
        assert_eq!(read_stored(Some(&text), &g).suite, suite);

        let mut doc: Value = serde_json::from_str(&text).unwrap();
        doc["cases"][0]["expect"] = json!(42);
        let stored = read_stored(Some(&doc.to_string()), &g);
        assert_eq!(stored.suite.cases.len(), 1);
        assert_eq!(stored.suite.cases[0].name, "two");
        assert_eq!(stored.problems.len(), 1);
        assert!(stored.problems[0].contains("Stored test 1 “one”"), "{:?}", stored.problems);
        // Saved again, the bad case is still there, as written.
        let again: Value = serde_json::from_str(&stored_text(&stored.suite, &stored.unreadable)).unwrap();
        assert_eq!(again["cases"].as_array().unwrap().len(), 2);
        assert_eq!(again["cases"][1]["expect"], json!(42));
    }

    #[test]
    fn a_stored_suite_that_does_not_read_at_all_is_reported_and_left_alone() {
        let stored = read_stored(Some("{ not json"), &graph());
        assert!(stored.damaged.is_some());
        assert!(stored.suite.cases.is_empty());
        assert!(stored.problems[0].contains("could not be read"), "{:?}", stored.problems);
        assert!(read_stored(None, &graph()).damaged.is_none());
    }

    #[test]
    fn an_imported_suite_must_be_for_this_graph_and_errors_say_where() {
        let g = graph();
        let text = stored_text(&new_suite(&g), &[]);
        assert!(import_suite(&text, &g).is_ok());
        let other = text.replace("\"Tiny\"", "\"Other\"");
        assert!(import_suite(&other, &g).unwrap_err().contains("another graph"));
        let broken = text.replace("\"cases\": []", "\"cases\": [{\"nam\": 1}]");
        let why = import_suite(&broken, &g).unwrap_err();
        assert!(why.contains("cases"), "{why}");
        assert!(import_dataset("{\"input\": {}}\n{\"input\": 3}\n").unwrap_err().contains("line 2"));
    }

    #[test]
    fn evaluators_with_a_graph_file_are_named_and_left_out_in_the_page() {
        let mut suite = new_suite(&graph());
        let ev = |name: &str, expression: Option<&str>, graph: Option<GraphRef>| Evaluator {
            name: name.into(),
            expression: expression.map(Into::into),
            graph,
            threshold: None,
        };
        suite.evaluators =
            vec![ev("exact", Some("1"), None), ev("judge", None, Some(GraphRef::Path("judge.json".into())))];
        let (runnable, notes) = for_the_page(&suite);
        assert_eq!(runnable.evaluators.len(), 1);
        assert_eq!(notes.len(), 1);
        assert!(notes[0].contains("“judge”") && notes[0].contains("judge.json"), "{notes:?}");
    }

    #[test]
    fn means_count_scores_passes_and_errors_per_evaluator() {
        let score = |evaluator: &str, score: Option<f64>, passed: bool| Score {
            evaluator: evaluator.into(),
            score,
            passed,
            comment: None,
            error: score.is_none().then(|| "broke".to_string()),
        };
        let outcome = |scores| Outcome {
            name: "c".into(),
            pass: Pass::Dataset,
            passed: true,
            reason: None,
            first_difference: None,
            scores,
            record: None,
        };
        let outcomes = [
            outcome(vec![score("exact", Some(1.0), true), score("len", Some(0.2), false)]),
            outcome(vec![score("exact", Some(0.0), false), score("len", None, false)]),
        ];
        let m = means(&outcomes);
        assert_eq!(m[0], Mean { evaluator: "exact".into(), mean: Some(0.5), passed: 1, scored: 2, errors: 0 });
        assert_eq!(m[1].mean, Some(0.2));
        assert_eq!(m[1].errors, 1);
        assert_eq!(score_text(&outcomes[1].scores[1]), "error: broke");
    }
}
