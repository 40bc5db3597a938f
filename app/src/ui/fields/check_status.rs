//! [`CheckStatus`]: the status line under a checked field.

use leptos::prelude::*;

use crate::ui::fields::check::Verdict;

/// The status line under a checked field (`role="status"`, so it is announced): green when
/// the check passed, red with the error when not, hidden when there is nothing to say. Its
/// `id` is what the field's `aria-describedby` names, so the error is also the field's
/// description (and never an alert: a draft being typed is not an emergency).
#[component]
pub fn CheckStatus(
    #[prop(into)] verdict: Signal<Option<Verdict>>,
    #[prop(optional, into)] id: Option<String>,
) -> impl IntoView {
    view! {
        <span
            id=id
            class="check"
            class:good=move || verdict.with(|v| matches!(v, Some(Ok(_))))
            class:bad=move || verdict.with(|v| matches!(v, Some(Err(_))))
            role="status"
            hidden=move || verdict.with(|v| v.as_ref().is_none_or(|v| v.as_ref().is_ok_and(String::is_empty)))
        >
            {move || verdict.get().map(|v| v.unwrap_or_else(|e| e))}
        </span>
    }
}
