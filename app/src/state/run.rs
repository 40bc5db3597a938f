//! The run on display: the live engine run behind it, the playback controls' settings, the
//! run history, the runs around a subgraph's run being shown, whether the run shown is of the
//! graph on the canvas, and whether it was made with an earlier version of the document. A
//! context of its own ([`use_run`]).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use engine::GraphHash;
use engine::run::Status;
use leptos::prelude::*;

use super::marks::{Marks, NodeMark};
use crate::model::editing::editor::ScopeStep;
use crate::model::runs::breakpoints::{BreakpointSet, at_breakpoint};
use crate::model::runs::origins::Contact;
use crate::model::runs::playback::{NodeStatus, Playback};
use crate::model::runs::run_service::LiveHead;
use crate::model::runs::run_version::{RunVersion, run_version};
use crate::model::storage::saved_run::RunSummary;
use crate::runner::RunEngine;

/// Speeds offered for live playback: pause between steps, in milliseconds.
pub const SPEEDS: [(u32, &str); 4] = [(0, "Instant"), (120, "Fast"), (450, "Normal"), (1200, "Slow")];

#[derive(Clone, Copy)]
pub struct RunCtl {
    /// The run on display (a live run, a saved one, or a subgraph's nested run).
    pub view: RwSignal<Option<Playback>>,
    /// Where the engine run behind the view is held (a Web Worker).
    pub engine: StoredValue<RunEngine, LocalStorage>,
    /// The engine run behind the view, when it can go on: how it stands after the last reply.
    pub live: StoredValue<Option<Live>, LocalStorage>,
    /// Counts runs put on display (started, opened, forked, reset): a reply that comes back
    /// after another run was put up is for a run no longer shown, and is dropped.
    pub epoch: StoredValue<u64>,
    pub playing: RwSignal<bool>,
    pub busy: RwSignal<bool>,
    pub speed_ms: RwSignal<u32>,
    pub input: RwSignal<String>,
    pub history: RwSignal<Vec<RunSummary>>,
    /// While a subgraph's run is shown: each enclosing run's view, with the id of the
    /// subgraph node whose run was opened from it (outermost first).
    pub parents: RwSignal<Vec<(String, Playback)>>,
    /// Every node's status at the shown step.
    pub statuses: Memo<Arc<BTreeMap<String, NodeStatus>>>,
    /// Edges followed after the shown step.
    pub taken: Memo<Arc<BTreeSet<usize>>>,
    /// The nodes of the step running now (while the newest step is shown).
    pub running: Memo<Arc<BTreeSet<String>>>,
    /// Whether the run on display is of the graph on the canvas (the same subgraphs in).
    pub in_step: Memo<bool>,
    /// A run waiting for the person's answer: the origins it would reach that they have not
    /// used before, and the MCP servers' command lines it would start that they have not
    /// allowed.
    pub new_origins: RwSignal<Option<Vec<Contact>>>,
    /// While a step runs live: the reply each streaming model node (or mapped instance) has
    /// written so far; emptied when the step lands.
    pub streaming: RwSignal<BTreeMap<String, String>>,
    /// How many instances of each mapped node the shown step ran.
    pub instances: Memo<Arc<BTreeMap<String, usize>>>,
    /// The open graph's breakpoints (kept per graph with the editor's preferences).
    pub breakpoints: RwSignal<BreakpointSet>,
    /// Whether the run on display (the outermost one, when a subgraph's run is shown) was
    /// made with an earlier version of the document: then it is only looked at, not run on.
    pub version: Memo<RunVersion>,
    /// Why the last "Fork anyway" of a run (by run id) was refused.
    pub fork_refused: RwSignal<Option<(String, String)>>,
    /// Each node's and edge's mark on the canvas, one signal each.
    pub marks: Marks,
}

/// The engine run behind the view.
#[derive(Debug, Clone, PartialEq)]
pub struct Live {
    pub head: LiveHead,
    /// Whether the engine holds it: false after a step was stopped half way (the worker that
    /// held it was ended), until it is loaded again from the steps on display.
    pub held: bool,
}

impl RunCtl {
    /// The run controls for a canvas showing the subgraph path `scope` (for [`RunCtl::in_step`]).
    pub fn new(scope: Memo<Vec<ScopeStep>>, document_hash: Memo<Arc<GraphHash>>) -> RunCtl {
        let view: RwSignal<Option<Playback>> = RwSignal::new(None);
        let statuses =
            Memo::new(move |_| Arc::new(view.with(|v| v.as_ref().map(Playback::statuses).unwrap_or_default())));
        let taken = Memo::new(move |_| Arc::new(view.with(|v| v.as_ref().map(Playback::taken).unwrap_or_default())));
        let instances =
            Memo::new(move |_| Arc::new(view.with(|v| v.as_ref().map(Playback::instance_counts).unwrap_or_default())));
        let parents: RwSignal<Vec<(String, Playback)>> = RwSignal::new(Vec::new());
        let in_step = Memo::new(move |_| scope.with(|s| parents.with(|p| crate::model::runs::run_view::in_step(p, s))));
        let version = version_memo(view, parents, document_hash);
        let busy = RwSignal::new(false);
        let running = Memo::new(move |_| {
            let ids = busy.get().then(|| view.with(|v| v.as_ref().filter(|v| v.at_end()).map(running_nodes)));
            Arc::new(ids.flatten().unwrap_or_default())
        });
        let ctl = RunCtl {
            view,
            statuses,
            taken,
            in_step,
            parents,
            engine: StoredValue::new_local(RunEngine::new()),
            live: StoredValue::new_local(None),
            epoch: StoredValue::new(0),
            playing: RwSignal::new(false),
            busy,
            running,
            speed_ms: RwSignal::new(SPEEDS[2].0),
            input: RwSignal::new("{}".into()),
            history: RwSignal::new(Vec::new()),
            new_origins: RwSignal::new(None),
            streaming: RwSignal::new(BTreeMap::new()),
            instances,
            breakpoints: RwSignal::new(BreakpointSet::default()),
            version,
            fork_refused: RwSignal::new(None),
            marks: Marks::new(),
        };
        ctl.marks.follow(
            move || {
                ctl.in_step.track();
                ctl.statuses.track();
                ctl.running.track();
                ctl.instances.track();
                ctl.taken.track();
            },
            move |id| ctl.node_mark(id),
            move |index| ctl.edge_taken(index),
        );
        ctl
    }

