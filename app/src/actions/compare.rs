//! Comparing two runs side by side (`Compare runs`): any two runs handed over (a test case's
//! saved run and its run on the edited graph), or two runs of the open graph's History.

use std::collections::BTreeMap;
use std::sync::Arc;

use engine::GraphHash;
use engine::record::RunRecord;
use leptos::prelude::*;

use crate::model::runs::compare::{Comparison, RunSide, edge_names};
use crate::state::{App, Dialog};

/// Opens `Compare runs` over run `a` (left column) and run `b` (right), headed by `labels`
/// (`["Saved run", "Edited graph"]`). A run's edges are named from the open graph when it
/// ran on this version of it (or one with the same edges), else by their place.
pub fn open(app: App, a: RunRecord, b: RunRecord, labels: [String; 2]) {
    let [la, lb] = labels;
    let edges = app.doc.editor.with_untracked(|e| edge_names(e.document()));
    let hash = app.doc.hash.get_untracked();
    let side = |label: String, record: RunRecord| {
        let known = same_edges(&record, &hash);
        let side = RunSide::new(label, record);
        if known { side.with_edges(edges.clone()) } else { side }
    };
    let comparison = Comparison::new(side(la, a), side(lb, b));
    app.ui.dialog.set(Some(Dialog::Compare(Arc::new(comparison))));
}

/// Closes `Compare runs` (the dialog gives the focus back where it was).
pub fn close(app: App) {
    if app.ui.dialog.with_untracked(|d| matches!(d, Some(Dialog::Compare(_)))) {
        app.ui.dialog.set(None);
    }
}

/// Compares two saved runs of the open graph, each given as its id and the label its column
/// is headed by; a run that cannot be read is said in an alert.
pub fn open_saved(app: App, a: (&str, String), b: (&str, String)) {
    let graph = app.doc.current.get_untracked();
    let platform = app.platform.get();
    let load = |id: &str| platform.load_run(&graph, id).map(|saved| saved.record);
    match (load(a.0), load(b.0)) {
        (Ok(ra), Ok(rb)) => open(app, ra, rb, [a.1, b.1]),
        (Err(why), _) | (_, Err(why)) => app.alerts.error(format!("Could not open that run to compare: {why}")),
    }
}

/// Whether `record` ran on a graph with the open graph's edges: the same version, or one
/// whose edge parts are all alike (an edit elsewhere leaves the edges' indices as they were).
fn same_edges(record: &RunRecord, current: &GraphHash) -> bool {
    if record.graph_hash.as_deref() == Some(current.hash.as_str()) {
        return true;
    }
    let edges = |parts: &BTreeMap<String, String>| -> Vec<(String, String)> {
        parts.iter().filter(|(k, _)| k.starts_with("edges.")).map(|(k, v)| (k.clone(), v.clone())).collect()
    };
    !record.graph_parts.is_empty() && edges(&record.graph_parts) == edges(&current.parts)
}
