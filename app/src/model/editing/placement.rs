//! Where a node added from the palette goes: in free space, next to the selected node in the
//! direction the graph flows, else near the middle of the view, never on top of another node,
//! and on screen while the screen has room.

use engine::Graph;

use crate::model::editing::geometry::{GRID, NODE_H, NODE_W, Point, Rect, node_rect, snap};
use crate::model::editing::layout::Direction;

/// The room kept free around a placed node, so its handles and edges stay clear.
const GAP: f64 = 40.0;

/// The top-left corner for a new node: beside `after` (the selected node's box) on the side
/// the graph flows to, or centred on the middle of `seen` (the canvas area on screen); then
/// the nearest spot around there whose box, with a margin, overlaps no node of `graph`. A spot
/// on screen is taken first: beside the selection, else around the middle of the screen; only
/// a full screen sends the node off it.
pub fn free_spot(graph: &Graph, after: Option<Rect>, seen: Rect, flow: Direction) -> Point {
    let center = seen.center();
    let on_screen =
        |p: Point| p.x >= seen.x && p.y >= seen.y && p.x + NODE_W <= seen.x + seen.w && p.y + NODE_H <= seen.y + seen.h;
    let near_selection = after.map(|r| beside(r, flow));
    let middle = Point::new(center.x - NODE_W / 2.0, center.y - NODE_H / 2.0);
    let taken: Vec<Rect> = (0..graph.nodes.len()).map(|i| node_rect(graph, i)).collect();
    near_selection
        .and_then(|p| nearest_free(&taken, p, flow, &on_screen))
        .or_else(|| nearest_free(&taken, middle, flow, &on_screen))
        .or_else(|| nearest_free(&taken, near_selection.unwrap_or(middle), flow, &|_| true))
        .unwrap_or_else(|| {
            // A graph so crowded that nothing nearby is free: below everything.
            let bottom = taken.iter().map(|t| t.y + t.h).fold(middle.y, f64::max);
            Point::new(middle.x, snap(bottom + GAP + GRID))
        })
}

/// The spot right after `r` in the direction the graph flows.
fn beside(r: Rect, flow: Direction) -> Point {
    match flow {
        Direction::LeftToRight => Point::new(r.x + r.w + 2.0 * GAP + 20.0, r.y + (r.h - NODE_H) / 2.0),
        Direction::TopDown => Point::new(r.x + (r.w - NODE_W) / 2.0, r.y + r.h + 2.0 * GAP + 20.0),
    }
}

/// The free spot nearest `wanted` that `allowed` takes, searching rings around it.
fn nearest_free(taken: &[Rect], wanted: Point, flow: Direction, allowed: &dyn Fn(Point) -> bool) -> Option<Point> {
    let wanted = Point::new(snap(wanted.x), snap(wanted.y));
    let free = |p: Point| {
        let r = Rect { x: p.x - GAP, y: p.y - GAP, w: NODE_W + 2.0 * GAP, h: NODE_H + 2.0 * GAP };
        !taken.iter().any(|t| t.intersects(&r))
    };
    // Rings of candidates around the wanted spot, nearest first; along the flow before across
    // it, so a chain keeps growing the way it reads.
    let (along, across) = match flow {
        Direction::LeftToRight => ((NODE_W + GAP) / 2.0, NODE_H + GAP),
        Direction::TopDown => (NODE_W + GAP, (NODE_H + GAP) / 2.0),
    };
    for ring in 0..40i32 {
        let mut candidates: Vec<(f64, Point)> = Vec::new();
        for i in -ring..=ring {
            for j in -ring..=ring {
                if i.abs().max(j.abs()) != ring {
                    continue;
                }
                let p = Point::new(snap(wanted.x + i as f64 * along), snap(wanted.y + j as f64 * across));
                let d = (p.x - wanted.x).hypot(p.y - wanted.y);
                candidates.push((d, p));
            }
        }
        candidates.sort_by(|a, b| a.0.total_cmp(&b.0));
        if let Some((_, p)) = candidates.into_iter().find(|(_, p)| free(*p) && allowed(*p)) {
            return Some(p);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use engine::document::NodeKind;

    use super::*;
    use crate::model::editing::editor::Editor;

    fn overlaps_any(g: &Graph, id: &str) -> bool {
        let i = g.nodes.iter().position(|n| n.id == id).expect("node");
        let r = node_rect(g, i);
        (0..g.nodes.len()).any(|j| j != i && node_rect(g, j).intersects(&r))
    }

    #[test]
    fn nodes_added_at_the_same_spot_never_land_on_each_other() {
        let mut ed = Editor::new(Graph::new("g"));
        ed.auto_layout(Direction::LeftToRight);
        let center = Point::new(300.0, 600.0);
        let seen = Rect { x: center.x - 700.0, y: center.y - 450.0, w: 1400.0, h: 900.0 };
        let mut ids = Vec::new();
        for _ in 0..12 {
            let at = free_spot(ed.graph(), None, seen, Direction::LeftToRight);
            ids.push(ed.add_node(NodeKind::Set, at));
        }
        for id in &ids {
            assert!(!overlaps_any(ed.graph(), id), "{id} overlaps another node");
        }
        // The first one is where it was asked for: the middle of the view was free.
        let first = node_rect(ed.graph(), ed.graph().nodes.iter().position(|n| n.id == ids[0]).expect("first"));
        assert!((first.center().x - center.x).abs() <= GRID && (first.center().y - center.y).abs() <= GRID);
    }

    #[test]
    fn a_full_screen_still_places_the_node_and_a_free_one_keeps_it_on_screen() {
        let mut ed = Editor::new(Graph::new("g"));
        ed.auto_layout(Direction::LeftToRight);
        let seen = Rect { x: -100.0, y: -100.0, w: 900.0, h: 500.0 };
        let mut last = None;
        for _ in 0..30 {
            let at = free_spot(ed.graph(), last, seen, Direction::LeftToRight);
            let id = ed.add_node(NodeKind::Set, at);
            assert!(!overlaps_any(ed.graph(), &id));
            last = Some(node_rect(ed.graph(), ed.graph().nodes.len() - 1));
        }
        // The first few, beside each other, stayed on screen.
        let r = node_rect(ed.graph(), 2);
        assert!(
            r.x >= seen.x && r.x + r.w <= seen.x + seen.w && r.y >= seen.y && r.y + r.h <= seen.y + seen.h,
            "{r:?}"
        );
    }

    #[test]
    fn a_node_added_with_one_selected_goes_after_it_in_the_flow() {
        for flow in [Direction::LeftToRight, Direction::TopDown] {
            let mut ed = Editor::new(Graph::new("g"));
            ed.auto_layout(flow);
            let g = ed.graph();
            let start = node_rect(g, 0);
            let seen = Rect { x: -400.0, y: -400.0, w: 1600.0, h: 1200.0 };
            let at = free_spot(g, Some(start), seen, flow);
            match flow {
                Direction::LeftToRight => assert!(at.x >= start.x + start.w, "{flow:?}: {at:?} right of {start:?}"),
                Direction::TopDown => assert!(at.y >= start.y + start.h, "{flow:?}: {at:?} below {start:?}"),
            }
            let id = ed.add_node(NodeKind::Set, at);
            assert!(!overlaps_any(ed.graph(), &id), "{flow:?}");
        }
    }
}
