//! The `Compare runs` dialog: the summary of how two runs compare, their steps side by side
//! (the first differing one selected and in view), the state difference at the selected
//! step, `Previous difference` and `Next difference` (also Alt+↑ and Alt+↓), and `Close`
//! (also Escape), which gives the focus back to where it was when the dialog opened.

use std::sync::Arc;

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;

use crate::actions::compare;
use crate::model::runs::compare::{Column, Comparison};
use crate::state::use_app;
use crate::ui::compare::state_difference::StateDifference;
use crate::ui::compare::step_rows::StepRows;

#[component]
pub fn CompareDialog(comparison: Arc<Comparison>) -> impl IntoView {
    let app = use_app();
    let selected = RwSignal::new(comparison.initial_row());
    let c = StoredValue::new(comparison);
    // Where the focus was, to give it back however the dialog closes.
    let back_to = StoredValue::new_local(document().active_element());
    on_cleanup(move || {
        if let Some(el) = back_to.get_value().and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = el.focus();
        }
    });
    let next = move || c.with_value(|c| selected.get().map_or(c.first, |i| c.next_difference(i)));
    let previous = move || c.with_value(|c| selected.get().and_then(|i| c.previous_difference(i)));
    let go = move |to: Option<usize>| {
        if let Some(i) = to {
            selected.set(Some(i));
        }
    };
    let on_key = move |ev: KeyboardEvent| {
        let key = ev.key();
        if key == "Escape" {
            // Not the page's Escape too (it would clear the canvas's selection).
            ev.stop_propagation();
            ev.prevent_default();
            compare::close(app);
        } else if ev.alt_key() && key == "ArrowDown" {
            ev.prevent_default();
            go(untrack(next));
        } else if ev.alt_key() && key == "ArrowUp" {
            ev.prevent_default();
            go(untrack(previous));
        }
    };
    let position = move || {
        c.with_value(|c| {
            let total = c.differing();
            let at = selected
                .get()
                .filter(|&i| c.rows[i].differs)
                .map(|i| c.rows[..=i].iter().filter(|r| r.differs).count());
            match (total, at) {
                (0, _) => "No step differs".to_string(),
                (n, Some(k)) => format!("Difference {k} of {n}"),
                (n, None) => format!("{n} differing steps"),
            }
        })
    };
    let (label_a, label_b) = c.with_value(|c| (c.label(Column::A).to_string(), c.label(Column::B).to_string()));
    let same = c.with_value(|c| c.same());
    let summary = c.with_value(|c| c.summary());
    let input = c.with_value(|c| c.input.iter().map(|k| k.key.clone()).collect::<Vec<_>>());
    view! {
        <div class="dialog compare" role="dialog" aria-modal="true" aria-label="Compare runs" on:keydown=on_key>
            <div class="compare-head">
                <h2>"Compare runs"</h2>
                <p class="compare-runs">
                    <span class="compare-label a">{label_a}</span>
                    <span class="muted">" vs "</span>
                    <span class="compare-label b">{label_b}</span>
                </p>
            </div>
            <p class="compare-summary" class:same=same data-same=same.to_string() role="status">{summary}</p>
            {(!input.is_empty()).then(|| view! {
                <p class="compare-input muted">{format!("Their inputs differ in {}.", input.join(", "))}</p>
            })}
            <div class="compare-nav" role="group" aria-label="Differences">
                <button on:click=move |_| go(previous()) disabled=move || previous().is_none()
                    title="Previous difference (Alt+↑)" aria-keyshortcuts="Alt+ArrowUp">"Previous difference"</button>
                <button on:click=move |_| go(next()) disabled=move || next().is_none()
                    title="Next difference (Alt+↓)" aria-keyshortcuts="Alt+ArrowDown">"Next difference"</button>
                <span class="compare-position muted" aria-live="polite">{position}</span>
            </div>
            <StepRows comparison=c selected=selected/>
            <StateDifference comparison=c selected=selected/>
            <div class="dialog-actions">
                <button class="primary" on:click=move |_| compare::close(app)>"Close"</button>
            </div>
        </div>
    }
}
