//! Expectations and expression evaluators evaluated over a finished run, in the engine's
//! sandbox: `state` (final), `status`, `steps`, `usage`, `reference`, `input`, and for
//! evaluators `output` (the final state again).

use serde_json::{Map, Value, json};

use super::prepare::SUITE_NAMES;
use crate::record::RunRecord;
use crate::script::{Ctx, Expr, Scripting, to_dynamic};

/// What an expression over a finished run sees.
pub(crate) fn run_scope(record: &RunRecord, reference: Option<&Value>) -> Ctx {
    let state = to_dynamic(&Value::Object(record.state.clone()));
    let input = to_dynamic(&Value::Object(record.input.clone()));
    let steps = i64::try_from(record.step).unwrap_or(i64::MAX);
    let ctx = Ctx::new(state.clone(), input, to_dynamic(&Value::Object(Map::new())), to_dynamic(&json!({})), steps);
    let values = [
        to_dynamic(&json!(record.status.name())),
        to_dynamic(&json!(steps)),
        to_dynamic(&json!({"input_tokens": record.usage.input_tokens, "output_tokens": record.usage.output_tokens})),
        reference.map_or(rhai::Dynamic::UNIT, to_dynamic),
        state,
    ];
    ctx.with_names(SUITE_NAMES.iter().copied().zip(values))
}

/// Evaluates expectation `source`: `Ok(())` when it is `true`, else why not.
pub(crate) fn check_expect(scripting: &Scripting, source: &str, ctx: &Ctx) -> Result<(), String> {
    let expr = compile(scripting, source)?;
    match scripting.eval_json(&expr, ctx) {
        Ok(Value::Bool(true)) => Ok(()),
        Ok(Value::Bool(false)) => Err("is false".into()),
        Ok(other) => Err(format!("gives {other}, not true or false")),
        Err(e) => Err(format!("fails: {e}")),
    }
}

/// Evaluates a compiled evaluator expression to a score from 0 to 1.
pub(crate) fn eval_score(scripting: &Scripting, expr: &Expr, ctx: &Ctx) -> Result<f64, String> {
    match scripting.eval_json(expr, ctx) {
        Ok(v) => score_of(&v),
        Err(e) => Err(format!("fails: {e}")),
    }
}

/// A value as a score: true/false count 1/0, a number must be from 0 to 1.
pub(crate) fn score_of(v: &Value) -> Result<f64, String> {
    match v {
        Value::Bool(b) => Ok(if *b { 1.0 } else { 0.0 }),
        Value::Number(n) => match n.as_f64() {
            Some(x) if (0.0..=1.0).contains(&x) => Ok(x),
            _ => Err(format!("gives {n}, outside 0..1")),
        },
        other => Err(format!("gives {other}, not a number from 0 to 1 or true/false")),
    }
}

fn compile(scripting: &Scripting, source: &str) -> Result<Expr, String> {
    scripting.compile(source, &SUITE_NAMES).map_err(|e| format!("does not compile: {e}"))
}
