//! The graph's own settings: name, description, limits and state fields.

use leptos::prelude::*;

use super::store::use_store;
use crate::model::edit::Meta;

#[component]
pub fn GraphForm() -> impl IntoView {
    let store = use_store();
    let meta = Memo::new(move |_| store.editor.with(|e| Meta::of(e.graph())));
    let set_name = move |v: String| {
        let mut m = meta.get_untracked();
        m.name = Some(v);
        store.edit(|e| e.set_meta(m));
    };
    view! {
        <section class="form">
            <h2>"Graph"</h2>
            <label class="field">
                <span>"Name"</span>
                <input prop:value=move || meta.get().name.unwrap_or_default() on:change=move |ev| set_name(event_target_value(&ev))/>
            </label>
        </section>
    }
}
