//! [`MockResponses`]: a mock model's `responses` (format.md §4 (llm, tools) and §8), one row each.

use leptos::prelude::*;
use serde_json::Value;

use crate::model::editing::mock_replies::{self, MockResponse, ResponseKind};
use crate::ui::fields::{focus_later, unique_id};
use crate::ui::inspector::tools::mock_response_row::MockResponseRow;

/// The responses in order, each a [`MockResponseRow`] (text, tool calls or a rule), and
/// `Add response` (a text reply, its box focused). Every change commits the whole list.
#[component]
pub fn MockResponses(
    #[prop(into)] value: Signal<Vec<Value>>,
    #[prop(into)] on_commit: Callback<Vec<Value>>,
    /// The graph's tool names, suggested for calls.
    #[prop(into)]
    tools: Signal<Vec<String>>,
) -> impl IntoView {
    let rows = Memo::new(move |_| value.with(|v| mock_replies::read(v)));
    let commit = Callback::new(move |rows: Vec<MockResponse>| on_commit.run(mock_replies::write(&rows)));
    let len = Memo::new(move |_| rows.with(Vec::len));
    let add = move |_| {
        let mut v = rows.get_untracked();
        v.push(MockResponse::fresh(ResponseKind::Text, ""));
        commit.run(v);
        focus_later(".responses .response-card:last-child textarea".into());
    };
    let list_id = unique_id("tool-names");
    view! {
        <fieldset class="field group responses">
            <legend>"Responses"</legend>
            <span class="hint">
                "Rules answer whenever their condition holds (tried first, in order); the others answer in turn, one per run."
            </span>
            <datalist id=list_id.clone()>
                {move || tools.get().into_iter().map(|t| view! { <option value=t></option> }).collect_view()}
            </datalist>
            <div class="response-list">
                <For each=move || 0..len.get() key=|i| *i children=move |index| {
                    view! { <MockResponseRow index=index rows=rows commit=commit tools=tools list=list_id.clone()/> }
                }/>
            </div>
            {move || (len.get() == 0).then(|| view! {
                <span class="hint empty">"No responses: a run of this node fails with “no mock reply matches”."</span>
            })}
            <div class="row-actions">
                <button type="button" class="small" on:click=add>"Add response"</button>
            </div>
        </fieldset>
    }
}
