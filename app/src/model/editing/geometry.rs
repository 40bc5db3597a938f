//! Canvas geometry: node boxes, the viewport's pan and zoom, fitting a view.

use engine::Graph;
use engine::document::{Position, Viewport};

/// A node's box on the canvas when the layout gives no size: wide enough for a 20-letter
/// title and a 30-letter summary line, and no higher than those two lines, so that a layout
/// of ten layers still fits a laptop's canvas at a zoom where its text is readable.
pub const NODE_W: f64 = 260.0;
pub const NODE_H: f64 = 50.0;
/// A node title's font size in canvas units (`.node-title` in style/main.css).
pub const TITLE_PX: f64 = 17.0;
/// The smallest size a node title is readable at on screen (CSS pixels).
pub const READABLE_TITLE_PX: f64 = 12.0;
pub const MIN_ZOOM: f64 = 0.1;
pub const MAX_ZOOM: f64 = 3.0;
/// Fit view never zooms out further than this: below it a node's title is under
/// [`READABLE_TITLE_PX`], so a graph that does not fit is shown in part (see [`View::fit`]).
pub const READABLE_ZOOM: f64 = READABLE_TITLE_PX / TITLE_PX;
/// Fit view never zooms in further than this on a small graph: its titles then show at about
/// the size of the editor's own headings (14.5px), not larger, leaving room to add to it.
pub const FIT_MAX_ZOOM: f64 = 14.5 / TITLE_PX;
/// Snap-to-grid step.
pub const GRID: f64 = 20.0;
/// How far past each side of the screen a large graph is still drawn in full detail, as a
/// share of the screen's size, so a short pan finds its nodes already drawn.
pub const DETAIL_MARGIN: f64 = 0.25;
/// The detailed area's edges are rounded out to multiples of this (canvas units), so that
/// panning changes it only now and then rather than on every frame.
pub const DETAIL_SNAP: f64 = 1024.0;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

impl Point {
    pub fn new(x: f64, y: f64) -> Point {
        Point { x, y }
    }
}

/// An axis-aligned rectangle in canvas coordinates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

impl Rect {
    /// The rectangle spanned by two corners, in any order.
    pub fn from_corners(a: Point, b: Point) -> Rect {
        Rect { x: a.x.min(b.x), y: a.y.min(b.y), w: (a.x - b.x).abs(), h: (a.y - b.y).abs() }
    }

    pub fn intersects(&self, o: &Rect) -> bool {
        self.x < o.x + o.w && o.x < self.x + self.w && self.y < o.y + o.h && o.y < self.y + self.h
    }

    pub fn union(&self, o: &Rect) -> Rect {
        let x = self.x.min(o.x);
        let y = self.y.min(o.y);
        Rect { x, y, w: (self.x + self.w).max(o.x + o.w) - x, h: (self.y + self.h).max(o.y + o.h) - y }
    }

    pub fn center(&self) -> Point {
        Point::new(self.x + self.w / 2.0, self.y + self.h / 2.0)
    }
}

/// Where a node is drawn: its layout position, or a place in a default grid.
pub fn node_rect(graph: &Graph, index: usize) -> Rect {
    let n = &graph.nodes[index];
    let pos = graph.layout.as_ref().and_then(|l| l.nodes.get(&n.id));
    match pos {
        Some(p) => Rect { x: p.x, y: p.y, w: p.w.unwrap_or(NODE_W), h: p.h.unwrap_or(NODE_H) },
        None => {
            // Nodes without a position (a hand-written document) go on a grid, in order.
            let col = (index % 4) as f64;
            let row = (index / 4) as f64;
            Rect { x: col * (NODE_W + 40.0), y: row * (NODE_H + 80.0), w: NODE_W, h: NODE_H }
        }
    }
}

/// The box around every node, if there are any.
pub fn bounds(graph: &Graph) -> Option<Rect> {
    (0..graph.nodes.len()).map(|i| node_rect(graph, i)).reduce(|a, b| a.union(&b))
}

