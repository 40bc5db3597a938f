//! The canvas keeps in view what the person is following: while a run plays or steps, the
//! nodes of the step shown (or running now) are brought on screen as each step comes; and
//! when the canvas gets smaller (the run panel opened or dragged taller), the selected node
//! stays on it. The view pans as little as it can, and not at all when they are in view.

use leptos::prelude::*;

use crate::model::editing::geometry::Rect;
use crate::model::runs::playback::Playback;
use crate::state::{App, DocState, RunCtl};

/// Starts following; called once at start-up.
pub fn install(app: App) {
    follow_the_run(app);
    keep_the_selection(app);
}

fn follow_the_run(app: App) {
    let App { run: ctl, .. } = app;
    // The run shown and how many steps it has: the view follows when steps arrive (a live
    // run going on, to its last step), not when the person moves along the timeline.
    let arrived =
        Memo::new(move |_| ctl.view.with(|v| v.as_ref().map(|v| (v.record.run_id.clone(), v.len(), v.at_end()))));
    Effect::new(move |before: Option<Option<(String, usize, bool)>>| {
        let now = arrived.get();
        let grew = match (&before, &now) {
            (Some(Some((run, had, _))), Some((same, has, at_end))) => run == same && has > had && *at_end,
            _ => false,
        };
        let busy = ctl.busy.get();
        if (grew || busy) && ctl.in_step.get_untracked() {
            untrack(|| follow(app, &current_nodes(ctl)));
        }
        now
    });
}

/// The nodes of the step running now, else those the shown step ran.
fn current_nodes(ctl: RunCtl) -> Vec<String> {
    let running: Vec<String> = ctl.running.with(|r| r.iter().cloned().collect());
    if !running.is_empty() {
        return running;
    }
    ctl.view.with(|v| {
        v.as_ref()
            .and_then(Playback::current)
            .map(|s| s.ran.iter().map(|n| crate::model::runs::instances::node_of(n).to_string()).collect())
            .unwrap_or_default()
    })
}

/// Brings the nodes `ids` of the step on screen: all of them when they fit, else the first,
/// and only when none of them is on screen already (a wide step does not drag the view
/// about at every step).
fn follow(app: App, ids: &[String]) {
    let App { doc, view, .. } = app;
    let Some(all) = rect_of(doc, ids) else { return };
    let (w, h) = view.canvas_size.get_untracked();
    let v = view.view.get_untracked();
    let seen = v.visible(w, h);
    let margin = 2.0 * 32.0 / v.zoom;
    if all.w + margin <= seen.w && all.h + margin <= seen.h {
        return view.reveal(all);
    }
    let any_seen = doc.rects.with_untracked(|r| ids.iter().filter_map(|id| r.get(id)).any(|r| r.intersects(&seen)));
    if !any_seen && let Some(first) = rect_of(doc, &ids[..1]) {
        view.reveal(first);
    }
}

fn keep_the_selection(app: App) {
    let App { doc, view, .. } = app;
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
    doc.rects.with_untracked(|rects| ids.iter().filter_map(|id| rects.get(id)).copied().reduce(|a, b| a.union(&b)))
}
