//! The patch operations of the `messages` reducer: one per change, so that the record's patch
//! replays an update exactly.

use json_patch::{AddOperation, PatchOperation, RemoveOperation, ReplaceOperation};
use serde_json::Value;

use super::pointer;

/// Message `m` appended to field `key`.
pub(super) fn add_op(key: &str, m: &Value) -> PatchOperation {
    PatchOperation::Add(AddOperation { path: pointer(&[key, "-"]), value: m.clone() })
}

/// Message `m` put at `index` of field `key`.
pub(super) fn replace_op(key: &str, index: usize, m: &Value) -> PatchOperation {
    PatchOperation::Replace(ReplaceOperation { path: pointer(&[key, &index.to_string()]), value: m.clone() })
}

/// The message at `index` of field `key` removed.
pub(super) fn remove_op(key: &str, index: usize) -> PatchOperation {
    PatchOperation::Remove(RemoveOperation { path: pointer(&[key, &index.to_string()]) })
}

/// Field `key` emptied.
pub(super) fn remove_all_op(key: &str) -> PatchOperation {
    PatchOperation::Replace(ReplaceOperation { path: pointer(&[key]), value: Value::Array(Vec::new()) })
}
