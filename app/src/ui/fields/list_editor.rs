//! [`ListEditor`]: a list of named rows, each edited in place, with a remove button per row
//! and an add button under them. [`KvField`](crate::ui::fields::KvField) (a map) and
//! [`ListField`](crate::ui::fields::ListField) (a list of strings) are this editor with their own rows.
//!
//! The editor owns the frame and the list: the `<fieldset>` with its legend and hint, one
//! `<div class="<kind>-row">` per item (keyed by position), the item's `Remove <name>`
//! button, the `Add <noun>` button (which appends a row with a fresh name and focuses it),
//! and the text shown when the list is empty. The row renderer draws only the row's own
//! inputs, and changes the list through its [`Row`].

use leptos::prelude::*;

use crate::ui::fields::helpers::{focus_later, fresh_name, unique_id};

/// What a [`ListEditor`] lists: items with a name, unique within the list.
pub trait ListItem: Clone + Default + PartialEq + Send + Sync + 'static {
    /// The item's name: what `Remove <name>` says, and what a new item must not repeat.
    fn name(&self) -> &str;
    /// A new item called `name` (for the add button).
    fn named(name: String) -> Self;
}

/// An item of a list of strings is its own name.
impl ListItem for String {
    fn name(&self) -> &str {
        self
    }
    fn named(name: String) -> Self {
        name
    }
}

/// An entry of a map, `(key, value)`, is named by its key; a new one has an empty value.
impl ListItem for (String, String) {
    fn name(&self) -> &str {
        &self.0
    }
    fn named(name: String) -> Self {
        (name, String::new())
    }
}

/// One row of a [`ListEditor`], handed to the row renderer: where it is, what it holds, and
/// how to change the list from it. Every change commits the whole list.
pub struct Row<T: ListItem> {
    /// The row's position, from 0. Rows are keyed by position, so a row's inputs stay in
    /// place while their text changes.
    pub index: usize,
    /// The item at this position.
    pub item: Memo<T>,
    items: Memo<Vec<T>>,
    on_commit: Callback<Vec<T>>,
}

impl<T: ListItem> Clone for Row<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: ListItem> Copy for Row<T> {}

impl<T: ListItem> Row<T> {
    /// The row's number as people count (`Field 1`).
    pub fn number(&self) -> usize {
        self.index + 1
    }

    /// Whether another row is called `name`.
    pub fn taken_by_another(&self, name: &str) -> bool {
        self.items.with_untracked(|v| v.iter().enumerate().any(|(j, t)| j != self.index && t.name() == name))
    }

    /// Commits the list with this row's item replaced by `item`.
    pub fn set(&self, item: T) {
        let mut v = self.items.get_untracked();
        if let Some(slot) = v.get_mut(self.index) {
            *slot = item;
            self.on_commit.run(v);
        }
    }

    /// Commits the list without this row.
    pub fn remove(&self) {
        let mut v = self.items.get_untracked();
        if self.index < v.len() {
            v.remove(self.index);
            self.on_commit.run(v);
        }
    }
}

/// A list of named rows in a `<fieldset>`: `row` draws each row's inputs, the editor adds
/// the row's `Remove <name>` button, and an `Add <noun>` button under the rows.
#[component]
pub fn ListEditor<T, R, V>(
    /// The group's name (`Set`, `Options`…), its `<legend>`.
    #[prop(into)]
    label: String,
    #[prop(into)] items: Signal<Vec<T>>,
    #[prop(into)] on_commit: Callback<Vec<T>>,
    /// What an item is called (`Field`, `Option`…); the add button says `Add <noun>`, in
    /// lower case.
    #[prop(into)]
    noun: String,
    /// The name of a new item (`field`, then `field_2`…).
    #[prop(into)]
    fresh: String,
    /// `kv` or `list`: each row's class is `<kind>-row`, and the group's id starts `<kind>-`.
    kind: &'static str,
    /// Draws one row's inputs; the first input is the item's name, focused when it is added.
    row: R,
    #[prop(default = None, into)] hint: Option<String>,
    /// Shown when the list is empty.
    #[prop(default = None, into)]
    empty_text: Option<String>,
) -> impl IntoView
where
    T: ListItem,
    R: Fn(Row<T>) -> V + Clone + Send + 'static,
    V: IntoView + 'static,
{
    let items = Memo::new(move |_| items.get());
    let len = Memo::new(move |_| items.with(Vec::len));
    let group_id = unique_id(kind);
    let row_class = format!("{kind}-row");
    let add = {
        let focus = format!("#{group_id} .{row_class}:last-child input");
        move |_| {
            let mut v = items.get_untracked();
            let name = fresh_name(&fresh, |n| v.iter().any(|t| t.name() == n));
            v.push(T::named(name));
            on_commit.run(v);
            focus_later(focus.clone());
        }
    };
    let each_row = move |index: usize| {
        let item = Memo::new(move |_| items.with(|v| v.get(index).cloned().unwrap_or_default()));
        let handle = Row { index, item, items, on_commit };
        view! {
            <div class=row_class.clone()>
                {row(handle)}
                <button type="button" class="icon remove" title="Remove"
                    aria-label=move || item.with(|t| format!("Remove {}", t.name()))
                    on:click=move |_| handle.remove()>"×"</button>
            </div>
        }
    };
    let add_text = format!("Add {}", noun.to_lowercase());
    let empty =
        empty_text.map(|t| move || (len.get() == 0).then(|| view! { <span class="hint empty">{t.clone()}</span> }));
    view! {
        <fieldset class="field group" id=group_id>
            <legend>{label}</legend>
            {hint.map(|h| view! { <span class="hint">{h}</span> })}
            <div class="rows">
                <For each=move || 0..len.get() key=|i| *i children=each_row/>
            </div>
            {empty}
            <div class="row-actions">
                <button type="button" class="small" on:click=add>{add_text}</button>
            </div>
        </fieldset>
    }
}
