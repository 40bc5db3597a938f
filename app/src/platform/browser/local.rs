//! Local-storage keys, read and written through gloo-storage; a refused write says why.

use gloo_storage::{LocalStorage, Storage};

use crate::model::storage::library::PREFIX;
use crate::platform::StorageError;

/// Why a write failed, in words a user can act on.
fn describe(e: &wasm_bindgen::JsValue) -> StorageError {
    let name = js_sys::Reflect::get(e, &"name".into()).ok().and_then(|v| v.as_string()).unwrap_or_default();
    if name == "QuotaExceededError" || name.contains("Quota") {
        StorageError::Full
    } else if name.is_empty() {
        StorageError::Refused(None)
    } else {
        StorageError::Refused(Some(name))
    }
}

pub fn get(key: &str) -> Option<String> {
    LocalStorage::raw().get_item(key).ok().flatten()
}

pub fn set(key: &str, value: &str) -> Result<(), StorageError> {
    LocalStorage::raw().set_item(key, value).map_err(|e| describe(&e))
}

pub fn remove(key: &str) {
    let _ = LocalStorage::raw().remove_item(key);
}

/// Every key in storage.
pub fn keys() -> Vec<String> {
    let storage = LocalStorage::raw();
    let len = storage.length().unwrap_or(0);
    (0..len).filter_map(|i| storage.key(i).ok().flatten()).collect()
}

/// A small setting (theme, last open graph…), best effort.
pub fn get_setting(name: &str) -> Option<String> {
    get(&format!("{PREFIX}setting.{name}"))
}

pub fn set_setting(name: &str, value: &str) {
    let _ = set(&format!("{PREFIX}setting.{name}"), value);
}
