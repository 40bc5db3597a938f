//! Automatic layered layout (Sugiyama, through the `rust-sugiyama` crate), left to right or
//! top down, packed tight enough that a template-sized graph fits a laptop's canvas at a
//! readable zoom; and which way a drawn graph flows.

use std::collections::{BTreeSet, HashMap};

use engine::Graph;
use engine::document::Position;
use rust_sugiyama::configure::Config;

use crate::model::editing::geometry::{NODE_H, NODE_W, Point, Rect, position};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    LeftToRight,
    TopDown,
}

/// Between two layers of a top-down layout: room for an arrow and an edge label's line.
pub const ROW_GAP: f64 = 30.0;
/// Between two nodes side by side in a top-down layout: room for a short label or two edges.
pub const SIDE_GAP: f64 = 40.0;
/// Between two layers of a left-to-right layout: room for a short label. Wider would be
/// kinder to labels, but a layer already takes a third of a laptop's canvas at a readable
/// zoom (labels that do not fit go above or below their edge, or where they cover least).
pub const COLUMN_GAP: f64 = 60.0;
/// Between two nodes stacked in a left-to-right layout.
pub const STACK_GAP: f64 = 30.0;
/// Between unconnected parts of the graph, laid out side by side.
const PART_GAP: f64 = 80.0;

/// New positions for every node.
pub fn auto_layout(graph: &Graph, direction: Direction) -> Vec<(String, Position)> {
    let n = graph.nodes.len();
    if n == 0 {
        return Vec::new();
    }
    // The crate lays out top-down (layers are its rows); for left to right, lay out the
    // transposed boxes and turn the result. `along` is the step from one layer to the next,
    // `across` the space between neighbours in a layer.
    let (w, h, gap, along) = match direction {
        Direction::TopDown => (NODE_W, NODE_H, SIDE_GAP, NODE_H + ROW_GAP),
        Direction::LeftToRight => (NODE_H, NODE_W, STACK_GAP, NODE_W + COLUMN_GAP),
    };
    let vertices: Vec<(u32, (f64, f64))> = (0..n as u32).map(|i| (i, (w, h))).collect();
    let edges: Vec<(u32, u32)> = forward_edges(graph).into_iter().collect();
    // The crate pads each box by the spacing, so neighbours end up `gap` apart.
    let config = Config { vertex_spacing: gap, ..Config::default() };
    let components = rust_sugiyama::from_vertices_and_edges(&vertices, &edges, &config);

    // Components side by side (across the flow), largest first as the crate returns them.
    let mut out = Vec::with_capacity(n);
    let mut offset = 0.0;
    for (coords, _, _) in components {
        // The crate's rows are the layers, each at its own height: number them in order.
        let mut rows: Vec<f64> = coords.iter().map(|(_, (_, y))| *y).collect();
        rows.sort_by(f64::total_cmp);
        rows.dedup_by(|a, b| (*a - *b).abs() < 1e-6);
        let layer_of = |y: f64| rows.iter().position(|r| (r - y).abs() < 1e-6).unwrap_or(0);
        // This component's nodes, numbered from 0, and its edges between them.
        let local: HashMap<usize, usize> = coords.iter().enumerate().map(|(i, (v, _))| (*v, i)).collect();
        let layer: Vec<usize> = coords.iter().map(|(_, (_, y))| layer_of(*y)).collect();
        let at: Vec<f64> = coords.iter().map(|(_, (x, _))| *x).collect();
        let joins: Vec<(usize, usize)> = edges
            .iter()
            .filter_map(|(a, b)| Some((*local.get(&(*a as usize))?, *local.get(&(*b as usize))?)))
            .filter(|(a, b)| layer[*a] < layer[*b])
            .collect();
        let centres = compact(&layer, &at, &joins, w, gap);
        let min = centres.iter().copied().fold(f64::INFINITY, f64::min);
        let max = centres.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        for (i, (v, _)) in coords.iter().enumerate() {
            let across = ((centres[i] - min + offset) / 10.0).round() * 10.0;
            let along = layer[i] as f64 * along;
            let (px, py) = match direction {
                Direction::TopDown => (across, along),
                Direction::LeftToRight => (along, across),
            };
            out.push((graph.nodes[*v].id.clone(), position(px, py)));
        }
        offset += max - min + w + PART_GAP;
    }
    out
}

