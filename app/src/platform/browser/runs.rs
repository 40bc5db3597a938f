//! Saved runs in local storage: one key per run, compressed, and per graph a list of its
//! runs, newest first, bounded (`switchyard.run.<graph>.<run>`, `switchyard.runs.<graph>`).

use super::local;
use crate::model::storage::library::PREFIX;
use crate::model::storage::saved_run::{MAX_RUNS_PER_GRAPH, RunSummary, SavedRun, evicted_notice};
use crate::model::storage::share;
use crate::platform::{Place, StorageError};

fn index_key(graph: &str) -> String {
    format!("{PREFIX}runs.{graph}")
}

fn run_key(graph: &str, run: &str) -> String {
    format!("{PREFIX}run.{graph}.{run}")
}

pub fn list(graph: &str) -> Vec<RunSummary> {
    local::get(&index_key(graph)).and_then(|t| serde_json::from_str(&t).ok()).unwrap_or_default()
}

pub fn load(graph: &str, run: &str) -> Result<SavedRun, StorageError> {
    let text = local::get(&run_key(graph, run)).ok_or(StorageError::Missing(Place::BrowserRuns))?;
    let json = match share::decode(&text) {
        Some(r) => r.map_err(StorageError::Unreadable)?,
        None => text,
    };
    serde_json::from_str(&json).map_err(|e| StorageError::Damaged(e.to_string()))
}

/// Saves a run. Returns notices for the user (runs evicted to make room), or why it failed.
pub fn save(graph: &str, saved: &SavedRun, now: f64) -> Result<Vec<String>, StorageError> {
    let json = serde_json::to_string(saved).map_err(|e| StorageError::Encoding(e.to_string()))?;
    let packed = share::encode(&json);
    let record = &saved.record;
    let mut index = list(graph);
    index.retain(|s| s.run_id != record.run_id);
    index.insert(0, saved.summary(now));
    let mut notices = Vec::new();
    while index.len() > MAX_RUNS_PER_GRAPH {
        if let Some(old) = index.pop() {
            local::remove(&run_key(graph, &old.run_id));
            notices.push(evicted_notice(&old.run_id));
        }
    }
    // When storage is full, make room by dropping the oldest runs, one at a time.
    loop {
        match local::set(&run_key(graph, &record.run_id), &packed) {
            Ok(()) => break,
            Err(_) if index.len() > 1 => {
                if let Some(old) = index.pop() {
                    local::remove(&run_key(graph, &old.run_id));
                    notices.push(format!("Storage was full: removed the oldest saved run ({}).", old.run_id));
                }
            }
            Err(_) => return Err(StorageError::RunTooBig(packed.len() / 1024)),
        }
    }
    local::set(&index_key(graph), &serde_json::to_string(&index).unwrap_or_default())
        .map_err(|_| StorageError::Full)?;
    Ok(notices)
}

pub fn delete(graph: &str, run: &str) {
    local::remove(&run_key(graph, run));
    let mut index = list(graph);
    index.retain(|s| s.run_id != run);
    let _ = local::set(&index_key(graph), &serde_json::to_string(&index).unwrap_or_default());
}

/// Bytes the saved runs of a graph take in storage.
pub fn bytes_used(graph: &str) -> usize {
    list(graph).iter().filter_map(|s| local::get(&run_key(graph, &s.run_id))).map(|t| t.len()).sum::<usize>()
}