/// The box of the graph's first start node, where a partial view of the graph is anchored.
pub fn start_rect(graph: &Graph) -> Option<Rect> {
    graph.nodes.iter().position(|n| n.kind == engine::document::NodeKind::Start).map(|i| node_rect(graph, i))
}

pub fn snap(v: f64) -> f64 {
    (v / GRID).round() * GRID
}

pub fn position(x: f64, y: f64) -> Position {
    Position { x, y, w: None, h: None }
}

/// Screen pixels = canvas units × zoom + offset.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct View {
    pub x: f64,
    pub y: f64,
    pub zoom: f64,
}

impl Default for View {
    fn default() -> Self {
        View { x: 40.0, y: 40.0, zoom: 1.0 }
    }
}

impl From<&Viewport> for View {
    fn from(v: &Viewport) -> View {
        View { x: v.x, y: v.y, zoom: v.zoom.clamp(MIN_ZOOM, MAX_ZOOM) }
    }
}

impl View {
    pub fn to_canvas(&self, screen: Point) -> Point {
        Point::new((screen.x - self.x) / self.zoom, (screen.y - self.y) / self.zoom)
    }

    pub fn to_screen(&self, canvas: Point) -> Point {
        Point::new(canvas.x * self.zoom + self.x, canvas.y * self.zoom + self.y)
    }

    /// The canvas area whose nodes and edges a large graph draws in full detail: what is seen
    /// plus [`DETAIL_MARGIN`] on each side, rounded out to [`DETAIL_SNAP`], so it stays the same
    /// over small pans and zooms.
    pub fn detail_area(&self, w: f64, h: f64) -> Rect {
        let seen = self.visible(w, h);
        let (mx, my) = (seen.w * DETAIL_MARGIN, seen.h * DETAIL_MARGIN);
        let down = |v: f64| (v / DETAIL_SNAP).floor() * DETAIL_SNAP;
        let up = |v: f64| (v / DETAIL_SNAP).ceil() * DETAIL_SNAP;
        let (x0, y0) = (down(seen.x - mx), down(seen.y - my));
        let (x1, y1) = (up(seen.x + seen.w + mx), up(seen.y + seen.h + my));
        Rect { x: x0, y: y0, w: x1 - x0, h: y1 - y0 }
    }

    /// Zooms by `factor`, keeping the canvas point under `screen` where it is.
    pub fn zoom_at(&self, factor: f64, screen: Point) -> View {
        let anchor = self.to_canvas(screen);
        let zoom = (self.zoom * factor).clamp(MIN_ZOOM, MAX_ZOOM);
        View { x: screen.x - anchor.x * zoom, y: screen.y - anchor.y * zoom, zoom }
    }

    /// The view that shows `rect` in a `w` × `h` screen area: whole and centred when that
    /// needs no zoom below [`READABLE_ZOOM`]; otherwise at that zoom, centred on each axis
    /// that fits, and on an axis that does not, as close to `anchor` (the start node) as the
    /// graph allows, with the graph's near edge no further in than `padding`.
    ///
    /// The margin gives way before the text does: a graph that fits whole at a readable zoom
    /// only with less than `padding` around it gets the margin it needs, down to a quarter of
    /// `padding`; one too big for that is shown in part with that quarter.
    pub fn fit(rect: &Rect, anchor: Option<&Rect>, w: f64, h: f64, padding: f64) -> View {
        let (rw, rh) = (rect.w.max(1.0), rect.h.max(1.0));
        let whole_at = |pad: f64| ((w - 2.0 * pad) / rw).min((h - 2.0 * pad) / rh);
        let mut padding = padding;
        if whole_at(padding) < READABLE_ZOOM {
            // The widest margin that still shows the whole graph at the readable zoom; for a
            // graph shown in part anyway, the thin one (it shows more of it).
            let room = ((w - READABLE_ZOOM * rw) / 2.0).min((h - READABLE_ZOOM * rh) / 2.0);
            padding = room.max(padding / 4.0);
        }
        let zoom = whole_at(padding).clamp(READABLE_ZOOM, FIT_MAX_ZOOM);
        let focus = anchor.unwrap_or(rect);
        let x = fit_axis(rect.x, rect.w, focus.x + focus.w / 2.0, w, padding, zoom);
        let y = fit_axis(rect.y, rect.h, focus.y + focus.h / 2.0, h, padding, zoom);
        View { x, y, zoom }
    }