/// Moves the nodes of each layer across the flow, keeping their order, so that each sits
/// over (or under) the nodes it is joined to and the layout is no wider than it needs: the
/// crate's own placement staggers nodes by half a slot and spreads a template twice as wide.
/// `layer` and `at` are each node's layer and the crate's position across the flow (its
/// centre); `edges` point from a layer to a later one. Returns each node's centre.
fn compact(layer: &[usize], at: &[f64], edges: &[(usize, usize)], width: f64, gap: f64) -> Vec<f64> {
    /// One thing in a layer: a node, or the place an edge takes crossing a layer between its
    /// ends (kept free so that the edge does not run through a node).
    struct Item {
        w: f64,
        key: f64,
        up: Vec<usize>,
        down: Vec<usize>,
    }
    let n = layer.len();
    let mut items: Vec<Item> =
        (0..n).map(|i| Item { w: width, key: at[i], up: Vec::new(), down: Vec::new() }).collect();
    let mut item_layer: Vec<usize> = layer.to_vec();
    let mut pos: Vec<f64> = at.to_vec();
    for &(u, v) in edges {
        let mut prev = u;
        for k in layer[u] + 1..layer[v] {
            let share = (k - layer[u]) as f64 / (layer[v] - layer[u]) as f64;
            let key = at[u] + (at[v] - at[u]) * share;
            items.push(Item { w: 0.0, key, up: vec![prev], down: Vec::new() });
            item_layer.push(k);
            pos.push(key);
            let me = items.len() - 1;
            items[prev].down.push(me);
            prev = me;
        }
        items[v].up.push(prev);
        items[prev].down.push(v);
    }
    let layers = item_layer.iter().max().map_or(0, |m| m + 1);
    let mut rows: Vec<Vec<usize>> = vec![Vec::new(); layers];
    for (i, &k) in item_layer.iter().enumerate() {
        rows[k].push(i);
    }
    for row in &mut rows {
        row.sort_by(|a, b| items[*a].key.total_cmp(&items[*b].key));
    }
    let space = |a: &Item, b: &Item| (a.w + b.w) / 2.0 + if a.w > 0.0 && b.w > 0.0 { gap } else { gap / 2.0 };
    for sweep in 0..8 {
        let down = sweep % 2 == 0;
        let order: Vec<usize> = if down { (0..layers).collect() } else { (0..layers).rev().collect() };
        for k in order {
            let row = &rows[k];
            let want: Vec<f64> = row
                .iter()
                .map(|&i| {
                    let near = if down { &items[i].up } else { &items[i].down };
                    if near.is_empty() { pos[i] } else { median(near.iter().map(|&j| pos[j]).collect()) }
                })
                .collect();
            // The positions nearest `want` (least squares) that keep the order and spacing:
            // pool adjacent violators over the positions less their cumulative spacing.
            let mut offset = vec![0.0; row.len()];
            for j in 1..row.len() {
                offset[j] = offset[j - 1] + space(&items[row[j - 1]], &items[row[j]]);
            }
            let mut blocks: Vec<(f64, f64, usize)> = Vec::new(); // (sum, count, len)
            for j in 0..row.len() {
                blocks.push((want[j] - offset[j], 1.0, 1));
                while blocks.len() > 1 {
                    let (s1, c1, l1) = blocks[blocks.len() - 1];
                    let (s0, c0, l0) = blocks[blocks.len() - 2];
                    if s0 / c0 <= s1 / c1 {
                        break;
                    }
                    blocks.truncate(blocks.len() - 2);
                    blocks.push((s0 + s1, c0 + c1, l0 + l1));
                }
            }
            let mut j = 0;
            for (s, c, l) in blocks {
                for _ in 0..l {
                    pos[row[j]] = s / c + offset[j];
                    j += 1;
                }
            }
        }
    }
    pos.truncate(n);
    pos
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    if v.len() % 2 == 1 { v[m] } else { (v[m - 1] + v[m]) / 2.0 }
}

/// The graph's edges as pairs of node indices, each loop's closing edge turned round, so that
/// every edge points away from the start. Walked depth first from the start nodes (then from
/// nodes nothing leads to, then from the rest), an edge back to a node still on the walk's path
/// closes a loop. The layout crate would break loops itself, but at edges of its choosing,
/// which can put the start below its successors.
fn forward_edges(graph: &Graph) -> BTreeSet<(u32, u32)> {
    let n = graph.nodes.len();
    let index: HashMap<&str, usize> = graph.nodes.iter().enumerate().map(|(i, x)| (x.id.as_str(), i)).collect();
    let mut next: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut has_in = vec![false; n];
    for e in &graph.edges {
        if let (Some(&a), Some(&b)) = (index.get(e.from.as_str()), index.get(e.to.as_str()))
            && a != b
        {
            next[a].push(b);
            has_in[b] = true;
        }
    }
    let is_start = |i: usize| graph.nodes[i].kind == engine::NodeKind::Start;
    let roots = (0..n).filter(|&i| is_start(i)).chain((0..n).filter(|&i| !has_in[i])).chain(0..n);
    // 0: not seen, 1: on the current path, 2: done.
    let mut state = vec![0u8; n];
    let mut out = BTreeSet::new();
    for root in roots {
        if state[root] != 0 {
            continue;
        }
        // An explicit stack of (node, how many of its successors were looked at).
        let mut stack = vec![(root, 0usize)];
        state[root] = 1;
        while let Some((v, k)) = stack.pop() {
            let Some(&u) = next[v].get(k) else {
                state[v] = 2;
                continue;
            };
            stack.push((v, k + 1));
            match state[u] {
                1 => {
                    out.insert((u as u32, v as u32));
                }
                0 => {
                    out.insert((v as u32, u as u32));
                    state[u] = 1;
                    stack.push((u, 0));
                }
                _ => {
                    out.insert((v as u32, u as u32));
                }
            }
        }
    }
    out
}

