//! Two runs side by side (the `Compare runs` view): rows aligned by step number (step n of
//! one run beside step n of the other; a step only one run reached stands alone), each row
//! marked same or different by the engine's run diff ([`engine::record::diff`]), the first
//! differing step, and, for the row looked at, each state key that differs with its value in
//! both runs.
//!
//! Pure and natively tested; the comparison holds both records so a row's state difference is
//! rebuilt only when that row is looked at (records with sparse snapshots are rebuilt from
//! the nearest snapshot, [`snapshots::state_after`]).

use std::collections::BTreeMap;

use engine::record::diff::{RunDiff, StepDiff, diff_runs};
use engine::record::{RunRecord, StepDoc, snapshots};
use engine::run::Status;
use serde_json::{Map, Value};

use crate::model::runs::instances::{RanGroup, group_ran};

/// Which of the two runs: the left column (`A`, the run compared from) or the right (`B`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Column {
    A,
    B,
}

/// One run as the comparison shows it: its column heading, its record, and the names of its
/// graph's edges by index (`from → to`), when the graph it ran on is known.
#[derive(Debug, Clone, PartialEq)]
pub struct RunSide {
    pub label: String,
    pub record: RunRecord,
    pub edges: Option<Vec<String>>,
}

impl RunSide {
    pub fn new(label: impl Into<String>, record: RunRecord) -> RunSide {
        RunSide { label: label.into(), record, edges: None }
    }

    /// Names edges from `graph`'s edge list (the graph this run ran on).
    pub fn with_edges(mut self, edges: Vec<String>) -> RunSide {
        self.edges = Some(edges);
        self
    }

    fn steps(&self) -> &[StepDoc] {
        self.record.steps.as_deref().unwrap_or_default()
    }

    /// The name of edge `index` of this run's graph: `from → to` when the graph is known,
    /// else its place in the graph's list.
    fn edge_name(&self, index: usize) -> String {
        match self.edges.as_ref().and_then(|e| e.get(index)) {
            Some(name) => name.clone(),
            None => format!("edge #{index}"),
        }
    }

    /// The state after the first `count` steps; past its last step, the state it ended with.
    /// A record whose patches do not rebuild (it was checked before it got here) shows empty.
    fn state_after(&self, count: usize) -> Map<String, Value> {
        snapshots::state_after(&Map::new(), self.steps(), count).unwrap_or_default()
    }
}

/// A graph's edges named as the comparison shows them, in the graph's order.
pub fn edge_names(graph: &engine::document::Graph) -> Vec<String> {
    graph.edges.iter().map(|e| format!("{} → {}", e.from, e.to)).collect()
}

/// What one run did in one step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepSide {
    /// The nodes that ran, a mapped node's instances folded (`summarize ×3`).
    pub ran: Vec<String>,
    /// The edges followed after the step, named (`check → approve`).
    pub taken: Vec<String>,
    /// The nodes due next.
    pub next: Vec<String>,
    /// The step failed the run.
    pub failed: bool,
    /// Nodes that failed in the step.
    pub errors: Vec<String>,
}

impl StepSide {
    fn of(side: &RunSide, step: &StepDoc) -> StepSide {
        StepSide {
            ran: group_ran(&step.ran).iter().map(RanGroup::label).collect(),
            taken: step.taken.iter().map(|&i| side.edge_name(i)).collect(),
            next: group_ran(&step.next).iter().map(RanGroup::label).collect(),
            failed: step.failed,
            errors: step.errors.keys().cloned().collect(),
        }
    }

    /// One line: what ran (or that it waited).
    pub fn ran_text(&self) -> String {
        if self.ran.is_empty() { "(nothing ran)".to_string() } else { self.ran.join(", ") }
    }
}

/// One row: step `step` of both runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub step: u64,
    pub a: Option<StepSide>,
    pub b: Option<StepSide>,
    /// The step differs between the runs (what ran, the edges taken, what is due next, or the
    /// state after it), or only one run has it.
    pub differs: bool,
    /// What differs, in words: `ran`, `edges taken`, `next`, `state`, `only in A`.
    pub why: Vec<String>,
    /// The top-level state keys the engine's patch touches (a's state after the step → b's).
    keys: Vec<String>,
}

impl Row {
    /// The side of `column`.
    pub fn side(&self, column: Column) -> Option<&StepSide> {
        match column {
            Column::A => self.a.as_ref(),
            Column::B => self.b.as_ref(),
        }
    }
}

