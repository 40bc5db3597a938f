//! Small form fields for the inspector, one concern each.
//!
//! Every field shows the model's value and keeps what is being typed as a *draft*: checks
//! (expression, template, JSON, number) run on the draft as you type, and the value is
//! committed only on `change` (blur or Enter), so one edit is one step of undo and a
//! half-typed value never reaches the document. After a commit the field shows the model's
//! value again: a refused value (a clashing id, a name already used) springs back.
//!
//! Each control has an accessible name (`aria-label`, and a `<label>` around it), which is
//! how the end-to-end tests find it.
//!
//! | component | edits |
//! |---|---|
//! | [`TextField`] | a line (or block) of text |
//! | [`ExprField`] / [`TemplateField`] | Rhai source, compiled in the sandbox as you type |
//! | [`NumberField`] | a number; empty means absent |
//! | [`CheckboxField`] | a flag |
//! | [`SelectField`] | one of a few values |
//! | [`JsonField`] | any JSON value, checked as you type |
//! | [`KvField`] | a map of names to text (`set`, `inputs`, `outputs`, `headers`) |
//! | [`ListField`] | a list of strings (`options`, `required`) |

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use engine::document::EffectiveLimits;
use engine::script::Scripting;
use indexmap::IndexMap;
use leptos::prelude::*;
use serde_json::Value;
use wasm_bindgen::JsCast;

use super::store::use_store;

/// How source text is checked while it is typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Check {
    /// Plain text: nothing to check.
    #[default]
    Plain,
    /// A Rhai expression (or script) that may also use these names.
    Expr(&'static [&'static str]),
    /// A `{{ expression }}` template.
    Template,
}

/// What a check found: `Ok` with the text shown when all is well, or the error.
pub type Verdict = Result<String, String>;

/// Checks a JSON value beyond its syntax (an object, a list, a graph document…).
pub type Validator = Arc<dyn Fn(&Value) -> Verdict + Send + Sync>;

thread_local! {
    /// Building a Rhai engine costs more than compiling a line, so one is kept per limits.
    static SANDBOX: RefCell<Option<(EffectiveLimits, Rc<Scripting>)>> = const { RefCell::new(None) };
}

fn sandbox(limits: EffectiveLimits) -> Rc<Scripting> {
    SANDBOX.with(|cell| {
        let mut cell = cell.borrow_mut();
        if let Some((l, s)) = cell.as_ref()
            && *l == limits
        {
            return s.clone();
        }
        let s = Rc::new(Scripting::new(&limits));
        *cell = Some((limits, s.clone()));
        s
    })
}

/// Compiles `src` as the engine will: `✓ compiles`, or Rhai's message with line and position.
pub fn check_source(src: &str, check: Check, limits: EffectiveLimits) -> Option<Verdict> {
    let s = sandbox(limits);
    let result = match check {
        Check::Plain => return None,
        Check::Expr(extra) => s.compile(src, extra).map(|_| ()),
        Check::Template => s.compile_template(src, &[]).map(|_| ()),
    };
    Some(result.map(|()| "✓ compiles".to_string()).map_err(|e| format!("✗ {e}")))
}

/// A number as a person writes it: `120`, not `120.0`.
pub fn fmt_number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 9.0e15 { format!("{}", v as i64) } else { v.to_string() }
}

/// A unique suffix for element ids (datalists, groups).
pub fn unique_id(prefix: &str) -> String {
    static NEXT: AtomicUsize = AtomicUsize::new(1);
    format!("{prefix}-{}", NEXT.fetch_add(1, Ordering::Relaxed))
}

/// `[("a", "A")]` as owned option pairs for [`SelectField`].
pub fn options(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter().map(|(v, t)| (v.to_string(), t.to_string())).collect()
}

/// After a row was added, focuses the input matching `selector` and selects its text.
pub fn focus_later(selector: String) {
    request_animation_frame(move || {
        if let Some(el) = document().query_selector(&selector).ok().flatten()
            && let Ok(input) = el.dyn_into::<web_sys::HtmlInputElement>()
        {
            let _ = input.focus();
            input.select();
        }
    });
}

/// `base`, or `base_2`, `base_3`… whichever `taken` does not hold.
pub fn fresh_name(base: &str, taken: impl Fn(&str) -> bool) -> String {
    if !taken(base) {
        return base.to_string();
    }
    (2..).map(|k| format!("{base}_{k}")).find(|n| !taken(n)).unwrap_or_else(|| base.to_string())
}

