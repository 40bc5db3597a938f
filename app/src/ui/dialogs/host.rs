//! Dialogs: import (file or pasted text), share link, node search; the keyboard help
//! (`help_dialog`), the command palette (`command_palette`) and `Compare runs`
//! (`ui::compare`) are shown from here too.

use leptos::html::Input;
use leptos::prelude::*;
use web_sys::KeyboardEvent;

use crate::actions::{document, exchange, navigation};
use crate::state::{Dialog, use_app, use_doc, use_ui};
use crate::ui::compare::compare_dialog::CompareDialog;
use crate::ui::dialogs::command_palette::CommandPalette;
use crate::ui::dialogs::help_dialog::HelpDialog;
use crate::ui::dialogs::settings::SettingsDialog;

#[component]
pub fn Dialogs() -> impl IntoView {
    let ui = use_ui();
    move || {
        ui.dialog.get().map(|d| {
            let body = match d {
                Dialog::Import => view! { <ImportDialog/> }.into_any(),
                Dialog::Share(link) => view! { <ShareDialog link=link/> }.into_any(),
                Dialog::Search => view! { <SearchDialog/> }.into_any(),
                Dialog::Help => view! { <HelpDialog/> }.into_any(),
                Dialog::Palette => view! { <CommandPalette/> }.into_any(),
                Dialog::Settings => view! { <SettingsDialog/> }.into_any(),
                Dialog::FileChanged(text) => view! { <FileChangedDialog text=text/> }.into_any(),
                Dialog::ConfirmDelete { id, name } => view! { <ConfirmDeleteDialog id=id name=name/> }.into_any(),
                Dialog::Compare(comparison) => view! { <CompareDialog comparison=comparison/> }.into_any(),
            };
            view! {
                <div class="backdrop" on:pointerdown=move |ev| {
                    if ev.target() == ev.current_target() { ui.dialog.set(None); }
                }>
                    {body}
                </div>
            }
        })
    }
}

#[component]
fn ImportDialog() -> impl IntoView {
    let app = use_app();
    let ui = use_ui();
    let text = RwSignal::new(String::new());
    let on_file = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        if let Some(file) = input.files().and_then(|f| f.get(0)) {
            ui.dialog.set(None);
            exchange::import_file(app, file);
        }
        input.set_value("");
    };
    let on_paste = move |_| {
        if exchange::import_text(app, &text.get_untracked(), "the pasted text") {
            ui.dialog.set(None);
        }
    };
    view! {
        <div class="dialog" role="dialog" aria-modal="true" aria-label="Import">
            <h2>"Import a graph or a run"</h2>
            <p>"Choose a graph ("<code>"switchyard/graph@1"</code>") or a run record ("<code>"switchyard/run@1"</code>", into the open graph's history), drop one on the canvas, or paste its text."</p>
            <label class="file-pick">
                <span>"Choose a file…"</span>
                <input type="file" accept=".json,application/json" aria-label="Import file" on:change=on_file/>
            </label>
            <textarea class="paste" aria-label="Paste JSON" placeholder="{ \"format\": \"switchyard/graph@1\", … }"
                prop:value=text on:input=move |ev| text.set(event_target_value(&ev))></textarea>
            <div class="dialog-actions">
                <button on:click=move |_| ui.dialog.set(None)>"Cancel"</button>
                <button class="primary" on:click=on_paste disabled=move || text.with(|t| t.trim().is_empty())>"Import pasted JSON"</button>
            </div>
        </div>
    }
}

#[component]
fn ShareDialog(link: String) -> impl IntoView {
    let ui = use_ui();
    let size = link.len();
    view! {
        <div class="dialog" role="dialog" aria-modal="true" aria-label="Share link">
            <h2>"Share link"</h2>
            <p>"Anyone opening this link gets a copy of the graph. It was copied to your clipboard."</p>
            <input class="share-link" readonly aria-label="Share link" value=link.clone()
                on:focus=move |ev| { let el: web_sys::HtmlInputElement = event_target(&ev); el.select(); }/>
            <p class="muted">{format!("{size} characters")}</p>
            <div class="dialog-actions">
                <a class="button" href=link target="_blank" rel="noopener">"Open in a new tab"</a>
                <button class="primary" on:click=move |_| ui.dialog.set(None)>"Done"</button>
            </div>
        </div>
    }
}

