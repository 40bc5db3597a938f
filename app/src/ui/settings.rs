//! Settings: where model calls go from the browser (kept in local storage only).

use leptos::prelude::*;

use super::store::use_store;

#[component]
pub fn SettingsDialog() -> impl IntoView {
    let store = use_store();
    view! {
        <div class="dialog" role="dialog" aria-modal="true" aria-label="Settings">
            <h2>"Settings"</h2>
            <p class="muted">"Model settings for running graphs in the browser come with the run panel."</p>
            <div class="dialog-actions">
                <button class="primary" on:click=move |_| store.dialog.set(None)>"Close"</button>
            </div>
        </div>
    }
}
