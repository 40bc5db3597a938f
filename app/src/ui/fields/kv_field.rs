//! [`KvField`]: a map of names to text, on [`ListEditor`].

use indexmap::IndexMap;
use leptos::prelude::*;

use crate::state::use_alerts;
use crate::ui::fields::check::Check;
use crate::ui::fields::list_editor::{ListEditor, Row};
use crate::ui::fields::source_input::SourceInput;

/// A key and its value, as the rows of a [`ListEditor`] hold them.
type Entry = (String, String);

/// A map of names to text, one row each: rename a key, edit its value (checked as an
/// expression or template), remove a row, add one (with a fresh key, selected for typing).
///
/// Accessible names: keys are `<Key noun> <n>`, values `<Value noun> for <key>`, the buttons
/// `Remove <key>` and `Add <key noun>`.
#[component]
pub fn KvField(
    /// The group's name (`Set`, `Headers`…).
    #[prop(into)]
    label: String,
    #[prop(into)] entries: Signal<IndexMap<String, String>>,
    #[prop(into)] on_commit: Callback<IndexMap<String, String>>,
    /// `Field`, `Header`…
    #[prop(into)]
    key_noun: String,
    /// `Expression`, `Value`…
    #[prop(into)]
    value_noun: String,
    #[prop(optional)] check: Check,
    /// The base of a new row's key (`field`, then `field_2`…).
    #[prop(into)]
    fresh_key: String,
    /// A datalist of key suggestions.
    #[prop(optional, into)]
    key_list: Option<String>,
    #[prop(optional, into)] hint: Option<String>,
) -> impl IntoView {
    let alerts = use_alerts();
    // The editor lists entries in the map's order; keys stay unique, so nothing is lost on
    // the way back.
    let rows = Signal::derive(move || entries.with(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect()));
    let commit = Callback::new(move |rows: Vec<Entry>| on_commit.run(rows.into_iter().collect()));
    let row = {
        let key_noun = key_noun.clone();
        move |row: Row<Entry>| {
            let key = Memo::new(move |_| row.item.with(|(k, _)| k.clone()));
            let value = Memo::new(move |_| row.item.with(|(_, v)| v.clone()));
            let key_label = format!("{key_noun} {}", row.number());
            let rename = {
                let key_noun = key_noun.clone();
                move |new: String| {
                    let new = new.trim().to_string();
                    if new == key.get_untracked() {
                        return;
                    }
                    if new.is_empty() {
                        alerts.error(format!("{key_noun} {} needs a name", row.number()));
                    } else if row.taken_by_another(&new) {
                        alerts.error(format!("`{new}` is already used"));
                    } else {
                        row.set((new, value.get_untracked()));
                    }
                }
            };
            let value_noun = value_noun.clone();
            let value_label = Signal::derive(move || format!("{value_noun} for {}", key.get()));
            view! {
                <SourceInput class="kv-key" aria_label=key_label value=key on_commit=rename
                    list=key_list.clone().unwrap_or_default()/>
                <div class="kv-value">
                    <SourceInput aria_label=value_label value=value
                        on_commit=move |v: String| row.set((key.get_untracked(), v)) check=check/>
                </div>
            }
        }
    };
    view! {
        <ListEditor label=label items=rows on_commit=commit noun=key_noun fresh=fresh_key kind="kv" row=row
            hint=hint/>
    }
}
