//! How `switchyard test` prints one graph's results: a line a case (`ok` or `FAIL`, its name,
//! steps, duration, scores), each failure indented below its case, then the summary (cases
//! passed and failed, each evaluator's mean score and pass rate).

use std::fmt::Write as _;

use engine::suite::{CaseResult, Score, Summary};

/// Names longer than this are not padded to: the columns after them shift instead.
const NAME_COLUMN: usize = 40;

/// The whole text: case lines, failures, summary.
pub fn text(results: &[CaseResult], summary: &Summary) -> String {
    let width = name_width(results.iter().map(|r| r.name.as_str()));
    let mut out = String::new();
    for r in results {
        out.push_str(&case_line(r, width));
        out.push('\n');
        out.push_str(&failure_lines(r, "     "));
    }
    out.push('\n');
    out.push_str(&summary_text(summary));
    out
}

/// The width of the name column: the longest name, up to [`NAME_COLUMN`].
pub fn name_width<'a>(names: impl Iterator<Item = &'a str>) -> usize {
    names.map(|n| n.chars().count()).max().unwrap_or(0).min(NAME_COLUMN)
}

/// `ok   NAME  7 steps  1.2 ms  exact 1.00 judge 0.80`.
pub fn case_line(r: &CaseResult, width: usize) -> String {
    let verdict = if r.passed { "ok  " } else { "FAIL" };
    let mut line = format!("{verdict} {:width$}  {}  {}", r.name, steps(r.record.step), duration(r.duration_ms));
    let scores = scores_text(&r.scores);
    if !scores.is_empty() {
        line.push_str("  ");
        line.push_str(&scores);
    }
    line
}

/// Each failure on a line of its own, after `indent`.
pub fn failure_lines(r: &CaseResult, indent: &str) -> String {
    let mut out = String::new();
    for failure in &r.failures {
        // A failure's text is one line; a message that holds more is kept on one.
        let _ = writeln!(out, "{indent}{}", failure.to_string().replace('\n', " "));
    }
    out
}

/// `exact 1.00 judge 0.80`; a score that could not be computed shows `error`.
pub fn scores_text(scores: &[Score]) -> String {
    scores.iter().map(|s| format!("{} {}", s.evaluator, score_value(s))).collect::<Vec<_>>().join(" ")
}

/// A score as printed: two decimals, `error` or `-`.
pub fn score_value(s: &Score) -> String {
    match (s.score, &s.error) {
        (_, Some(_)) => "error".into(),
        (Some(v), None) => format!("{v:.2}"),
        (None, None) => "-".into(),
    }
}

/// `2 passed, 1 failed (3 cases)` and a line per evaluator.
pub fn summary_text(summary: &Summary) -> String {
    let total = summary.passed + summary.failed;
    let mut out = format!("{} passed, {} failed ({total} {})\n", summary.passed, summary.failed, plural(total, "case"));
    for e in &summary.evaluators {
        let mean = e.mean.map(|m| format!("{m:.2}")).unwrap_or_else(|| "-".into());
        let _ = writeln!(out, "{}: mean {mean}, pass rate {:.0}%", e.name, e.pass_rate * 100.0);
    }
    out
}

fn steps(n: u64) -> String {
    format!("{n} {}", plural(n as usize, "step"))
}

/// Milliseconds below a second, seconds above.
pub fn duration(ms: f64) -> String {
    if ms < 1000.0 { format!("{ms:.1} ms") } else { format!("{:.2} s", ms / 1000.0) }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 { word.to_string() } else { format!("{word}s") }
}

#[cfg(test)]
mod tests {
    use engine::suite::Score;

    use super::{duration, score_value};

    fn score(value: Option<f64>, error: Option<&str>) -> Score {
        Score {
            evaluator: "exact".into(),
            score: value,
            passed: false,
            comment: None,
            error: error.map(str::to_string),
        }
    }

    #[test]
    fn scores_have_two_decimals_and_errors_say_so() {
        assert_eq!(score_value(&score(Some(0.5), None)), "0.50");
        assert_eq!(score_value(&score(Some(1.0), None)), "1.00");
        assert_eq!(score_value(&score(None, Some("no score"))), "error");
        assert_eq!(score_value(&score(None, None)), "-");
    }

    #[test]
    fn durations_read_in_ms_then_seconds() {
        assert_eq!(duration(0.25), "0.2 ms");
        assert_eq!(duration(12.34), "12.3 ms");
        assert_eq!(duration(2500.0), "2.50 s");
    }
}
