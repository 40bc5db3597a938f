//! What the API speaks of, independent of the wire and of storage: ids, threads, checkpoints,
//! runs and what a run asks for. Both backends (embedded, Restate) hand these out.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Declares a string id type: transparent on the wire, its own type in the code.
macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub String);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl $name {
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }
    };
}

id_type!(
    /// A thread: a chain of runs of one graph sharing state.
    ThreadId
);
id_type!(
    /// A run on a thread (LangGraph's `run_id`).
    RunId
);
id_type!(
    /// A checkpoint of a thread: opaque to clients, a (run, step) pair to the backend.
    CheckpointId
);
id_type!(
    /// An assistant: one loaded graph (uuid5 of its graph id, LangGraph's recipe).
    AssistantId
);

/// A thread's status as LangGraph names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ThreadStatus {
    Idle,
    Busy,
    Interrupted,
    Error,
}

impl ThreadStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            ThreadStatus::Idle => "idle",
            ThreadStatus::Busy => "busy",
            ThreadStatus::Interrupted => "interrupted",
            ThreadStatus::Error => "error",
        }
    }

    pub fn parse(text: &str) -> Option<ThreadStatus> {
        serde_json::from_value(Value::String(text.to_string())).ok()
    }
}

/// A run's status as LangGraph names it: a run stopped at an interrupt or a breakpoint is a
/// `success` (its thread is `interrupted`); `interrupted` means cancelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    Pending,
    Running,
    Success,
    Error,
    Timeout,
    Interrupted,
}

impl RunStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            RunStatus::Pending => "pending",
            RunStatus::Running => "running",
            RunStatus::Success => "success",
            RunStatus::Error => "error",
            RunStatus::Timeout => "timeout",
            RunStatus::Interrupted => "interrupted",
        }
    }

    pub fn parse(text: &str) -> Option<RunStatus> {
        serde_json::from_value(Value::String(text.to_string())).ok()
    }

    /// Whether the run has stopped for good.
    pub fn is_final(self) -> bool {
        !matches!(self, RunStatus::Pending | RunStatus::Running)
    }
}

/// What a human node's wait looks like to a client: an id stable per (run, node) and the
/// waiting entry (prompt, options or form) as its value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Interrupt {
    pub id: String,
    pub value: Value,
}

/// A thread as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct ThreadInfo {
    pub thread_id: ThreadId,
    pub created_at: String,
    pub updated_at: String,
    pub metadata: Map<String, Value>,
    pub status: ThreadStatus,
    /// The newest checkpoint's values; `None` before the first run.
    pub values: Option<Map<String, Value>>,
    /// The interrupts pending at the newest checkpoint, by the node that waits.
    pub interrupts: Vec<(String, Interrupt)>,
}

/// Where a checkpoint came from (LangGraph's `metadata.source`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// The input applied (step 0 of a run started with an input).
    Input,
    /// After a step.
    Loop,
    /// `update_state`: values set at an earlier checkpoint.
    Update,
}

/// One checkpoint of a thread (a `ThreadState` on the wire).
#[derive(Debug, Clone, PartialEq)]
pub struct Checkpoint {
    pub id: CheckpointId,
    pub thread_id: ThreadId,
    pub parent: Option<CheckpointId>,
    pub run_id: RunId,
    /// The step counted across the thread's runs (LangGraph's: -1 for the first run's input
    /// checkpoint).
    pub step: i64,
    pub source: Source,
    pub values: Map<String, Value>,
    /// What runs next: node ids or `<node>[<index>]`.
    pub next: Vec<String>,
    pub interrupts: Vec<(String, Interrupt)>,
    pub created_at: String,
    pub graph_id: String,
    pub assistant_id: AssistantId,
}

/// A run as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct RunInfo {
    pub run_id: RunId,
    pub thread_id: ThreadId,
    pub assistant_id: AssistantId,
    pub status: RunStatus,
    pub metadata: Map<String, Value>,
    /// The request's options as the client gave them (LangGraph's `kwargs`).
    pub kwargs: Map<String, Value>,
    pub multitask_strategy: MultitaskStrategy,
    pub created_at: String,
    pub updated_at: String,
}

/// What to do with a run asked for while the thread is busy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum MultitaskStrategy {
    /// Refuse it (409).
    #[default]
    Reject,
    /// Start it when the runs before it have ended.
    Enqueue,
    /// Cancel the running run, then start this one.
    Interrupt,
    /// Cancel the running run, then start this one (the cancelled run's checkpoints stay).
    Rollback,
}

impl MultitaskStrategy {
    pub fn as_str(self) -> &'static str {
        match self {
            MultitaskStrategy::Reject => "reject",
            MultitaskStrategy::Enqueue => "enqueue",
            MultitaskStrategy::Interrupt => "interrupt",
            MultitaskStrategy::Rollback => "rollback",
        }
    }
}

/// How a run ended, as `wait` and `join` report it.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub status: RunStatus,
    pub values: Map<String, Value>,
    pub interrupts: Vec<Interrupt>,
    /// `(kind, message)` for a run that failed.
    pub error: Option<(String, String)>,
}

/// Which checkpoint a run starts from and what it gives there.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunRequest {
    pub thread_id: ThreadId,
    pub assistant_id: AssistantId,
    /// The input applied through the reducers; `None` goes on from the checkpoint.
    pub input: Option<Value>,
    /// `Command(resume=…)`'s value.
    pub resume: Option<Value>,
    /// The checkpoint to start from; `None`: the thread's newest.
    pub checkpoint: Option<CheckpointId>,
    pub interrupt_before: Vec<String>,
    pub interrupt_after: Vec<String>,
    /// `config.recursion_limit`: at most this many steps.
    pub max_steps: Option<u64>,
    pub metadata: Map<String, Value>,
    pub kwargs: Map<String, Value>,
    pub multitask_strategy: MultitaskStrategy,
    /// Where to POST the run when it ends.
    pub webhook: Option<String>,
    /// A stateless run's thread, deleted when the run ends.
    #[serde(default)]
    pub temporary: bool,
}

/// `update_state`'s request.
#[derive(Debug, Clone, PartialEq)]
pub struct StateUpdate {
    pub values: Map<String, Value>,
    pub checkpoint: Option<CheckpointId>,
}

/// A search over threads: each given key must be equal.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ThreadQuery {
    pub metadata: Map<String, Value>,
    pub values: Map<String, Value>,
    pub status: Option<ThreadStatus>,
    pub ids: Option<Vec<ThreadId>>,
    pub limit: usize,
    pub offset: usize,
}
