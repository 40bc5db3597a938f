//! The document: the open graph and its undo log in one [`Editor`] (the pure model), which
//! graph of the library it is, when it was last saved, and memos derived from it.

use std::collections::HashMap;
use std::sync::Arc;

use engine::{Diagnostic, Graph, GraphHash};
use leptos::prelude::*;

use crate::model::editing::editor::{Editor, ScopeStep};
use crate::model::editing::geometry::{Rect, node_rect};
use crate::model::editing::layout::Direction;
use crate::model::editing::selection::Selection;
use crate::model::storage::doc_id::DocId;
use crate::model::storage::library::Library;

/// What the person was about to do when the open graph could not be saved: it waits for
/// them to export it (or save it elsewhere), discard it, or cancel.
#[derive(Debug, Clone, PartialEq)]
pub enum Leave {
    /// Open `graph`, stored under `id` (a library graph or a file), saying `note` once open.
    Load { id: DocId, graph: Box<Graph>, note: Option<String> },
    /// A new graph: a copy of this one, or a start and an end.
    Create(Option<Box<Graph>>),
    /// Import this text, from `origin` ("the pasted text", "“a.json”").
    Import { text: String, origin: String },
}

/// A node's validation findings: errors, warnings, and their messages.
pub type NodeProblems = (usize, usize, String);

#[derive(Clone, Copy)]
pub struct DocState {
    pub editor: RwSignal<Editor>,
    pub library: RwSignal<Library>,
    /// Which document is open.
    pub current: RwSignal<DocId>,
    /// The editor revision last saved (the window title marks anything newer as unsaved).
    pub saved_revision: RwSignal<u64>,
    /// The last save of the open graph failed (storage full or refused): its work is only in
    /// this tab, so leaving it asks first and closing the tab warns.
    pub storage_failed: RwSignal<bool>,
    /// What waits for the person's answer about unsaved work, if anything.
    pub leaving: RwSignal<Option<Leave>>,
    /// Node ids in document order.
    pub node_ids: Memo<Vec<String>>,
    /// Node id → its index in the document.
    pub node_index: Memo<Arc<HashMap<String, usize>>>,
    /// Node id → (errors, warnings, their messages).
    pub node_problems: Memo<Arc<HashMap<String, NodeProblems>>>,
    /// Every node's box as stored (without a drag in progress).
    pub rects: Memo<Arc<HashMap<String, Rect>>>,
    pub diagnostics: Memo<Arc<Vec<Diagnostic>>>,
    /// Which way the graph flows, read off its edges: handles and edges follow it.
    pub flow: Memo<Direction>,
    /// The selection, apart from the rest of the editor.
    pub selection: Memo<Arc<Selection>>,
    /// Edge index → its validation messages.
    pub edge_problems: Memo<Arc<HashMap<usize, String>>>,
    /// The subgraph path of the graph on the canvas (empty: the document itself).
    pub scope: Memo<Vec<ScopeStep>>,
    /// The whole document's hash and its parts' (layout left out), for telling a run of an
    /// earlier version apart. Computed only while something reads it.
    pub hash: Memo<Arc<GraphHash>>,
}

impl DocState {
    pub fn new(editor: Editor, current: DocId, library: Library) -> DocState {
        let editor = RwSignal::new(editor);
        let node_ids = Memo::new(move |_| editor.with(|e| e.graph().nodes.iter().map(|n| n.id.clone()).collect()));
        let rects = Memo::new(move |_| {
            editor.with(|e| {
                let g = e.graph();
                Arc::new(
                    g.nodes.iter().enumerate().map(|(i, n)| (n.id.clone(), node_rect(g, i))).collect::<HashMap<_, _>>(),
                )
            })
        });
        let diagnostics = Memo::new(move |_| Arc::new(editor.with(Editor::diagnostics)));
        let node_index = Memo::new(move |_| {
            editor.with(|e| {
                Arc::new(e.graph().nodes.iter().enumerate().map(|(i, n)| (n.id.clone(), i)).collect::<HashMap<_, _>>())
            })
        });
        let node_problems = Memo::new(move |_| {
            diagnostics.with(|d| {
                let mut m: HashMap<String, NodeProblems> = HashMap::new();
                for x in d.iter() {
                    let Some(node) = &x.node else { continue };
                    let e = m.entry(node.clone()).or_default();
                    if x.is_error() {
                        e.0 += 1;
                    } else {
                        e.1 += 1;
                    }
                    if !e.2.is_empty() {
                        e.2.push('\n');
                    }
                    e.2.push_str(&x.message);
                }
                Arc::new(m)
            })
        });
        let flow = Memo::new(move |_| editor.with(|e| crate::model::editing::layout::flow_direction(e.graph())));
        // Nodes and edges read these rather than the editor itself, so an edit reruns only
        // the ones whose selection or problems changed.
        let selection = Memo::new(move |_| editor.with(|e| Arc::new(e.selection.clone())));
        let edge_problems = Memo::new(move |_| {
            diagnostics.with(|d| {
                let mut m: HashMap<usize, String> = HashMap::new();
                for x in d.iter() {
                    if let Some(i) = x.edge {
                        let text = m.entry(i).or_default();
                        if !text.is_empty() {
                            text.push('\n');
                        }
                        text.push_str(&x.message);
                    }
                }
                Arc::new(m)
            })
        });
        // One memo that every node and edge reads (through the run's `in_step`), rather than
        // each of them reading the editor: a signal's subscribers are dropped one by one in
        // time that grows with their number.
        let scope = Memo::new(move |_| editor.with(|e| e.scope().to_vec()));
        let hash = Memo::new(move |_| editor.with(|e| Arc::new(GraphHash::of(e.document()))));
        DocState {
            editor,
            library: RwSignal::new(library),
            current: RwSignal::new(current),
            saved_revision: RwSignal::new(0),
            storage_failed: RwSignal::new(false),
            leaving: RwSignal::new(None),
            node_ids,
            node_index,
            node_problems,
            rects,
            diagnostics,
            flow,
            selection,
            edge_problems,
            scope,
            hash,
        }
    }

    pub fn edit<R>(&self, f: impl FnOnce(&mut Editor) -> R) -> R {
        self.editor.try_update(f).expect("the editor signal lives as long as the app")
    }
}

pub fn use_doc() -> DocState {
    expect_context::<DocState>()
}
