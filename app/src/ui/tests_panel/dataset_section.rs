//! Datasets: a JSON Lines file of inputs run with mock models (or live), each row scored by the
//! suite's evaluators.

use leptos::prelude::*;

use crate::actions::tests::{self, FileUse};
use crate::model::runs::suite_panel::score_text;
use crate::state::{use_app, use_tests};
use crate::ui::tests_panel::evaluator_means::EvaluatorMeans;

#[component]
pub fn DatasetSection() -> impl IntoView {
    let app = use_app();
    let state = use_tests();
    let on_file = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        if let Some(file) = input.files().and_then(|f| f.get(0)) {
            tests::import_file(app, file, FileUse::Dataset);
        }
        input.set_value("");
    };
    view! {
        <section class="dataset" aria-label="Dataset">
            <h3>"Dataset"</h3>
            <p class="muted">"A JSON Lines file, one "<code>"{\"input\": …, \"reference\": …}"</code>" a line, run and scored by the evaluators."</p>
            <div class="tests-actions">
                <label class="file-pick small">
                    <span>"Import dataset…"</span>
                    <input type="file" accept=".jsonl,.ndjson,.txt,application/jsonl" aria-label="Import dataset"
                        on:change=on_file disabled=move || state.busy()/>
                </label>
                <label class="toggle" title="Call the model providers with the editor's model settings, instead of mock replies">
                    <input type="checkbox" prop:checked=move || state.live.get()
                        on:change=move |ev| state.live.set(event_target_checked(&ev))/>
                    "Live models"
                </label>
            </div>
            {move || state.dataset.with(|rows| (!rows.is_empty()).then(|| view! {
                <ul class="case-list dataset-rows" aria-label="Dataset rows">
                    {rows.iter().map(|o| view! {
                        <li class="case" data-status=if o.passed { "pass" } else { "fail" }>
                            <div class="case-head">
                                <span class="case-name">{o.name.clone()}</span>
                                <span class="scores-inline">
                                    {o.scores.iter().map(|s| format!("{} {}", s.evaluator, score_text(s))).collect::<Vec<_>>().join(" · ")}
                                </span>
                            </div>
                            {o.reason.clone().map(|r| view! { <p class="case-reason">{r}</p> })}
                        </li>
                    }).collect_view()}
                </ul>
            }))}
            <EvaluatorMeans dataset=true/>
        </section>
    }
}
