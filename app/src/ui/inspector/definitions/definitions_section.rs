//! [`DefinitionsSection`]: the document's definitions (format.md §9), in the graph's own form.

use leptos::prelude::*;

use crate::model::editing::definitions;
use crate::state::use_doc;
use crate::ui::fields::focus_later;
use crate::ui::inspector::definitions::definition_card::DefinitionCard;

/// The document's definitions, one card each in the document's order, and `Add definition`
/// (which adds a start → end graph and puts the cursor in its name). Shown with the
/// document's settings only: inside a subgraph or a definition the form is that graph's.
#[component]
pub fn DefinitionsSection() -> impl IntoView {
    let doc = use_doc();
    let names = Memo::new(move |_| doc.editor.with(|e| definitions::names(e.document())));
    let add = move |_| {
        doc.edit(|e| {
            let (edit, _) = definitions::add(e.document());
            e.apply_to_document(edit);
        });
        focus_later(".definition-card:last-child .definition-name".into());
    };
    view! {
        <fieldset class="field group definitions-section">
            <legend>"Definitions"</legend>
            {move || if names.with(Vec::is_empty) {
                view! { <span class="hint">"No definitions: a definition is a graph that subgraph nodes and tools run by name, so one graph serves several places."</span> }.into_any()
            } else {
                view! { <span class="hint">"Graphs that subgraph nodes and tools run by name. Edit opens one on the canvas; every use runs the change."</span> }.into_any()
            }}
            <ul class="definition-list" aria-label="Definitions">
                <For each=move || names.get() key=|n| n.clone() children=move |name| view! { <DefinitionCard name=name/> }/>
            </ul>
            <div class="row-actions">
                <button type="button" class="small" on:click=add>"Add definition"</button>
            </div>
        </fieldset>
    }
}
