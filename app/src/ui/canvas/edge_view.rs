//! One edge: a curve from the source's output handle to the target's input handle, its label,
//! condition and map (spec 2.7), a wide invisible stroke to click it by, and (when selected) a handle to
//! drag its end to another node.

use leptos::prelude::*;
use web_sys::PointerEvent;

use super::{CanvasCtx, class_list};
use crate::model::geometry::{Point, Rect};
use crate::model::layout::Direction;
use crate::model::palette::shorten;
use crate::state::{use_doc, use_run, use_view};

/// How far before the target's input handle an edge stops.
const HANDLE_GAP: f64 = 7.0;

/// The curve from `a`'s output side to `b`'s input side, and its midpoint. Left to right,
/// edges leave a node's right side; top down, its bottom.
pub fn curve(a: &Rect, b: &Rect, self_loop: bool, flow: Direction) -> (String, Point) {
    if flow == Direction::TopDown {
        let p0 = Point::new(a.x + a.w / 2.0, a.y + a.h);
        // Stop short of the input handle so the arrow head stays visible.
        let p3 = Point::new(b.x + b.w / 2.0, b.y - HANDLE_GAP);
        if self_loop {
            let side = a.x + a.w + 70.0;
            let d =
                format!("M {} {} C {} {}, {} {}, {} {}", p0.x, p0.y, side, p0.y + 80.0, side, p3.y - 80.0, p3.x, p3.y);
            return (d, Point::new(side - 18.0, a.y + a.h / 2.0));
        }
        let k = ((p3.y - p0.y).abs() / 2.0).max(50.0);
        let (c1, c2) = (Point::new(p0.x, p0.y + k), Point::new(p3.x, p3.y - k));
        let mid =
            Point::new((p0.x + 3.0 * c1.x + 3.0 * c2.x + p3.x) / 8.0, (p0.y + 3.0 * c1.y + 3.0 * c2.y + p3.y) / 8.0);
        return (format!("M {} {} C {} {}, {} {}, {} {}", p0.x, p0.y, c1.x, c1.y, c2.x, c2.y, p3.x, p3.y), mid);
    }
    let p0 = Point::new(a.x + a.w, a.y + a.h / 2.0);
    let p3 = Point::new(b.x - HANDLE_GAP, b.y + b.h / 2.0);
    if self_loop {
        let top = a.y - 70.0;
        let d = format!("M {} {} C {} {}, {} {}, {} {}", p0.x, p0.y, p0.x + 80.0, top, p3.x - 80.0, top, p3.x, p3.y);
        return (d, Point::new(a.x + a.w / 2.0, top + 18.0));
    }
    let k = ((p3.x - p0.x).abs() / 2.0).max(60.0);
    let (c1, c2) = (Point::new(p0.x + k, p0.y), Point::new(p3.x - k, p3.y));
    let mid = Point::new((p0.x + 3.0 * c1.x + 3.0 * c2.x + p3.x) / 8.0, (p0.y + 3.0 * c1.y + 3.0 * c2.y + p3.y) / 8.0);
    (format!("M {} {} C {} {}, {} {}, {} {}", p0.x, p0.y, c1.x, c1.y, c2.x, c2.y, p3.x, p3.y), mid)
}

