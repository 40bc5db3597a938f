//! Moving between nodes from the keyboard: an arrow key goes to the nearest node that way,
//! a node connected to the one in focus first, so following a graph's flow takes one press
//! per node.

use engine::Graph;

use crate::model::editing::geometry::{Point, node_rect};

/// A direction an arrow key points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arrow {
    Left,
    Right,
    Up,
    Down,
}

impl Arrow {
    /// The arrow a key name (`ArrowLeft`…) stands for.
    pub fn from_key(key: &str) -> Option<Arrow> {
        Some(match key {
            "ArrowLeft" => Arrow::Left,
            "ArrowRight" => Arrow::Right,
            "ArrowUp" => Arrow::Up,
            "ArrowDown" => Arrow::Down,
            _ => return None,
        })
    }

    /// How far `d` goes this way (along) and how far off it (across).
    fn split(self, d: Point) -> (f64, f64) {
        match self {
            Arrow::Left => (-d.x, d.y.abs()),
            Arrow::Right => (d.x, d.y.abs()),
            Arrow::Up => (-d.y, d.x.abs()),
            Arrow::Down => (d.y, d.x.abs()),
        }
    }

    /// The step a node moved by this arrow takes (canvas units).
    pub fn offset(self, step: f64) -> Point {
        match self {
            Arrow::Left => Point::new(-step, 0.0),
            Arrow::Right => Point::new(step, 0.0),
            Arrow::Up => Point::new(0.0, -step),
            Arrow::Down => Point::new(0.0, step),
        }
    }
}

/// The node an arrow leads to from `from`: among the nodes whose centre lies that way (within
/// 45° of it), a node connected to `from` if there is one, else any; the nearest, counting
/// distance off the arrow's line double.
pub fn neighbour(graph: &Graph, from: &str, arrow: Arrow) -> Option<String> {
    let index = graph.nodes.iter().position(|n| n.id == from)?;
    let here = node_rect(graph, index).center();
    let connected =
        |id: &str| graph.edges.iter().any(|e| (e.from == from && e.to == id) || (e.to == from && e.from == id));
    let mut best: Option<(bool, f64, &str)> = None;
    for (i, n) in graph.nodes.iter().enumerate() {
        if i == index {
            continue;
        }
        let c = node_rect(graph, i).center();
        let (along, across) = arrow.split(Point::new(c.x - here.x, c.y - here.y));
        if along <= 0.0 || across > along {
            continue;
        }
        let key = (!connected(&n.id), along + 2.0 * across, n.id.as_str());
        if best.is_none_or(|b| (key.0, key.1) < (b.0, b.1)) {
            best = Some(key);
        }
    }
    best.map(|(_, _, id)| id.to_string())
}

/// The node the keyboard starts on when the canvas gets focus with nothing selected: the
/// first start node, else the first node.
pub fn first_node(graph: &Graph) -> Option<String> {
    graph
        .nodes
        .iter()
        .find(|n| n.kind == engine::document::NodeKind::Start)
        .or(graph.nodes.first())
        .map(|n| n.id.clone())
}

#[cfg(test)]
mod tests {
    use engine::document::NodeKind;

    use super::*;
    use crate::model::editing::editor::Editor;
    use crate::model::editing::layout::Direction;

    /// start → a → end, with b hanging off a (a → b), laid out left to right.
    fn graph() -> Graph {
        let mut ed = Editor::new(Graph::new("g"));
        let a = ed.add_node(NodeKind::Set, Point::new(0.0, 0.0));
        let b = ed.add_node(NodeKind::Set, Point::new(0.0, 0.0));
        ed.selection.clear();
        ed.selection.edges.insert(0);
        ed.delete_selection();
        for (f, t) in [("start", a.as_str()), (a.as_str(), "end"), (a.as_str(), b.as_str())] {
            ed.connect(f, t).expect("connect");
        }
        ed.auto_layout(Direction::LeftToRight);
        ed.graph().clone()
    }

    #[test]
    fn arrows_follow_the_flow_and_come_back() {
        let g = graph();
        let a = neighbour(&g, "start", Arrow::Right).expect("a node right of start");
        assert_eq!(a, g.nodes[2].id);
        assert_eq!(neighbour(&g, &a, Arrow::Left).as_deref(), Some("start"));
        // Nothing lies left of the start.
        assert_eq!(neighbour(&g, "start", Arrow::Left), None);
        // From a, right leads to one of its successors; up or down to the other, if apart.
        let next = neighbour(&g, &a, Arrow::Right).expect("a successor");
        assert!(next == "end" || next == g.nodes[3].id);
    }

    #[test]
    fn the_keyboard_starts_on_the_start_node() {
        assert_eq!(first_node(&graph()).as_deref(), Some("start"));
        assert_eq!(first_node(&Graph { nodes: Vec::new(), ..Graph::new("e") }), None);
    }
}