/// The status line under a checked field (`role="status"`, so it is announced).
#[component]
pub fn CheckStatus(#[prop(into)] verdict: Signal<Option<Verdict>>) -> impl IntoView {
    view! {
        <span
            class="check"
            class:good=move || verdict.with(|v| matches!(v, Some(Ok(_))))
            class:bad=move || verdict.with(|v| matches!(v, Some(Err(_))))
            role="status"
            hidden=move || verdict.with(|v| v.as_ref().is_none_or(|v| v.as_ref().is_ok_and(String::is_empty)))
        >
            {move || verdict.get().map(|v| v.unwrap_or_else(|e| e))}
        </span>
    }
}

/// A text input (or textarea) with a draft, an optional source check, and commit on change.
/// This is the control inside [`TextField`], [`ExprField`] and [`TemplateField`], and in
/// each row of [`KvField`] and [`ListField`].
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
) -> impl IntoView {
    let store = use_store();
    let value = Memo::new(move |_| value.get());
    let draft = RwSignal::new(None::<String>);
    let text = move || draft.get().unwrap_or_else(|| value.get());
    let verdict = Memo::new(move |_| {
        let src = draft.get().unwrap_or_else(|| value.get());
        if check == Check::Plain || (optional && src.trim().is_empty()) {
            return None;
        }
        // The sandbox's budgets depend on the graph's limits.
        check_source(&src, check, store.editor.with_untracked(|e| e.graph().effective_limits()))
    });
    let on_input = move |ev: web_sys::Event| draft.set(Some(event_target_value(&ev)));
    let on_change = move |ev: web_sys::Event| {
        on_commit.run(event_target_value(&ev));
        // Show the model's value again: the same text if it was taken, the old one if not.
        draft.set(None);
    };
    let placeholder = placeholder.filter(|p| !p.is_empty());
    let list = list.filter(|l| !l.is_empty());
    let code = check != Check::Plain;
    let class = format!("{}{}", class.unwrap_or_default(), if code { " code" } else { "" }).trim().to_string();
    let control = if multiline {
        view! {
            <textarea
                class=class
                aria-label=move || aria_label.get()
                rows=rows.unwrap_or(3)
                spellcheck=(!code).to_string()
                placeholder=placeholder
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
                spellcheck=(!code).to_string()
                autocomplete="off"
                placeholder=placeholder
                list=list
                prop:value=text
                on:input=on_input
                on:change=on_change
            />
        }
        .into_any()
    };
    view! {
        {control}
        {code.then(|| view! { <CheckStatus verdict=verdict/> })}
    }
}

/// A labelled text field.
#[component]
pub fn TextField(
    #[prop(into)] label: String,
    #[prop(into)] value: Signal<String>,
    #[prop(into)] on_commit: Callback<String>,
    #[prop(optional)] multiline: bool,
    #[prop(optional)] rows: Option<u32>,
    #[prop(optional, into)] placeholder: Option<String>,
    #[prop(optional, into)] list: Option<String>,
    #[prop(optional, into)] hint: Option<String>,
) -> impl IntoView {
    view! {
        <label class="field">
            <span>{label.clone()}</span>
            <SourceInput aria_label=label value=value on_commit=on_commit multiline=multiline rows=rows.unwrap_or(2)
                placeholder=placeholder.unwrap_or_default() list=list.unwrap_or_default()/>
            {hint.map(|h| view! { <span class="hint">{h}</span> })}
        </label>
    }
}

/// A labelled Rhai expression (or script), compiled in the sandbox as it is typed.
#[component]
pub fn ExprField(
    #[prop(into)] label: String,
    #[prop(into)] value: Signal<String>,
    #[prop(into)] on_commit: Callback<String>,
    /// Names in scope besides `state`, `input`, `outputs`, `errors`, `step`.
    #[prop(optional)]
    extra: &'static [&'static str],
    #[prop(optional)] optional: bool,
    #[prop(optional)] multiline: bool,
    #[prop(optional)] rows: Option<u32>,
    #[prop(optional, into)] placeholder: Option<String>,
    #[prop(optional, into)] hint: Option<String>,
) -> impl IntoView {
    view! {
        <label class="field">
            <span>{label.clone()}</span>
            <SourceInput aria_label=label value=value on_commit=on_commit check=Check::Expr(extra) optional=optional
                multiline=multiline rows=rows.unwrap_or(3) placeholder=placeholder.unwrap_or_default()/>
            {hint.map(|h| view! { <span class="hint">{h}</span> })}
        </label>
    }
}

