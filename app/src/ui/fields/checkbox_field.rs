//! [`CheckboxField`]: a labelled flag.

use leptos::prelude::*;

/// A labelled checkbox, committed at once. The box comes before its text, so this frame is
/// its own (`field checkbox`), not [`Labelled`](crate::ui::fields::labelled::Labelled).
#[component]
pub fn CheckboxField(
    #[prop(into)] label: String,
    #[prop(into)] value: Signal<bool>,
    #[prop(into)] on_commit: Callback<bool>,
    #[prop(optional, into)] hint: Option<String>,
) -> impl IntoView {
    view! {
        <label class="field checkbox">
            <input type="checkbox" aria-label=label.clone() prop:checked=move || value.get()
                on:change=move |ev| on_commit.run(event_target_checked(&ev))/>
            <span>{label}</span>
            {hint.map(|h| view! { <span class="hint">{h}</span> })}
        </label>
    }
}
