//! `MockResponseRow`: one of a mock model's responses.

use leptos::prelude::*;
use serde_json::Value;

use crate::model::editing::mock_replies::{MockResponse, Reply, ResponseKind};
use crate::ui::fields::{Check, JsonInput, SelectInput, SourceInput};
use crate::ui::inspector::tools::reply_editor::ReplyEditor;

type OptJson = Option<Value>;

/// What a rule's condition may use besides the node's usual names.
const RULE_SCOPE: &[&str] = &["prompt", "messages"];

/// Response `index` of `rows`: a kind (Text, Tool call, Rule; changing it keeps the text
/// and the calls), buttons to move it up or down and remove it, and the kind's fields.
///
/// Accessible names, for response 1: `Kind of response 1`, `Text of response 1`, `When of
/// response 1`, `Reply of response 1` (a rule's reply kind), `Reply text of response 1`,
/// `Move response 1 up`, `Move response 1 down`, `Remove response 1`, `JSON of response 1`,
/// and the [`ReplyEditor`]'s.
#[component]
pub fn MockResponseRow(
    index: usize,
    rows: Memo<Vec<MockResponse>>,
    commit: Callback<Vec<MockResponse>>,
    tools: Signal<Vec<String>>,
    /// The id of the datalist of tool names.
    list: String,
) -> impl IntoView {
    let n = index + 1;
    let item = Memo::new(move |_| rows.with(|v| v.get(index).cloned()));
    let kind = Memo::new(move |_| item.with(|i| i.as_ref().map_or(ResponseKind::Text, MockResponse::kind)));
    let len = Memo::new(move |_| rows.with(Vec::len));
    let first_tool = Signal::derive(move || tools.with(|t| t.first().cloned().unwrap_or_else(|| "tool".into())));
    let set = move |r: MockResponse| {
        let mut v = rows.get_untracked();
        if let Some(slot) = v.get_mut(index) {
            *slot = r;
            commit.run(v);
        }
    };
    let shift = move |to: usize| {
        let mut v = rows.get_untracked();
        if to < v.len() && index < v.len() {
            v.swap(index, to);
            commit.run(v);
        }
    };
    let remove = move |_| {
        let mut v = rows.get_untracked();
        if index < v.len() {
            v.remove(index);
            commit.run(v);
        }
    };
    let kind_options = Signal::derive(move || {
        let mut o: Vec<(String, String)> =
            ResponseKind::CHOICES.iter().map(|k| (k.name().to_string(), k.title().to_string())).collect();
        if kind.get() == ResponseKind::Other {
            o.push((ResponseKind::Other.name().into(), ResponseKind::Other.title().into()));
        }
        o
    });
    let convert = move |v: String| {
        let (Some(k), Some(cur)) = (ResponseKind::from_name(&v), item.get_untracked()) else { return };
        if k != cur.kind() {
            set(cur.convert(k, &first_tool.get_untracked()));
        }
    };
    let body = move || {
        let list = list.clone();
        match kind.get() {
            ResponseKind::Text => view! {
                <SourceInput aria_label=format!("Text of response {n}") multiline=true rows=2u32 placeholder="The reply"
                    value=Signal::derive(move || item.with(|i| match i {
                        Some(MockResponse::Reply(r)) => r.text(),
                        _ => String::new(),
                    }))
                    on_commit=move |v: String| set(MockResponse::Reply(Reply::Text(v)))/>
            }
            .into_any(),
            ResponseKind::ToolCall => view! {
                <ReplyEditor prefix=format!("response {n}") list=list first_tool=first_tool
                    reply=Signal::derive(move || match item.get() {
                        Some(MockResponse::Reply(r)) => r,
                        _ => Reply::Text(String::new()),
                    })
                    on_commit=move |r: Reply| set(MockResponse::Reply(r))/>
            }
            .into_any(),
            ResponseKind::Rule => rule(n, item, set, first_tool, list).into_any(),
            ResponseKind::Other => view! {
                <JsonInput aria_label=format!("JSON of response {n}") rows=2u32
                    value=Signal::derive(move || item.with(|i| i.as_ref().map(MockResponse::to_value)))
                    on_commit=move |v: OptJson| set(MockResponse::from_value(&v.unwrap_or(Value::Null)))/>
            }
            .into_any(),
        }
    };
    view! {
        <div class="response-card" role="group" aria-label=format!("Response {n}")>
            <div class="response-line">
                <span class="response-number" aria-hidden="true">{n}</span>
                <SelectInput aria_label=format!("Kind of response {n}") options=kind_options
                    value=Signal::derive(move || kind.get().name().to_string()) on_commit=convert/>
                <button type="button" class="icon" title="Move up" aria-label=format!("Move response {n} up")
                    disabled={index == 0} on:click=move |_| shift(index.wrapping_sub(1))>"↑"</button>
                <button type="button" class="icon" title="Move down" aria-label=format!("Move response {n} down")
                    disabled={move || index + 1 >= len.get()} on:click=move |_| shift(index + 1)>"↓"</button>
                <button type="button" class="icon remove" title="Remove" aria-label=format!("Remove response {n}")
                    on:click=remove>"×"</button>
            </div>
            {body}
        </div>
    }
}

/// A rule's condition and its reply (text or a message with tool calls).
fn rule(
    n: usize,
    item: Memo<Option<MockResponse>>,
    set: impl Fn(MockResponse) + Copy + Send + Sync + 'static,
    first_tool: Signal<String>,
    list: String,
) -> impl IntoView {
    let when = Memo::new(move |_| match item.get() {
        Some(MockResponse::Rule { when, .. }) => when,
        _ => String::new(),
    });
    let reply = Memo::new(move |_| match item.get() {
        Some(MockResponse::Rule { reply, .. }) => reply,
        _ => Reply::Text(String::new()),
    });
    let set_reply = move |r: Reply| set(MockResponse::Rule { when: when.get_untracked(), reply: r });
    let reply_kind = Memo::new(move |_| matches!(reply.get(), Reply::Message { .. }));
    let choose = move |v: String| {
        let r = reply.get_untracked();
        set_reply(if v == "tool_call" { r.with_calls(&first_tool.get_untracked()) } else { Reply::Text(r.text()) });
    };
    let reply_options =
        vec![("text".to_string(), "Text".to_string()), ("tool_call".to_string(), "Tool call".to_string())];
    view! {
        <label class="field">
            <span>"When"</span>
            <SourceInput aria_label=format!("When of response {n}") check=Check::Expr(RULE_SCOPE) value=when
                on_commit=move |v: String| set(MockResponse::Rule { when: v, reply: reply.get_untracked() })/>
            <span class="hint">"An expression over state, input, prompt and messages."</span>
        </label>
        <label class="field">
            <span>"Reply"</span>
            <SelectInput aria_label=format!("Reply of response {n}") options=reply_options
                value=Signal::derive(move || if reply_kind.get() { "tool_call" } else { "text" }.to_string())
                on_commit=choose/>
        </label>
        {move || {
            let list = list.clone();
            if reply_kind.get() {
                view! {
                    <ReplyEditor prefix=format!("response {n} reply") list=list first_tool=first_tool reply=reply
                        on_commit=set_reply/>
                }
                .into_any()
            } else {
                view! {
                    <SourceInput aria_label=format!("Reply text of response {n}") multiline=true rows=2u32
                        placeholder="The reply" value=Signal::derive(move || reply.with(Reply::text))
                        on_commit=move |v: String| set_reply(Reply::Text(v))/>
                }
                .into_any()
            }
        }}
    }
}
