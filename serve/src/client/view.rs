//! What a LangGraph client sees of a run and a thread, read from the `GraphRun`s' progress:
//! a run's status, its steps with the values after each, what it stopped for; a thread's
//! checkpoints, newest first.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use engine::record::RunRecord;
use engine::{Run, Status};
use serde_json::{Map, Value};

use crate::client::RestateThreads;
use crate::client::doc::{Checkpoint, Segment, Source, ThreadDoc, ThreadRun};
use crate::client::ingress::Failure;
use crate::driver::rebuild;
use crate::protocol::Progress;

/// A LangGraph run's status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunStatus {
    /// Its `GraphRun` has not started yet.
    Pending,
    Running,
    /// Ended: completed, or stopped at an interrupt or a breakpoint (the thread is then
    /// `interrupted`).
    Success,
    /// Failed, or stopped at its step limit.
    Error,
    /// Cancelled.
    Interrupted,
}

impl RunStatus {
    pub fn name(self) -> &'static str {
        match self {
            RunStatus::Pending => "pending",
            RunStatus::Running => "running",
            RunStatus::Success => "success",
            RunStatus::Error => "error",
            RunStatus::Interrupted => "interrupted",
        }
    }

    pub fn is_final(self) -> bool {
        !matches!(self, RunStatus::Pending | RunStatus::Running)
    }
}

/// A human node's wait, as LangGraph's interrupt: `id` is stable for this wait.
#[derive(Debug, Clone, PartialEq)]
pub struct Interrupt {
    pub id: String,
    pub node: String,
    /// The record's `waiting` entry (prompt, options or form fields).
    pub value: Value,
}

/// One step of a run: what ran, what each node wrote, the values after it.
#[derive(Debug, Clone, PartialEq)]
pub struct StepView {
    /// The step in its `GraphRun`.
    pub step: u64,
    /// The step counted over the thread (LangGraph's `metadata.step`).
    pub thread_step: i64,
    pub ran: Vec<String>,
    pub updates: BTreeMap<String, Value>,
    /// Nodes that failed in it, with their error (`{kind, message}`).
    pub errors: BTreeMap<String, Value>,
    pub values: Map<String, Value>,
    pub next: Vec<String>,
    /// Human nodes that stopped the run in this very step.
    pub waiting: Vec<String>,
}

/// A run as its client sees it.
#[derive(Debug, Clone)]
pub struct RunView {
    pub run: ThreadRun,
    pub status: RunStatus,
    /// The values when the run began (for a new input: after it was applied).
    pub values_before: Option<Map<String, Value>>,
    /// The steps it has made so far.
    pub steps: Vec<StepView>,
    /// The values now, what runs next, what waits.
    pub values: Map<String, Value>,
    pub next: Vec<String>,
    pub interrupts: Vec<Interrupt>,
    /// It stopped at a breakpoint.
    pub at_breakpoint: bool,
    /// Why it failed: the engine's error, or the refusal of its start.
    pub error: Option<(String, String)>,
}

impl RunView {
    /// A run that has not started: nothing to show yet.
    pub fn pending(run: ThreadRun) -> RunView {
        RunView {
            run,
            status: RunStatus::Pending,
            values_before: None,
            steps: Vec::new(),
            values: Map::new(),
            next: Vec::new(),
            interrupts: Vec::new(),
            at_breakpoint: false,
            error: None,
        }
    }
}

/// A checkpoint of a thread.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckpointView {
    pub checkpoint: Checkpoint,
    pub parent: Option<Checkpoint>,
    pub thread_step: i64,
    /// `input`, `loop`, `fork` or `update`.
    pub source: &'static str,
    /// The LangGraph run that made it.
    pub run_id: Option<String>,
    pub values: Map<String, Value>,
    pub next: Vec<String>,
    pub interrupts: Vec<Interrupt>,
    pub created_at: String,
}

