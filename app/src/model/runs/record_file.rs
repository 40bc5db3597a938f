//! A run as a file the person takes away: the record (`switchyard/run@1`) with its
//! `"$schema"` first, named after its graph and run, keeping the trace id its run panel shows
//! so that `switchyard trace` later exports it under the same trace (docs/cli.md).

use engine::record::{RUN_SCHEMA_ID, RunRecord};

/// The file's name (`<graph>-<run id>.run.json`) and text.
pub fn record_file(record: &RunRecord) -> (String, String) {
    let mut record = record.clone();
    record.schema.get_or_insert_with(|| RUN_SCHEMA_ID.to_string());
    let text = serde_json::to_string_pretty(&record).unwrap_or_default();
    (format!("{}-{}.run.json", file_part(&record.graph), file_part(&record.run_id)), text)
}

/// `name` as a file name's part: letters and digits kept, anything else a dash.
fn file_part(name: &str) -> String {
    let s: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
    let s = s.trim_matches('-').to_string();
    if s.is_empty() { "run".into() } else { s }
}

/// The trace a run's latest session is exported as, when the record has one (records made
/// before traces have none).
pub fn trace_id(record: &RunRecord) -> Option<&str> {
    record.trace_id.as_deref().filter(|t| !t.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::runs::run_import::is_run_record;
    use crate::model::storage::saved_run::SavedRun;
    use engine::record::TraceSession;

    fn traced() -> RunRecord {
        let mut record: RunRecord = serde_json::from_value(serde_json::json!({
            "format": "switchyard/run@1", "run_id": "19ab-00ff", "graph": "Support Agent", "status": "completed",
            "input": {}, "state": {}, "step": 2, "next": [], "waiting": [], "error": null, "outputs": {}
        }))
        .expect("a record");
        record.trace_id = Some("4bf92f3577b34da6a3ce929d0e0e4736".into());
        record.traces = vec![
            TraceSession { trace_id: "0af7651916cd43dd8448eb211c80319c".into(), from_step: 1 },
            TraceSession { trace_id: "4bf92f3577b34da6a3ce929d0e0e4736".into(), from_step: 2 },
        ];
        record
    }

    #[test]
    fn the_downloaded_record_keeps_its_trace_and_reads_back_as_a_run() {
        let record = traced();
        let (file, text) = record_file(&record);
        assert_eq!(file, "support-agent-19ab-00ff.run.json");
        assert!(text.starts_with("{\n  \"$schema\": \"urn:switchyard:run@1\""), "{text}");
        assert!(is_run_record(&text), "an import takes it as a run");
        let back: RunRecord = serde_json::from_str(&text).expect("reads back");
        assert_eq!(trace_id(&back), Some("4bf92f3577b34da6a3ce929d0e0e4736"));
        assert_eq!(back.traces, record.traces);
    }

    #[test]
    fn a_saved_run_keeps_its_trace_and_an_old_record_shows_none() {
        let saved = SavedRun { record: traced(), initial: Default::default() };
        let back: SavedRun = serde_json::from_str(&serde_json::to_string(&saved).expect("json")).expect("reads back");
        assert_eq!(trace_id(&back.record), Some("4bf92f3577b34da6a3ce929d0e0e4736"));
        let mut old = traced();
        old.trace_id = None;
        old.traces.clear();
        assert!(!serde_json::to_string(&old).expect("json").contains("trace"), "nothing written for old records");
        assert_eq!(trace_id(&old), None);
    }
}
