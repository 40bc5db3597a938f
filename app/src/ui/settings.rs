//! Settings: where model calls go, and the API key. In the browser both stay in this
//! browser's local storage; in the desktop app they go to the app's settings file, readable by
//! the user only, and the key is never sent back to the page. Never in a graph, an export or
//! a run record.

use leptos::prelude::*;

use crate::actions::settings;
use crate::platform::use_platform;
use crate::state::{use_alerts, use_ui};

#[component]
pub fn SettingsDialog() -> impl IntoView {
    let ui = use_ui();
    let alerts = use_alerts();
    let platform = use_platform();
    let wording = platform.get().wording();
    let key = RwSignal::new(String::new());
    let base = RwSignal::new(String::new());
    let note = RwSignal::new(String::new());
    let loading = platform.get().model_settings();
    wasm_bindgen_futures::spawn_local(async move {
        let s = loading.await;
        key.set(s.api_key);
        base.set(s.base_url);
        note.set(s.note);
    });
    let save =
        move |_| settings::save_model_settings(ui, alerts, platform, &key.get_untracked(), &base.get_untracked());
    view! {
        <div class="dialog" role="dialog" aria-modal="true" aria-label="Settings">
            <h2>"Model settings"</h2>
            <p class="muted">"Used by llm nodes with the openai provider. Never exported or saved in runs. Mock models need nothing."</p>
            {move || (!note.get().is_empty()).then(|| view! { <p class="muted">{note.get()}</p> })}
            <label class="field">
                <span>"Base URL"</span>
                <input aria-label="Base URL" placeholder="https://api.openai.com/v1" prop:value=move || base.get()
                    on:input=move |ev| base.set(event_target_value(&ev))/>
                <span class="hint">{wording.base_url_hint}</span>
            </label>
            <label class="field">
                <span>"API key"</span>
                <input type="password" aria-label="API key" autocomplete="off" prop:value=move || key.get()
                    on:input=move |ev| key.set(event_target_value(&ev))/>
            </label>
            <div class="dialog-actions">
                <button on:click=move |_| ui.dialog.set(None)>"Cancel"</button>
                <button class="primary" on:click=save>"Save"</button>
            </div>
        </div>
    }
}
