//! The passes over the suite and its files: Run tests, Check against saved runs, Import tests,
//! Export tests.

use leptos::prelude::*;
use switchyard_ipc::commands::CommandId;

use crate::actions::commands::{can_act, carry_out};
use crate::actions::tests::{self, FileUse};
use crate::state::use_app;

#[component]
pub fn SuiteActions() -> impl IntoView {
    let app = use_app();
    let tip = |id: CommandId| id.command().help;
    let on_file = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        if let Some(file) = input.files().and_then(|f| f.get(0)) {
            tests::import_file(app, file, FileUse::Suite);
        }
        input.set_value("");
    };
    view! {
        <div class="tests-actions" role="group" aria-label="Test suite">
            <button class="primary" on:click=move |_| carry_out(app, CommandId::RunTests)
                disabled=move || !can_act(app, CommandId::RunTests) title=tip(CommandId::RunTests)>"Run tests"</button>
            <button on:click=move |_| carry_out(app, CommandId::CheckTests)
                disabled=move || !can_act(app, CommandId::CheckTests) title=tip(CommandId::CheckTests)>"Check against saved runs"</button>
            <label class="file-pick small" title="Replace these tests with a switchyard/tests@1 file">
                <span>"Import tests…"</span>
                <input type="file" accept=".json,application/json" aria-label="Import tests" on:change=on_file/>
            </label>
            <button on:click=move |_| tests::export_tests(app) title="Download the tests as a .tests.json file">"Export tests"</button>
        </div>
    }
}
