//! The browser's provider keys, one per origin, in this browser's local storage (never in a
//! graph, an export or a run record). The single key of earlier versions is moved to the
//! origin of its Base URL the first time they are read.

use super::local;
use crate::model::storage::keys::{self, KeyTable, OriginKey, Provider};
use crate::platform::StorageError;

/// The old single key and base URL settings.
const OLD_KEY_SETTING: &str = "openai_api_key";
pub const BASE_URL_SETTING: &str = "openai_base_url";
/// The keys, as a JSON list of `{origin, provider, key}`.
const KEYS_SETTING: &str = "model_keys";

fn keys_name() -> String {
    format!("{}setting.{KEYS_SETTING}", crate::model::storage::library::PREFIX)
}

/// The keys kept, the old single key moved in first.
pub fn load() -> Vec<OriginKey> {
    let mut list: Vec<OriginKey> =
        local::get(&keys_name()).and_then(|t| serde_json::from_str(&t).ok()).unwrap_or_default();
    if let Some(old) = local::get_setting(OLD_KEY_SETTING) {
        if let Some(entry) = keys::migrate(Some(&old), base_url().as_deref()) {
            list = keys::with_key(list, entry);
        }
        if store(&list).is_ok() {
            local::remove(&format!("{}setting.{OLD_KEY_SETTING}", crate::model::storage::library::PREFIX));
        }
    }
    list
}

pub fn store(list: &[OriginKey]) -> Result<(), StorageError> {
    let text = serde_json::to_string(list).map_err(|e| StorageError::Encoding(e.to_string()))?;
    local::set(&keys_name(), &text)
}

pub fn base_url() -> Option<String> {
    local::get_setting(BASE_URL_SETTING).filter(|s| !s.trim().is_empty())
}

pub fn add(new: OriginKey) -> Result<(), StorageError> {
    store(&keys::with_key(load(), new))
}

pub fn remove(origin: &str, provider: Provider) -> Result<(), StorageError> {
    store(&keys::without_key(load(), origin, provider))
}

/// The keys and the Base URL, for a run.
pub fn table() -> KeyTable {
    KeyTable { keys: load().into_iter().filter(|k| !k.key.trim().is_empty()).collect(), base_url: base_url() }
}
