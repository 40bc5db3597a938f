//! Save as test, in the run panel: a finished or waiting run becomes a test of the graph,
//! under a name asked first (suggested from the run's input).

use leptos::prelude::*;
use switchyard_ipc::commands::CommandId;

use crate::actions::commands::carry_out;
use crate::actions::tests;
use crate::state::{use_app, use_tests};

#[component]
pub fn SaveAsTest() -> impl IntoView {
    let app = use_app();
    let state = use_tests();
    let can = move || tests::can_save_run(app);
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        if let Some(name) = state.naming.get_untracked() {
            tests::save_as_test(app, &name);
        }
    };
    view! {
        {move || match state.naming.get().is_some() {
            false => can().then(|| view! {
                <div class="save-test">
                    <button class="small" on:click=move |_| carry_out(app, CommandId::SaveAsTest)
                        title=CommandId::SaveAsTest.command().help>"Save as test"</button>
                </div>
            }.into_any()),
            true => Some(view! {
                <form class="save-test asking" on:submit=submit
                    on:keydown=move |ev: leptos::ev::KeyboardEvent| if ev.key() == "Escape" { tests::cancel_name(app) }>
                    <label for="save-test-name">"Test name"</label>
                    <input id="save-test-name" type="text" spellcheck="false"
                        prop:value=move || state.naming.get().unwrap_or_default()
                        on:input=move |ev| state.naming.set(Some(event_target_value(&ev)))/>
                    <button class="primary small" type="submit"
                        disabled=move || state.naming.with(|n| n.as_ref().is_none_or(|n| n.trim().is_empty()))>"Save test"</button>
                    <button class="small" type="button" on:click=move |_| tests::cancel_name(app)>"Cancel"</button>
                </form>
            }.into_any()),
        }}
    }
}
