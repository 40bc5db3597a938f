//! Saved runs, as both platforms store them: what is saved for a run (its record and the
//! state before its first step), the summary the history lists, and how many a graph keeps.

use engine::record::RunRecord;
use engine::run::Status;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

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

impl SavedRun {
    /// The history's line for this run, saved at `at` (milliseconds since the epoch).
    pub fn summary(&self, at: f64) -> RunSummary {
        let r = &self.record;
        RunSummary {
            run_id: r.run_id.clone(),
            status: r.status,
            steps: r.step,
            at,
            forked_from: r.forked_from.as_ref().map(|f| format!("{} @ step {}", f.run_id, f.step)),
        }
    }
}

/// Sorts run ids newest first. Run ids start with the time they were made, in hexadecimal,
/// so a longer id is newer, and among ids of one length the greater is.
pub fn newest_first(ids: &mut [(String, RunSummary)]) {
    ids.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(b.0.cmp(&a.0)));
}

/// The notice for a run removed to keep [`MAX_RUNS_PER_GRAPH`].
pub fn evicted_notice(run_id: &str) -> String {
    format!("Removed the oldest saved run ({run_id}) to keep {MAX_RUNS_PER_GRAPH} runs per graph.")
}

/// The runs a graph keeps, of `ids` newest first, and those beyond [`MAX_RUNS_PER_GRAPH`],
/// which go (runs of a file opened from elsewhere, kept by versions that never removed them).
pub fn kept_and_evicted(ids: &[String]) -> (&[String], &[String]) {
    ids.split_at(ids.len().min(MAX_RUNS_PER_GRAPH))
}

/// The notice for the runs of `graph` removed as it was read, to keep [`MAX_RUNS_PER_GRAPH`].
pub fn evicted_on_load_notice(graph: &str, removed: usize) -> String {
    let runs = if removed == 1 { "run" } else { "runs" };
    format!("Removed the {removed} oldest saved {runs} of {graph} to keep {MAX_RUNS_PER_GRAPH} runs per graph.")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(id: &str) -> (String, RunSummary) {
        (
            id.to_string(),
            RunSummary { run_id: id.into(), status: Status::Completed, steps: 1, at: 0.0, forked_from: None },
        )
    }

    #[test]
    fn newest_first_by_hex_time() {
        let mut runs = vec![summary("ff-0001"), summary("100-0001"), summary("fe-0002")];
        newest_first(&mut runs);
        let ids: Vec<_> = runs.iter().map(|r| r.0.as_str()).collect();
        assert_eq!(ids, ["100-0001", "ff-0001", "fe-0002"]);
        assert!(evicted_notice("x").contains("20 runs per graph"));
    }

    #[test]
    fn a_graph_keeps_its_newest_runs_and_the_rest_go() {
        let ids: Vec<String> = (0..25).rev().map(|n| format!("{n:02x}-0001")).collect();
        let (kept, evicted) = kept_and_evicted(&ids);
        assert_eq!(kept.len(), MAX_RUNS_PER_GRAPH);
        assert_eq!(kept[0], "18-0001");
        assert_eq!(evicted, ["04-0001", "03-0001", "02-0001", "01-0001", "00-0001"]);
        let few = vec!["a".to_string()];
        assert_eq!(kept_and_evicted(&few), (&few[..], &[][..]));
        assert!(evicted_on_load_notice("/home/me/f.json", 5).contains("5 oldest saved runs of /home/me/f.json"));
    }
}
