//! A suite's results in figures: cases passed and failed, and per evaluator its mean score and
//! pass rate.

use serde::{Deserialize, Serialize};

use super::case::CaseResult;
use super::types::Suite;

/// How a suite's run went.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Summary {
    pub total: usize,
    pub passed: usize,
    pub failed: usize,
    /// One per evaluator of the suite, in its order.
    pub evaluators: Vec<EvaluatorSummary>,
}

/// One evaluator over every case.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct EvaluatorSummary {
    pub name: String,
    /// The mean of the scores it gave (none when it gave none).
    pub mean: Option<f64>,
    /// The share of cases it passed, 0 to 1 (of those it scored or failed on).
    pub pass_rate: f64,
    /// How many cases it scored.
    pub scored: usize,
    /// How many cases it failed on with an error.
    pub errors: usize,
}

/// Sums up `results` of `suite`'s cases.
pub fn summarize(results: &[CaseResult], suite: &Suite) -> Summary {
    let passed = results.iter().filter(|r| r.passed).count();
    let evaluators = suite.evaluators.iter().map(|e| evaluator_summary(&e.name, results)).collect();
    Summary { total: results.len(), passed, failed: results.len() - passed, evaluators }
}

fn evaluator_summary(name: &str, results: &[CaseResult]) -> EvaluatorSummary {
    let scores: Vec<_> = results.iter().flat_map(|r| &r.scores).filter(|s| s.evaluator == name).collect();
    let values: Vec<f64> = scores.iter().filter_map(|s| s.score).collect();
    let mean = (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64);
    let pass_rate =
        if scores.is_empty() { 0.0 } else { scores.iter().filter(|s| s.passed).count() as f64 / scores.len() as f64 };
    EvaluatorSummary {
        name: name.to_string(),
        mean,
        pass_rate,
        scored: values.len(),
        errors: scores.iter().filter(|s| s.error.is_some()).count(),
    }
}
