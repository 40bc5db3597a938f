//! [`SelectInput`]: one of a few values, from a `<select>`.

use leptos::prelude::*;

/// `[("a", "A")]` as owned option pairs for [`SelectInput`] and
/// [`SelectField`](crate::ui::fields::SelectField).
pub fn options(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter().map(|(v, t)| (v.to_string(), t.to_string())).collect()
}

/// A `<select>`; a current value that is not among `options` is shown as it is.
#[component]
pub fn SelectInput(
    #[prop(into)] aria_label: Signal<String>,
    /// `(value, text)` pairs.
    #[prop(into)]
    options: Signal<Vec<(String, String)>>,
    #[prop(into)] value: Signal<String>,
    #[prop(into)] on_commit: Callback<String>,
) -> impl IntoView {
    let value = Memo::new(move |_| value.get());
    let all = Memo::new(move |_| {
        let mut all = options.get();
        let current = value.get();
        if !all.iter().any(|(v, _)| *v == current) {
            all.insert(0, (current.clone(), current));
        }
        all
    });
    view! {
        // `prop:value` as well as `selected`: a select kept while the document under it changes
        // (another graph opened) must show the new value, not the option it was built with.
        <select aria-label=move || aria_label.get() prop:value=move || value.get()
            on:change=move |ev| on_commit.run(event_target_value(&ev))>
            {move || all.get().into_iter().map(|(v, text)| {
                let selected = v == value.get_untracked();
                view! { <option value=v selected=selected>{text}</option> }
            }).collect_view()}
        </select>
    }
}
