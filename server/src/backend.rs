//! The [`Backend`] the API layer calls: threads, runs, checkpoints and run feeds, in domain
//! types. The embedded backend ([`crate::embedded`]) keeps them in SQLite and runs graphs in
//! the process; a Restate backend keeps them in Restate. Object-safe: the API holds an
//! `Arc<dyn Backend>`.

use std::fmt;

use futures_util::future::BoxFuture;
use serde_json::{Map, Value};

use crate::domain::{
    Checkpoint, CheckpointId, Outcome, RunId, RunInfo, RunRequest, RunStatus, StateUpdate, ThreadId, ThreadInfo,
    ThreadQuery,
};
use crate::feed::Feed;

/// Why a backend refused or failed; each maps to the status LangGraph answers with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BackendError {
    /// No such thread, run or checkpoint (404).
    NotFound(String),
    /// The thread is busy, or the run is not in a state for this (409).
    Conflict(String),
    /// The request does not fit: an input the graph refuses, an answer that is not one (422).
    Invalid(String),
    /// Something on the server's side went wrong (500).
    Internal(String),
}

impl fmt::Display for BackendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BackendError::NotFound(m) | BackendError::Conflict(m) | BackendError::Invalid(m) => f.write_str(m),
            BackendError::Internal(m) => write!(f, "internal error: {m}"),
        }
    }
}

impl std::error::Error for BackendError {}

pub type Result<T> = std::result::Result<T, BackendError>;

/// What a thread copy, creation or metadata change asks for.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NewThread {
    pub thread_id: Option<ThreadId>,
    pub metadata: Map<String, Value>,
    /// An existing id is not an error: the thread is returned as it is.
    pub if_exists_do_nothing: bool,
}

/// Everything the API does with threads and runs.
pub trait Backend: Send + Sync {
    fn create_thread(&self, new: NewThread) -> BoxFuture<'_, Result<ThreadInfo>>;
    fn thread(&self, id: &ThreadId) -> BoxFuture<'_, Result<ThreadInfo>>;
    fn search_threads(&self, query: ThreadQuery) -> BoxFuture<'_, Result<(Vec<ThreadInfo>, usize)>>;
    fn update_thread_metadata(&self, id: &ThreadId, metadata: Map<String, Value>) -> BoxFuture<'_, Result<ThreadInfo>>;
    fn delete_thread(&self, id: &ThreadId) -> BoxFuture<'_, Result<()>>;
    /// A new thread with the same checkpoints and runs' results.
    fn copy_thread(&self, id: &ThreadId) -> BoxFuture<'_, Result<ThreadInfo>>;

    /// The checkpoint named, or the thread's newest; `None` when the thread has none yet.
    fn checkpoint(&self, thread: &ThreadId, id: Option<&CheckpointId>) -> BoxFuture<'_, Result<Option<Checkpoint>>>;
    /// The thread's checkpoints, newest first, those before `before` when it is given.
    fn history(
        &self,
        thread: &ThreadId,
        limit: usize,
        before: Option<&CheckpointId>,
    ) -> BoxFuture<'_, Result<Vec<Checkpoint>>>;
    /// Sets values at a checkpoint through the reducers, as a new checkpoint that becomes the head.
    fn update_state(&self, thread: &ThreadId, update: StateUpdate) -> BoxFuture<'_, Result<Checkpoint>>;

    /// Starts a run (or queues it behind the thread's running one); refuses what cannot start.
    fn start_run(&self, request: RunRequest) -> BoxFuture<'_, Result<RunInfo>>;
    fn run(&self, thread: &ThreadId, run: &RunId) -> BoxFuture<'_, Result<RunInfo>>;
    fn list_runs(
        &self,
        thread: &ThreadId,
        status: Option<RunStatus>,
        limit: usize,
        offset: usize,
    ) -> BoxFuture<'_, Result<Vec<RunInfo>>>;
    /// Waits for the run to end.
    fn outcome(&self, thread: &ThreadId, run: &RunId) -> BoxFuture<'_, Result<Outcome>>;
    /// The run's events so far and as they come.
    fn feed(&self, thread: &ThreadId, run: &RunId) -> BoxFuture<'_, Result<Feed>>;
    /// Stops a run that has not ended; it ends `interrupted`.
    fn cancel_run(&self, thread: &ThreadId, run: &RunId) -> BoxFuture<'_, Result<()>>;
    fn delete_run(&self, thread: &ThreadId, run: &RunId) -> BoxFuture<'_, Result<()>>;
}