/// How a state key differs between the two runs after a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Only the right-hand run (B) has it.
    Added,
    /// Only the left-hand run (A) has it.
    Removed,
    /// Both have it, with different values.
    Changed,
}

impl Change {
    pub fn name(self) -> &'static str {
        match self {
            Change::Added => "added",
            Change::Removed => "removed",
            Change::Changed => "changed",
        }
    }
}

/// A state key that differs after a step: its value in A (`before`) and in B (`after`).
#[derive(Debug, Clone, PartialEq)]
pub struct KeyChange {
    pub key: String,
    pub change: Change,
    pub before: Option<Value>,
    pub after: Option<Value>,
}

/// Two runs compared: the rows, the first differing one, and how each run ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    pub a: RunSide,
    pub b: RunSide,
    pub rows: Vec<Row>,
    /// The index in `rows` of the first differing step.
    pub first: Option<usize>,
    /// The runs ended with different statuses: A's and B's.
    pub status: Option<(Status, Status)>,
    /// The final states differ.
    pub final_differs: bool,
    /// Input keys that differ between the runs.
    pub input: Vec<KeyChange>,
}

impl Comparison {
    /// Compares run `a` (left) with run `b` (right).
    pub fn new(a: RunSide, b: RunSide) -> Comparison {
        let diff = diff_runs(&a.record, &b.record);
        let rows = rows(&a, &b, &diff);
        let first = diff
            .first
            .and_then(|step| rows.iter().position(|r| r.step == step))
            .or_else(|| rows.iter().position(|r| r.differs));
        let input = key_changes(&a.record.input, &b.record.input, None);
        Comparison { a, b, rows, first, status: diff.status, final_differs: !diff.state.0.is_empty(), input }
    }

    /// Whether the two runs did the same: every step, the status and the final state alike.
    pub fn same(&self) -> bool {
        self.first.is_none() && self.status.is_none() && !self.final_differs
    }

    /// How many rows differ.
    pub fn differing(&self) -> usize {
        self.rows.iter().filter(|r| r.differs).count()
    }

    /// The label of `column`.
    pub fn label(&self, column: Column) -> &str {
        match column {
            Column::A => &self.a.label,
            Column::B => &self.b.label,
        }
    }

    /// The row shown first: the first differing step, else the first step.
    pub fn initial_row(&self) -> Option<usize> {
        self.first.or(if self.rows.is_empty() { None } else { Some(0) })
    }

    /// The next differing row after `from`.
    pub fn next_difference(&self, from: usize) -> Option<usize> {
        self.rows.iter().enumerate().skip(from + 1).find(|(_, r)| r.differs).map(|(i, _)| i)
    }

    /// The differing row before `from`.
    pub fn previous_difference(&self, from: usize) -> Option<usize> {
        self.rows[..from.min(self.rows.len())].iter().rposition(|r| r.differs)
    }

    /// The state keys that differ after row `index`'s step, with each run's value (a run
    /// that ended earlier counts with the state it ended with), in key order.
    pub fn state_difference(&self, index: usize) -> Vec<KeyChange> {
        let Some(row) = self.rows.get(index) else { return Vec::new() };
        let count = usize::try_from(row.step).unwrap_or(usize::MAX);
        let a = self.a.state_after(count);
        let b = self.b.state_after(count);
        // A step one run never reached: its state stands beside the state the other ended
        // with, every key compared (the engine's diff keeps no patch for it).
        let one_sided = row.a.is_none() || row.b.is_none();
        key_changes(&a, &b, (!one_sided).then_some(&row.keys[..]))
    }

    /// One line saying how the runs compare, for the dialog's summary.
    pub fn summary(&self) -> String {
        if self.same() {
            return "The two runs are the same: every step, the state after it and how they ended.".to_string();
        }
        let mut parts = Vec::new();
        match self.first.map(|i| &self.rows[i]) {
            Some(row) => parts.push(format!(
                "They first differ at step {} ({}); {} of {} steps differ.",
                row.step,
                row.why.join(", "),
                self.differing(),
                self.rows.len()
            )),
            None => parts.push("Every step is alike.".to_string()),
        }
        if let Some((a, b)) = self.status {
            parts.push(format!("{} ended {}, {} ended {}.", self.a.label, a.name(), self.b.label, b.name()));
        } else if self.final_differs {
            parts.push("They end with different states.".to_string());
        }
        parts.join(" ")
    }
}

