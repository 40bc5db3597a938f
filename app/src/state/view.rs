//! The view of the canvas: pan and zoom, the canvas's size, and the gestures in progress
//! (nodes dragged, an edge drawn, a marquee), with the helpers that move the view.

use std::collections::BTreeSet;
use std::sync::Arc;

use leptos::prelude::*;

use super::doc::DocState;
use crate::model::geometry::{Point, Rect, View, bounds, start_rect};

/// Graphs with more nodes than this are drawn in less detail below [`FAR_ZOOM`].
pub const FAR_NODES: usize = 300;
/// The zoom below which a large graph's nodes are plain boxes (their text would be under 4 px).
pub const FAR_ZOOM: f64 = 0.35;

/// An edge being drawn from an output handle (or an edge end being moved).
#[derive(Debug, Clone, PartialEq)]
pub struct Wire {
    pub from: String,
    /// Set when an existing edge is being reconnected.
    pub edge: Option<usize>,
    pub to_point: Point,
}

#[derive(Clone, Copy)]
pub struct ViewState {
    pub view: RwSignal<View>,
    pub canvas_size: RwSignal<(f64, f64)>,
    /// Nodes being dragged (set once per drag) and how far (set on every move): only the
    /// dragged nodes and their edges follow the offset.
    pub drag_ids: RwSignal<Arc<BTreeSet<String>>>,
    pub drag_offset: RwSignal<(f64, f64)>,
    pub wire: RwSignal<Option<Wire>>,
    pub marquee: RwSignal<Option<Rect>>,
    /// A large graph seen from far out: nodes are drawn as plain coloured boxes.
    pub far: Memo<bool>,
}

impl ViewState {
    /// The view of a document whose node ids are `node_ids` (for [`ViewState::far`]).
    pub fn new(node_ids: Memo<Vec<String>>) -> ViewState {
        let view = RwSignal::new(View::default());
        let far = Memo::new(move |_| node_ids.with(Vec::len) > FAR_NODES && view.with(|v| v.zoom) < FAR_ZOOM);
        ViewState {
            view,
            far,
            canvas_size: RwSignal::new((1000.0, 700.0)),
            drag_ids: RwSignal::new(Arc::new(BTreeSet::new())),
            drag_offset: RwSignal::new((0.0, 0.0)),
            wire: RwSignal::new(None),
            marquee: RwSignal::new(None),
        }
    }

    /// Where a node of `doc` is drawn now, drag included.
    pub fn rect_of(&self, doc: &DocState, id: &str) -> Option<Rect> {
        let mut r = doc.rects.with(|m| m.get(id).copied())?;
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

    /// Zooms to show every node of the graph on `doc`'s canvas, or as much of it around its
    /// start as stays readable (see [`View::fit`]).
    pub fn fit_view(&self, doc: &DocState) {
        let (w, h) = self.canvas_size.get_untracked();
        let fitted = doc.editor.with_untracked(|e| {
            let g = e.graph();
            bounds(g).map(|b| View::fit(&b, start_rect(g).as_ref(), w, h, 48.0))
        });
        if let Some(v) = fitted {
            self.view.set(v);
        }
    }

    pub fn zoom_by(&self, factor: f64) {
        let (w, h) = self.canvas_size.get_untracked();
        self.view.update(|v| *v = v.zoom_at(factor, Point::new(w / 2.0, h / 2.0)));
    }
}

pub fn use_view() -> ViewState {
    expect_context::<ViewState>()
}
