//! Human forms at run time (format.md §4, human): the form a waiting node shows, its defaults evaluated
//! against the state it waits in, and an answer checked field by field against that form.
//!
//! The answer is checked against the waiting entry (not the node) so that a run rebuilt from
//! its record, or a subgraph passing its child's form up, fills in the same defaults.

use indexmap::IndexMap;
use serde_json::{Map, Value};

use super::Run;
use crate::plan::{FormFieldOp, FormOp, PlanNode};
use crate::record::{ErrorKind, InputError, NodeError, WaitingField};
use crate::state::{excerpt, normalize_type, type_name};

/// A form as the run shows it: each field, its default evaluated.
pub(super) type Form = IndexMap<String, WaitingField>;

impl Run {
    /// The form `node` shows while it waits, its defaults evaluated in the run's current scope.
    /// A default that fails, or whose value does not fit its field, fails the node.
    pub(super) fn evaluate_form(&self, node: &PlanNode, form: &FormOp) -> Result<Form, NodeError> {
        let mut out = Form::with_capacity(form.fields.len());
        for f in &form.fields {
            let default = match &f.default {
                Some(expr) => self.evaluate_default(node, f, expr)?,
                None => None,
            };
            let field = WaitingField {
                ty: f.ty,
                options: f.options.clone(),
                required: f.required,
                label: f.label.clone(),
                default,
            };
            out.insert(f.name.clone(), field);
        }
        Ok(out)
    }

    /// One field's default: its expression's value, checked as an answer would be. A value of
    /// `()` (null) leaves the field without a default.
    fn evaluate_default(
        &self,
        node: &PlanNode,
        f: &FormFieldOp,
        expr: &crate::script::Expr,
    ) -> Result<Option<Value>, NodeError> {
        let field = format!("fields.{}.default", f.name);
        let mut v =
            self.plan.scripting.eval_json(expr, &self.ctx).map_err(|e| NodeError::expression(&node.id, &field, e))?;
        if v.is_null() {
            return Ok(None);
        }
        check_value(f.ty, f.options.as_deref(), &mut v).map_err(|m| NodeError {
            kind: ErrorKind::Type,
            message: format!("node `{}`, field `{field}`: {m}", node.id),
        })?;
        Ok(Some(v))
    }

    /// The form node `ix` waits with: as shown in `waiting` (kept in the record), or, when the
    /// run has not shown it yet (a fork answered before it steps), evaluated now.
    pub(super) fn waiting_form(&self, ix: usize, form: &FormOp, path: &str) -> Result<Form, InputError> {
        let node = self.plan.node(ix);
        let shown = self.waiting.iter().find(|w| *w.node == *node.id && w.breakpoint.is_none());
        if let Some(fields) = shown.and_then(|w| w.fields.clone()) {
            return Ok(fields);
        }
        self.refresh_context(self.step_count() + 1);
        self.evaluate_form(node, form).map_err(|e| InputError {
            path: path.to_string(),
            message: format!("the form's defaults cannot be evaluated: {}", e.message),
        })
    }
}

/// Checks an answer to `form` (at `path`, `answer.<node>`): an object whose keys are fields of
/// the form, every required field present, each value of its field's type and among its
/// options. Optional fields left out take their default. Returns the fields to write.
pub(super) fn check_form_answer(form: &Form, answer: Value, path: &str) -> Result<Map<String, Value>, InputError> {
    let names = || form.keys().map(String::as_str).collect::<Vec<_>>().join(", ");
    let Value::Object(mut given) = answer else {
        return Err(InputError {
            path: path.to_string(),
            message: format!(
                "a form is answered with a JSON object of its fields ({}), got {} ({})",
                names(),
                type_name(&answer),
                excerpt(&answer)
            ),
        });
    };
    if let Some(unknown) = given.keys().find(|k| !form.contains_key(*k)) {
        return Err(InputError {
            path: format!("{path}.{unknown}"),
            message: format!("the form has no field `{unknown}` (fields: {})", names()),
        });
    }
    let mut out = Map::with_capacity(form.len());
    for (name, f) in form {
        let at = || format!("{path}.{name}");
        match given.remove(name) {
            Some(mut v) => {
                check_value(f.ty, f.options.as_deref(), &mut v)
                    .map_err(|message| InputError { path: at(), message })?;
                out.insert(name.clone(), v);
            }
            None if f.required => {
                let label = f.label.as_deref().map(|l| format!(" ({l})")).unwrap_or_default();
                return Err(InputError { path: at(), message: format!("required field{label} missing") });
            }
            None => {
                if let Some(d) = &f.default {
                    out.insert(name.clone(), d.clone());
                }
            }
        }
    }
    Ok(out)
}

/// `v` is of type `ty` (normalised in place) and, with `options`, one of them.
fn check_value(ty: crate::document::FieldType, options: Option<&[String]>, v: &mut Value) -> Result<(), String> {
    normalize_type(ty, v)?;
    match options {
        Some(options) if !v.as_str().is_some_and(|a| options.iter().any(|o| o == a)) => {
            Err(format!("must be one of {}, got {}", options.join(", "), excerpt(v)))
        }
        _ => Ok(()),
    }
}
