//! The canvas's pointer gestures as plain data: a press on the background, a node, an output
//! handle, an edge or an edge's end, the moves after it and the release become what the
//! canvas shows meanwhile ([`Show`]: the view panned, a marquee, nodes dragged, a wire) and,
//! at the end, what the document gets ([`Command`]: select, move, connect). The canvas
//! component only forwards its pointer events here and applies what comes back.
//!
//! Points given to [`Gestures`] are screen points relative to the canvas; the view in effect
//! turns them into canvas points.

use crate::model::editing::editor::Editor;
use crate::model::editing::geometry::{Point, Rect, View, node_rect};
use crate::model::editing::selection::Selection;

/// Screen distance under which a press counts as a click, not a drag.
pub const CLICK_SLOP: f64 = 3.0;

/// What a press landed on.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    Background,
    Node(String),
    /// A node's output handle: drawing a new edge from the node.
    OutHandle(String),
    /// An edge's body: selecting it.
    Edge(usize),
    /// A selected edge's target end: moving it to another node.
    EdgeEnd {
        edge: usize,
        from: String,
    },
}

/// An edge being drawn from an output handle (or an edge end being moved).
#[derive(Debug, Clone, PartialEq)]
pub struct Wire {
    pub from: String,
    /// Set when an existing edge is being reconnected.
    pub edge: Option<usize>,
    pub to_point: Point,
}

/// What the canvas shows while a gesture goes on.
#[derive(Debug, Clone, PartialEq)]
pub enum Show {
    View(View),
    Marquee(Option<Rect>),
    /// The nodes dragged and how far (canvas units).
    Drag {
        ids: Vec<String>,
        offset: (f64, f64),
    },
    DragEnded,
    Wire(Option<Wire>),
    /// The wire's loose end follows the pointer.
    WireTo(Point),
}

/// What a gesture does to the document.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    ClearSelection,
    /// A click on a node (shift: added to the selection, or taken out of it).
    ClickNode {
        id: String,
        additive: bool,
    },
    ClickEdge {
        index: usize,
        additive: bool,
    },
    SelectArea {
        area: Rect,
        additive: bool,
    },
    /// The nodes moved by `by` (one step of undo).
    MoveNodes {
        ids: Vec<String>,
        by: Point,
    },
    Connect {
        from: String,
        to: String,
    },
    Reconnect {
        edge: usize,
        from: String,
        to: String,
    },
}

/// What one pointer event comes to: things to show, then commands, in that order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Outcome {
    pub show: Vec<Show>,
    pub commands: Vec<Command>,
}

impl Outcome {
    fn show(show: Show) -> Outcome {
        Outcome { show: vec![show], commands: Vec::new() }
    }

    fn command(command: Command) -> Outcome {
        Outcome { show: Vec::new(), commands: vec![command] }
    }
}

/// A gesture in progress.
#[derive(Debug, Clone, PartialEq)]
enum Gesture {
    Pan { start: Point, view: View, moved: bool },
    Marquee { start: Point, area: Rect, additive: bool },
    Move { start: Point, ids: Vec<String>, offset: (f64, f64), moved: bool },
    Wire { from: String, edge: Option<usize> },
}

/// The canvas's pointer, from press to release.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Gestures {
    current: Option<Gesture>,
}

impl Gestures {
    /// Whether a gesture is going on.
    pub fn active(&self) -> bool {
        self.current.is_some()
    }

    /// Whether an edge is being drawn (the release then asks which node is under it).
    pub fn wiring(&self) -> bool {
        matches!(self.current, Some(Gesture::Wire { .. }))
    }

    /// The main button pressed on `target` at `screen`, with shift held or not, the view being
    /// `view` and the selection `selection`.
    pub fn down(&mut self, target: Target, screen: Point, shift: bool, view: View, selection: &Selection) -> Outcome {
        let at = view.to_canvas(screen);
        match target {
            Target::Background if shift => {
                let area = Rect::from_corners(at, at);
                self.current = Some(Gesture::Marquee { start: at, area, additive: true });
                Outcome::show(Show::Marquee(Some(area)))
            }
            Target::Background => {
                self.current = Some(Gesture::Pan { start: screen, view, moved: false });
                Outcome::default()
            }
            Target::Node(id) => {
                // A press on a selected node keeps the selection (to drag all of it).
                let mut selected = selection.clone();
                let click = shift || !selected.nodes.contains(&id);
                if click {
                    selected.click_node(&id, shift);
                }
                let ids = selected.nodes.into_iter().collect();
                self.current = Some(Gesture::Move { start: at, ids, offset: (0.0, 0.0), moved: false });
                if click { Outcome::command(Command::ClickNode { id, additive: shift }) } else { Outcome::default() }
            }
            Target::OutHandle(from) => self.start_wire(from, None, at),
            Target::EdgeEnd { edge, from } => self.start_wire(from, Some(edge), at),
            Target::Edge(index) => Outcome::command(Command::ClickEdge { index, additive: shift }),
        }
    }

