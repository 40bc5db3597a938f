//! The executor: supersteps, routing, joins, interrupts, breakpoints, checkpoints, resume and
//! fork (format.md §10).
//!
//! A [`Run`] advances one superstep per call to [`Run::step`]; [`Run::run`] steps until the
//! run stops. Every step is kept as a [`StepRecord`] holding the state after it (a cheap,
//! structurally shared snapshot), which is the checkpoint forks start from.
//!
//! | module | what it holds |
//! |---|---|
//! | `types` | [`Breakpoints`], [`StepRecord`] (the record's own types are [`crate::record`]'s) |
//! | `task` | [`Task`]: a node or one map instance `<node>[<index>]`; [`MapItem`] and [`Fanout`]: the items of the instances due to run |
//! | `start` | [`Run::start`]: defaults, input, the first active set; [`Run::start_from`]: an earlier run's state instead of the defaults |
//! | `step` | [`Run::step`]: one superstep, from the active set to the next |
//! | `exec` | running one node: `set`, `script`, `router`, `human`, pinned and disabled nodes |
//! | `subgraph` | a `subgraph` node: an embedded run (its `graph` or a definition it `use`s) driven to its end |
//! | `definition` | a tool that `use`s a definition: a run of it per call, its final state the result |
//! | `step_json` | a step written as the record's JSON straight from the run (what the CLI prints), no `StepDoc` built |
//! | `route` | edges followed after a step (once per node, after all its instances), joins, the next active set |
//! | `map` | map edges at run time: the items their lists give, `max_fanout`, the scope each instance sees, its mock turn |
//! | `breakpoint` | stops before or after chosen nodes ([`Run::set_breakpoints`]), and passing them |
//! | `ended` | an `end` node with `outcome: failed` ending the run (format.md §4, end) |
//! | `interrupt` | human nodes: what waits, rendered prompts, [`Run::answer`] |
//! | `form` | human forms (format.md §4, human): the form a node waits with, defaults evaluated; an answer checked field by field |
//! | `fork` | checkpoints: [`Run::fork`], [`Run::resume`], rewinding and replaying steps |
//! | `record` | a run as a [`RunRecord`], and a run rebuilt from one |
//! | `replay` | [`Run::replay`]: a run answered from recorded replies; what it could not replay |
//! | `session` | the run's sessions (its start and each time it goes on after stopping), each exported as one trace |
//! | `spans` | the live run's spans, step by step, and its session's root span ([`crate::trace`]) |
//! | `snapshots` | which steps' states the record writes (the rule kept step by step) |
//! | `scope` | what expressions see: `state`, `input`, `outputs`, `errors`, `step` |
//! | `outcome` | what one node did, before the step applies it |
//! | `nodeset` | the active set |
//!
//! Nodes that reach outside the engine (`llm`, `http`, `tools`) run in the crate's `effects` module,
//! which gets what it needs through an `EffectCall` rather than from the run.

mod breakpoint;
mod definition;
mod ended;
mod exec;
mod fork;
mod form;
mod interrupt;
mod map;
mod nodeset;
mod outcome;
mod record;
mod replay;
mod route;
mod scope;
mod session;
mod snapshots;
mod spans;
mod start;
mod step;
mod step_json;
mod subgraph;
pub(crate) mod task;
pub(crate) mod types;

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use json_patch::PatchOperation;
use serde_json::{Map, Value};
use thin_vec::ThinVec;

use self::nodeset::NodeSet;
use self::scope::Live;
pub use self::scope::OUTPUT_HISTORY;
pub use self::start::StartFrom;
pub use self::task::{Fanout, Task};
pub use self::types::{Breakpoints, StepRecord};
use crate::effects::{McpSessions, Tape};
use crate::plan::Plan;
// The record's types, re-exported here too: a run is read through them.
pub use crate::record::{
    Breakpoint, ErrorKind, ForkInfo, GivenAnswer, InputError, MapItem, NodeError, RecordedReply, ReplayMode,
    ReplayProblem, ReplyKind, RunError, RunRecord, Status, Waiting, WaitingField, split_name,
};
use crate::script::Ctx;
use crate::state::State;