    /// [`View::fit`], keeping the screen's bottom-right `corner` (width, height) free: the
    /// whole screen when the graph then misses the corner, else the screen beside it or above
    /// it, whichever shows the graph larger. A graph too big to show whole beside or above the
    /// corner gets the whole screen (it shows more of it; the minimap fades over nodes).
    pub fn fit_clear_of(rect: &Rect, anchor: Option<&Rect>, w: f64, h: f64, corner: (f64, f64), padding: f64) -> View {
        let whole = View::fit(rect, anchor, w, h, padding);
        let (cw, ch) = corner;
        if cw <= 0.0 || ch <= 0.0 {
            return whole;
        }
        let drawn = |v: &View| {
            let a = v.to_screen(Point::new(rect.x, rect.y));
            Rect { x: a.x, y: a.y, w: rect.w * v.zoom, h: rect.h * v.zoom }
        };
        let covered = Rect { x: w - cw, y: h - ch, w: cw, h: ch };
        if !drawn(&whole).intersects(&covered) {
            return whole;
        }
        let shows_all = |v: &View, w: f64, h: f64| {
            let d = drawn(v);
            d.x >= -1e-6 && d.y >= -1e-6 && d.x + d.w <= w + 1e-6 && d.y + d.h <= h + 1e-6
        };
        let (bw, ah) = ((w - cw).max(1.0), (h - ch).max(1.0));
        let beside = Some(View::fit(rect, anchor, bw, h, padding)).filter(|v| shows_all(v, bw, h));
        let above = Some(View::fit(rect, anchor, w, ah, padding)).filter(|v| shows_all(v, w, ah));
        match (beside, above) {
            (Some(b), Some(a)) => {
                if b.zoom >= a.zoom {
                    b
                } else {
                    a
                }
            }
            (Some(v), None) | (None, Some(v)) => v,
            (None, None) => whole,
        }
    }

    /// Whether all of `rect` fits a `w` × `h` screen area at a zoom where text stays readable.
    pub fn fits_readable(rect: &Rect, w: f64, h: f64, padding: f64) -> bool {
        let whole = ((w - 2.0 * padding) / rect.w.max(1.0)).min((h - 2.0 * padding) / rect.h.max(1.0));
        whole >= READABLE_ZOOM
    }

    /// The part of the canvas visible in a `w` × `h` screen area.
    pub fn visible(&self, w: f64, h: f64) -> Rect {
        let a = self.to_canvas(Point::new(0.0, 0.0));
        Rect { x: a.x, y: a.y, w: w / self.zoom, h: h / self.zoom }
    }

    pub fn to_viewport(self) -> Viewport {
        Viewport { x: self.x, y: self.y, zoom: self.zoom }
    }
}

