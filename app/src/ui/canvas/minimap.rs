//! The minimap: every node as a small box, the visible area as a frame; clicking it moves the
//! view there.

use leptos::prelude::*;
use web_sys::MouseEvent;

use crate::model::geometry::{Point, bounds};
use crate::state::{use_doc, use_view};

const W: f64 = 200.0;
const H: f64 = 130.0;

#[component]
pub fn Minimap() -> impl IntoView {
    let doc = use_doc();
    let view = use_view();
    // The area shown: every node, with a margin. It does not follow the view, so panning
    // redraws only the frame, not the boxes.
    let area = Memo::new(move |_| {
        let b = doc.editor.with(|e| bounds(e.graph()));
        let r = b.map_or(crate::model::geometry::Rect { x: 0.0, y: 0.0, w: 800.0, h: 500.0 }, |b| {
            crate::model::geometry::Rect { x: b.x - 200.0, y: b.y - 200.0, w: b.w + 400.0, h: b.h + 400.0 }
        });
        let scale = (W / r.w.max(1.0)).min(H / r.h.max(1.0));
        (r, scale)
    });
    let boxes = move || {
        let (r, scale) = area.get();
        doc.rects.with(|rects| {
            rects
                .values()
                .map(|n| {
                    view! {
                        <rect x=(n.x - r.x) * scale y=(n.y - r.y) * scale width=(n.w * scale).max(2.0) height=(n.h * scale).max(2.0)
                            class="mini-node"></rect>
                    }
                })
                .collect_view()
        })
    };
    let frame = move || {
        let (r, scale) = area.get();
        let (w, h) = view.canvas_size.get();
        let v = view.view.get().visible(w, h);
        format!("{} {} {} {}", (v.x - r.x) * scale, (v.y - r.y) * scale, v.w * scale, v.h * scale)
    };
    let on_click = move |ev: MouseEvent| {
        ev.stop_propagation();
        let (r, scale) = area.get_untracked();
        let p = Point::new(ev.offset_x() as f64 / scale + r.x, ev.offset_y() as f64 / scale + r.y);
        view.center_on(p);
    };
    let frame_parts = move || frame().split(' ').map(str::to_string).collect::<Vec<_>>();
    view! {
        <div class="minimap" role="group" aria-label="Minimap" on:pointerdown=|ev| ev.stop_propagation()>
            <svg width=W height=H on:click=on_click>
                {boxes}
                <rect class="mini-view"
                    x=move || frame_parts()[0].clone() y=move || frame_parts()[1].clone()
                    width=move || frame_parts()[2].clone() height=move || frame_parts()[3].clone()></rect>
            </svg>
        </div>
    }
}
