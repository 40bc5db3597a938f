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
    /// Names the holes may use besides `state`, `input`, `outputs`, `errors`, `step`.
    #[prop(optional)]
    extra: &'static [&'static str],
    /// Empty text means the value is absent: nothing to check.
    #[prop(optional)]
    optional: bool,
    #[prop(optional)] multiline: bool,
    #[prop(optional)] rows: Option<u32>,
    #[prop(optional, into)] placeholder: Option<String>,
    #[prop(optional, into)] hint: Option<String>,
) -> impl IntoView {
    let check = if extra.is_empty() { Check::Template } else { Check::TemplateWith(extra) };
    view! {
        <Labelled label=label.clone() hint=hint>
            <SourceInput aria_label=label value=value on_commit=on_commit check=check optional=optional
                multiline=multiline rows=rows.unwrap_or(3) placeholder=placeholder.unwrap_or_default()/>
        </Labelled>
    }
}