/// The screen offset along one axis for content spanning `start..start + len` (canvas units)
/// in a screen `size` long at `zoom`: centred when it fits, else centred on `focus` but
/// clamped so that no empty space shows beyond either end of the content (past `padding`).
fn fit_axis(start: f64, len: f64, focus: f64, size: f64, padding: f64, zoom: f64) -> f64 {
    if len * zoom <= size - 2.0 * padding + 1e-6 {
        return size / 2.0 - (start + len / 2.0) * zoom;
    }
    let near = padding - start * zoom;
    let far = size - padding - (start + len) * zoom;
    (size / 2.0 - focus * zoom).clamp(far, near)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_keeps_the_minimap_corner_free() {
        let graph = Rect { x: 0.0, y: 0.0, w: 1000.0, h: 500.0 };
        let (w, h, corner) = (1000.0, 600.0, (180.0, 150.0));
        let v = View::fit_clear_of(&graph, None, w, h, corner, 48.0);
        let end = v.to_screen(Point::new(graph.x + graph.w, graph.y + graph.h));
        let start = v.to_screen(Point::new(graph.x, graph.y));
        let drawn = Rect::from_corners(start, end);
        assert!(!drawn.intersects(&Rect { x: w - corner.0, y: h - corner.1, w: corner.0, h: corner.1 }), "{drawn:?}");
        // A graph that misses the corner anyway is fitted to the whole screen.
        let small = Rect { x: 0.0, y: 0.0, w: 300.0, h: 80.0 };
        assert_eq!(View::fit_clear_of(&small, None, w, h, corner, 48.0), View::fit(&small, None, w, h, 48.0));
    }

    #[test]
    fn the_margin_gives_way_before_the_text() {
        // Ten layers of nodes: whole at a readable zoom only with a margin under 48.
        let r = Rect { x: 0.0, y: 0.0, w: 860.0, h: 770.0 };
        let v = View::fit(&r, None, 850.0, 580.0, 48.0);
        assert!((v.zoom - READABLE_ZOOM).abs() < 1e-9, "{v:?}");
        let (a, b) = (v.to_screen(Point::new(0.0, 0.0)), v.to_screen(Point::new(r.w, r.h)));
        assert!(a.y >= 12.0 && b.y <= 580.0 - 12.0, "{a:?} {b:?}");
        // One that would need a margin under a quarter of it is shown in part, still readable.
        let tall = Rect { h: 800.0, ..r };
        let v = View::fit(&tall, Some(&Rect { x: 0.0, y: 0.0, w: NODE_W, h: NODE_H }), 850.0, 580.0, 48.0);
        assert!((v.zoom - READABLE_ZOOM).abs() < 1e-9);
        assert!((v.to_screen(Point::new(0.0, 0.0)).y - 12.0).abs() < 1e-9, "from its start, with a thin margin");
    }

    #[test]
    fn a_graph_too_big_beside_the_minimap_gets_the_whole_screen() {
        let graph = Rect { x: 0.0, y: 0.0, w: 1000.0, h: 700.0 };
        let (w, h, corner) = (850.0, 580.0, (180.0, 146.0));
        let v = View::fit_clear_of(&graph, None, w, h, corner, 48.0);
        assert_eq!(v, View::fit(&graph, None, w, h, 48.0));
        assert!(v.visible(w, h).w >= graph.w, "the whole width shows");
    }

    #[test]
    fn the_detail_area_covers_the_screen_with_a_margin_and_ignores_small_pans() {
        let v = View { x: -500.0, y: -300.0, zoom: 0.5 };
        let seen = v.visible(1400.0, 900.0);
        assert_eq!(seen, Rect { x: 1000.0, y: 600.0, w: 2800.0, h: 1800.0 });
        let area = v.detail_area(1400.0, 900.0);
        // The screen and a quarter of it on each side are inside; the corners are on the snap.
        assert!(area.x <= seen.x - 700.0 && area.y <= seen.y - 450.0);
        assert!(area.x + area.w >= seen.x + seen.w + 700.0 && area.y + area.h >= seen.y + seen.h + 450.0);
        for c in [area.x, area.y, area.w, area.h] {
            assert_eq!(c % DETAIL_SNAP, 0.0);
        }
        // Panning by a few pixels leaves it as it was; panning by a screen moves it.
        assert_eq!(View { x: -510.0, y: -295.0, ..v }.detail_area(1400.0, 900.0), area);
        assert_ne!(View { x: -1900.0, ..v }.detail_area(1400.0, 900.0), area);
    }

    #[test]
    fn zooming_keeps_the_point_under_the_pointer() {
        let v = View { x: 13.0, y: -7.0, zoom: 0.8 };
        let p = Point::new(300.0, 200.0);
        let before = v.to_canvas(p);
        let z = v.zoom_at(1.5, p);
        let after = z.to_canvas(p);
        assert!((before.x - after.x).abs() < 1e-9 && (before.y - after.y).abs() < 1e-9);
        assert!((z.zoom - 1.2).abs() < 1e-9);
        assert_eq!(v.zoom_at(100.0, p).zoom, MAX_ZOOM);
    }

    fn inside(outer: &Rect, inner: &Rect) -> bool {
        outer.x <= inner.x + 1e-9
            && outer.y <= inner.y + 1e-9
            && outer.x + outer.w >= inner.x + inner.w - 1e-9
            && outer.y + outer.h >= inner.y + inner.h - 1e-9
    }

    #[test]
    fn fit_shows_a_graph_that_fits_whole_and_centred() {
        let r = Rect { x: -500.0, y: 100.0, w: 1000.0, h: 400.0 };
        let v = View::fit(&r, None, 1000.0, 600.0, 40.0);
        assert!(v.zoom >= READABLE_ZOOM && v.zoom < 1.0);
        assert!(inside(&v.visible(1000.0, 600.0), &r));
        let c = v.to_screen(r.center());
        assert!((c.x - 500.0).abs() < 1e-9 && (c.y - 300.0).abs() < 1e-9);
    }

    #[test]
    fn fit_does_not_blow_up_a_small_graph() {
        let r = Rect { x: 0.0, y: 0.0, w: 200.0, h: 70.0 };
        assert_eq!(View::fit(&r, None, 1600.0, 900.0, 48.0).zoom, FIT_MAX_ZOOM);
    }

    #[test]
    fn fit_keeps_a_wide_graph_readable_and_shows_its_start() {
        // 14 nodes in a row, 300 apart, in a canvas 800 wide (a run panel took the rest):
        // fitting all of it would need a zoom of about 0.18.
        let start = Rect { x: 0.0, y: 0.0, w: NODE_W, h: NODE_H };
        let r = Rect { x: 0.0, y: 0.0, w: 13.0 * 300.0 + NODE_W, h: NODE_H };
        let v = View::fit(&r, Some(&start), 800.0, 400.0, 40.0);
        assert_eq!(v.zoom, READABLE_ZOOM);
        let seen = v.visible(800.0, 400.0);
        assert!(inside(&seen, &start), "the start node is in view: {seen:?}");
        // The graph's left edge sits at the (thinned) margin, not further right (no empty space
        // before it).
        assert!((v.to_screen(Point::new(r.x, 0.0)).x - 10.0).abs() < 1e-9);
        // The axis that fits is still centred.
        assert!((v.to_screen(r.center()).y - 200.0).abs() < 1e-9);
    }

    #[test]
    fn fit_centres_on_a_start_in_the_middle_of_a_graph_too_big_to_fit() {
        let start = Rect { x: 2000.0, y: 1000.0, w: NODE_W, h: NODE_H };
        let r = Rect { x: 0.0, y: 0.0, w: 4000.0, h: 2000.0 };
        let v = View::fit(&r, Some(&start), 1000.0, 600.0, 40.0);
        let c = v.to_screen(start.center());
        assert!((c.x - 500.0).abs() < 1e-9 && (c.y - 300.0).abs() < 1e-9);
        // Near the far corner, the view stops at the graph's end (past the thinned margin)
        // instead of showing empty canvas.
        let late = Rect { x: 3900.0, y: 1950.0, w: 100.0, h: 50.0 };
        let v = View::fit(&r, Some(&late), 1000.0, 600.0, 40.0);
        let end = v.to_screen(Point::new(r.x + r.w, r.y + r.h));
        assert!((end.x - 990.0).abs() < 1e-9 && (end.y - 590.0).abs() < 1e-9, "{end:?}");
        assert!(inside(&v.visible(1000.0, 600.0), &late));
    }

    #[test]
    fn snapping_rounds_to_the_grid() {
        assert_eq!(snap(29.0), 20.0);
        assert_eq!(snap(31.0), 40.0);
        assert_eq!(snap(-11.0), -20.0);
    }
}
