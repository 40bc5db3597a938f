//! [`HumanFields`]: a human node's prompt and how it is answered.

use leptos::prelude::*;

use crate::model::editing::form_fields;
use crate::ui::fields::{Check, CodeField, ListField, SelectField, TextField, focus_later};
use crate::ui::inspector::human::form_field_card::FormFieldCard;
use crate::ui::inspector::node_edit::{NodeEdit, STATE_LIST, non_empty, trimmed};

type Strings = Vec<String>;

/// The prompt, then either one answer (`Writes`, `Options`) or a form: a card per field,
/// `Add field`, and `Route by` (a field with options whose answer picks the out-edge).
#[component]
pub fn HumanFields(ed: NodeEdit) -> impl IntoView {
    let count = ed.get(|n| n.fields.as_ref().map_or(0, |f| f.len()));
    let add = move |_| {
        ed.update(|n| {
            form_fields::add_field(n);
        });
        focus_later(".form-field-card:last-of-type .form-field-name".into());
    };
    let choices = ed.get(form_fields::route_choices);
    let route_options = Signal::derive(move || {
        let mut list = vec![(String::new(), "none".to_string())];
        list.extend(choices.get().into_iter().map(|f| (f.clone(), f)));
        list
    });
    view! {
        <CodeField check=Check::Template label="Prompt" multiline=true optional=true value=ed.get(|n| n.prompt.clone().unwrap_or_default())
            on_commit=move |v: String| ed.update(|n| n.prompt = non_empty(v))
            hint="Shown to the person; {{ expression }} holes are filled from the state."/>
        {move || if count.get() == 0 {
            view! {
                <TextField label="Writes" list=STATE_LIST value=ed.get(|n| n.writes.clone().unwrap_or_default())
                    on_commit=move |v: String| ed.update(|n| n.writes = trimmed(&v))
                    hint="The state field the answer goes to."/>
                <ListField label="Options" items=ed.get(|n| n.options.clone().unwrap_or_default())
                    on_commit=move |v: Strings| ed.update(|n| n.options = (!v.is_empty()).then_some(v))
                    item_noun="Option" fresh_item="option"
                    empty_text="No options: the answer is free text."
                    hint="The answer must be one of these; out-edges labelled with an option route by it."/>
            }.into_any()
        } else {
            view! {
                <p class="hint">"A form: the person answers every field at once; each is written to the state field of its name."</p>
                <div class="form-field-list">
                    <For each=move || 0..count.get() key=|i| *i children=move |i| view! { <FormFieldCard ed=ed index=i/> }/>
                </div>
                <SelectField label="Route by" options=route_options
                    value=ed.get(|n| n.route_by.clone().unwrap_or_default())
                    on_commit=move |v: String| ed.update(|n| n.route_by = trimmed(&v))
                    hint="A field with options: its answer picks the out-edge with that label."/>
            }.into_any()
        }}
        <div class="row-actions">
            <button type="button" class="small" on:click=add
                title="Answer with a form of several fields (the first takes over Writes and Options)">"Add field"</button>
        </div>
    }
}
