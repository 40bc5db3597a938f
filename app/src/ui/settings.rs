//! Settings: where model calls go, and the API key. In the browser both stay in this
//! browser's local storage; in the desktop app they go to the app's settings file, readable by
//! the user only, and the key is never sent back to the page. Never in a graph, an export or
//! a run record.

use leptos::prelude::*;
use serde::Deserialize;
use serde_json::json;

use super::browser_host::{BASE_URL_SETTING, KEY_SETTING};
use super::desktop;
use super::storage;
use super::store::use_store;

#[derive(Deserialize)]
struct DesktopSettings {
    has_api_key: bool,
    openai_base_url: Option<String>,
    workflows_dir: String,
}

#[component]
pub fn SettingsDialog() -> impl IntoView {
    let store = use_store();
    let on_desktop = desktop::is_desktop();
    let key = RwSignal::new(String::new());
    let base = RwSignal::new(String::new());
    let note = RwSignal::new(String::new());
    if on_desktop {
        wasm_bindgen_futures::spawn_local(async move {
            if let Ok(s) = desktop::invoke::<DesktopSettings>("get_settings", json!({})).await {
                base.set(s.openai_base_url.unwrap_or_default());
                note.set(format!(
                    "{} Graphs are saved in {}.",
                    if s.has_api_key {
                        "An API key is set (type a new one to replace it)."
                    } else {
                        "No API key is set."
                    },
                    s.workflows_dir
                ));
            }
        });
    } else {
        key.set(storage::get_setting(KEY_SETTING).unwrap_or_default());
        base.set(storage::get_setting(BASE_URL_SETTING).unwrap_or_default());
    }
    let save = move |_| {
        let (k, b) = (key.get_untracked().trim().to_string(), base.get_untracked().trim().to_string());
        if on_desktop {
            let api_key = (!k.is_empty()).then_some(k);
            wasm_bindgen_futures::spawn_local(async move {
                match desktop::invoke::<()>("set_settings", json!({"apiKey": api_key, "baseUrl": b})).await {
                    Ok(()) => store.info("Settings saved in the app's settings file"),
                    Err(why) => store.error(format!("Could not save the settings: {why}")),
                }
            });
        } else {
            storage::set_setting(KEY_SETTING, &k);
            storage::set_setting(BASE_URL_SETTING, &b);
            store.info("Settings saved in this browser");
        }
        store.dialog.set(None);
    };
    view! {
        <div class="dialog" role="dialog" aria-modal="true" aria-label="Settings">
            <h2>"Model settings"</h2>
            <p class="muted">"Used by llm nodes with the openai provider. Never exported or saved in runs. Mock models need nothing."</p>
            {move || (!note.get().is_empty()).then(|| view! { <p class="muted">{note.get()}</p> })}
            <label class="field">
                <span>"Base URL"</span>
                <input aria-label="Base URL" placeholder="https://api.openai.com/v1" prop:value=move || base.get()
                    on:input=move |ev| base.set(event_target_value(&ev))/>
                <span class="hint">{if on_desktop {
                    "Replaces the OpenAI address, e.g. http://127.0.0.1:11434/v1 for Ollama."
                } else {
                    "Replaces the OpenAI address, e.g. http://127.0.0.1:11434/v1 for Ollama. The server must allow requests from this page (CORS)."
                }}</span>
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
