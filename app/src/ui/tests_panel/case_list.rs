//! The graph's test cases, or how to make the first.

use leptos::prelude::*;

use crate::model::editing::words;
use crate::state::use_tests;
use crate::ui::tests_panel::case_row::CaseRow;

#[component]
pub fn CaseList() -> impl IntoView {
    let state = use_tests();
    let names = Memo::new(move |_| {
        state.suite.with(|s| s.as_ref().map(|s| s.cases.iter().map(|c| c.name.clone()).collect::<Vec<_>>()))
    });
    let summary = move || {
        let count = names.with(|n| n.as_ref().map_or(0, Vec::len));
        let (passed, failed) = state
            .outcomes
            .with(|o| (o.values().filter(|o| o.passed).count(), o.values().filter(|o| !o.passed).count()));
        let mut line = words::count(count as u64, "test");
        if passed + failed > 0 {
            line.push_str(&format!(" · {passed} pass · {failed} fail"));
        }
        line
    };
    view! {
        <section class="test-cases" aria-label="Test cases">
            <h3>{summary}</h3>
            {move || match names.get() {
                None => view! { <p class="muted">"Reading the tests…"</p> }.into_any(),
                Some(n) if n.is_empty() => view! {
                    <p class="muted empty-tests">"No tests yet. Run the graph, then press "<b>"Save as test"</b>" in the run panel."</p>
                }.into_any(),
                Some(_) => view! {
                    <ul class="case-list">
                        <For each=move || names.get().unwrap_or_default() key=|n| n.clone() let:name>
                            <CaseRow name=name/>
                        </For>
                    </ul>
                }.into_any(),
            }}
        </section>
    }
}
