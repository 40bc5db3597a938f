//! Starting a run (format.md §10): every field's default, then the input applied through the
//! reducers, then the first active set from the start node's out-edges.
//!
//! A run can also start from a state an earlier run left ([`Run::start_from`]): a server that
//! keeps a conversation as a chain of runs starts each one from the previous one's values
//! instead of the declared defaults.

use std::rc::Rc;

use serde_json::{Map, Value};
use thin_vec::ThinVec;

use super::Run;
use crate::host::Host;
use crate::messages::Writer;
use crate::plan::Plan;
use crate::record::{InputError, Status};
use crate::run::map::Targets;
use crate::run::outcome::Route;
use crate::state::{State, normalize_written, type_name};

/// A state to start from instead of the defaults: the values at an earlier run's checkpoint,
/// and that checkpoint's step counted across the whole chain of runs.
///
/// The step goes into the ids of input messages given without one (`input:<step>:<n>`):
/// each run's own ids start again at `input:0:1`, which would name (and so replace) the first
/// run's first message.
#[derive(Debug, Clone, Copy)]
pub struct StartFrom<'a> {
    pub state: &'a Map<String, Value>,
    pub step: u64,
}

impl Run {
    /// Starts a run: the defaults, then `input` applied through the reducers.
    pub fn start(plan: Rc<Plan>, input: Value, host: &dyn Host) -> Result<Run, InputError> {
        let initial = State::initial(&plan.schema);
        Run::begin(plan, initial, None, input, Writer::INPUT, host)
    }

    /// Starts a run from `from.state` rather than the defaults, with `input` applied through
    /// the reducers as node `input` would (messages without an id get `input:<from.step>:<n>`).
    /// A key the start node requires may come from that state instead of the input.
    pub fn start_from(plan: Rc<Plan>, from: StartFrom<'_>, input: Value, host: &dyn Host) -> Result<Run, InputError> {
        let initial = State::from_json(&plan.schema, from.state);
        let writer = Writer { node: Writer::INPUT.node, step: from.step };
        let mut run = Run::begin(plan, initial, Some(from.state), input, writer, host)?;
        run.chain_step = from.step;
        Ok(run)
    }

    /// A run in state `initial` (rebuilt from `earlier`, when an earlier run left it) with
    /// `input` applied by `writer`, its first active set chosen.
    fn begin(
        plan: Rc<Plan>,
        mut initial: State,
        earlier: Option<&Map<String, Value>>,
        input: Value,
        writer: Writer<'_>,
        host: &dyn Host,
    ) -> Result<Run, InputError> {
        let Value::Object(mut input) = input else {
            return Err(InputError {
                path: "input".into(),
                message: format!("must be a JSON object, got {}", type_name(&input)),
            });
        };
        for key in plan.required_inputs() {
            // The defaults never count as given; a state an earlier run left does.
            let given = input.contains_key(key) || earlier.is_some_and(|m| m.contains_key(key));
            if !given {
                return Err(InputError {
                    path: format!("input.{key}"),
                    message: format!("required by the start node `{}` but missing", plan.node(plan.start).id),
                });
            }
        }
        check_against_schema(&plan, input.iter_mut(), "input", writer)?;
        initial
            .apply(&plan.schema, &input, &mut Vec::new())
            .map_err(|e| InputError { path: format!("input.{}", e.field), message: e.message })?;

        let mut run = Run::blank(plan.clone(), host.new_run_id(), Rc::new(input), initial);
        run.open_session();
        run.mark_ran(plan.start);
        run.refresh_context(0);
        let (mut targets, mut taken) = (Targets::default(), ThinVec::new());
        match run.route(plan.start, &Route::Normal, false, &mut targets, &mut taken) {
            Ok(()) => {
                run.initial_taken = taken.to_vec();
                run.activate(targets);
                run.initial_next = run.next.iter().copied().collect();
                run.initial_fanout = run.fanout.clone();
                if let Some(end) = run.failing_end(&run.initial_taken) {
                    run.end_failed(end, 0);
                } else if run.nothing_next() {
                    run.status = Status::Completed;
                }
            }
            Err(e) => {
                run.status = Status::Failed;
                run.error = Some(e);
            }
        }
        Ok(run)
    }
}

impl Run {
    /// Who writes messages without an id at step `step` of this run, named `node`: the step
    /// counted across the chain of runs this one continues, so a later run's ids differ.
    pub(super) fn message_writer<'a>(&self, node: &'a str, step: u64) -> Writer<'a> {
        Writer { node, step: self.chain_step + step }
    }
}

/// Checks every key of an update `writer` makes against the schema, normalising values in
/// place (`2.0` becomes `2` for an integer field, messages get ids); the error's path names
/// the first bad key.
pub(super) fn check_against_schema<'a>(
    plan: &Plan,
    update: impl Iterator<Item = (&'a String, &'a mut Value)>,
    prefix: &str,
    writer: Writer<'_>,
) -> Result<(), InputError> {
    for (k, v) in update {
        let spec = plan.schema.spec(k);
        if let Err(message) = normalize_written(spec, v, Some(writer)) {
            return Err(InputError { path: format!("{prefix}.{k}"), message });
        }
    }
    Ok(())
}
