//! Evaluators scoring a case's run: expressions in the sandbox, graphs (judges) run with
//! `{input, output, reference}` and their final `score` read. An evaluator that fails is a
//! named error on that case only.

use std::rc::Rc;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::expect::{eval_score, run_scope, score_of};
use super::prepare::{Prepared, PreparedEvaluator, Scorer};
use crate::host::Host;
use crate::plan::Plan;
use crate::record::{ReplayMode, RunRecord, Status};
use crate::run::Run;

/// One evaluator's verdict on one case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Score {
    pub evaluator: String,
    /// From 0 to 1; none when the evaluator failed.
    pub score: Option<f64>,
    /// Whether the score reached the evaluator's threshold.
    pub passed: bool,
    /// What a judge graph said of it (its final state's `comment`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// Why the evaluator gave no score.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Every evaluator's score of the run `record` (reference `reference`).
pub(crate) async fn score_all(
    prepared: &Prepared,
    record: &RunRecord,
    reference: Option<&Value>,
    mode: ReplayMode,
    host: &dyn Host,
) -> Vec<Score> {
    let mut scores = Vec::with_capacity(prepared.evaluators.len());
    for e in &prepared.evaluators {
        let outcome = match &e.how {
            Scorer::Expression(expr) => {
                eval_score(&prepared.scripting, expr, &run_scope(record, reference)).map(|s| (s, None))
            }
            Scorer::Graph(plan) => judge(plan.clone(), record, reference, mode, host).await,
        };
        scores.push(score(e, outcome));
    }
    scores
}

fn score(e: &PreparedEvaluator, outcome: Result<(f64, Option<String>), String>) -> Score {
    match outcome {
        Ok((s, comment)) => {
            Score { evaluator: e.name.clone(), score: Some(s), passed: s >= e.threshold, comment, error: None }
        }
        Err(error) => {
            Score { evaluator: e.name.clone(), score: None, passed: false, comment: None, error: Some(error) }
        }
    }
}

/// Runs judge graph `plan` over the run and reads its `score` and `comment`. It runs with
/// its own mock models, or live; never with the case's replies.
async fn judge(
    plan: Rc<Plan>,
    record: &RunRecord,
    reference: Option<&Value>,
    mode: ReplayMode,
    host: &dyn Host,
) -> Result<(f64, Option<String>), String> {
    let input = judge_input(&plan, record, reference);
    let mut run = Run::start(plan, Value::Object(input), host).map_err(|e| format!("its input: {e}"))?;
    run.replay(Vec::new(), mode);
    run.run(host).await;
    if run.status() != Status::Completed {
        let why = run.error().map(|e| format!(": {e}")).unwrap_or_default();
        return Err(format!("the evaluator graph ended {}{why}", run.status().name()));
    }
    let state = run.state_json();
    let s = score_of(state.get("score").unwrap_or(&Value::Null)).map_err(|m| format!("its `score` {m}"))?;
    let comment = state.get("comment").and_then(Value::as_str).map(str::to_string);
    Ok((s, comment))
}

/// `{input, output, reference}`, only the keys the judge's state declares.
fn judge_input(plan: &Plan, record: &RunRecord, reference: Option<&Value>) -> Map<String, Value> {
    let all = [
        ("input", Value::Object(record.input.clone())),
        ("output", Value::Object(record.state.clone())),
        ("reference", reference.cloned().unwrap_or(Value::Null)),
    ];
    let declared = plan.graph.state.as_ref();
    all.into_iter()
        .filter(|(k, _)| declared.is_some_and(|s| s.contains_key(*k)))
        .map(|(k, v)| (k.to_string(), v))
        .collect()
}
