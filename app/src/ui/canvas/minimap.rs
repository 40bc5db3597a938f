//! The minimap: every node as a small box, the visible area as a frame; clicking it moves the
//! view there. It is small and see-through, can be hidden (kept as a preference), and never
//! takes a press meant for a node: over one, it fades and lets presses through.

use leptos::prelude::*;
use web_sys::MouseEvent;

use crate::actions::panels;
use crate::model::editing::geometry::{Point, Rect, bounds};
use crate::state::{use_app, use_doc, use_ui, use_view};

const W: f64 = 160.0;
const H: f64 = 100.0;
/// The map's distance from the canvas's bottom-right corner, and its frame (CSS pixels).
const INSET: f64 = 12.0;
const FRAME: f64 = 8.0;
/// The room the "Hide map" button takes below the map.
const TOGGLE_H: f64 = 26.0;

/// The corner of the canvas the minimap covers (screen pixels, from the canvas's top-left),
/// for a canvas `w` × `h`: what Fit view leaves free, and where a node makes it fade.
pub fn covered(w: f64, h: f64) -> Rect {
    let (mw, mh) = (W + FRAME, H + FRAME + TOGGLE_H);
    Rect { x: w - INSET - mw, y: h - INSET - mh, w: mw, h: mh }
}

#[component]
pub fn Minimap() -> impl IntoView {
    let app = use_app();
    let doc = use_doc();
    let view = use_view();
    let ui = use_ui();
    // Fit view keeps the map's corner free while it shows.
    Effect::new(move |_| {
        let room = if ui.minimap.get() {
            let c = covered(0.0, 0.0);
            (c.w + INSET, c.h + INSET)
        } else {
            (0.0, TOGGLE_H + INSET)
        };
        view.corner.set_value(room);
    });
    // Whether a node is drawn under the map: it then lets presses through to it.
    let over_node = Memo::new(move |_| {
        let (w, h) = view.canvas_size.get();
        let corner = covered(w, h);
        let v = view.view.get();
        doc.rects.with(|rects| {
            rects.values().any(|r| {
                let a = v.to_screen(Point::new(r.x, r.y));
                Rect { x: a.x, y: a.y, w: r.w * v.zoom, h: r.h * v.zoom }.intersects(&corner)
            })
        })
    });
    // The area shown: every node, with a margin. It does not follow the view, so panning
    // redraws only the frame, not the boxes.
    let area = Memo::new(move |_| {
        let b = doc.editor.with(|e| bounds(e.graph()));
        let r = b.map_or(crate::model::editing::geometry::Rect { x: 0.0, y: 0.0, w: 800.0, h: 500.0 }, |b| {
            crate::model::editing::geometry::Rect { x: b.x - 200.0, y: b.y - 200.0, w: b.w + 400.0, h: b.h + 400.0 }
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
        <div class="minimap" class:over-node=move || over_node.get() role="group" aria-label="Minimap"
            on:pointerdown=|ev| ev.stop_propagation()>
            <Show when=move || ui.minimap.get()>
                <div class="minimap-map">
                    <svg width=W height=H on:click=on_click>
                        {boxes}
                        <rect class="mini-view"
                            x=move || frame_parts()[0].clone() y=move || frame_parts()[1].clone()
                            width=move || frame_parts()[2].clone() height=move || frame_parts()[3].clone()></rect>
                    </svg>
                </div>
            </Show>
            <button class="minimap-toggle" aria-label="Show minimap" aria-pressed=move || ui.minimap.get().to_string()
                title="Show or hide the minimap" on:click=move |_| panels::toggle_minimap(app)>
                {move || if ui.minimap.get() { "Map ▾" } else { "Map ▸" }}
            </button>
        </div>
    }
}
