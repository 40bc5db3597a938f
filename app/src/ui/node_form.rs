//! The form for one node.

use leptos::prelude::*;

use super::store::use_store;

#[component]
pub fn NodeForm(id: String) -> impl IntoView {
    let store = use_store();
    let node = {
        let id = id.clone();
        Memo::new(move |_| store.editor.with(|e| e.graph().node(&id).cloned()))
    };
    let commit_label = {
        let id = id.clone();
        move |v: String| {
            if let Some(mut n) = node.get_untracked() {
                n.label = if v.trim().is_empty() { None } else { Some(v) };
                if let Err(why) = store.edit(|e| e.update_node(&id, n)) {
                    store.error(why);
                }
            }
        }
    };
    view! {
        <section class="form">
            <h2>{move || node.get().map(|n| n.title().to_string()).unwrap_or_default()}</h2>
            <label class="field">
                <span>"Label"</span>
                <input prop:value=move || node.get().and_then(|n| n.label).unwrap_or_default()
                    on:change=move |ev| commit_label(event_target_value(&ev))/>
            </label>
        </section>
    }
}
