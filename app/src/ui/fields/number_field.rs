//! [`NumberField`]: a labelled [`NumberInput`].

use leptos::prelude::*;

use crate::ui::fields::labelled::Labelled;
use crate::ui::fields::number_input::NumberInput;

/// A labelled [`NumberInput`]: empty means absent, wrong input is reported and not kept.
#[component]
pub fn NumberField(
    #[prop(into)] label: String,
    #[prop(into)] value: Signal<Option<f64>>,
    #[prop(into)] on_commit: Callback<Option<f64>>,
    /// Only whole numbers.
    #[prop(optional)]
    integer: bool,
    #[prop(default = None, into)] min: Option<f64>,
    #[prop(default = None, into)] max: Option<f64>,
    #[prop(optional, into)] placeholder: Option<String>,
    #[prop(optional, into)] hint: Option<String>,
    #[prop(optional, into)] disabled: Signal<bool>,
) -> impl IntoView {
    view! {
        <Labelled label=label.clone() hint=hint>
            <NumberInput aria_label=label value=value on_commit=on_commit integer=integer min=min
                max=max placeholder=placeholder.unwrap_or_default() disabled=disabled/>
        </Labelled>
    }
}
