//! The snapshot rule kept as a run files its steps, and every step's state rebuilt from a
//! record's patches when a run is read back (spec 4; the rule itself is
//! [`crate::snapshots`]).

use super::Run;
use crate::record::StepDoc;
use crate::run::errors::InputError;
use crate::run::types::StepRecord;
use crate::snapshots::{SnapshotRule, StepStates, patch_len};
use crate::state::{PatchBound, PatchFailure, Schema, State};

/// Which of the run's steps carry a snapshot by the rule (a complete record gives its last
/// step its state whatever this says).
#[derive(Debug, Clone, Default)]
pub(super) struct Snapshots {
    rule: SnapshotRule,
    /// One per step, in order.
    marks: Vec<bool>,
}

impl Run {
    /// Files step `record` (just run, or replayed from a record): it counts toward
    /// `max_record_bytes` and the snapshot rule, then joins the steps.
    pub(super) fn push_step(&mut self, record: StepRecord) {
        let patch_bytes = patch_len(&record.patch);
        self.record_bytes += record.approx_bytes(patch_bytes);
        let marked = self.snapshots.rule.next(patch_bytes, record.state.serialized_len() as u64);
        self.snapshots.marks.push(marked);
        self.steps.push(record);
    }

    /// Whether a record gives step `index` (from 0) its state when more steps follow it.
    pub(super) fn writes_state(&self, index: usize, states: StepStates) -> bool {
        states == StepStates::Every || self.snapshots.marks.get(index).copied().unwrap_or(true)
    }
}

fn bad(path: String, message: String) -> InputError {
    InputError { path, message }
}

/// The state after each of `steps`, starting from `initial`: each step's patch applied to the
/// state before it, sharing whatever it did not change, and checked against the step's state
/// where the record has one. Linear in the record: a snapshot is compared, never parsed
/// into a state of its own. No operation may take the state much past `max_state_bytes`
/// ([`PatchBound`]): the record is untrusted, and its patches are applied before any
/// snapshot could show them wrong.
pub(super) fn rebuild_states(
    schema: &Schema,
    max_state_bytes: u64,
    initial: &State,
    steps: &[StepDoc],
) -> Result<Vec<State>, InputError> {
    let mut states = Vec::with_capacity(steps.len());
    let mut state = initial.clone();
    for (k, s) in steps.iter().enumerate() {
        if !s.patch.0.is_empty() {
            let bound = PatchBound::new(max_state_bytes, state.serialized_len() as u64, patch_len(&s.patch.0));
            state.apply_patch(schema, &s.patch.0, bound).map_err(|e| {
                let message = match e.failure {
                    PatchFailure::DoesNotApply(_) => format!("does not apply to the state before the step: {e}"),
                    PatchFailure::TooBig { .. } | PatchFailure::TooDeep { .. } => e.to_string(),
                };
                bad(format!("steps[{k}].patch"), message)
            })?;
        }
        if let Some(snapshot) = &s.state
            && let Some(difference) = state.difference(snapshot)
        {
            return Err(bad(
                format!("steps[{k}].state"),
                format!("does not agree with the patches up to this step: {difference}"),
            ));
        }
        states.push(state.clone());
    }
    Ok(states)
}