    fn start_wire(&mut self, from: String, edge: Option<usize>, at: Point) -> Outcome {
        self.current = Some(Gesture::Wire { from: from.clone(), edge });
        Outcome::show(Show::Wire(Some(Wire { from, edge, to_point: at })))
    }

    /// The pointer moved to `screen`, the view being `view`.
    pub fn moved(&mut self, screen: Point, view: View) -> Outcome {
        let at = view.to_canvas(screen);
        match &mut self.current {
            None => Outcome::default(),
            Some(Gesture::Pan { start, view: v0, moved }) => {
                *moved = *moved || (screen.x - start.x).abs() + (screen.y - start.y).abs() > CLICK_SLOP;
                let panned = View { x: v0.x + screen.x - start.x, y: v0.y + screen.y - start.y, zoom: v0.zoom };
                Outcome::show(Show::View(panned))
            }
            Some(Gesture::Marquee { start, area, .. }) => {
                *area = Rect::from_corners(*start, at);
                Outcome::show(Show::Marquee(Some(*area)))
            }
            Some(Gesture::Move { start, ids, offset, moved }) => {
                let (dx, dy) = (at.x - start.x, at.y - start.y);
                *moved = *moved || (dx.abs() + dy.abs()) * view.zoom > CLICK_SLOP;
                if !*moved {
                    return Outcome::default();
                }
                *offset = (dx, dy);
                Outcome::show(Show::Drag { ids: ids.clone(), offset: *offset })
            }
            Some(Gesture::Wire { .. }) => Outcome::show(Show::WireTo(at)),
        }
    }

    /// The button was released, over node `over` (if any).
    pub fn up(&mut self, over: Option<String>) -> Outcome {
        match self.current.take() {
            None => Outcome::default(),
            // A press on the background that did not pan is a click: it clears the selection.
            Some(Gesture::Pan { moved, .. }) => {
                if moved {
                    Outcome::default()
                } else {
                    Outcome::command(Command::ClearSelection)
                }
            }
            Some(Gesture::Marquee { area, additive, .. }) => {
                Outcome { show: vec![Show::Marquee(None)], commands: vec![Command::SelectArea { area, additive }] }
            }
            Some(Gesture::Move { ids, offset, moved, .. }) => Outcome {
                show: vec![Show::DragEnded],
                commands: if moved {
                    vec![Command::MoveNodes { ids, by: Point::new(offset.0, offset.1) }]
                } else {
                    Vec::new()
                },
            },
            Some(Gesture::Wire { from, edge }) => {
                let command = over.map(|to| match edge {
                    Some(edge) => Command::Reconnect { edge, from, to },
                    None => Command::Connect { from, to },
                });
                Outcome { show: vec![Show::Wire(None)], commands: command.into_iter().collect() }
            }
        }
    }
}

