//! How far one recorded patch may take the state while a record is read back (README, Untrusted graphs: a
//! record is untrusted input, like a graph).
//!
//! A patch the engine wrote grows the state by at most its own size: each `add` or `replace`
//! carries the value it writes. A `copy` is the exception, as it writes a value the patch does
//! not carry, so a few hundred bytes of `copy` operations double the state each and would
//! exhaust memory long before the snapshot after them is compared. So every operation is
//! checked before it is applied: the state may not grow past the larger of `max_state_bytes`
//! and its size before the step, plus the patch's own size; and no operation may write a
//! value nested deeper than [`MAX_NESTING`] levels, which the engine never writes and which
//! would overflow the stack when the state is serialized or dropped.

use std::fmt;

use json_patch::{PatchErrorKind, PatchOperation};
use serde_json::Value;

use crate::json_size::json_len;

/// The deepest a value may sit in a state read back from a record, counting each field as one
/// level. Scripts and JSON parsing give values at most 128 levels deep; a little room above
/// that, far below what serializing or dropping a value can take on any thread.
pub const MAX_NESTING: usize = 512;

/// The most the state may grow to while one step's patch is applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PatchBound {
    /// The state's size, in compact JSON bytes, that no operation may take it past.
    pub max_bytes: u64,
}

impl PatchBound {
    /// The bound for a patch of `patch_bytes` applied to a state of `state_bytes`, in a run
    /// whose `max_state_bytes` is `max_state_bytes`.
    pub fn new(max_state_bytes: u64, state_bytes: u64, patch_bytes: u64) -> PatchBound {
        PatchBound { max_bytes: max_state_bytes.max(state_bytes).saturating_add(patch_bytes) }
    }

    /// No bound: a patch the engine itself just made.
    pub const NONE: PatchBound = PatchBound { max_bytes: u64::MAX };
}

/// Why one operation of a patch could not be applied.
#[derive(Debug)]
pub enum PatchFailure {
    /// The operation does not apply (as RFC 6902 says), e.g. its path does not exist.
    DoesNotApply(PatchErrorKind),
    /// It would grow the state to `bytes`, past the bound.
    TooBig { bytes: u64, max_bytes: u64 },
    /// It would write a value `depth` levels deep.
    TooDeep { depth: usize },
}

/// Operation `index` (from 0) of a patch, an `op` at `path`, failed.
#[derive(Debug)]
pub struct PatchError {
    pub index: usize,
    pub op: &'static str,
    pub path: String,
    pub failure: PatchFailure,
}

impl fmt::Display for PatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (i, op, path) = (self.index, self.op, &self.path);
        match &self.failure {
            // As `json_patch` says it.
            PatchFailure::DoesNotApply(kind) => write!(f, "operation '/{i}' failed at path '{path}': {kind}"),
            PatchFailure::TooBig { bytes, max_bytes } => write!(
                f,
                "operation '/{i}' (`{op}` to '{path}') would grow the state to {bytes} bytes, more than the step \
                 can reach ({max_bytes} bytes: max_state_bytes, or the state before the step, plus the patch's own size)"
            ),
            PatchFailure::TooDeep { depth } => write!(
                f,
                "operation '/{i}' (`{op}` to '{path}') would nest a value {depth} levels deep in the state, more than \
                 {MAX_NESTING}"
            ),
        }
    }
}

impl std::error::Error for PatchError {}

/// The operation's name, as RFC 6902 writes it.
pub fn op_name(op: &PatchOperation) -> &'static str {
    match op {
        PatchOperation::Add(_) => "add",
        PatchOperation::Remove(_) => "remove",
        PatchOperation::Replace(_) => "replace",
        PatchOperation::Move(_) => "move",
        PatchOperation::Copy(_) => "copy",
        PatchOperation::Test(_) => "test",
    }
}

/// What `op` writes, checked before it is applied: `value_at(pointer)` gives the value a
/// `copy` or `move` takes (`None`: there is none, and applying the operation says so).
/// `state_bytes` is the state's size before the operation.
pub fn check_op(
    op: &PatchOperation,
    state_bytes: u64,
    bound: PatchBound,
    value_at: impl FnOnce(&str) -> Option<Value>,
) -> Result<(), PatchFailure> {
    let levels = op.path().count();
    let (written, copied) = match op {
        PatchOperation::Add(a) => (nesting(&a.value), 0),
        PatchOperation::Replace(r) => (nesting(&r.value), 0),
        PatchOperation::Copy(c) => match value_at(c.from.as_str()) {
            Some(v) => (nesting(&v), json_len(&v)),
            None => return Ok(()),
        },
        PatchOperation::Move(m) => match value_at(m.from.as_str()) {
            Some(v) => (nesting(&v), 0),
            None => return Ok(()),
        },
        PatchOperation::Remove(_) | PatchOperation::Test(_) => (0, 0),
    };
    let depth = levels.saturating_add(written);
    if depth > MAX_NESTING {
        return Err(PatchFailure::TooDeep { depth });
    }
    // The copy's key and separators: a little more than it can add.
    let grown = state_bytes.saturating_add(copied).saturating_add(op.path().as_str().len() as u64 + 4);
    if copied > 0 && grown > bound.max_bytes {
        return Err(PatchFailure::TooBig { bytes: grown, max_bytes: bound.max_bytes });
    }
    Ok(())
}

/// The state's size after an operation, checked against the bound.
pub fn check_size(state_bytes: u64, bound: PatchBound) -> Result<(), PatchFailure> {
    if state_bytes > bound.max_bytes {
        return Err(PatchFailure::TooBig { bytes: state_bytes, max_bytes: bound.max_bytes });
    }
    Ok(())
}

/// How many levels of lists and objects `value` nests (a scalar: 0, `[1]` and `{}`: 1),
/// counted without recursion and only up to just past [`MAX_NESTING`].
pub fn nesting(value: &Value) -> usize {
    let mut deepest = 0;
    let mut stack: Vec<(&Value, usize)> = vec![(value, 0)];
    while let Some((v, above)) = stack.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match v {
            Value::Array(items) => Box::new(items.iter()),
            Value::Object(map) => Box::new(map.values()),
            _ => continue,
        };
        deepest = deepest.max(above + 1);
        if deepest > MAX_NESTING {
            return deepest;
        }
        stack.extend(children.map(|c| (c, above + 1)));
    }
    deepest
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn nesting_counts_levels() {
        assert_eq!(nesting(&json!(1)), 0);
        assert_eq!(nesting(&json!([1, {"a": [2]}])), 3);
        assert_eq!(nesting(&json!({})), 1);
        let mut deep = json!(0);
        for _ in 0..1000 {
            deep = json!([deep]);
        }
        assert_eq!(nesting(&deep), MAX_NESTING + 1);
    }
}
