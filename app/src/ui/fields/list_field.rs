//! [`ListField`]: a list of strings, on [`ListEditor`].

use leptos::prelude::*;

use crate::state::use_alerts;
use crate::ui::fields::list_editor::{ListEditor, Row};
use crate::ui::fields::source_input::SourceInput;

/// A list of strings, one row each: edit (empty text removes the item), remove, add.
///
/// Accessible names: items are `<Item noun> <n>`, the buttons `Remove <item>` and
/// `Add <item noun>`.
#[component]
pub fn ListField(
    /// The group's name (`Options`…).
    #[prop(into)]
    label: String,
    #[prop(into)] items: Signal<Vec<String>>,
    #[prop(into)] on_commit: Callback<Vec<String>>,
    /// `Option`, `Input key`…
    #[prop(into)]
    item_noun: String,
    /// The base of a new item (`option`, then `option_2`…).
    #[prop(into)]
    fresh_item: String,
    /// A datalist of suggestions.
    #[prop(optional, into)]
    list: Option<String>,
    #[prop(optional, into)] hint: Option<String>,
    /// Shown when the list is empty.
    #[prop(optional, into)]
    empty_text: Option<String>,
) -> impl IntoView {
    let alerts = use_alerts();
    let row = {
        let item_noun = item_noun.clone();
        move |row: Row<String>| {
            let edit = move |new: String| {
                let new = new.trim().to_string();
                if new == row.item.get_untracked() {
                    return;
                }
                if new.is_empty() {
                    row.remove();
                } else if row.taken_by_another(&new) {
                    alerts.error(format!("`{new}` is already in the list"));
                } else {
                    row.set(new);
                }
            };
            view! {
                <SourceInput aria_label=format!("{item_noun} {}", row.number()) value=row.item on_commit=edit
                    list=list.clone().unwrap_or_default()/>
            }
        }
    };
    view! {
        <ListEditor label=label items=items on_commit=on_commit noun=item_noun fresh=fresh_item kind="list" row=row
            hint=hint empty_text=empty_text/>
    }
}
