//! Which steps of a run record carry their full state, and every other step's state rebuilt
//! (format.md §11).
//!
//! Every step of a record carries its patch; the full state after a step (a snapshot) is
//! written only on the first step, on the last step, and on a step where the patches since
//! the previous snapshot, that step's included, add up (in compact JSON bytes) to at least
//! the size of the state after it. Snapshots then never cost more than the patches they
//! follow, so a record grows with the work done rather than with steps × state, and any
//! step's state is its nearest earlier snapshot with at most about one state's worth of
//! patches applied. `--full-states` ([`StepStates::Every`]) writes every step's state, as
//! records did before snapshots; readers take both.
//!
//! The rule is decided step by step from what came before, so a step that is not the last
//! carries a snapshot or not whatever follows it: a record written while the run goes on
//! only ever changes its last step's.
//!
//! A run read back from its record gets every step's state from `rebuild_states`: each
//! patch applied to the state before it, bounded, and checked against the step's snapshot.

use json_patch::PatchOperation;
use serde_json::{Map, Value};

use crate::json_size::json_len;
use crate::record::{InputError, StepDoc};
use crate::state::patch_bound::{PatchBound, PatchError, PatchFailure, check_op, op_name};
use crate::state::{Schema, State};

/// Which steps a record writes the state of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StepStates {
    /// Snapshots where the rule puts them (the default).
    #[default]
    Snapshots,
    /// Every step's (`--full-states`).
    Every,
}

/// The snapshot rule, fed one step at a time. It leaves out the last step, which a writer
/// gives its state whatever the rule says.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SnapshotRule {
    steps: u64,
    /// Serialized bytes of the patches since the last snapshot.
    since: u64,
}

impl SnapshotRule {
    /// Whether the next step, whose patch serializes to `patch_bytes` and the state after it
    /// to `state_bytes` (both compact JSON), carries a snapshot.
    pub fn next(&mut self, patch_bytes: u64, state_bytes: u64) -> bool {
        self.steps += 1;
        self.since = self.since.saturating_add(patch_bytes);
        let due = self.steps == 1 || self.since >= state_bytes;
        if due {
            self.since = 0;
        }
        due
    }
}

/// The size of `patch` as compact JSON: what the rule counts. Costs the patch's size, not the
/// state's.
pub fn patch_len(patch: &[PatchOperation]) -> u64 {
    crate::json_size::json_len(patch)
}

/// A step's state could not be rebuilt: a patch that does not apply to the state before it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RebuildError {
    /// Where in the record: `steps[k].patch`.
    pub path: String,
    pub message: String,
}

impl std::fmt::Display for RebuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl std::error::Error for RebuildError {}

/// The index in `steps` of the latest step among the first `count` that carries its state.
pub fn nearest_snapshot(steps: &[StepDoc], count: usize) -> Option<usize> {
    steps[..count.min(steps.len())].iter().rposition(|s| s.state.is_some())
}

/// The state after the first `count` steps of a record (0: `initial`, the state before step
/// 1): the nearest snapshot at or before that step, with the patches after it applied. Costs
/// one snapshot's copy and the patches since, not the steps before.
pub fn state_after(
    initial: &Map<String, Value>,
    steps: &[StepDoc],
    count: usize,
) -> Result<Map<String, Value>, RebuildError> {
    let count = count.min(steps.len());
    let (mut state, from) = match nearest_snapshot(steps, count) {
        Some(k) => (steps[k].state.clone().unwrap_or_default(), k + 1),
        None => (initial.clone(), 0),
    };
    let mut doc = Value::Object(std::mem::take(&mut state));
    for (k, s) in steps.iter().enumerate().take(count).skip(from) {
        apply(&mut doc, k, s)?;
    }
    Ok(match doc {
        Value::Object(map) => map,
        _ => Map::new(),
    })
}

/// Gives the last of `steps` its state, rebuilt, if it has none: steps gathered one at a time
/// ([`crate::Run::step_docs`]) made into a complete record.
pub fn seal(initial: &Map<String, Value>, steps: &mut [StepDoc]) -> Result<(), RebuildError> {
    if steps.last().is_none_or(|s| s.state.is_some()) {
        return Ok(());
    }
    let state = state_after(initial, steps, steps.len())?;
    if let Some(last) = steps.last_mut() {
        last.state = Some(state);
    }
    Ok(())
}

/// Gives every step its state (the `--full-states` form), in one pass over the record.
pub fn fill_states(initial: &Map<String, Value>, steps: &mut [StepDoc]) -> Result<(), RebuildError> {
    let mut doc = Value::Object(initial.clone());
    for (k, s) in steps.iter_mut().enumerate() {
        match &s.state {
            Some(state) => doc = Value::Object(state.clone()),
            None => {
                apply(&mut doc, k, s)?;
                s.state = doc.as_object().cloned();
            }
        }
    }
    Ok(())
}

