//! [`JsonField`]: a labelled [`JsonInput`].

use leptos::prelude::*;
use serde_json::Value;

use crate::ui::fields::check::Validator;
use crate::ui::fields::json_input::JsonInput;
use crate::ui::fields::labelled::Labelled;

/// A labelled [`JsonInput`], several lines of pretty JSON.
#[component]
pub fn JsonField(
    #[prop(into)] label: String,
    #[prop(into)] value: Signal<Option<Value>>,
    #[prop(into)] on_commit: Callback<Option<Value>>,
    /// Further checks once the text is JSON.
    #[prop(optional)]
    validate: Option<Validator>,
    /// Empty text means the value is absent.
    #[prop(optional)]
    optional: bool,
    #[prop(optional)] rows: Option<u32>,
    #[prop(optional, into)] placeholder: Option<String>,
    #[prop(optional, into)] hint: Option<String>,
    /// How the model's value is written out, when not as pretty JSON.
    #[prop(optional, into)]
    shown: Option<Signal<String>>,
) -> impl IntoView {
    let shown = shown.unwrap_or_else(|| {
        Signal::derive(move || {
            value.with(|v| v.as_ref().map(|v| serde_json::to_string_pretty(v).unwrap_or_default()).unwrap_or_default())
        })
    });
    let placeholder = placeholder.unwrap_or_default();
    let rows = rows.unwrap_or(4);
    view! {
        <Labelled label=label.clone() hint=hint>
            {match validate {
                Some(f) => view! {
                    <JsonInput aria_label=label value=value on_commit=on_commit validate=f optional=optional
                        rows=rows placeholder=placeholder shown=shown/>
                }.into_any(),
                None => view! {
                    <JsonInput aria_label=label value=value on_commit=on_commit optional=optional
                        rows=rows placeholder=placeholder shown=shown/>
                }.into_any(),
            }}
        </Labelled>
    }
}
