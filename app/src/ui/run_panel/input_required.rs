//! What the run waits for (README, The editor): a region `Input required` per human node with its
//! rendered prompt and one button per option, a text field and `Submit`, or a form of
//! fields; and, for a run stopped at a breakpoint, which node and which side (the run
//! controls' `Continue` goes on).

use engine::run::{Breakpoint, Status, Waiting};
use leptos::prelude::*;
use serde_json::Value;

use crate::actions::run as run_ctl;
use crate::model::runs::breakpoints::stopped_text;
use crate::state::{use_app, use_run};
use crate::ui::run_panel::form_answer::FormAnswer;

#[component]
pub fn InputRequired() -> impl IntoView {
    let ctl = use_run();
    // Only a change of what waits redraws the forms (and resets what was typed in them). A
    // run of an earlier version of the graph is not answered: its notice offers a fork.
    let waiting = Memo::new(move |_| {
        if ctl.version.with(|v| v.is_earlier()) {
            return Vec::new();
        }
        ctl.view.with(|v| match v {
            Some(v) if v.at_end() && v.record.status == Status::Interrupted => v.record.waiting.clone(),
            _ => Vec::new(),
        })
    });
    move || {
        waiting
            .get()
            .into_iter()
            .map(|w| match w.breakpoint {
                Some(side) => stopped(&w.node, side).into_any(),
                None => view! { <Asked w=w/> }.into_any(),
            })
            .collect_view()
    }
}

/// A run stopped at a breakpoint: said, with what goes on.
fn stopped(node: &str, side: Breakpoint) -> impl IntoView {
    view! {
        <section class="breakpoint-stop" role="region" aria-label="Breakpoint" data-node=node.to_string()
            data-breakpoint=match side { Breakpoint::Before => "before", Breakpoint::After => "after" }>
            <p role="status"><span class="bp-dot" aria-hidden="true"></span>{stopped_text(node, side)}</p>
            <p class="hint">"Continue (or Step) goes on from here."</p>
        </section>
    }
}

/// A human node waiting for its answer.
#[component]
fn Asked(w: Waiting) -> impl IntoView {
    let app = use_app();
    let node = w.node.clone();
    let answers = if let Some(fields) = &w.fields {
        view! { <FormAnswer node=node.clone() fields=fields.clone()/> }.into_any()
    } else if let Some(opts) = w.options.clone() {
        opts.into_iter()
            .map(|o| {
                let (node, o2) = (node.clone(), o.clone());
                view! { <button class="primary" on:click=move |_| run_ctl::answer(app, &node, Value::String(o2.clone()))>{o}</button> }
            })
            .collect_view()
            .into_any()
    } else {
        let text = RwSignal::new(String::new());
        let node = node.clone();
        let submit = move || {
            let raw = text.get_untracked();
            // A JSON value if it reads as one, otherwise the text itself.
            let value = serde_json::from_str(&raw).unwrap_or(Value::String(raw));
            run_ctl::answer(app, &node, value);
        };
        let submit2 = submit.clone();
        view! {
            <input aria-label="Answer" prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev))
                on:keydown=move |ev| if ev.key() == "Enter" { submit2() }/>
            <button class="primary" on:click=move |_| submit()>"Submit"</button>
        }
        .into_any()
    };
    view! {
        <section class="input-required" role="region" aria-label="Input required" data-node=w.node.clone()>
            <h3>{format!("Input required · {}", w.node)}</h3>
            <p class="prompt">{w.prompt.clone()}</p>
            <div class="answers" class:form-answers=w.fields.is_some()>{answers}</div>
        </section>
    }
}