/// Which way a drawn graph flows: top-down when more edges join nodes that are one above the
/// other (apart vertically, overlapping horizontally) than nodes side by side; a diagonal edge
/// counts only to break a tie, for the axis it covers more of.
pub fn flow_direction(graph: &Graph) -> Direction {
    let (mut down, mut across) = (0, 0);
    let (mut steep, mut flat) = (0, 0);
    // Every edit asks (a selection too): an index, not a search per edge, for 1,500 edges.
    let index: HashMap<&str, usize> = graph.nodes.iter().enumerate().map(|(i, n)| (n.id.as_str(), i)).collect();
    for e in &graph.edges {
        let (Some(&a), Some(&b)) = (index.get(e.from.as_str()), index.get(e.to.as_str())) else {
            continue;
        };
        if a == b {
            continue;
        }
        let (ra, rb) = (
            crate::model::editing::geometry::node_rect(graph, a),
            crate::model::editing::geometry::node_rect(graph, b),
        );
        // How far apart the boxes are on each axis (negative: they overlap on it).
        let apart_y = (rb.y - (ra.y + ra.h)).max(ra.y - (rb.y + rb.h));
        let apart_x = (rb.x - (ra.x + ra.w)).max(ra.x - (rb.x + rb.w));
        match (apart_y > 0.0, apart_x > 0.0) {
            (true, false) => down += 1,
            (false, true) => across += 1,
            _ if (rb.y - ra.y).abs() > (rb.x - ra.x).abs() => steep += 1,
            _ => flat += 1,
        }
    }
    if down > across || (down == across && steep > flat) { Direction::TopDown } else { Direction::LeftToRight }
}

/// How far before the target's input handle an edge stops, so its arrow head shows.
pub const HANDLE_GAP: f64 = 7.0;
/// How far beside the nodes an edge back against the flow runs.
const LANE: f64 = 20.0;
/// How far a detour goes straight out of a handle before it turns, and into the next one.
const LEAD: f64 = 14.0;
/// The radius of a detour's rounded corners.
const CORNER: f64 = 8.0;

/// The path an edge is drawn along.
#[derive(Debug, Clone, PartialEq)]
pub enum Route {
    /// A cubic Bézier curve: its start, two control points and end.
    Curve([Point; 4]),
    /// Straight runs between corners (drawn rounded): an edge back against the flow, taken
    /// round the nodes it would otherwise cut through.
    Detour(Vec<Point>),
}

impl Route {
    /// The SVG path data.
    pub fn svg(&self) -> String {
        match self {
            Route::Curve([p0, c1, c2, p3]) => {
                format!("M {} {} C {} {}, {} {}, {} {}", p0.x, p0.y, c1.x, c1.y, c2.x, c2.y, p3.x, p3.y)
            }
            Route::Detour(points) => {
                let Some(first) = points.first() else { return String::new() };
                let mut d = format!("M {} {}", first.x, first.y);
                for w in points.windows(3) {
                    let (p, c, n) = (w[0], w[1], w[2]);
                    let r = CORNER.min(dist(p, c) / 2.0).min(dist(c, n) / 2.0);
                    let a = towards(c, p, r);
                    let b = towards(c, n, r);
                    d += &format!(" L {} {} Q {} {}, {} {}", a.x, a.y, c.x, c.y, b.x, b.y);
                }
                if let Some(last) = points.last().filter(|_| points.len() > 1) {
                    d += &format!(" L {} {}", last.x, last.y);
                }
                d
            }
        }
    }

    /// The point a share `t` (0 to 1) of the way along: by the curve's parameter, or by length
    /// along a detour.
    pub fn point_at(&self, t: f64) -> Point {
        match self {
            Route::Curve([p0, c1, c2, p3]) => {
                let u = 1.0 - t;
                let (a, b, c, d) = (u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t);
                Point::new(a * p0.x + b * c1.x + c * c2.x + d * p3.x, a * p0.y + b * c1.y + c * c2.y + d * p3.y)
            }
            Route::Detour(points) => {
                let total: f64 = points.windows(2).map(|w| dist(w[0], w[1])).sum();
                let mut left = total * t.clamp(0.0, 1.0);
                for w in points.windows(2) {
                    let len = dist(w[0], w[1]);
                    if left <= len && len > 0.0 {
                        return towards(w[0], w[1], left);
                    }
                    left -= len;
                }
                points.last().copied().unwrap_or(Point::new(0.0, 0.0))
            }
        }
    }

    /// How many of `boxes` the path passes through (a detour's runs only; a curve counts none).
    fn crossings(&self, boxes: impl Iterator<Item = Rect>) -> usize {
        let Route::Detour(points) = self else { return 0 };
        let runs: Vec<Rect> = points.windows(2).map(|w| Rect::from_corners(w[0], w[1])).collect();
        let Some(all) = runs.iter().copied().reduce(|a, b| a.union(&b)) else { return 0 };
        // Most boxes are nowhere near: one test against the whole path's box settles them.
        boxes.filter(|r| r.intersects(&all) && runs.iter().any(|run| run.intersects(r))).count()
    }

