//! [`NumberInput`]: a number typed as text, checked before it is committed.

use leptos::prelude::*;

use crate::ui::fields::check_status::CheckStatus;

/// A number as a person writes it: `120`, not `120.0`.
pub fn fmt_number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 9.0e15 { format!("{}", v as i64) } else { v.to_string() }
}

/// A number input; empty means absent (the default applies). Wrong input is reported under
/// the field and not committed.
#[component]
pub fn NumberInput(
    #[prop(into)] aria_label: Signal<String>,
    #[prop(into)] value: Signal<Option<f64>>,
    #[prop(into)] on_commit: Callback<Option<f64>>,
    /// Only whole numbers.
    #[prop(optional)]
    integer: bool,
    #[prop(default = None, into)] min: Option<f64>,
    #[prop(default = None, into)] max: Option<f64>,
    #[prop(optional, into)] placeholder: Option<String>,
    #[prop(optional, into)] disabled: Signal<bool>,
) -> impl IntoView {
    let placeholder = placeholder.filter(|p| !p.is_empty());
    let value = Memo::new(move |_| value.get().map(fmt_number).unwrap_or_default());
    let draft = RwSignal::new(None::<String>);
    let problem = RwSignal::new(None::<String>);
    let parse = move |text: &str| -> Result<Option<f64>, String> {
        let t = text.trim();
        if t.is_empty() {
            return Ok(None);
        }
        let v: f64 = t.parse().map_err(|_| format!("✗ `{t}` is not a number"))?;
        if !v.is_finite() {
            return Err("✗ not a finite number".into());
        }
        if integer && v.fract() != 0.0 {
            return Err("✗ use a whole number".into());
        }
        if let Some(m) = min
            && v < m
        {
            return Err(format!("✗ must be at least {}", fmt_number(m)));
        }
        if let Some(m) = max
            && v > m
        {
            return Err(format!("✗ must be at most {}", fmt_number(m)));
        }
        Ok(Some(v))
    };
    // `try_`: a change the browser sends as the field is taken away must not panic.
    let on_change = move |ev: web_sys::Event| match parse(&event_target_value(&ev)) {
        Ok(v) => {
            on_commit.try_run(v);
            draft.try_set(None);
            problem.try_set(None);
        }
        Err(e) => {
            problem.try_set(Some(e));
        }
    };
    let verdict = Signal::derive(move || problem.get().map(Err));
    view! {
        <input
            type="text"
            inputmode=if integer { "numeric" } else { "decimal" }
            autocomplete="off"
            aria-label=move || aria_label.get()
            aria-invalid=move || problem.with(Option::is_some).to_string()
            placeholder=placeholder
            disabled=move || disabled.get()
            data-draft=move || draft.with(Option::is_some).then_some("")
            prop:value=move || draft.get().unwrap_or_else(|| value.get())
            on:input=move |ev| {
                draft.set(Some(event_target_value(&ev)));
                problem.set(None);
            }
            on:change=on_change
        />
        <CheckStatus verdict=verdict/>
    }
}
