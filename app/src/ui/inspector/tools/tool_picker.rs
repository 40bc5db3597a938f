//! [`ToolPicker`]: which of the graph's tools an `llm` node offers its model.

use leptos::prelude::*;

/// One checkbox per tool of the graph, named by the tool's name, ticked when the node offers
/// it. A name the node lists but the graph does not define is shown too (marked), so it can
/// be unticked. With no tools at all, says where they are made.
#[component]
pub fn ToolPicker(
    /// `(name, defined by the graph)`, the graph's tools first.
    #[prop(into)]
    choices: Signal<Vec<(String, bool)>>,
    /// The names the node offers.
    #[prop(into)]
    offered: Signal<Vec<String>>,
    /// `(name, ticked)`.
    #[prop(into)]
    on_toggle: Callback<(String, bool)>,
) -> impl IntoView {
    let boxes = move || {
        choices
            .get()
            .into_iter()
            .map(|(name, defined)| {
                let checked = {
                    let name = name.clone();
                    move || offered.with(|o| o.contains(&name))
                };
                let toggle = {
                    let name = name.clone();
                    move |ev| on_toggle.run((name.clone(), event_target_checked(&ev)))
                };
                view! {
                    <label class="field checkbox tool-choice">
                        <input type="checkbox" aria-label=name.clone() prop:checked=checked on:change=toggle/>
                        <span class="mono">{name.clone()}</span>
                        {(!defined).then(|| view! { <span class="hint">"not defined in this graph"</span> })}
                    </label>
                }
            })
            .collect_view()
    };
    view! {
        <fieldset class="field group tool-picker">
            <legend>"Tools"</legend>
            {move || if choices.with(Vec::is_empty) {
                view! {
                    <span class="hint">
                        "This graph has no tools yet. Add them in the graph's inspector: click the canvas background, then Add tool."
                    </span>
                }.into_any()
            } else {
                view! {
                    <span class="hint">"The tools the model may call."</span>
                    <div class="tool-choices">{boxes}</div>
                }.into_any()
            }}
        </fieldset>
    }
}
