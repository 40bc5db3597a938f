//! Comparing two runs side by side. A stand-in until the comparison view lands (branch
//! `i33-compare` brings the real one, with the same signature): it says which runs would be
//! compared and where they first differ.

use engine::record::RunRecord;

use crate::state::App;

/// Opens the comparison of run `a` (left) and run `b` (right), headed by `labels`.
pub fn open(app: App, a: RunRecord, b: RunRecord, labels: [String; 2]) {
    let first = engine::record::diff::describe_first(&engine::record::diff::diff_runs(&a, &b));
    app.alerts.info(format!(
        "{} and {}: {}",
        labels[0],
        labels[1],
        first.unwrap_or_else(|| "the runs are the same".to_string())
    ));
}
