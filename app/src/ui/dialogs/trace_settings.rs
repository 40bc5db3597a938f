//! The settings dialog's Traces section, where runs can be sent to a tracing tool (the
//! desktop app): the collector's address, headers sent with each export (their names shown,
//! never their values: they often carry the tool's key) and whether message content goes too.

use leptos::prelude::*;

use crate::state::trace_draft::TraceDraft;

#[component]
pub fn TraceFields(draft: TraceDraft) -> impl IntoView {
    let kept_names =
        move || draft.kept.with(|k| k.as_ref().map(|k| k.header_names.join(", ")).filter(|n| !n.is_empty()));
    let from_environment = move || draft.kept.with(|k| k.as_ref().and_then(|k| k.from_environment.clone()));
    view! {
        <h3>"Traces"</h3>
        <p class="muted">"Each run's session, when it ends, goes to an OpenTelemetry collector or tracing tool (Phoenix, Langfuse, Jaeger) over OTLP/HTTP. Leave the address empty to send nothing."</p>
        {move || from_environment().map(|e| view! {
            <p class="muted">{format!("Without an address here, runs go where the OTEL_* variables say: {e}")}</p>
        })}
        <label class="field">
            <span>"Send traces to"</span>
            <input aria-label="Send traces to" placeholder="http://127.0.0.1:6006" autocomplete="off" spellcheck="false"
                prop:value=move || draft.endpoint.get() on:input=move |ev| draft.edit(draft.endpoint, event_target_value(&ev))/>
            <span class="hint">"The collector's OTLP/HTTP address; /v1/traces is added."</span>
        </label>
        <label class="field">
            <span>"Headers"</span>
            <input type="password" aria-label="Trace headers" autocomplete="off" placeholder="name=value, …"
                prop:value=move || draft.headers.get() on:input=move |ev| draft.edit(draft.headers, event_target_value(&ev))/>
            <span class="hint">{move || match kept_names() {
                Some(names) => format!("Kept: {names}. Leave empty to keep them; clear the address to forget them."),
                None => "Sent with each export, e.g. Authorization=Basic%20… (kept in the settings file, never shown again).".to_string(),
            }}</span>
        </label>
        <label class="field checkbox">
            <input type="checkbox" aria-label="Send message content" prop:checked=move || draft.capture_content.get()
                on:change=move |ev| draft.edit(draft.capture_content, event_target_checked(&ev))/>
            <span>"Send message content (prompts, replies, tool arguments and results)"</span>
        </label>
    }
}