impl Command {
    /// Carries the command out on `editor`; why not, in words for the person, when it cannot be.
    pub fn apply(self, editor: &mut Editor) -> Result<(), String> {
        match self {
            Command::ClearSelection => editor.selection.clear(),
            Command::ClickNode { id, additive } => editor.selection.click_node(&id, additive),
            Command::ClickEdge { index, additive } => editor.selection.click_edge(index, additive),
            Command::SelectArea { area, additive } => {
                let graph = editor.graph().clone();
                editor.selection.marquee(&graph, &area, additive);
            }
            Command::MoveNodes { ids, by } => {
                let graph = editor.graph();
                let moves: Vec<(String, Point)> = ids
                    .iter()
                    .filter_map(|id| {
                        let i = graph.nodes.iter().position(|n| &n.id == id)?;
                        let r = node_rect(graph, i);
                        Some((id.clone(), Point::new(r.x + by.x, r.y + by.y)))
                    })
                    .collect();
                editor.move_nodes(&moves);
            }
            Command::Connect { from, to } => {
                editor.connect(&from, &to).map_err(|why| format!("Cannot connect {from} → {to}: {why}"))?;
            }
            Command::Reconnect { edge, from, to } => {
                editor.reconnect(edge, &from, &to).map_err(|why| format!("Cannot connect {from} → {to}: {why}"))?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::Graph;
    use engine::document::{Node, NodeKind};

    /// start → a → end, at known places (the grid is 20 units).
    fn editor() -> Editor {
        let mut g = Graph::new("g");
        g.nodes.insert(1, Node::new("a", NodeKind::Set));
        g.edges = vec![engine::document::Edge::new("start", "a"), engine::document::Edge::new("a", "end")];
        let mut e = Editor::new(g);
        e.move_nodes(&[
            ("start".into(), Point::new(0.0, 0.0)),
            ("a".into(), Point::new(300.0, 0.0)),
            ("end".into(), Point::new(600.0, 0.0)),
        ]);
        // Placed, with nothing to undo yet.
        Editor::new(e.document().clone())
    }

    fn run(e: &mut Editor, outcome: Outcome) -> Vec<String> {
        outcome.commands.into_iter().filter_map(|c| c.apply(e).err()).collect()
    }

    fn at(e: &Editor, id: &str) -> Point {
        let i = e.graph().nodes.iter().position(|n| n.id == id).unwrap();
        let r = node_rect(e.graph(), i);
        Point::new(r.x, r.y)
    }

    const VIEW: View = View { x: 0.0, y: 0.0, zoom: 1.0 };

    #[test]
    fn dragging_a_node_shows_it_following_and_moves_it_once_on_release() {
        let mut e = editor();
        let mut g = Gestures::default();
        let down = g.down(Target::Node("a".into()), Point::new(310.0, 10.0), false, VIEW, &e.selection);
        assert_eq!(down.commands, [Command::ClickNode { id: "a".into(), additive: false }]);
        run(&mut e, down);
        // Under the click distance nothing moves yet.
        assert_eq!(g.moved(Point::new(311.0, 11.0), VIEW), Outcome::default());
        let shown = g.moved(Point::new(350.0, 50.0), VIEW);
        assert_eq!(shown.show, [Show::Drag { ids: vec!["a".into()], offset: (40.0, 40.0) }]);
        let up = g.up(None);
        assert_eq!(up.show, [Show::DragEnded]);
        run(&mut e, up);
        assert_eq!(at(&e, "a"), Point::new(340.0, 40.0));
        assert!(!g.active());
        // One step of undo takes it back.
        e.undo();
        assert_eq!(at(&e, "a"), Point::new(300.0, 0.0));
    }

    #[test]
    fn dragging_a_selected_node_drags_the_whole_selection() {
        let mut e = editor();
        e.selection.nodes.extend(["a".to_string(), "end".to_string()]);
        let mut g = Gestures::default();
        let down = g.down(Target::Node("a".into()), Point::new(310.0, 10.0), false, VIEW, &e.selection);
        assert!(down.commands.is_empty(), "the selection stays");
        g.moved(Point::new(330.0, 110.0), VIEW);
        run(&mut e, g.up(None));
        assert_eq!(at(&e, "a"), Point::new(320.0, 100.0));
        assert_eq!(at(&e, "end"), Point::new(620.0, 100.0));
        assert_eq!(at(&e, "start"), Point::new(0.0, 0.0));
    }

    #[test]
    fn a_click_on_a_node_selects_it_and_moves_nothing() {
        let mut e = editor();
        e.selection.nodes.insert("end".into());
        let mut g = Gestures::default();
        let pressed = g.down(Target::Node("a".into()), Point::new(310.0, 10.0), false, VIEW, &e.selection);
        run(&mut e, pressed);
        assert_eq!(g.up(None), Outcome { show: vec![Show::DragEnded], commands: Vec::new() });
        assert_eq!(e.selection, Selection::only_node("a"));
        assert!(!e.can_undo());
    }

    #[test]
    fn shift_click_adds_a_node_to_the_selection_and_takes_it_out_again() {
        let mut e = editor();
        e.selection = Selection::only_node("a");
        let mut g = Gestures::default();
        let pressed = g.down(Target::Node("end".into()), Point::new(610.0, 10.0), true, VIEW, &e.selection);
        run(&mut e, pressed);
        run(&mut e, g.up(None));
        assert_eq!(e.selection.nodes.iter().collect::<Vec<_>>(), ["a", "end"]);
        let pressed = g.down(Target::Node("a".into()), Point::new(310.0, 10.0), true, VIEW, &e.selection);
        run(&mut e, pressed);
        run(&mut e, g.up(None));
        assert_eq!(e.selection.nodes.iter().collect::<Vec<_>>(), ["end"]);
    }

    #[test]
    fn an_edge_click_selects_it_and_shift_adds_it() {
        let mut e = editor();
        let mut g = Gestures::default();
        let pressed = g.down(Target::Edge(1), Point::new(500.0, 30.0), false, VIEW, &e.selection);
        run(&mut e, pressed);
        assert!(!g.active());
        assert_eq!(e.selection.edges.iter().copied().collect::<Vec<_>>(), [1]);
        let pressed = g.down(Target::Edge(0), Point::new(200.0, 30.0), true, VIEW, &e.selection);
        run(&mut e, pressed);
        assert_eq!(e.selection.edges.iter().copied().collect::<Vec<_>>(), [0, 1]);
    }

    #[test]
    fn dragging_the_background_pans_and_a_click_there_clears_the_selection() {
        let mut e = editor();
        e.selection = Selection::only_node("a");
        let mut g = Gestures::default();
        let v0 = View { x: 10.0, y: 20.0, zoom: 2.0 };
        assert_eq!(g.down(Target::Background, Point::new(100.0, 100.0), false, v0, &e.selection), Outcome::default());
        let shown = g.moved(Point::new(130.0, 90.0), v0);
        assert_eq!(shown.show, [Show::View(View { x: 40.0, y: 10.0, zoom: 2.0 })]);
        // A pan keeps the selection.
        assert_eq!(g.up(None), Outcome::default());
        assert_eq!(e.selection, Selection::only_node("a"));
        // A click (no pan) clears it.
        g.down(Target::Background, Point::new(100.0, 100.0), false, v0, &e.selection);
        g.moved(Point::new(101.0, 101.0), v0);
        run(&mut e, g.up(None));
        assert!(e.selection.is_empty());
    }

    #[test]
    fn a_shift_drag_on_the_background_selects_the_nodes_its_marquee_touches() {
        let mut e = editor();
        e.selection = Selection::only_node("start");
        let mut g = Gestures::default();
        // The view is zoomed out: screen points are canvas points halved.
        let v = View { x: 0.0, y: 0.0, zoom: 0.5 };
        let down = g.down(Target::Background, Point::new(140.0, -10.0), true, v, &e.selection);
        assert_eq!(
            down.show,
            [Show::Marquee(Some(Rect::from_corners(Point::new(280.0, -20.0), Point::new(280.0, -20.0))))]
        );
        let shown = g.moved(Point::new(320.0, 40.0), v);
        let area = Rect::from_corners(Point::new(280.0, -20.0), Point::new(640.0, 80.0));
        assert_eq!(shown.show, [Show::Marquee(Some(area))]);
        let up = g.up(None);
        assert_eq!(up.show, [Show::Marquee(None)]);
        run(&mut e, up);
        // Added to what was selected: shift marquees add.
        assert_eq!(e.selection.nodes.iter().collect::<Vec<_>>(), ["a", "end", "start"]);
    }

    #[test]
    fn a_wire_dropped_on_a_node_connects_it_and_elsewhere_connects_nothing() {
        let mut e = editor();
        let mut g = Gestures::default();
        let down = g.down(Target::OutHandle("start".into()), Point::new(180.0, 30.0), false, VIEW, &e.selection);
        assert_eq!(
            down.show,
            [Show::Wire(Some(Wire { from: "start".into(), edge: None, to_point: Point::new(180.0, 30.0) }))]
        );
        assert!(g.wiring());
        assert_eq!(g.moved(Point::new(610.0, 20.0), VIEW).show, [Show::WireTo(Point::new(610.0, 20.0))]);
        let up = g.up(Some("end".into()));
        assert_eq!(up.show, [Show::Wire(None)]);
        assert!(run(&mut e, up).is_empty());
        assert!(e.graph().edges.iter().any(|x| x.from == "start" && x.to == "end"));
        // The new edge is selected.
        assert_eq!(e.selection.edges.len(), 1);

        // Dropped on the background: the wire goes, nothing is connected.
        let edges = e.graph().edges.len();
        g.down(Target::OutHandle("a".into()), Point::new(480.0, 30.0), false, VIEW, &e.selection);
        let up = g.up(None);
        assert_eq!(up, Outcome { show: vec![Show::Wire(None)], commands: Vec::new() });
        assert_eq!(e.graph().edges.len(), edges);
    }

    #[test]
    fn a_wire_that_cannot_connect_says_why() {
        let mut e = editor();
        let mut g = Gestures::default();
        g.down(Target::OutHandle("a".into()), Point::new(480.0, 30.0), false, VIEW, &e.selection);
        let why = run(&mut e, g.up(Some("start".into())));
        assert_eq!(why.len(), 1);
        assert!(why[0].starts_with("Cannot connect a → start: "), "{why:?}");
    }

    #[test]
    fn moving_an_edge_end_reconnects_the_edge() {
        let mut e = editor();
        let mut g = Gestures::default();
        let target = Target::EdgeEnd { edge: 0, from: "start".into() };
        g.down(target, Point::new(290.0, 30.0), false, VIEW, &e.selection);
        run(&mut e, g.up(Some("end".into())));
        assert_eq!((e.graph().edges[0].from.as_str(), e.graph().edges[0].to.as_str()), ("start", "end"));
    }
}