/// A labelled `{{ }}` template, compiled in the sandbox as it is typed.
#[component]
pub fn TemplateField(
    #[prop(into)] label: String,
    #[prop(into)] value: Signal<String>,
    #[prop(into)] on_commit: Callback<String>,
    #[prop(optional)] optional: bool,
    #[prop(optional)] multiline: bool,
    #[prop(optional)] rows: Option<u32>,
    #[prop(optional, into)] placeholder: Option<String>,
    #[prop(optional, into)] hint: Option<String>,
) -> impl IntoView {
    view! {
        <label class="field">
            <span>{label.clone()}</span>
            <SourceInput aria_label=label value=value on_commit=on_commit check=Check::Template optional=optional
                multiline=multiline rows=rows.unwrap_or(3) placeholder=placeholder.unwrap_or_default()/>
            {hint.map(|h| view! { <span class="hint">{h}</span> })}
        </label>
    }
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
    let on_change = move |ev: web_sys::Event| match parse(&event_target_value(&ev)) {
        Ok(v) => {
            on_commit.run(v);
            draft.set(None);
            problem.set(None);
        }
        Err(e) => problem.set(Some(e)),
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

/// A labelled [`NumberInput`].
#[component]
pub fn NumberField(
    #[prop(into)] label: String,
    #[prop(into)] value: Signal<Option<f64>>,
    #[prop(into)] on_commit: Callback<Option<f64>>,
    #[prop(optional)] integer: bool,
    #[prop(default = None, into)] min: Option<f64>,
    #[prop(default = None, into)] max: Option<f64>,
    #[prop(optional, into)] placeholder: Option<String>,
    #[prop(optional, into)] hint: Option<String>,
    #[prop(optional, into)] disabled: Signal<bool>,
) -> impl IntoView {
    view! {
        <label class="field">
            <span>{label.clone()}</span>
            <NumberInput aria_label=label value=value on_commit=on_commit integer=integer min=min
                max=max placeholder=placeholder.unwrap_or_default() disabled=disabled/>
            {hint.map(|h| view! { <span class="hint">{h}</span> })}
        </label>
    }
}

/// A labelled checkbox, committed at once.
#[component]
pub fn CheckboxField(
    #[prop(into)] label: String,
    #[prop(into)] value: Signal<bool>,
    #[prop(into)] on_commit: Callback<bool>,
    #[prop(optional, into)] hint: Option<String>,
) -> impl IntoView {
    view! {
        <label class="field checkbox">
            <input type="checkbox" aria-label=label.clone() prop:checked=move || value.get()
                on:change=move |ev| on_commit.run(event_target_checked(&ev))/>
            <span>{label}</span>
            {hint.map(|h| view! { <span class="hint">{h}</span> })}
        </label>
    }
}

/// A `<select>`; a current value that is not among `options` is shown as it is.
#[component]
pub fn SelectInput(
    #[prop(into)] aria_label: Signal<String>,
    /// `(value, text)` pairs.
    #[prop(into)]
    options: Signal<Vec<(String, String)>>,
    #[prop(into)] value: Signal<String>,
    #[prop(into)] on_commit: Callback<String>,
) -> impl IntoView {
    let value = Memo::new(move |_| value.get());
    let all = Memo::new(move |_| {
        let mut all = options.get();
        let current = value.get();
        if !all.iter().any(|(v, _)| *v == current) {
            all.insert(0, (current.clone(), current));
        }
        all
    });
    view! {
        <select aria-label=move || aria_label.get() on:change=move |ev| on_commit.run(event_target_value(&ev))>
            {move || all.get().into_iter().map(|(v, text)| {
                let selected = v == value.get_untracked();
                view! { <option value=v selected=selected>{text}</option> }
            }).collect_view()}
        </select>
    }
}

/// A labelled [`SelectInput`].
#[component]
pub fn SelectField(
    #[prop(into)] label: String,
    #[prop(into)] options: Signal<Vec<(String, String)>>,
    #[prop(into)] value: Signal<String>,
    #[prop(into)] on_commit: Callback<String>,
    #[prop(optional, into)] hint: Option<String>,
) -> impl IntoView {
    view! {
        <label class="field">
            <span>{label.clone()}</span>
            <SelectInput aria_label=label options=options value=value on_commit=on_commit/>
            {hint.map(|h| view! { <span class="hint">{h}</span> })}
        </label>
    }
}

/// A JSON text box, checked as it is typed and committed on change when it is valid (an
/// invalid draft stays, with its error, until it is fixed).
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
        on_commit.run(v);
        draft.set(None);
    };
    let text = move || draft.get().unwrap_or_else(|| model_text.get());
    let control = if single_line {
        view! {
            <input type="text" class="code" aria-label=move || aria_label.get() spellcheck="false" autocomplete="off"
                placeholder=placeholder prop:value=text
                on:input=move |ev| draft.set(Some(event_target_value(&ev))) on:change=on_change/>
        }
        .into_any()
    } else {
        view! {
            <textarea class="code" aria-label=move || aria_label.get() spellcheck="false" rows=rows.unwrap_or(4)
                placeholder=placeholder prop:value=text
                on:input=move |ev| draft.set(Some(event_target_value(&ev))) on:change=on_change></textarea>
        }
        .into_any()
    };
    view! {
        {control}
        <CheckStatus verdict=verdict/>
    }
}

