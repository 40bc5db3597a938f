//! One test case: its status (not run, pass, fail with the reason), its scores, and Compare
//! (a failing case beside its saved run) and Delete.

use leptos::prelude::*;

use crate::actions::tests;
use crate::model::runs::suite_panel::score_text;
use crate::state::{use_app, use_tests};

#[component]
pub fn CaseRow(name: String) -> impl IntoView {
    let app = use_app();
    let state = use_tests();
    let key = name.clone();
    let outcome = Memo::new(move |_| state.outcomes.with(|o| o.get(&key).cloned()));
    let status = move || match outcome.get() {
        None => "not-run",
        Some(o) if o.passed => "pass",
        Some(_) => "fail",
    };
    let badge = move || outcome.with(|o| o.as_ref().map_or("not run", |o| o.badge()));
    let (compare_name, delete_name) = (name.clone(), name.clone());
    let compare_label = format!("Compare “{name}” with its saved run");
    let delete_label = format!("Delete the test “{name}”");
    view! {
        <li class="case" data-status=status data-case=name.clone()>
            <div class="case-head">
                <span class="case-name">{name.clone()}</span>
                <span class="test-badge" data-status=status>{badge}</span>
            </div>
            {move || outcome.get().and_then(|o| o.reason).map(|why| view! {
                <p class="case-reason">{why}</p>
            })}
            {move || outcome.get().filter(|o| !o.scores.is_empty()).map(|o| view! {
                <ul class="scores" aria-label="Scores">
                    {o.scores.iter().map(|s| view! {
                        <li class:fail=!s.passed title=s.comment.clone().unwrap_or_default()>
                            <span class="score-name">{s.evaluator.clone()}</span>
                            <span class="score-value">{score_text(s)}</span>
                        </li>
                    }).collect_view()}
                </ul>
            })}
            <div class="row-actions">
                {move || {
                    let name = compare_name.clone();
                    let label = compare_label.clone();
                    outcome.get().filter(|o| !o.passed && o.record.is_some()).map(|_| view! {
                        <button class="small" aria-label=label on:click=move |_| tests::compare_case(app, &name)>"Compare"</button>
                    })
                }}
                <button class="small danger" aria-label=delete_label
                    on:click=move |_| tests::delete_case(app, &delete_name)>"Delete"</button>
            </div>
        </li>
    }
}
