//! [`RunVersionNotice`]: in the run panel, above the steps, while the run on display was made
//! with an earlier version of the graph: what changed since (a few parts, the rest counted),
//! and "Fork anyway", which starts a new run of the graph as it is now from the step shown.
//! A run that cannot be rebuilt against this version (a node it ran is gone) says which node
//! instead, and stays on display to be looked at.

use leptos::prelude::*;

use crate::actions::run as run_ctl;
use crate::model::runs::run_version::{EARLIER_HEADING, RunVersion, fork_hint};
use crate::state::{use_app, use_run};

#[component]
pub fn RunVersionNotice() -> impl IntoView {
    let app = use_app();
    let ctl = use_run();
    // The step a fork starts from: the outermost run's, when a subgraph's run is shown.
    let step = move || {
        ctl.parents.with(|p| match p.first() {
            Some((_, outer)) => outer.displayed,
            None => ctl.view.with(|v| v.as_ref().map_or(0, |v| v.displayed)),
        })
    };
    let refused = move || {
        let shown = ctl.parents.with(|p| p.first().map(|(_, outer)| outer.record.run_id.clone()));
        let shown = shown.or_else(|| ctl.view.with(|v| v.as_ref().map(|v| v.record.run_id.clone())));
        ctl.fork_refused.with(|r| r.as_ref().filter(|(id, _)| Some(id) == shown.as_ref()).map(|(_, why)| why.clone()))
    };
    move || {
        let RunVersion::Earlier(earlier) = ctl.version.get() else { return None };
        let more = earlier.more_text();
        let action = match &earlier.missing {
            Some(missing) => view! { <p class="run-version-refused">{code_spans(&missing.text())}</p> }.into_any(),
            None => view! {
                <p class="hint">{move || fork_hint(step())}</p>
                <button type="button" class="primary small"
                    on:click=move |_| run_ctl::fork_anyway(app)>"Fork anyway"</button>
            }
            .into_any(),
        };
        Some(view! {
            <section class="run-version" role="region" aria-label="Graph version" data-version="earlier">
                <h3>{EARLIER_HEADING}</h3>
                {(!earlier.changes.is_empty()).then(|| view! {
                    <p class="run-version-since">"Changed since:"</p>
                    <ul class="run-version-changes">
                        {earlier.changes.iter().map(|c| view! { <li>{code_spans(c)}</li> }).collect_view()}
                        {more.map(|m| view! { <li class="more">{m}</li> })}
                    </ul>
                })}
                {action}
                {move || refused().map(|why| view! { <p class="run-version-refused" role="status">{why}</p> })}
            </section>
        })
    }
}

/// `text` with its backquoted names (`node \`b\` changed`) as code.
fn code_spans(text: &str) -> impl IntoView + use<> {
    text.split('`')
        .enumerate()
        .map(|(k, part)| {
            let part = part.to_string();
            if k % 2 == 1 { view! { <code>{part}</code> }.into_any() } else { part.into_any() }
        })
        .collect_view()
}
