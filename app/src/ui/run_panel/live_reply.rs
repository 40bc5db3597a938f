//! While a step runs live, each streaming model node's reply as it arrives, token by token;
//! gone when the step lands (its record then holds the whole reply).

use leptos::prelude::*;

use crate::state::use_run;

#[component]
pub fn LiveReply() -> impl IntoView {
    let ctl = use_run();
    let nodes = Memo::new(move |_| ctl.streaming.with(|m| m.keys().cloned().collect::<Vec<_>>()));
    view! {
        <For each=move || nodes.get() key=|n| n.clone() let:node>
            {
                let text = {
                    let node = node.clone();
                    move || ctl.streaming.with(|m| m.get(&node).cloned().unwrap_or_default())
                };
                view! {
                    <section class="live-reply" role="region" aria-label=format!("Reply of {node} so far")
                        data-streaming=node.clone() aria-busy="true">
                        <h3><span class="live-dot" aria-hidden="true"></span>{format!("{node} is replying…")}</h3>
                        <p class="live-text">{text}</p>
                    </section>
                }
            }
        </For>
    }
}
