//! A thread's document as the `Thread` object keeps it: its metadata, its LangGraph runs, and
//! the segments (one `GraphRun` each) its checkpoints live in.
//!
//! A LangGraph run is a stretch of one `GraphRun`: the first from its start to its first stop,
//! the next (a resume, or going on from a breakpoint) from that stop to the next. A new input,
//! a fork or an update of the state starts a new `GraphRun`, a new segment. A checkpoint is a
//! step of a segment's `GraphRun`, named `<graph run>:<step>`.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::client::ingress::Failure;

/// What a thread holds.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ThreadDoc {
    pub thread_id: String,
    pub created_at: String,
    pub updated_at: String,
    #[serde(default)]
    pub metadata: Map<String, Value>,
    /// The LangGraph runs, oldest first.
    #[serde(default)]
    pub runs: Vec<ThreadRun>,
    /// The segments, oldest first; the newest holds the thread's current checkpoint.
    #[serde(default)]
    pub segments: Vec<Segment>,
    /// Runs asked for with `multitask_strategy: enqueue` while the thread was busy, oldest
    /// first: each starts when the runs before it have ended ([`crate::client::queue`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub queued: Vec<QueuedRun>,
}

/// A run waiting for the thread: what it will be once started, and what starts it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct QueuedRun {
    /// Its `graph_run` is empty until it starts.
    pub run: ThreadRun,
    pub start: RunStart,
}

/// One LangGraph run: which `GraphRun` it drives, and from where in it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ThreadRun {
    pub run_id: String,
    pub graph_run: String,
    pub assistant_id: String,
    /// How many stops the `GraphRun` had made when this run began: it ends at the next one.
    pub since_stop: u32,
    /// The `GraphRun`'s step when this run began: its steps are the ones after.
    pub since_step: u64,
    pub created_at: String,
    #[serde(default)]
    pub metadata: Map<String, Value>,
    /// The request as given (LangGraph's `kwargs`).
    #[serde(default)]
    pub kwargs: Value,
    /// Cancelled: it has ended `interrupted` for its clients, though its `GraphRun` finishes
    /// the step in progress (a model call cannot be taken back) before it stops.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cancelled: bool,
}

/// Where a segment's checkpoints come from.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// A run with an input (from the defaults or the thread's values).
    Input,
    /// A run going on from an earlier checkpoint (LangGraph's time travel).
    Fork,
    /// `update_state`: a fork with the values set, stopped before anything runs.
    Update,
}

/// A `GraphRun` of the thread.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Segment {
    pub graph_run: String,
    /// The first of its steps that is its own checkpoint: 0, or the step a fork starts at.
    pub first: u64,
    /// The thread's step count (LangGraph's `metadata.step`) at that checkpoint. A segment of
    /// an input has an input checkpoint before it, at `base - 1` (-1 for a thread's first).
    pub base: i64,
    /// The checkpoint it started from.
    pub parent: Option<Checkpoint>,
    pub source: Source,
    pub created_at: String,
}

impl Segment {
    /// The thread's step of this segment's step `step`.
    pub fn thread_step(&self, step: u64) -> i64 {
        self.base + i64::try_from(step.saturating_sub(self.first)).unwrap_or(i64::MAX)
    }
}

/// A step of a `GraphRun`: a checkpoint; or (`input`) the one LangGraph writes before a
/// run's input is applied, holding the values the run starts from.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Checkpoint {
    pub graph_run: String,
    pub step: u64,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub input: bool,
}

impl Checkpoint {
    pub fn at(graph_run: &str, step: u64) -> Checkpoint {
        Checkpoint { graph_run: graph_run.to_string(), step, input: false }
    }

    pub fn id(&self) -> String {
        if self.input {
            return format!("{}:in", self.graph_run);
        }
        format!("{}:{}", self.graph_run, self.step)
    }

    /// A checkpoint id as [`Checkpoint::id`] writes it.
    pub fn parse(id: &str) -> Result<Checkpoint, Failure> {
        let bad = || Failure::invalid(format!("checkpoint_id: `{id}` is not a checkpoint of this server"));
        let (run, step) = id.rsplit_once(':').ok_or_else(bad)?;
        if run.is_empty() {
            return Err(bad());
        }
        if step == "in" {
            return Ok(Checkpoint { graph_run: run.to_string(), step: 0, input: true });
        }
        let step = step.parse().map_err(|_| bad())?;
        Ok(Checkpoint::at(run, step))
    }
}

impl ThreadDoc {
    pub fn new(thread_id: String, metadata: Map<String, Value>, now: String) -> ThreadDoc {
        ThreadDoc {
            thread_id,
            created_at: now.clone(),
            updated_at: now,
            metadata,
            runs: Vec::new(),
            segments: Vec::new(),
            queued: Vec::new(),
        }
    }

    /// The segment of `graph_run`.
    pub fn segment(&self, graph_run: &str) -> Option<&Segment> {
        self.segments.iter().find(|s| s.graph_run == graph_run)
    }

    pub fn run(&self, run_id: &str) -> Option<&ThreadRun> {
        self.runs.iter().find(|r| r.run_id == run_id)
    }

    /// The run `run_id` if it waits in the queue.
    pub fn queued_run(&self, run_id: &str) -> Option<&ThreadRun> {
        self.queued.iter().map(|q| &q.run).find(|r| r.run_id == run_id)
    }
}

/// What a client asks a run to do (kept as it is while the run waits in a thread's queue).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RunStart {
    /// The new run's id (default: a fresh UUID v7).
    pub run_id: Option<String>,
    pub assistant_id: String,
    /// The assistant's graph document.
    pub graph: Value,
    pub input: Option<Value>,
    /// `command.resume`.
    pub resume: Option<Value>,
    /// Answers by waiting node, when the caller has matched `resume` to the waits itself
    /// (taken instead of `resume`).
    pub answers: Option<Map<String, Value>>,
    pub checkpoint_id: Option<String>,
    pub interrupt_before: Vec<String>,
    pub interrupt_after: Vec<String>,
    /// At most this many steps in a new `GraphRun` (a run going on keeps its own limit).
    pub max_steps: Option<u64>,
    pub metadata: Map<String, Value>,
    /// The request as given, kept as the run's `kwargs`.
    pub kwargs: Value,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkpoint_ids_read_back() {
        let c = Checkpoint::at("0193-ab:cd", 12);
        assert_eq!(Checkpoint::parse(&c.id()), Ok(c));
        let i = Checkpoint { graph_run: "0193".into(), step: 0, input: true };
        assert_eq!(Checkpoint::parse(&i.id()), Ok(i));
        assert_eq!(Checkpoint::parse("nothing").map_err(|e| e.status), Err(422));
        assert_eq!(Checkpoint::parse(":3").map_err(|e| e.status), Err(422));
    }
}
