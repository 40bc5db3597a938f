//! [`CodeField`]: a labelled Rhai expression, script or `{{ }}` template, compiled in the
//! sandbox as it is typed.

use leptos::prelude::*;

use crate::ui::fields::check::Check;
use crate::ui::fields::labelled::Labelled;
use crate::ui::fields::source_input::SourceInput;

/// A labelled piece of source that `check` compiles as it is typed: an expression or script
/// ([`Check::Expr`]) or a template ([`Check::Template`], [`Check::TemplateWith`]).
#[component]
pub fn CodeField(
    #[prop(into)] label: String,
    #[prop(into)] value: Signal<String>,
    #[prop(into)] on_commit: Callback<String>,
    check: Check,
    /// Empty text means the value is absent: nothing to check.
    #[prop(optional)]
    optional: bool,
    #[prop(optional)] multiline: bool,
    #[prop(optional)] rows: Option<u32>,
    #[prop(optional, into)] placeholder: Option<String>,
    #[prop(optional, into)] hint: Option<String>,
    /// A script: Tab indents in it (elsewhere Tab moves on).
    #[prop(optional)]
    indents: bool,
) -> impl IntoView {
    view! {
        <Labelled label=label.clone() hint=hint>
            <SourceInput aria_label=label value=value on_commit=on_commit check=check optional=optional
                multiline=multiline rows=rows.unwrap_or(3) placeholder=placeholder.unwrap_or_default() indents=indents/>
        </Labelled>
    }
}
