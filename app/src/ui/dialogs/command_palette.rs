//! The command palette (Ctrl+Shift+P or F1): every command of the command table, filtered as
//! the person types, each with its keys on this platform. The arrows move the active row,
//! Enter carries it out, Escape closes and gives the focus back where it was. Commands that
//! cannot act now are shown disabled rather than left out, so the list is the same whenever
//! it opens (and the same as Help's) and a person learns where each command is.

use leptos::html::Input;
use leptos::prelude::*;
use switchyard_ipc::commands::{Command, CommandId, Press, command_for, offered};
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;

use crate::actions::commands::{can_act, carry_out};
use crate::model::editing::commands::filter;
use crate::state::use_app;
use crate::ui::fields::scroll_to_show;

/// The id of a command's row (for `aria-activedescendant`).
fn row_id(c: &Command) -> String {
    format!("palette-{}", c.wire.replace('.', "-"))
}

#[component]
pub fn CommandPalette() -> impl IntoView {
    let app = use_app();
    let flavour = app.platform.get().flavour();
    let commands: Vec<&'static Command> = offered(flavour).collect();
    let names: Vec<String> = commands.iter().map(|c| c.name()).collect();
    // Where the focus was, to give it back.
    let back_to = StoredValue::new_local(document().active_element());
    let query = RwSignal::new(String::new());
    let shown = Memo::new(move |_| query.with(|q| filter(q, &names)));
    let list = StoredValue::new(commands);
    let command = move |i: usize| list.with_value(|l| l[i]);
    let enabled = move |i: usize| can_act(app, command(i).id);
    // The active row, as a position in `shown`: the first enabled one after each change.
    let active = RwSignal::new(0usize);
    let first_enabled = move || shown.with_untracked(|s| s.iter().position(|&i| untrack(|| enabled(i))).unwrap_or(0));
    Effect::new(move |_| {
        shown.track();
        active.set(first_enabled());
    });
    let input = NodeRef::<Input>::new();
    Effect::new(move |_| {
        if let Some(el) = input.get() {
            let _ = el.focus();
        }
    });
    let close = move || {
        app.ui.dialog.set(None);
        if let Some(el) = back_to.get_value().and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = el.focus();
        }
    };
    let choose = move |i: usize| {
        if untrack(|| enabled(i)) {
            close();
            carry_out(app, command(i).id);
        }
    };
    // The next enabled row from `from`, `step` rows at a time, wrapping around.
    let next = move |from: usize, step: isize| {
        let len = shown.with_untracked(Vec::len) as isize;
        (1..=len)
            .map(|k| (from as isize + step * k).rem_euclid(len.max(1)) as usize)
            .find(|&p| shown.with_untracked(|s| untrack(|| enabled(s[p]))))
            .unwrap_or(from)
    };
    let on_key = move |ev: KeyboardEvent| {
        let at = active.get_untracked();
        let press =
            Press { key: ev.key(), ctrl: ev.ctrl_key() || ev.meta_key(), shift: ev.shift_key(), alt: ev.alt_key() };
        // The palette's own keys close it, as Escape does.
        if command_for(flavour, &press) == Some(CommandId::Palette) {
            ev.stop_propagation();
            ev.prevent_default();
            return close();
        }
        match ev.key().as_str() {
            "ArrowDown" => active.set(next(at, 1)),
            "ArrowUp" => active.set(next(at, -1)),
            "Home" => active.set(first_enabled()),
            "End" => active.set(next(0, -1)),
            "Enter" => {
                if let Some(i) = shown.with_untracked(|s| s.get(at).copied()) {
                    choose(i);
                }
            }
            "Escape" => {
                // Not the page's Escape too (it would clear the selection).
                ev.stop_propagation();
                close();
            }
            // The focus stays in the palette (its one control).
            "Tab" => {}
            _ => return,
        }
        ev.prevent_default();
    };
    let active_id = move || shown.with(|s| s.get(active.get()).map(|&i| row_id(command(i))));
    // The active row stays in sight as the arrows move it.
    let list_el = NodeRef::<leptos::html::Ul>::new();
    Effect::new(move |_| {
        let (Some(id), Some(list)) = (active_id(), list_el.get()) else { return };
        if let Some(row) = document().get_element_by_id(&id).and_then(|r| r.dyn_into::<web_sys::HtmlElement>().ok()) {
            scroll_to_show(&list, &row);
        }
    });
    view! {
        <div class="dialog command-palette" role="dialog" aria-modal="true" aria-label="Command palette" on:keydown=on_key>
            <input node_ref=input class="search-input" role="combobox" aria-label="Command" aria-expanded="true"
                aria-controls="palette-list" aria-autocomplete="list" aria-activedescendant=active_id
                placeholder="Type a command…" autocomplete="off" spellcheck="false"
                prop:value=query on:input=move |ev| query.set(event_target_value(&ev))/>
            // Focusable, as a list that scrolls must be; the arrows work from it too.
            <ul id="palette-list" node_ref=list_el class="search-results command-list" role="listbox" aria-label="Commands" tabindex="0">
                {move || shown.get().into_iter().enumerate().map(|(pos, i)| {
                    let c = command(i);
                    let keys = c.keys_in(flavour);
                    view! {
                        <li id=row_id(c) role="option" data-command=c.wire
                            data-accelerator=c.accelerator().map(|a| a.accelerator())
                            aria-selected=move || (active.get() == pos).to_string()
                            aria-disabled=move || (!enabled(i)).to_string()
                            class:active=move || active.get() == pos class:disabled=move || !enabled(i)
                            on:pointerdown=|ev| ev.prevent_default()
                            on:click=move |_| choose(i)>
                            <span class="result-title">{c.name()}</span>
                            <span class="command-keys">
                                {keys.iter().map(|k| view! { <kbd>{k.to_string()}</kbd> }).collect_view()}
                            </span>
                        </li>
                    }
                }).collect_view()}
            </ul>
            {move || shown.with(Vec::is_empty).then(|| view! {
                <p class="muted command-empty" role="status">"No command has that name"</p>
            })}
        </div>
    }
}
