//! Importing a run record (`switchyard run`'s, or a served run's from `switchyard record`) into
//! the open graph's run history, then showing it, as a run of the history is shown.

use std::rc::Rc;

use engine::record::RunRecord;
use engine::{OfflineHost, Run, compile};
use leptos::prelude::*;

use super::run::open_saved;
use crate::model::runs::run_import::belongs;
use crate::model::storage::saved_run::SavedRun;
use crate::state::{App, DocState};

/// Imports the run record in `text` (read from `origin`) into the open graph's history and
/// shows it; a record that is broken or of another graph changes nothing and says why.
/// Whether it was imported.
pub fn import_run(app: App, text: &str, origin: &str) -> bool {
    let App { doc, run: ctl, alerts, platform, .. } = app;
    match saved_run(doc, text) {
        Ok(saved) => {
            let run_id = saved.record.run_id.clone();
            let graph = doc.current.get_untracked();
            let platform_now = platform.get();
            match platform_now.save_run(&graph, &saved) {
                Ok(notices) => notices.into_iter().for_each(|n| alerts.info(n)),
                Err(why) => {
                    alerts.error(format!("Could not import {origin}: the run could not be saved: {why}."));
                    return false;
                }
            }
            ctl.history.set(platform_now.list_runs(&graph));
            open_saved(app, &run_id);
            alerts.info(format!("Imported the run {run_id} from {origin} into this graph's history"));
            true
        }
        Err(why) => {
            alerts.error(format!("Could not import {origin}: {why}. Nothing was changed."));
            false
        }
    }
}

/// The record in `text` as the history keeps it, with the state before its first step
/// rebuilt against the open graph.
fn saved_run(doc: DocState, text: &str) -> Result<SavedRun, String> {
    let record: RunRecord = engine::parse::parse_object_as(text).map_err(|e| e.to_string())?;
    let name = doc.editor.with_untracked(|e| e.document().display_name().to_string());
    belongs(&record, &doc.hash.get_untracked(), &name)?;
    let graph = doc.editor.with_untracked(|e| e.document().clone());
    let plan = compile(&graph).plan.ok_or("the open graph has errors; fix them, then import the run")?;
    let run = Run::from_record(Rc::new(plan), &record, &OfflineHost::new())
        .map_err(|e| format!("this run does not fit the open graph: {e}"))?;
    let initial = run.state_at(0).map(|s| s.to_json()).unwrap_or_default();
    Ok(SavedRun { record, initial })
}
