//! [`SelectField`]: a labelled [`SelectInput`].

use leptos::prelude::*;

use crate::ui::fields::labelled::Labelled;
use crate::ui::fields::select_input::SelectInput;

/// A labelled [`SelectInput`].
#[component]
pub fn SelectField(
    #[prop(into)] label: String,
    /// `(value, text)` pairs; [`options`](crate::ui::fields::options) makes them from string slices.
    #[prop(into)]
    options: Signal<Vec<(String, String)>>,
    #[prop(into)] value: Signal<String>,
    #[prop(into)] on_commit: Callback<String>,
    #[prop(optional, into)] hint: Option<String>,
) -> impl IntoView {
    view! {
        <Labelled label=label.clone() hint=hint>
            <SelectInput aria_label=label options=options value=value on_commit=on_commit/>
        </Labelled>
    }
}
