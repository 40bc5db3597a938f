//! [`BreakpointToggles`]: `Break before` and `Break after` for the node in the Inspector
//! (the same toggles as the node's menu on the canvas). Breakpoints are the person's, kept
//! per graph, not part of the document.

use engine::run::Breakpoint;
use leptos::prelude::*;

use crate::actions::breakpoints;
use crate::model::runs::breakpoints::side_name;
use crate::state::{use_app, use_doc, use_run};

/// The toggles for node `id`; only for nodes that run as steps of the document's own run.
#[component]
pub fn BreakpointToggles(#[prop(into)] id: Signal<String>, #[prop(into)] runs: Signal<bool>) -> impl IntoView {
    let app = use_app();
    let doc = use_doc();
    let ctl = use_run();
    let top = move || doc.scope.with(Vec::is_empty);
    let toggle = move |side: Breakpoint| {
        let checked = Signal::derive(move || ctl.breakpoints.with(|b| b.has(&id.get(), side)));
        view! {
            <label class="field checkbox">
                <input type="checkbox" aria-label=side_name(side) prop:checked=move || checked.get()
                    on:change=move |ev| breakpoints::set(app, &id.get_untracked(), side, event_target_checked(&ev))/>
                <span>{side_name(side)}</span>
            </label>
        }
    };
    move || {
        (runs.get() && top()).then(|| {
            view! {
                <fieldset class="field group breakpoints">
                    <legend>"Breakpoints"</legend>
                    <div class="grid-2">{toggle(Breakpoint::Before)}{toggle(Breakpoint::After)}</div>
                    <span class="hint">"Runs stop before the step that would run this node, or after the step that ran it; Continue goes on. Kept for this graph in this editor, not in the document."</span>
                </fieldset>
            }
        })
    }
}
