//! The data a run keeps beside its record: the breakpoints it stops at, and the step record
//! that is also its checkpoint. Its status, what it waits for and where a fork came from are
//! the record's ([`crate::record`]).

use std::sync::Arc;

use json_patch::PatchOperation;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use thin_vec::ThinVec;

use crate::json_size::ByteCount;
use crate::record::NodeError;
use crate::run::task::{Fanout, Task};
use crate::state::State;
use crate::update::Update;

/// Nodes to stop at (cli.md, `--break-before` / `--break-after`): a setting of the run, kept
/// by the editor per graph and given by the CLI per command, never part of the document.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Breakpoints {
    /// Node ids: the run stops before the step that would run one of them.
    pub before: std::collections::BTreeSet<String>,
    /// Node ids: the run stops after the step that ran one of them.
    pub after: std::collections::BTreeSet<String>,
}

/// One superstep, kept whole: this is both the run record's step and the checkpoint.
/// Its lists are thin vectors (one word each, nothing allocated when empty): every step of a
/// long run stays in memory, and most of these lists are empty.
#[derive(Debug, Clone)]
pub struct StepRecord {
    pub step: u64,
    /// What ran, in step order (the nodes by id, then the instances as their edges were taken).
    pub ran: ThinVec<Task>,
    /// Disabled nodes passed through in this step.
    pub skipped: ThinVec<Task>,
    pub updates: ThinVec<(Task, Arc<Update>)>,
    pub errors: ThinVec<(Task, NodeError)>,
    pub patch: Vec<PatchOperation>,
    /// The state after the step.
    pub state: State,
    /// What runs next (waiting human nodes included).
    pub next: ThinVec<Task>,
    /// The items of the map instances in `next`.
    pub map: Fanout,
    /// Human nodes that were reached and wait for an answer.
    pub waiting: ThinVec<usize>,
    /// `join: all` nodes activated but still waiting for predecessors.
    pub pending_joins: ThinVec<usize>,
    /// Indices (in the document's `edges`) of the edges followed after this step.
    pub taken: ThinVec<usize>,
    /// What a node sent to the outside world, rendered (prompt, request), by task.
    pub details: ThinVec<(Task, Value)>,
    pub duration_ms: f64,
    /// When the step started, in milliseconds since the Unix epoch (with a wall clock).
    pub started_ms: Option<f64>,
    /// Each effect task's wall-clock start and end (with a wall clock).
    pub timings: ThinVec<(Task, [f64; 2])>,
    /// The step failed: nothing it did was applied, and `next` holds its own tasks so that
    /// continuing the run retries it.
    pub failed: bool,
}

impl StepRecord {
    /// About how many bytes the step holds in memory as part of the run's record: what it
    /// ran, wrote, sent and changed, serialized, doubled for the structures holding it, plus
    /// the step's own allocations (measured: a step of a one-field self-loop takes about 1 KB).
    /// The states are shared between steps, so they are not counted. `patch_bytes` is the
    /// patch's serialized size, which the caller has measured already.
    pub(crate) fn approx_bytes(&self, patch_bytes: u64) -> u64 {
        let mut n = ByteCount(patch_bytes);
        for (_, u) in &self.updates {
            let _ = serde_json::to_writer(&mut n, &**u);
        }
        for (_, d) in &self.details {
            let _ = serde_json::to_writer(&mut n, d);
        }
        for (_, e) in &self.errors {
            n.0 += e.message.len() as u64;
        }
        for (_, items) in self.map.iter() {
            let _ = serde_json::to_writer(&mut n, &**items);
        }
        let ids = self.ran.len() + self.skipped.len() + self.next.len() + self.waiting.len() + self.taken.len();
        2 * n.0 + 640 + 24 * ids as u64
    }

    /// An empty record of step `step`, taken on `state`, whose human nodes `waiting` wait.
    pub(crate) fn new(step: u64, state: State, waiting: &[usize]) -> StepRecord {
        StepRecord {
            step,
            ran: ThinVec::new(),
            skipped: ThinVec::new(),
            updates: ThinVec::new(),
            errors: ThinVec::new(),
            patch: Vec::new(),
            state,
            next: ThinVec::new(),
            map: Fanout::default(),
            waiting: waiting.iter().copied().collect(),
            pending_joins: ThinVec::new(),
            taken: ThinVec::new(),
            details: ThinVec::new(),
            duration_ms: 0.0,
            started_ms: None,
            timings: ThinVec::new(),
            failed: false,
        }
    }
}
