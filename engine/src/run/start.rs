//! Starting a run (format.md §10): every field's default, then the input applied through the
//! reducers, then the first active set from the start node's out-edges.

use std::rc::Rc;

use serde_json::Value;
use thin_vec::ThinVec;

use super::Run;
use crate::host::Host;
use crate::messages::Writer;
use crate::plan::Plan;
use crate::record::{InputError, Status};
use crate::run::map::Targets;
use crate::run::outcome::Route;
use crate::state::{State, normalize_written, type_name};

impl Run {
    /// Starts a run: the defaults, then `input` applied through the reducers.
    pub fn start(plan: Rc<Plan>, input: Value, host: &dyn Host) -> Result<Run, InputError> {
        let Value::Object(mut input) = input else {
            return Err(InputError {
                path: "input".into(),
                message: format!("must be a JSON object, got {}", type_name(&input)),
            });
        };
        for key in plan.required_inputs() {
            if !input.contains_key(key) {
                return Err(InputError {
                    path: format!("input.{key}"),
                    message: format!("required by the start node `{}` but missing", plan.node(plan.start).id),
                });
            }
        }
        let mut initial = State::initial(&plan.schema);
        check_against_schema(&plan, input.iter_mut(), "input", Writer::INPUT)?;
        initial
            .apply(&plan.schema, &input, &mut Vec::new())
            .map_err(|e| InputError { path: format!("input.{}", e.field), message: e.message })?;

        let mut run = Run::blank(plan.clone(), host.new_run_id(), Rc::new(input), initial);
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
