//! [`RunErrorView`]: why the shown run failed, kept in the run panel (the alert that said so
//! fades with the others): for a run ended by an end with outcome failed, which end and its
//! message (spec 2.9).

use leptos::prelude::*;

use crate::actions::navigation;
use crate::model::outcome::error_shown;
use crate::state::{use_doc, use_run, use_view};

#[component]
pub fn RunErrorView() -> impl IntoView {
    let doc = use_doc();
    let view = use_view();
    let ctl = use_run();
    let shown =
        Memo::new(move |_| ctl.view.with(|v| v.as_ref().filter(|v| v.at_end()).and_then(|v| error_shown(&v.record))));
    move || {
        shown.get().map(|e| {
            let node = e.node.clone();
            view! {
                <section class="run-error" role="alert" aria-label="Run error" data-node=e.node.clone()>
                    <h3>{e.heading}</h3>
                    <p class="run-error-message">{e.message}</p>
                    {node.map(|n| {
                        let label = format!("Show node {n}");
                        view! {
                            <button type="button" class="small" aria-label=label
                                on:click=move |_| navigation::select_problem(doc, view, Some(&n), None)>"Show on canvas"</button>
                        }
                    })}
                </section>
            }
        })
    }
}
