//! The app's reactive state, provided as a context to every component. The document and its
//! undo log live in one [`Editor`] (the pure model); around it sit the view state (pan and
//! zoom, gestures in progress, dialogs, alerts) and memos derived from the document.
//!
//! | module | what it holds |
//! |---|---|
//! | (this file) | [`Store`]: the document, the view, alerts and dialogs, and memos derived from them |
//! | [`alerts`] | [`Alerts`]: the messages for the user, a context of their own |
//! | [`run`] | [`run::RunCtl`]: the run on display and the playback controls |

pub mod alerts;
pub mod run;

pub use alerts::{Alert, AlertKind, Alerts};

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use engine::Diagnostic;
use leptos::prelude::*;

use crate::model::doc_id::DocId;
use crate::model::editor::Editor;
use crate::model::geometry::{Point, Rect, View, node_rect};
use crate::model::layout::Direction;
use crate::model::library::Library;
use crate::model::playback::NodeStatus;
use crate::platform::PlatformRef;

/// Graphs with more nodes than this are drawn in less detail below [`FAR_ZOOM`].
pub const FAR_NODES: usize = 300;
/// The zoom below which a large graph's nodes are plain boxes (their text would be under 4 px).
pub const FAR_ZOOM: f64 = 0.35;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Theme {
    Light,
    Dark,
}

/// The dialog currently open, if any.
#[derive(Debug, Clone, PartialEq)]
pub enum Dialog {
    Import,
    Share(String),
    Search,
    Help,
    Settings,
    /// The open file was changed by another program: its new text.
    FileChanged(String),
}

/// An edge being drawn from an output handle (or an edge end being moved).
#[derive(Debug, Clone, PartialEq)]
pub struct Wire {
    pub from: String,
    /// Set when an existing edge is being reconnected.
    pub edge: Option<usize>,
    pub to_point: Point,
}

/// A node's validation findings: errors, warnings, and their messages.
pub type NodeProblems = (usize, usize, String);

#[derive(Clone, Copy)]
pub struct Store {
    pub editor: RwSignal<Editor>,
    pub view: RwSignal<View>,
    pub canvas_size: RwSignal<(f64, f64)>,
    /// Nodes being dragged (set once per drag) and how far (set on every move): only the
    /// dragged nodes and their edges follow the offset.
    pub drag_ids: RwSignal<Arc<BTreeSet<String>>>,
    pub drag_offset: RwSignal<(f64, f64)>,
    pub wire: RwSignal<Option<Wire>>,
    pub marquee: RwSignal<Option<Rect>>,
    /// Messages for the user (also provided on their own: see [`alerts::use_alerts`]).
    pub alerts: Alerts,
    pub dialog: RwSignal<Option<Dialog>>,
    pub theme: RwSignal<Theme>,
    pub library: RwSignal<Library>,
    /// Which document is open.
    pub current: RwSignal<DocId>,
    /// Where graphs and runs are stored, and how runs reach the network.
    pub platform: PlatformRef,
    /// The editor revision last saved (the window title marks anything newer as unsaved).
    pub saved_revision: RwSignal<u64>,
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
    /// The run shown on the canvas and in the run panel.
    pub run: run::RunCtl,
    /// Whether the run on display is of the graph on the canvas (the same subgraphs in).
    pub run_in_step: Memo<bool>,
    /// A large graph seen from far out: nodes are drawn as plain coloured boxes.
    pub far: Memo<bool>,
    /// The selection, apart from the rest of the editor.
    pub selection: Memo<Arc<crate::model::selection::Selection>>,
    /// Edge index → its validation messages.
    pub edge_problems: Memo<Arc<HashMap<usize, String>>>,
}

