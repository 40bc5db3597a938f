//! One case run and judged: the run made with the case's input, answers and replies, then
//! checked (replay problems, answers, expectations, evaluators, the baseline it must end
//! like).

use std::fmt;
use std::rc::Rc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::check::check_case;
use super::evaluate::{Score, score_all};
use super::expect::{check_expect, run_scope};
use super::prepare::Prepared;
use super::types::Case;
use crate::host::Host;
use crate::plan::Plan;
use crate::record::diff::{describe_first, diff_runs};
use crate::record::{ReplayMode, RunRecord, Status};
use crate::run::Run;

/// How one case went.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CaseResult {
    pub name: String,
    pub passed: bool,
    /// The run the case made.
    pub record: RunRecord,
    /// Why it failed, each naming where.
    pub failures: Vec<CaseFailure>,
    pub scores: Vec<Score>,
    /// The first step where the run parts from the baseline, when it does.
    pub first_difference: Option<u64>,
    pub duration_ms: f64,
}

/// Why a case failed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CaseFailure {
    /// A call's request changed, or it had no recorded reply.
    Replay { node: String, step: u64, message: String },
    /// An answer could not be given.
    Answer { node: String, message: String },
    /// The case's input does not fit the graph.
    Input { message: String },
    /// An expectation does not hold.
    Expect { expression: String, message: String },
    /// The run did not end like the baseline; `step` is the first that differs.
    Ended { step: Option<u64>, message: String },
    /// An evaluator failed or scored below its threshold.
    Evaluator { name: String, message: String },
    /// The case itself is wrong for the graph (a node that is gone).
    Case { message: String },
}

impl fmt::Display for CaseFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CaseFailure::Replay { step, message, .. } => write!(f, "step {step}: {message}"),
            CaseFailure::Answer { node, message } => write!(f, "answer for `{node}`: {message}"),
            CaseFailure::Input { message } => write!(f, "input: {message}"),
            CaseFailure::Expect { expression, message } => write!(f, "expect `{expression}`: {message}"),
            CaseFailure::Ended { message, .. } => write!(f, "{message}"),
            CaseFailure::Evaluator { name, message } => write!(f, "evaluator `{name}`: {message}"),
            CaseFailure::Case { message } => write!(f, "case: {message}"),
        }
    }
}

/// Runs `case` against `plan` and judges it.
pub async fn run_case(
    plan: Rc<Plan>,
    case: &Case,
    prepared: &Prepared,
    mode: ReplayMode,
    host: &dyn Host,
) -> CaseResult {
    let started = host.now_ms();
    let mut failures: Vec<CaseFailure> =
        check_case(case, &plan).into_iter().map(|p| CaseFailure::Case { message: p.to_string() }).collect();
    let run = match Run::start(plan, serde_json::Value::Object(case.input.clone()), host) {
        Ok(run) => run,
        Err(e) => {
            failures.push(CaseFailure::Input { message: e.to_string() });
            return CaseResult {
                name: case.name.clone(),
                passed: false,
                record: empty_record(case),
                failures,
                scores: Vec::new(),
                first_difference: None,
                duration_ms: host.now_ms() - started,
            };
        }
    };
    let (record, mut more) = drive(run, case, mode, host).await;
    failures.append(&mut more);
    let ctx = run_scope(&record, case.reference.as_ref());
    for source in &case.expect {
        if let Err(message) = check_expect(&prepared.scripting, source, &ctx) {
            failures.push(CaseFailure::Expect { expression: source.clone(), message });
        }
    }
    let mut first_difference = None;
    if let Some(baseline) = &case.baseline
        && let Some(f) = ended_unlike(baseline, &record)
    {
        first_difference = match &f {
            CaseFailure::Ended { step, .. } => *step,
            _ => None,
        };
        failures.push(f);
    }
    let scores = score_all(prepared, &record, case.reference.as_ref(), mode, host).await;
    failures.extend(scores.iter().filter(|s| !s.passed).map(|s| CaseFailure::Evaluator {
        name: s.evaluator.clone(),
        message: s.error.clone().unwrap_or_else(|| below_threshold(s, prepared)),
    }));
    CaseResult {
        name: case.name.clone(),
        passed: failures.is_empty(),
        record,
        failures,
        scores,
        first_difference,
        duration_ms: host.now_ms() - started,
    }
}

/// Why score `s` fails: the score, the threshold, and what a judge said.
fn below_threshold(s: &Score, prepared: &Prepared) -> String {
    let threshold = prepared.threshold_of(&s.evaluator).map(|t| format!(" {t}")).unwrap_or_default();
    let comment = s.comment.as_deref().map(|c| format!(": {c}")).unwrap_or_default();
    format!("scored {} (below its threshold{threshold}){comment}", s.score.unwrap_or(0.0))
}

/// Runs to the end, giving the case's answers as the run waits for them.
async fn drive(mut run: Run, case: &Case, mode: ReplayMode, host: &dyn Host) -> (RunRecord, Vec<CaseFailure>) {
    let mut failures = Vec::new();
    run.replay(case.replies.clone(), mode);
    let mut answers = case.answers.iter();
    loop {
        run.run(host).await;
        if run.status() != Status::Interrupted {
            break;
        }
        let Some(a) = answers.next() else { break };
        if let Err(e) = run.answer(&a.node, a.value.clone()) {
            failures.push(CaseFailure::Answer { node: a.node.clone(), message: e.message });
            break;
        }
    }
    for a in answers {
        failures.push(CaseFailure::Answer { node: a.node.clone(), message: "the run never asked for it".into() });
    }
    failures.splice(
        0..0,
        run.replay_problems().into_iter().map(|p| CaseFailure::Replay {
            node: p.node,
            step: p.step,
            message: p.message,
        }),
    );
    (run.record(true), failures)
}

/// Whether `new` ended unlike `baseline` (status or final state), naming the first step that
/// differs.
fn ended_unlike(baseline: &RunRecord, new: &RunRecord) -> Option<CaseFailure> {
    let same_state = crate::json_eq::same(&Value::Object(baseline.state.clone()), &Value::Object(new.state.clone()));
    if baseline.status == new.status && same_state {
        return None;
    }
    let d = diff_runs(baseline, new);
    let what = describe_first(&d).unwrap_or_else(|| "the final state differs".into());
    Some(CaseFailure::Ended { step: d.first, message: format!("the run did not end like the saved one: {what}") })
}

/// A record for a case whose run could not start.
fn empty_record(case: &Case) -> RunRecord {
    RunRecord {
        schema: None,
        format: crate::record::RUN_FORMAT.into(),
        run_id: String::new(),
        graph: String::new(),
        status: Status::Failed,
        input: case.input.clone(),
        state: Default::default(),
        step: 0,
        next: Vec::new(),
        waiting: Vec::new(),
        error: None,
        outputs: Default::default(),
        usage: Default::default(),
        errors: Default::default(),
        graph_hash: None,
        graph_parts: Default::default(),
        forked_from: None,
        steps: Some(Vec::new()),
        replies: Vec::new(),
        answers: Vec::new(),
        trace_id: None,
        traces: Vec::new(),
    }
}
