//! The Tests panel's state (README, Tests and evaluations): the open graph's suite and what the last passes
//! made of its cases, a dataset's rows, the pass under way (its progress, whether Stop was
//! pressed), and the worker that runs cases, apart from the live run's. A context of its own
//! ([`use_tests`]).

use std::collections::BTreeMap;

use engine::suite::Suite;
use leptos::prelude::*;
use serde_json::Value;

use crate::model::runs::suite_panel::Outcome;
use crate::model::storage::doc_id::DocId;
use crate::runner::RunEngine;

/// A pass under way: what it does, and how far it got.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Progress {
    /// What the progress bar is named (`Running tests`, `Checking against saved runs`,
    /// `Running the dataset`).
    pub what: &'static str,
    pub done: usize,
    pub total: usize,
}

#[derive(Clone, Copy)]
pub struct TestsState {
    /// Whether the Tests panel is open.
    pub open: RwSignal<bool>,
    /// The graph the suite below is of (none until it is read).
    pub graph: RwSignal<Option<DocId>>,
    pub suite: RwSignal<Option<Suite>>,
    /// Stored cases that did not read, kept as written.
    pub unreadable: RwSignal<Vec<Value>>,
    /// Why the stored suite could not be read at all (nothing saves over it then).
    pub damaged: RwSignal<Option<String>>,
    /// Whether the suite in memory could not be saved (the last save failed).
    pub unsaved: RwSignal<bool>,
    /// Each case's outcome in the last pass that ran it, by name.
    pub outcomes: RwSignal<BTreeMap<String, Outcome>>,
    /// The rows of the dataset last run, in order.
    pub dataset: RwSignal<Vec<Outcome>>,
    /// Evaluators the page cannot run, each said by name.
    pub notes: RwSignal<Vec<String>>,
    pub progress: RwSignal<Option<Progress>>,
    /// Whether Stop was pressed during the pass under way.
    pub stopping: StoredValue<bool>,
    /// Whether a dataset runs live (the providers called with the editor's model settings).
    pub live: RwSignal<bool>,
    /// The name being typed for a test made from the run shown (none: not asked).
    pub naming: RwSignal<Option<String>>,
    /// Where cases run: a worker of their own, so a pass never holds the live run.
    pub engine: StoredValue<RunEngine, LocalStorage>,
    /// A suite a new graph starts with (a gallery template's), used when that graph's
    /// storage holds none yet: stored by the first read rather than raced against it.
    pub seed: StoredValue<Option<(DocId, String)>>,
}

impl Default for TestsState {
    fn default() -> TestsState {
        TestsState::new()
    }
}

impl TestsState {
    pub fn new() -> TestsState {
        TestsState {
            open: RwSignal::new(false),
            graph: RwSignal::new(None),
            suite: RwSignal::new(None),
            unreadable: RwSignal::new(Vec::new()),
            damaged: RwSignal::new(None),
            unsaved: RwSignal::new(false),
            outcomes: RwSignal::new(BTreeMap::new()),
            dataset: RwSignal::new(Vec::new()),
            notes: RwSignal::new(Vec::new()),
            progress: RwSignal::new(None),
            stopping: StoredValue::new(false),
            live: RwSignal::new(false),
            naming: RwSignal::new(None),
            engine: StoredValue::new_local(RunEngine::new()),
            seed: StoredValue::new(None),
        }
    }

    /// Whether a pass is under way.
    pub fn busy(&self) -> bool {
        self.progress.with(Option::is_some)
    }
}

pub fn use_tests() -> TestsState {
    expect_context::<TestsState>()
}