    fn length(&self) -> f64 {
        match self {
            Route::Curve([p0, _, _, p3]) => dist(*p0, *p3),
            Route::Detour(points) => points.windows(2).map(|w| dist(w[0], w[1])).sum(),
        }
    }
}

fn dist(a: Point, b: Point) -> f64 {
    ((b.x - a.x).powi(2) + (b.y - a.y).powi(2)).sqrt()
}

/// The point `len` from `from` towards `to`.
fn towards(from: Point, to: Point, len: f64) -> Point {
    let d = dist(from, to);
    if d == 0.0 {
        return from;
    }
    Point::new(from.x + (to.x - from.x) * len / d, from.y + (to.y - from.y) * len / d)
}

/// The path of an edge from node box `a`'s output handle to `b`'s input handle: out of `a`'s
/// bottom into `b`'s top in a top-down graph, out of its right side into `b`'s left side left
/// to right. An edge going with the flow is a curve; one going back against it (a loop) runs
/// round by a lane that passes through none of the graph's node boxes (`others`, looked at
/// only then) where it can, so it does not cut through the nodes between them.
pub fn route(
    a: &Rect,
    b: &Rect,
    self_loop: bool,
    flow: Direction,
    others: impl Iterator<Item = Rect> + Clone,
) -> Route {
    let down = flow == Direction::TopDown;
    // Work in the flow's frame (`along` the flow is y), turned back at the end.
    let (a, b) = if down { (*a, *b) } else { (flip(a), flip(b)) };
    let turn = |p: Point| if down { p } else { Point::new(p.y, p.x) };
    let p0 = Point::new(a.x + a.w / 2.0, a.y + a.h);
    let p3 = Point::new(b.x + b.w / 2.0, b.y - HANDLE_GAP);
    if self_loop {
        let side = a.x + a.w + 70.0;
        let c = [p0, Point::new(side, p0.y + 80.0), Point::new(side, p3.y - 80.0), p3];
        return Route::Curve(c.map(turn));
    }
    if b.y + b.h / 2.0 >= a.y + a.h {
        return Route::Curve(curve(p0, p3, down).map(turn));
    }
    // Against the flow: out, across to a lane, back past the target, across before it and
    // in. The lane runs beside every node of the rows between them (outside, where it crosses
    // fewest edges), or beside the source or the target when that is shorter: the shortest
    // that passes through no node.
    let (out_y, in_y) = (p0.y + LEAD, p3.y - LEAD);
    let others = others.map(move |r| if down { r } else { flip(&r) });
    let rows = others.clone().filter(|r| r.y < a.y + a.h && r.y + r.h > b.y).fold(a.union(&b), |u, r| u.union(&r));
    let lane = |x: f64| {
        let points =
            [p0, Point::new(p0.x, out_y), Point::new(x, out_y), Point::new(x, in_y), Point::new(p3.x, in_y), p3];
        Route::Detour(points.to_vec())
    };
    let lanes = [rows.x - LANE, rows.x + rows.w + LANE, a.x - LANE, a.x + a.w + LANE, b.x - LANE, b.x + b.w + LANE];
    let cost = |r: &Route| (r.crossings(others.clone()), r.length());
    let best =
        lanes.into_iter().map(lane).min_by(|p, q| cost(p).partial_cmp(&cost(q)).unwrap_or(std::cmp::Ordering::Equal));
    match best {
        Some(Route::Detour(points)) => Route::Detour(points.into_iter().map(turn).collect()),
        _ => Route::Curve(curve(p0, p3, down).map(turn)),
    }
}

/// The path of an edge being drawn from node box `a` to the pointer at `to`: always a curve.
pub fn wire_route(a: &Rect, to: Point, flow: Direction) -> Route {
    match flow {
        Direction::TopDown => Route::Curve(curve(Point::new(a.x + a.w / 2.0, a.y + a.h), to, true)),
        Direction::LeftToRight => {
            let turn = |p: Point| Point::new(p.y, p.x);
            Route::Curve(curve(turn(Point::new(a.x + a.w, a.y + a.h / 2.0)), turn(to), false).map(turn))
        }
    }
}

/// A curve from `p0` to `p3` leaving and arriving along the flow (y, in the flow's frame).
fn curve(p0: Point, p3: Point, down: bool) -> [Point; 4] {
    let k = ((p3.y - p0.y).abs() / 2.0).max(if down { 40.0 } else { 60.0 });
    [p0, Point::new(p0.x, p0.y + k), Point::new(p3.x, p3.y - k), p3]
}

/// The size of an edge label's letters (canvas units; `.edge-label` in style/main.css), and the
/// width of one in its monospace font.
pub const LABEL_PX: f64 = 13.0;
const LABEL_CHAR_W: f64 = LABEL_PX * 0.61;
/// The room a label's background leaves round its text.
pub const LABEL_PAD: (f64, f64) = (5.0, 2.0);

/// What an edge's label says on the canvas: its name when it has one, else its condition
/// (shortened), and what a map edge fans out over. The full condition is in its tooltip and
/// the inspector.
pub fn label_text(label: Option<&str>, when: Option<&str>, map: Option<&str>) -> String {
    let named = label.filter(|l| !l.is_empty()).map(str::to_string);
    let condition = || when.map(|w| format!("when {}", shorten_middle(w, 24)));
    let each = map.map(|m| format!("⋔ each of {}", crate::model::editing::palette::shorten(m, 32)));
    named.or_else(condition).into_iter().chain(each).collect::<Vec<_>>().join(" · ")
}

