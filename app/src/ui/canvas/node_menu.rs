//! A node's menu on the canvas (right click, or the context-menu key / Shift+F10 on the
//! node): its breakpoints, `Break before` and `Break after`, as checkable items. Escape, a
//! click elsewhere or choosing an item closes it.

use engine::run::Breakpoint;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::actions::breakpoints;
use crate::model::runs::breakpoints::side_name;
use crate::state::{use_app, use_run};

/// The menu of node `id`, shown while `open`; the first item takes the focus.
#[component]
pub fn NodeMenu(id: String, open: RwSignal<bool>) -> impl IntoView {
    let app = use_app();
    let ctl = use_run();
    let menu = NodeRef::<leptos::html::Div>::new();
    Effect::new(move |_| {
        if open.get()
            && let Some(el) = menu.get()
            && let Some(first) = el.query_selector("[role=menuitemcheckbox]").ok().flatten()
            && let Ok(first) = first.dyn_into::<web_sys::HtmlElement>()
        {
            let _ = first.focus();
        }
    });
    let item = move |side: Breakpoint| {
        let id = id.clone();
        let id2 = id.clone();
        let checked = Memo::new(move |_| ctl.breakpoints.with(|b| b.has(&id2, side)));
        view! {
            <button type="button" role="menuitemcheckbox" class="node-menu-item"
                aria-checked=move || if checked.get() { "true" } else { "false" }
                on:click=move |_| {
                    breakpoints::set(app, &id, side, !checked.get_untracked());
                    open.set(false);
                }>
                <span class="check" aria-hidden="true">{move || if checked.get() { "●" } else { "" }}</span>
                {side_name(side)}
            </button>
        }
    };
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let Some(el) = menu.get_untracked() else { return };
        // Two items: the arrows move between them.
        let pick = |which: &str| {
            el.query_selector(&format!(".node-menu-item:{which}-child"))
                .ok()
                .flatten()
                .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        };
        let (first, last) = (pick("first"), pick("last"));
        let on_first =
            document().active_element().is_some_and(|a| first.as_ref().is_some_and(|f| a.is_same_node(Some(f))));
        let go = || {
            if let Some(i) = if on_first { &last } else { &first } {
                let _ = i.focus();
            }
        };
        match ev.key().as_str() {
            "Escape" | "Tab" => open.set(false),
            "ArrowDown" | "ArrowUp" => go(),
            _ => return,
        }
        ev.stop_propagation();
    };
    let on_focus_out = move |ev: web_sys::FocusEvent| {
        let inside = ev
            .related_target()
            .and_then(|t| t.dyn_into::<web_sys::Node>().ok())
            .is_some_and(|t| menu.get_untracked().is_some_and(|m| m.contains(Some(&t))));
        if !inside {
            open.set(false);
        }
    };
    view! {
        <div class="node-menu" role="menu" aria-label="Node menu" node_ref=menu
            on:keydown=on_key on:focusout=on_focus_out on:pointerdown=|ev| ev.stop_propagation()>
            {item(Breakpoint::Before)}
            {item(Breakpoint::After)}
        </div>
    }
}