/// A labelled [`JsonInput`].
#[component]
pub fn JsonField(
    #[prop(into)] label: String,
    #[prop(into)] value: Signal<Option<Value>>,
    #[prop(into)] on_commit: Callback<Option<Value>>,
    #[prop(optional)] validate: Option<Validator>,
    #[prop(optional)] optional: bool,
    #[prop(optional)] rows: Option<u32>,
    #[prop(optional, into)] placeholder: Option<String>,
    #[prop(optional, into)] hint: Option<String>,
    #[prop(optional, into)] shown: Option<Signal<String>>,
) -> impl IntoView {
    let shown = shown.unwrap_or_else(|| {
        Signal::derive(move || {
            value.with(|v| v.as_ref().map(|v| serde_json::to_string_pretty(v).unwrap_or_default()).unwrap_or_default())
        })
    });
    view! {
        <label class="field">
            <span>{label.clone()}</span>
            {match validate {
                Some(f) => view! {
                    <JsonInput aria_label=label value=value on_commit=on_commit validate=f optional=optional
                        rows=rows.unwrap_or(4) placeholder=placeholder.unwrap_or_default() shown=shown/>
                }.into_any(),
                None => view! {
                    <JsonInput aria_label=label value=value on_commit=on_commit optional=optional
                        rows=rows.unwrap_or(4) placeholder=placeholder.unwrap_or_default() shown=shown/>
                }.into_any(),
            }}
            {hint.map(|h| view! { <span class="hint">{h}</span> })}
        </label>
    }
}

/// A map of names to text, one row each: rename a key, edit its value (checked as an
/// expression or template), remove a row, add one (with a fresh key, selected for typing).
///
/// Accessible names: keys are `<Key noun> <n>`, values `<Value noun> for <key>`, the buttons
/// `Remove <key>` and `Add <key noun>`.
#[component]
pub fn KvField(
    /// The group's name (`Set`, `Headers`…).
    #[prop(into)]
    label: String,
    #[prop(into)] entries: Signal<IndexMap<String, String>>,
    #[prop(into)] on_commit: Callback<IndexMap<String, String>>,
    /// `Field`, `Header`…
    #[prop(into)]
    key_noun: String,
    /// `Expression`, `Value`…
    #[prop(into)]
    value_noun: String,
    #[prop(optional)] check: Check,
    /// The base of a new row's key (`field`, then `field_2`…).
    #[prop(into)]
    fresh_key: String,
    /// A datalist of key suggestions.
    #[prop(optional, into)]
    key_list: Option<String>,
    #[prop(optional, into)] hint: Option<String>,
) -> impl IntoView {
    let store = use_store();
    let entries = Memo::new(move |_| entries.get());
    let len = Memo::new(move |_| entries.with(IndexMap::len));
    let group_id = unique_id("kv");
    let key_noun = Arc::new(key_noun);
    let value_noun = Arc::new(value_noun);
    let add = {
        let group_id = group_id.clone();
        move |_| {
            let mut m = entries.get_untracked();
            let key = fresh_name(&fresh_key, |k| m.contains_key(k));
            m.insert(key, String::new());
            on_commit.run(m);
            focus_later(format!("#{group_id} .kv-row:last-child .kv-key"));
        }
    };
    let row = {
        let key_noun = key_noun.clone();
        let value_noun = value_noun.clone();
        move |i: usize| {
            let key = Memo::new(move |_| entries.with(|m| m.get_index(i).map(|(k, _)| k.clone()).unwrap_or_default()));
            let val = Memo::new(move |_| entries.with(|m| m.get_index(i).map(|(_, v)| v.clone()).unwrap_or_default()));
            let kn = key_noun.clone();
            let rename = move |new: String| {
                let new = new.trim().to_string();
                let old = key.get_untracked();
                if new == old {
                    return;
                }
                let m = entries.get_untracked();
                if new.is_empty() {
                    store.error(format!("{kn} {} needs a name", i + 1));
                } else if m.contains_key(&new) {
                    store.error(format!("`{new}` is already used"));
                } else {
                    on_commit
                        .run(m.into_iter().map(|(k, v)| if k == old { (new.clone(), v) } else { (k, v) }).collect());
                }
            };
            let set_value = move |v: String| {
                let mut m = entries.get_untracked();
                if let Some(slot) = m.get_mut(&key.get_untracked()) {
                    *slot = v;
                }
                on_commit.run(m);
            };
            let remove = move |_| {
                let mut m = entries.get_untracked();
                m.shift_remove(&key.get_untracked());
                on_commit.run(m);
            };
            let kn = key_noun.clone();
            let vn = value_noun.clone();
            view! {
                <div class="kv-row">
                    <SourceInput class="kv-key" aria_label=format!("{kn} {}", i + 1) value=key on_commit=rename
                        list=key_list.clone().unwrap_or_default()/>
                    <div class="kv-value">
                        <SourceInput aria_label=Signal::derive(move || format!("{vn} for {}", key.get())) value=val
                            on_commit=set_value check=check/>
                    </div>
                    <button type="button" class="icon remove" title="Remove"
                        aria-label=move || format!("Remove {}", key.get()) on:click=remove>"×"</button>
                </div>
            }
        }
    };
    let add_text = format!("Add {}", key_noun.to_lowercase());
    view! {
        <fieldset class="field group" id=group_id>
            <legend>{label}</legend>
            {hint.map(|h| view! { <span class="hint">{h}</span> })}
            <div class="rows">
                <For each=move || 0..len.get() key=|i| *i children=row/>
            </div>
            <div class="row-actions">
                <button type="button" class="small" on:click=add>{add_text}</button>
            </div>
        </fieldset>
    }
}

