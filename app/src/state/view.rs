//! The view of the canvas: pan and zoom, the canvas's size, and the gestures in progress
//! (nodes dragged, an edge drawn, a marquee), with the helpers that move the view.

use std::collections::BTreeSet;
use std::sync::Arc;

use leptos::prelude::*;

use super::doc::DocState;
use crate::model::editing::geometry::{Point, Rect, View, bounds, start_rect};

/// Graphs with more nodes than this are drawn in less detail below [`FAR_ZOOM`].
pub const FAR_NODES: usize = 300;
/// The zoom below which a large graph's nodes are plain boxes (their text would be under 4 px).
pub const FAR_ZOOM: f64 = 0.35;

/// An edge being drawn (the canvas's gestures are the model's).
pub use crate::model::editing::gesture::Wire;

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
    pub far: Settled<bool>,
    /// On a large graph, the canvas area drawn in full detail (see [`View::detail_area`]):
    /// nodes and edges outside it are drawn plain, as from far out. `None` draws everything.
    pub detail_area: Settled<Option<Rect>>,
    /// Fit the graph again once the canvas's real size is known (the first fit guessed it).
    pub fit_when_measured: StoredValue<bool>,
    /// The size of the canvas's bottom-right corner that the minimap covers (CSS pixels):
    /// Fit view keeps it free.
    pub corner: StoredValue<(f64, f64)>,
}

impl ViewState {
    /// The view of a document whose node ids are `node_ids` (for [`ViewState::far`]).
    pub fn new(node_ids: Memo<Vec<String>>) -> ViewState {
        let view = RwSignal::new(View::default());
        let large = Memo::new(move |_| node_ids.with(Vec::len) > FAR_NODES);
        let far = Settled::new(move || large.get() && view.with(|v| v.zoom) < FAR_ZOOM);
        let canvas_size = RwSignal::new((1000.0, 700.0));
        let detail_area = Settled::new(move || {
            let (w, h) = canvas_size.get();
            large.get().then(|| view.with(|v| v.detail_area(w, h)))
        });
        ViewState {
            view,
            far,
            detail_area,
            canvas_size,
            drag_ids: RwSignal::new(Arc::new(BTreeSet::new())),
            drag_offset: RwSignal::new((0.0, 0.0)),
            wire: RwSignal::new(None),
            marquee: RwSignal::new(None),
            fit_when_measured: StoredValue::new(false),
            corner: StoredValue::new((0.0, 0.0)),
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

    /// Whether something occupying `area` (canvas units) is drawn in full detail now: never
    /// from far out; on a large graph, only near the screen. Tracked, for memos.
    pub fn detailed(&self, area: Option<Rect>) -> bool {
        !self.far.get()
            && self.detail_area.with(|d| match (d, area) {
                (Some(d), Some(a)) => d.intersects(&a),
                _ => true,
            })
    }

    /// Brings what depends on the view (far out, the detailed area) up to date at once.
    pub fn settle(&self) {
        self.far.settle();
        self.detail_area.settle();
    }

    /// Pans so that `p` (canvas units) is in the middle of the screen.
    pub fn center_on(&self, p: Point) {
        let (w, h) = self.canvas_size.get_untracked();
        self.view.update(|v| {
            v.x = w / 2.0 - p.x * v.zoom;
            v.y = h / 2.0 - p.y * v.zoom;
        });
    }

    /// The canvas area on screen (canvas units).
    pub fn seen(&self) -> Rect {
        let (w, h) = self.canvas_size.get_untracked();
        self.view.get_untracked().visible(w, h)
    }

    /// Shows `r` (a node just added) if it is off screen: the whole graph fitted when it fits
    /// readable, else a pan just far enough.
    pub fn bring_into_view(&self, doc: &DocState, r: Rect) {
        let seen = self.seen();
        let inside = r.x >= seen.x && r.y >= seen.y && r.x + r.w <= seen.x + seen.w && r.y + r.h <= seen.y + seen.h;
        if inside {
            return;
        }
        let (w, h) = self.canvas_size.get_untracked();
        let whole =
            doc.editor.with_untracked(|e| bounds(e.graph())).is_some_and(|b| View::fits_readable(&b, w, h, 48.0));
        if whole {
            self.fit_view(doc);
        } else {
            self.reveal(r);
        }
    }

    /// Pans as little as needed for `r` (canvas units) to be on screen with a margin, if it
    /// fits there; a box already in view does not move the view.
    pub fn reveal(&self, r: Rect) {
        let (w, h) = self.canvas_size.get_untracked();
        let v = self.view.get_untracked();
        let margin = 32.0 / v.zoom;
        let seen = v.visible(w, h);
        let shift = |start: f64, len: f64, seen_start: f64, seen_len: f64| {
            if len + 2.0 * margin > seen_len {
                return (seen_start + seen_len / 2.0) - (start + len / 2.0);
            }
            if start - margin < seen_start {
                seen_start - (start - margin)
            } else if start + len + margin > seen_start + seen_len {
                (seen_start + seen_len) - (start + len + margin)
            } else {
                0.0
            }
        };
        let (dx, dy) = (shift(r.x, r.w, seen.x, seen.w), shift(r.y, r.h, seen.y, seen.h));
        if dx != 0.0 || dy != 0.0 {
            self.view.update(|v| {
                v.x += dx * v.zoom;
                v.y += dy * v.zoom;
            });
        }
    }

    /// Zooms to show every node of the graph on `doc`'s canvas, or as much of it around its
    /// start as stays readable (see [`View::fit`]), clear of the minimap's corner.
    pub fn fit_view(&self, doc: &DocState) {
        let (w, h) = self.canvas_size.get_untracked();
        let corner = self.corner.get_value();
        let fitted = doc.editor.with_untracked(|e| {
            let g = e.graph();
            bounds(g).map(|b| View::fit_clear_of(&b, start_rect(g).as_ref(), w, h, corner, 48.0))
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

/// A value derived from the view, held in a signal that is set again only when the value
/// changes. Unlike a memo of the view, it does not make its thousands of readers (every node
/// and edge) check themselves on each frame of a pan, only when what they read has changed.
pub struct Settled<T: Send + Sync + 'static> {
    value: RwSignal<T>,
    compute: StoredValue<Arc<dyn Fn() -> T + Send + Sync>>,
}

// By hand: a derive would ask `T: Copy`, but only the handles are copied.
impl<T: Send + Sync + 'static> Clone for Settled<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Send + Sync + 'static> Copy for Settled<T> {}

impl<T: PartialEq + Clone + Send + Sync + 'static> Settled<T> {
    fn new(compute: impl Fn() -> T + Send + Sync + 'static) -> Settled<T> {
        let settled = Settled { value: RwSignal::new(untrack(&compute)), compute: StoredValue::new(Arc::new(compute)) };
        Effect::new(move |_| settled.update(settled.compute.with_value(|c| c())));
        settled
    }

    /// Brings the value up to date now rather than when its effect next runs (before the
    /// canvas is first drawn, so it is not drawn twice).
    pub fn settle(&self) {
        self.update(untrack(|| self.compute.with_value(|c| c())));
    }

    fn update(&self, now: T) {
        if self.value.with_untracked(|v| *v != now) {
            self.value.set(now);
        }
    }

    pub fn get(&self) -> T {
        self.value.get()
    }

    pub fn with<R>(&self, f: impl FnOnce(&T) -> R) -> R {
        self.value.with(f)
    }
}

pub fn use_view() -> ViewState {
    expect_context::<ViewState>()
}
