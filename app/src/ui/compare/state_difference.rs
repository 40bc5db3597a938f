//! The state after the selected step in both runs, where it differs: one entry per differing
//! key (`data-key`, `data-changed="true"`), with its value in each run, or that it is missing
//! there.

use std::sync::Arc;

use leptos::prelude::*;
use serde_json::Value;

use crate::model::runs::compare::{Column, Comparison, KeyChange};

/// A value as the difference shows it: JSON, indented when it spans lines.
fn shown(v: &Option<Value>) -> String {
    match v {
        Some(v) => serde_json::to_string_pretty(v).unwrap_or_default(),
        None => "(absent)".to_string(),
    }
}

#[component]
pub fn StateDifference(comparison: StoredValue<Arc<Comparison>>, selected: RwSignal<Option<usize>>) -> impl IntoView {
    let (label_a, label_b) =
        comparison.with_value(|c| (c.label(Column::A).to_string(), c.label(Column::B).to_string()));
    let step = move || selected.get().and_then(|i| comparison.with_value(|c| c.rows.get(i).map(|r| r.step)));
    let changes = Memo::new(move |_| {
        selected.get().map(|i| comparison.with_value(|c| c.state_difference(i))).unwrap_or_default()
    });
    let entry = move |k: KeyChange| {
        view! {
            <li class="compare-key" data-key=k.key.clone() data-changed="true" data-change=k.change.name()>
                <div class="compare-key-name"><code>{k.key.clone()}</code><span class="muted">{format!(" {}", k.change.name())}</span></div>
                <div class="compare-values">
                    <div class="compare-value a" class:absent=k.before.is_none()>
                        <span class="compare-value-label">{label_a.clone()}</span>
                        <pre>{shown(&k.before)}</pre>
                    </div>
                    <div class="compare-value b" class:absent=k.after.is_none()>
                        <span class="compare-value-label">{label_b.clone()}</span>
                        <pre>{shown(&k.after)}</pre>
                    </div>
                </div>
            </li>
        }
    };
    view! {
        <section class="compare-state" role="region" aria-label="State difference" tabindex="0">
            <h3>{move || match step() {
                Some(s) => format!("State after step {s}"),
                None => "State".to_string(),
            }}</h3>
            {move || {
                let list = changes.get();
                if list.is_empty() {
                    view! { <p class="muted compare-no-change">"The state after this step is the same in both runs."</p> }.into_any()
                } else {
                    view! { <ul class="compare-keys">{list.into_iter().map(&entry).collect_view()}</ul> }.into_any()
                }
            }}
        </section>
    }
}
