//! Automatic layered layout (Sugiyama, through the `rust-sugiyama` crate), left to right or
//! top down.

use std::collections::BTreeSet;

use engine::Graph;
use engine::document::Position;
use rust_sugiyama::configure::Config;

use super::geometry::{NODE_H, NODE_W, position, snap};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    LeftToRight,
    TopDown,
}

/// New positions for every node.
pub fn auto_layout(graph: &Graph, direction: Direction) -> Vec<(String, Position)> {
    let n = graph.nodes.len();
    if n == 0 {
        return Vec::new();
    }
    let index = |id: &str| graph.nodes.iter().position(|x| x.id == id);
    // The crate lays out top-down; for left-to-right, lay out the transposed boxes.
    let (w, h) = match direction {
        Direction::TopDown => (NODE_W, NODE_H),
        Direction::LeftToRight => (NODE_H, NODE_W),
    };
    let vertices: Vec<(u32, (f64, f64))> = (0..n as u32).map(|i| (i, (w, h))).collect();
    let mut edges = BTreeSet::new();
    for e in &graph.edges {
        if let (Some(a), Some(b)) = (index(&e.from), index(&e.to))
            && a != b
        {
            edges.insert((a as u32, b as u32));
        }
    }
    let edges: Vec<(u32, u32)> = edges.into_iter().collect();
    let config = Config { vertex_spacing: 60.0, ..Config::default() };
    let components = rust_sugiyama::from_vertices_and_edges(&vertices, &edges, &config);

    // Components side by side (across the flow), largest first as the crate returns them.
    let mut out = Vec::with_capacity(n);
    let mut offset = 0.0;
    for (coords, width, _height) in components {
        let min_x = coords.iter().map(|(_, (x, _))| *x).fold(f64::INFINITY, f64::min);
        let min_y = coords.iter().map(|(_, (_, y))| *y).fold(f64::INFINITY, f64::min);
        for (v, (x, y)) in &coords {
            let (x, y) = (x - min_x + offset, y - min_y);
            let (px, py) = match direction {
                Direction::TopDown => (x * 1.1, y * 1.25),
                Direction::LeftToRight => (y * 1.05, x * 1.15),
            };
            out.push((graph.nodes[*v].id.clone(), position(snap(px), snap(py))));
        }
        offset += width.max(w) + 80.0;
    }
    out
}

/// Which way a drawn graph flows: top-down when most edges go more down than across.
pub fn flow_direction(graph: &Graph) -> Direction {
    let (mut down, mut across) = (0, 0);
    for e in &graph.edges {
        let (Some(a), Some(b)) =
            (graph.nodes.iter().position(|n| n.id == e.from), graph.nodes.iter().position(|n| n.id == e.to))
        else {
            continue;
        };
        if a == b {
            continue;
        }
        let (ra, rb) = (super::geometry::node_rect(graph, a), super::geometry::node_rect(graph, b));
        if (rb.y - ra.y).abs() > (rb.x - ra.x).abs() {
            down += 1;
        } else {
            across += 1;
        }
    }
    if down > across { Direction::TopDown } else { Direction::LeftToRight }
}

#[cfg(test)]
mod tests {
    use super::*;
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
        let mut ed = crate::model::editor::Editor::new(chain_with_loop());
        ed.auto_layout(Direction::TopDown);
        assert_eq!(flow_direction(ed.graph()), Direction::TopDown);
        ed.auto_layout(Direction::LeftToRight);
        assert_eq!(flow_direction(ed.graph()), Direction::LeftToRight);
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
