//! The palette: one button per node kind. Click adds the node in free space near the
//! selection or the middle of the view;
//! dragging it onto the canvas drops it where it lands.

use leptos::prelude::*;
use web_sys::DragEvent;

use crate::actions::navigation;
use crate::model::editing::palette::KINDS;
use crate::state::use_app;

/// The drag-and-drop data type carrying a node kind's name.
pub const DRAG_TYPE: &str = "application/x-switchyard-kind";

#[component]
pub fn PaletteBar() -> impl IntoView {
    let app = use_app();
    let buttons = KINDS
        .iter()
        .map(|k| {
            let kind = k.kind;
            let on_click = move |_| navigation::add_from_palette(app, kind);
            let on_drag = move |ev: DragEvent| {
                if let Some(dt) = ev.data_transfer() {
                    let _ = dt.set_data(DRAG_TYPE, kind.name());
                    dt.set_effect_allowed("copy");
                }
            };
            view! {
                <button class="palette-item" draggable="true" on:click=on_click on:dragstart=on_drag
                    style=format!("--kind: var({})", k.color_var) title=k.blurb aria-label=format!("Add {}", k.title)>
                    <span class="node-icon" aria-hidden="true">{k.icon}</span>
                    <span>{k.title}</span>
                </button>
            }
        })
        .collect_view();
    view! {
        <section class="palette" aria-label="Palette">
            <h2>"Nodes"</h2>
            <div class="palette-grid">{buttons}</div>
        </section>
    }
}
