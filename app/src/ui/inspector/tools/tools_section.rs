//! [`ToolsSection`]: the graph's tools (format.md §4 (llm, tools) and §8), in the graph's own form.

use leptos::prelude::*;

use crate::model::editing::tools;
use crate::state::use_doc;
use crate::ui::fields::focus_later;
use crate::ui::inspector::tools::tool_card::ToolCard;

/// The graph's tools, one card each in the document's order, and `Add tool` (which adds a
/// working tool and puts the cursor in its name).
#[component]
pub fn ToolsSection() -> impl IntoView {
    let doc = use_doc();
    let count = Memo::new(move |_| doc.editor.with(|e| e.graph().tools.as_ref().map_or(0, |t| t.len())));
    let add = move |_| {
        doc.edit(|e| {
            let (edit, _) = tools::add(e.graph());
            e.apply(edit);
        });
        focus_later(".tool-card:last-child .tool-card-name".into());
    };
    view! {
        <fieldset class="field group tools-section">
            <legend>"Tools"</legend>
            {move || if count.get() == 0 {
                view! { <span class="hint">"No tools: add one, then tick it in an LLM node's Tools so its model may call it."</span> }.into_any()
            } else {
                view! { <span class="hint">"Functions an LLM node's model may call; a Tools node runs the calls."</span> }.into_any()
            }}
            <div class="tool-list">
                <For each=move || 0..count.get() key=|i| *i children=move |i| view! { <ToolCard index=i/> }/>
            </div>
            <div class="row-actions">
                <button type="button" class="small" on:click=add>"Add tool"</button>
            </div>
        </fieldset>
    }
}
