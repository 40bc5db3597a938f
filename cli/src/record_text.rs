//! How `run` and `resume` print a run record, and how `--record FILE` holds it: pretty JSON,
//! but each step on one line of compact JSON.
//!
//! A step printed pretty takes a line per value: a snapshot of a 20,000-item list would be
//! 20,000 indented lines, and the steps of a long run most of the record. One step a line
//! keeps the record about as small as compact JSON while the head (status, state, error)
//! stays easy to read, and a step is one line to `grep`. It is JSON all the same: any
//! reader takes it.

use engine::record::{RunRecord, StepDoc};
use engine::{Run, StepStates};

/// How a step line starts: inside `"steps": [`, two levels in.
const STEP_INDENT: &str = "    ";

/// The record of `run` as printed, ending with a newline: with its steps' states as `states`
/// says, or without its steps (`with_steps: false`, the summary). Steps are turned into JSON
/// one at a time, each written straight from the run, so a record with every step's state
/// is never whole in memory but as text.
pub fn printed(run: &Run, with_steps: bool, states: StepStates) -> String {
    let record = run.record(false);
    if !with_steps {
        return format!("{}\n", pretty(&record));
    }
    let mut text = head(&record).into_bytes();
    let count = run.steps().len();
    for k in 0..count {
        if k > 0 {
            text.push(b',');
        }
        // As `step_line` writes the step's `StepDoc`, without building one.
        text.push(b'\n');
        text.extend_from_slice(STEP_INDENT.as_bytes());
        run.write_step_json(k, states, &mut text);
    }
    text.extend_from_slice(tail(count > 0).as_bytes());
    // Only strings and serde_json's output went in: UTF-8 throughout.
    String::from_utf8(text).unwrap_or_default()
}

/// A record read back (from a served run), printed as [`printed`] prints a run's: pretty,
/// each step on a line; a record without steps as a summary.
pub fn printed_record(record: &RunRecord) -> String {
    let Some(steps) = &record.steps else { return format!("{}\n", pretty(record)) };
    let summary = RunRecord { steps: None, ..record.clone() };
    let mut text = head(&summary);
    for (k, step) in steps.iter().enumerate() {
        if k > 0 {
            text.push(',');
        }
        text.push_str(&step_line(step));
    }
    text.push_str(&tail(!steps.is_empty()));
    text
}

/// A record's `summary` (without its steps, `Run::record(false)`), up to where the steps
/// start (`"steps": [`): the steps' lines, comma-separated, then [`tail`] complete it.
pub fn head(summary: &RunRecord) -> String {
    let mut text = pretty(summary);
    // Pretty JSON of an object ends with "\n}"; `steps` is the record's last field.
    text.truncate(text.strip_suffix("\n}").map_or(text.len(), str::len));
    text.push_str(",\n  \"steps\": [");
    text
}

/// What closes the record after its steps (`any`: whether there were steps).
pub fn tail(any: bool) -> String {
    if any { "\n  ]\n}\n".into() } else { "]\n}\n".into() }
}

/// One step, as a line of the record: a newline, the indentation, the step as compact JSON
/// (the comma between two steps goes before the next one's line).
pub fn step_line(s: &StepDoc) -> String {
    format!("\n{STEP_INDENT}{}", serde_json::to_string(s).unwrap_or_default())
}

fn pretty(record: &RunRecord) -> String {
    serde_json::to_string_pretty(record).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{OfflineHost, compile, parse_graph};
    use serde_json::json;
    use std::rc::Rc;

    fn run(until: u32) -> Run {
        let graph = format!(
            r#"{{"format": "switchyard/graph@1",
              "state": {{"xs": {{"type": "list", "reducer": "append"}}, "n": {{"type": "integer"}}}},
              "nodes": [{{"id": "start", "kind": "start"}}, {{"id": "a", "kind": "set", "set": {{"xs": "state.n", "n": "state.n + 1"}}}},
                        {{"id": "end", "kind": "end"}}],
              "edges": [{{"from": "start", "to": "a"}}, {{"from": "a", "to": "a", "when": "state.n < {until}"}},
                        {{"from": "a", "to": "end", "when": "state.n >= {until}"}}]}}"#
        );
        let plan = Rc::new(compile(&parse_graph(&graph).expect("a graph")).plan.expect("a valid graph"));
        let host = OfflineHost::new();
        let mut run = Run::start(plan, json!({}), &host).expect("a run");
        pollster::block_on(run.run(&host));
        run
    }

    #[test]
    fn steps_are_one_line_each_and_the_text_reads_back_as_the_record() {
        let r = run(3);
        for states in [StepStates::Snapshots, StepStates::Every] {
            let text = printed(&r, true, states);
            let back: RunRecord = serde_json::from_str(&text).expect("the printed record is JSON");
            assert_eq!(back, r.record_with(true, states));
            assert!(text.ends_with("\n  ]\n}\n"), "{text}");
            assert!(text.contains("\n  \"state\": {\n    \"n\": 3,\n    \"xs\": [\n"), "the head is pretty:\n{text}");
            let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("    {\"step\":")).collect();
            assert_eq!(lines.len(), 3, "{text}");
            assert!(lines[0].ends_with("},") && lines[2].ends_with('}'), "{text}");
        }
        let summary = printed(&r, false, StepStates::Snapshots);
        assert_eq!(serde_json::from_str::<RunRecord>(&summary).expect("JSON"), r.record(false));
    }

    #[test]
    fn a_record_without_steps_closes_its_empty_list() {
        let host = OfflineHost::new();
        let r = run(3);
        let fresh = Run::start(r.plan().clone(), json!({}), &host).expect("a run");
        let text = printed(&fresh, true, StepStates::Snapshots);
        assert!(text.ends_with("\"steps\": []\n}\n"), "{text}");
        assert_eq!(serde_json::from_str::<RunRecord>(&text).expect("JSON"), fresh.record(true));
    }
}