/// The rows of both runs, step 1 to the longer run's last step.
fn rows(a: &RunSide, b: &RunSide, diff: &RunDiff) -> Vec<Row> {
    let by_step: BTreeMap<u64, &StepDiff> = diff.steps.iter().map(|d| (d.step, d)).collect();
    let len = a.steps().len().max(b.steps().len());
    (0..len)
        .map(|k| {
            let sa = a.steps().get(k);
            let sb = b.steps().get(k);
            let step = sa.or(sb).map_or(k as u64 + 1, |s| s.step);
            let d = by_step.get(&step).copied();
            let why = why(d, sa.is_some(), sb.is_some());
            Row {
                step,
                a: sa.map(|s| StepSide::of(a, s)),
                b: sb.map(|s| StepSide::of(b, s)),
                differs: !why.is_empty(),
                why,
                keys: d.map(patch_keys).unwrap_or_default(),
            }
        })
        .collect()
}

/// What differs at a step, in words, from the engine's diff of it (empty: the step is alike).
fn why(d: Option<&StepDiff>, in_a: bool, in_b: bool) -> Vec<String> {
    let mut out = Vec::new();
    match (in_a, in_b) {
        (true, false) => out.push("only in A".to_string()),
        (false, true) => out.push("only in B".to_string()),
        _ => {}
    }
    let Some(d) = d else { return out };
    if out.is_empty() && d.only_in.is_some() {
        out.push("only in one run".to_string());
    }
    if d.ran.is_some() {
        out.push("ran".to_string());
    }
    if d.taken.is_some() {
        out.push("edges taken".to_string());
    }
    if d.next.is_some() {
        out.push("next".to_string());
    }
    if !d.state.0.is_empty() {
        out.push("state".to_string());
    }
    out
}

