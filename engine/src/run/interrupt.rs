//! Interrupts (format.md §10): human nodes, and subgraphs whose embedded run waits for one, stop
//! the run until an answer arrives through [`Run::answer`].

use serde_json::Value;

use super::Run;
use crate::document::NodeKind;
use crate::plan::{HumanAnswer, HumanOp, Op};
use crate::record::{ErrorKind, InputError, NodeError, Status, Waiting};
use crate::run::form::check_form_answer;
use crate::state::{check_update, excerpt};

impl Run {
    /// Ids of the nodes the run waits for: human nodes and suspended subgraphs in `next`
    /// that have no answer yet.
    pub fn waiting_for(&self) -> Vec<String> {
        self.next.iter().filter(|&&i| self.needs_answer(i)).map(|&i| self.plan.node(i).id.to_string()).collect()
    }

    /// Whether node `ix` needs an answer to run: a human node (not disabled or pinned), or a
    /// subgraph whose embedded run waits for one.
    pub(super) fn asks(&self, ix: usize) -> bool {
        let n = self.plan.node(ix);
        match n.kind {
            NodeKind::Human => !n.disabled && n.pinned.is_none(),
            NodeKind::Subgraph => self.suspended.borrow().contains_key(&ix),
            _ => false,
        }
    }

    /// Whether node `ix` asks and has not been answered yet.
    pub(super) fn needs_answer(&self, ix: usize) -> bool {
        self.asks(ix) && !self.answers.contains_key(&ix)
    }

    /// Gives the answer to a waiting human node. The run carries on at the next [`Run::step`].
    pub fn answer(&mut self, node: &str, answer: Value) -> Result<(), InputError> {
        let path = format!("answer.{node}");
        let Some(ix) = self.plan.index(node) else {
            return Err(InputError { path, message: "no node has this id".into() });
        };
        if !self.next.contains(&ix) || !self.asks(ix) {
            let waiting = self.waiting_for();
            let message = if waiting.is_empty() {
                "the run is not waiting for any answer".to_string()
            } else {
                format!("`{node}` is not waiting for an answer (waiting: {})", waiting.join(", "))
            };
            return Err(InputError { path, message });
        }
        let given = answer.clone();
        let answer = self.check_answer(ix, answer, &path)?;
        self.answers.insert(ix, answer);
        // Kept as given, not as checked: a test gives it again the same way.
        self.given.push(crate::record::GivenAnswer { step: self.step_count(), node: node.to_string(), value: given });
        if self.status == Status::Interrupted {
            self.status = Status::Running;
            self.open_session();
        }
        Ok(())
    }

    /// The answer for node `ix` checked and normalised: one answer against its options and
    /// the type of the field it writes; a form's field by field, its left-out optional fields
    /// given their defaults; a suspended subgraph's against what its child waits with.
    fn check_answer(&self, ix: usize, answer: Value, path: &str) -> Result<Value, InputError> {
        let plan = self.plan.clone();
        match &plan.node(ix).op {
            Op::Human(HumanOp { answer: HumanAnswer::Value { writes, options }, .. }) => {
                check_option(options.as_deref(), &answer, path)?;
                let spec = plan.schema.spec(writes);
                check_update(spec, &answer)
                    .map_err(|m| InputError { path: path.to_string(), message: format!("`{writes}`: {m}") })
            }
            Op::Human(HumanOp { answer: HumanAnswer::Form(form), .. }) => {
                let shown = self.waiting_form(ix, form, path)?;
                let mut fields = check_form_answer(&shown, answer, path)?;
                // Each field goes to the state field of its name: its type must fit there too.
                for (name, v) in fields.iter_mut() {
                    *v = check_update(plan.schema.spec(name), v)
                        .map_err(|message| InputError { path: format!("{path}.{name}"), message })?;
                }
                Ok(Value::Object(fields))
            }
            // A subgraph passes the answer on (its own human node checks it again).
            _ => {
                let child = self.suspended.borrow().get(&ix).and_then(|r| r.waiting.first().cloned());
                match child {
                    Some(Waiting { fields: Some(form), .. }) => {
                        check_form_answer(&form, answer, path).map(Value::Object)
                    }
                    Some(Waiting { options, .. }) => {
                        check_option(options.as_deref(), &answer, path)?;
                        Ok(answer)
                    }
                    None => Ok(answer),
                }
            }
        }
    }

    /// What waits in this step, with prompts rendered against the state before it; the
    /// node whose prompt fails to render, with its error.
    pub(super) fn render_waiting(&self, waiting: &[usize]) -> Result<Vec<Waiting>, (usize, NodeError)> {
        let mut out = Vec::new();
        for &ix in waiting {
            let node = self.plan.node(ix);
            if let Some(record) = self.suspended.borrow().get(&ix) {
                let w = record.waiting.first();
                out.push(Waiting {
                    node: node.id.to_string(),
                    prompt: w.map(|w| w.prompt.clone()).unwrap_or_default(),
                    options: w.and_then(|w| w.options.clone()),
                    fields: w.and_then(|w| w.fields.clone()),
                    breakpoint: None,
                });
                continue;
            }
            let Op::Human(HumanOp { prompt, answer }) = &node.op else {
                continue;
            };
            let prompt = match prompt {
                Some(t) => self.plan.scripting.render(t, &self.ctx).map_err(|e| {
                    let message = format!("node `{}`, field `prompt`: {e}", node.id);
                    (ix, NodeError { kind: ErrorKind::of_eval(&e), message })
                })?,
                None => String::new(),
            };
            let (options, fields) = match answer {
                HumanAnswer::Value { options, .. } => (options.clone(), None),
                HumanAnswer::Form(form) => (None, Some(self.evaluate_form(node, form).map_err(|e| (ix, e))?)),
            };
            out.push(Waiting { node: node.id.to_string(), prompt, options, fields, breakpoint: None });
        }
        Ok(out)
    }
}

/// With `options`, `answer` must be one of them.
fn check_option(options: Option<&[String]>, answer: &Value, path: &str) -> Result<(), InputError> {
    match options {
        Some(options) if !answer.as_str().is_some_and(|a| options.iter().any(|o| o == a)) => Err(InputError {
            path: path.to_string(),
            message: format!("must be one of {}, got {}", options.join(", "), excerpt(answer)),
        }),
        _ => Ok(()),
    }
}
