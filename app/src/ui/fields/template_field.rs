//! [`TemplateField`]: a labelled `{{ }}` template, compiled as it is typed.

use leptos::prelude::*;

use super::check::Check;
use super::labelled::Labelled;
use super::source_input::SourceInput;

/// A labelled `{{ }}` template, compiled in the sandbox as it is typed.
#[component]
pub fn TemplateField(
    #[prop(into)] label: String,
    #[prop(into)] value: Signal<String>,
    #[prop(into)] on_commit: Callback<String>,
    /// Empty text means the value is absent: nothing to check.
    #[prop(optional)]
    optional: bool,
    #[prop(optional)] multiline: bool,
    #[prop(optional)] rows: Option<u32>,
    #[prop(optional, into)] placeholder: Option<String>,
    #[prop(optional, into)] hint: Option<String>,
) -> impl IntoView {
    view! {
        <Labelled label=label.clone() hint=hint>
            <SourceInput aria_label=label value=value on_commit=on_commit check=Check::Template optional=optional
                multiline=multiline rows=rows.unwrap_or(3) placeholder=placeholder.unwrap_or_default()/>
        </Labelled>
    }
}
