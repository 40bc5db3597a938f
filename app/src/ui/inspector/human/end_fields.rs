//! [`EndFields`]: how a run reaching an end node finishes (format.md §4, end).

use engine::document::Outcome;
use leptos::prelude::*;

use crate::ui::fields::{Check, CodeField, SelectField, options};
use crate::ui::inspector::node_edit::{NodeEdit, non_empty};

/// `Outcome` (completed, the default, or failed) and, for a failing end, its `Message`.
#[component]
pub fn EndFields(ed: NodeEdit) -> impl IntoView {
    let failed = ed.get(|n| n.outcome == Some(Outcome::Failed));
    view! {
        <SelectField label="Outcome" options=options(&[("completed", "completed (default)"), ("failed", "failed")])
            value=Signal::derive(move || if failed.get() { "failed".to_string() } else { "completed".to_string() })
            on_commit=move |v: String| ed.update(|n| {
                n.outcome = (v == "failed").then_some(Outcome::Failed);
                if n.outcome.is_none() {
                    n.message = None;
                }
            })
            hint="failed: a step routing here ends the run failed, whatever else was running."/>
        {move || if failed.get() {
            view! {
                <CodeField check=Check::Template label="Message" multiline=true optional=true rows=2u32
                    value=ed.get(|n| n.message.clone().unwrap_or_default())
                    on_commit=move |v: String| ed.update(|n| n.message = non_empty(v))
                    hint="The run's error message; {{ expression }} holes are filled from the state."/>
            }.into_any()
        } else {
            view! { <p class="hint">"An edge into an end node ends that branch."</p> }.into_any()
        }}
    }
}
