//! Settings: where model calls go from the browser, and the API key. Both stay in this
//! browser's local storage: never in a graph, an export or a run record.

use leptos::prelude::*;

use super::browser_host::{BASE_URL_SETTING, KEY_SETTING};
use super::storage;
use super::store::use_store;

#[component]
pub fn SettingsDialog() -> impl IntoView {
    let store = use_store();
    let key = RwSignal::new(storage::get_setting(KEY_SETTING).unwrap_or_default());
    let base = RwSignal::new(storage::get_setting(BASE_URL_SETTING).unwrap_or_default());
    let save = move |_| {
        storage::set_setting(KEY_SETTING, key.get_untracked().trim());
        storage::set_setting(BASE_URL_SETTING, base.get_untracked().trim());
        store.dialog.set(None);
        store.info("Settings saved in this browser");
    };
    view! {
        <div class="dialog" role="dialog" aria-modal="true" aria-label="Settings">
            <h2>"Model settings"</h2>
            <p class="muted">"Used by llm nodes with the openai provider when you run a graph here. Kept in this browser only; never exported or saved in runs. Mock models need nothing."</p>
            <label class="field">
                <span>"Base URL"</span>
                <input aria-label="Base URL" placeholder="https://api.openai.com/v1" prop:value=move || base.get()
                    on:input=move |ev| base.set(event_target_value(&ev))/>
                <span class="hint">"Replaces the OpenAI address, e.g. http://127.0.0.1:11434/v1 for Ollama. The server must allow requests from this page (CORS)."</span>
            </label>
            <label class="field">
                <span>"API key"</span>
                <input type="password" aria-label="API key" autocomplete="off" prop:value=move || key.get()
                    on:input=move |ev| key.set(event_target_value(&ev))/>
            </label>
            <div class="dialog-actions">
                <button on:click=move |_| store.dialog.set(None)>"Cancel"</button>
                <button class="primary" on:click=save>"Save"</button>
            </div>
        </div>
    }
}
