//! The path bar above the canvas: from the document to the subgraph or definition shown, each
//! part going back there.

use leptos::prelude::*;

use crate::actions::navigation::leave_to;
use crate::state::{use_app, use_doc, use_view};

/// The path from the document to the subgraph on the canvas; each part goes back there.
#[component]
pub fn SubgraphPath() -> impl IntoView {
    let app = use_app();
    let doc = use_doc();
    let view = use_view();
    let scope = doc.scope;
    let top = move || doc.editor.with(|e| e.document().display_name().to_string());
    // Whatever moved the canvas into or out of a subgraph (a click, the run panel, undo),
    // the graph now shown is fitted into view.
    Effect::new(move |first: Option<()>| {
        scope.track();
        if first.is_some() {
            request_animation_frame(move || view.fit_view(&doc));
        }
    });
    view! {
        <Show when=move || scope.with(|s| !s.is_empty())>
            <nav class="subgraph-path" aria-label="Subgraph path" on:pointerdown=|ev| ev.stop_propagation()>
                <button class="small" on:click=move |_| leave_to(app, 0)>{top}</button>
                {move || {
                    scope.track();
                    let labels = doc.editor.with_untracked(|e| e.scope_labels());
                    let last = labels.len().saturating_sub(1);
                    labels.into_iter().enumerate().map(|(d, id)| {
                        let part = if d == last {
                            view! { <span class="here" aria-current="page">{id}</span> }.into_any()
                        } else {
                            view! { <button class="small" on:click=move |_| leave_to(app, d + 1)>{id}</button> }.into_any()
                        };
                        view! { <span class="sep" aria-hidden="true">"›"</span>{part} }
                    }).collect_view()
                }}
                <button class="small" aria-label="Leave the subgraph" title="Up one level" on:click=move |_| {
                    let depth = doc.editor.with_untracked(|e| e.scope().len());
                    leave_to(app, depth.saturating_sub(1));
                }>"↑ Leave"</button>
            </nav>
        </Show>
    }
}