/// `text` cut to `max` letters in the middle, keeping both ends: where conditions differ
/// (`state.sequence.len() > 0` and `== 0`).
fn shorten_middle(text: &str, max: usize) -> String {
    let n = text.chars().count();
    if n <= max {
        return text.to_string();
    }
    let head = (max - 1) / 2;
    let tail = max - 1 - head;
    let start: String = text.chars().take(head).collect();
    let end: String = text.chars().skip(n - tail).collect();
    format!("{}…{}", start.trim_end(), end.trim_start())
}

/// The box a label's text and background take (canvas units): monospace letters, one line.
pub fn label_size(text: &str) -> (f64, f64) {
    (text.chars().count() as f64 * LABEL_CHAR_W + 2.0 * LABEL_PAD.0, LABEL_PX * 1.25 + 2.0 * LABEL_PAD.1)
}

/// Where an edge's label goes: the point a share `t` of the way along its route, moved by
/// (`dx`, `dy`), is the label's centre. Kept relative to the route so that a label follows
/// its edge while a node is dragged.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LabelSpot {
    pub t: f64,
    pub dx: f64,
    pub dy: f64,
}

impl LabelSpot {
    pub const MIDDLE: LabelSpot = LabelSpot { t: 0.5, dx: 0.0, dy: 0.0 };

    pub fn centre(&self, route: &Route) -> Point {
        let p = route.point_at(self.t);
        Point::new(p.x + self.dx, p.y + self.dy)
    }
}

/// Shares of the way along an edge a label may sit at, best first: the middle, then out
/// towards either end in small steps (a label fits a 30-unit gap between rows only near the
/// gap's middle).
const LABEL_AT: [f64; 19] =
    [0.5, 0.46, 0.54, 0.42, 0.58, 0.38, 0.62, 0.34, 0.66, 0.3, 0.7, 0.26, 0.74, 0.22, 0.78, 0.18, 0.82, 0.14, 0.86];
/// How far a label keeps from a node's box.
const LABEL_MARGIN: f64 = 3.0;
/// The kind tag on a node's top border, at its right end (`.node-kind`): its width and how
/// far above the node it reaches.
const KIND_TAG: (f64, f64) = (110.0, 13.0);

/// A spot for each label, in order: `labels` are the routes of their edges and their sizes.
/// Each goes as near its edge's middle as it can while clear of every box in `nodes` and of
/// the labels placed before it: on the line first, then beside it; where nothing along its
/// edge is clear, where it covers least.
pub fn place_labels(labels: &[(Route, (f64, f64))], nodes: &[Rect], flow: Direction) -> Vec<LabelSpot> {
    // Greedy, in order; when some label found no clear spot, the labels that did not are
    // placed first on a second try (a long label squeezed out by a short one placed before
    // it often has only one spot, the short one many), and the better try is kept.
    let order: Vec<usize> = (0..labels.len()).collect();
    let (spots, covered) = place_in_order(labels, nodes, flow, &order);
    if covered.iter().all(|c| *c == 0.0) || labels.len() > 200 {
        return spots;
    }
    let (stuck, rest): (Vec<usize>, Vec<usize>) = order.into_iter().partition(|&i| covered[i] > 0.0);
    let again = place_in_order(labels, nodes, flow, &[stuck, rest].concat());
    if again.1.iter().sum::<f64>() < covered.iter().sum::<f64>() { again.0 } else { spots }
}

