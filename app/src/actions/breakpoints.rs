//! Breakpoints: read for the open graph from the editor's per-graph preferences, toggled
//! from a node's menu or the Inspector (and saved at once), and handed to the live run
//! before each step, so a breakpoint set during a run applies from the next step on.

use engine::run::Breakpoint;
use leptos::prelude::*;

use crate::model::runs::breakpoints::{BreakpointSet, preference_name};
use crate::state::App;

/// Reads the open graph's breakpoints.
pub fn load(app: App) {
    let App { doc, run: ctl, platform, .. } = app;
    let name = preference_name(&doc.current.get_untracked());
    ctl.breakpoints.set(BreakpointSet::parse(platform.get().preference(&name).as_deref()));
}

/// Sets or clears the breakpoint on `side` of node `node`, and remembers it for this graph.
pub fn set(app: App, node: &str, side: Breakpoint, on: bool) {
    let App { doc, run: ctl, platform, .. } = app;
    ctl.breakpoints.update(|b| b.set(node, side, on));
    let name = preference_name(&doc.current.get_untracked());
    platform.get().set_preference(&name, &ctl.breakpoints.with_untracked(BreakpointSet::to_text));
}

/// The breakpoints set now, on the nodes of the document, for the live run's next step.
pub fn for_run(app: App) -> engine::run::Breakpoints {
    let App { doc, run: ctl, .. } = app;
    ctl.breakpoints.with_untracked(|b| doc.editor.with_untracked(|e| b.for_run(e.document())))
}
