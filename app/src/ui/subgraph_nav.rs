//! Entering subgraphs on the canvas: the path bar above the canvas, and keeping the run on
//! display in step with the graph shown (a subgraph's canvas shows its nested run).

use leptos::prelude::*;

use super::run_ctl;
use super::store::{Store, use_store};

/// Shows the graph inside subgraph node `id` of the graph on the canvas; when the run on
/// display has a nested run for that node at the shown step, that run is shown with it.
pub fn enter(store: Store, id: &str) {
    let has_nested = store.run.view.with_untracked(|v| v.as_ref().is_some_and(|v| v.detail(id).is_some()));
    let in_step = in_step(store);
    if has_nested && in_step {
        // open_nested enters the canvas too.
        run_ctl::open_nested(store, store.run, id);
        return;
    }
    if let Err(why) = store.edit(|e| e.enter(id)) {
        store.error(format!("Cannot open the subgraph: {why}"));
    }
}

/// Goes back up to `depth` subgraphs deep (0: the document), closing nested runs below it.
pub fn leave_to(store: Store, depth: usize) {
    while store.run.parents.with_untracked(Vec::len) > depth {
        run_ctl::close_nested(store.run);
    }
    if store.editor.with_untracked(|e| e.scope().len()) > depth {
        store.edit(|e| e.leave_to(depth));
    }
}

/// Whether the run on display belongs to the graph on the canvas (the same subgraphs in).
pub fn in_step(store: Store) -> bool {
    store.run_in_step.get()
}

/// The path from the document to the subgraph on the canvas; each part goes back there.
#[component]
pub fn SubgraphPath() -> impl IntoView {
    let store = use_store();
    let scope = Memo::new(move |_| store.editor.with(|e| e.scope().to_vec()));
    let top = move || store.editor.with(|e| e.document().display_name().to_string());
    // Whatever moved the canvas into or out of a subgraph (a click, the run panel, undo),
    // the graph now shown is fitted into view.
    Effect::new(move |first: Option<()>| {
        scope.track();
        if first.is_some() {
            request_animation_frame(move || store.fit_view());
        }
    });
    view! {
        <Show when=move || scope.with(|s| !s.is_empty())>
            <nav class="subgraph-path" aria-label="Subgraph path" on:pointerdown=|ev| ev.stop_propagation()>
                <button class="small" on:click=move |_| leave_to(store, 0)>{top}</button>
                {move || {
                    let scope = scope.get();
                    let last = scope.len().saturating_sub(1);
                    scope.into_iter().enumerate().map(|(d, id)| {
                        let part = if d == last {
                            view! { <span class="here" aria-current="page">{id}</span> }.into_any()
                        } else {
                            view! { <button class="small" on:click=move |_| leave_to(store, d + 1)>{id}</button> }.into_any()
                        };
                        view! { <span class="sep" aria-hidden="true">"›"</span>{part} }
                    }).collect_view()
                }}
                <button class="small" aria-label="Leave the subgraph" on:click=move |_| {
                    let depth = store.editor.with_untracked(|e| e.scope().len());
                    leave_to(store, depth.saturating_sub(1));
                }>"↑ Up"</button>
            </nav>
        </Show>
    }
}
