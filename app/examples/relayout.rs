use app::model::editor::Editor;
use app::model::geometry::{View, bounds};
use app::model::layout::Direction;
fn main() {
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).unwrap();
        let g = engine::parse_graph(&text).unwrap();
        let best = [Direction::LeftToRight, Direction::TopDown]
            .into_iter()
            .map(|d| {
                let mut ed = Editor::new(g.clone());
                ed.auto_layout(d);
                let b = bounds(ed.graph()).unwrap();
                let zoom = View::fit(&b, 1000.0, 760.0, 48.0).zoom;
                (zoom, d, ed.graph().clone())
            })
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .unwrap();
        let mut out = best.2;
        if let Some(l) = out.layout.as_mut() {
            l.viewport = None;
        }
        std::fs::write(&path, out.to_pretty_json() + "\n").unwrap();
        println!("{path}: {:?} zoom {:.2}", best.1, best.0);
    }
}
