//! The steps of two runs side by side: one row per step number, each side showing what ran
//! and the edges it took (a step only one run reached beside an empty cell), differing rows
//! marked. A listbox: the arrows, Home and End move the selection; the selected row stays in
//! view, and on opening it is the first differing step.

use std::sync::Arc;

use leptos::html::Ul;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;

use crate::model::runs::compare::{Column, Comparison, Row, StepSide};
use crate::ui::fields::scroll_to_show;

/// The id of row `i`'s element (for `aria-activedescendant`).
fn row_id(i: usize) -> String {
    format!("compare-step-{i}")
}

/// One run's cell of a row: what ran, the edges taken, or that the run had no such step.
fn cell(label: String, side: Option<StepSide>) -> impl IntoView {
    match side {
        Some(s) => {
            let taken = (!s.taken.is_empty()).then(|| format!("→ {}", s.taken.join(", ")));
            let failed = s.failed || !s.errors.is_empty();
            view! {
                <span class="compare-cell" class:failed=failed>
                    <span class="visually-hidden">{format!("{label}: ")}</span>
                    <span class="compare-ran">{s.ran_text()}</span>
                    {failed.then(|| view! { <span class="compare-failed">{format!(" failed: {}", s.errors.join(", "))}</span> })}
                    {taken.map(|t| view! { <span class="compare-taken">{t}</span> })}
                </span>
            }
            .into_any()
        }
        None => view! {
            <span class="compare-cell missing">
                <span class="visually-hidden">{format!("{label}: ")}</span>
                "no such step (the run had ended)"
            </span>
        }
        .into_any(),
    }
}

#[component]
pub fn StepRows(comparison: StoredValue<Arc<Comparison>>, selected: RwSignal<Option<usize>>) -> impl IntoView {
    let len = comparison.with_value(|c| c.rows.len());
    let (label_a, label_b) =
        comparison.with_value(|c| (c.label(Column::A).to_string(), c.label(Column::B).to_string()));
    let heading = (label_a.clone(), label_b.clone());
    let list = NodeRef::<Ul>::new();
    // The list has the focus when the dialog opens, so the arrows work at once.
    Effect::new(move |_| {
        if let Some(el) = list.get() {
            let _ = el.focus();
        }
    });
    // The selected row stays in sight, once it is drawn.
    Effect::new(move |_| {
        let (Some(i), Some(list)) = (selected.get(), list.get()) else { return };
        request_animation_frame(move || {
            if let Some(row) =
                document().get_element_by_id(&row_id(i)).and_then(|r| r.dyn_into::<web_sys::HtmlElement>().ok())
            {
                scroll_to_show(&list, &row);
            }
        });
    });
    let on_key = move |ev: KeyboardEvent| {
        if ev.alt_key() || len == 0 {
            return;
        }
        let at = selected.get_untracked();
        let to = match ev.key().as_str() {
            "ArrowDown" => at.map_or(0, |i| (i + 1).min(len - 1)),
            "ArrowUp" => at.map_or(0, |i| i.saturating_sub(1)),
            "Home" => 0,
            "End" => len - 1,
            "PageDown" => at.map_or(0, |i| (i + 10).min(len - 1)),
            "PageUp" => at.map_or(0, |i| i.saturating_sub(10)),
            _ => return,
        };
        ev.prevent_default();
        selected.set(Some(to));
    };
    let rows: Vec<Row> = comparison.with_value(|c| c.rows.clone());
    let row = move |(i, r): (usize, Row)| {
        let is = move || selected.get() == Some(i);
        let differs = r.differs;
        let status = if differs { format!("differs: {}", r.why.join(", ")) } else { "same".to_string() };
        let tip = status.clone();
        view! {
            <li id=row_id(i) role="option" class="compare-row" class:differs=differs class:selected=is
                aria-selected=move || is().to_string() data-step=r.step.to_string()
                data-differs=differs.to_string()
                on:click=move |_| selected.set(Some(i))>
                <span class="compare-step">{r.step.to_string()}</span>
                {cell(label_a.clone(), r.a)}
                {cell(label_b.clone(), r.b)}
                <span class="compare-mark" title=tip>
                    <span aria-hidden="true">{if differs { "≠" } else { "=" }}</span>
                    <span class="visually-hidden">{status}</span>
                </span>
            </li>
        }
    };
    view! {
        <div class="compare-steps">
            <div class="compare-columns" aria-hidden="true">
                <span class="compare-step">"Step"</span>
                <span>{heading.0}</span>
                <span>{heading.1}</span>
                <span></span>
            </div>
            <ul node_ref=list class="compare-list" role="listbox" aria-label="Steps compared" tabindex="0"
                aria-activedescendant=move || selected.get().map(row_id) on:keydown=on_key>
                {rows.into_iter().enumerate().map(row).collect_view()}
            </ul>
            {(len == 0).then(|| view! { <p class="muted">"Neither run has any step yet."</p> })}
        </div>
    }
}