/// A run of a plan.
pub struct Run {
    plan: Rc<Plan>,
    run_id: String,
    input: Rc<Map<String, Value>>,
    status: Status,
    initial: State,
    initial_next: Vec<usize>,
    initial_fanout: Fanout,
    initial_taken: Vec<usize>,
    state: State,
    /// What scripts see, and the scope they see it through (built once per run).
    live: Rc<Live>,
    ctx: Ctx,
    /// How many times each node has run (a mock model answers by turn).
    run_counts: Vec<u64>,
    /// The nodes that run next as themselves.
    next: NodeSet,
    /// The map instances that run next, with their items.
    fanout: Fanout,
    pending_joins: BTreeSet<usize>,
    /// For each `join: all` node, the predecessors that ran since its own last run.
    join_seen: Vec<BTreeSet<usize>>,
    answers: BTreeMap<usize, Value>,
    /// Where the run stops for a person to look (not part of the record).
    breakpoints: Breakpoints,
    /// The run stopped before the step now due at a `before` breakpoint: that step runs next
    /// time instead of stopping again.
    break_passed: bool,
    /// Subgraph nodes whose embedded run waits for an answer, with that run's record.
    /// A cell because nodes run concurrently against a shared run, and a subgraph takes
    /// its record out when it resumes.
    suspended: RefCell<BTreeMap<usize, RunRecord>>,
    waiting: Vec<Waiting>,
    error: Option<RunError>,
    steps: Vec<StepRecord>,
    /// Which steps the record gives a snapshot of their state.
    snapshots: snapshots::Snapshots,
    /// Time spent in steps so far, against `run_timeout_ms`.
    active_ms: f64,
    /// About how many bytes the steps take in the record, against `max_record_bytes`.
    record_bytes: u64,
    forked_from: Option<ForkInfo>,
    /// Changes made between checkpoints (a fork's `set`), reported in the next step's patch.
    pending_patch: Vec<PatchOperation>,
    /// For a subgraph's run: when the node it runs in must be done (on the host's clock) and
    /// that node's limit. Its scripts and requests stop there too, not only its waits.
    enclosing: Option<(f64, u64)>,
    /// MCP sessions (format.md §2.11): the top-level run's, shared by the runs inside it.
    mcp: Rc<McpSessions>,
    /// Whether this run opened `mcp` and so closes it when it stops (a run inside another
    /// leaves that to the outer one).
    owns_mcp: bool,
    /// The step of the chain of runs this one continues at which it starts (0 for a run of
    /// its own; [`Run::start_from`]): message ids name steps counted across the chain.
    chain_step: u64,
    /// The reply tape: the top-level run's, shared by the runs inside it.
    tape: Rc<Tape>,
    /// What this run's calls are named on the tape before their task's name (`<outer>/` for
    /// a run inside a subgraph node or a definition tool; empty at the top).
    tape_prefix: String,
    /// Whether this run's record holds the tape (a run inside another leaves that to the
    /// outer one).
    owns_tape: bool,
    /// The answers given, in order.
    given: Vec<crate::record::GivenAnswer>,
    /// The run's sessions, each a trace (empty for a run inside another).
    sessions: session::Sessions,
}

impl Run {
    /// A run of `plan` that has done nothing yet, in state `initial`, with nothing active.
    fn blank(plan: Rc<Plan>, run_id: String, input: Rc<Map<String, Value>>, initial: State) -> Run {
        let n = plan.nodes.len();
        let (live, ctx) = Live::new(&plan, &input);
        let mcp = Rc::new(McpSessions::new(plan.clone(), input.clone()));
        Run {
            plan,
            run_id,
            input,
            status: Status::Running,
            state: initial.clone(),
            initial,
            initial_next: Vec::new(),
            initial_fanout: Fanout::default(),
            initial_taken: Vec::new(),
            live,
            ctx,
            run_counts: vec![0; n],
            next: NodeSet::default(),
            fanout: Fanout::default(),
            pending_joins: BTreeSet::new(),
            join_seen: vec![BTreeSet::new(); n],
            answers: BTreeMap::new(),
            breakpoints: Breakpoints::default(),
            break_passed: false,
            suspended: RefCell::new(BTreeMap::new()),
            waiting: Vec::new(),
            error: None,
            steps: Vec::new(),
            snapshots: snapshots::Snapshots::default(),
            active_ms: 0.0,
            record_bytes: 0,
            forked_from: None,
            pending_patch: Vec::new(),
            enclosing: None,
            mcp,
            owns_mcp: true,
            chain_step: 0,
            tape: Rc::new(Tape::new()),
            tape_prefix: String::new(),
            owns_tape: true,
            given: Vec::new(),
            sessions: session::Sessions::default(),
        }
    }

    /// The plan this run executes.
    pub fn plan(&self) -> &Rc<Plan> {
        &self.plan
    }

    /// The id the host gave the run.
    pub fn run_id(&self) -> &str {
        &self.run_id
    }

    pub fn status(&self) -> Status {
        self.status
    }

    /// Why the run stopped short, if it did.
    pub fn error(&self) -> Option<&RunError> {
        self.error.as_ref()
    }

    /// What the run waits for: human nodes with their rendered prompts (and forms), then the
    /// breakpoints it stopped at.
    pub fn waiting(&self) -> &[Waiting] {
        &self.waiting
    }

    /// Every step taken so far, oldest first.
    pub fn steps(&self) -> &[StepRecord] {
        &self.steps
    }

    /// The number of steps taken.
    pub fn step_count(&self) -> u64 {
        self.steps.len() as u64
    }

    /// The current state as JSON.
    pub fn state_json(&self) -> Map<String, Value> {
        self.state.to_json()
    }

    /// The state at checkpoint `step` (0: before step 1).
    pub fn state_at(&self, step: u64) -> Option<&State> {
        if step == 0 { Some(&self.initial) } else { self.steps.get(usize::try_from(step - 1).ok()?).map(|s| &s.state) }
    }

    /// Names of what runs next: node ids, and `<node>[<index>]` for map instances.
    pub fn next_ids(&self) -> Vec<String> {
        self.next_tasks().into_iter().map(|t| t.name(&self.plan)).collect()
    }

    /// What runs next, in step order (format.md §10): the active nodes by id, then the map
    /// instances in the order their edges were taken.
    fn next_tasks(&self) -> ThinVec<Task> {
        self.next.iter().copied().map(Task::plain).chain(self.fanout.tasks()).collect()
    }

    /// This run as one inside the run whose MCP sessions are `mcp`: it uses them, and leaves
    /// closing them to that run.
    pub(crate) fn share_mcp(&mut self, mcp: &Rc<McpSessions>) {
        self.mcp = mcp.clone();
        self.owns_mcp = false;
    }

    /// Ends the run's MCP sessions now, for a run given up between steps (a cancelled call,
    /// a host going away); the run closes them itself whenever it stops. A run that goes on
    /// later opens new ones.
    pub async fn close_mcp(&self, host: &dyn crate::host::Host) {
        if self.owns_mcp {
            self.mcp.close(host).await;
        }
    }

    /// Whether nothing is due to run next.
    fn nothing_next(&self) -> bool {
        self.next.is_empty() && self.fanout.is_empty()
    }
}