impl RestateThreads {
    /// The `GraphRun`'s progress; `None` before it has started.
    pub(crate) fn progress(&self, graph_run: &str) -> Result<Option<Progress>, Failure> {
        match self.ingress.call::<(), Progress>("GraphRun", graph_run, "progress", None) {
            Ok(p) => Ok(Some(p)),
            Err(e) if e.status == 404 => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The run `run_id` of the thread.
    pub fn run_view(&self, thread_id: &str, run_id: &str) -> Result<RunView, Failure> {
        let doc = self.thread(thread_id)?;
        if let Some(queued) = doc.queued_run(run_id) {
            return Ok(RunView::pending(queued.clone()));
        }
        let run = doc.run(run_id).ok_or_else(|| Failure::not_found(format!("Run {run_id} not found")))?;
        self.view_of(&doc, run)
    }

    /// Waits until the run has ended (or `within` has passed: then as it is).
    pub fn wait_run(&self, thread_id: &str, run_id: &str, within: Duration) -> Result<RunView, Failure> {
        let since = Instant::now();
        let mut pause = Duration::from_millis(20);
        loop {
            let view = self.run_view(thread_id, run_id)?;
            if view.status.is_final() || since.elapsed() >= within {
                return Ok(view);
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(250));
        }
    }

    pub fn view_of(&self, doc: &ThreadDoc, run: &ThreadRun) -> Result<RunView, Failure> {
        let mut view = RunView::pending(run.clone());
        let progress = match self.progress(&run.graph_run) {
            Ok(Some(p)) => p,
            Ok(None) => return self.not_started(view),
            // Refused before it started: a bad input or graph.
            Err(e) if e.status < 500 => {
                view.status = RunStatus::Error;
                view.error = Some(("ValueError".into(), e.detail));
                return Ok(view);
            }
            Err(e) => return Err(e),
        };
        let segment = doc.segment(&run.graph_run);
        let record = &progress.record;
        let replayed = self.replay(&progress)?;
        view.status = status_of(run, &progress);
        view.values_before = replayed.state_at(run.since_step).map(|s| s.to_json());
        view.steps =
            (run.since_step + 1..=record.step).filter_map(|s| step_view(&replayed, record, segment, s)).collect();
        view.values = record.state.clone();
        view.next = record.next.clone();
        if record.status == Status::Interrupted && view.status.is_final() {
            view.interrupts = interrupts(&run.graph_run, &progress);
            view.at_breakpoint = record.waiting.iter().any(|w| w.breakpoint.is_some());
        }
        view.error = record.error.as_ref().map(|e| (e.kind.name().to_string(), e.message.clone()));
        Ok(view)
    }

    /// A run whose `GraphRun` has no record: still to start, or ended before it could (a
    /// request its workflow refused: the refusal is its error).
    fn not_started(&self, mut view: RunView) -> Result<RunView, Failure> {
        if view.run.cancelled {
            view.status = RunStatus::Interrupted;
            return Ok(view);
        }
        match self.ingress.workflow_output("GraphRun", &view.run.graph_run) {
            Ok(None) => {}
            Ok(Some(_)) => view.status = RunStatus::Error,
            Err(e) if e.status == 404 => {}
            Err(e) => {
                view.status = RunStatus::Error;
                view.error = Some(("ValueError".into(), e.detail));
            }
        }
        Ok(view)
    }

    /// The `GraphRun` rebuilt from its record (nothing is run again), to read any step's state.
    fn replay(&self, progress: &Progress) -> Result<Run, Failure> {
        let plan = self.graphs.plan(progress.record.graph_hash.as_deref())?;
        rebuild(plan, progress.from.as_ref(), &progress.record).map_err(|e| {
            Failure::new(500, format!("run {}: its record does not read back: {e}", progress.record.run_id))
        })
    }

    /// The thread's checkpoints, newest first.
    pub fn checkpoints(&self, thread_id: &str) -> Result<Vec<CheckpointView>, Failure> {
        let doc = self.thread(thread_id)?;
        let mut all = Vec::new();
        for segment in &doc.segments {
            all.extend(self.segment_checkpoints(&doc, segment)?);
        }
        all.reverse();
        Ok(all)
    }

    /// The thread's newest checkpoint (its current values), if it has run at all.
    pub fn head(&self, doc: &ThreadDoc) -> Result<Option<CheckpointView>, Failure> {
        let Some(segment) = doc.segments.last() else { return Ok(None) };
        Ok(self.segment_checkpoints(doc, segment)?.pop())
    }

    /// The checkpoint `checkpoint` of the thread, or 404.
    pub fn checkpoint(&self, doc: &ThreadDoc, checkpoint: &Checkpoint) -> Result<CheckpointView, Failure> {
        let missing = || Failure::not_found(format!("checkpoint {} not found", checkpoint.id()));
        let segment = doc.segment(&checkpoint.graph_run).ok_or_else(missing)?;
        self.segment_checkpoints(doc, segment)?.into_iter().find(|c| &c.checkpoint == checkpoint).ok_or_else(missing)
    }

    fn segment_checkpoints(&self, doc: &ThreadDoc, segment: &Segment) -> Result<Vec<CheckpointView>, Failure> {
        let progress = match self.progress(&segment.graph_run) {
            Ok(Some(p)) => p,
            Ok(None) => return Ok(Vec::new()),
            Err(e) if e.status < 500 => return Ok(Vec::new()),
            Err(e) => return Err(e),
        };
        let replayed = self.replay(&progress)?;
        let record = &progress.record;
        let mut out = Vec::new();
        let g = &segment.graph_run;
        if segment.source == Source::Input {
            out.push(input_checkpoint(doc, segment, &progress));
        }
        for step in segment.first..=record.step {
            let at = Checkpoint::at(g, step);
            let own_first = step == segment.first;
            let parent = match (own_first, segment.source) {
                (false, _) => Some(Checkpoint::at(g, step - 1)),
                (true, Source::Input) => Some(Checkpoint { graph_run: g.clone(), step: 0, input: true }),
                (true, _) => segment.parent.clone(),
            };
            let source = match (own_first, segment.source) {
                (false, _) | (true, Source::Input) => "loop",
                (true, Source::Fork) => "fork",
                (true, Source::Update) => "update",
            };
            let last = step == record.step;
            out.push(CheckpointView {
                checkpoint: at,
                parent,
                thread_step: segment.thread_step(step),
                source,
                run_id: made_by(doc, &segment.graph_run, step),
                values: values_at(&replayed, record, segment, step),
                next: if last { record.next.clone() } else { next_after(record, step) },
                interrupts: if last && record.status == Status::Interrupted {
                    interrupts(&segment.graph_run, &progress)
                } else {
                    Vec::new()
                },
                created_at: segment.created_at.clone(),
            });
        }
        Ok(out)
    }
}

/// The checkpoint before a run's input: the values it starts from (none for a thread's first),
/// with `__start__` next.
fn input_checkpoint(doc: &ThreadDoc, segment: &Segment, progress: &Progress) -> CheckpointView {
    CheckpointView {
        checkpoint: Checkpoint { graph_run: segment.graph_run.clone(), step: 0, input: true },
        parent: segment.parent.clone(),
        thread_step: segment.base - 1,
        source: "input",
        run_id: made_by(doc, &segment.graph_run, 0),
        values: progress.from.as_ref().map(|f| f.state.clone()).unwrap_or_default(),
        next: vec!["__start__".into()],
        interrupts: Vec::new(),
        created_at: segment.created_at.clone(),
    }
}

/// A run has ended when its `GraphRun` has, or stopped again since the run began.
fn status_of(run: &ThreadRun, progress: &Progress) -> RunStatus {
    if progress.cancelled || run.cancelled {
        return RunStatus::Interrupted;
    }
    let stopped_again = progress.waiting && progress.stops > run.since_stop;
    if !(progress.ended || stopped_again) {
        return RunStatus::Running;
    }
    match progress.record.status {
        Status::Completed | Status::Interrupted => RunStatus::Success,
        Status::Failed | Status::LimitReached => RunStatus::Error,
        Status::Running => RunStatus::Running,
    }
}

/// What waits for an answer (not breakpoints), one interrupt per human node.
fn interrupts(graph_run: &str, progress: &Progress) -> Vec<Interrupt> {
    progress
        .record
        .waiting
        .iter()
        .filter(|w| w.breakpoint.is_none())
        .map(|w| Interrupt {
            id: format!("{graph_run}:{}:{}", progress.stops, w.node),
            node: w.node.clone(),
            value: serde_json::to_value(w).unwrap_or(Value::Null),
        })
        .collect()
}

fn step_view(replayed: &Run, record: &RunRecord, segment: Option<&Segment>, step: u64) -> Option<StepView> {
    let doc = record.steps.as_ref()?.get(usize::try_from(step.checked_sub(1)?).ok()?)?;
    Some(StepView {
        step,
        thread_step: segment.map_or(step as i64, |s| s.thread_step(step)),
        ran: doc.ran.clone(),
        updates: doc.updates.iter().map(|(k, u)| (k.clone(), serde_json::to_value(u).unwrap_or(Value::Null))).collect(),
        errors: doc.errors.iter().map(|(k, e)| (k.clone(), serde_json::to_value(e).unwrap_or(Value::Null))).collect(),
        values: replayed.state_at(step).map(|s| s.to_json()).unwrap_or_default(),
        next: doc.next.clone(),
        waiting: doc.waiting.clone(),
    })
}

/// The values at `step`; a fork's first checkpoint holds what was set there.
fn values_at(replayed: &Run, record: &RunRecord, segment: &Segment, step: u64) -> Map<String, Value> {
    if segment.source != Source::Input && step == segment.first {
        if record.step == step {
            return record.state.clone();
        }
        let mut values = replayed.state_at(step).map(|s| s.to_json()).unwrap_or_default();
        if let Some(set) = record.forked_from.as_ref().and_then(|f| f.set.clone()) {
            values.extend(set);
        }
        return values;
    }
    replayed.state_at(step).map(|s| s.to_json()).unwrap_or_default()
}

/// What ran after checkpoint `step` (not the last).
fn next_after(record: &RunRecord, step: u64) -> Vec<String> {
    let steps = record.steps.as_deref().unwrap_or_default();
    usize::try_from(step).ok().and_then(|i| steps.get(i)).map(|s| s.ran.clone()).unwrap_or_default()
}

/// The LangGraph run of `graph_run` whose stretch holds `step`.
fn made_by(doc: &ThreadDoc, graph_run: &str, step: u64) -> Option<String> {
    doc.runs
        .iter()
        .rfind(|r| r.graph_run == graph_run && (r.since_step < step || step == 0 || r.since_step == step))
        .map(|r| r.run_id.clone())
}
