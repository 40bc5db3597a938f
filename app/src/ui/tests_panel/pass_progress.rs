//! The pass under way: a progress bar named by what it does, and Stop.

use leptos::prelude::*;

use crate::actions::tests;
use crate::state::{use_app, use_tests};

#[component]
pub fn PassProgress() -> impl IntoView {
    let app = use_app();
    let state = use_tests();
    let part = move || state.progress.get().map(|p| (p.what, p.done, p.total));
    view! {
        {move || part().map(|(what, done, total)| {
            let percent = if total == 0 { 0.0 } else { done as f64 * 100.0 / total as f64 };
            view! {
                <div class="pass-progress">
                    <div class="bar" role="progressbar" aria-label=what aria-valuemin="0"
                        aria-valuemax=total.to_string() aria-valuenow=done.to_string()
                        aria-valuetext=format!("{done} of {total}")>
                        <span style:width=format!("{percent:.1}%")></span>
                    </div>
                    <span class="pass-count">{format!("{what}: {done} of {total}")}</span>
                    <button class="danger small" on:click=move |_| tests::stop(app)>"Stop"</button>
                </div>
            }
        })}
    }
}
