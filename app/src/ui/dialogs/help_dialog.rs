//! The Help dialog: every command offered where the editor runs, with its keys there (the
//! desktop app's menu accelerators, the browser's keys, and the keys the browser keeps for
//! itself said as such), then the canvas's gestures.

use leptos::prelude::*;
use switchyard_ipc::commands::offered;

use crate::actions::keyboard::GESTURES;
use crate::platform::use_platform;
use crate::state::use_ui;

#[component]
pub fn HelpDialog() -> impl IntoView {
    let ui = use_ui();
    let flavour = use_platform().get().flavour();
    let rows = offered(flavour)
        .map(|c| {
            let keys = c.keys_in(flavour);
            let kept = c.kept_by_browser(flavour);
            let kept = (!kept.is_empty()).then(|| {
                let kept: Vec<String> = kept.iter().map(ToString::to_string).collect();
                view! { <span class="muted">{format!("{} is the browser's", kept.join(" / "))}</span> }
            });
            view! {
                <tr data-command=c.wire>
                    <td class="help-keys">
                        {keys.iter().enumerate().map(|(i, k)| view! {
                            {(i > 0).then_some(" / ")}<kbd>{k.to_string()}</kbd>
                        }).collect_view()}
                        {kept}
                    </td>
                    <td><span class="help-name">{c.name()}</span>" — "{c.help}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="dialog help" role="dialog" aria-modal="true" aria-label="Keyboard shortcuts">
            <h2>"Keyboard shortcuts"</h2>
            // Focusable, as a region that scrolls must be.
            <div class="help-body" role="group" aria-label="Commands and gestures" tabindex="0">
                <table class="shortcuts" aria-label="Commands">
                    <tbody>{rows}</tbody>
                </table>
                <h3>"On the canvas"</h3>
                <table class="shortcuts" aria-label="On the canvas">
                    <tbody>
                        {GESTURES.iter().map(|(k, what)| view! { <tr><td><kbd>{*k}</kbd></td><td>{*what}</td></tr> }).collect_view()}
                    </tbody>
                </table>
            </div>
            <div class="dialog-actions">
                <button class="primary" on:click=move |_| ui.dialog.set(None)>"Close"</button>
            </div>
        </div>
    }
}
