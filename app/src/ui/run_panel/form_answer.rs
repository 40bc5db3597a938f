//! [`FormAnswer`]: a waiting human form (format.md §4, human) inside `Input required`: one control per
//! field named by its label, prefilled with its default, each field's error next to it (and
//! announced), and one `Submit`.

use engine::run::WaitingField;
use indexmap::IndexMap;
use leptos::prelude::*;

use crate::actions::run as run_ctl;
use crate::model::runs::form_answer::{Control, FormControl, FormDraft, WHOLE_FORM};
use crate::state::use_app;

#[component]
pub fn FormAnswer(node: String, fields: IndexMap<String, WaitingField>) -> impl IntoView {
    let app = use_app();
    let draft = RwSignal::new(FormDraft::new(&node, &fields));
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let answer = match draft.try_update(FormDraft::answer) {
            Some(Ok(answer)) => answer,
            Some(Err(_)) => return focus_first_invalid(&draft.with_untracked(|d| d.node.clone())),
            // The form went away (the run moved on) while the click was handled.
            None => return,
        };
        let node = draft.with_untracked(|d| d.node.clone());
        leptos::task::spawn_local(async move {
            if let Err(e) = run_ctl::try_answer(app, &node, answer).await {
                // The form may be gone by now (the run moved on).
                if draft.try_update(|d| d.engine_error(&e)).is_some() {
                    focus_first_invalid(&node);
                }
            }
        });
    };
    let controls = draft.with_untracked(|d| d.controls.clone());
    let form_id = format!("form-{node}");
    view! {
        <form class="form-answer" novalidate aria-label=format!("Form of {node}") on:submit=submit>
            {controls.into_iter().map(|c| field_row(draft, &form_id, c)).collect_view()}
            {move || draft.with(|d| d.error(WHOLE_FORM).map(str::to_string)).map(|e| view! {
                <p class="field-error" role="alert">{e}</p>
            })}
            <button type="submit" class="primary">"Submit"</button>
        </form>
    }
}

/// Puts the cursor in the first field showing an error.
fn focus_first_invalid(node: &str) {
    let selector = format!("form[aria-label=\"Form of {node}\"] [aria-invalid=\"true\"]");
    request_animation_frame(move || {
        if let Some(el) = document().query_selector(&selector).ok().flatten()
            && let Ok(el) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(el)
        {
            let _ = el.focus();
        }
    });
}

/// One field: its label, its control, and its error (the control is described by it).
fn field_row(draft: RwSignal<FormDraft>, form_id: &str, c: FormControl) -> impl IntoView {
    let name = c.name.clone();
    let error_id = format!("{form_id}-{name}-error");
    let error = {
        let name = name.clone();
        Memo::new(move |_| draft.with(|d| d.error(&name).map(str::to_string)))
    };
    let invalid = move || error.with(Option::is_some).then_some("true");
    let described = {
        let id = error_id.clone();
        move || error.with(Option::is_some).then(|| id.clone())
    };
    let text = {
        let name = name.clone();
        move || draft.with(|d| d.text(&name))
    };
    let set = {
        let name = name.clone();
        move |v: String| draft.update(|d| d.set(&name, v))
    };
    let label = c.label.clone();
    let control = match c.control.clone() {
        Control::Checkbox => view! {
            <input type="checkbox" aria-label=label.clone() aria-invalid=invalid aria-describedby=described
                prop:checked=move || text() == "true"
                on:change=move |ev| set(event_target_checked(&ev).to_string())/>
        }
        .into_any(),
        Control::Choice(options) => {
            let blank = !options.contains(&draft.with_untracked(|d| d.text(&name)));
            view! {
                <select aria-label=label.clone() aria-invalid=invalid aria-describedby=described
                    prop:value=text.clone() on:change=move |ev| set(event_target_value(&ev))>
                    {blank.then(|| view! { <option value="">"— choose —"</option> })}
                    {options.into_iter().map(|o| {
                        let shown = text.clone();
                        let (o2, value) = (o.clone(), o.clone());
                        view! { <option value=value selected=move || shown() == o2>{o}</option> }
                    }).collect_view()}
                </select>
            }
            .into_any()
        }
        Control::Number { integer } => view! {
            <input type="number" step=if integer { "1" } else { "any" } aria-label=label.clone()
                aria-invalid=invalid aria-describedby=described prop:value=text on:input=move |ev| set(event_target_value(&ev))/>
        }
        .into_any(),
        Control::Text => view! {
            <input type="text" aria-label=label.clone() aria-invalid=invalid aria-describedby=described
                prop:value=text on:input=move |ev| set(event_target_value(&ev))/>
        }
        .into_any(),
        Control::Json => view! {
            <textarea class="mono" rows="3" spellcheck="false" aria-label=label.clone() aria-invalid=invalid
                aria-describedby=described prop:value=text on:input=move |ev| set(event_target_value(&ev))></textarea>
        }
        .into_any(),
    };
    let checkbox = c.control == Control::Checkbox;
    let kind = if c.required { c.ty.name().to_string() } else { format!("{}, optional", c.ty.name()) };
    view! {
        <div class="form-answer-field" class:checkbox=checkbox data-field=name.clone()>
            <span class="form-answer-label" aria-hidden="true">{label}<span class="hint">{format!(" · {kind}")}</span></span>
            {control}
            {move || error.get().map(|e| view! { <p class="field-error" id=error_id.clone() role="alert">{e}</p> })}
        </div>
    }
}
