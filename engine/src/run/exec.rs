//! Running one node against the step's snapshot (spec 2.2): the kinds computed inside the
//! engine, pinned and disabled nodes; `llm`, `http` and `tools` go to [`crate::effects`],
//! `subgraph` to the `subgraph` module.

use serde_json::Value;

use super::Run;
use crate::effects::{self, Deadline, EffectCall};
use crate::host::Host;
use crate::plan::{Op, PlanNode};
use crate::run::errors::{ErrorKind, NodeError};
use crate::run::outcome::{Outcome, Route};
use crate::script::{Expr, from_dynamic};
use crate::state::{excerpt, type_name};
use crate::update::Update;

impl Run {
    /// Runs node `ix` against the step's snapshot; `deadline` bounds what it sends out.
    pub(super) async fn exec(&self, ix: usize, host: &dyn Host, deadline: Deadline) -> Outcome {
        let node = self.plan.node(ix);
        if node.disabled {
            return Outcome::Bypass;
        }
        deadline.arm(self.plan.scripting.guard(), host, Some(node));
        if let Some(pinned) = &node.pinned {
            return self.pinned(node, pinned);
        }
        match &node.op {
            Op::Set(fields) => self.set(node, fields),
            Op::Script(expr) => self.script(node, expr),
            Op::Router(expr) => match self.router_labels(node, expr) {
                Ok(route) => Outcome::Update { update: Update::new(), route, detail: None },
                Err(error) => Outcome::failed(error),
            },
            Op::Human { writes, options, .. } => self.human(ix, writes, options.is_some()),
            Op::Llm(op) => effects::llm(&self.effect_call(ix, host, deadline), op).await.into(),
            Op::Http(op) => effects::http(&self.effect_call(ix, host, deadline), op).await.into(),
            Op::Subgraph(op) => self.subgraph(ix, op, &self.effect_call(ix, host, deadline)).await,
            Op::Tools(op) => {
                let last = self.state.last_item(&op.field);
                effects::tools(&self.effect_call(ix, host, deadline), op, last).await.into()
            }
            Op::Start { .. } | Op::End | Op::Note => Outcome::update(Update::new(), None),
        }
    }

    /// What an effect needs from the run to run node `ix`.
    fn effect_call<'a>(&'a self, ix: usize, host: &'a dyn Host, deadline: Deadline) -> EffectCall<'a> {
        EffectCall {
            node: self.plan.node(ix),
            scripting: &self.plan.scripting,
            ctx: &self.ctx,
            host,
            deadline,
            turn: self.run_counts[ix],
            // Steps are recorded once they end: this is the one running.
            step: self.step_count() + 1,
        }
    }

    /// A pinned node writes its pinned update instead of running; a router still routes,
    /// and a human node with options routes by the option its pinned update gives.
    fn pinned(&self, node: &PlanNode, pinned: &serde_json::Map<String, Value>) -> Outcome {
        let route = match &node.op {
            Op::Router(e) => match self.router_labels(node, e) {
                Ok(r) => r,
                Err(error) => return Outcome::failed(error),
            },
            Op::Human { writes, options: Some(_), .. } => {
                Route::Labels(pinned.get(writes).and_then(Value::as_str).map(str::to_string).into_iter().collect())
            }
            _ => Route::Normal,
        };
        Outcome::Update { update: Update::from(pinned.clone()), route, detail: Some(Value::from("pinned")) }
    }

    /// A `set` node: each expression's value to its field.
    fn set(&self, node: &PlanNode, fields: &[(String, Expr)]) -> Outcome {
        let mut update = Update::with_capacity(fields.len());
        for (field, expr) in fields {
            match self.plan.scripting.eval_json(expr, &self.ctx) {
                Ok(v) => {
                    update.insert(field.clone(), v);
                }
                Err(e) => return Outcome::failed(NodeError::expression(&node.id, &format!("set.{field}"), e)),
            }
        }
        Outcome::update(update, None)
    }

    /// A `script` node: its value is a map of updates, or `()` for none.
    fn script(&self, node: &PlanNode, expr: &Expr) -> Outcome {
        let value = match self.plan.scripting.eval(expr, &self.ctx) {
            Ok(v) => v,
            Err(e) => return Outcome::failed(NodeError::expression(&node.id, "script", e)),
        };
        if value.is_unit() {
            return Outcome::update(Update::new(), None);
        }
        match from_dynamic(&value) {
            Ok(Value::Object(update)) => Outcome::update(Update::from(update), None),
            Ok(other) => Outcome::failed(NodeError::in_node(
                &node.id,
                ErrorKind::Type,
                format_args!(
                    "a script must end with a map of updates (or `()`), got {} ({})",
                    type_name(&other),
                    excerpt(&other)
                ),
            )),
            Err(e) => Outcome::failed(NodeError::expression(&node.id, "script", e)),
        }
    }

    /// A `human` node that has its answer: the answer goes to `writes`, and with options
    /// it selects the out-edge labelled with it.
    fn human(&self, ix: usize, writes: &str, has_options: bool) -> Outcome {
        let answer = self.answers.get(&ix).cloned().unwrap_or(Value::Null);
        let route = match (has_options, answer.as_str()) {
            (true, Some(a)) => Route::Labels(vec![a.to_string()]),
            _ => Route::Normal,
        };
        let mut update = Update::new();
        update.insert(writes.to_string(), answer);
        Outcome::Update { update, route, detail: None }
    }

    /// The labels a router's `route` expression chooses: one, or a list.
    fn router_labels(&self, node: &PlanNode, expr: &Expr) -> Result<Route, NodeError> {
        let v =
            self.plan.scripting.eval_json(expr, &self.ctx).map_err(|e| NodeError::expression(&node.id, "route", e))?;
        let labels = match &v {
            Value::String(s) => vec![s.clone()],
            Value::Array(items) if items.iter().all(Value::is_string) => {
                items.iter().filter_map(Value::as_str).map(str::to_string).collect()
            }
            other => {
                let error =
                    format!("must give a label or a list of labels, got {} ({})", type_name(other), excerpt(other));
                return Err(NodeError::expression(&node.id, "route", error));
            }
        };
        Ok(Route::Labels(labels))
    }
}
