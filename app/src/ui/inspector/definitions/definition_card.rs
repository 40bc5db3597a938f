//! `DefinitionCard`: one of the document's definitions in the graph's form.

use leptos::prelude::*;

use crate::actions::navigation;
use crate::model::editing::definitions::{self, Summary};
use crate::state::{use_alerts, use_app, use_doc};
use crate::ui::fields::SourceInput;

/// Definition `name`: its name (renaming follows into every use), how many nodes it has,
/// who uses it, `Edit` (opens it on the canvas) and remove (refused, naming the users, while
/// anything uses it).
///
/// Accessible names end with the definition's name: `Name of definition summarize`, `Edit
/// definition summarize`, `Remove definition summarize`; the card is the group `Definition
/// summarize`.
#[component]
pub fn DefinitionCard(name: String) -> impl IntoView {
    let app = use_app();
    let doc = use_doc();
    let alerts = use_alerts();
    let name = StoredValue::new(name);
    let summary = Memo::new(move |_| {
        doc.editor.with(|e| definitions::summaries(e.document()).into_iter().find(|s| s.name == name.get_value()))
    });
    let facts = move || summary.with(|s| s.as_ref().map(Summary::facts).unwrap_or_default());
    let users = move || summary.with(|s| s.as_ref().map(|s| s.users.clone()).unwrap_or_default());
    let rename = move |new: String| {
        let old = name.get_value();
        let result = doc.edit(|e| {
            definitions::rename(e.document(), &old, &new).map(|edit| edit.map(|edit| e.apply_to_document(edit)))
        });
        if let Err(why) = result {
            alerts.error(why.to_string());
        }
    };
    let remove = move |_| {
        let result =
            doc.edit(|e| definitions::remove(e.document(), &name.get_value()).map(|edit| e.apply_to_document(edit)));
        if let Err(why) = result {
            alerts.error(why.to_string());
        }
    };
    let open = move |_| navigation::open_definition(app, &name.get_value());
    let label = move |what: &str| format!("{what} definition {}", name.get_value());
    view! {
        <li class="definition-card">
            <div class="definition-body" role="group" aria-label=format!("Definition {}", name.get_value())>
                <div class="definition-line">
                    <SourceInput class="definition-name" aria_label=format!("Name of definition {}", name.get_value())
                        value=Signal::derive(move || name.get_value()) on_commit=rename/>
                    <button type="button" class="small" aria-label=label("Edit")
                        title="Open it on the canvas" on:click=open>"Edit"</button>
                    <button type="button" class="icon remove" title="Remove"
                        aria-label=label("Remove") on:click=remove>"×"</button>
                </div>
                <span class="definition-facts">{facts}</span>
                {move || {
                    let users = users();
                    (!users.is_empty()).then(|| view! {
                        <ul class="definition-users" aria-label=label("Users of")>
                            {users.iter().map(|u| view! { <li>{u.to_string()}</li> }).collect_view()}
                        </ul>
                    })
                }}
            </div>
        </li>
    }
}
