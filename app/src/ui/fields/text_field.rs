//! [`TextField`]: a labelled line (or block) of plain text.

use leptos::prelude::*;

use crate::ui::fields::labelled::Labelled;
use crate::ui::fields::source_input::SourceInput;

/// A labelled text field.
#[component]
pub fn TextField(
    #[prop(into)] label: String,
    #[prop(into)] value: Signal<String>,
    #[prop(into)] on_commit: Callback<String>,
    #[prop(optional)] multiline: bool,
    #[prop(optional)] rows: Option<u32>,
    #[prop(optional, into)] placeholder: Option<String>,
    /// The id of a `<datalist>` of suggestions.
    #[prop(optional, into)]
    list: Option<String>,
    #[prop(optional, into)] hint: Option<String>,
) -> impl IntoView {
    view! {
        <Labelled label=label.clone() hint=hint>
            <SourceInput aria_label=label value=value on_commit=on_commit multiline=multiline rows=rows.unwrap_or(2)
                placeholder=placeholder.unwrap_or_default() list=list.unwrap_or_default()/>
        </Labelled>
    }
}
