//! [`RunErrorView`]: why the shown run failed, kept in the run panel as a region (the alert
//! that announced it can be dismissed; this stays with the run, and with a saved run opened
//! later): for a run ended by an end with outcome failed, which end and its message
//! (format.md §4, end).

use leptos::prelude::*;

use crate::actions::navigation;
use crate::model::runs::outcome::error_shown;
use crate::state::{use_app, use_run};

#[component]
pub fn RunErrorView() -> impl IntoView {
    let app = use_app();
    let ctl = use_run();
    let shown =
        Memo::new(move |_| ctl.view.with(|v| v.as_ref().filter(|v| v.at_end()).and_then(|v| error_shown(&v.record))));
    move || {
        shown.get().map(|e| {
            let node = e.node.clone();
            view! {
                <section class="run-error" role="region" aria-label="Run error" data-node=e.node.clone()>
                    <h3>{e.heading}</h3>
                    <p class="run-error-message">{e.message}</p>
                    {node.map(|n| {
                        let text = format!("Show {n} on the canvas");
                        view! {
                            <button type="button" class="small"
                                on:click=move |_| navigation::select_problem(app, Some(&n), None)>{text}</button>
                        }
                    })}
                </section>
            }
        })
    }
}
