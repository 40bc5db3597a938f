//! [`RunTrace`]: the shown run's trace id (the trace its latest session is exported as, in a
//! tracing tool or later with `switchyard trace`), a button copying it, and one taking the
//! run's record away as a file.

use leptos::prelude::*;

use crate::actions::traces;
use crate::model::runs::record_file::trace_id;
use crate::state::{use_app, use_run};

#[component]
pub fn RunTrace() -> impl IntoView {
    let app = use_app();
    let ctl = use_run();
    // A subgraph's run shown inside its parent is part of the parent's trace.
    let shown = Memo::new(move |_| {
        if !ctl.parents.with(Vec::is_empty) {
            return None;
        }
        ctl.view.with(|v| v.as_ref().map(|v| trace_id(&v.record).map(str::to_string)))
    });
    move || {
        shown.get().map(|id| {
            view! {
                <section class="run-trace" role="region" aria-label="Trace">
                    {id.map(|id| {
                        let shown = id.clone();
                        view! {
                        <span class="run-trace-label">"Trace"</span>
                        <code class="trace-id" data-trace-id=id>{shown}</code>
                        <button type="button" class="small" aria-label="Copy the trace id" title="Copy the trace id"
                            on:click=move |_| traces::copy_trace_id(app)>"Copy"</button>
                        }
                    })}
                    <button type="button" class="small" title="Save the run's record as a file (switchyard/run@1), e.g. for switchyard trace"
                        on:click=move |_| traces::download_record(app)>"Download record"</button>
                </section>
            }
        })
    }
}
