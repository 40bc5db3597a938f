//! Running one task (a node, or one map instance of it) against the step's snapshot
//! (format.md §4): the kinds computed inside the engine, pinned and disabled nodes; `llm`, `http` and
//! `tools` go to [`crate::effects`], `subgraph` to the `subgraph` module.

use serde_json::Value;

use super::Run;
use crate::effects::{self, Deadline, EffectCall};
use crate::host::Host;
use crate::plan::{HumanAnswer, Op, PlanNode};
use crate::record::{ErrorKind, NodeError};
use crate::run::outcome::{Outcome, Route};
use crate::run::task::Task;
use crate::script::{Ctx, EvalError, Expr, from_dynamic};
use crate::state::{excerpt, type_name};
use crate::update::Update;

impl Run {
    /// Runs `task` against the step's snapshot when its node computes its result without
    /// waiting for anything (every kind but those reaching outside, unless pinned or
    /// disabled); `None` for an effect, which [`Run::exec_effect`] runs.
    pub(super) fn exec_now(&self, task: Task, host: &dyn Host, deadline: Deadline) -> Option<Outcome> {
        let node = self.plan.node(task.node);
        if node.disabled {
            return Some(Outcome::Bypass);
        }
        if node.pinned.is_none() && node.kind.is_effectful() {
            return None;
        }
        deadline.arm(self.plan.scripting.guard(), host, Some(node));
        Some(self.with_item(task, |ctx| self.compute(task.node, node, ctx)))
    }

    /// Runs an effect's `task` (an `llm`, `http` or `subgraph` node); `deadline` bounds what
    /// it sends out.
    pub(super) async fn exec_effect(&self, task: Task, host: &dyn Host, deadline: Deadline) -> Outcome {
        let node = self.plan.node(task.node);
        deadline.arm(self.plan.scripting.guard(), host, Some(node));
        // Its own scope: the effect waits, and other tasks evaluate in the meantime.
        let scope = self.scope_for(task);
        let call = self.effect_call(task, &scope, host, deadline);
        match &node.op {
            Op::Llm(op) => effects::llm(&call, op).await.into(),
            Op::Http(op) => effects::http(&call, op).await.into(),
            Op::Subgraph(op) => self.subgraph(task, op, &call).await,
            Op::Tools(op) => effects::tools(&call, op, self.state.last_item(&op.field), self).await.into(),
            _ => self.compute(task.node, node, &scope),
        }
    }

    /// What node `ix` does in scope `ctx` when it needs nothing from outside.
    fn compute(&self, ix: usize, node: &PlanNode, ctx: &Ctx) -> Outcome {
        if let Some(pinned) = &node.pinned {
            return self.pinned(node, pinned, ctx);
        }
        match &node.op {
            Op::Set(fields) => self.set(node, fields, ctx),
            Op::Script(expr) => self.script(node, expr, ctx),
            Op::Router(expr) => match self.router_labels(node, expr, ctx) {
                Ok(route) => Outcome::Update { update: Update::new(), route, detail: None },
                Err(error) => Outcome::failed(error),
            },
            Op::Human(h) => self.human(ix, &h.answer),
            // The effects are run by `exec_effect`; start, end and notes never run in a step.
            Op::Llm(_)
            | Op::Http(_)
            | Op::Subgraph(_)
            | Op::Tools(_)
            | Op::Start { .. }
            | Op::End { .. }
            | Op::Note => Outcome::update(Update::new(), None),
        }
    }

    /// What an effect needs from the run to run `task` in scope `ctx`.
    fn effect_call<'a>(&'a self, task: Task, ctx: &'a Ctx, host: &'a dyn Host, deadline: Deadline) -> EffectCall<'a> {
        EffectCall {
            node: self.plan.node(task.node),
            scripting: &self.plan.scripting,
            ctx,
            host,
            deadline,
            turn: self.turn(task),
            // Steps are recorded once they end: this is the one running.
            step: self.step_count() + 1,
            name: task.name(&self.plan),
            max_fanout: self.plan.limits.max_fanout,
            mcp: &self.mcp,
            tape: &self.tape,
            tape_prefix: &self.tape_prefix,
        }
    }

    /// A pinned node writes its pinned update instead of running; a router still routes,
    /// and a human node with options routes by the option its pinned update gives.
    fn pinned(&self, node: &PlanNode, pinned: &serde_json::Map<String, Value>, ctx: &Ctx) -> Outcome {
        let route = match &node.op {
            Op::Router(e) => match self.router_labels(node, e, ctx) {
                Ok(r) => r,
                Err(error) => return Outcome::failed(error),
            },
            Op::Human(h) if h.routes_by_label() => {
                let by = match &h.answer {
                    HumanAnswer::Value { writes, .. } => writes,
                    HumanAnswer::Form(form) => form.route_by.as_deref().unwrap_or_default(),
                };
                Route::Labels(pinned.get(by).and_then(Value::as_str).map(str::to_string).into_iter().collect())
            }
            _ => Route::Normal,
        };
        Outcome::Update { update: Update::from(pinned.clone()), route, detail: Some(Value::from("pinned")) }
    }

    /// A `set` node: each expression's value to its field.
    fn set(&self, node: &PlanNode, fields: &[(String, Expr)], ctx: &Ctx) -> Outcome {
        let mut update = Update::with_capacity(fields.len());
        for (field, expr) in fields {
            match self.plan.scripting.eval_json(expr, ctx) {
                Ok(v) => {
                    update.insert(field.clone(), v);
                }
                Err(e) => return Outcome::failed(NodeError::expression(&node.id, &format!("set.{field}"), e)),
            }
        }
        Outcome::update(update, None)
    }

    /// A `script` node: its value is a map of updates, or `()` for none.
    fn script(&self, node: &PlanNode, expr: &Expr, ctx: &Ctx) -> Outcome {
        let value = match self.plan.scripting.eval(expr, ctx) {
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
            Err(e) => Outcome::failed(NodeError::expression(&node.id, "script", EvalError::from(e))),
        }
    }

    /// A `human` node that has its answer: one answer goes to `writes`, and with options it
    /// selects the out-edge labelled with it; a form's fields (checked, defaults filled in)
    /// each go to the state field of their name, and `route_by`'s answer selects the edge.
    fn human(&self, ix: usize, shape: &HumanAnswer) -> Outcome {
        let answer = self.answers.get(&ix).cloned().unwrap_or(Value::Null);
        let label = |v: Option<&Value>| v.and_then(Value::as_str).map(|a| Route::Labels(vec![a.to_string()]));
        let (update, route) = match shape {
            HumanAnswer::Value { writes, options } => {
                let route = if options.is_some() { label(Some(&answer)) } else { None };
                let mut update = Update::new();
                update.insert(writes.to_string(), answer);
                (update, route)
            }
            HumanAnswer::Form(form) => {
                let fields = match answer {
                    Value::Object(fields) => fields,
                    _ => serde_json::Map::new(),
                };
                let route = form.route_by.as_ref().and_then(|by| label(fields.get(by)));
                (Update::from(fields), route)
            }
        };
        Outcome::Update { update, route: route.unwrap_or(Route::Normal), detail: None }
    }

    /// The labels a router's `route` expression chooses: one, or a list.
    fn router_labels(&self, node: &PlanNode, expr: &Expr, ctx: &Ctx) -> Result<Route, NodeError> {
        let v = self.plan.scripting.eval_json(expr, ctx).map_err(|e| NodeError::expression(&node.id, "route", e))?;
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
