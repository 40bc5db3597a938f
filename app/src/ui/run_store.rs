//! Saved runs: in the browser, one local-storage key per run (compressed) and per graph a
//! list of its runs, newest first, bounded (`switchyard.run.<graph>.<run>`,
//! `switchyard.runs.<graph>`); in the desktop app, one JSON file per run beside the graph.

use engine::record::RunRecord;
use engine::run::Status;
use gloo_storage::{LocalStorage, Storage};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::desktop;
use crate::model::library::PREFIX;
use crate::model::share;

/// How many runs a graph keeps; the oldest goes first.
pub const MAX_RUNS_PER_GRAPH: usize = 20;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunSummary {
    pub run_id: String,
    pub status: Status,
    pub steps: u64,
    /// Milliseconds since the epoch.
    pub at: f64,
    #[serde(default)]
    pub forked_from: Option<String>,
}

/// What is saved for a run: its record and the state before its first step.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SavedRun {
    pub record: RunRecord,
    pub initial: Map<String, Value>,
}

fn index_key(graph: &str) -> String {
    format!("{PREFIX}runs.{graph}")
}

fn run_key(graph: &str, run: &str) -> String {
    format!("{PREFIX}run.{graph}.{run}")
}

fn summary(saved: &SavedRun) -> RunSummary {
    let r = &saved.record;
    RunSummary {
        run_id: r.run_id.clone(),
        status: r.status,
        steps: r.step,
        at: 0.0,
        forked_from: r.forked_from.as_ref().map(|f| format!("{} @ step {}", f.run_id, f.step)),
    }
}

pub fn list(graph: &str) -> Vec<RunSummary> {
    if desktop::is_desktop() {
        let mut runs: Vec<(String, RunSummary)> = desktop::runs(graph)
            .into_iter()
            .filter_map(|(id, text)| serde_json::from_str::<SavedRun>(&text).ok().map(|s| (id, summary(&s))))
            .collect();
        // Run ids start with the time they were made, in hexadecimal: newest first.
        runs.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(b.0.cmp(&a.0)));
        return runs.into_iter().map(|(_, s)| s).collect();
    }
    LocalStorage::raw()
        .get_item(&index_key(graph))
        .ok()
        .flatten()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

pub fn load(graph: &str, run: &str) -> Result<SavedRun, String> {
    if desktop::is_desktop() {
        let text = desktop::runs(graph).remove(run).ok_or("it is not in the runs folder")?;
        return serde_json::from_str(&text).map_err(|e| format!("it is damaged: {e}"));
    }
    let text = LocalStorage::raw().get_item(&run_key(graph, run)).ok().flatten().ok_or("it is no longer in storage")?;
    let json = match share::decode(&text) {
        Some(r) => r?,
        None => text,
    };
    serde_json::from_str(&json).map_err(|e| format!("it is damaged: {e}"))
}

/// Saves a run. Returns notices for the user (runs evicted to make room), or why it failed.
pub fn save(graph: &str, saved: &SavedRun) -> Result<Vec<String>, String> {
    if desktop::is_desktop() {
        let text = serde_json::to_string_pretty(saved).map_err(|e| e.to_string())?;
        desktop::save_run(graph, &saved.record.run_id, text);
        let mut notices = Vec::new();
        let all = list(graph);
        for old in all.iter().skip(MAX_RUNS_PER_GRAPH) {
            desktop::delete_run(graph, &old.run_id);
            notices.push(format!(
                "Removed the oldest saved run ({}) to keep {MAX_RUNS_PER_GRAPH} runs per graph.",
                old.run_id
            ));
        }
        return Ok(notices);
    }
    let json = serde_json::to_string(saved).map_err(|e| e.to_string())?;
    let packed = share::encode(&json);
    let record = &saved.record;
    let mut index = list(graph);
    index.retain(|s| s.run_id != record.run_id);
    index.insert(
        0,
        RunSummary {
            run_id: record.run_id.clone(),
            status: record.status,
            steps: record.step,
            at: js_sys::Date::now(),
            forked_from: record.forked_from.as_ref().map(|f| format!("{} @ step {}", f.run_id, f.step)),
        },
    );
    let mut notices = Vec::new();
    while index.len() > MAX_RUNS_PER_GRAPH {
        if let Some(old) = index.pop() {
            let _ = LocalStorage::raw().remove_item(&run_key(graph, &old.run_id));
            notices.push(format!(
                "Removed the oldest saved run ({}) to keep {MAX_RUNS_PER_GRAPH} runs per graph.",
                old.run_id
            ));
        }
    }
    // When storage is full, make room by dropping the oldest runs, one at a time.
    loop {
        match LocalStorage::raw().set_item(&run_key(graph, &record.run_id), &packed) {
            Ok(()) => break,
            Err(_) if index.len() > 1 => {
                if let Some(old) = index.pop() {
                    let _ = LocalStorage::raw().remove_item(&run_key(graph, &old.run_id));
                    notices.push(format!("Storage was full: removed the oldest saved run ({}).", old.run_id));
                }
            }
            Err(_) => {
                return Err(format!(
                    "the browser's storage is full (this run needs {} KB); it stays available until the tab closes",
                    packed.len() / 1024
                ));
            }
        }
    }
    LocalStorage::raw()
        .set_item(&index_key(graph), &serde_json::to_string(&index).unwrap_or_default())
        .map_err(|_| "the browser's storage is full".to_string())?;
    Ok(notices)
}

pub fn delete(graph: &str, run: &str) {
    if desktop::is_desktop() {
        return desktop::delete_run(graph, run);
    }
    let _ = LocalStorage::raw().remove_item(&run_key(graph, run));
    let mut index = list(graph);
    index.retain(|s| s.run_id != run);
    let _ = LocalStorage::raw().set_item(&index_key(graph), &serde_json::to_string(&index).unwrap_or_default());
}

/// Bytes the saved runs of a graph take in storage.
pub fn bytes_used(graph: &str) -> usize {
    if desktop::is_desktop() {
        return desktop::runs(graph).values().map(String::len).sum();
    }
    list(graph)
        .iter()
        .filter_map(|s| LocalStorage::raw().get_item(&run_key(graph, &s.run_id)).ok().flatten())
        .map(|t| t.len())
        .sum::<usize>()
}