impl Store {
    pub fn new(editor: Editor, current: DocId, library: Library, platform: PlatformRef) -> Store {
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
        let diagnostics = Memo::new(move |_| Arc::new(editor.with(|e| engine::validate(e.graph()))));
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
        let flow = Memo::new(move |_| editor.with(|e| crate::model::layout::flow_direction(e.graph())));
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
        let run = run::RunCtl::new();
        let view = RwSignal::new(View::default());
        let far = Memo::new(move |_| node_ids.with(Vec::len) > FAR_NODES && view.with(|v| v.zoom) < FAR_ZOOM);
        // One memo that every node and edge reads, rather than each of them reading the editor:
        // a signal's subscribers are dropped one by one in time that grows with their number.
        let scope = Memo::new(move |_| editor.with(|e| e.scope().to_vec()));
        let run_in_step =
            Memo::new(move |_| scope.with(|s| run.parents.with(|p| crate::model::run_view::in_step(p, s))));
        Store {
            editor,
            view,
            far,
            selection,
            edge_problems,
            canvas_size: RwSignal::new((1000.0, 700.0)),
            drag_ids: RwSignal::new(Arc::new(BTreeSet::new())),
            drag_offset: RwSignal::new((0.0, 0.0)),
            wire: RwSignal::new(None),
            marquee: RwSignal::new(None),
            alerts: Alerts::new(),
            dialog: RwSignal::new(None),
            theme: RwSignal::new(Theme::Light),
            library: RwSignal::new(library),
            current: RwSignal::new(current),
            platform,
            saved_revision: RwSignal::new(0),
            node_ids,
            rects,
            diagnostics,
            node_index,
            node_problems,
            flow,
            run,
            run_in_step,
        }
    }

    pub fn edit<R>(&self, f: impl FnOnce(&mut Editor) -> R) -> R {
        self.editor.try_update(f).expect("the editor signal lives as long as the app")
    }

    /// Shows a message; info messages go away by themselves.
    pub fn alert(&self, kind: AlertKind, text: impl Into<String>) {
        self.alerts.alert(kind, text);
    }

    pub fn error(&self, text: impl Into<String>) {
        self.alert(AlertKind::Error, text);
    }

    pub fn info(&self, text: impl Into<String>) {
        self.alert(AlertKind::Info, text);
    }

    /// Where a node is drawn now, drag included.
    pub fn rect_of(&self, id: &str) -> Option<Rect> {
        let mut r = self.rects.with(|m| m.get(id).copied())?;
        if self.drag_ids.with(|ids| ids.contains(id)) {
            let (dx, dy) = self.drag_offset.get();
            r.x += dx;
            r.y += dy;
        }
        Some(r)
    }

    /// The canvas point at the centre of the visible area.
    pub fn view_center(&self) -> Point {
        let (w, h) = self.canvas_size.get_untracked();
        self.view.get_untracked().to_canvas(Point::new(w / 2.0, h / 2.0))
    }

    /// Pans so that `p` (canvas units) is in the middle of the screen.
    pub fn center_on(&self, p: Point) {
        let (w, h) = self.canvas_size.get_untracked();
        self.view.update(|v| {
            v.x = w / 2.0 - p.x * v.zoom;
            v.y = h / 2.0 - p.y * v.zoom;
        });
    }

    /// Zooms to show every node.
    pub fn fit_view(&self) {
        let (w, h) = self.canvas_size.get_untracked();
        if let Some(b) = self.editor.with_untracked(|e| crate::model::geometry::bounds(e.graph())) {
            self.view.set(View::fit(&b, w, h, 48.0));
        }
    }

    pub fn zoom_by(&self, factor: f64) {
        let (w, h) = self.canvas_size.get_untracked();
        self.view.update(|v| *v = v.zoom_at(factor, Point::new(w / 2.0, h / 2.0)));
    }
}

impl Store {
    /// A node's status at the shown step (`data-status`): idle unless the run on display is
    /// of the graph on the canvas.
    pub fn node_status(&self, id: &str) -> &'static str {
        if !self.run_in_step.get() {
            return NodeStatus::Idle.name();
        }
        self.run.statuses.with(|m| m.get(id).copied().unwrap_or(NodeStatus::Idle).name())
    }

    /// Whether the shown step followed edge `index`.
    pub fn edge_taken(&self, index: usize) -> bool {
        // Edge indices mean something only for the graph the shown run ran.
        self.run_in_step.get() && self.run.taken.with(|t| t.contains(&index))
    }
}

pub fn use_store() -> Store {
    expect_context::<Store>()
}