/// A list of strings, one row each: edit (empty text removes the item), remove, add.
///
/// Accessible names: items are `<Item noun> <n>`, the buttons `Remove <item>` and
/// `Add <item noun>`.
#[component]
pub fn ListField(
    #[prop(into)] label: String,
    #[prop(into)] items: Signal<Vec<String>>,
    #[prop(into)] on_commit: Callback<Vec<String>>,
    /// `Option`, `Input key`…
    #[prop(into)]
    item_noun: String,
    /// The base of a new item (`option`, then `option_2`…).
    #[prop(into)]
    fresh_item: String,
    #[prop(optional, into)] list: Option<String>,
    #[prop(optional, into)] hint: Option<String>,
    /// Shown when the list is empty.
    #[prop(optional, into)]
    empty_text: Option<String>,
) -> impl IntoView {
    let store = use_store();
    let items = Memo::new(move |_| items.get());
    let len = Memo::new(move |_| items.with(Vec::len));
    let group_id = unique_id("list");
    let add = {
        let group_id = group_id.clone();
        move |_| {
            let mut v = items.get_untracked();
            let item = fresh_name(&fresh_item, |x| v.iter().any(|y| y == x));
            v.push(item);
            on_commit.run(v);
            focus_later(format!("#{group_id} .list-row:last-child input"));
        }
    };
    let noun = Arc::new(item_noun);
    let row = {
        let noun = noun.clone();
        move |i: usize| {
            let item = Memo::new(move |_| items.with(|v| v.get(i).cloned().unwrap_or_default()));
            let edit = move |new: String| {
                let new = new.trim().to_string();
                let mut v = items.get_untracked();
                if i >= v.len() || v[i] == new {
                    return;
                }
                if new.is_empty() {
                    v.remove(i);
                } else if v.contains(&new) {
                    store.error(format!("`{new}` is already in the list"));
                    return;
                } else {
                    v[i] = new;
                }
                on_commit.run(v);
            };
            let remove = move |_| {
                let mut v = items.get_untracked();
                if i < v.len() {
                    v.remove(i);
                    on_commit.run(v);
                }
            };
            view! {
                <div class="list-row">
                    <SourceInput aria_label=format!("{noun} {}", i + 1) value=item on_commit=edit
                        list=list.clone().unwrap_or_default()/>
                    <button type="button" class="icon remove" title="Remove"
                        aria-label=move || format!("Remove {}", item.get()) on:click=remove>"×"</button>
                </div>
            }
        }
    };
    let add_text = format!("Add {}", noun.to_lowercase());
    view! {
        <fieldset class="field group" id=group_id>
            <legend>{label}</legend>
            {hint.map(|h| view! { <span class="hint">{h}</span> })}
            <div class="rows">
                <For each=move || 0..len.get() key=|i| *i children=row/>
            </div>
            {move || (len.get() == 0).then(|| empty_text.clone().map(|t| view! { <span class="hint empty">{t}</span> }))}
            <div class="row-actions">
                <button type="button" class="small" on:click=add>{add_text}</button>
            </div>
        </fieldset>
    }
}