#[component]
pub fn EdgeView(
    index: usize,
    from: String,
    to: String,
    label: Option<String>,
    when: Option<String>,
    /// `<list expression> as <name>` for a map edge.
    map: Option<String>,
) -> impl IntoView {
    let doc = use_doc();
    let view = use_view();
    let run = use_run();
    let ctx = expect_context::<CanvasCtx>();
    // Both ends' boxes (drag included): the curve, and whether the edge is drawn in detail.
    let ends = {
        let (from, to) = (from.clone(), to.clone());
        Memo::new(move |_| Some((view.rect_of(&doc, &from)?, view.rect_of(&doc, &to)?)))
    };
    let geometry = {
        let self_loop = from == to;
        Memo::new(move |_| ends.get().map(|(a, b)| curve(&a, &b, self_loop, doc.flow.get())))
    };
    let detailed = Memo::new(move |_| view.detailed(ends.get().map(|(a, b)| a.union(&b))));
    let selected = Memo::new(move |_| doc.selection.with(|s| s.edges.contains(&index)));
    let taken = Memo::new(move |_| run.edge_taken(index));
    let problem = Memo::new(move |_| doc.edge_problems.with(|m| m.get(&index).cloned().unwrap_or_default()));
    let text = [
        label.clone(),
        when.as_ref().map(|w| format!("when {}", shorten(w, 28))),
        map.as_ref().map(|m| format!("⋔ each of {}", shorten(m, 32))),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(" · ");
    let has_text = !text.is_empty();
    let plain_title = format!("{from} → {to}");
    let on_down = move |ev: PointerEvent| {
        if ev.button() != 0 {
            return;
        }
        ev.stop_propagation();
        doc.edit(|e| e.selection.click_edge(index, ev.shift_key()));
    };
    let wire_from = from.clone();
    let on_end = move |ev: PointerEvent| {
        ev.stop_propagation();
        ev.prevent_default();
        ctx.start_wire(view, &wire_from, Some(index), ev.client_x() as f64, ev.client_y() as f64);
    };
    let d = move || geometry.with(|g| g.as_ref().map(|g| g.0.clone()).unwrap_or_default());
    let mid = move || geometry.with(|g| g.as_ref().map_or(Point::new(0.0, 0.0), |g| g.1));
    let end = {
        let to = to.clone();
        Memo::new(move |_| match (view.rect_of(&doc, &to), doc.flow.get()) {
            (Some(r), Direction::TopDown) => Point::new(r.x + r.w / 2.0, r.y),
            (Some(r), Direction::LeftToRight) => Point::new(r.x, r.y + r.h / 2.0),
            (None, _) => Point::new(0.0, 0.0),
        })
    };
    // One class list, not five reactive toggles: 1,500 edges are drawn at once.
    let (conditional, mapped) = (when.is_some(), map.is_some());
    let classes = move || {
        let flags = [
            (selected.get(), "selected"),
            (taken.get(), "taken"),
            (conditional, "conditional"),
            (mapped, "mapped"),
            (problem.with(|p| !p.is_empty()), "invalid"),
        ];
        class_list("edge", &flags)
    };
    view! {
        <g
            class=classes
            data-edge-from=from.clone()
            data-edge-to=to.clone()
            data-edge-index=index
            data-edge-map=map.is_some().then_some("true")
            data-taken=move || if taken.get() { "true" } else { "false" }
        >
            // The arrow head follows `taken` through the stylesheet (`marker-end`).
            <path class="edge-line" d=d></path>
            // From far out, or away from the screen, a large graph's edges are only their line
            // (see `ViewState::detailed`).
            {move || detailed.get().then(|| {
                let plain_title = plain_title.clone();
                let text = text.clone();
                let on_end = on_end.clone();
                view! {
                    <title>{move || { let p = problem.get(); if p.is_empty() { plain_title.clone() } else { p } }}</title>
                    <path class="edge-hit" d=d on:pointerdown=on_down></path>
                    {has_text.then(|| view! {
                        <text class="edge-label" x=move || mid().x y=move || mid().y - 6.0 text-anchor="middle">{text.clone()}</text>
                    })}
                    <Show when=move || selected.get()>
                        <circle class="edge-end" r="7" cx=move || end.get().x cy=move || end.get().y on:pointerdown=on_end.clone()></circle>
                    </Show>
                }
            })}
        </g>
    }
}

/// The edge being drawn, following the pointer.
#[component]
pub fn WirePreview() -> impl IntoView {
    let doc = use_doc();
    let view = use_view();
    let d = move || {
        let w = view.wire.get()?;
        let a = view.rect_of(&doc, &w.from)?;
        let target = Rect { x: w.to_point.x, y: w.to_point.y, w: 0.0, h: 0.0 };
        Some(curve(&a, &target, false, doc.flow.get()).0)
    };
    view! { <path class="wire" d=move || d().unwrap_or_default() style:display=move || if d().is_some() { "inline" } else { "none" }></path> }
}