/// Applies step `k`'s patch to the state before it, each operation held to the host's
/// ceiling on the state ([`PatchBound`]): a record read here may come from anywhere.
fn apply(doc: &mut Value, k: usize, s: &StepDoc) -> Result<(), RebuildError> {
    let at = || format!("steps[{k}].patch");
    let ceiling = crate::document::EffectiveLimits::CEILINGS.max_state_bytes;
    let bound = PatchBound::new(ceiling, 0, patch_len(&s.patch));
    for (index, op) in s.patch.iter().enumerate() {
        let fail = |failure| PatchError { index, op: op_name(op), path: op.path().as_str().to_string(), failure };
        // Only a `copy` writes more than the patch carries: the state's size is counted for it.
        let size = if matches!(op, PatchOperation::Copy(_)) { json_len(&*doc) } else { 0 };
        check_op(op, size, bound, |from| doc.pointer(from).cloned())
            .map_err(|f| RebuildError { path: at(), message: fail(f).to_string() })?;
        json_patch::patch(doc, std::slice::from_ref(op)).map_err(|e| RebuildError {
            path: at(),
            message: format!(
                "does not apply to the state before the step: {}",
                fail(PatchFailure::DoesNotApply(e.kind))
            ),
        })?;
    }
    if !doc.is_object() {
        return Err(RebuildError { path: at(), message: "makes the state something other than an object".into() });
    }
    Ok(())
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
pub(crate) fn rebuild_states(
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn step(k: u64, patch: Value, state: Option<Value>) -> StepDoc {
        serde_json::from_value(json!({
            "step": k, "ran": ["a"], "updates": {}, "errors": {}, "patch": patch,
            "state": state, "next": [], "duration_ms": 0
        }))
        .unwrap()
    }

    #[test]
    fn the_rule_snapshots_the_first_step_and_then_when_patches_reach_the_state() {
        let mut rule = SnapshotRule::default();
        // A state of 10 bytes, patches of 4: the first step, then every third.
        let marks: Vec<bool> = (0..7).map(|_| rule.next(4, 10)).collect();
        assert_eq!(marks, [true, false, false, true, false, false, true]);
        // One patch as big as the state is a snapshot by itself.
        assert!(rule.next(10, 10));
    }

    #[test]
    fn patch_len_is_the_compact_json_length() {
        let p: json_patch::Patch = serde_json::from_value(json!([{"op": "add", "path": "/x/-", "value": 1}])).unwrap();
        assert_eq!(patch_len(&p.0), serde_json::to_string(&p).unwrap().len() as u64);
        assert_eq!(patch_len(&[]), 2);
    }

    #[test]
    fn states_rebuild_from_the_nearest_snapshot() {
        let add = |v: i64| json!([{"op": "add", "path": "/xs/-", "value": v}]);
        let steps = vec![
            step(1, add(1), Some(json!({"xs": [1]}))),
            step(2, add(2), None),
            // A snapshot that is not the patches' (a tampered record) is what a reader starts
            // from: it proves the rebuild starts there, not at step 1.
            step(3, add(3), Some(json!({"xs": [1, 2, 3], "mark": true}))),
            step(4, add(4), None),
        ];
        let initial = json!({"xs": []}).as_object().cloned().unwrap();
        assert_eq!(state_after(&initial, &steps, 0).unwrap(), initial);
        assert_eq!(Value::Object(state_after(&initial, &steps, 2).unwrap()), json!({"xs": [1, 2]}));
        assert_eq!(Value::Object(state_after(&initial, &steps, 4).unwrap()), json!({"xs": [1, 2, 3, 4], "mark": true}));
        assert_eq!(nearest_snapshot(&steps, 2), Some(0));
        assert_eq!(nearest_snapshot(&steps, 0), None);

        let mut sealed = steps.clone();
        sealed[3].state = None;
        seal(&initial, &mut sealed).unwrap();
        assert_eq!(sealed[3].state.clone().map(Value::Object), Some(json!({"xs": [1, 2, 3, 4], "mark": true})));
        assert_eq!(sealed[1].state, None);

        let mut filled = steps.clone();
        fill_states(&initial, &mut filled).unwrap();
        assert_eq!(filled[1].state.clone().map(Value::Object), Some(json!({"xs": [1, 2]})));
        assert_eq!(filled[3].state.clone().map(Value::Object), Some(json!({"xs": [1, 2, 3, 4], "mark": true})));
    }

    #[test]
    fn a_patch_that_does_not_apply_is_named() {
        let steps =
            vec![step(1, json!([]), Some(json!({}))), step(2, json!([{"op": "remove", "path": "/gone"}]), None)];
        let e = state_after(&Map::new(), &steps, 2).unwrap_err();
        assert_eq!(e.path, "steps[1].patch");
        assert!(e.message.contains("does not apply"), "{e}");
    }

    #[test]
    fn a_patch_of_copies_stops_at_the_ceiling() {
        let mut ops = vec![json!({"op": "add", "path": "/blob", "value": "x".repeat(1 << 20)})];
        ops.extend((0..40).map(|i| json!({"op": "copy", "from": "", "path": format!("/c{i}")})));
        let steps = vec![step(1, json!([]), Some(json!({}))), step(2, Value::Array(ops), None)];
        let e = state_after(&Map::new(), &steps, 2).unwrap_err();
        assert_eq!(e.path, "steps[1].patch");
        // 1 MiB doubled six times passes the 64 MiB ceiling.
        assert!(e.message.contains("operation '/7' (`copy` to '/c6') would grow the state"), "{e}");
    }
}
