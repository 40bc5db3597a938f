//! [`Labelled`]: the `<label>` frame every `…Field` puts around its input.

use leptos::prelude::*;

/// `<label class="field">`: the label's text, the control (`children`), then an optional
/// hint. Clicking the text focuses the control; the control carries the same text as its
/// `aria-label`.
#[component]
pub fn Labelled(
    #[prop(into)] label: String,
    /// A line of help under the control.
    #[prop(default = None, into)]
    hint: Option<String>,
    children: Children,
) -> impl IntoView {
    view! {
        <label class="field">
            <span>{label}</span>
            {children()}
            {hint.map(|h| view! { <span class="hint">{h}</span> })}
        </label>
    }
}
