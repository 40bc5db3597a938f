//! Asks before a run sends requests to origins the person has not used before (a graph from
//! elsewhere may name any server), and, in the desktop app, before it starts an MCP server's
//! program whose whole command line they have not allowed: the lists, then Run anyway (Allow
//! and run) or Cancel.

use leptos::prelude::*;

use crate::actions::run as run_ctl;
use crate::model::runs::origins::Contact;
use crate::state::{use_app, use_run};

#[component]
pub fn OriginsDialog() -> impl IntoView {
    let app = use_app();
    let ctl = use_run();
    move || {
        ctl.new_origins.get().map(|list| {
            let (programs, places): (Vec<Contact>, Vec<Contact>) =
                list.into_iter().partition(|c| matches!(c, Contact::Program(_)));
            let starts = !programs.is_empty();
            let title = match (starts, places.is_empty()) {
                (false, _) => "This run would contact new origins",
                (true, true) => "This run would start programs",
                (true, false) => "This run would start programs and contact new origins",
            };
            let programs_part = starts.then(|| {
                let items = programs.iter().map(|c| view! { <li><code>{c.to_string()}</code></li> }).collect_view();
                view! {
                    <p>"The graph's MCP servers start these command lines on this computer, with your permissions. Allow only commands you trust; each allowed line is remembered, and a changed line is asked about again."</p>
                    <ul class="command-list" aria-label="Command lines">{items}</ul>
                }
            });
            let places_part = (!places.is_empty()).then(|| {
                let items = places.iter().map(|c| view! { <li>{c.to_string()}</li> }).collect_view();
                view! {
                    <p>"The graph sends requests to places you have not used before. Requests carry no key unless you kept one for their origin in Settings."</p>
                    <ul class="origin-list" aria-label="Origins">{items}</ul>
                }
            });
            view! {
                <div class="backdrop">
                    <div class="dialog" role="dialog" aria-modal="true" aria-label=if starts { "Programs and origins" } else { "New origins" }>
                        <h2>{title}</h2>
                        {programs_part}
                        {places_part}
                        <div class="dialog-actions">
                            <button on:click=move |_| run_ctl::cancel_start(ctl)>"Cancel"</button>
                            <button class="primary" on:click=move |_| run_ctl::run_anyway(app)>
                                {if starts { "Allow and run" } else { "Run anyway" }}
                            </button>
                        </div>
                    </div>
                </div>
            }
        })
    }
}
