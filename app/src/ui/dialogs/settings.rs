//! Settings: where model calls go, and the keys, each kept for one origin (and, in the
//! desktop app, where runs are sent as traces: `trace_settings`). The dialog lists
//! the origins that have keys, never the keys. In the browser they stay in this browser's
//! local storage; in the desktop app they go to the app's settings file, readable by the user
//! only, and the keys are never sent back to the page. Never in a graph, an export or a run
//! record.

use leptos::prelude::*;

use crate::actions::{settings, traces};
use crate::model::storage::keys::Provider;
use crate::platform::use_platform;
use crate::state::trace_draft::TraceDraft;
use crate::state::{use_app, use_ui};
use crate::ui::dialogs::trace_settings::TraceFields;

#[component]
pub fn SettingsDialog() -> impl IntoView {
    let app = use_app();
    let ui = use_ui();
    let platform = use_platform();
    let wording = platform.get().wording();
    let key = RwSignal::new(String::new());
    let origin = RwSignal::new(String::new());
    let provider = RwSignal::new(Provider::OpenAi);
    let base = RwSignal::new(String::new());
    let note = RwSignal::new(String::new());
    let origins = RwSignal::new(Vec::<(String, Provider)>::new());
    // The settings are read after the dialog shows: a Base URL typed meanwhile stays.
    let base_edited = RwSignal::new(false);
    let loading = platform.get().model_settings();
    wasm_bindgen_futures::spawn_local(async move {
        let s = loading.await;
        if !base_edited.get_untracked() {
            base.set(s.base_url);
        }
        origins.set(s.key_origins);
        note.set(s.note);
    });
    // Where runs can go to a tracing tool (the desktop app), its setting.
    let has_traces = platform.get().has_traces();
    let trace = TraceDraft::empty();
    if has_traces {
        let loading = platform.get().trace_settings();
        wasm_bindgen_futures::spawn_local(async move {
            if let Some(kept) = loading.await {
                trace.fill(kept);
            }
        });
    }
    let save = move |_| {
        if trace.changed() {
            traces::save_trace_settings(
                app,
                &trace.endpoint.get_untracked(),
                &trace.headers.get_untracked(),
                trace.capture_content.get_untracked(),
            );
        }
        settings::save_model_settings(
            app,
            &base.get_untracked(),
            &origin.get_untracked(),
            provider.get_untracked(),
            &key.get_untracked(),
        )
    };
    let remove = move |o: String, p: Provider| {
        settings::remove_key(app, o.clone(), p, move || origins.update(|l| l.retain(|x| !(x.0 == o && x.1 == p))))
    };
    view! {
        <div class="dialog settings" role="dialog" aria-modal="true" aria-label="Settings">
            <h2>"Model settings"</h2>
            <p class="muted">"Used by llm nodes with the openai provider. Never exported or saved in runs. Mock models need nothing."</p>
            {move || (!note.get().is_empty()).then(|| view! { <p class="muted">{note.get()}</p> })}
            <label class="field">
                <span>"Base URL"</span>
                <input aria-label="Base URL" placeholder="https://api.openai.com/v1" prop:value=move || base.get()
                    on:input=move |ev| {
                        base_edited.set(true);
                        base.set(event_target_value(&ev));
                    }/>
                <span class="hint">{wording.base_url_hint}</span>
            </label>
            <h3>"Keys"</h3>
            <p class="muted">"Each key goes only to its origin; a request anywhere else is sent without a key. An MCP server's bearer token goes only to the server at exactly that origin."</p>
            <ul class="key-origins" aria-label="Origins with keys">
                {move || {
                    let list = origins.get();
                    if list.is_empty() {
                        view! { <li class="muted">"No keys kept yet"</li> }.into_any()
                    } else {
                        list.into_iter()
                            .map(|(o, p)| {
                                let label = format!("Remove the key for {o}");
                                let (o2, text) = (o.clone(), format!("{o} — {}", p.label()));
                                view! {
                                    <li>
                                        <span>{text}</span>
                                        " "
                                        <button aria-label=label on:click=move |_| remove(o2.clone(), p)>"Remove"</button>
                                    </li>
                                }
                            })
                            .collect_view()
                            .into_any()
                    }
                }}
            </ul>
            <label class="field">
                <span>"Origin for a new key"</span>
                <input aria-label="Key origin" placeholder="the Base URL's origin, else https://api.openai.com"
                    prop:value=move || origin.get() on:input=move |ev| origin.set(event_target_value(&ev))/>
            </label>
            <label class="field">
                <span>"Provider"</span>
                <select aria-label="Key provider" on:change=move |ev| {
                    provider.set(Provider::from_id(&event_target_value(&ev)).unwrap_or(Provider::OpenAi))
                }>
                    {Provider::ALL
                        .into_iter()
                        .map(|p| view! { <option value=p.id() selected=p == Provider::OpenAi>{p.label()}</option> })
                        .collect_view()}
                </select>
            </label>
            <label class="field">
                <span>"API key"</span>
                <input type="password" aria-label="API key" autocomplete="off" prop:value=move || key.get()
                    on:input=move |ev| key.set(event_target_value(&ev))/>
            </label>
            {has_traces.then(|| view! { <TraceFields draft=trace/> })}
            <div class="dialog-actions">
                <button on:click=move |_| ui.dialog.set(None)>"Cancel"</button>
                <button class="primary" on:click=save>"Save"</button>
            </div>
        </div>
    }
}
