//! `switchyard test FILE --graph A.json --graph B.json`: the same cases on two versions of a
//! graph, side by side. A table with a row per case (its verdict, steps and scores on A and
//! on B, B's failures below its row), each version's summary, and the mean difference of
//! each evaluator's score (B − A).

use std::fmt::Write as _;

use engine::suite::{CaseResult, Summary};
use serde::Serialize;

use crate::testing::report::{failure_lines, score_value};

/// One version's results.
pub struct Side<'a> {
    pub graph: &'a str,
    pub results: &'a [CaseResult],
    pub summary: &'a Summary,
}

/// The mean difference of one evaluator's scores, B − A (`None` when a side has no mean).
#[derive(Serialize)]
pub struct Difference {
    pub evaluator: String,
    pub difference: Option<f64>,
}

/// Each evaluator of the suite, with B's mean minus A's.
pub fn differences(evaluators: &[String], a: &Summary, b: &Summary) -> Vec<Difference> {
    let mean = |s: &Summary, name: &str| s.evaluators.iter().find(|e| e.name == name).and_then(|e| e.mean);
    evaluators
        .iter()
        .map(|name| Difference {
            evaluator: name.clone(),
            difference: mean(b, name).zip(mean(a, name)).map(|(b, a)| b - a),
        })
        .collect()
}

/// The table, the summaries and the differences.
pub fn text(evaluators: &[String], a: &Side<'_>, b: &Side<'_>) -> String {
    let mut header = vec!["case".to_string(), "A".into(), "B".into(), "steps A".into(), "steps B".into()];
    for e in evaluators {
        header.push(format!("{e} A"));
        header.push(format!("{e} B"));
    }
    let mut rows = vec![header];
    for (ra, rb) in a.results.iter().zip(b.results) {
        rows.push(row(evaluators, ra, rb));
    }
    let widths = column_widths(&rows);
    let mut out = String::new();
    for (i, cells) in rows.iter().enumerate() {
        out.push_str(&line(cells, &widths));
        if let Some(rb) = i.checked_sub(1).and_then(|j| b.results.get(j)) {
            out.push_str(&failure_lines(rb, "    B: "));
        }
    }
    out.push('\n');
    for (label, side) in [("A", a), ("B", b)] {
        let _ =
            writeln!(out, "{label} ({}): {} passed, {} failed", side.graph, side.summary.passed, side.summary.failed);
    }
    for d in differences(evaluators, a.summary, b.summary) {
        let _ = writeln!(
            out,
            "{}: mean A {}, B {}, difference (B − A) {}; pass rate A {}, B {}",
            d.evaluator,
            mean_of(a.summary, &d.evaluator),
            mean_of(b.summary, &d.evaluator),
            d.difference.map(|v| format!("{v:+.2}")).unwrap_or_else(|| "-".into()),
            rate_of(a.summary, &d.evaluator),
            rate_of(b.summary, &d.evaluator),
        );
    }
    out
}

fn mean_of(s: &Summary, name: &str) -> String {
    s.evaluators
        .iter()
        .find(|e| e.name == name)
        .and_then(|e| e.mean)
        .map(|m| format!("{m:.2}"))
        .unwrap_or_else(|| "-".into())
}

fn rate_of(s: &Summary, name: &str) -> String {
    s.evaluators
        .iter()
        .find(|e| e.name == name)
        .map(|e| format!("{:.0}%", e.pass_rate * 100.0))
        .unwrap_or_else(|| "-".into())
}

fn row(evaluators: &[String], a: &CaseResult, b: &CaseResult) -> Vec<String> {
    let verdict = |r: &CaseResult| if r.passed { "ok" } else { "FAIL" }.to_string();
    let mut cells = vec![a.name.clone(), verdict(a), verdict(b), a.record.step.to_string(), b.record.step.to_string()];
    for e in evaluators {
        for r in [a, b] {
            cells.push(r.scores.iter().find(|s| &s.evaluator == e).map(score_value).unwrap_or_else(|| "-".into()));
        }
    }
    cells
}

fn column_widths(rows: &[Vec<String>]) -> Vec<usize> {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    (0..columns).map(|c| rows.iter().filter_map(|r| r.get(c)).map(|s| s.chars().count()).max().unwrap_or(0)).collect()
}

/// Cells left-aligned in their columns, two spaces apart, no trailing spaces.
fn line(cells: &[String], widths: &[usize]) -> String {
    let mut out = String::new();
    for (cell, width) in cells.iter().zip(widths) {
        let _ = write!(out, "{cell:width$}  ");
    }
    format!("{}\n", out.trim_end())
}
