//! Each evaluator's mean score and passes, over the suite's cases or a dataset's rows.

use leptos::prelude::*;

use crate::actions::tests;
use crate::state::use_tests;

#[component]
pub fn EvaluatorMeans(dataset: bool) -> impl IntoView {
    let state = use_tests();
    let means = Memo::new(move |_| tests::means(state, dataset));
    let caption = if dataset { "Dataset scores" } else { "Evaluator means" };
    view! {
        {move || means.with(|m| (!m.is_empty()).then(|| view! {
            <table class="means" aria-label=caption>
                <caption>{caption}</caption>
                <thead><tr><th scope="col">"Evaluator"</th><th scope="col">"Mean"</th><th scope="col">"Passed"</th></tr></thead>
                <tbody>
                    {m.iter().map(|m| view! {
                        <tr data-evaluator=m.evaluator.clone()>
                            <th scope="row">{m.evaluator.clone()}</th>
                            <td class="mean">{m.mean.map_or_else(|| "—".to_string(), |v| format!("{v:.2}"))}</td>
                            <td>{format!("{} of {}", m.passed, m.scored + m.errors)}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        }))}
    }
}
