//! The snapshot rule kept as a run files its steps (format.md §11; the rule itself, and every step's
//! state rebuilt from a record's patches, are [`crate::record::snapshots`]).

use super::Run;
use crate::record::snapshots::{SnapshotRule, StepStates, patch_len};
use crate::run::types::StepRecord;

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
