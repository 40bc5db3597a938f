//! Runs as OpenTelemetry traces: the run panel's trace id copied, the run's record downloaded
//! (for `switchyard trace` later), a session handed to the desktop app's exporter as it ends,
//! and the Traces setting saved.

use leptos::prelude::*;

use crate::model::runs::record_file::{record_file, trace_id};
use crate::state::App;

/// Copies the shown run's trace id, to look the run up in a tracing tool.
pub fn copy_trace_id(app: App) {
    let App { run: ctl, alerts, platform, .. } = app;
    let Some(id) = ctl.view.with_untracked(|v| v.as_ref().and_then(|v| trace_id(&v.record).map(str::to_string))) else {
        return;
    };
    platform.get().write_clipboard(&id);
    alerts.info(format!("Copied the trace id {id}"));
}

/// Gives the person the shown run's record as a file: a save dialog on the desktop, a
/// download in the browser.
pub fn download_record(app: App) {
    let App { run: ctl, alerts, platform, .. } = app;
    let Some(record) = ctl.view.with_untracked(|v| v.as_ref().map(|v| v.complete_record())) else { return };
    let (file, text) = record_file(&record);
    let platform = platform.get();
    if !platform.has_files() {
        if platform.download(&file, &text, "application/json").is_err() {
            alerts.error("The browser refused the download.");
        }
        return;
    }
    let saving = platform.save_file_as(file, text);
    leptos::task::spawn_local(async move {
        match saving.await {
            Ok(Some(id)) => alerts.info(format!("Saved the run's record to {id}")),
            Ok(None) => {}
            Err(why) => alerts.error(format!("Could not save the run's record: {why}")),
        }
    });
}

/// The live run's session ended (completed, failed, waiting for a person, stopped at its
/// limit): where runs are sent as traces, its record goes to the exporter, with the graph
/// when the run is of the open version of it.
pub fn session_ended(app: App) {
    let App { doc, run: ctl, platform, .. } = app;
    let platform = platform.get();
    if !platform.has_traces() || !ctl.parents.with_untracked(Vec::is_empty) {
        return;
    }
    let Some(record) = ctl.view.with_untracked(|v| v.as_ref().map(|v| v.complete_record())) else { return };
    if trace_id(&record).is_none() {
        return;
    }
    let same_version = !ctl.version.with_untracked(|v| v.is_earlier());
    doc.editor.with_untracked(|e| platform.export_trace(&record, same_version.then(|| e.document())));
}

/// Saves the Traces setting (an empty address turns it off; empty headers keep those kept)
/// and says so.
pub fn save_trace_settings(app: App, endpoint: &str, headers: &str, capture_content: bool) {
    let App { alerts, platform, .. } = app;
    let headers = Some(headers.trim().to_string()).filter(|h| !h.is_empty());
    let off = endpoint.trim().is_empty();
    let saving = platform.get().save_trace_settings(endpoint.trim().to_string(), headers, capture_content);
    leptos::task::spawn_local(async move {
        match saving.await {
            Ok(()) if off => alerts.info("Runs are not sent as traces (unless OTEL_* variables say where)"),
            Ok(()) => alerts.info("Runs will be sent as traces when each session ends"),
            Err(why) => alerts.error(format!("The Traces setting was not saved: {why}")),
        }
    });
}
