//! Settings actions: the colour theme (chosen, else the system's) and the model settings.

use leptos::prelude::*;

use crate::platform::PlatformRef;
use crate::state::{Alerts, Theme, UiState};

/// Applies the saved theme, else the system's preference, and keeps the page in step.
pub fn init_theme(ui: UiState, platform: PlatformRef) {
    let dark_preferred =
        window().match_media("(prefers-color-scheme: dark)").ok().flatten().is_some_and(|m| m.matches());
    let theme = match platform.get().preference("theme").as_deref() {
        Some("dark") => Theme::Dark,
        Some("light") => Theme::Light,
        _ if dark_preferred => Theme::Dark,
        _ => Theme::Light,
    };
    ui.theme.set(theme);
    Effect::new(move |_| {
        let name = match ui.theme.get() {
            Theme::Dark => "dark",
            Theme::Light => "light",
        };
        if let Some(root) = document().document_element() {
            let _ = root.set_attribute("data-theme", name);
        }
    });
}

/// Switches between light and dark, and remembers the choice.
pub fn toggle_theme(ui: UiState, platform: PlatformRef) {
    let next = match ui.theme.get_untracked() {
        Theme::Light => Theme::Dark,
        Theme::Dark => Theme::Light,
    };
    ui.theme.set(next);
    platform.get().set_preference("theme", if next == Theme::Dark { "dark" } else { "light" });
}

/// Saves the model settings as typed, says where, and closes the dialog.
pub fn save_model_settings(ui: UiState, alerts: Alerts, platform: PlatformRef, api_key: &str, base_url: &str) {
    let platform = platform.get();
    let wording = platform.wording();
    let saving = platform.save_model_settings(api_key.trim().to_string(), base_url.trim().to_string());
    wasm_bindgen_futures::spawn_local(async move {
        match saving.await {
            Ok(()) => alerts.info(wording.settings_saved),
            Err(why) => alerts.error(format!("Could not save the settings: {why}")),
        }
    });
    ui.dialog.set(None);
}
