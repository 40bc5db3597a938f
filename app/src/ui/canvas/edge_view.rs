//! One edge: its path from the source's output handle to the target's input handle (see
//! [`route`]), its label, condition and map (format.md §5, map edges) on a background where no node covers
//! it, a wide invisible stroke to click it by, and (when selected) a handle to drag its end to
//! another node.

use std::collections::HashMap;
use std::sync::Arc;

use leptos::prelude::*;
use web_sys::PointerEvent;

use crate::model::editing::geometry::{Point, Rect};
use crate::model::editing::gesture::Target;
use crate::model::editing::layout::{
    Direction, LabelSpot, Route, label_size, label_text, place_labels, route, wire_route,
};
use crate::state::{DocState, use_doc, use_run, use_view};
use crate::ui::canvas::{CanvasCtx, class_list};

/// Every label's spot, worked out for all labels together so that they keep clear of each
/// other as well as of the nodes. Recomputed when a node is dropped or an edge changes, not
/// while nodes are dragged: a spot is kept relative to its edge's path, which follows the drag.
#[derive(Clone, Copy)]
struct LabelSpots(Memo<Arc<HashMap<usize, LabelSpot>>>);

impl LabelSpots {
    /// The canvas's spots, set up by the first edge with a label. They go on the app's top
    /// owner, where every edge finds them and where they outlive the edge that made them; a
    /// graph without labels never computes them.
    fn of(doc: DocState) -> LabelSpots {
        if let Some(spots) = use_context::<LabelSpots>() {
            return spots;
        }
        let mut top = Owner::current();
        while let Some(parent) = top.as_ref().and_then(Owner::parent) {
            top = Some(parent);
        }
        let make = move || {
            let spots = LabelSpots(Self::compute(doc));
            provide_context(spots);
            spots
        };
        match top {
            Some(owner) => owner.with(make),
            None => make(),
        }
    }

    fn compute(doc: DocState) -> Memo<Arc<HashMap<usize, LabelSpot>>> {
        // The edges with a label and their labels' sizes: every edit reruns this, but the
        // placement below only runs when it changed (not on a click that selects something).
        let labelled = Memo::new(move |_| {
            doc.editor.with(|e| {
                let edges = e.graph().edges.iter().enumerate();
                edges
                    .filter_map(|(i, x)| {
                        let text = edge_text(x);
                        (!text.is_empty()).then(|| (i, x.from.clone(), x.to.clone(), label_size(&text)))
                    })
                    .collect::<Vec<_>>()
            })
        });
        Memo::new(move |_| {
            let flow = doc.flow.get();
            labelled.with(|labelled| {
                doc.rects.with(|rects| {
                    let nodes: Vec<Rect> = rects.values().copied().collect();
                    let mut index = Vec::with_capacity(labelled.len());
                    let mut labels = Vec::with_capacity(labelled.len());
                    for (i, from, to, size) in labelled {
                        if let (Some(a), Some(b)) = (rects.get(from), rects.get(to)) {
                            index.push(*i);
                            labels.push((route(a, b, from == to, flow, nodes.iter().copied()), *size));
                        }
                    }
                    Arc::new(index.into_iter().zip(place_labels(&labels, &nodes, flow)).collect())
                })
            })
        })
    }
}

/// What an edge of the document says on the canvas (as [`EdgeView`] shows it).
fn edge_text(e: &engine::Edge) -> String {
    let map = e.map.as_ref().map(|m| format!("{m} as {}", e.as_name.as_deref().unwrap_or("item")));
    label_text(e.label.as_deref(), e.when.as_deref(), map.as_deref())
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
    // Both ends' boxes (drag included): the path, and whether the edge is drawn in detail.
    let ends = {
        let (from, to) = (from.clone(), to.clone());
        Memo::new(move |_| Some((view.rect_of(&doc, &from)?, view.rect_of(&doc, &to)?)))
    };
    // The rest of the graph (which a loop back's lane keeps clear of) is read untracked: a
    // node dropped elsewhere does not make every edge work out its path again; this one's is
    // when its own ends move.
    let path = {
        let self_loop = from == to;
        Memo::new(move |_| {
            let (a, b) = ends.get()?;
            let flow = doc.flow.get();
            Some(doc.rects.with_untracked(|m| route(&a, &b, self_loop, flow, m.values().copied())))
        })
    };
    let detailed = Memo::new(move |_| view.detailed(ends.get().map(|(a, b)| a.union(&b))));
    let selected = Memo::new(move |_| doc.selection.with(|s| s.edges.contains(&index)));
    // One signal of this edge's own: a step wakes only the edges it changed.
    let taken = {
        let mark = run.edge_mark_signal(index);
        Signal::derive(move || mark.get())
    };
    let problem = Memo::new(move |_| doc.edge_problems.with(|m| m.get(&index).cloned().unwrap_or_default()));
    let text = label_text(label.as_deref(), when.as_deref(), map.as_deref());
    let has_text = !text.is_empty();
    // The tooltip says all of it: the names of both ends, the label, the whole condition.
    let plain_title = {
        let parts =
            [label.clone(), when.as_ref().map(|w| format!("when {w}")), map.as_ref().map(|m| format!("each of {m}"))];
        let about = parts.into_iter().flatten().collect::<Vec<_>>().join(" · ");
        if about.is_empty() { format!("{from} → {to}") } else { format!("{from} → {to}: {about}") }
    };
    let on_down = move |ev: PointerEvent| {
        if ev.button() != 0 {
            return;
        }
        ev.stop_propagation();
        ctx.press(Target::Edge(index), &ev);
    };
    let wire_from = from.clone();
    let on_end = move |ev: PointerEvent| {
        ev.stop_propagation();
        ev.prevent_default();
        ctx.press(Target::EdgeEnd { edge: index, from: wire_from.clone() }, &ev);
    };
    let d = move || path.with(|p| p.as_ref().map(Route::svg).unwrap_or_default());
    // The label's box: its spot along the path (worked out with every other label's), or the
    // middle until that is known. Only an edge with a label asks for the spots.
    let label_box = has_text.then(|| {
        let spots = LabelSpots::of(doc);
        let spot = Memo::new(move |_| spots.0.with(|m| m.get(&index).copied()).unwrap_or(LabelSpot::MIDDLE));
        let (w, h) = label_size(&text);
        Memo::new(move |_| {
            let c = path.with(|p| p.as_ref().map(|p| spot.get().centre(p)))?;
            Some(Rect { x: c.x - w / 2.0, y: c.y - h / 2.0, w, h })
        })
    });
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
                    {label_box.map(|b| {
                        let at = move |f: fn(&Rect) -> f64| move || b.with(|r| r.as_ref().map_or(0.0, f));
                        view! {
                            <rect class="edge-label-bg" rx="4" x=at(|r| r.x) y=at(|r| r.y) width=at(|r| r.w) height=at(|r| r.h)></rect>
                            <text class="edge-label" x=at(|r| r.x + r.w / 2.0) y=at(|r| r.y + r.h / 2.0)
                                text-anchor="middle" dominant-baseline="central">{text.clone()}</text>
                        }
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
        Some(wire_route(&a, w.to_point, doc.flow.get()).svg())
    };
    view! { <path class="wire" d=move || d().unwrap_or_default() style:display=move || if d().is_some() { "inline" } else { "none" }></path> }
}
