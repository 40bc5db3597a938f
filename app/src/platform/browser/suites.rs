//! Each graph's test suite in local storage, as its text, under one key
//! (`switchyard.tests.<graph>`): a suite that does not read is the model's to report, and
//! nothing here removes it.

use super::local;
use crate::model::storage::library::suite_key;
use crate::platform::StorageError;

pub fn load(graph: &str) -> Option<String> {
    local::get(&suite_key(graph))
}

/// Writes the suite; a full or refusing storage says why (the suite stays in memory).
pub fn save(graph: &str, text: &str) -> Result<(), StorageError> {
    local::set(&suite_key(graph), text)
}