/// [`place_labels`] in the given order: each label's spot, and how much of it is covered.
fn place_in_order(
    labels: &[(Route, (f64, f64))],
    nodes: &[Rect],
    flow: Direction,
    order: &[usize],
) -> (Vec<LabelSpot>, Vec<f64>) {
    let m = LABEL_MARGIN;
    let boxes = nodes.iter().flat_map(|r| {
        let tag = Rect { x: r.x + r.w - KIND_TAG.0, y: r.y - KIND_TAG.1, w: KIND_TAG.0, h: KIND_TAG.1 };
        [Rect { x: r.x - m, y: r.y - m, w: r.w + 2.0 * m, h: r.h + 2.0 * m }, tag]
    });
    let mut taken = Buckets::new(boxes);
    // Fitting the view shows the nodes' box: a label outside it could be off screen.
    let area = nodes.iter().copied().reduce(|a, b| a.union(&b));
    let outside = |r: &Rect| area.map_or(0.0, |a| r.w * r.h - overlap(r, &a));
    let mut spots = vec![LabelSpot::MIDDLE; labels.len()];
    let mut covered = vec![0.0; labels.len()];
    for &i in order {
        let (route, (w, h)) = &labels[i];
        let (w, h) = (*w, *h);
        let beside = match flow {
            Direction::TopDown => [(w / 2.0 + 8.0, 0.0), (-w / 2.0 - 8.0, 0.0)],
            Direction::LeftToRight => [(0.0, -h / 2.0 - 6.0), (0.0, h / 2.0 + 6.0)],
        };
        // Where the edge runs along the flow (a straight drop, a lane), a label beside it
        // leaves the line and its arrow in sight; where it runs across, the label goes on the
        // line, as its tag (beside it, it could be read as another edge's).
        let (p, q) = (route.point_at(0.46), route.point_at(0.54));
        let along = match flow {
            Direction::TopDown => (q.y - p.y).abs() > 2.0 * (q.x - p.x).abs(),
            Direction::LeftToRight => (q.x - p.x).abs() > 2.0 * (q.y - p.y).abs(),
        };
        let on = [(0.0, 0.0)];
        let offsets: Vec<(f64, f64)> = if along { beside.iter().chain(&on).copied().collect() } else { on.to_vec() };
        let candidates =
            offsets.into_iter().flat_map(|(dx, dy)| LABEL_AT.iter().map(move |&t| LabelSpot { t, dx, dy }));
        let mut best = (f64::INFINITY, LabelSpot::MIDDLE);
        for spot in candidates {
            let c = spot.centre(route);
            let r = Rect { x: c.x - w / 2.0, y: c.y - h / 2.0, w, h };
            let cover = taken.overlap(&r) + outside(&r);
            if cover < best.0 {
                best = (cover, spot);
                if cover == 0.0 {
                    break;
                }
            }
        }
        // Placed labels keep a little further apart, so that two do not read as one.
        let c = best.1.centre(route);
        taken.add(Rect { x: c.x - w / 2.0 - 6.0, y: c.y - h / 2.0 - 2.0, w: w + 12.0, h: h + 4.0 });
        spots[i] = best.1;
        covered[i] = best.0;
    }
    (spots, covered)
}

/// The area two boxes share.
fn overlap(a: &Rect, b: &Rect) -> f64 {
    let w = (a.x + a.w).min(b.x + b.w) - a.x.max(b.x);
    let h = (a.y + a.h).min(b.y + b.h) - a.y.max(b.y);
    if w > 0.0 && h > 0.0 { w * h } else { 0.0 }
}

/// Boxes filed by the grid cells they touch, to find those near a point without looking at
/// every one (a thousand nodes, each label trying a dozen spots).
struct Buckets {
    boxes: Vec<Rect>,
    cells: HashMap<(i64, i64), Vec<usize>>,
}

impl Buckets {
    const CELL: f64 = 256.0;

    fn new(boxes: impl Iterator<Item = Rect>) -> Buckets {
        let mut b = Buckets { boxes: Vec::new(), cells: HashMap::new() };
        for r in boxes {
            b.add(r);
        }
        b
    }

    fn cells_of(r: &Rect) -> impl Iterator<Item = (i64, i64)> {
        let cell = |v: f64| (v / Self::CELL).floor() as i64;
        let (x0, x1, y0, y1) = (cell(r.x), cell(r.x + r.w), cell(r.y), cell(r.y + r.h));
        (x0..=x1).flat_map(move |x| (y0..=y1).map(move |y| (x, y)))
    }

    fn add(&mut self, r: Rect) {
        let i = self.boxes.len();
        self.boxes.push(r);
        for c in Self::cells_of(&r) {
            self.cells.entry(c).or_default().push(i);
        }
    }

    /// The area of `r` that the boxes cover (overlaps counted once per box).
    fn overlap(&self, r: &Rect) -> f64 {
        let mut seen = BTreeSet::new();
        let mut area = 0.0;
        for c in Self::cells_of(r) {
            for &i in self.cells.get(&c).into_iter().flatten() {
                if seen.insert(i) {
                    area += overlap(r, &self.boxes[i]);
                }
            }
        }
        area
    }
}

