//! Asks before the open graph, whose work could not be saved, is replaced: keep a copy
//! elsewhere (Export, or Save As… on the desktop), discard it, or cancel and stay.

use leptos::prelude::*;

use crate::actions::leave;
use crate::platform::use_platform;
use crate::state::{use_app, use_doc};

#[component]
pub fn UnsavedDialog() -> impl IntoView {
    let app = use_app();
    let doc = use_doc();
    let platform = use_platform();
    let keep_label = if leave::saves_as(platform) { "Save As…" } else { "Export" };
    move || {
        doc.leaving.with(Option::is_some).then(|| {
            let name = doc.editor.with_untracked(|e| e.document().display_name().to_string());
            view! {
                <div class="backdrop">
                    <div class="dialog" role="dialog" aria-modal="true" aria-label="Unsaved work">
                        <h2>"Unsaved work"</h2>
                        <p>{format!(
                            "“{name}” could not be saved, so its latest changes are only in this window. {keep_label} it to keep a copy, or discard the changes."
                        )}</p>
                        <div class="dialog-actions">
                            <button on:click=move |_| leave::stay(doc)>"Cancel"</button>
                            <button on:click=move |_| leave::discard_and_go(app)>"Discard"</button>
                            <button class="primary" on:click=move |_| leave::keep_copy_and_go(app)>{keep_label}</button>
                        </div>
                    </div>
                </div>
            }
        })
    }
}
