//! Asks before a run sends requests to origins the person has not used before (a graph from
//! elsewhere may name any server): the list, then Run anyway or Cancel.

use leptos::prelude::*;

use crate::actions::run as run_ctl;
use crate::state::{use_app, use_run};

#[component]
pub fn OriginsDialog() -> impl IntoView {
    let app = use_app();
    let ctl = use_run();
    move || {
        ctl.new_origins.get().map(|list| {
            let items = list.iter().map(|c| view! { <li>{c.to_string()}</li> }).collect_view();
            view! {
                <div class="backdrop">
                    <div class="dialog" role="dialog" aria-modal="true" aria-label="New origins">
                        <h2>"This run would contact new origins"</h2>
                        <p>"The graph sends requests to places you have not used before. Requests carry no key unless you kept one for their origin in Settings."</p>
                        <ul class="origin-list" aria-label="Origins">{items}</ul>
                        <div class="dialog-actions">
                            <button on:click=move |_| run_ctl::cancel_start(ctl)>"Cancel"</button>
                            <button class="primary" on:click=move |_| run_ctl::run_anyway(app)>"Run anyway"</button>
                        </div>
                    </div>
                </div>
            }
        })
    }
}
