//! [`RunSplitter`]: the bar above the run panel that sizes it, by dragging or from the
//! keyboard (arrows, Page Up/Down, Home, End; Enter or a double click for the usual height).

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{KeyboardEvent, PointerEvent};

use crate::actions::panels::{self, RUN_MIN};
use crate::state::{use_app, use_ui};

#[component]
pub fn RunSplitter() -> impl IntoView {
    let app = use_app();
    let ui = use_ui();
    // Where the drag began: the pointer's y and the panel's height then.
    let drag = StoredValue::new(None::<(f64, f64)>);
    let on_down = move |ev: PointerEvent| {
        if ev.button() != 0 {
            return;
        }
        ev.prevent_default();
        if let Some(el) = ev.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) {
            let _ = el.set_pointer_capture(ev.pointer_id());
        }
        drag.set_value(Some((ev.client_y() as f64, ui.run_height.get_untracked())));
    };
    let on_move = move |ev: PointerEvent| {
        if let Some((y0, h0)) = drag.get_value() {
            panels::resize_run(app, h0 + (y0 - ev.client_y() as f64));
        }
    };
    let on_up = move |_: PointerEvent| {
        if drag.get_value().is_some() {
            drag.set_value(None);
            panels::keep_run_height(app);
        }
    };
    let on_key = move |ev: KeyboardEvent| {
        let h = ui.run_height.get_untracked();
        let to = match ev.key().as_str() {
            "ArrowUp" => h + 24.0,
            "ArrowDown" => h - 24.0,
            "PageUp" => h + 120.0,
            "PageDown" => h - 120.0,
            "Home" => RUN_MIN,
            "End" => panels::run_max(app.platform),
            "Enter" => {
                ev.prevent_default();
                return panels::reset_run_height(app);
            }
            _ => return,
        };
        ev.prevent_default();
        panels::resize_run(app, to);
        panels::keep_run_height(app);
    };
    view! {
        <div class="run-splitter" role="separator" aria-orientation="horizontal" aria-label="Run panel height"
            tabindex="0" title="Drag to resize the run panel (double-click: usual height)"
            aria-valuemin=RUN_MIN.to_string() aria-valuemax=move || panels::run_max(app.platform).round().to_string()
            aria-valuenow=move || ui.run_height.get().round().to_string()
            hidden=move || !ui.run_open.get()
            on:pointerdown=on_down on:pointermove=on_move on:pointerup=on_up on:pointercancel=on_up
            on:dblclick=move |_| panels::reset_run_height(app)
            on:keydown=on_key></div>
    }
}