    /// Whether stepping forward can produce a new step: the run goes on, or it stopped at a
    /// breakpoint, which the next step passes; and it was made with the graph as it is now
    /// (a run of an earlier version is forked instead).
    pub fn can_advance(&self) -> bool {
        !self.version.with_untracked(RunVersion::is_earlier)
            && self.live.with_value(|r| {
                r.as_ref().is_some_and(|r| {
                    let head = &r.head;
                    head.status == Status::Running
                        || (head.status == Status::Interrupted && at_breakpoint(&head.waiting))
                })
            })
    }

    /// A node's status at the shown step (`data-status`): idle unless the run on display is
    /// of the graph on the canvas; active while the step it is in runs now.
    pub fn node_status(&self, id: &str) -> &'static str {
        if !self.in_step.get() {
            return NodeStatus::Idle.name();
        }
        if self.node_running(id) {
            return NodeStatus::Active.name();
        }
        self.statuses.with(|m| m.get(id).copied().unwrap_or(NodeStatus::Idle).name())
    }

    /// Whether node `id` is in the step running now (`data-running`).
    pub fn node_running(&self, id: &str) -> bool {
        self.in_step.get() && self.running.with(|r| r.contains(id))
    }

    /// How many instances of mapped node `id` the shown step ran (0 for a node that was not
    /// mapped, or when the run on display is of another graph).
    pub fn node_instances(&self, id: &str) -> usize {
        if !self.in_step.get() {
            return 0;
        }
        self.instances.with(|m| m.get(id).copied().unwrap_or(0))
    }

    /// Node `id`'s mark on the canvas, one signal of its own (see [`Marks`]).
    pub fn node_mark_signal(&self, id: &str) -> ArcRwSignal<NodeMark> {
        let ctl = *self;
        self.marks.node(id, || ctl.node_mark(id))
    }

    /// Whether edge `index` is marked taken, one signal of its own (see [`Marks`]).
    pub fn edge_mark_signal(&self, index: usize) -> ArcRwSignal<bool> {
        let ctl = *self;
        self.marks.edge(index, || ctl.edge_taken(index))
    }

    fn node_mark(&self, id: &str) -> NodeMark {
        NodeMark { status: self.node_status(id), running: self.node_running(id), instances: self.node_instances(id) }
    }

    /// Whether the shown step followed edge `index`.
    pub fn edge_taken(&self, index: usize) -> bool {
        // Edge indices mean something only for the graph the shown run ran.
        self.in_step.get() && self.taken.with(|t| t.contains(&index))
    }
}

/// The nodes the step after the last one of `v` runs (each map instance as its node).
fn running_nodes(v: &Playback) -> BTreeSet<String> {
    v.record.next.iter().map(|n| crate::model::runs::instances::node_of(n).to_string()).collect()
}

/// The outermost run on display, as which version of the document it belongs to. The record
/// is read again only when another run, another step count or another document version
/// comes up, not at every step scrubbed to.
fn version_memo(
    view: RwSignal<Option<Playback>>,
    parents: RwSignal<Vec<(String, Playback)>>,
    document_hash: Memo<Arc<GraphHash>>,
) -> Memo<RunVersion> {
    let outermost = move |f: &mut dyn FnMut(&Playback)| {
        parents.with(|p| match p.first() {
            Some((_, outer)) => f(outer),
            None => view.with(|v| {
                if let Some(v) = v {
                    f(v);
                }
            }),
        })
    };
    // (run id, its graph's hash, how many steps it holds)
    let shown = Memo::new(move |_| {
        let mut key = None;
        outermost(&mut |p| key = Some((p.record.run_id.clone(), p.record.graph_hash.clone(), p.len())));
        key
    });
    Memo::new(move |_| {
        let Some((_, Some(_), _)) = shown.get() else { return RunVersion::Current };
        let hash = document_hash.get();
        let mut version = RunVersion::Current;
        untrack(|| outermost(&mut |p| version = run_version(&p.record, &hash)));
        version
    })
}

pub fn use_run() -> RunCtl {
    expect_context::<RunCtl>()
}
