//! The run panel (running and stepping through runs comes with the debugger).

use leptos::prelude::*;

use super::store::Store;

/// A node's status at the displayed step: `idle` when no run is shown.
pub fn node_status(_store: Store, _id: &str) -> &'static str {
    "idle"
}

/// Whether the displayed step followed edge `index`.
pub fn edge_taken(_store: Store, _index: usize) -> bool {
    false
}

#[component]
pub fn RunPanel() -> impl IntoView {
    view! { <section class="run-panel" role="region" aria-label="Run"></section> }
}
