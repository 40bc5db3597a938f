//! Interrupts (spec 3.4): human nodes, and subgraphs whose embedded run waits for one, stop
//! the run until an answer arrives through [`Run::answer`].

use serde_json::Value;

use super::Run;
use crate::document::NodeKind;
use crate::plan::Op;
use crate::run::errors::{ErrorKind, InputError, NodeError};
use crate::run::types::{Status, Waiting};
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
        let answer = self.check_answer(ix, answer, &path)?;
        self.answers.insert(ix, answer);
        if self.status == Status::Interrupted {
            self.status = Status::Running;
        }
        Ok(())
    }

    /// The answer for node `ix` checked against its options and the type of the field it
    /// writes, normalised.
    fn check_answer(&self, ix: usize, answer: Value, path: &str) -> Result<Value, InputError> {
        let (options, writes) = match &self.plan.node(ix).op {
            Op::Human { writes, options, .. } => (options.clone(), Some(writes.clone())),
            // A subgraph passes the answer on; its own human node checks it.
            _ => {
                (self.suspended.borrow().get(&ix).and_then(|r| r.waiting.first().and_then(|w| w.options.clone())), None)
            }
        };
        if let Some(options) = options
            && !answer.as_str().is_some_and(|a| options.iter().any(|o| o == a))
        {
            return Err(InputError {
                path: path.to_string(),
                message: format!("must be one of {}, got {}", options.join(", "), excerpt(&answer)),
            });
        }
        match writes {
            Some(writes) => {
                let spec = self.plan.schema.spec(&writes);
                check_update(spec, &answer)
                    .map_err(|m| InputError { path: path.to_string(), message: format!("`{writes}`: {m}") })
            }
            None => Ok(answer),
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
            let Op::Human { prompt, options, .. } = &node.op else {
                continue;
            };
            let prompt = match prompt {
                Some(t) => self.plan.scripting.render(t, &self.ctx).map_err(|e| {
                    let message = format!("node `{}`, field `prompt`: {e}", node.id);
                    let kind = if e.is_timeout() { ErrorKind::Timeout } else { ErrorKind::Expression };
                    (ix, NodeError { kind, message })
                })?,
                None => String::new(),
            };
            out.push(Waiting {
                node: node.id.to_string(),
                prompt,
                options: options.clone(),
                fields: None,
                breakpoint: None,
            });
        }
        Ok(out)
    }
}