/// A box with its axes swapped.
fn flip(r: &Rect) -> Rect {
    Rect { x: r.y, y: r.x, w: r.h, h: r.w }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::editing::geometry::{READABLE_ZOOM, View, bounds, node_rect, start_rect};
    use engine::{Edge, Node, NodeKind};

    fn chain_with_loop() -> Graph {
        let mut g = Graph::new("t");
        g.nodes.insert(1, Node::new("a", NodeKind::Set));
        g.nodes.insert(2, Node::new("b", NodeKind::Router));
        g.nodes.push(Node::new("note", NodeKind::Note));
        g.edges = vec![
            Edge::new("start", "a"),
            Edge::new("a", "b"),
            Edge::new("b", "a"),
            Edge::new("b", "end"),
            Edge::new("b", "b"),
        ];
        g
    }

    #[test]
    fn layers_follow_the_flow() {
        let g = chain_with_loop();
        for dir in [Direction::LeftToRight, Direction::TopDown] {
            let pos = auto_layout(&g, dir);
            assert_eq!(pos.len(), g.nodes.len());
            let at = |id: &str| pos.iter().find(|(k, _)| k == id).map(|(_, p)| p.clone()).unwrap();
            let along = |p: &Position| if dir == Direction::LeftToRight { p.x } else { p.y };
            assert!(along(&at("start")) < along(&at("a")), "{dir:?}");
            assert!(along(&at("a")) < along(&at("b")), "{dir:?}");
            assert!(along(&at("b")) < along(&at("end")), "{dir:?}");
            // No two nodes on top of each other.
            for (i, (_, p)) in pos.iter().enumerate() {
                for (_, q) in &pos[i + 1..] {
                    assert!((p.x - q.x).abs() >= NODE_W.min(NODE_H) || (p.y - q.y).abs() >= NODE_H, "overlap");
                }
            }
        }
    }

    #[test]
    fn the_flow_follows_the_layout() {
        let mut ed = crate::model::editing::editor::Editor::new(chain_with_loop());
        ed.auto_layout(Direction::TopDown);
        assert_eq!(flow_direction(ed.graph()), Direction::TopDown);
        ed.auto_layout(Direction::LeftToRight);
        assert_eq!(flow_direction(ed.graph()), Direction::LeftToRight);
    }

    /// The gallery's templates, parsed.
    fn templates() -> Vec<(&'static str, Graph)> {
        [
            ("000", include_str!("../../../../templates/000-task-loop.json")),
            ("001", include_str!("../../../../templates/001-step-engine.json")),
            ("002", include_str!("../../../../templates/002-agent-graph.json")),
            ("003", include_str!("../../../../templates/003-approval.json")),
            ("004", include_str!("../../../../templates/004-linear-orchestrator.json")),
            ("005", include_str!("../../../../templates/005-tool-agent.json")),
            ("006", include_str!("../../../../templates/006-map-reduce.json")),
            ("007", include_str!("../../../../templates/007-memory-assistant.json")),
            ("008", include_str!("../../../../templates/008-evaluation-loop.json")),
        ]
        .into_iter()
        .map(|(key, text)| (key, engine::parse_graph(text).unwrap()))
        .collect()
    }

    /// Every labelled edge's label box, as the canvas places them.
    fn label_boxes(g: &Graph) -> Vec<(String, Rect)> {
        let flow = flow_direction(g);
        let rects: Vec<Rect> = (0..g.nodes.len()).map(|i| node_rect(g, i)).collect();
        let at = |id: &str| rects[g.nodes.iter().position(|n| n.id == id).unwrap()];
        let mut texts = Vec::new();
        let mut labels = Vec::new();
        for e in &g.edges {
            let map = e.map.as_ref().map(|m| format!("{m} as {}", e.as_name.as_deref().unwrap_or("item")));
            let text = label_text(e.label.as_deref(), e.when.as_deref(), map.as_deref());
            if !text.is_empty() {
                labels.push((
                    route(&at(&e.from), &at(&e.to), e.from == e.to, flow, rects.iter().copied()),
                    label_size(&text),
                ));
                texts.push(text);
            }
        }
        let spots = place_labels(&labels, &rects, flow);
        texts
            .into_iter()
            .zip(labels.iter().zip(spots))
            .map(|(text, ((route, (w, h)), spot))| {
                let c = spot.centre(route);
                (text, Rect { x: c.x - w / 2.0, y: c.y - h / 2.0, w: *w, h: *h })
            })
            .collect()
    }

    #[test]
    fn every_template_flows_top_down_and_fits_a_laptop_canvas_readably() {
        // The canvas of a 1440×900 window, beside the minimap's corner.
        let (w, h, corner) = (850.0, 580.0, (180.0, 146.0));
        for (key, g) in templates() {
            assert_eq!(flow_direction(&g), Direction::TopDown, "{key}");
            let b = bounds(&g).unwrap();
            let v = View::fit_clear_of(&b, start_rect(&g).as_ref(), w, h, corner, 48.0);
            assert!(v.zoom >= READABLE_ZOOM - 1e-9, "{key}: {v:?}");
            let drawn =
                Rect::from_corners(v.to_screen(Point::new(b.x, b.y)), v.to_screen(Point::new(b.x + b.w, b.y + b.h)));
            let whole = drawn.x >= 0.0 && drawn.y >= 0.0 && drawn.x + drawn.w <= w && drawn.y + drawn.h <= h;
            // The orchestrator's line of six agent slots is taller than a laptop's canvas at a
            // readable zoom: it opens from its start, in part.
            assert_eq!(whole, key != "004", "{key}: {drawn:?}");
        }
    }

    #[test]
    fn no_template_label_is_covered() {
        for (key, g) in templates() {
            let rects: Vec<Rect> = (0..g.nodes.len()).map(|i| node_rect(&g, i)).collect();
            let boxes = label_boxes(&g);
            for (i, (text, r)) in boxes.iter().enumerate() {
                assert!(rects.iter().all(|n| !n.intersects(r)), "{key}: “{text}” under a node");
                assert!(boxes[i + 1..].iter().all(|(_, o)| !o.intersects(r)), "{key}: “{text}” under a label");
            }
        }
    }

    #[test]
    fn a_loop_back_goes_round_the_nodes_between() {
        // a above, c below it, a box in between on the straight way back from c to a.
        let (a, mid, c) = (
            Rect { x: 0.0, y: 0.0, w: NODE_W, h: NODE_H },
            Rect { x: 0.0, y: 80.0, w: NODE_W, h: NODE_H },
            Rect { x: 0.0, y: 160.0, w: NODE_W, h: NODE_H },
        );
        let back = route(&c, &a, false, Direction::TopDown, [a, mid, c].into_iter());
        let Route::Detour(points) = &back else { panic!("{back:?}") };
        assert_eq!(back.crossings([a, mid, c].into_iter()), 0);
        // It leaves c's bottom and comes into a's top, from above.
        assert_eq!(points[0], Point::new(130.0, 210.0));
        assert_eq!(points.last(), Some(&Point::new(130.0, -HANDLE_GAP)));
        assert!(points[points.len() - 2].y < -HANDLE_GAP);
        // Going with the flow is a plain curve, left to right too.
        assert!(matches!(route(&a, &c, false, Direction::TopDown, std::iter::empty()), Route::Curve(_)));
        let right = Rect { x: 400.0, ..a };
        let Route::Curve([p0, .., p3]) = route(&a, &right, false, Direction::LeftToRight, std::iter::empty()) else {
            panic!()
        };
        assert_eq!((p0, p3), (Point::new(NODE_W, 25.0), Point::new(400.0 - HANDLE_GAP, 25.0)));
    }

    #[test]
    fn loops_back_to_one_node_share_their_lane() {
        // A dispatcher and three workers below it, each returning to it.
        let hub = Rect { x: 300.0, y: 0.0, w: NODE_W, h: NODE_H };
        let workers: Vec<Rect> = (0..3).map(|i| Rect { x: 300.0 * i as f64, y: 80.0, w: NODE_W, h: NODE_H }).collect();
        let all: Vec<Rect> = std::iter::once(hub).chain(workers.iter().copied()).collect();
        let runs_in: Vec<Point> = workers
            .iter()
            .map(|w| match route(w, &hub, false, Direction::TopDown, all.iter().copied()) {
                Route::Detour(p) => p[p.len() - 2],
                other => panic!("{other:?}"),
            })
            .collect();
        // All come in along one line above the dispatcher, into its middle.
        assert!(runs_in.iter().all(|p| *p == runs_in[0] && p.x == 430.0), "{runs_in:?}");
    }

    #[test]
    fn labels_keep_clear_of_nodes_and_each_other() {
        // A router with four labelled edges to the row below.
        let from = Rect { x: 450.0, y: 0.0, w: NODE_W, h: NODE_H };
        let to: Vec<Rect> = (0..4).map(|i| Rect { x: 300.0 * i as f64, y: 80.0, w: NODE_W, h: NODE_H }).collect();
        let mut nodes = to.clone();
        nodes.push(from);
        let labels: Vec<(Route, (f64, f64))> = ["first", "second choice", "third", "when state.x > 2"]
            .iter()
            .zip(&to)
            .map(|(text, t)| (route(&from, t, false, Direction::TopDown, std::iter::empty()), label_size(text)))
            .collect();
        let spots = place_labels(&labels, &nodes, Direction::TopDown);
        let boxes: Vec<Rect> = labels
            .iter()
            .zip(&spots)
            .map(|((r, (w, h)), s)| {
                let c = s.centre(r);
                Rect { x: c.x - w / 2.0, y: c.y - h / 2.0, w: *w, h: *h }
            })
            .collect();
        for (i, b) in boxes.iter().enumerate() {
            assert!(nodes.iter().all(|n| !n.intersects(b)), "label {i} under a node: {b:?}");
            assert!(boxes[i + 1..].iter().all(|o| !o.intersects(b)), "label {i} under another");
        }
    }

    #[test]
    fn a_label_says_the_name_else_the_condition_keeping_both_ends() {
        assert_eq!(label_text(Some("approve"), Some("state.ok"), None), "approve");
        assert_eq!(label_text(None, Some("state.ok"), None), "when state.ok");
        let long = label_text(None, Some("state.agent_sequence.len() == 0"), None);
        assert_eq!(long, "when state.agent…e.len() == 0");
        assert_eq!(label_text(None, None, Some("state.items as item")), "⋔ each of state.items as item");
        assert_eq!(label_text(None, None, None), "");
    }

    #[test]
    fn auto_layout_packs_a_template_into_three_columns() {
        let (_, g) = templates().remove(2);
        let mut ed = crate::model::editing::editor::Editor::new(g);
        ed.auto_layout(Direction::TopDown);
        let b = bounds(ed.graph()).unwrap();
        assert!(b.w <= 3.0 * NODE_W + 2.0 * SIDE_GAP, "{b:?}");
        assert_eq!(flow_direction(ed.graph()), Direction::TopDown);
    }

    #[test]
    fn large_random_graphs_lay_out_without_trouble() {
        let mut g = Graph::new("big");
        let mut seed = 7u64;
        let mut rand = |m: u64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) % m
        };
        for i in 0..200 {
            g.nodes.push(Node::new(&format!("n{i}"), NodeKind::Set));
        }
        for _ in 0..300 {
            let (a, b) = (rand(200), rand(200));
            g.edges.push(Edge::new(&format!("n{a}"), &format!("n{b}")));
        }
        assert_eq!(auto_layout(&g, Direction::LeftToRight).len(), g.nodes.len());
    }
}
