//! `FormFieldCard`: one field of a human node's form.

use engine::document::{FieldType, FormField};
use leptos::prelude::*;

use crate::model::editing::form_fields::{self, FORM_TYPES};
use crate::model::editing::state_fields::TYPES;
use crate::ui::fields::{Check, CheckboxField, ListField, SelectInput, SourceInput};
use crate::ui::inspector::node_edit::{NodeEdit, non_empty};

type Strings = Vec<String>;

fn type_name(ty: FieldType) -> String {
    ty.name().to_string()
}

/// The field at `index` of the node's form. Its controls are in a group named `Field
/// <name>`: `Field name`, `Field type`, `Field label`, `Options`, `Required`, `Default`, and `Remove
/// field <name>`.
#[component]
pub fn FormFieldCard(ed: NodeEdit, index: usize) -> impl IntoView {
    let entry =
        ed.get(move |n| n.fields.as_ref().and_then(|f| f.get_index(index)).map(|(k, f)| (k.clone(), f.clone())));
    let name = Memo::new(move |_| entry.with(|e| e.as_ref().map(|(k, _)| k.clone()).unwrap_or_default()));
    let field = move |f: fn(&FormField) -> String| {
        Signal::derive(move || entry.with(|e| e.as_ref().map(|(_, d)| f(d)).unwrap_or_default()))
    };
    let change = move |f: Box<dyn FnOnce(&mut FormField)>| {
        let name = name.get_untracked();
        ed.update(|n| form_fields::change_field(n, &name, f));
    };
    let rename = move |new: String| {
        let old = name.get_untracked();
        let mut refused = None;
        ed.update(|n| {
            if let Err(why) = form_fields::rename_field(n, &old, &new) {
                refused = Some(why);
            }
        });
        if let Some(why) = refused {
            ed.alerts.error(why.to_string());
        }
    };
    let remove = move |_| {
        let name = name.get_untracked();
        ed.update(|n| form_fields::remove_field(n, &name));
    };
    let types: Vec<(String, String)> = FORM_TYPES.iter().map(|t| (type_name(*t), type_name(*t))).collect();
    let set_type = move |v: String| {
        if let Some(ty) = TYPES.iter().copied().find(|t| t.name() == v) {
            change(Box::new(move |f| f.ty = ty));
        }
    };
    let options =
        Signal::derive(move || entry.with(|e| e.as_ref().and_then(|(_, f)| f.options.clone()).unwrap_or_default()));
    let required = Signal::derive(move || entry.with(|e| e.as_ref().is_none_or(|(_, f)| f.is_required())));
    view! {
        <fieldset class="form-field-card" aria-label=move || format!("Field {}", name.get())>
            <legend>{move || format!("Field {}", name.get())}</legend>
            <div class="tool-line">
                <label class="field grow">
                    <span>"Field name"</span>
                    <SourceInput class="form-field-name" aria_label="Field name" value=name on_commit=rename/>
                </label>
                <label class="field">
                    <span>"Field type"</span>
                    <SelectInput aria_label="Field type" options=types value=field(|f| type_name(f.ty)) on_commit=set_type/>
                </label>
                <button type="button" class="icon remove" title="Remove field"
                    aria-label=move || format!("Remove field {}", name.get()) on:click=remove>"×"</button>
            </div>
            <label class="field">
                <span>"Field label"</span>
                <SourceInput aria_label="Field label" value=field(|f| f.label.clone().unwrap_or_default())
                    placeholder="What the form calls it (its name when empty)"
                    on_commit=move |v: String| change(Box::new(move |f| f.label = non_empty(v)))/>
            </label>
            <ListField label="Options" items=options
                on_commit=move |v: Strings| change(Box::new(move |f| f.options = Some(v)))
                item_noun="Option" fresh_item="option"
                empty_text="No options: the person types the value."
                hint="The answer must be one of these (a combo box in the form)."/>
            <CheckboxField label="Required" value=required
                on_commit=move |v: bool| change(Box::new(move |f| f.required = (!v).then_some(false)))
                hint="Left empty, an optional field takes its default."/>
            <label class="field">
                <span>"Default"</span>
                <SourceInput aria_label="Default" check=Check::Expr(&[]) optional=true
                    value=field(|f| f.default.clone().unwrap_or_default())
                    placeholder="An expression, like state.plan"
                    on_commit=move |v: String| change(Box::new(move |f| f.default = non_empty(v)))/>
            </label>
        </fieldset>
    }
}
