//! A `messages` field in the State region: the field's row, then its transcript as a list
//! named for the field, one item per message (role, name, content, tool calls with their
//! arguments, the call a tool result answers), each marked `data-changed` when the shown step
//! added or replaced it.

use leptos::prelude::*;

use crate::model::runs::transcript::{Change, MessageView};

#[component]
pub fn TranscriptEntry(name: String, messages: Vec<MessageView>, changed: bool) -> impl IntoView {
    let open = RwSignal::new(true);
    let count = messages.len();
    let summary = format!("{count} message{}", if count == 1 { "" } else { "s" });
    let label = name.clone();
    view! {
        <li class="tree-entry transcript-entry" class:changed=changed data-key=name.clone()
            data-changed=if changed { "true" } else { "false" }>
            <div class="tree-row">
                <button class="fold" aria-label=format!("Expand {name}") aria-expanded=move || open.get().to_string()
                    on:click=move |_| open.update(|o| *o = !*o)>
                    {move || if open.get() { "▾" } else { "▸" }}
                </button>
                <span class="tree-key">{name.clone()}</span>
                <span class="tree-value">{summary}</span>
            </div>
            <Show when=move || open.get()>
                <ol class="transcript" aria-label=label.clone()>
                    {messages.clone().into_iter().map(|m| view! { <Message m=m/> }).collect_view()}
                </ol>
            </Show>
        </li>
    }
}

#[component]
fn Message(m: MessageView) -> impl IntoView {
    let change_note = match m.change {
        Change::Kept => None,
        Change::Added => Some("added in this step"),
        Change::Replaced => Some("replaced in this step"),
    };
    let answered_tool = m.answers.as_ref().and_then(|a| a.tool.clone());
    let answers = m.answers.map(|a| {
        let what = match a.tool {
            Some(tool) => format!("Result of {tool} (call {})", a.call_id),
            None => format!("Result of call {}", a.call_id),
        };
        view! { <p class="message-answers">{what}</p> }
    });
    let calls = (!m.tool_calls.is_empty()).then(|| {
        view! {
            <ul class="tool-calls" aria-label="Tool calls">
                {m.tool_calls.into_iter().map(|c| view! {
                    <li class="tool-call" data-call-id=c.id.clone()>
                        <span class="tool-call-head">
                            <span class="tool-call-label">"calls "</span>
                            <span class="tool-name">{c.name}</span>
                            <span class="tool-call-id">{format!("({})", c.id)}</span>
                        </span>
                        <pre class="tool-args" aria-label="Arguments">{c.arguments}</pre>
                    </li>
                }).collect_view()}
            </ul>
        }
    });
    let empty = m.content.is_empty();
    // A tool result's name is the tool its call named, said in the line above it.
    let name = m.name.filter(|n| answered_tool.as_deref() != Some(n.as_str()));
    let changed = m.change != Change::Kept;
    let role = m.role.clone();
    view! {
        <li class="message" class:changed=changed data-role=m.role data-message-id=m.key
            data-changed=if changed { "true" } else { "false" }>
            <div class="message-head">
                <span class="message-role">{role}</span>
                {name.map(|n| view! { <span class="message-name">{n}</span> })}
                {change_note.map(|note| view! { <span class="message-change">{note}</span> })}
            </div>
            {answers}
            {(!empty).then(|| view! { <div class="message-content">{m.content}</div> })}
            {calls}
        </li>
    }
}
