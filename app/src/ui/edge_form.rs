//! The form for one edge.

use leptos::prelude::*;

use super::store::use_store;

#[component]
pub fn EdgeForm(index: usize) -> impl IntoView {
    let store = use_store();
    let edge = Memo::new(move |_| store.editor.with(|e| e.graph().edges.get(index).cloned()));
    view! {
        <section class="form">
            <h2>{move || edge.get().map(|e| format!("{} → {}", e.from, e.to)).unwrap_or_default()}</h2>
        </section>
    }
}