/// The top-level keys a step diff's JSON Patch touches, in the order it first touches them.
fn patch_keys(d: &StepDiff) -> Vec<String> {
    let mut keys: Vec<String> = Vec::new();
    for op in &d.state.0 {
        let Some(key) = op.path().tokens().next().map(|t| t.decoded().to_string()) else { continue };
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    keys
}

/// The keys of `a` and `b` that differ, each with both values; only `among` (when given),
/// else every key of either.
fn key_changes(a: &Map<String, Value>, b: &Map<String, Value>, among: Option<&[String]>) -> Vec<KeyChange> {
    let mut keys: Vec<&String> = match among {
        Some(keys) => keys.iter().collect(),
        None => a.keys().chain(b.keys().filter(|k| !a.contains_key(*k))).collect(),
    };
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter_map(|key| {
            let (before, after) = (a.get(key), b.get(key));
            let change = match (before, after) {
                (None, Some(_)) => Change::Added,
                (Some(_), None) => Change::Removed,
                (Some(x), Some(y)) if x != y => Change::Changed,
                _ => return None,
            };
            Some(KeyChange { key: key.clone(), change, before: before.cloned(), after: after.cloned() })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A record of `steps`, each `(ran, taken, state after)`; `sparse` keeps a snapshot only
    /// on the first and last steps, as a long live run's record does.
    fn record(id: &str, status: Status, steps: &[(&[&str], &[usize], Value)], sparse: bool) -> RunRecord {
        let mut before = Value::Object(Map::new());
        let n = steps.len();
        let docs: Vec<StepDoc> = steps
            .iter()
            .enumerate()
            .map(|(k, (ran, taken, state))| {
                let patch = json_patch::diff(&before, state);
                before = state.clone();
                let keep = !sparse || k == 0 || k + 1 == n;
                serde_json::from_value(json!({
                    "step": k + 1, "ran": ran, "updates": {}, "errors": {}, "patch": patch,
                    "state": keep.then(|| state.clone()), "next": [], "taken": taken, "duration_ms": 1.0
                }))
                .expect("a step")
            })
            .collect();
        serde_json::from_value(json!({
            "format": "switchyard/run@1", "run_id": id, "graph": "g", "status": status,
            "input": steps.first().map_or(json!({}), |s| s.2.clone()), "state": before,
            "step": n, "next": [], "waiting": [], "error": null, "outputs": {}, "steps": docs
        }))
        .expect("a record")
    }

    fn approve() -> Vec<(&'static [&'static str], &'static [usize], Value)> {
        vec![
            (&["start"], &[0], json!({"d": "approve", "n": 1})),
            (&["check"], &[1], json!({"d": "approve", "n": 2})),
            (&["yes"], &[3], json!({"d": "approve", "n": 3, "out": "done"})),
            (&["end"], &[], json!({"d": "approve", "n": 4, "out": "done"})),
        ]
    }

    fn edges() -> Vec<String> {
        ["start → check", "check → yes", "check → no", "yes → end", "no → end"].map(String::from).to_vec()
    }

    fn compare(a: RunRecord, b: RunRecord) -> Comparison {
        Comparison::new(
            RunSide::new("Saved run", a).with_edges(edges()),
            RunSide::new("Edited graph", b).with_edges(edges()),
        )
    }

    #[test]
    fn identical_runs_are_the_same() {
        let c = compare(
            record("a", Status::Completed, &approve(), false),
            record("b", Status::Completed, &approve(), true),
        );
        assert!(c.same(), "{c:#?}");
        assert_eq!(c.first, None);
        assert_eq!(c.initial_row(), Some(0));
        assert_eq!(c.rows.len(), 4);
        assert!(c.rows.iter().all(|r| !r.differs && r.a.is_some() && r.b.is_some()));
        assert!(c.summary().starts_with("The two runs are the same"));
        assert!(c.state_difference(2).is_empty());
    }

    #[test]
    fn a_different_path_is_found_at_its_first_step_with_named_edges_and_values() {
        let mut other = approve();
        other[1] = (&["check"], &[2], json!({"d": "approve", "n": 2, "a/b": true}));
        other[2] = (&["no"], &[4], json!({"d": "approve", "n": 3, "out": "declined", "a/b": true}));
        other[3] = (&["end"], &[], json!({"d": "approve", "n": 4, "out": "declined", "a/b": true}));
        let c =
            compare(record("a", Status::Completed, &approve(), false), record("b", Status::Completed, &other, true));
        assert!(!c.same());
        assert_eq!(c.first, Some(1), "{c:#?}");
        let row = &c.rows[1];
        assert!(row.differs);
        assert_eq!(row.a.as_ref().map(|s| s.taken.clone()), Some(vec!["check → yes".to_string()]));
        assert_eq!(row.b.as_ref().map(|s| s.taken.clone()), Some(vec!["check → no".to_string()]));
        assert!(row.why.contains(&"edges taken".to_string()), "{:?}", row.why);
        assert_eq!(
            c.state_difference(1),
            vec![KeyChange { key: "a/b".into(), change: Change::Added, before: None, after: Some(json!(true)) }]
        );
        // Step 3 of B is rebuilt from its patches (no snapshot there).
        let third = c.state_difference(2);
        let out = third.iter().find(|k| k.key == "out").expect("out differs");
        assert_eq!(
            (out.change, out.before.clone(), out.after.clone()),
            (Change::Changed, Some(json!("done")), Some(json!("declined")))
        );
        assert_eq!(c.rows[2].b.as_ref().map(StepSide::ran_text).as_deref(), Some("no"));
        assert_eq!(c.next_difference(1), Some(2));
        assert_eq!(c.previous_difference(2), Some(1));
        assert_eq!(c.previous_difference(1), None);
        assert!(c.summary().contains("first differ at step 2"), "{}", c.summary());
    }

    #[test]
    fn a_step_only_one_run_reached_stands_alone() {
        let short = approve()[..2].to_vec();
        let c = compare(record("a", Status::Completed, &approve(), false), record("b", Status::Failed, &short, false));
        assert_eq!(c.rows.len(), 4);
        assert!(c.rows[2].a.is_some() && c.rows[2].b.is_none());
        assert!(c.rows[2].differs && c.rows[3].differs);
        assert!(c.rows[2].why.contains(&"only in A".to_string()));
        assert_eq!(c.first, Some(2));
        assert_eq!(c.status, Some((Status::Completed, Status::Failed)));
        // B ended after step 2: its state then stands beside A's after step 3.
        let d = c.state_difference(2);
        assert!(d.iter().any(|k| k.key == "out" && k.change == Change::Removed), "{d:?}");
        assert!(c.summary().contains("Edited graph ended failed"), "{}", c.summary());
    }

    #[test]
    fn unknown_graphs_name_edges_by_place_and_inputs_are_compared() {
        let mut other = approve();
        other[0] = (&["start"], &[0], json!({"d": "reject", "n": 1}));
        let a = RunSide::new("A", record("a", Status::Completed, &approve(), false));
        let b = RunSide::new("B", record("b", Status::Completed, &other, false));
        let c = Comparison::new(a, b);
        assert_eq!(c.rows[0].a.as_ref().map(|s| s.taken.clone()), Some(vec!["edge #0".to_string()]));
        assert_eq!(c.input.len(), 1);
        assert_eq!(c.input[0].key, "d");
        assert_eq!(c.first, Some(0));
    }
}
