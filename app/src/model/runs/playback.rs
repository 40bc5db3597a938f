//! Looking at a run one step at a time: which nodes were active, done, failed or waiting at
//! the displayed step, which edges it followed, the state then, and which keys that step
//! changed. Works on a run record, so a live run, a saved run and a subgraph's nested run are
//! shown the same way.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use engine::record::snapshots;
use engine::record::{RunRecord, StepDoc};
use engine::run::Status;
use serde_json::{Map, Value};

use crate::model::runs::instances::{self, entries_of, failed_in, node_of};
use crate::model::runs::usage::Usage;

/// A node's look at the displayed step (`data-status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeStatus {
    Idle,
    Active,
    Done,
    Error,
    Waiting,
}

impl NodeStatus {
    pub fn name(self) -> &'static str {
        match self {
            NodeStatus::Idle => "idle",
            NodeStatus::Active => "active",
            NodeStatus::Done => "done",
            NodeStatus::Error => "error",
            NodeStatus::Waiting => "waiting",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Playback {
    pub record: RunRecord,
    /// The state before step 1.
    pub initial: Map<String, Value>,
    /// The step shown: 0 is before the first step, `len()` the last.
    pub displayed: usize,
    /// Node → the indices of the steps it ran (or was passed through) in, ascending: a node's
    /// status at any step is then a binary search, not a walk over every earlier step, which
    /// keeps scrubbing a 10,000-step run as quick as a short one. A mapped node's instances
    /// (`node[i]`) count as the node.
    appearances: HashMap<String, Vec<usize>>,
    /// Tokens the run's model calls used, summed as steps arrive (`None` until one reports).
    usage: Option<Usage>,
}

impl Playback {
    pub fn new(record: RunRecord, initial: Map<String, Value>) -> Playback {
        let displayed = record.steps.as_ref().map_or(0, Vec::len);
        let mut p = Playback { record, initial, displayed, appearances: HashMap::new(), usage: None };
        p.index_from(0);
        p
    }

    /// Takes a newer summary of the same run (`head`, without steps) and the steps it has
    /// beyond the ones held, then shows the newest step.
    pub fn extend(&mut self, mut head: RunRecord, new_steps: Vec<StepDoc>) {
        let have = self.len();
        let mut steps = self.record.steps.take().unwrap_or_default();
        steps.extend(new_steps);
        head.steps = Some(steps);
        self.record = head;
        self.index_from(have);
        self.displayed = self.len();
    }

    fn index_from(&mut self, from: usize) {
        let steps = self.record.steps.as_deref().unwrap_or_default();
        for (i, step) in steps.iter().enumerate().skip(from) {
            for id in step.ran.iter().chain(&step.skipped) {
                let seen = self.appearances.entry(node_of(id).to_string()).or_default();
                if seen.last() != Some(&i) {
                    seen.push(i);
                }
            }
            if let Some(u) = Usage::of_step(step) {
                *self.usage.get_or_insert_with(Usage::default) += u;
            }
        }
    }

    pub fn steps(&self) -> &[StepDoc] {
        self.record.steps.as_deref().unwrap_or_default()
    }

    pub fn len(&self) -> usize {
        self.steps().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn at_end(&self) -> bool {
        self.displayed >= self.len()
    }

    pub fn show(&mut self, step: usize) {
        self.displayed = step.min(self.len());
    }

    /// The step on display, if it is not step 0.
    pub fn current(&self) -> Option<&StepDoc> {
        self.displayed.checked_sub(1).and_then(|i| self.steps().get(i))
    }

    /// The state after the displayed step: the nearest snapshot at or before it, with the
    /// patches since applied (a record keeps a step's full state only now and then).
    pub fn state(&self) -> Map<String, Value> {
        self.state_after(self.displayed)
    }

    /// The state before the displayed step (`None` at step 0).
    pub fn state_before(&self) -> Option<Map<String, Value>> {
        self.displayed.checked_sub(1).map(|k| self.state_after(k))
    }

    /// The state after the first `count` steps. A record whose patches do not apply (a
    /// damaged file) shows the state of the last snapshot before the damage.
    fn state_after(&self, count: usize) -> Map<String, Value> {
        let steps = self.steps();
        snapshots::state_after(&self.initial, steps, count).unwrap_or_else(|_| {
            snapshots::nearest_snapshot(steps, count)
                .and_then(|k| steps[k].state.clone())
                .unwrap_or_else(|| self.initial.clone())
        })
    }

    /// The record as a complete record holds it (the last step with its state), to save or
    /// export: the steps of a live run arrive without it.
    pub fn complete_record(&self) -> RunRecord {
        let mut record = self.record.clone();
        if let Some(steps) = record.steps.as_mut() {
            // A record whose patches do not apply is saved as it is.
            let _ = snapshots::seal(&self.initial, steps);
        }
        record
    }

    /// How many instances of each mapped node the displayed step ran.
    pub fn instance_counts(&self) -> BTreeMap<String, usize> {
        self.current().map(instances::instance_counts).unwrap_or_default()
    }

    /// Tokens used by the whole run (every step held, whichever is displayed).
    pub fn usage(&self) -> Option<Usage> {
        self.usage
    }

    /// Top-level state keys the displayed step's patch touched.
    pub fn changed_keys(&self) -> BTreeSet<String> {
        let Some(step) = self.current() else { return BTreeSet::new() };
        step.patch.0.iter().filter_map(|op| op.path().tokens().next().map(|t| t.decoded().to_string())).collect()
    }

    /// Indices of the edges followed after the displayed step (after step 0: start's edges
    /// are not recorded, so none).
    pub fn taken(&self) -> BTreeSet<usize> {
        self.current().map(|s| s.taken.iter().copied().collect()).unwrap_or_default()
    }

    /// Whether the displayed step is the last of a run that has ended (completed, failed or
    /// stopped at its limit): nothing is active there any more, its last nodes are done.
    pub fn finished_here(&self) -> bool {
        self.at_end() && matches!(self.record.status, Status::Completed | Status::Failed | Status::LimitReached)
    }

    /// Every node's status at the displayed step; nodes not listed are idle. A node's status
    /// comes from the latest step up to the displayed one that ran it.
    pub fn statuses(&self) -> BTreeMap<String, NodeStatus> {
        let mut out = BTreeMap::new();
        let k = self.displayed;
        let steps = self.steps();
        let finished = self.finished_here();
        for (id, seen) in &self.appearances {
            // Index of the latest appearance among steps[..k].
            let Some(&i) = seen[..seen.partition_point(|&i| i < k)].last() else { continue };
            let status = if failed_in(&steps[i], id) {
                NodeStatus::Error
            } else if i + 1 == k && !finished {
                NodeStatus::Active
            } else {
                NodeStatus::Done
            };
            out.insert(id.clone(), status);
        }
        if let Some(step) = self.current() {
            for id in &step.waiting {
                out.insert(node_of(id).to_string(), NodeStatus::Waiting);
            }
        }
        // At the end of an interrupted run, what it waits for (possibly not in any step).
        if self.at_end() && self.record.status == Status::Interrupted {
            for w in &self.record.waiting {
                out.insert(node_of(&w.node).to_string(), NodeStatus::Waiting);
            }
        }
        out
    }

    /// A node's updates and errors up to the displayed step, newest last: (step, the record's
    /// id, which names the instance of a mapped node, and the update or error message).
    pub fn history(&self, node: &str) -> Vec<(u64, String, Result<Value, String>)> {
        let mut out = Vec::new();
        for step in self.steps().iter().take(self.displayed) {
            for (id, u) in entries_of(&step.updates, node) {
                out.push((step.step, id.clone(), Ok(serde_json::to_value(u).unwrap_or(Value::Null))));
            }
            for (id, e) in entries_of(&step.errors, node) {
                out.push((step.step, id.clone(), Err(e.message.clone())));
            }
        }
        out
    }

    /// What a node sent out (rendered prompt, request, nested run) in its latest run up to
    /// the displayed step. An instance's id (`node[i]`) finds that instance's; a mapped node's
    /// own id finds its first instance's.
    pub fn detail(&self, node: &str) -> Option<(u64, &Value)> {
        self.steps()
            .iter()
            .take(self.displayed)
            .rev()
            .find_map(|s| entries_of(&s.details, node).first().map(|&(_, d)| (s.step, d)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{OfflineHost, Run, compile, parse_graph};
    use std::rc::Rc;

    fn approval_run(answer: Option<&str>) -> (RunRecord, Map<String, Value>) {
        let g = parse_graph(include_str!("../../../../templates/003-approval.json")).unwrap();
        let plan = Rc::new(compile(&g).plan.unwrap());
        let host = OfflineHost::new();
        let mut run = Run::start(plan, serde_json::json!({"request": "two laptops"}), &host).unwrap();
        pollster_lite(&mut run, &host);
        if let Some(a) = answer {
            let waiting = run.waiting_for();
            run.answer(&waiting[0], serde_json::json!({ "decision": a })).unwrap();
            pollster_lite(&mut run, &host);
        }
        (run.record(true), run.state_at(0).unwrap().to_json())
    }

    /// Drives a run whose nodes never wait on the host.
    fn pollster_lite(run: &mut Run, host: &OfflineHost) {
        let waker = std::task::Waker::noop();
        let mut cx = std::task::Context::from_waker(waker);
        let mut fut = Box::pin(run.run(host));
        while fut.as_mut().poll(&mut cx).is_pending() {}
    }

    #[test]
    fn statuses_follow_the_displayed_step() {
        let (record, initial) = approval_run(Some("approve"));
        let mut p = Playback::new(record, initial);
        assert!(p.len() >= 3);
        p.show(1);
        let s = p.statuses();
        let first = &p.steps()[0].ran[0].clone();
        assert_eq!(s[first], NodeStatus::Active);
        p.show(2);
        assert_eq!(p.statuses()[first], NodeStatus::Done);
        // At the end of the completed run nothing is active: its last nodes are done.
        p.show(p.len());
        assert!(p.statuses().values().all(|s| *s == NodeStatus::Done), "{:?}", p.statuses());
        p.show(0);
        assert!(p.statuses().is_empty());
        assert_eq!(p.state(), p.initial);
    }

    #[test]
    fn an_interrupted_run_shows_who_waits() {
        let (record, initial) = approval_run(None);
        let p = Playback::new(record, initial);
        let waiting: Vec<_> = p.statuses().into_iter().filter(|(_, s)| *s == NodeStatus::Waiting).collect();
        assert_eq!(waiting.len(), 1);
    }

    #[test]
    fn changed_keys_come_from_the_patch() {
        let (record, initial) = approval_run(Some("approve"));
        let mut p = Playback::new(record, initial);
        for k in 1..=p.len() {
            p.show(k);
            let changed = p.changed_keys();
            let before = p.state_before().expect("a step before");
            for key in p.state().keys() {
                assert_eq!(changed.contains(key), before.get(key) != p.state().get(key), "step {k} key {key}");
            }
        }
    }

    /// The statuses as the plain walk over every step up to the displayed one gives them.
    fn walked_statuses(p: &Playback) -> BTreeMap<String, NodeStatus> {
        let mut out = BTreeMap::new();
        for (i, step) in p.steps().iter().take(p.displayed).enumerate() {
            let last = i + 1 == p.displayed;
            let now = last && !p.finished_here();
            for id in step.ran.iter().chain(&step.skipped) {
                let status = if step.errors.contains_key(id) {
                    NodeStatus::Error
                } else if now {
                    NodeStatus::Active
                } else {
                    NodeStatus::Done
                };
                out.insert(id.clone(), status);
            }
            if last {
                for id in &step.waiting {
                    out.insert(id.clone(), NodeStatus::Waiting);
                }
            }
        }
        if p.at_end() && p.record.status == Status::Interrupted {
            for w in &p.record.waiting {
                out.insert(w.node.clone(), NodeStatus::Waiting);
            }
        }
        out
    }

    #[test]
    fn statuses_of_a_looping_run_built_step_by_step_match_the_walk() {
        let g = parse_graph(include_str!("../../../../templates/000-task-loop.json")).unwrap();
        let plan = Rc::new(compile(&g).plan.unwrap());
        let host = OfflineHost::new();
        let input =
            serde_json::json!({"request": "Organize all my machine learning notes and create a comprehensive index"});
        let mut run = Run::start(plan, input, &host).unwrap();
        let initial = run.state_at(0).unwrap().to_json();
        let mut live = Playback::new(run.record(false), initial.clone());
        let waker = std::task::Waker::noop();
        let mut cx = std::task::Context::from_waker(waker);
        while run.status() == Status::Running {
            while Box::pin(run.step(&host)).as_mut().poll(&mut cx).is_pending() {}
            live.extend(run.record(false), run.step_docs(live.len()));
            assert_eq!(live.displayed, live.len(), "the newest step is shown");
        }
        let mut whole = Playback::new(run.record(true), initial.clone());
        // The live steps lack the last step's state; saving completes them into the record.
        assert_eq!(live.complete_record(), whole.record);
        assert!(whole.len() > 8, "the complex request loops");
        let full = run.record_with(true, engine::StepStates::Every).steps.unwrap();
        assert!(whole.steps().iter().filter(|s| s.state.is_none()).count() > 0, "some steps carry no state");
        for k in (0..=whole.len()).chain([3, 1, 7, 0]) {
            live.show(k);
            whole.show(k);
            assert_eq!(whole.statuses(), walked_statuses(&whole), "step {k}");
            assert_eq!(live.statuses(), whole.statuses(), "step {k}");
            // Every step's state, rebuilt from the nearest snapshot, is the one the engine had.
            let want = if k == 0 { initial.clone() } else { full[k - 1].state.clone().unwrap() };
            assert_eq!(whole.state(), want, "step {k}");
            assert_eq!(live.state(), want, "step {k}");
        }
    }

    /// A map-reduce run as the engine records it: `split`, then three instances of
    /// `summarize` (the second failing with `on_error: continue`), then `combine`.
    fn mapped_run() -> Playback {
        let step = |n: u64, ran: Value, updates: Value, errors: Value, details: Value, state: Value| {
            serde_json::json!({
                "step": n, "ran": ran, "updates": updates, "errors": errors, "patch": [], "state": state,
                "next": [], "details": details, "duration_ms": 1.0
            })
        };
        let record = serde_json::json!({
            "format": "switchyard/run@1", "run_id": "r", "graph": "map", "status": "completed",
            "input": {}, "state": {"n": 3}, "step": 3, "next": [], "waiting": [], "error": null, "outputs": {},
            "steps": [
                step(1, serde_json::json!(["split"]), serde_json::json!({"split": {"items": [1, 2, 3]}}),
                    serde_json::json!({}), serde_json::json!({}), serde_json::json!({"n": 1})),
                step(2, serde_json::json!(["summarize[0]", "summarize[1]", "summarize[2]"]),
                    serde_json::json!({"summarize[0]": {"s": ["a"]}, "summarize[2]": {"s": ["c"]}}),
                    serde_json::json!({"summarize[1]": {"kind": "llm", "message": "no mock reply matches"}}),
                    serde_json::json!({
                        "summarize[0]": {"prompt": "p0", "usage": {"input_tokens": 10, "output_tokens": 2}},
                        "summarize[2]": {"prompt": "p2", "usage": {"input_tokens": 12, "output_tokens": 3}}
                    }),
                    serde_json::json!({"n": 2})),
                step(3, serde_json::json!(["combine"]), serde_json::json!({"combine": {"n": 3}}),
                    serde_json::json!({}), serde_json::json!({"combine": {"usage": {"input_tokens": 5, "output_tokens": 1}}}),
                    serde_json::json!({"n": 3})),
            ]
        });
        let record: RunRecord = serde_json::from_value(record).expect("a record");
        Playback::new(record, serde_json::from_value(serde_json::json!({"n": 0})).unwrap())
    }

    #[test]
    fn mapped_instances_count_as_their_node_on_the_canvas() {
        let mut p = mapped_run();
        p.show(2);
        let s = p.statuses();
        assert_eq!(s.get("summarize"), Some(&NodeStatus::Error), "an instance failed");
        assert!(s.keys().all(|k| !k.contains('[')), "no instance ids on the canvas: {s:?}");
        assert_eq!(p.instance_counts(), BTreeMap::from([("summarize".to_string(), 3)]));
        p.show(3);
        assert_eq!(p.statuses().get("summarize"), Some(&NodeStatus::Error));
        assert!(p.instance_counts().is_empty(), "step 3 ran no instances");
        assert_eq!(p.state_before().and_then(|s| s.get("n").cloned()), Some(Value::from(2)));
        p.show(1);
        assert_eq!(p.state_before(), Some(p.initial.clone()));
        p.show(0);
        assert_eq!(p.state_before(), None);
        // Without the failure the mapped node is active, then done.
        let mut ok = mapped_run();
        ok.record.steps.as_mut().unwrap()[1].errors.clear();
        let mut ok = Playback::new(ok.record, ok.initial);
        ok.show(2);
        assert_eq!(ok.statuses().get("summarize"), Some(&NodeStatus::Active));
        ok.show(3);
        assert_eq!(ok.statuses().get("summarize"), Some(&NodeStatus::Done));
    }

    #[test]
    fn a_mapped_nodes_history_and_details_hold_its_instances() {
        let p = mapped_run();
        let h = p.history("summarize");
        let ids: Vec<&str> = h.iter().map(|(_, id, _)| id.as_str()).collect();
        assert_eq!(ids, ["summarize[0]", "summarize[2]", "summarize[1]"]);
        assert!(h.iter().all(|(step, _, _)| *step == 2));
        assert_eq!(h[2].2, Err("no mock reply matches".to_string()));
        assert_eq!(p.detail("summarize").map(|(s, d)| (s, d["prompt"].clone())), Some((2, Value::from("p0"))));
        assert_eq!(p.detail("summarize[2]").map(|(_, d)| d["prompt"].clone()), Some(Value::from("p2")));
        assert_eq!(p.usage(), Some(Usage { input_tokens: 27, output_tokens: 6 }));
    }
}
