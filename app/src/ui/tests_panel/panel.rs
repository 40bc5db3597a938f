//! The Tests panel: a region named Tests in place of the inspector while it is open.

use leptos::prelude::*;

use crate::actions::tests;
use crate::state::{use_app, use_tests};
use crate::ui::tests_panel::case_list::CaseList;
use crate::ui::tests_panel::dataset_section::DatasetSection;
use crate::ui::tests_panel::evaluator_means::EvaluatorMeans;
use crate::ui::tests_panel::pass_progress::PassProgress;
use crate::ui::tests_panel::suite_actions::SuiteActions;

#[component]
pub fn TestsPanel() -> impl IntoView {
    let app = use_app();
    let state = use_tests();
    view! {
        <aside class="sidebar right tests-panel" id="tests-panel" role="region" aria-label="Tests">
            <div class="tests-head">
                <h2 tabindex="-1">"Tests"</h2>
                <button class="icon" aria-label="Close the Tests panel" title="Close (back to the inspector)"
                    on:click=move |_| tests::toggle_panel(app)>"✕"</button>
            </div>
            <p class="muted tests-intro">
                "Each test replays a saved run with its recorded replies. After an edit, "
                <b>"Check against saved runs"</b>" shows which still end the same."
            </p>
            {move || state.unsaved.get().then(|| view! {
                <p class="tests-warning" role="status">"These tests could not be saved: they stay here until the page closes."</p>
            })}
            {move || state.damaged.get().map(|why| view! {
                <p class="tests-warning" role="status">{format!("The stored tests could not be read ({why}). Import a suite to replace them.")}</p>
            })}
            <SuiteActions/>
            <PassProgress/>
            {move || state.notes.with(|n| (!n.is_empty()).then(|| view! {
                <ul class="tests-notes" aria-label="Evaluators not run here">
                    {n.iter().map(|note| view! { <li>{note.clone()}</li> }).collect_view()}
                </ul>
            }))}
            <CaseList/>
            <EvaluatorMeans dataset=false/>
            <DatasetSection/>
        </aside>
    }
}
