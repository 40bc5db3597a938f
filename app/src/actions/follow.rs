//! The canvas keeps in view what the person is following: while a run plays or steps, the
//! nodes of the step shown (or running now) are brought on screen as each step comes; and
//! when the canvas gets smaller (the run panel opened or dragged taller), the selected node
//! stays on it. The view pans as little as it can, and not at all when they are in view.

use leptos::prelude::*;

use crate::model::geometry::Rect;
use crate::model::playback::NodeStatus;
use crate::state::{DocState, RunCtl, ViewState};

/// Starts following; called once at start-up.
pub fn install(doc: DocState, view: ViewState, ctl: RunCtl) {
    follow_the_run(doc, view, ctl);
    keep_the_selection(doc, view);
}

fn follow_the_run(doc: DocState, view: ViewState, ctl: RunCtl) {
    Effect::new(move |_| {
        let live = ctl.playing.get() || ctl.busy.get();
        if !live || !ctl.in_step.get() {
            return;
        }
        let mut ids: Vec<String> = ctl.running.with(|r| r.iter().cloned().collect());
        if ids.is_empty() {
            ids = ctl
                .statuses
                .with(|m| m.iter().filter(|(_, s)| **s == NodeStatus::Active).map(|(id, _)| id.clone()).collect());
        }
        if let Some(r) = untrack(|| rect_of(doc, &ids)) {
            view.reveal(r);
        }
    });
}

fn keep_the_selection(doc: DocState, view: ViewState) {
    Effect::new(move |previous: Option<(f64, f64)>| {
        let size = view.canvas_size.get();
        let shrank = previous.is_some_and(|(w, h)| size.0 < w || size.1 < h);
        if shrank {
            let selected: Vec<String> = untrack(|| doc.editor.with(|e| e.selection.nodes.iter().cloned().collect()));
            if selected.len() == 1
                && let Some(r) = untrack(|| rect_of(doc, &selected))
            {
                view.reveal(r);
            }
        }
        size
    });
}

/// The box around nodes `ids` on the canvas (those it shows).
fn rect_of(doc: DocState, ids: &[String]) -> Option<Rect> {
    doc.rects.with(|rects| ids.iter().filter_map(|id| rects.get(id)).copied().reduce(|a, b| a.union(&b)))
}
