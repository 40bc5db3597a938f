//! [`MessagesFieldSelect`]: the `messages` field whose tool calls a `tools` node runs.

use leptos::prelude::*;

use crate::ui::fields::{SelectField, TextField};

/// A choice among the graph's `messages` fields; with none declared, a text box for the
/// name (and a word on declaring one). A name that is not among them is kept and shown.
#[component]
pub fn MessagesFieldSelect(
    /// The names of the graph's `messages` fields.
    #[prop(into)]
    fields: Signal<Vec<String>>,
    #[prop(into)] value: Signal<String>,
    #[prop(into)] on_commit: Callback<String>,
) -> impl IntoView {
    let options = Signal::derive(move || {
        let mut o: Vec<(String, String)> = fields.get().into_iter().map(|f| (f.clone(), f)).collect();
        if value.with(String::is_empty) {
            o.insert(0, (String::new(), "— choose —".into()));
        }
        o
    });
    move || {
        if fields.with(Vec::is_empty) {
            view! {
                <TextField label="Messages" value=value on_commit=on_commit placeholder="messages"
                    hint="No state field has type messages yet: declare one in the graph's State fields, or type its name."/>
            }
            .into_any()
        } else {
            view! {
                <SelectField label="Messages" options=options value=value on_commit=on_commit
                    hint="The transcript whose last assistant message's tool calls run; a tool message per call is appended to it."/>
            }
            .into_any()
        }
    }
}