#[component]
fn SearchDialog() -> impl IntoView {
    let app = use_app();
    let doc = use_doc();
    let ui = use_ui();
    let query = RwSignal::new(String::new());
    let active = RwSignal::new(0usize);
    let input = NodeRef::<Input>::new();
    Effect::new(move |_| {
        if let Some(el) = input.get() {
            let _ = el.focus();
        }
    });
    let results = Memo::new(move |_| {
        let q = query.get().to_lowercase();
        doc.editor.with(|e| {
            e.graph()
                .nodes
                .iter()
                .filter(|n| {
                    q.is_empty()
                        || n.id.to_lowercase().contains(&q)
                        || n.title().to_lowercase().contains(&q)
                        || n.kind.name().contains(&q)
                })
                .take(12)
                .map(|n| (n.id.clone(), n.title().to_string(), n.kind.name()))
                .collect::<Vec<_>>()
        })
    });
    let choose = move |id: String| {
        navigation::select_and_show(app, &id);
        ui.dialog.set(None);
    };
    let on_key = move |ev: KeyboardEvent| match ev.key().as_str() {
        "ArrowDown" => active.update(|a| *a = (*a + 1).min(results.with(Vec::len).saturating_sub(1))),
        "ArrowUp" => active.update(|a| *a = a.saturating_sub(1)),
        "Enter" => {
            if let Some((id, _, _)) = results.with(|r| r.get(active.get_untracked()).cloned()) {
                choose(id);
            }
        }
        _ => {}
    };
    view! {
        <div class="dialog search" role="dialog" aria-modal="true" aria-label="Find a node">
            <input node_ref=input class="search-input" aria-label="Find a node" placeholder="Node name, id or kind…"
                prop:value=query on:input=move |ev| { query.set(event_target_value(&ev)); active.set(0); } on:keydown=on_key/>
            <ul class="search-results" role="listbox" aria-label="Nodes found">
                {move || results.get().into_iter().enumerate().map(|(i, (id, title, kind))| {
                    let chosen = id.clone();
                    view! {
                        <li role="option" aria-selected=move || (active.get() == i).to_string() class:active=move || active.get() == i
                            on:click=move |_| choose(chosen.clone())>
                            <span class="result-title">{title}</span>
                            <span class="result-meta">{format!("{kind} · {id}")}</span>
                        </li>
                    }
                }).collect_view()}
            </ul>
        </div>
    }
}

/// The open file changed on disk (another program, a `git pull`): reload it or keep ours.
#[component]
fn FileChangedDialog(text: String) -> impl IntoView {
    let app = use_app();
    let ui = use_ui();
    let reload = move |_| {
        document::reload_from_disk(app, &text);
        ui.dialog.set(None);
    };
    view! {
        <div class="dialog" role="dialog" aria-modal="true" aria-label="File changed on disk">
            <h2>"The file changed on disk"</h2>
            <p>"Another program changed this graph's file since it was opened here."</p>
            <div class="dialog-actions">
                <button on:click=move |_| ui.dialog.set(None)>"Keep my version"</button>
                <button class="primary" on:click=reload>"Reload from disk"</button>
            </div>
        </div>
    }
}

/// Deleting a saved graph, asked in the editor's own dialog; Cancel has the focus.
#[component]
fn ConfirmDeleteDialog(id: String, name: String) -> impl IntoView {
    let app = use_app();
    let ui = use_ui();
    let delete = move |_| {
        ui.dialog.set(None);
        document::delete_graph(app, &id);
    };
    crate::ui::fields::focus_first(".dialog .cancel".into());
    view! {
        <div class="dialog" role="alertdialog" aria-modal="true" aria-label="Delete graph" aria-describedby="delete-what">
            <h2>{format!("Delete “{name}”?")}</h2>
            <p id="delete-what">"It is removed from your saved graphs. This cannot be undone."</p>
            <div class="dialog-actions">
                <button class="cancel" on:click=move |_| ui.dialog.set(None)>"Cancel"</button>
                <button class="primary danger-fill" on:click=delete>"Delete"</button>
            </div>
        </div>
    }
}
