//! The settings dialog's Traces section, where runs can be sent to a tracing tool (the
//! desktop app): the collector's address, headers sent with each export (their names shown,
//! never their values: they often carry the tool's key) and whether message content goes too.

use leptos::prelude::*;
use switchyard_ipc::PublicTraces;

/// What the Traces section holds while the dialog is open, saved with the dialog's Save.
#[derive(Clone, Copy)]
pub struct TraceDraft {
    pub endpoint: RwSignal<String>,
    /// Headers typed now (`name=value, …`); empty keeps those kept.
    pub headers: RwSignal<String>,
    pub capture_content: RwSignal<bool>,
    /// The setting as read when the dialog opened; `None` until it is read.
    pub kept: RwSignal<Option<PublicTraces>>,
}

impl TraceDraft {
    pub fn empty() -> TraceDraft {
        TraceDraft {
            endpoint: RwSignal::new(String::new()),
            headers: RwSignal::new(String::new()),
            capture_content: RwSignal::new(false),
            kept: RwSignal::new(None),
        }
    }

    /// Shows the setting as read.
    pub fn fill(&self, kept: PublicTraces) {
        self.endpoint.set(kept.endpoint.clone());
        self.capture_content.set(kept.capture_content);
        self.kept.set(Some(kept));
    }

    /// Whether the person changed the setting since it was read.
    pub fn changed(&self) -> bool {
        self.kept.with_untracked(|k| {
            k.as_ref().is_some_and(|k| {
                k.endpoint != self.endpoint.get_untracked().trim()
                    || k.capture_content != self.capture_content.get_untracked()
                    || !self.headers.with_untracked(|h| h.trim().is_empty())
            })
        })
    }
}

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
                prop:value=move || draft.endpoint.get() on:input=move |ev| draft.endpoint.set(event_target_value(&ev))/>
            <span class="hint">"The collector's OTLP/HTTP address; /v1/traces is added."</span>
        </label>
        <label class="field">
            <span>"Headers"</span>
            <input type="password" aria-label="Trace headers" autocomplete="off" placeholder="name=value, …"
                prop:value=move || draft.headers.get() on:input=move |ev| draft.headers.set(event_target_value(&ev))/>
            <span class="hint">{move || match kept_names() {
                Some(names) => format!("Kept: {names}. Leave empty to keep them; clear the address to forget them."),
                None => "Sent with each export, e.g. Authorization=Basic%20… (kept in the settings file, never shown again).".to_string(),
            }}</span>
        </label>
        <label class="field checkbox">
            <input type="checkbox" aria-label="Send message content" prop:checked=move || draft.capture_content.get()
                on:change=move |ev| draft.capture_content.set(event_target_checked(&ev))/>
            <span>"Send message content (prompts, replies, tool arguments and results)"</span>
        </label>
    }
}
