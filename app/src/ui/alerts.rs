//! Messages for the user: errors stay until dismissed (`role="alert"`), notices fade.

use leptos::prelude::*;

use crate::state::{AlertKind, use_store};

#[component]
pub fn Alerts() -> impl IntoView {
    let store = use_store();
    view! {
        <div class="alerts" aria-live="polite">
            <For each=move || store.alerts.get() key=|a| a.id let:a>
                {
                    let id = a.id;
                    let error = a.kind == AlertKind::Error;
                    view! {
                        <div class="alert" class:error=error role=if error { "alert" } else { "status" }>
                            <span class="alert-text">{a.text.clone()}</span>
                            <button class="alert-close" aria-label="Dismiss" on:click=move |_| store.alerts.update(|v| v.retain(|x| x.id != id))>"×"</button>
                        </div>
                    }
                }
            </For>
        </div>
    }
}
