//! [`JsonInput`]: any JSON value, checked as it is typed.

use leptos::prelude::*;
use serde_json::Value;

use crate::ui::fields::check::Validator;
use crate::ui::fields::check_status::CheckStatus;
use crate::ui::fields::helpers::unique_id;

/// A JSON text box, checked as it is typed and committed on change when it is valid (an
/// invalid draft stays, with its error, until it is fixed: the document keeps its last valid
/// value). While the text is wrong the box is `aria-invalid` and described by the error.
#[component]
pub fn JsonInput(
    #[prop(into)] aria_label: Signal<String>,
    #[prop(into)] value: Signal<Option<Value>>,
    #[prop(into)] on_commit: Callback<Option<Value>>,
    /// Further checks once the text is JSON.
    #[prop(optional)]
    validate: Option<Validator>,
    /// Empty text means the value is absent.
    #[prop(optional)]
    optional: bool,
    /// One line, compact JSON (for small values such as a default).
    #[prop(optional)]
    single_line: bool,
    #[prop(optional)] rows: Option<u32>,
    #[prop(optional, into)] placeholder: Option<String>,
    /// How the model's value is written out, when not as plain JSON (a graph document keeps
    /// its own field order).
    #[prop(optional, into)]
    shown: Option<Signal<String>>,
) -> impl IntoView {
    let placeholder = placeholder.filter(|p| !p.is_empty());
    let model_text = Memo::new(move |_| {
        if let Some(shown) = shown {
            return shown.get();
        }
        value.with(|v| match v {
            None => String::new(),
            Some(v) if single_line => v.to_string(),
            Some(v) => serde_json::to_string_pretty(v).unwrap_or_default(),
        })
    });
    let draft = RwSignal::new(None::<String>);
    // A change from elsewhere (undo, another field) replaces whatever was being typed.
    Effect::new(move |_| {
        model_text.track();
        draft.set(None);
    });
    let parse = move |src: &str| -> Result<Option<Value>, String> {
        if src.trim().is_empty() {
            return if optional { Ok(None) } else { Err("✗ enter a JSON value".into()) };
        }
        let v = engine::parse::parse_value(src).map_err(|e| format!("✗ {e}"))?;
        Ok(Some(v))
    };
    let verdict = {
        let validate = validate.clone();
        Memo::new(move |_| {
            let src = draft.get().unwrap_or_else(|| model_text.get());
            match parse(&src) {
                Ok(None) => None,
                Ok(Some(v)) => Some(match &validate {
                    Some(f) => f(&v),
                    None => Ok("✓ valid JSON".into()),
                }),
                Err(e) => Some(Err(e)),
            }
        })
    };
    let on_change = move |ev: web_sys::Event| {
        let text = event_target_value(&ev);
        let Ok(v) = parse(&text) else { return };
        if let (Some(v), Some(f)) = (&v, &validate)
            && f(v).is_err()
        {
            return;
        }
        // `try_`: a change the browser sends as the field is taken away must not panic.
        on_commit.try_run(v);
        draft.try_set(None);
    };
    let has_draft = move || draft.with(Option::is_some).then_some("");
    let text = move || draft.get().unwrap_or_else(|| model_text.get());
    let status_id = unique_id("json-check");
    let invalid = move || verdict.with(|v| matches!(v, Some(Err(_)))).to_string();
    let control = if single_line {
        view! {
            <input type="text" class="code" aria-label=move || aria_label.get() spellcheck="false" autocomplete="off"
                aria-invalid=invalid aria-describedby=status_id.clone() data-draft=has_draft
                placeholder=placeholder prop:value=text
                on:input=move |ev| draft.set(Some(event_target_value(&ev))) on:change=on_change/>
        }
        .into_any()
    } else {
        view! {
            <textarea class="code" aria-label=move || aria_label.get() spellcheck="false" rows=rows.unwrap_or(4)
                aria-invalid=invalid aria-describedby=status_id.clone() data-draft=has_draft
                placeholder=placeholder prop:value=text
                on:input=move |ev| draft.set(Some(event_target_value(&ev))) on:change=on_change></textarea>
        }
        .into_any()
    };
    view! {
        {control}
        <CheckStatus verdict=verdict id=status_id/>
    }
}
