//! Messages for the user: errors stay until dismissed (`role="alert"`), notices fade.

use leptos::prelude::*;

use crate::state::AlertKind;
use crate::state::alerts::use_alerts;

#[component]
pub fn Alerts() -> impl IntoView {
    let alerts = use_alerts();
    view! {
        <div class="alerts" aria-live="polite">
            <For each=move || alerts.list.get() key=|a| a.id let:a>
                {
                    let id = a.id;
                    let error = a.kind == AlertKind::Error;
                    view! {
                        <div class="alert" class:error=error role=if error { "alert" } else { "status" }>
                            <span class="alert-text">{a.text.clone()}</span>
                            <button class="alert-close" aria-label="Dismiss" on:click=move |_| alerts.dismiss(id)>"×"</button>
                        </div>
                    }
                }
            </For>
        </div>
    }
}
