//! [`SourceInput`]: the text control under most fields, with a draft and a source check.

use leptos::prelude::*;

use crate::model::editing::indent::indent;
use crate::state::use_doc;
use crate::ui::fields::check::{Check, ScopeNames, check_source};
use crate::ui::fields::check_status::CheckStatus;
use crate::ui::fields::helpers::unique_id;

/// A text input (or textarea) with a draft, an optional source check, and commit on change.
/// This is the control inside [`TextField`](crate::ui::fields::TextField), [`ExprField`](crate::ui::fields::ExprField)
/// and [`TemplateField`](crate::ui::fields::TemplateField), and in each row of [`KvField`](crate::ui::fields::KvField)
/// and [`ListField`](crate::ui::fields::ListField).
#[component]
pub fn SourceInput(
    /// The accessible name.
    #[prop(into)]
    aria_label: Signal<String>,
    #[prop(into)] value: Signal<String>,
    #[prop(into)] on_commit: Callback<String>,
    #[prop(optional)] check: Check,
    /// Empty text means the value is absent: nothing to check.
    #[prop(optional)]
    optional: bool,
    #[prop(optional)] multiline: bool,
    #[prop(optional)] rows: Option<u32>,
    #[prop(optional, into)] placeholder: Option<String>,
    /// The id of a `<datalist>` of suggestions.
    #[prop(optional, into)]
    list: Option<String>,
    /// Extra classes on the control (`kv-key`, `mono`…).
    #[prop(optional, into)]
    class: Option<String>,
    /// A script (multi-line): Tab and Shift+Tab indent in it, as in a code editor, and
    /// Escape leaves it. Elsewhere Tab moves on.
    #[prop(optional)]
    indents: bool,
) -> impl IntoView {
    let doc = use_doc();
    let more = use_context::<ScopeNames>();
    let value = Memo::new(move |_| value.get());
    let draft = RwSignal::new(None::<String>);
    let text = move || draft.get().unwrap_or_else(|| value.get());
    let verdict = Memo::new(move |_| {
        let src = draft.get().unwrap_or_else(|| value.get());
        if check == Check::Plain || (optional && src.trim().is_empty()) {
            return None;
        }
        // The sandbox's budgets depend on the graph's limits.
        let more = more.map(|m| m.0.get()).unwrap_or_default();
        check_source(&src, check, doc.editor.with_untracked(|e| e.graph().effective_limits()), &more)
    });
    let on_input = move |ev: web_sys::Event| draft.set(Some(event_target_value(&ev)));
    // `try_`: a change the browser sends as the field is taken away must not panic.
    let on_change = move |ev: web_sys::Event| {
        on_commit.try_run(event_target_value(&ev));
        // Show the model's value again: the same text if it was taken, the old one if not.
        draft.try_set(None);
    };
    // What is typed here but not yet committed (`actions::drafts` commits it first when the
    // person does something else).
    let has_draft = move || draft.with(Option::is_some).then_some("");
    let placeholder = placeholder.filter(|p| !p.is_empty());
    let list = list.filter(|l| !l.is_empty());
    let code = check != Check::Plain;
    // A checked field is described by its status line, and invalid while it shows an error.
    let status_id = code.then(|| unique_id("source-check"));
    let invalid = move || code.then(|| verdict.with(|v| matches!(v, Some(Err(_)))).to_string());
    let class = format!("{}{}", class.unwrap_or_default(), if code { " code" } else { "" }).trim().to_string();
    // In a script, Tab indents (Escape leaves the field, then Tab moves on).
    let indents = indents && multiline;
    let on_key = move |ev: web_sys::KeyboardEvent| {
        if indents && let Some(text) = tab_indent(&ev) {
            draft.set(Some(text));
        }
    };
    let control = if multiline {
        view! {
            <textarea
                class=class
                aria-label=move || aria_label.get()
                rows=rows.unwrap_or(3)
                aria-describedby=status_id.clone()
                aria-keyshortcuts=indents.then_some("Tab Shift+Tab")
                on:keydown=on_key
                aria-invalid=invalid
                spellcheck=(!code).to_string()
                placeholder=placeholder
                data-draft=has_draft
                prop:value=text
                on:input=on_input
                on:change=on_change
            ></textarea>
        }
        .into_any()
    } else {
        view! {
            <input
                type="text"
                class=class
                aria-label=move || aria_label.get()
                aria-describedby=status_id.clone()
                aria-invalid=invalid
                spellcheck=(!code).to_string()
                autocomplete="off"
                placeholder=placeholder
                list=list
                data-draft=has_draft
                prop:value=text
                on:input=on_input
                on:change=on_change
            />
        }
        .into_any()
    };
    view! {
        {control}
        {status_id.map(|id| view! { <CheckStatus verdict=verdict id=id/> })}
    }
}

/// Tab or Shift+Tab pressed in a text area: indents as a code editor does, and returns the
/// new text (the key does not move focus then).
fn tab_indent(ev: &web_sys::KeyboardEvent) -> Option<String> {
    if ev.key() != "Tab" || ev.ctrl_key() || ev.alt_key() || ev.meta_key() {
        return None;
    }
    let area: web_sys::HtmlTextAreaElement = event_target(ev);
    let start = area.selection_start().ok().flatten()? as usize;
    let end = area.selection_end().ok().flatten()? as usize;
    let done = indent(&area.value(), start, end, ev.shift_key());
    ev.prevent_default();
    area.set_value(&done.text);
    let _ = area.set_selection_range(done.start as u32, done.end as u32);
    Some(done.text)
}
