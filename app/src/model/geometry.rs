//! Canvas geometry: node boxes, the viewport's pan and zoom, fitting a view.

use engine::Graph;
use engine::document::{Position, Viewport};

/// A node's box on the canvas when the layout gives no size.
pub const NODE_W: f64 = 220.0;
pub const NODE_H: f64 = 72.0;
pub const MIN_ZOOM: f64 = 0.1;
pub const MAX_ZOOM: f64 = 3.0;
/// Snap-to-grid step.
pub const GRID: f64 = 20.0;

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
            Rect { x: col * (NODE_W + 80.0), y: row * (NODE_H + 80.0), w: NODE_W, h: NODE_H }
        }
    }
}

/// The box around every node, if there are any.
pub fn bounds(graph: &Graph) -> Option<Rect> {
    (0..graph.nodes.len()).map(|i| node_rect(graph, i)).reduce(|a, b| a.union(&b))
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

    /// Zooms by `factor`, keeping the canvas point under `screen` where it is.
    pub fn zoom_at(&self, factor: f64, screen: Point) -> View {
        let anchor = self.to_canvas(screen);
        let zoom = (self.zoom * factor).clamp(MIN_ZOOM, MAX_ZOOM);
        View { x: screen.x - anchor.x * zoom, y: screen.y - anchor.y * zoom, zoom }
    }

    /// The view that shows `rect` whole and centred in a `w` × `h` screen area.
    pub fn fit(rect: &Rect, w: f64, h: f64, padding: f64) -> View {
        let zoom =
            ((w - 2.0 * padding) / rect.w.max(1.0)).min((h - 2.0 * padding) / rect.h.max(1.0)).clamp(MIN_ZOOM, 1.25);
        let c = rect.center();
        View { x: w / 2.0 - c.x * zoom, y: h / 2.0 - c.y * zoom, zoom }
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

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn fit_shows_everything() {
        let r = Rect { x: -500.0, y: 100.0, w: 2000.0, h: 600.0 };
        let v = View::fit(&r, 1000.0, 600.0, 40.0);
        let seen = v.visible(1000.0, 600.0);
        assert!(seen.x <= r.x && seen.y <= r.y);
        assert!(seen.x + seen.w >= r.x + r.w && seen.y + seen.h >= r.y + r.h);
    }

    #[test]
    fn snapping_rounds_to_the_grid() {
        assert_eq!(snap(29.0), 20.0);
        assert_eq!(snap(31.0), 40.0);
        assert_eq!(snap(-11.0), -20.0);
    }
}
