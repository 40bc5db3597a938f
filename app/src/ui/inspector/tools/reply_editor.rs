//! `ReplyEditor`: a mock reply's content and tool calls.

use std::sync::Arc;

use leptos::prelude::*;
use serde_json::Value;

use crate::model::editing::mock_replies::{MockCall, Reply};
use crate::ui::fields::{JsonInput, SourceInput, Validator};

type OptJson = Option<Value>;

/// A call's arguments: an object.
fn arguments_validator() -> Validator {
    Arc::new(|v: &Value| match v {
        Value::Object(_) => Ok(String::new()),
        _ => Err("✗ arguments are a JSON object, like {\"city\": \"Paris\"}".into()),
    })
}

/// The content (optional) and the tool calls, one line each: the tool's name (suggested from
/// the graph's tools) and its arguments as checked JSON; a wrong draft is never saved.
/// Removing the last call of a reply with no content leaves an empty text reply.
///
/// Accessible names, with `prefix` `response 1`: `Content of response 1`, `Tool of call 1 of
/// response 1`, `Arguments of call 1 of response 1`, `Remove call 1 of response 1`, `Add
/// call to response 1`.
#[component]
pub fn ReplyEditor(
    /// What the names end with: `response 1`, `response 1 reply`.
    prefix: String,
    #[prop(into)] reply: Signal<Reply>,
    #[prop(into)] on_commit: Callback<Reply>,
    /// The id of the datalist of tool names.
    list: String,
    /// The tool a new call goes to.
    first_tool: Signal<String>,
) -> impl IntoView {
    let parts = Memo::new(move |_| match reply.get() {
        Reply::Text(t) => ((!t.is_empty()).then_some(t), Vec::new()),
        Reply::Message { content, tool_calls } => (content, tool_calls),
    });
    let write = move |content: Option<String>, tool_calls: Vec<MockCall>| {
        on_commit.run(if content.is_none() && tool_calls.is_empty() {
            Reply::Text(String::new())
        } else {
            Reply::Message { content, tool_calls }
        });
    };
    let set_call = move |k: usize, f: &dyn Fn(&mut MockCall)| {
        let (content, mut calls) = parts.get_untracked();
        if let Some(c) = calls.get_mut(k) {
            f(c);
            write(content, calls);
        }
    };
    let len = Memo::new(move |_| parts.with(|(_, c)| c.len()));
    let add = move |_| {
        let (content, mut calls) = parts.get_untracked();
        calls.push(MockCall { name: first_tool.get_untracked(), arguments: Some(Value::Object(Default::default())) });
        write(content, calls);
    };
    let call_row = {
        let prefix = prefix.clone();
        move |k: usize| {
            let call = Memo::new(move |_| parts.with(|(_, c)| c.get(k).cloned().unwrap_or_default()));
            let remove = move |_| {
                let (content, mut calls) = parts.get_untracked();
                if k < calls.len() {
                    calls.remove(k);
                    write(content, calls);
                }
            };
            let at = format!("call {} of {prefix}", k + 1);
            view! {
                <div class="call-row">
                    <SourceInput class="call-tool" aria_label=format!("Tool of {at}") list=list.clone() placeholder="tool"
                        value=Signal::derive(move || call.with(|c| c.name.clone()))
                        on_commit=move |v: String| set_call(k, &|c| c.name = v.trim().to_string())/>
                    <button type="button" class="icon remove" title="Remove" aria-label=format!("Remove {at}")
                        on:click=remove>"×"</button>
                    <div class="call-args">
                        <JsonInput aria_label=format!("Arguments of {at}") single_line=true optional=true
                            validate=arguments_validator() placeholder="arguments: {}"
                            value=Signal::derive(move || call.with(|c| c.arguments.clone()))
                            on_commit=move |v: OptJson| set_call(k, &|c| c.arguments = v.clone())/>
                    </div>
                </div>
            }
        }
    };
    view! {
        <label class="field">
            <span>"Content"</span>
            <SourceInput aria_label=format!("Content of {prefix}") multiline=true rows=1u32 placeholder="optional text"
                value=Signal::derive(move || parts.with(|(c, _)| c.clone().unwrap_or_default()))
                on_commit=move |v: String| {
                    let (_, calls) = parts.get_untracked();
                    write((!v.is_empty()).then_some(v), calls);
                }/>
        </label>
        <div class="calls" role="group" aria-label=format!("Tool calls of {prefix}")>
            <span class="calls-head" aria-hidden="true">"Tool calls: the tool, then its arguments (JSON)"</span>
            <For each=move || 0..len.get() key=|k| *k children=call_row/>
            <div class="row-actions">
                <button type="button" class="small" aria-label=format!("Add call to {prefix}") on:click=add>"Add call"</button>
            </div>
        </div>
    }
}
