//! What expressions see during a run (format.md §7): `state`, `input`, `outputs` (each node's
//! last updates), `errors` (each node's last error message) and `step`.
//!
//! The views read the run's data through one shared [`Live`], so the Rhai scope is built
//! once per run and never copied; the run writes to it only between evaluations.

use std::cell::RefCell;
use std::collections::{BTreeMap, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

use rhai::{Dynamic, INT};
use serde_json::{Map, Value};
use thin_vec::ThinVec;

use super::Run;
use crate::plan::Plan;
use crate::record::NodeError;
use crate::run::task::Task;
use crate::run::types::StepRecord;
use crate::script::{Ctx, ObjectView, View, ViewSource, to_dynamic};
use crate::state::{State, StateView};
use crate::update::Update;

/// How many past updates `outputs` keeps per node.
pub const OUTPUT_HISTORY: usize = 5;

/// A node's recent updates, oldest first.
type History = VecDeque<Arc<Update>>;

/// The run's data as scripts see it, shared with the views in the run's scope.
pub(super) struct Live {
    plan: Rc<Plan>,
    state: RefCell<State>,
    outputs: RefCell<Vec<History>>,
    errors: RefCell<Vec<Option<String>>>,
    /// The current step's updates and errors while its edges are evaluated.
    pending_updates: RefCell<ThinVec<(Task, Arc<Update>)>>,
    pending_errors: RefCell<ThinVec<(Task, NodeError)>>,
}

impl Live {
    /// The shared data of a new run, and the scope that reads it.
    pub(super) fn new(plan: &Rc<Plan>, input: &Rc<Map<String, Value>>) -> (Rc<Live>, Ctx) {
        let n = plan.nodes.len();
        let live = Rc::new(Live {
            plan: plan.clone(),
            state: RefCell::new(State::default()),
            outputs: RefCell::new(vec![VecDeque::new(); n]),
            errors: RefCell::new(vec![None; n]),
            pending_updates: RefCell::new(ThinVec::new()),
            pending_errors: RefCell::new(ThinVec::new()),
        });
        let ctx = Ctx::new(
            View::dynamic(Rc::new(LiveState(live.clone()))),
            View::dynamic(Rc::new(ObjectView(input.clone()))),
            View::dynamic(Rc::new(LiveOutputs(live.clone()))),
            View::dynamic(Rc::new(LiveErrors(live.clone()))),
            0,
        );
        (live, ctx)
    }

    /// Adds a step's updates to the output history (a node's instances in index order) and
    /// its errors to the last errors.
    pub(super) fn remember(&self, s: &StepRecord) {
        let mut outputs = self.outputs.borrow_mut();
        for (task, update) in &s.updates {
            let h = &mut outputs[task.node];
            h.push_back(update.clone());
            while h.len() > OUTPUT_HISTORY {
                h.pop_front();
            }
        }
        drop(outputs);
        self.remember_errors(s);
    }

    /// Records a step's errors as the nodes' last errors (of a node's instances, the last).
    pub(super) fn remember_errors(&self, s: &StepRecord) {
        let mut errors = self.errors.borrow_mut();
        for (task, e) in &s.errors {
            errors[task.node] = Some(e.message.clone());
        }
    }

    /// Swaps `record`'s updates and errors with the pending ones that `outputs` and `errors`
    /// show on top of the history. Called once to show a step's results to its edges' `when`
    /// expressions, and once more to take them back.
    pub(super) fn swap_pending(&self, record: &mut StepRecord) {
        std::mem::swap(&mut record.updates, &mut *self.pending_updates.borrow_mut());
        std::mem::swap(&mut record.errors, &mut *self.pending_errors.borrow_mut());
    }

    /// Node id → its last updates, oldest first (the run record's `outputs`).
    pub(super) fn outputs_by_id(&self) -> BTreeMap<String, Vec<Value>> {
        self.outputs
            .borrow()
            .iter()
            .enumerate()
            .filter(|(_, h)| !h.is_empty())
            .map(|(i, h)| (self.plan.node(i).id.to_string(), h.iter().map(|u| Value::Object(u.to_map())).collect()))
            .collect()
    }

    /// Node id → its last error message (the run record's `errors`).
    pub(super) fn errors_by_id(&self) -> BTreeMap<String, String> {
        self.errors
            .borrow()
            .iter()
            .enumerate()
            .filter_map(|(i, e)| e.as_ref().map(|e| (self.plan.node(i).id.to_string(), e.clone())))
            .collect()
    }
}

impl Run {
    /// Points the context expressions see at the current state and step `step`.
    pub(super) fn refresh_context(&self, step: u64) {
        *self.live.state.borrow_mut() = self.state.clone();
        self.ctx.set_step(INT::try_from(step).unwrap_or(INT::MAX));
    }
}

/// `state` as scripts see it.
struct LiveState(Rc<Live>);

impl ViewSource for LiveState {
    fn get(&self, key: &str) -> Option<Dynamic> {
        StateView(self.0.state.borrow().clone()).get(key)
    }
    fn keys(&self) -> Vec<String> {
        self.0.state.borrow().keys().map(str::to_string).collect()
    }
    fn to_json(&self) -> Value {
        Value::Object(self.0.state.borrow().to_json())
    }
}

/// `outputs` as scripts see it: node id → its last updates, newest last.
struct LiveOutputs(Rc<Live>);

impl ViewSource for LiveOutputs {
    fn get(&self, key: &str) -> Option<Dynamic> {
        let ix = self.0.plan.index(key)?;
        let outputs = self.0.outputs.borrow();
        let pending = self.0.pending_updates.borrow();
        let fresh = pending.iter().filter(|(t, _)| t.node == ix).map(|(_, u)| u);
        let all: Vec<&Arc<Update>> = outputs[ix].iter().chain(fresh).collect();
        let recent = &all[all.len().saturating_sub(OUTPUT_HISTORY)..];
        Some(Dynamic::from_array(recent.iter().map(|u| to_dynamic(&Value::Object(u.to_map()))).collect()))
    }
    fn keys(&self) -> Vec<String> {
        let outputs = self.0.outputs.borrow();
        outputs
            .iter()
            .enumerate()
            .filter(|(_, h)| !h.is_empty())
            .map(|(i, _)| self.0.plan.node(i).id.to_string())
            .collect()
    }
    fn to_json(&self) -> Value {
        Value::Object(self.0.outputs_by_id().into_iter().map(|(k, v)| (k, Value::Array(v))).collect())
    }
}

/// `errors` as scripts see it: node id → its last error message.
struct LiveErrors(Rc<Live>);

impl ViewSource for LiveErrors {
    fn get(&self, key: &str) -> Option<Dynamic> {
        let ix = self.0.plan.index(key)?;
        if let Some((_, e)) = self.0.pending_errors.borrow().iter().rev().find(|(t, _)| t.node == ix) {
            return Some(Dynamic::from(e.message.clone()));
        }
        self.0.errors.borrow()[ix].as_ref().map(|m| Dynamic::from(m.clone()))
    }
    fn keys(&self) -> Vec<String> {
        let errors = self.0.errors.borrow();
        errors
            .iter()
            .enumerate()
            .filter(|(_, e)| e.is_some())
            .map(|(i, _)| self.0.plan.node(i).id.to_string())
            .collect()
    }
    fn to_json(&self) -> Value {
        Value::Object(self.0.errors_by_id().into_iter().map(|(k, v)| (k, Value::String(v))).collect())
    }
}
